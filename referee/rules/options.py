"""The house rules: one frozen object with every option of ``rules.md``.

Each option is a field with a one-line explanation and its allowed values
(as data, ``allowed.py``: ``Choice``, ``WholeNumber``, ``Limit``, ``Amount``, ``ClaimList``)
in its metadata; values that are names are enum members (``StrEnum``, so
they compare and serialise as their text). The
presets are plain data (overrides of the standard game). ``resolve`` turns
a log's ``rules`` value (a preset name, or ``{"preset": ..., **overrides}``)
into a ``HouseRules`` and names any unknown option or bad value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from decimal import Decimal
from enum import StrEnum
from functools import cached_property

from .allowed import (
    Amount,
    Choice,
    ClaimList,
    DealWin,
    Limit,
    WholeNumber,
    to_json_value,
)
from .cards import Deck
from .catches import CATCH_SCHEMES
from .errors import RulesError
from .words import N_, Phrases, Words

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any


# ------------------------------------------------------------------ names


class DealerRotation(StrEnum):
    LEFT = "left"
    FREE = "free"
    WINNER_LEADS = "winner_leads"


class Ace(StrEnum):
    LOW = "low"
    LOW_OR_HIGH = "low_or_high"


class MustSpread(StrEnum):
    NEVER = "never"
    ALWAYS = "always"
    EXCEPT_ACES = "except_aces"


class Slapping(StrEnum):
    OFF = "off"
    ON = "on"
    NEXT_PLAYER_PRIORITY = "next_player_priority"


class DealWinConflict(StrEnum):
    VOID = "void"
    ALL_PAID = "all_paid"
    BEST = "best"


class DealWinTie(StrEnum):
    VOID = "void"
    NEAREST_LEFT_OF_DEALER = "nearest_left_of_dealer"


class DealWinDeclare(StrEnum):
    MUST = "must"
    MAY = "may"


# The catch schemes' names, in the registry's order (``catches.CATCH_SCHEMES``).
# mypy reads an enum's members only from a literal list, not from a registry:
# to it CatchName is an enum whose members it does not know.
CatchName = StrEnum(  # type: ignore[misc]
    "CatchName", [(name.upper(), name) for name in CATCH_SCHEMES])


class StockOut(StrEnum):
    LOW_WINS = "low_wins"
    DEAD = "dead"


class StockOutTie(StrEnum):
    SHARE = "share"
    DEAD = "dead"


class Scoring(StrEnum):
    STAKES = "stakes"
    PUSH_UPS = "push_ups"


# ------------------------------------------------------------------ options


def _opt(default: Any, doc: str, allowed: Choice | WholeNumber | Limit | Amount | ClaimList
         ) -> Any:  # the field's value, as dataclasses.field's
    return field(default=default, metadata={"doc": doc, "allowed": allowed})


def _names(enum: type[StrEnum]) -> Choice:
    return Choice(tuple(enum))


_YES_NO = Choice((False, True))
_NO_YES = Choice((True, False))

_PAGAT_DEAL_WINS = (
    DealWin("total:49", Decimal(2)),
    DealWin("total:50", Decimal(2)),
)


# The most players any rules deal to: 52 cards and 4 jokers, 5 cards each.
# A schema's bound; each session is held to its own rules' ``max_players``.
MAX_PLAYERS = (52 + 4) // 5


@dataclass(frozen=True)
class HouseRules:
    """A table's house rules. Defaults are the standard game (preset ``pagat``)."""

    preset: str = field(default="pagat", metadata={"doc": N_("The preset these rules start from.")})
    # Deck and deal
    deck: int = _opt(52, N_("Cards in the deck: 52, or 40 without 8s, 9s and 10s "
                     "(then a 7 is next to the jack in runs)."), Choice((52, 40)))
    jokers: int = _opt(0, N_("Jokers added to the deck (X1 to X4)."), WholeNumber(0, 4))
    jokers_wild: bool = _opt(False, N_("Jokers are wild; otherwise a joker counts 0 and "
                             "cannot be spread."), _YES_NO)
    deuces_wild: bool = _opt(False, N_("The four 2s are wild in spreads."), _YES_NO)
    court_values: str = _opt("10", N_("What J, Q and K count: 10 each, or 11, 12 and 13 "
                             "(then deal wins on totals are not allowed)."),
                             Choice(("10", "11-12-13")))
    hand_size: int = _opt(5, N_("Cards dealt to each player."), Choice((5, 7, 9)))
    upcard: bool = _opt(True, N_("A card is turned up to start the discard pile; without "
                        "it the first player must draw from the stock."), _NO_YES)
    dealer_rotation: DealerRotation = _opt(DealerRotation.LEFT, N_("Who deals next: the player "
                                           "left of the last dealer (checked), anyone, or the "
                                           "player at the right of the last hand's winner, so "
                                           "that the winner plays first (checked; after a hand "
                                           "with no winner the same dealer deals again)."),
                                           _names(DealerRotation))
    # Spreads and the turn
    book_extendable: bool = _opt(True, N_("A book of three may be hit with its fourth card."),
                                 _NO_YES)
    max_hits_per_turn: int | None = _opt(None, N_("Most hits a player may make in one turn "
                                         "(none: no limit)."), Limit())
    hit_replaces_discard: bool = _opt(False, N_("A turn in which the player hit ends without "
                                      "a discard."), _YES_NO)
    take_must_meld: bool = _opt(False, N_("A card taken from the discard pile must be spread "
                                "or hit in the same turn."), _YES_NO)
    must_spread: MustSpread = _opt(MustSpread.NEVER, N_("A player may not end a turn (or show a "
                                   "hand) holding a spread; “except three aces” lets "
                                   "three aces be held."), _names(MustSpread))
    slapping: Slapping = _opt(Slapping.OFF, N_("A discard that could hit a spread may be slapped "
                              "onto it by any player before the next player draws or takes."),
                              _names(Slapping))
    # Waiting
    spread_wait: int = _opt(0, N_("Turns a player must wait before dropping, for each new "
                            "spread they lay."), WholeNumber(0, 9, (0, 3)))
    hit_wait: int = _opt(0, N_("Turns a spread's owner must wait before dropping each time "
                         "another player hits that spread."), WholeNumber(0, 9, (0, 1, 3)))
    self_hit_wait: int = _opt(0, N_("Turns a player must wait before dropping after hitting "
                              "their own spread."), WholeNumber(0, 9, (0, 1)))
    hit_wait_once_per_round: bool = _opt(False, N_("Hits received between two of one's turns "
                                         "add the hit wait only once."), _YES_NO)
    hit_blocks_going_out: bool = _opt(False, N_("A player hit by another since their last turn "
                                      "may not go out (empty their hand) in their next turn."),
                                      _YES_NO)
    # Deal wins
    deal_wins: tuple[DealWin, ...] = _opt(_PAGAT_DEAL_WINS, N_("Dealt hands that win at once, "
                                          "best first, and what each pays."), ClaimList())
    deal_win_conflict: DealWinConflict = _opt(DealWinConflict.VOID, N_("Two or more deal-win "
                                              "claims: throw the hand in, pay every claimant, "
                                              "or pay only the best claim."),
                                              _names(DealWinConflict))
    deal_win_tie: DealWinTie = _opt(DealWinTie.VOID, N_("With the best claim paid, two equally "
                                    "good claims: throw the hand in, or pay the one nearest "
                                    "the dealer's left."), _names(DealWinTie))
    deal_win_declare: DealWinDeclare = _opt(DealWinDeclare.MUST, N_("A player dealt a winning "
                                            "hand must declare it before play (checked where "
                                            "the deal is known), or may."),
                                            _names(DealWinDeclare))
    # Going out
    tonk_out_pays: Decimal = _opt(Decimal(2), N_("Stakes paid by each other player for a tonk "
                                  "out (hand emptied with no final discard)."), Amount((2, 1)))
    tonk_out_by_hits_pays: Decimal | None = _opt(None, N_("A tonk out whose last cards went by "
                                                 "hits alone (no new spread that turn) pays "
                                                 "this (none: as a tonk out)."),
                                                 Amount((None, 1), optional=True))
    tonk_out_double_first_turn_only: bool = _opt(False, N_("After the player's first turn a "
                                                 "tonk out pays 1."), _YES_NO)
    tonk_out_double_lost_by_hitting: bool = _opt(False, N_("A player who has hit a spread this "
                                                 "hand is paid 1 for a tonk out."), _YES_NO)
    first_turn_two_spreads_pays: Decimal | None = _opt(None, N_("Going out in one's first turn "
                                                       "with two spreads of one's own (no hit, "
                                                       "no discard) pays this."),
                                                       Amount((None, 4), optional=True))
    out_pays: Decimal = _opt(Decimal(1), N_("Stakes paid by each other player when a player's "
                             "last card is the discard."), Amount((1, 2)))
    boobed: bool = _opt(False, N_("Once the stock holds no more cards than there are players, "
                        "nobody may end the hand by going out; an empty hand counts 0 and "
                        "may drop next turn."), _YES_NO)
    # Dropping and catches
    drop_pays: Decimal = _opt(Decimal(1), N_("Stakes paid by each other player to a dropper "
                              "whose count is strictly the lowest."), Amount((1,)))
    caught: CatchName = _opt(CatchName("pagat"), N_("Who pays what when the dropper is caught "
                             "(another count equal or lower): one of the catch schemes."),
                             _names(CatchName))
    caught_pays: Decimal | str = _opt(Decimal(2), N_("The amount paid when the catch scheme "
                                      "is “pay the beaters” or “pay the "
                                      "lowest”; 2n is twice the number of players."),
                                      Amount((2, 4, "2n"), words=("2n",)))
    # Stock out
    stock_out: StockOut = _opt(StockOut.LOW_WINS, N_("When the stock runs out: the lowest count "
                               "wins, or the hand is dead."), _names(StockOut))
    stock_out_pays: Decimal = _opt(Decimal(1), N_("Stakes paid to the lowest count by each "
                                   "other player when the stock runs out."), Amount((1,)))
    stock_out_tie: StockOutTie = _opt(StockOutTie.SHARE, N_("Several tie for lowest at a stock "
                                      "out: each collects from the rest, or the hand is dead."),
                                      _names(StockOutTie))
    # Scoring
    scoring: Scoring = _opt(Scoring.STAKES, N_("Stakes paid in money or points, or push-ups: "
                            "losers' scores go up by their counts and the lowest score is "
                            "best."), _names(Scoring))
    # Rules other tables play (each off by default: no preset changes)
    ace: Ace = _opt(Ace.LOW, N_("In a run the ace is low only (A-2-3), or low or high (A-2-3 "
                    "or Q-K-A, never both at once: K-A-2 is no run); it always counts 1."),
                    _names(Ace))
    pickup_depth: int = _opt(1, N_("Instead of drawing, a player may take the top card of the "
                             "discard pile, or either of the top two (the other stays where it "
                             "was)."), Choice((1, 2)))
    match_to: int | None = _opt(None, N_("Push-ups only: the session is a match that ends after "
                                "the hand in which a score reaches this number; the lowest "
                                "score wins it, and no hand starts after it (none: no match)."),
                                Limit(usual=(None, 100)))

    # -------------------------------------------------------------- derived

    @cached_property
    def checks_turn_end(self) -> bool:
        """Whether ending a turn needs checking (a taken card to meld, spreads
        that must be laid down): asked on every discard, so worked out once."""
        return self.take_must_meld or self.must_spread != "never"

    @cached_property
    def deal_win_counts(self) -> frozenset[int] | None:
        """The counts a dealt hand can win with (None: any count may, as five
        face cards can): most dealt hands are ruled out by their count alone."""
        counts: set[int] = set()
        for claim in self.deal_wins:
            number = claim.number
            if number is None:  # five face cards, whatever they count
                return None
            if claim.kind == "total":
                counts.add(number)
            else:
                counts.update(range(number + 1))
        return frozenset(counts)

    @cached_property
    def deck_info(self) -> Deck:
        return Deck(
            size_52=self.deck == 52,
            jokers=self.jokers,
            jokers_wild=self.jokers_wild,
            deuces_wild=self.deuces_wild,
            court_high=self.court_values == "11-12-13",
            ace_high=self.ace == "low_or_high",
        )

    @cached_property
    def follows_results(self) -> bool:
        """Whether a hand's start depends on how the hands before it were
        settled (the winner leads; a match ends): decided once, so that a
        table under other rules never settles a hand to start the next."""
        return self.dealer_rotation == "winner_leads" or self.match_to is not None

    @cached_property
    def max_players(self) -> int:
        """The most players one deck deals a hand to (and turns an upcard)."""
        return (self.deck_info.size - (1 if self.upcard else 0)) // self.hand_size

    def caught_amount(self, players: int) -> Decimal:
        pays = self.caught_pays  # an amount, or "2n": twice the number of players
        return pays if isinstance(pays, Decimal) else Decimal(2 * players)

    def payment_amounts(self) -> list[Decimal]:
        """Every amount, in stakes, that these rules can make a player pay."""
        amounts = [self.tonk_out_pays, self.out_pays, self.drop_pays, self.stock_out_pays]
        amounts += [a for a in (self.tonk_out_by_hits_pays, self.first_turn_two_spreads_pays)
                    if a is not None]
        if isinstance(self.caught_pays, Decimal):
            amounts.append(self.caught_pays)
        amounts += [c.pays for c in self.deal_wins]
        return amounts

    def to_json(self) -> dict[str, Any]:
        """Every option, fully expanded: what is stored with a session."""
        out: dict[str, Any] = {}
        for f in fields(self):
            out[f.name] = to_json_value(getattr(self, f.name))
        return out

    def differences(self, other: HouseRules | None = None) -> list[tuple[str, Any, Any]]:
        """(option, this value, the other's) for every option that differs
        (from the standard game when ``other`` is None)."""
        other = other or STANDARD
        diffs = []
        for f in fields(self):
            if f.name == "preset":
                continue
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if mine != theirs:
                diffs.append((f.name, to_json_value(mine), to_json_value(theirs)))
        return diffs


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(HouseRules) if f.name != "preset")
OPTION_DOCS: dict[str, str] = {
    f.name: f.metadata["doc"] for f in fields(HouseRules) if f.name != "preset"
}
#: Each option's allowed values, as data (``Choice``, ``WholeNumber``, ``Amount``...).
OPTION_ALLOWED: dict[str, Any] = {
    f.name: f.metadata["allowed"] for f in fields(HouseRules) if f.name != "preset"
}
#: The most cards a player is dealt under any rules (the largest hand size
#: allowed): a deal's and a declared hand's bound wherever one is checked or
#: documented.
MOST_DEALT: int = max(OPTION_ALLOWED["hand_size"].values)
#: Each option's allowed values, said in words (``str()`` is the English).
OPTION_VALUES: dict[str, Words | Phrases | str] = {
    name: a.describe() for name, a in OPTION_ALLOWED.items()
}
#: Each option's name as a reader reads it (a label on the form, beside a
#: value on the pages and papers); the log and ``referee rules`` keep the name.
OPTION_LABELS: dict[str, str] = {
    "deck": N_("deck"),
    "jokers": N_("jokers"),
    "jokers_wild": N_("jokers wild"),
    "deuces_wild": N_("deuces wild"),
    "court_values": N_("court card values"),
    "hand_size": N_("hand size"),
    "upcard": N_("upcard"),
    "dealer_rotation": N_("dealer rotation"),
    "book_extendable": N_("book extendable"),
    "max_hits_per_turn": N_("most hits per turn"),
    "hit_replaces_discard": N_("hit replaces discard"),
    "take_must_meld": N_("taken card must be spread"),
    "must_spread": N_("must spread"),
    "slapping": N_("slapping"),
    "spread_wait": N_("wait after a spread"),
    "hit_wait": N_("wait after being hit"),
    "self_hit_wait": N_("wait after hitting one's own spread"),
    "hit_wait_once_per_round": N_("hit wait once a round"),
    "hit_blocks_going_out": N_("a hit blocks going out"),
    "deal_wins": N_("deal wins"),
    "deal_win_conflict": N_("several deal-win claims"),
    "deal_win_tie": N_("tied deal-win claims"),
    "deal_win_declare": N_("declaring a deal win"),
    "tonk_out_pays": N_("tonk out pays"),
    "tonk_out_by_hits_pays": N_("tonk out by hits pays"),
    "tonk_out_double_first_turn_only": N_("tonk out double in the first turn only"),
    "tonk_out_double_lost_by_hitting": N_("tonk out double lost by hitting"),
    "first_turn_two_spreads_pays": N_("two spreads in the first turn pay"),
    "out_pays": N_("out pays"),
    "boobed": N_("boobed"),
    "drop_pays": N_("drop pays"),
    "caught": N_("caught"),
    "caught_pays": N_("caught pays"),
    "stock_out": N_("stock out"),
    "stock_out_pays": N_("stock out pays"),
    "stock_out_tie": N_("stock out tie"),
    "scoring": N_("scoring"),
    "ace": N_("ace"),
    "pickup_depth": N_("pickup depth"),
    "match_to": N_("match to"),
}
#: The words of each value that is a name or a text (by option): what a reader
#: reads where the log writes ``"double_to_beaters"`` or ``"2n"``.
VALUE_WORDS: dict[str, dict[str, str]] = {
    "court_values": {"10": N_("10 each"), "11-12-13": N_("11, 12 and 13")},
    "dealer_rotation": {"left": N_("left of the last dealer"), "free": N_("anyone"),
                        "winner_leads": N_("the winner leads")},
    "must_spread": {"never": N_("never"), "always": N_("always"),
                    "except_aces": N_("except three aces")},
    "slapping": {"off": N_("off"), "on": N_("on"),
                 "next_player_priority": N_("on, the next player first")},
    "deal_win_conflict": {"void": N_("the hand is thrown in"),
                          "all_paid": N_("every claimant is paid"),
                          "best": N_("the best claim is paid")},
    "deal_win_tie": {"void": N_("the hand is thrown in"),
                     "nearest_left_of_dealer": N_("the one nearest the dealer's left")},
    "deal_win_declare": {"must": N_("must declare"), "may": N_("may declare")},
    "caught": {
        # the standard scheme (named "pagat" for its source): said by what it pays
        "pagat": N_("double to the beaters, and the lowest collect 1 from each"),
        "double_to_beaters": N_("double to the beaters"),
        "low_collects_double": N_("the lowest collect double"),
        "dropper_pays_table": N_("the dropper pays the table"),
        "single_to_beaters": N_("single to the beaters"),
        "double_to_all": N_("double to everyone"),
        "five_to_low": N_("five to the lowest"),
        "pay_beaters": N_("pay the beaters"),
        "pay_lowest": N_("pay the lowest"),
        "lowest_wins": N_("the lowest wins"),
    },
    "caught_pays": {"2n": N_("twice the number of players")},
    "stock_out": {"low_wins": N_("the lowest count wins"), "dead": N_("the hand is dead")},
    "stock_out_tie": {"share": N_("each collects from the rest"),
                      "dead": N_("the hand is dead")},
    "scoring": {"stakes": N_("stakes"), "push_ups": N_("push-ups")},
    "ace": {"low": N_("low"), "low_or_high": N_("low or high")},
}
OPTION_DEFAULTS: dict[str, Any] = {
    f.name: to_json_value(f.default) for f in fields(HouseRules) if f.name != "preset"
}

