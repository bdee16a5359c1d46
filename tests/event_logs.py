"""Random legal sessions with the table's own events: void hands (a misdeal
before a hand, its dealer dealing again), hands at another stake, money
brought forward and paid at the table. Shared by the property tests and the
two-core replay's tests."""

from __future__ import annotations

import copy
import random
from decimal import Decimal

from referee.devtools.simulate import random_session
from referee.record.events import session_players
from referee.replay import replay

STAKES = ["0.50", "2", "0.10", 3, "1.5"]


def _void_copy(setup: dict, rng: random.Random) -> dict:
    """A void hand dealt before ``setup`` by the same dealer to the same
    seats, cancelled after at most two of its actions: two actions cannot
    end a hand's play unless one of them is a declaration or a drop."""
    void = copy.deepcopy(setup)
    prefix = []
    for text in void.get("actions", ())[: rng.randint(0, 2)]:
        if text.split(": ", 1)[1].split(" ")[0] in ("declare", "drop", "show"):
            break
        prefix.append(text)
    void["actions"] = prefix
    void["void"] = rng.choice(["misdeal", "card exposed in the deal", "Cy left the table"])
    void.pop("accepted", None)
    void.pop("disputes", None)
    return void


def with_events(log: dict, seed: int, *, voids: float = 0.3, stakes: float = 0.3,
                money: bool = True) -> dict:
    """``log`` with random void hands, stake changes and (if ``money``)
    amounts brought forward and payments, still a legal log."""
    rng = random.Random(seed)
    out = copy.deepcopy(log)
    hands = []
    for setup in out.get("hands", []):
        if rng.random() < voids:
            hands.append(_void_copy(setup, rng))
            if rng.random() < 0.2:  # two misdeals in a row
                hands.append(_void_copy(setup, rng))
        if rng.random() < stakes:
            setup["stake"] = rng.choice(STAKES)
        hands.append(setup)
    out["hands"] = hands
    if hands and rng.random() < 0.3:  # the log ends with a void hand
        table = replay(out).table
        last = _void_copy(hands[-1], rng)
        last["dealer"] = table.expected_dealer(table.last_seats)
        last["actions"] = []  # another dealer: the copied actions would be out of turn
        hands.append(last)
    if money:
        players = session_players(out)
        a, b = rng.sample(players, 2)
        carried = Decimal(rng.randint(1, 999)) / 100
        out["brought_forward"] = {a: str(carried), b: str(-carried)} if rng.random() < 0.7 else {}
        out["payments"] = [
            {"from": p, "to": q, "amount": str(Decimal(rng.randint(1, 500)) / 100)}
            for p, q in (rng.sample(players, 2) for _ in range(rng.randint(0, 4)))
        ]
    return out


def random_event_session(seed: int, *, rules: object = "pagat", hands: int = 6,
                         players=None) -> dict:
    return with_events(random_session(seed, rules=rules, hands=hands, players=players), seed)
