"""The table's own events on a hand, judged against the hand as played: a
void, the players who accepted its result, the disputes raised about it.

A hand's actions are judged first; these are judged after them, in the
order the log format lists them (void, accepted, disputes), and each fault
names the hand, and the action where one action is concerned.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import RuleViolation
from .hand import DECLARED, OVER, SHOWDOWN, VOID, Hand
from .words import N_, Words

# Phases in which the hand's play has ended: its result stands.
_PLAY_ENDED = (DECLARED, SHOWDOWN, OVER)


def void_hand(hand: Hand) -> None:
    """Cancel ``hand`` (a misdeal, a player gone): it pays nothing and the
    same dealer deals again. Refused once the play has ended, even with
    shows still to come: the result is then fixed, only not yet shown."""
    if hand.phase in _PLAY_ENDED:
        how = Words(N_("a deal win was declared") if hand.claims else N_("its play has ended"))
        raise RuleViolation("void_after_end", N_("the hand cannot be void: {how}, so its "
                                                 "result stands"), {"how": how}, hand=hand.number)
    hand.phase = VOID


def check_accepted(hand: Hand, names: Sequence[str]) -> None:
    """Players who confirmed the hand's result: seated, each once, and only
    once there is a result (every required show in) to confirm."""
    if not names:
        return  # nobody has confirmed anything
    if not hand.is_complete:
        if hand.phase is VOID:
            why = Words(N_("it is void, so there is no result to accept"))
        elif hand.phase in _PLAY_ENDED:
            why = Words(N_("its result waits for shows still to come"))
        else:
            why = Words(N_("it is still in play"))
        raise RuleViolation("accept_in_play", N_("the hand's result cannot be accepted: {why}"),
                                              {"why": why},
                            hand=hand.number)
    seen: set[str] = set()
    for name in names:
        if name not in hand.players:
            raise RuleViolation("accept_not_seated", N_("{name} is not seated in this hand, "
                                                        "so cannot accept its result"),
                                                     {"name": name}, hand=hand.number)
        if name in seen:
            raise RuleViolation("accept_twice", N_("{name} is listed twice as accepting the "
                                                   "result"), {"name": name}, hand=hand.number)
        seen.add(name)


def check_disputes(hand: Hand, disputes: Sequence[dict], actions: int) -> None:
    """Objections kept for the record: each about one of the hand's
    ``actions`` (numbered from 1) or the whole hand (``None``), by a player
    seated in it. A dispute changes no result."""
    for dispute in disputes:
        action, by = dispute["action"], dispute["by"]
        if action is not None and not 1 <= action <= actions:
            has = Words(N_("its actions are 1 to {actions}"), actions=actions) if actions \
                else Words(N_("it has no actions"))
            raise RuleViolation("dispute_no_action", N_("a dispute by {player} names action "
                                                        "{action}, but {has}"),
                                {"player": by, "action": action, "has": has}, hand=hand.number)
        if by not in hand.players:
            raise RuleViolation("dispute_not_seated", N_("{player} is not seated in this "
                                                         "hand, so cannot dispute it"),
                                {"player": by}, hand=hand.number, action=action)


#: How a table settles a dispute (the log format: "by a correction (the
#: service's undo) or lets the record stand"): a dispute's ``settled.how``.
SETTLE_WAYS = ("corrected", "stands")


def on_undone(number: int, text: str) -> str:
    """What the service writes before the note of a dispute whose action
    ``number`` (``text``) was undone (``disputes_after_undo``); a log's
    settled dispute says it in its ``settled`` instead (``settled.action``
    and the last of ``settled.undone``), its note as the player wrote it."""
    return f"[on action {number}, {text}, since undone] "


def disputes_after_undo(disputes: Sequence[dict], number: int, text: str) -> list[dict]:
    """The disputes once action ``number`` (``text``) is undone: a dispute of
    it is how the table settles one (the spec: "by a correction"), so the
    objection stays, as a dispute of the whole hand that says which action it
    was about (the log may only name actions still in force)."""
    out = []
    for d in disputes:
        if d["action"] == number:
            note = on_undone(number, text) + d["note"]
            if len(note) > 500:
                note = note[:499] + "…"
            d = {"action": None, "by": d["by"], "note": note}
        out.append(d)
    return out


def setup_after_undo(setup: dict, number: int, text: str) -> dict:
    """A hand's setup once action ``number`` (``text``) is undone: its
    disputes as ``disputes_after_undo`` says, and nobody's acceptance left.
    An undo of an accepted hand is only ever a correction of a dispute
    raised by someone who had not accepted it; whoever had accepted, had
    accepted a result the hand no longer has, and accepts again or not."""
    if setup.get("disputes"):
        setup = {**setup, "disputes": disputes_after_undo(setup["disputes"], number, text)}
    if "accepted" in setup:
        setup = {k: v for k, v in setup.items() if k != "accepted"}
    return setup


def judge_events(hand: Hand, setup: dict) -> None:
    """A hand's ``void``, ``accepted`` and ``disputes``, after its actions."""
    if "void" in setup:
        void_hand(hand)
    if "accepted" in setup:
        check_accepted(hand, setup["accepted"])
    if "disputes" in setup:
        check_disputes(hand, setup["disputes"], len(setup.get("actions", ())))
