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

Only for ``referee replay --json`` of large logs (the readable report needs
each hand's story); side-bet pots run across segments, so logs with side bets
are replayed in one piece.
"""

from __future__ import annotations

import os
import pickle
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

#: Segments a long log is cut into: the two processes end within about a
#: segment of each other.
SEGMENTS = 32

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
    hands = log["hands"]
    bounds = _segments(hands, SEGMENTS)
    before, everyone = _seating(session, hands, {start for start, _ in bounds})

    def table_for(start: int) -> Table:
        if start == 0:
            return session.table
        seats, dealer, seated, void = before[start]
        return Table.resume(session.rules, log["players"], started=start,
                            last_seats=seats, last_dealer=dealer, everyone=seated,
                            last_void=void)

    # The segments to replay, one byte each, in order; a read of one byte
    # from a pipe is atomic, so each segment goes to exactly one process.
    queue, feed = os.pipe()
    os.write(feed, bytes(range(len(bounds))))
    os.close(feed)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            payload = ("ok", _replay_segments(session, bounds, queue, table_for))
        except BaseException as err:  # reported by the parent, never lost
            payload = ("crash", repr(err))
        data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write)
    try:
        done = _replay_segments(session, bounds, queue, table_for)
    finally:
        # Whatever happened here, the child is waited for: no zombie.
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        os.waitpid(pid, 0)
        os.close(queue)
    status, theirs = pickle.loads(data)
    if status != "ok":
        raise RuntimeError(f"the replay's second process failed: {theirs}")
    done.update(theirs)
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
            return result_json_text(replay(log).result().to_json())
        parts.append(part)
    # Balances and what is still owed: once, from the totals.
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
                                       closed=log.get("closed")))


def _segments(hands: list[dict], count: int) -> list[tuple[int, int]]:
    """About ``count`` runs of hands (start, end; end excluded) of about
    equal work, in order."""
    count = max(1, min(count, len(hands), 255))
    costs = [HAND_COST + len(h.get("actions", ())) for h in hands]
    total = sum(costs)
    bounds: list[tuple[int, int]] = []
    start = done = 0
    for i, cost in enumerate(costs[:-1]):
        done += cost
        if done * count >= total * (len(bounds) + 1):
            bounds.append((start, i + 1))
            start = i + 1
    bounds.append((start, len(hands)))
    return bounds


def _replay_segments(session: Session, bounds: list[tuple[int, int]], queue: int,
                     table_for: Callable[[int], Table]
                     ) -> dict[int, Segment | RefereeError | Unresumable]:
    """Replay segments taken from ``queue`` until none is left, or one breaks
    a rule (its error is kept, and no more are taken)."""
    done: dict[int, Segment | RefereeError | Unresumable] = {}
    while taken := os.read(queue, 1):
        k = taken[0]
        start, end = bounds[k]
        try:
            done[k] = _replay_segment(session, table_for(start), start, end)
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
