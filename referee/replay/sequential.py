"""Replaying a session log: every hand through the rules engine, then the ledger."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache

from ..ledger.money import parse_stake, quantum_for
from ..ledger.results import (
    HandResult,
    Money,
    SessionResult,
    hand_standing,
    settle_hand,
    void_result,
)
from ..ledger.side_bets import (
    Pots,
    SideBetOutcome,
    check_deal_known,
    judge,
    read_side_bets,
)
from ..record import load_log, parse_log_text
from ..rules.actions import parse_action
from ..rules.cards import parse_card, parse_cards
from ..rules.errors import MalformedInput, RefereeError, RuleViolation
from ..rules.hand import VOID, Hand
from ..rules.options import HouseRules, resolve
from ..rules.table import Table, unfinished_reason
from ..rules.words import N_


@dataclass
class Session:
    """A session being replayed (or played): its log data, rules and table."""

    log: dict
    rules: HouseRules
    stake: Decimal
    table: Table

    @cached_property
    def quantum(self) -> Decimal:
        """One for the whole session: the places its stake and every hand's
        own stake need (docs/decisions.md)."""
        if self.rules.scoring == "push_ups":
            return Decimal(1)
        stakes = [h["stake"] for h in self.log.get("hands", ()) if "stake" in h]
        stake = self.stake
        if stakes:  # rare: the table changed the stake
            stake = max([stake, *map(parse_stake, stakes)],
                        key=lambda d: -d.normalize().as_tuple().exponent)
        return quantum_for(stake, self.log.get("currency"), self.rules.payment_amounts())

    def money(self) -> Money | None:
        """The log's ``brought_forward`` and ``payments`` (None: neither key)."""
        return session_money(self.log)

    def hand_stake(self, setup: dict) -> Decimal:
        return own_stake(setup, self.stake)

    def result(self, kept: dict[int, HandResult] | None = None, *,
               with_money: bool = True) -> SessionResult:
        """Results of the complete (or void) hands (a hand still in play is left out);
        ``kept``: hands whose result is given, not settled here (what-if: a told
        hand the other rules cannot settle again). Without ``with_money``, the
        hands alone: an audit replays the session only up to its hand, and the
        money recorded later may name a player who sat down after it."""
        results: list[HandResult] = []
        pots = Pots()
        for hand, setup in zip(self.table.hands, self.log.get("hands", []), strict=False):
            if kept and hand.number in kept:
                results.append(kept[hand.number])
                continue
            result = settle_logged(hand, setup, self.stake)
            if result is None:  # still in play
                continue
            if hand.phase is VOID:
                results.append(result)
                continue
            outcomes = side_bet_outcomes(hand, setup)
            if outcomes:
                net, result.side_bets = pots.settle(outcomes)
                for q, amount in net.items():
                    result.net[q] += amount
            results.append(result)
        return SessionResult(list(self.table.everyone), results, self.quantum,
                             push_ups=self.rules.scoring == "push_ups",
                             money=self.money() if with_money else None,
                             closed=self.log.get("closed"), match_to=self.rules.match_to)


def own_stake(setup: dict, stake: Decimal) -> Decimal:
    """A logged hand's own stake: the table's change written on it (its
    ``stake``), else the session's ``stake``."""
    return parse_stake(setup["stake"]) if "stake" in setup else stake


def settle_logged(hand: Hand, setup: dict, stake: Decimal) -> HandResult | None:
    """A logged hand settled, the one way every reader of a log settles it: a
    void hand (nobody pays), a complete one (played or told) at its own stake
    (``own_stake``, ``stake`` the session's) times its multiplier; None for
    a hand still in play. Side bets' pots are the session's (``Session.result``)."""
    if hand.phase is VOID:
        return void_result(hand, setup["void"])
    if not hand.is_complete:
        return None
    return settle_hand(hand, own_stake(setup, stake), setup.get("stake_multiplier", 1))


def session_money(log: dict) -> Money | None:
    """A read log's ``brought_forward``, ``payments`` and ``carried_forward`` as exact amounts
    (their meaning checked when the log was read)."""
    if "brought_forward" not in log and "payments" not in log and \
            "carried_forward" not in log:
        return None
    carried = {q: Decimal(str(v).strip()) for q, v in (log.get("brought_forward") or {}).items()}
    # A payment its payer recorded that waits for the payee's word, or one
    # the host took back, moves nothing (record.events.counts).
    paid = [(p["from"], p["to"], Decimal(str(p["amount"]).strip()))
            for p in log.get("payments") or () if not p.get("pending") and "undone" not in p]
    moved: dict[str, Decimal] = {}
    for carry in log.get("carried_forward") or ():
        for q, v in carry["balances"].items():
            moved[q] = moved.get(q, Decimal(0)) + Decimal(str(v).strip())
    return Money(carried, paid, moved)


def open_session(log: dict) -> Session:
    """Check a loaded log's header (rules, stake) and set up its table."""
    try:
        rules = resolve(log["rules"])
    except RefereeError as err:
        raise err.at() from None
    stake = parse_stake(log["stake"])
    return Session(log, rules, stake, Table(rules, log["players"], settle=hand_standing))


