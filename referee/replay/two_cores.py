"""A long log replayed on two cores, in segments of hands.

Hands depend on each other only through the table: a hand is checked against
the last one's seats and dealer, which the log itself states, and the last one
must be finished, which a segment checks by starting the next segment's first
hand. So any segment can start from ``Table.resume`` while others are being
replayed, and the answer is the same as a sequential replay's: the same
results, or the same first error.

Two processes (the second forked) take the segments in order, each the next
free one whenever it is ready, so a core that runs slower (this host's cores
are shared, and one can run a fifth slower than the other) simply replays
fewer. Each process writes its own hands' JSON lines and adds up its own
totals (serial work moved into the parallel phase); the child sends both
back, and the parent only joins, adds and writes. Totals are exact decimals,
so adding them by segments gives what adding hand by hand gives.

``referee replay --json`` starts the second process before the log is even
read (``replay_document_json_text``): reading and checking a 10,000-hand log
is a tenth of the run, and the second core need not wait for it. Its work is
kept only if the log turns out plain (read as the very document it replayed);
a log refused, or read by the schema, stops it, and its errors are the
reading's, as they always were.

Only for ``referee replay --json`` of large logs (the readable report needs
each hand's story); side-bet pots run across segments, so logs with side bets
are replayed in one piece.
"""

from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable
from decimal import Decimal

from ..ledger.results import result_doc, settle_session
from ..record.result_text import EncodedItems, item_line, result_json_text
from ..rules.errors import RefereeError
from ..rules.hand import VOID
from ..rules.table import Table
from .sequential import (
    Session,
    check_log_end,
    open_session,
    play_on,
    replay,
    settle_logged,
    start_on,
)

#: Fewer hands than this are not worth a second process.
MIN_HANDS = 2000

#: The shortest segment is this fraction of the log's work: the last
#: segments are the shortest, so the two processes end within about one
#: of them of each other.
SEGMENTS = 128

#: Each segment is about this fraction of the work left when it is cut: the
#: first ones long (fewer seams, each a table resumed), the last ones short.
SHARE_LEFT = 4

# What a hand costs to replay, in actions: starting it, settling it and
# writing its line cost about as much as 20 of its actions (measured).
HAND_COST = 20

Segment = tuple[str, dict[str, Decimal]]  # the hands' JSON lines, and their totals


class Unresumable(str):
    """A segment that failed other than by a rule broken (its text: why): a
    segment starts from the seats and dealer the log claims for the hand
    before it, and a log that breaks a rule there (a dealer it did not seat)
    may claim a table no hand could start from. The fault before it, if any,
    is the first; else the log is replayed in one piece."""


# What a process made of a segment: its lines and totals, the rule it broke,
# or why its table could not be resumed.
SegmentDone = Segment | RefereeError | Unresumable


def can_split(log: dict) -> bool:
    hands = log.get("hands") or []
    return (
        len(hands) >= MIN_HANDS
        and (os.cpu_count() or 1) >= 2
        and hasattr(os, "fork")
        and not any(h.get("side_bets") for h in hands)
    )


def replay_json_text(log: dict) -> str:
    """``referee replay --json``'s text for ``log``, replayed on two cores
    where that pays."""
    if not can_split(log):
        return result_json_text(replay(log).result().to_json())
    session = open_session(log)
    if session.rules.follows_results:
        # Each hand's start depends on the hands settled before it (the
        # winner leads, a match ends): one piece, in order.
        return result_json_text(replay(log).result().to_json())
    bounds = _segments(log["hands"], SEGMENTS)
    second = _Second(bounds, lambda queue: _take_segments(session, bounds, queue))
    return _joined(session, bounds, second)


def replay_document_json_text(doc: object) -> str:
    """``replay_json_text`` of the log ``doc`` is, read by ``read_log`` (its
    errors first, as they are). A long log that may be plain has its second
    process started before it is read: that process replays segments of the
    document as it is while this one reads and checks it, and its work
    counts only if the log was read plainly (every field and hand the
    document's own). Anything else and the second process is stopped, its
    work unread, and the log replayed as ``replay_json_text`` replays it."""
    from ..record import read_log

    hands = _hands_if_splittable(doc)
    if hands is None:
        return replay_json_text(read_log(doc)[0])
    bounds = _segments(hands, SEGMENTS)
    second = _Second(bounds, lambda queue: _take_segments(open_session(doc), bounds, queue))
    try:
        log, plain = read_log(doc)
        session = open_session(log) if plain else None
    except BaseException:
        second.stop()
        raise
    if session is None or session.rules.follows_results:
        second.stop()
        return replay_json_text(log)
    return _joined(session, bounds, second)


