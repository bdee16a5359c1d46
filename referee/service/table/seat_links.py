"""A table's seat and viewer links issued and revoked: events of its hash
chain (kinds ``link`` and ``unlink``), which ``access.seats`` reads to tell
who a phone at the table is (the token made from the service's secret and
the event's nonce, its hash in the chain)."""

from __future__ import annotations

import secrets

from ...rules.errors import MalformedInput
from ...rules.words import N_
from .. import access
from ..access.seats import SEAT, VIEWER, link_token, links
from ..kinds import EventKind
from ..storage import Database
from .table_events import write_event


def issue(db: Database, sid: str, role: str, player: str | None, secret: str,
          client_id: str | None = None) -> str:
    """A new link (``role`` seat with its ``player``, or viewer), replacing that
    seat's or the viewer's link in force: the old one is refused from now on.
    Returns the new token. Refused for a role that is neither, or a player
    not of the table (``unknown_player``)."""
    if role not in (SEAT, VIEWER):
        raise MalformedInput("malformed", N_("{field}: {problem}"),
                             {"field": "role", "problem": "seat or viewer"})
    nonce = secrets.token_hex(16)
    token = link_token(secret, sid, nonce)

    def check(live):
        if role == SEAT and player not in live.everyone:
            raise MalformedInput("unknown_player", N_("{old} is not a player of this session"),
                                 {"old": player})
        payload = {"role": role, "player": player if role == SEAT else None,
                   "token_hash": access.token_hash(token), "nonce": nonce}
        return None, payload, _no_rows, None

    answer = write_event(db, sid, EventKind.LINK, client_id, check, closed_too=True)
    return link_token(secret, sid, answer["nonce"])


def revoke(db: Database, sid: str, role: str, player: str | None,
           client_id: str | None = None) -> dict:
    """Take a seat's link (or the viewer link) away: refused from now on.
    Refused when there is none in force (``no_link``)."""

    def check(live):
        key = (role, player if role == SEAT else None)
        if key not in links(db, sid):
            raise MalformedInput("no_link", N_("there is no link for {who} to revoke"),
                                 {"who": player if role == SEAT else role})
        return None, {"role": role, "player": key[1]}, _no_rows, None

    return write_event(db, sid, EventKind.UNLINK, client_id, check, closed_too=True)


def _no_rows(_w: Database, _event_id: int) -> None:
    """A link changes no derived row: the chain alone says who holds one."""