# ------------------------------------------------------------------ presets

PRESET_SOURCES: dict[str, str] = {
    "pagat": N_("the typical game"),
    "waiting": N_("many people play with waiting"),
    "seattle": "Eric Dee, Seattle",
    "baton_rouge": "Phil, Baton Rouge",
    "dc": "Scott Sauri, Washington DC",
    "newark": "Sean, Newark NJ",
    "rushville": "Hank T Hebhoe, Rushville IN",
    "chicago": "Mike Foulds, Chicago",
    "washington": "Lenie Lepape, Washington State",
    "push_ups": "Tony Jacobs",
}

PRESETS: dict[str, dict[str, Any]] = {
    "pagat": {},
    "waiting": {"spread_wait": 3, "hit_wait": 1, "self_hit_wait": 1},
    "seattle": {"hand_size": 7},
    "baton_rouge": {
        "deck": 40,
        "deal_wins": [{"when": "total:47", "pays": 2}, {"when": "total:50", "pays": 2}],
    },
    "dc": {
        "deal_wins": [
            {"when": "low:11", "pays": 2},
            {"when": "total:50", "pays": 2},
            {"when": "total:49", "pays": 2},
        ],
        "deal_win_conflict": "best",
    },
    "newark": {
        "deal_wins": [
            {"when": "total:50", "pays": 2},
            {"when": "total:49", "pays": 2},
            {"when": "low:13", "pays": 2},
        ],
        "deal_win_conflict": "best",
        "deal_win_tie": "nearest_left_of_dealer",
        "first_turn_two_spreads_pays": 4,
    },
    "rushville": {
        "deal_wins": [{"when": "five_faces", "pays": 2}],
        "out_pays": 2,
        "tonk_out_pays": 2,
        "caught": "pay_beaters",
        "caught_pays": 4,
        "boobed": True,
        "stock_out_tie": "dead",
    },
    "chicago": {
        "jokers": 2,
        "jokers_wild": True,
        "deuces_wild": True,
        "upcard": False,
        "deal_wins": [
            {"when": "total:50", "pays": 2},
            {"when": "low:13", "pays": 2},
            {"when": "total:49", "pays": 1, "timing": "first_turn"},
        ],
        "deal_win_conflict": "best",
        "tonk_out_double_first_turn_only": True,
        "tonk_out_double_lost_by_hitting": True,
        "caught": "pay_beaters",
        "caught_pays": 2,
    },
    "washington": {
        "deal_wins": [
            {"when": "total:50", "pays": 2},
            {"when": "total:49", "pays": 2},
            {"when": "low:14", "pays": 2},
        ],
        "deal_win_conflict": "all_paid",
        "hit_wait": 1,
        "caught": "pay_lowest",
        "caught_pays": "2n",
    },
    "push_ups": {"scoring": "push_ups"},
}

