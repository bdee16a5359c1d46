"""A long log replayed on two cores: the hands split in two halves.

Hands depend on each other only through the table: a hand is checked against
the last one's seats and dealer, which the log itself states, and the last one
must be finished, which the first half checks by starting the second half's
first hand. So the second half can start from ``Table.resume`` while the first
is still being replayed, in a forked process, and the answer is the same as a
sequential replay's: the same results, or the same first error. Each process
writes its own hands' JSON lines and adds up its own totals (serial work moved
into the parallel phase); the child sends both back, and the parent only
joins, adds and writes. Totals are exact decimals, so adding them by halves
gives what adding hand by hand gives.

Only for ``referee replay --json`` of large logs (the readable report needs
each hand's story); side-bet pots run across the halves, so logs with side
bets are replayed in one piece.
"""

from __future__ import annotations

import os
import pickle
from decimal import Decimal

from .ledger.results import result_doc, settle_hand, totals_and_transfers
from .replay import Session, check_log_end, open_session, play_on, replay, start_on
from .result_json import EncodedItems, item_line, result_json_text
from .rules.errors import RefereeError
from .rules.table import Table

#: Fewer hands than this are not worth a second process.
MIN_HANDS = 2000


def can_split(log: dict) -> bool:
    hands = log.get("hands") or []
    return (
        len(hands) >= MIN_HANDS
        and (os.cpu_count() or 1) >= 2
        and hasattr(os, "fork")
        and not any(h.get("side_bets") for h in hands)
    )


def replay_json_text(log: dict) -> str:
    """``referee replay --json``'s text for ``log``, replayed in two halves
    where that pays."""
    if not can_split(log):
        return result_json_text(replay(log).result().to_json())
    session = open_session(log)
    quantum = session.quantum
    hands = log["hands"]
    middle = _split_point(hands)
    seats, dealers, everyone = _seating(session, hands)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child replays the second half
        os.close(read)
        try:
            table = Table.resume(session.rules, log["players"], started=middle,
                                 last_seats=seats[middle - 1],
                                 last_dealer=dealers[middle - 1],
                                 everyone=everyone[middle - 1])
            payload = ("ok", _replay_half(session, table, middle, len(hands), quantum))
        except RefereeError as err:
            payload = ("error", err)
        except BaseException as err:  # reported by the parent, never lost
            payload = ("crash", repr(err))
        data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write)
    try:
        first_lines, first_totals = _replay_half(session, session.table, 0, middle, quantum)
    finally:
        # Whatever the first half did, the child is waited for: no zombie.
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        os.waitpid(pid, 0)
    status, second = pickle.loads(data)
    if status == "error":
        raise second
    if status != "ok":
        raise RuntimeError(f"the second half of the replay failed: {second}")
    second_lines, second_totals = second
    totals, transfers = totals_and_transfers(everyone[-1], [first_totals, second_totals],
                                             session.rules.scoring == "push_ups")
    lines = EncodedItems(",\n".join(x for x in (first_lines, second_lines) if x))
    return result_json_text(result_doc(lines, totals, transfers, quantum))


# What a hand costs to replay, in actions: starting it, settling it and
# writing its line cost about as much as 20 of its actions (measured).
HAND_COST = 20


def _split_point(hands: list[dict]) -> int:
    """Where half the work is behind: the halves take about as long."""
    costs = [HAND_COST + len(h.get("actions", ())) for h in hands]
    total = sum(costs)
    done = 0
    for i, cost in enumerate(costs):
        done += cost
        if done * 2 >= total:
            return max(1, min(i + 1, len(hands) - 1))
    return len(hands) // 2


def _seating(session: Session, hands: list[dict]):
    """Each hand's seats and dealer, and everyone seated so far, as the log
    states them (checked when the hands are replayed)."""
    seats, dealers, everyone = [], [], []
    current = tuple(session.table.players)
    arrived = list(current)
    for setup in hands:
        current = tuple(setup.get("players") or current)
        arrived = arrived + [q for q in current if q not in arrived]
        seats.append(current)
        dealers.append(setup["dealer"])
        everyone.append(arrived)
    return seats, dealers, everyone


def _replay_half(session: Session, table: Table, start: int, end: int,
                 quantum: Decimal) -> tuple[str, dict[str, Decimal]]:
    """Replay hands ``start`` to ``end`` (0-based, end excluded) on ``table``
    and settle them; then check that the next hand may start. Returns the
    complete hands' JSON lines, written here so that each core writes its own
    half, and the sum of their exact nets, for the totals."""
    hands = session.log["hands"]
    stake = session.stake
    lines: list[str] = []
    totals: dict[str, Decimal] = {}
    for setup in hands[start:end]:
        hand = play_on(table, setup)
        if hand.is_complete:
            result = settle_hand(hand, stake, setup.get("stake_multiplier", 1))
            lines.append(item_line(result.to_json(quantum)))
            for q, amount in result.net.items():
                totals[q] = totals[q] + amount if q in totals else amount
        del table.hands[:-1]  # only the last hand is needed to start the next
    if end < len(hands):
        start_on(table, hands[end])  # the check the next hand's start makes
    else:
        check_log_end(table)
    return ",\n".join(lines), totals
