"""Actions as they are logged: ``"NAME: VERB ARGS"``.

An ``Action`` is the parsed, canonical form; ``str(action)`` writes it back in
the log format. Parsing checks only the writing (verbs, cards, spread
numbers); whether the action is allowed is the hand's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import UNKNOWN, parse_cards
from .errors import MalformedInput
from .numbers import is_whole, whole
from .words import N_, Np_, Words

SOME_CARDS = Np_("{lo} card", "{lo} cards", "lo")
AT_LEAST = Np_("at least {lo} card", "at least {lo} cards", "lo")  # declare: at least 1 card

VERBS = ("declare", "draw", "take", "spread", "hit", "discard", "drop", "show", "slap")

# What each verb takes: (fewest cards, most cards or None, needs a spread number)
_ARITY = {
    "declare": (1, None, False),
    "draw": (0, 1, False),
    "take": (0, 1, False),
    "spread": (3, None, False),
    "hit": (1, 1, True),
    "discard": (1, 1, False),
    "drop": (0, 0, False),
    "show": (0, None, False),
    "slap": (0, 0, True),
}
# Cards that must be known (public actions); only draw and take may be "??".
_UNKNOWN_OK = {"draw", "take"}


@dataclass(frozen=True, slots=True)
class Action:
    player: str
    verb: str
    cards: tuple[str, ...] = ()
    spread: int | None = None  # k of "Sk", for hit and slap

    def __str__(self) -> str:
        parts = [f"{self.player}: {self.verb}"]
        if self.spread is not None:
            parts.append(f"S{self.spread}")
        parts.extend(self.cards)
        if self.count is not None:
            parts.append(f"={self.count}")
        return " ".join(parts)

    @property
    def card(self) -> str | None:
        return self.cards[0] if self.cards else None

    @property
    def count(self) -> int | None:
        """The count a show was given as (``CountedShow``); None for any other action."""
        return None


@dataclass(frozen=True, slots=True)
class CountedShow(Action):
    """A show given as a count, not as cards (quick logging: "Cy: show =23"):
    the count stands for cards that stay unknown."""

    count: int = field(kw_only=True)


def action_of(player: str, verb: str, cards: tuple[str, ...] = (), spread: int | None = None,
              count: int | None = None) -> Action:
    """The action with these fields (a page's record of it, a line read as far
    as it goes): with a count, a ``CountedShow``."""
    if count is not None:
        return CountedShow(player, verb, cards, spread, count=count)
    return Action(player, verb, cards, spread)


def _shown_count(args: list[str], text: str) -> int:
    """The count of a show given as ``=N`` (quick logging): a whole number,
    alone. Anything else cannot be read."""
    digits = args[0][1:]
    if len(args) != 1 or not is_whole(digits, len(digits) or 1):
        raise MalformedInput("bad_action", N_("a show given as a count is '=' and a whole "
                                              "number, like 'Cy: show =23', not {text}"),
                                           {"text": repr(text)})
    # A whole number too long to be any hand's count is still a number (an
    # impossible count, judged by the hand), not text too long to read.
    return int(digits) if len(digits.lstrip("0")) <= 9 else 10**9


def parse_action(text: str) -> Action:
    """The ``Action`` written as ``text``; raises ``MalformedInput`` if unreadable."""
    if not isinstance(text, str):
        raise MalformedInput("bad_action", N_("an action must be a string like 'Ben: draw "
                                              "4c', not {kind}"), {"kind": type(text).__name__})
    player, sep, rest = text.partition(":")
    player = player.strip()
    if not sep or not player:
        raise MalformedInput("bad_action", N_("{text} is not an action: write 'NAME: VERB "
                                              "CARDS', like 'Ben: draw 4c'"),
                                           {"text": repr(text)})
    words = rest.split()
    if not words:
        raise MalformedInput("bad_action", N_("{text} names no verb (one of {verbs})"),
                                           {"text": repr(text), "verbs": ', '.join(VERBS)})
    verb = words[0].lower()
    if verb not in _ARITY:
        raise MalformedInput("bad_action", N_("unknown verb {word}; the verbs are {verbs}"),
                                           {"word": repr(words[0]), "verbs": ', '.join(VERBS)})
    lo, hi, needs_spread = _ARITY[verb]
    args = words[1:]
    if verb == "show" and args and args[0][0] == "=":
        return CountedShow(player, verb, count=_shown_count(args, text))
    spread = None
    if needs_spread:
        spread = whole(args[0][1:]) if args and args[0][:1] in "Ss" else None
        if not spread:  # none, 0, or not ASCII digits
            raise MalformedInput("bad_action", N_("{verb} needs a spread number like S1, in "
                                                  "{text}"), {"verb": verb, "text": repr(text)})
        args = args[1:]
    if len(args) < lo or (hi is not None and len(args) > hi):
        if hi == lo:
            want = SOME_CARDS.words(lo=lo) if lo \
                else Words(N_("no cards"))
        elif hi is None:
            want = AT_LEAST.words(lo=lo)
        else:
            want = Words(N_("{lo} to {hi} cards"), lo=lo, hi=hi)
        raise MalformedInput("bad_action", N_("{verb} takes {want}, in {text}"),
                                           {"verb": verb, "want": want, "text": repr(text)})
    cards = parse_cards(args)
    if UNKNOWN in cards and verb not in _UNKNOWN_OK:
        if verb == "declare":
            raise MalformedInput("bad_action", N_("declare must show the dealt cards, in "
                                                  "{text}"), {"text": repr(text)})
        raise MalformedInput("bad_action", N_("{verb} must name its cards (?? is only for "
                                              "draw and take), in {text}"),
                                           {"verb": verb, "text": repr(text)})
    return Action(player, verb, cards, spread)


#: The actions that move the discard pile's top card, whose line names none.
FROM_THE_PILE = ("take", "slap")


def as_taken(action: Action, top: str | None) -> Action:
    """A take or a slap as a person reads it: with the card it took, the
    discard pile's top when it was logged (its log line names none: the pile
    is the referee's to know; "Chloé slaps on S1" named no card). Any other
    action, or a top not known, as it is."""
    if action.verb not in FROM_THE_PILE or action.cards or top in (None, UNKNOWN):
        return action
    return Action(action.player, action.verb, (top,), action.spread)