def _hands_if_splittable(doc: object) -> list[dict] | None:
    """The hands of a document that ``can_split`` would split once read
    (before it is read: only what ``_segments`` needs is asked of them)."""
    if type(doc) is not dict or type(doc.get("hands")) is not list:
        return None
    hands = doc["hands"]
    if not all(type(h) is dict and type(h.get("actions", ())) in (list, tuple) for h in hands):
        return None
    return hands if can_split(doc) else None


class _Second:
    """The second process: forked at once, it takes segments from a queue
    (a byte each in a pipe, read atomically: each segment goes to exactly
    one process) until none is left or one breaks a rule, and sends back
    what it did. ``answer`` then ``reap``, or ``stop``, must follow, once:
    no zombie."""

    def __init__(self, bounds: list[tuple[int, int]],
                 work: Callable[[int], dict[int, SegmentDone]]) -> None:
        self.queue, feed = os.pipe()
        os.write(feed, bytes(range(len(bounds))))
        os.close(feed)
        read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child
            os.close(read)
            try:
                payload = ("ok", work(self.queue))
            except BaseException as err:  # reported by the parent, never lost
                payload = ("crash", repr(err))
            data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as out:
                out.write(data)
            os._exit(0)
        os.close(write)
        self.read = read

    def answer(self) -> dict[int, SegmentDone]:
        """What the second process did, once it has said it all (it may
        still be leaving: ``reap`` waits for that)."""
        with os.fdopen(self.read, "rb") as pipe:
            data = pipe.read()
        status, theirs = pickle.loads(data)
        if status != "ok":
            raise RuntimeError(f"the replay's second process failed: {theirs}")
        return theirs

    def reap(self) -> None:
        """Wait for the second process to be gone (after ``answer``: the
        kernel's freeing of its memory, 5-10 ms at 10,000 hands, overlaps
        this process's joining of the answer)."""
        os.waitpid(self.pid, 0)
        os.close(self.queue)

    def stop(self) -> None:
        """Stop the second process, whatever it was doing; its work is lost."""
        os.kill(self.pid, signal.SIGKILL)
        os.close(self.read)
        os.waitpid(self.pid, 0)
        os.close(self.queue)


def _joined(session: Session, bounds: list[tuple[int, int]], second: _Second) -> str:
    """This process's segments and the second's, joined into the result."""
    try:
        try:
            done = _take_segments(session, bounds, second.queue)
        finally:
            # Whatever happened here, the second process is heard out.
            theirs = second.answer()
        done.update(theirs)
        return _joined_text(session, bounds, done)
    finally:
        second.reap()


def _joined_text(session: Session, bounds: list[tuple[int, int]],
                 done: dict[int, SegmentDone]) -> str:
    """The result's text from every segment's answer, in order."""
    # Segments are taken in order and a process stops at its first fault, so
    # every segment before the first faulty one was replayed: that fault is
    # the first in the log, the one a sequential replay meets.
    parts: list[Segment] = []
    for k in range(len(bounds)):
        part = done[k]
        if isinstance(part, RefereeError):
            raise part
        if isinstance(part, Unresumable):
            # No rule broken before it, yet its table could not be resumed
            # from what the log claims: whatever is wrong, the sequential
            # replay says it as it always does.
            return result_json_text(replay(session.log).result().to_json())
        parts.append(part)
    # Balances and what is still owed: once, from the totals.
    everyone = _seating(session, session.log["hands"], set())[1]
    money = session.money()
    totals, balances, transfers = settle_session(everyone, [t for _, t in parts],
                                                 session.rules.scoring == "push_ups", money)
    lines = EncodedItems(",\n".join(text for text, _ in parts if text))
    q = session.quantum
    if money is None:
        bq = q
    else:
        from ..ledger.balances import balance_quantum

        bq = balance_quantum(q, money.amounts())
    return result_json_text(result_doc(lines, totals, transfers, q, balances=balances, bq=bq,
                                       closed=session.log.get("closed")))


