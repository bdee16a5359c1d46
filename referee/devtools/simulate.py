"""Random legal sessions: a dealer with a real shuffled deck and players who
pick among the referee's own ``legal_actions()``.

Used by the property tests (every offered action must be accepted, cards are
conserved, replays agree) and by ``bench/replay.py`` to make large logs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..ledger.results import hand_standing
from ..rules.actions import Action
from ..rules.cards import SUITS
from ..rules.hand import PLAY, START, Hand
from ..rules.options import HouseRules, resolve
from ..rules.table import Table


class Dealer:
    """Plays one session at a simulated table, logging what happens."""

    def __init__(self, rules: HouseRules, players: Sequence[str], rng: random.Random,
                 *, max_actions: int = 400, rig: float = 0.0, eager: float = 0.5) -> None:
        self.rules = rules
        # rig: how often the deck is stacked so that one or two players are
        # dealt five 10-point cards (50): deal wins and thrown-in hands are
        # otherwise too rare to test. eager: how readily a low hand drops.
        self.rig = rig
        self.eager = eager
        self.players = list(players)
        self.rng = rng
        self.table = Table(rules, self.players, settle=hand_standing)
        self.max_actions = max_actions
        self.hands: list[dict] = []

    def play_hand(self) -> tuple[dict, Hand]:
        rules, rng = self.rules, self.rng
        deck = sorted(rules.deck_info.cards)
        rng.shuffle(deck)
        if self.table.last_seats is None:
            dealer = rng.choice(self.players)
        else:
            dealer = self.table.expected_dealer(self.players)
        size = rules.hand_size
        deal = {p: [deck.pop() for _ in range(size)] for p in self.players}
        if size == 5 and rng.random() < self.rig:
            self._stack(deal, deck, rng.sample(self.players, rng.choice((1, 1, 1, 2))))
        setup: dict = {"dealer": dealer, "deal": deal}
        if rules.upcard:
            setup["upcard"] = deck.pop()
        if rules.scoring == "stakes" and rng.random() < 0.05:
            setup["stake_multiplier"] = 2
        hand = self.table.start_hand(dealer, deal=deal, upcard=setup.get("upcard"))
        actions: list[str] = []
        while not hand.is_complete and len(actions) < self.max_actions:
            action = self.choose(hand, deck)
            hand.apply(action)
            actions.append(str(action))
        if not hand.is_complete:
            raise RuntimeError("a simulated hand did not finish")
        # Other players holding deal wins speak up before the next deal.
        while claims := [a for a in hand.legal_actions() if a.verb == "declare"]:
            hand.apply(claims[0])
            actions.append(str(claims[0]))
        setup["actions"] = actions
        self.hands.append(setup)
        return setup, hand

    def _stack(self, deal: dict, deck: list[str], lucky: list[str]) -> None:
        values = self.rules.deck_info.values
        for p in lucky:
            for i, card in enumerate(deal[p]):
                if values[card] == 10:
                    continue
                for cards in [deal[q] for q in deal if q not in lucky] + [deck]:
                    j = next((j for j, c in enumerate(cards) if values[c] == 10), None)
                    if j is not None:
                        deal[p][i], cards[j] = cards[j], card
                        break

    def choose(self, hand: Hand, stock: list[str]) -> Action:
        rng = self.rng
        offered = hand.legal_actions()
        if not offered:
            raise RuntimeError(f"nothing legal in phase {hand.phase}: {hand.snapshot()}")
        by_verb: dict[str, list[Action]] = {}
        for a in offered:
            by_verb.setdefault(a.verb, []).append(a)
        for verb in ("declare", "show"):
            if verb in by_verb:
                return rng.choice(by_verb[verb])
        if "slap" in by_verb and rng.random() < 0.5:
            return rng.choice(by_verb["slap"])
        if hand.phase == START:
            p = hand.to_act
            count = hand.count(p)
            if "drop" in by_verb and count is not None and (
                count <= 5 and rng.random() < 0.6
                or count <= 25 and rng.random() < self.eager
                or rng.random() < 0.03
            ):
                return by_verb["drop"][0]
            if "take" in by_verb and rng.random() < 0.3:
                return by_verb["take"][0]
            if "draw" in by_verb:
                if hand.stock and stock:
                    return Action(p, "draw", (stock.pop(),))
                return by_verb["draw"][0]
            return rng.choice(offered)
        if hand.phase == PLAY:
            melds = by_verb.get("spread", []) + by_verb.get("hit", [])
            if melds and rng.random() < 0.85:
                return rng.choice(melds)
            if "discard" in by_verb:
                # Mostly throw the highest card, as players do.
                values = hand.deck.values
                discards = sorted(by_verb["discard"], key=lambda a: values[a.cards[0]])
                return discards[-1] if rng.random() < 0.7 else rng.choice(discards)
        return rng.choice(offered)

    def log(self, *, stake: str = "0.25", currency: str | None = "USD",
            rules_source: object = "pagat") -> dict:
        doc: dict = {
            "format": "tonk-log/1",
            "table": "Simulated table",
            "stake": stake,
            "rules": rules_source,
            "players": list(self.players),
            "hands": self.hands,
        }
        if currency:
            doc["currency"] = currency
        return doc


def random_session(seed: int, *, rules: object = "pagat", hands: int = 3,
                   players: Sequence[str] | None = None) -> dict:
    """A legal ``tonk-log/1`` document of ``hands`` random hands."""
    rng = random.Random(seed)
    house = resolve(rules)
    if players is None:
        most = min(4, (house.deck_info.size - 1) // house.hand_size)
        players = ["Ann", "Ben", "Cy", "Dee"][: rng.randint(2, max(2, most))]
    dealer = Dealer(house, players, rng)
    for _ in range(hands):
        if dealer.table.match_over():
            break  # a match to a score ended: no hand starts after it
        dealer.play_hand()
    return dealer.log(rules_source=rules)


__all__ = ["Dealer", "random_session", "SUITS"]
