"""A hand's history as pages and scripts read it: each logged action as the
engine's own record (``rules.actions.Action``: who, verb, cards, spread,
count), in order, undone ones marked (they stay in the history), and a take
naming the card it took wherever the referee saw it (the log line of a take
names no card: the pile's top is the engine's to know, so the hand is
replayed to ask it). No page or script splits a log line to read it."""

from __future__ import annotations

from dataclasses import replace

from ...replay.sequential import parse_logged
from ...rules.actions import Action, action_of, as_taken
from ...rules.cards import UNKNOWN
from ...rules.errors import RefereeError
from ...rules.options import HouseRules
from ...rules.spreads import in_rank_order
from .. import storage
from ..kinds import EventKind
from ..storage import Database
from . import cache
from .live_state import current, new_hand

_ACTION, _CORRECTION = map(str, (EventKind.ACTION, EventKind.CORRECTION))


def record(action: Action, *, undone: bool = False, line: str | None = None,
           stock_empty: bool = False, number: int | None = None) -> dict:
    """One action as plain fields (for a template, and for a page's script as
    JSON): ``line`` is the log line as logged, ``cards`` what a person reads
    (a take's card resolved); ``stock_empty``: a draw from the empty stock,
    which drew nothing and ended the play; ``number``: its "action N"
    (``numbered``)."""
    return {"player": action.player, "verb": action.verb, "cards": list(action.cards),
            "spread": action.spread, "count": action.count, "undone": undone,
            "line": line if line is not None else str(action), "stock_empty": stock_empty,
            "number": number}


def numbered(events: list[dict]) -> list[int]:
    """Each logged action's number (of the hand's events, in order) as the
    hand counted it when it was logged: its place among the actions then in
    force, the "action N" a dispute names and the audit prints. An undone
    action keeps the number it had, so the one logged in its place has it
    too."""
    in_force: list[int] = []
    out = []
    for ev in events:
        if ev["kind"] == _CORRECTION:
            in_force = [i for i in in_force if i != ev["payload"].get("cancels")]
        elif ev["kind"] == _ACTION:
            in_force.append(ev["id"])
            out.append(len(in_force))
    return out


def as_action(fields: dict) -> Action:
    """A record back as the engine's action (the words of a page are said from it)."""
    return action_of(fields["player"], fields["verb"], tuple(fields["cards"]), fields["spread"],
                     fields["count"])


def _as_read(action: Action, rules: HouseRules) -> Action:
    if action.verb != "spread":
        return action
    return replace(action, cards=tuple(in_rank_order(action.cards, rules.deck_info)))


def hand_history(db: Database, sid: str, n: int) -> list[dict]:
    """Hand ``n``'s logged actions in order as records (``record``)."""
    events = storage.events.of_hand(db, sid, n)
    cancelled = {ev["payload"]["cancels"] for ev in events if ev["kind"] == _CORRECTION}
    if not events:
        return []
    with cache.lock(db, sid):
        rules = current(db, sid).rules
    # A spread's cards as a person reads them: in rank order, as laid or not.
    logged = [(_as_read(parse_logged(ev["payload"]["action"]), rules), ev["id"] in cancelled,
               ev["payload"]["action"]) for ev in events if ev["kind"] == _ACTION]
    # Only the hand played again knows a take's card and whether a draw
    # found the stock empty (it names no card either).
    numbers = numbered(events)
    if not any(a.verb in ("take", "draw") and a.cards in ((), (UNKNOWN,))
               for a, _undone, _line in logged):
        return [record(a, undone=undone, line=line, number=k)
                for (a, undone, line), k in zip(logged, numbers, strict=True)]
    row = storage.hands.row(db, sid, n)
    if row is None:
        return [record(a, undone=undone, line=line, number=k)
                for (a, undone, line), k in zip(logged, numbers, strict=True)]

    def fresh():
        return new_hand(rules, n, row["seats"], row["setup"])

    return [record(shown, undone=undone, line=line, stock_empty=empty, number=k)
            for (shown, undone, line, empty), k in zip(_as_played(fresh, logged, events),
                                                       numbers, strict=True)]


def _as_played(fresh, logged, events):
    """Each take with the card it took (the pile's top when it was logged),
    and each draw with whether it found the stock empty.

    The hand is played again as the events went (each action was judged
    when logged): an action on the hand as it stood then, a correction
    taking its action out again (a dispute's correction undoes several and
    logs them again: an undone take took the card on the pile before the
    undos, not after them).
    """
    hand, applied, k = fresh(), [], 0
    for ev in events:
        if ev["kind"] == _CORRECTION:
            applied = [(i, a) for i, a in applied if i != ev["payload"].get("cancels")]
            hand = _played(fresh, [a for _i, a in applied]) if hand is not None else None
            continue
        action, undone, line = logged[k]
        k += 1
        shown, empty = action, False
        if hand is not None:
            shown = as_taken(action, hand.top)
            empty = action.verb == "draw" and hand.stock == 0
            try:
                hand.apply_verified(action)
                applied.append((ev["id"], action))
            except RefereeError:
                hand = None  # the rest as logged
        yield shown, undone, line, empty


def _played(fresh, actions):
    hand = fresh()
    try:
        for action in actions:
            hand.apply_verified(action)
    except RefereeError:
        return None
    return hand
