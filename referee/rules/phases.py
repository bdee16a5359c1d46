"""Where a hand is: its phase, and what the current turn has done so far."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    START = "start"  # the player to act may drop, draw or take (and, before play, claims)
    PLAY = "play"  # after drawing or taking: spread, hit, discard
    EXTRA_DISCARD = "extra_discard"  # a slapper owes one extra discard
    DECLARED = "declared"  # a deal win was declared: the hand is not played
    SHOWDOWN = "showdown"  # the play ended: players show their hands
    OVER = "over"
    VOID = "void"  # the table cancelled the hand (referee.rules.events): no result


START, PLAY, EXTRA_DISCARD, DECLARED, SHOWDOWN, OVER, VOID = Phase

# The verbs that start a turn, in the order the tablet offers them.
START_VERBS = ("drop", "draw", "take")
# The verbs of a turn once it has started, in the order the tablet offers them.
PLAY_VERBS = ("spread", "hit", "discard")


def turn_after(hit_replaces_discard: bool) -> dict[str, str]:
    """Where each verb of the player to act leaves the turn when the play goes
    on: ``play`` (still theirs, to spread, hit or discard) or ``pass`` (the
    next seat's, to start). Verbs not named end the play or depend on more
    than the verb (a drop, a show, a slap). For a page's preview of taps kept
    offline, which the referee judges when they are sent; a test holds the
    engine's own moves to it."""
    return {"draw": "play", "take": "play", "spread": "play",
            "hit": "pass" if hit_replaces_discard else "play", "discard": "pass"}


@dataclass(slots=True)
class TurnState:
    """What the current turn has done so far (a new one when a turn passes)."""

    started: bool = False
    taken: str | None = None  # the card taken from the discard pile
    hits: int = 0
    spreads: int = 0
    melded: tuple[str, ...] = ()  # spread or hit with this turn
    out_blocked: bool = False  # hit by another since their last turn (hit_blocks_going_out)