def start_on(table: Table, setup: dict) -> Hand:
    """Start ``table``'s next hand from a hand's setup (dealer, deal, upcard,
    side bets: checked here, judged when the hand is settled); a hand told by
    its ending is ended as it tells."""
    if "ending" in setup:
        return tell_on(table, setup)
    number = table.started + 1
    try:
        deal = {p: parse_cards(cards) for p, cards in setup.get("deal", {}).items()}
        upcard = parse_card(setup["upcard"]) if "upcard" in setup else None
    except MalformedInput as err:
        raise err.at(hand=number) from None
    if setup.get("side_bets"):
        seats = setup.get("players") or table.last_seats or table.players
        try:
            bets = read_side_bets(setup["side_bets"], seats,
                                  push_ups=table.rules.scoring == "push_ups")
            check_deal_known(bets, deal)
        except RefereeError as err:
            raise err.at(hand=number) from None
    return table.start_hand(setup["dealer"], players=setup.get("players"), deal=deal,
                            upcard=upcard)


def side_bet_outcomes(hand: Hand, setup: dict) -> list[SideBetOutcome]:
    """How a complete hand's side bets came out (before pots carry over)."""
    if not setup.get("side_bets"):
        return []
    bets = read_side_bets(setup["side_bets"], hand.players)
    deal = {p: [parse_card(c) for c in cards] for p, cards in setup.get("deal", {}).items()}
    owners = [s.owner for s in hand.spreads]
    return [judge(b, deal, owners) for b in bets]


def start_hand(session: Session, setup: dict) -> Hand:
    """Start the session's next hand from its setup (dealer, deal, upcard...)."""
    return start_on(session.table, setup)


# A log repeats the same few thousand action texts ("Ben: draw", "Cy: discard
# 9c"): parsing each once makes a replay 1.4x as fast. Actions are immutable,
# so sharing them is safe; the bound keeps a long-lived server's cache small.
parse_logged = lru_cache(maxsize=200_000)(parse_action)


def play_on(table: Table, setup: dict) -> Hand:
    """Start ``table``'s next hand and apply its logged actions (or end it as
    its ending tells); a fault names the hand and the action."""
    hand = start_on(table, setup)
    for i, text in enumerate(setup.get("actions", ()), 1):
        try:
            hand.apply(parse_logged(text) if type(text) is str else parse_action(text))
        except RefereeError as err:
            raise err.at(hand=hand.number, action=i, action_text=text) from None
    if "void" in setup or "accepted" in setup or "disputes" in setup:  # rare
        from ..rules.events import judge_events  # imported by the logs that need it

        try:
            judge_events(hand, setup)
        except RefereeError as err:
            text = setup["actions"][err.action - 1] if err.action else None
            raise err.at(hand=hand.number, action_text=text) from None
    return hand


def tell_on(table: Table, setup: dict) -> Hand:
    """Start ``table``'s next hand and end it as its ``ending`` tells (quick
    logging); the table changes only if the ending stands."""
    from ..rules.told import read_ending, tell  # imported by the logs that need it

    number = table.started + 1
    if setup.get("side_bets"):
        raise RuleViolation("side_bets_need_play", N_("side bets need a played hand: a hand "
                                                      "told by its ending cannot settle them"),
                            hand=number)
    try:
        told = read_ending(setup["ending"])
        return table.start_hand(setup["dealer"], players=setup.get("players"),
                                then=lambda hand: tell(hand, told))
    except RefereeError as err:
        raise err.at(hand=number) from None


def check_log_end(table: Table, *, closed: bool = False) -> None:
    """A log may not end in the middle of a hand (a deal win's claims close);
    it may end with a void hand. A closed session may not either, in words
    that say so (``closed_in_play``)."""
    if not table.hands:
        return
    last = table.hands[-1]
    last.finish_declarations()
    if not last.is_complete and last.phase is not VOID:
        if closed:
            raise RuleViolation(
                "closed_in_play",
                N_("the session is closed but hand {last} is still in play ({reason}): void "
                   "it or finish it"), {"last": last.number, "reason": unfinished_reason(last)},
                hand=last.number,
            )
        raise RuleViolation(
            "hand_unfinished",
            N_("the log ends but hand {last} is not finished ({reason})"),
            {"last": last.number, "reason": unfinished_reason(last)},
            hand=last.number,
        )


def iter_replay(log: dict) -> Iterator[tuple[Session, Hand]]:
    """Replay hand by hand, yielding each hand once its actions are applied."""
    session = open_session(log)
    for setup in log.get("hands", []):
        yield session, play_on(session.table, setup)


def replay(log: dict, *, allow_open_last_hand: bool = False) -> Session:
    """Replay a loaded log completely; raises ``RefereeError`` at the first fault."""
    session = None
    for session, _hand in iter_replay(log):  # noqa: B007 - the last one is kept
        pass
    if session is None:
        session = open_session(log)
    if not allow_open_last_hand:
        check_log_end(session.table, closed="closed" in log)
    return session


def replay_document(doc: object) -> SessionResult:
    return replay(load_log(doc)).result()


def replay_text(text: str | bytes) -> SessionResult:
    return replay(parse_log_text(text)).result()
