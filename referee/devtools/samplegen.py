"""Synthetic but legal session logs, for the PDF benchmark and the tests.

Every hand is fully dealt (known cards), played for a few rounds of draw and
discard, then ended by a drop and the shows; the rules engine itself decides
whether the drop wins or is caught, so the logs exercise the real ledger.
"""

from __future__ import annotations

import random

from ..rules.cards import UNKNOWN
from ..rules.hand import Hand
from ..rules.options import resolve

RANKS = "A23456789TJQK"
SUITS = "cdhs"
DEFAULT_PLAYERS = ("José", "Jürgen", "Zoë", "Łukasz")


def _value(card: str) -> int:
    r = card[0]
    return 1 if r == "A" else 10 if r in "TJQK" else int(r)


def _worst(cards: list[str]) -> str:
    return max(cards, key=lambda c: (_value(c), c))


def make_hand(rng: random.Random, players: tuple[str, ...], dealer: str, rules) -> dict:
    """One legal hand: deal, a few rounds of draw/discard, a drop, the shows."""
    n = len(players)
    deck = [r + s for r in RANKS for s in SUITS]
    while True:
        rng.shuffle(deck)
        hands = {p: deck[i * 5:(i + 1) * 5] for i, p in enumerate(players)}
        # A dealt 49 or 50 must be declared; keep the generator to plain play.
        if all(sum(map(_value, h)) not in (49, 50) for h in hands.values()):
            break
    upcard = deck[n * 5]
    stock = deck[n * 5 + 1:]
    held = {p: list(h) for p, h in hands.items()}
    start = (players.index(dealer) + 1) % n
    order = [players[(start + i) % n] for i in range(n)]
    actions: list[str] = []
    turns = min(rng.randint(1, 3) * n + rng.randrange(n), len(stock) - 1)
    for t in range(turns):
        p = order[t % n]
        card = stock.pop()
        actions.append(f"{p}: draw {card}")
        held[p].append(card)
        out = _worst(held[p])
        held[p].remove(out)
        actions.append(f"{p}: discard {out}")
    dropper = order[turns % n]
    actions.append(f"{dropper}: drop")
    for p in players:
        actions.append(f"{p}: show {' '.join(held[p])}")
    setup = {"dealer": dealer, "deal": hands, "upcard": upcard, "actions": actions}
    # Check against the engine so a generator bug shows here, not in a report.
    hand = Hand(rules, players, dealer, deal=hands, upcard=upcard)
    for a in actions:
        hand.apply(a)
    assert hand.is_complete and UNKNOWN not in upcard
    return setup


def make_session(hands: int = 1000, *, players: tuple[str, ...] = DEFAULT_PLAYERS,
                 seed: int = 7, stake: str = "0.25", currency: str | None = "USD",
                 rules: object = "pagat", table: str = "Back room, table 2") -> dict:
    """A session log (``tonk-log/1`` data) of ``hands`` generated hands."""
    rng = random.Random(seed)
    house = resolve(rules)
    out = []
    dealer_index = 0
    for _ in range(hands):
        dealer = players[dealer_index % len(players)]
        out.append(make_hand(rng, tuple(players), dealer, house))
        dealer_index += 1
    log = {
        "format": "tonk-log/1",
        "table": table,
        "started": "2026-11-21T20:00:00Z",
        "stake": stake,
        "rules": rules,
        "players": list(players),
        "hands": out,
    }
    if currency:
        log["currency"] = currency
    return log
