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


@dataclass(slots=True)
class TurnState:
    """What the current turn has done so far (a new one when a turn passes)."""

    started: bool = False
    taken: str | None = None  # the card taken from the discard pile
    hits: int = 0
    spreads: int = 0
    melded: tuple[str, ...] = ()  # spread or hit with this turn
    out_blocked: bool = False  # hit by another since their last turn (hit_blocks_going_out)