# ---------------------------------------------------------------- validation

_CHECKS = {name: allowed.check for name, allowed in OPTION_ALLOWED.items()}


def resolve(rules: Any) -> HouseRules:
    """The ``HouseRules`` for a log's ``rules`` value (name or object)."""
    if isinstance(rules, str):
        rules = {"preset": rules}
    if not isinstance(rules, dict):
        raise RulesError("bad_rules", N_("rules must be a preset name or an object like "
                                         "{\"preset\": \"pagat\", \"upcard\": false}"))
    preset = rules.get("preset", "pagat")
    if not isinstance(preset, str) or preset not in PRESETS:  # a list or object is no name
        raise RulesError("unknown_preset", N_("unknown preset {preset}; the presets are "
                                              "{presets}"),
                         {"preset": json.dumps(preset), "presets": ", ".join(PRESETS)})
    unknown = [k for k in rules if k != "preset" and k not in _CHECKS]
    if unknown:
        raise RulesError("unknown_option", N_("unknown options {options} in rules")
                         if len(unknown) > 1 else N_("unknown option {options} in rules"),
                         {"options": ", ".join(unknown)})
    merged = {**PRESETS[preset], **{k: v for k, v in rules.items() if k != "preset"}}
    values = {name: _CHECKS[name](name, value) for name, value in merged.items()}
    if values.get("match_to") is not None and values.get("scoring", "stakes") != "push_ups":
        raise RulesError("bad_option_value", N_("option match_to cannot be {value} with "
                                                "scoring {scoring}: a match to a score needs "
                                                "push-ups scoring (\"scoring\": \"push_ups\")"),
                         {"value": json.dumps(values["match_to"]),
                          "scoring": json.dumps(str(values.get("scoring", "stakes")))})
    return HouseRules(preset=preset, **values)


STANDARD = HouseRules()
