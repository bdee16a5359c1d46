"""What each device may see of a hand (issue 35).

The referee knows every card the host enters (a real deal, a draw): the
host's tablet and the audit token see them all, as the referee does. A
seat's phone sees what its player could see at the table: its own cards,
and what is public (spreads, the pile, how many cards each holds, a hand
shown at a showdown, a hand's result and the counts it was paid by); the
viewer link (the room, a TV) sees only what is public. Every way a phone
reads a hand goes through here: the hand's page (its live copies are the
page again), its offline data, and the API's state and answers.
"""

from __future__ import annotations

from dataclasses import replace

from ...rules.cards import UNKNOWN
from ...rules.words import N_
from ..access.seats import AUDIT, Access
from ..errors import NotYourSeat
from .history import as_action, record

# The verbs whose card only the actor sees: a draw from the stock. Every
# other card an action names is laid face up (a take's is the pile's top).
_PRIVATE = frozenset({"draw"})


def sees_all(who: Access | None) -> bool:
    """The host's tablet, the table token and the audit token: every card."""
    return who is None or who.writes or who.role == AUDIT


def check_sees_all(who: Access | None) -> None:
    """Refuse a seat's or the viewer's link what shows every player's cards
    as the referee knows them: the log, a hand's audit."""
    if not sees_all(who):
        raise NotYourSeat("not_your_seat", N_("A player's phone and the viewer link do not "
                                               "show every player's cards: the log and the "
                                               "hands' audits are for the host's tablet and "
                                               "the audit token."))


#: A dispute's settlement's actions (``disputes.settle_dispute``'s payload).
_PLAYED = ("undone", "instead", "again", "left", "stopped")


def _sees(who: Access, player: str, state: dict) -> bool:
    if player == who.player:
        return True
    return any(p["name"] == player and p.get("shown") for p in state.get("players", ()))


def hand(state: dict | None, who: Access | None) -> dict | None:
    """``state`` as ``who`` may see it: another player's unshown cards as
    so many unknown, and the actions and verbs open only to ``who``'s own
    player (a discard or a show names the cards held; a declaration or a
    take open to another tells what they hold). A new dict: the service's
    cached state stays whole."""
    if who is None or sees_all(who) or state is None:
        return state
    players = []
    for p in state.get("players", ()):
        if _sees(who, p["name"], state) or not (p.get("known") or p.get("count") is not None):
            players.append(p)
        else:
            players.append({**p, "known": [], "unknown": p["cards"], "count": None})
    out = {**state, "players": players}
    if out.get("settled_disputes"):
        out["settled_disputes"] = _settled(out["settled_disputes"])
    if "legal" in out:
        out["legal"] = [t for t in out["legal"] if t.partition(":")[0].strip() == who.player]
    if "verbs" in out:
        # What another player may do follows from what they hold (a dealt
        # winning hand to declare, a take they can meld under take_must_meld):
        # their verbs are theirs as their cards are. ``to_act`` stays public.
        out["verbs"] = {q: v for q, v in out["verbs"].items() if q == who.player}
    return out


def _settled(settled: list[dict | None]) -> list[dict | None]:
    """How a hand's disputes were settled, without the actions a correction
    undid and logged (they name cards, a draw's): how it was settled, by
    whom and when is the table's; which cards, the host's."""
    return [d and {k: v for k, v in d.items() if k not in _PLAYED} for d in settled]


def history(records: list[dict], state: dict, who: Access | None) -> list[dict]:
    """A hand's history records (``service.table.history.record``) as ``who``
    may see them: another player's draw names no card."""
    if who is None or sees_all(who):
        return records
    out = []
    for r in records:
        if r["verb"] in _PRIVATE and r["cards"] and r["cards"] != [UNKNOWN] \
                and not _sees(who, r["player"], state):
            hidden = replace(as_action(r), cards=(UNKNOWN,))
            r = record(hidden, undone=r["undone"], number=r.get("number"))
        out.append(r)
    return out