def _segments(hands: list[dict], count: int) -> list[tuple[int, int]]:
    """Runs of hands (start, end; end excluded) in order, each about
    1/``SHARE_LEFT`` of the work left when it starts and none shorter than
    1/``count`` of the whole (at most 255: a segment is a byte in a pipe).
    Two processes take the next run whenever each is free; as the runs
    shorten, the one that finishes last waits for a short run only."""
    count = max(1, min(count, len(hands)))
    costs = [HAND_COST + len(h.get("actions", ())) for h in hands]
    total = sum(costs)
    least = max(total / count, total / 255)
    bounds: list[tuple[int, int]] = []
    start = done = 0
    goal = max(least, total / SHARE_LEFT)
    for i, cost in enumerate(costs[:-1]):
        done += cost
        if done >= goal:
            bounds.append((start, i + 1))
            start = i + 1
            goal = done + max(least, (total - done) / SHARE_LEFT)
    bounds.append((start, len(hands)))
    return bounds


def _take_segments(session: Session, bounds: list[tuple[int, int]], queue: int
                   ) -> dict[int, SegmentDone]:
    """Replay segments taken from ``queue`` until none is left, or one breaks
    a rule (its error is kept, and no more are taken). A log whose hands
    follow the results before them (``follows_results``) is not split: none
    is taken."""
    done: dict[int, SegmentDone] = {}
    if session.rules.follows_results:
        return done
    before, _ = _seating(session, session.log["hands"], {start for start, _ in bounds})
    while taken := os.read(queue, 1):
        k = taken[0]
        start, end = bounds[k]
        try:
            if start == 0:
                table = session.table
            else:
                seats, dealer, seated, void = before[start]
                table = Table.resume(session.rules, session.log["players"], started=start,
                                     last_seats=seats, last_dealer=dealer, everyone=seated,
                                     last_void=void)
            done[k] = _replay_segment(session, table, start, end)
        except RefereeError as err:
            done[k] = err
            break
        except Exception as err:  # noqa: BLE001 - any: judged by the segments before it
            done[k] = Unresumable(repr(err))
            break
    return done


def _seating(session: Session, hands: list[dict], starts: set[int]):
    """For each hand of ``starts`` (0-based), the previous hand's seats and
    dealer, everyone seated so far, and whether it was void (its dealer then
    deals again), as the log states them (checked when the hands are
    replayed); and everyone seated by the end."""
    before: dict[int, tuple[tuple[str, ...], str, list[str], bool]] = {}
    current = tuple(session.table.players)
    everyone = list(current)
    for i, setup in enumerate(hands, 1):
        seated = setup.get("players")
        if seated:  # rare: seats change
            current = tuple(seated)
            everyone += [q for q in current if q not in everyone]
        if i in starts:
            before[i] = (current, setup["dealer"], list(everyone), "void" in setup)
    return before, everyone


def _replay_segment(session: Session, table: Table, start: int, end: int) -> Segment:
    """Replay hands ``start`` to ``end`` (0-based, end excluded) on ``table``
    and settle them; then check that the next hand may start. Returns the
    complete hands' JSON lines, written here so that each core writes its own,
    and the sum of their exact nets, for the totals."""
    hands = session.log["hands"]
    stake, quantum = session.stake, session.quantum
    lines: list[str] = []
    totals: dict[str, Decimal] = {}
    for setup in hands[start:end]:
        hand = play_on(table, setup)
        result = settle_logged(hand, setup, stake)
        if result is not None:
            lines.append(item_line(result.to_json(quantum)))  # as stored, encoded
            if hand.phase is not VOID:  # nobody pays a void hand: a line, but nothing to add
                for q, amount in result.net.items():
                    totals[q] = totals[q] + amount if q in totals else amount
        del table.hands[:-1]  # only the last hand is needed to start the next
    if end < len(hands):
        start_on(table, hands[end])  # the check the next hand's start makes
    else:
        check_log_end(table, closed="closed" in session.log)
    return ",\n".join(lines), totals
