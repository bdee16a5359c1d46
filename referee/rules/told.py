"""A hand told by its ending (quick logging): how it ended, who, the counts,
and the facts the table's rules need, instead of the deal and every action.

Most nights nobody logs every card; paper takes one line a hand. A told hand
is settled exactly as a played hand that ended so would be: the same
``Ending`` goes to the same ledger. What the referee cannot witness it does
not invent: a fact the table's rules turn on must be stated
(``ending_incomplete``), a count must be one a hand could have
(``impossible_count``), a declared hand must hold its claim
(``false_declaration``), and the hand is marked as told wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .cards import parse_cards
from .ending import (
    DEAL_WIN,
    DROP,
    ENDING_WORDS,
    OUT,
    STOCK_OUT,
    THROWN_IN,
    TONK_OUT,
    Claim,
    Ending,
    tonk_out_pays,
)
from .errors import MalformedInput, RuleViolation
from .hand import Hand
from .legality import DECLARED_BY, best_claim, verify_reveal
from .options import HouseRules
from .phases import OVER
from .words import N_, Words

#: How a told hand can have ended, and what each needs besides ``how``.
NEEDS: dict[str, tuple[str, ...]] = {
    "tonk_out": ("by",),
    "out": ("by",),
    "drop": ("by", "counts"),
    "stock_out": ("counts",),
    "deal_win": ("declares",),
}
HOWS = tuple(NEEDS)
#: Each way a hand can end, as the quick-hand form names it.
HOW_WORDS = {
    "tonk_out": N_("Tonk out"),
    "out": N_("Out (the last card discarded)"),
    "drop": N_("Drop"),
    "stock_out": N_("The stock ran out"),
    "deal_win": N_("Deal win"),
}
#: The facts of a tonk out that some house rules turn on, in the order they
#: are asked for, each with the options that make it matter.
FACTS: dict[str, tuple[str, ...]] = {
    "first_turn": ("tonk_out_double_first_turn_only", "first_turn_two_spreads_pays"),
    "by_hits": ("tonk_out_by_hits_pays",),
    "hit_a_spread": ("tonk_out_double_lost_by_hitting",),
    "two_spreads": ("first_turn_two_spreads_pays",),
}
#: What each fact means, for the refusal that asks for it and the form that asks.
FACT_WORDS: dict[str, str] = {
    "first_turn": N_("whether the player went out in their first turn"),
    "by_hits": N_("whether the last cards left by hits alone"),
    "hit_a_spread": N_("whether the player who went out had hit a spread this hand"),
    "two_spreads": N_("whether the player went out in their first turn with two spreads of "
                      "their own"),
}
#: The same facts as the quick-hand form asks them of the player who went out.
FACT_QUESTIONS: dict[str, str] = {
    "first_turn": N_("Did {player} go out in their first turn?"),
    "by_hits": N_("Did {player}'s last cards go by hits alone?"),
    "hit_a_spread": N_("Had {player} hit a spread this hand?"),
    "two_spreads": N_("Did {player} go out in their first turn with two spreads of their "
                      "own?"),
}
FIELDS = ("how", "by", "counts", "declares", *FACTS)
#: What every paper and page says of a told hand, and of a show given as a count.
TOLD = N_("Told by its ending, not logged action by action.")
COUNTED = N_("shown as a count, not as cards")
#: The hand's fields that a told hand replaces.
PLAYED_FIELDS = ("deal", "upcard", "actions")


@dataclass(frozen=True)
class Told:
    """An ending as the log states it (its shape already read)."""

    how: str
    by: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    declares: dict[str, tuple[str, ...]] = field(default_factory=dict)
    facts: dict[str, bool] = field(default_factory=dict)


def facts_needed(rules: HouseRules) -> list[str]:
    """The facts a tonk out must state under ``rules``."""
    return [fact for fact, options in FACTS.items()
            if any(getattr(rules, o) not in (None, False) for o in options)]


def _malformed(template: str, code: str = "malformed", **params: object) -> MalformedInput:
    return MalformedInput(code, N_("ending: {problem}"), {"problem": Words(template, **params)})


def _named(how: str) -> Words:
    """An ending's name in the reader's words (the log's ``how`` is a code)."""
    return Words(ENDING_WORDS[how])


def read_ending(doc: object) -> Told:
    """The ending's shape: what its ``how`` needs, each field of its type.
    Anything else is malformed (the log cannot be read as a hand)."""
    if type(doc) is not dict:
        raise _malformed(N_("must be an object like {example}"),
                         example='{"how": "drop", "by": "Ben", "counts": {...}}')
    for key in doc:
        if key not in FIELDS:
            raise _malformed(N_("{field} is not a field of an ending (they are {fields})"),
                             "malformed_log", field=repr(key), fields=", ".join(FIELDS))
    how = doc.get("how")
    if how not in NEEDS:
        raise _malformed(N_("how must be one of {hows}, not {how}"), hows=", ".join(HOWS),
                         how=repr(how) if how is not None else Words(N_("missing")))
    for need in NEEDS[how]:
        if need not in doc:
            raise _malformed(N_("an ending by {how} needs {field}"), how=_named(how),
                             field=need)
    by = doc.get("by")
    if "by" in doc and type(by) is not str:
        raise _malformed(N_("by must be a player's name"))
    counts = doc.get("counts", {})
    if type(counts) is not dict or any(type(c) is not int for c in counts.values()):
        raise _malformed(N_("counts must be an object of player: whole number"))
    declares = doc.get("declares", {})
    if type(declares) is not dict or "declares" in doc and not declares or any(
            type(cards) is not list or any(type(c) is not str for c in cards)
            for cards in declares.values()):
        raise _malformed(N_("declares must be an object of player: the dealt cards, one "
                            "entry per claimant"))
    facts = {}
    for fact in FACTS:
        if fact in doc:
            if type(doc[fact]) is not bool:
                raise _malformed(N_("{field} must be true or false"), field=fact)
            facts[fact] = doc[fact]
    try:
        cards = {q: parse_cards(c) for q, c in declares.items()}
    except MalformedInput as err:
        raise _malformed(N_("declares: {problem}"),
                         problem=Words(err.template, **err.params)) from None
    return Told(how, by, dict(counts), cards, facts)


def tell(hand: Hand, told: Told) -> None:
    """End ``hand`` (just dealt, nothing played) as ``told`` says it ended;
    raises a ``RuleViolation`` (the state unchanged) if the ending cannot
    stand under the hand's rules."""
    rules, players = hand.rules, hand.players
    for name in (told.by, *told.counts, *told.declares):
        if name is not None and name not in players:
            raise RuleViolation("not_seated", N_("{player} is not seated in this hand"),
                                {"player": name})
    if told.how in (DROP, STOCK_OUT):
        for q in players:
            if q not in told.counts:
                raise _malformed(N_("an ending by {how} needs the count of every seated "
                                    "player; {player}'s is missing"), how=_named(told.how),
                                 player=q)
    _check_counts(rules, told)
    if told.how == TONK_OUT:
        for fact in facts_needed(rules):
            if fact not in told.facts:
                raise _incomplete(Words(FACT_WORDS[fact]), fact)
    if told.how == DEAL_WIN:
        ending = _deal_win(hand, told)
    else:
        ending = _ending(hand, told)
    if rules.scoring == "push_ups":
        _check_push_up_counts(ending, told)
    hand.counted.update(told.counts)
    hand.ending = ending
    hand.phase = OVER
    hand.told = told


def _incomplete(what: Words, fact: str) -> RuleViolation:
    return RuleViolation("ending_incomplete", N_("the ending must say {what} ({fact}): these "
                                                 "rules pay by it"),
                         {"what": what, "fact": fact})


def impossible_told_count(player: str, count: object, most: int) -> RuleViolation:
    """The refusal of a count no hand of these rules can count (a told hand's,
    whose cards nobody logged; the tablet's pad says it before a tap too)."""
    return RuleViolation("impossible_count", N_(
        "{player}'s count {count} is impossible: a hand counts 0 to {most} under "
        "these rules"), {"player": player, "count": count, "most": most})


def least_told_count(rules: HouseRules, how: str | None, by: str | None,
                     player: str) -> int:
    """The least count ``player`` of a hand told as ending ``how`` (by ``by``)
    may have: a drop's dropper holds cards, so 1, unless boobed rules (an
    empty hand drops) or jokers: a joker left in a hand counts 0, so a
    dropper holding only jokers counts 0 as a played drop may
    (log-format.md's "may not count 0" meant an empty hand). Else 0. The
    check of a told hand and the tablet's pad both judge by it."""
    return 1 if how == DROP and player == by and not rules.boobed and not rules.jokers \
        else 0


def empty_drop(player: str) -> RuleViolation:
    """The refusal of a told dropper's count below their least (0: they hold
    cards); the tablet's pad says it before a tap too."""
    return RuleViolation("impossible_count", N_(
        "{player} dropped with a count of 0: a player who drops holds cards (only "
        "under boobed rules does an empty hand drop)"), {"player": player})


def _check_counts(rules: HouseRules, told: Told) -> None:
    most = rules.deck_info.most_count(rules.hand_size)
    for q, count in told.counts.items():
        if not 0 <= count <= most:
            raise impossible_told_count(q, count, most)
        if count < least_told_count(rules, told.how, told.by, q):
            raise empty_drop(q)


def _ending(hand: Hand, told: Told) -> Ending:
    rules, by = hand.rules, told.by
    counts: dict[str, int | None] = {q: told.counts[q] for q in hand.players
                                     if q in told.counts}
    if told.how == TONK_OUT:
        assert by is not None  # NEEDS: a tonk out says who went out
        facts = told.facts
        pays, why = tonk_out_pays(
            rules, by, first_turn=facts.get("first_turn", False),
            two_spreads=facts.get("two_spreads", False), by_hits=facts.get("by_hits", False),
            hit_a_spread=facts.get("hit_a_spread", False))
        return Ending(TONK_OUT, hand.players, hand.dealer, player=by, pays=pays, why=why,
                      counts=counts)
    if told.how == OUT:
        return Ending(OUT, hand.players, hand.dealer, player=by, pays=rules.out_pays,
                      why=Words(N_("{player}'s last card was the discard"), player=by),
                      counts=counts)
    return Ending(DROP if told.how == DROP else STOCK_OUT, hand.players, hand.dealer,
                  player=by, counts=counts)


def _deal_win(hand: Hand, told: Told) -> Ending:
    """The claims as declared (any timing: a first-turn claim may be told),
    each checked as ``declare`` checks it, then paid as the rules decide."""
    claims: list[Claim] = []
    for q, cards in told.declares.items():
        verify_reveal(hand, q, cards, Words(N_("the declaration")))
        best = best_claim(hand, cards, first_turn=None)
        if best is None:
            raise RuleViolation("false_declaration", N_(
                "{player}'s hand {cards} counts {total} and wins nothing on the deal under "
                "these rules"), {"player": q, "cards": " ".join(cards),
                                 "total": hand.deck.count(cards)})
        hand._reveal(q, cards, DECLARED_BY)
        claims.append(Claim(q, best.claim, best.rank, best.count))
    hand.claims = claims
    ending = hand._deal_win_ending()
    ending.counts = {q: told.counts[q] for q in hand.players if q in told.counts}
    return ending


def _check_push_up_counts(ending: Ending, told: Told) -> None:
    """In push-up scoring every loser's count is their score."""
    if ending.kind is THROWN_IN:
        return
    winners = {c.player for c in ending.claims}
    if ending.kind in (TONK_OUT, OUT) and ending.player is not None:
        winners.add(ending.player)
    for q in ending.players:
        if q not in winners and q not in told.counts:
            raise RuleViolation("ending_incomplete", N_(
                "in push-up scoring every loser's count is their score: the ending must give "
                "{player}'s count"), {"player": q})


def check_told_hand(hand: Mapping[str, object]) -> None:
    """A logged hand with an ``ending`` has none of the fields of a played
    hand, and an ending of the right shape; else it is malformed."""
    for key in PLAYED_FIELDS:
        if key in hand:
            raise MalformedInput("malformed", N_("a hand told by its ending has no {field}: "
                                                 "it has either an ending or its {field}"),
                                 {"field": key})
    read_ending(hand["ending"])
