"""Each player's payment details at a table: events of its hash chain (kind
``pay_details``, taken by a closed table too), read by folding them (the
newest for a name wins; a later name correction moves it). Settling up
(``club.pay``) shows them beside a transfer to that player, before the
club's for the person."""

from __future__ import annotations

from collections.abc import Callable

from ...rules.errors import MalformedInput
from ...rules.words import N_
from .. import storage
from ..kinds import EventKind
from ..money import payable
from ..storage import Database
from .table_events import write_event

PAY_DETAILS = str(EventKind.PAY_DETAILS)


def set_table_details(db: Database, sid: str, player: str, change: dict,
                      client_id: str | None = None,
                      given: Callable[[], dict] | None = None) -> dict:
    """``player``'s payment details at table ``sid`` from now on: those
    ``given`` (read under the session's lock; by default the table's own)
    with ``change`` made (``payable.changed``: a field sent replaces, one sent
    as None is removed, one left out stays). The event keeps them whole.
    Refused: a name not of the table (``unknown_player``), a detail that does
    not check out (``payable.check_details``'s codes, naming the field)."""

    def check(live):
        if player not in live.everyone:
            raise MalformedInput("unknown_player", N_("{old} is not a player of this session"),
                                 {"old": player})
        now = given() if given else table_details(db, sid).get(player, {})
        details = payable.changed(now, change)
        return None, {"player": player, **details}, lambda w, event_id: None, None

    return write_event(db, sid, EventKind.PAY_DETAILS, client_id, check, closed_too=True)


def table_details(db: Database, sid: str) -> dict[str, dict]:
    """Each player's details as the table's chain says now (by today's names)."""
    out: dict[str, dict] = {}
    for ev in storage.events.session_level(db, sid, (PAY_DETAILS, str(EventKind.RENAME))):
        said = ev["payload"]
        if ev["kind"] == PAY_DETAILS:
            name = said.pop("player")
            out[name] = said
        elif said["old"] in out:
            out[said["new"]] = out.pop(said["old"])
    return {name: d for name, d in out.items() if d}
