"""Actions as they are logged: ``"NAME: VERB ARGS"``.

An ``Action`` is the parsed, canonical form; ``str(action)`` writes it back in
the log format. Parsing checks only the writing (verbs, cards, spread
numbers); whether the action is allowed is the hand's business.
"""

from __future__ import annotations

import sys
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
_VERBS = {verb: verb for verb in VERBS}
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


# A frozen dataclass's __init__ sets each field through object.__setattr__;
# the parser, which makes an action for every new action string (every show
# is one), fills the slots directly, in a third of the time. The action is
# still frozen: nothing can change it afterwards.
_new = object.__new__
_set_player, _set_verb, _set_cards, _set_spread = (
    Action.player.__set__, Action.verb.__set__, Action.cards.__set__, Action.spread.__set__)


def _make_action(player: str, verb: str, cards: tuple[str, ...], spread: int | None) -> Action:
    action = _new(Action)
    _set_player(action, player)
    _set_verb(action, verb)
    _set_cards(action, cards)
    _set_spread(action, spread)
    return action


# Logs repeat the same few thousand action strings ("Ben: draw", "Cy: discard
# 9c"); remembering their parse makes replay several times faster. Actions are
# immutable, so sharing them is safe; the cache is bounded for long-lived servers.
_PARSED: dict[str, Action] = {}
_PARSED_MAX = 200_000


def parsed_actions() -> dict[str, Action]:
    """The actions parsed so far, by their text (read-only: for a caller that
    looks up many, without a call for each)."""
    return _PARSED


def parse_action(text: str) -> Action:
    """The ``Action`` written as ``text``; raises ``MalformedInput`` if unreadable."""
    try:
        return _PARSED[text]
    except (KeyError, TypeError):
        pass
    action = _parse_action(text)
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()  # cleared, never replaced: parsed_actions() stays valid
    _PARSED[text] = action
    return action


def _parse_action(text: str) -> Action:
    if not isinstance(text, str):
        raise MalformedInput("bad_action", f"an action must be a string like 'Ben: draw 4c', "
                             f"not {type(text).__name__}")
    player, sep, rest = text.partition(":")
    # Interned, as the hand's seats are: the hand's per-player look-ups then
    # match names by identity.
    player = sys.intern(player.strip())
    if not sep or not player:
        raise MalformedInput("bad_action", f"{text!r} is not an action: write 'NAME: VERB "
                             "CARDS', like 'Ben: draw 4c'")
    words = rest.split()
    if not words:
        raise MalformedInput("bad_action", f"{text!r} names no verb (one of {', '.join(VERBS)})")
    # The verb as the one constant string object the engine compares with.
    verb = _VERBS.get(words[0]) or _VERBS.get(words[0].lower())
    if verb is None:
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
    return _make_action(player, verb, cards, spread)
