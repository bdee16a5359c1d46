"""Actions as they are logged: ``"NAME: VERB ARGS"``.

An ``Action`` is the parsed, canonical form; ``str(action)`` writes it back in
the log format. Parsing checks only the writing (verbs, cards, spread
numbers); whether the action is allowed is the hand's business.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import UNKNOWN, parse_cards
from .errors import MalformedInput

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
        return " ".join(parts)

    @property
    def card(self) -> str | None:
        return self.cards[0] if self.cards else None


def parse_action(text: str) -> Action:
    """The ``Action`` written as ``text``; raises ``MalformedInput`` if unreadable."""
    if not isinstance(text, str):
        raise MalformedInput("bad_action", f"an action must be a string like 'Ben: draw 4c', "
                             f"not {type(text).__name__}")
    player, sep, rest = text.partition(":")
    player = player.strip()
    if not sep or not player:
        raise MalformedInput("bad_action", f"{text!r} is not an action: write 'NAME: VERB "
                             "CARDS', like 'Ben: draw 4c'")
    words = rest.split()
    if not words:
        raise MalformedInput("bad_action", f"{text!r} names no verb (one of {', '.join(VERBS)})")
    verb = words[0].lower()
    if verb not in _ARITY:
        raise MalformedInput("bad_action", f"unknown verb {words[0]!r}; the verbs are "
                             f"{', '.join(VERBS)}")
    lo, hi, needs_spread = _ARITY[verb]
    args = words[1:]
    spread = None
    if needs_spread:
        if not args or args[0][:1] not in "Ss" or not args[0][1:].isdigit() or \
                int(args[0][1:]) < 1:
            raise MalformedInput("bad_action", f"{verb} needs a spread number like S1, "
                                 f"in {text!r}")
        spread = int(args[0][1:])
        args = args[1:]
    if len(args) < lo or (hi is not None and len(args) > hi):
        if hi == lo:
            want = f"{lo} card{'s' if lo != 1 else ''}" if lo else "no cards"
        elif hi is None:
            want = f"at least {lo} cards"
        else:
            want = f"{lo} to {hi} cards"
        raise MalformedInput("bad_action", f"{verb} takes {want}, in {text!r}")
    cards = parse_cards(args)
    if UNKNOWN in cards and verb not in _UNKNOWN_OK:
        if verb == "declare":
            raise MalformedInput("bad_action", f"declare must show the dealt cards, in {text!r}")
        raise MalformedInput("bad_action", f"{verb} must name its cards (?? is only for "
                             f"draw and take), in {text!r}")
    return Action(player, verb, cards, spread)
