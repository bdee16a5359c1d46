"""Links with roles: who a phone at the table is.

Besides the host (the PIN, or the table token on the API) and the auditor
(the audit token), a table hands out links:

- one **viewer link**: reads every page and paper of the table, writes nothing;
- one **seat link** per player: logs that player's own actions (the rules
  still say whose turn it is), accepts or disputes that player's hands, and
  records a payment that player makes or receives. Anything else is refused
  with ``not_your_seat``.

Issuing and revoking a link are events of the table's hash chain (kinds
``link`` and ``unlink``, written by ``table.seat_links``), so ``referee
verify`` covers who may write: the chain holds each link's token hash
(SHA-256, as for the table and audit tokens) and a nonce, never the token. The
token is ``HMAC(secret, nonce)`` with the service's secret key (the one that
signs its cookies), so the host's page can show a link's QR code again without
the database holding it; a new link for a seat replaces the old one, which is
refused from then on, as is a revoked one, on every app server (the chain is
read on every check).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from ...rules.words import N_
from .. import access, storage
from ..errors import NotFound, NotYourSeat
from ..kinds import EventKind
from ..storage import Database

SEAT, VIEWER = "seat", "viewer"
HOST, TABLE, AUDIT = "host", "table", "audit"
WRITERS = (HOST, TABLE)


@dataclass(frozen=True)
class Access:
    """What a device or a token may do at one table: ``role`` is ``host`` (the
    PIN on a tablet), ``table`` (the table token), ``audit``, ``viewer`` or
    ``seat`` (then ``player`` is whose)."""

    role: str
    player: str | None = None

    @property
    def writes(self) -> bool:
        """Whether it may write anything a seat may not (the host's rights)."""
        return self.role in WRITERS


@dataclass(frozen=True)
class Link:
    role: str
    player: str | None
    token_hash: str
    nonce: str
    seq: int  # the event that issued it


def link_token(secret: str, sid: str, nonce: str) -> str:
    """The token of the link issued with ``nonce`` (its hash is in the chain)."""
    digest = hmac.new(secret.encode(), f"tonk-link\0{sid}\0{nonce}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def links(db: Database, sid: str) -> dict[tuple[str, str | None], Link]:
    """The table's links in force, by (role, player), each player under their
    name now (a corrected name carries its link)."""
    live: dict[tuple[str, str | None], Link] = {}
    # Links and name corrections are the table's own events (no hand): a short
    # walk of the index, where every event of a long night took 66 ms at
    # 10,000 hands on each page a phone opened.
    for ev in storage.events.session_level(db, sid, (EventKind.LINK, EventKind.UNLINK,
                                                     EventKind.RENAME)):
        said = ev["payload"]
        if ev["kind"] == EventKind.RENAME:
            old = live.pop((SEAT, said["old"]), None)
            if old is not None:
                live[(SEAT, said["new"])] = Link(SEAT, said["new"], old.token_hash, old.nonce,
                                                 old.seq)
        elif ev["kind"] == EventKind.LINK:
            live[(said["role"], said.get("player"))] = Link(
                said["role"], said.get("player"), said["token_hash"], said["nonce"], ev["seq"])
        else:
            live.pop((said["role"], said.get("player")), None)
    return live


def token_access(db: Database, sid: str, token: str | None) -> Access | None:
    """Which role (and seat) ``token`` has at table ``sid``: its table or audit
    token, a seat or viewer link in force; None for anything else. Raises
    ``NotFound`` for an unknown table, whatever the token."""
    role = access.token_role(db, sid, token)
    if role is not None:
        return Access(role)
    if not token:
        return None
    h = access.token_hash(token)
    for link in links(db, sid).values():
        if hmac.compare_digest(h, link.token_hash):
            return Access(link.role, link.player)
    return None


def authorize(db: Database, sid: str, token: str | None, *, write: bool,
              seats: bool = False) -> Access:
    """``access.authorize`` with links: a viewer link reads; a seat link reads,
    and with ``seats`` may also write (the view then checks whose, with
    ``check_seat``). Raises ``Locked`` (also for an unknown table, as
    ``access.authorize`` does), ``NotYourSeat``."""
    try:
        found = token_access(db, sid, token)
    except NotFound:
        found = None
    if found is None or found.role in (TABLE, AUDIT):
        role = access.authorize(db, sid, token, write=write)  # its own refusals, as before
        return Access(role)
    if write and not (seats and found.role == SEAT):
        raise not_your_seat(found)
    return found


def not_your_seat(who: Access, player: str | None = None) -> NotYourSeat:
    if who.role == SEAT and player is not None:
        return NotYourSeat("not_your_seat", N_("This is {seat}'s phone: it may only log, "
                                               "accept and dispute for {seat}, not for "
                                               "{player}."),
                           {"seat": who.player, "player": player})
    if who.role == SEAT:
        return NotYourSeat("not_your_seat", N_("This is {seat}'s phone: only the host's "
                                               "tablet may do that."), {"seat": who.player})
    return NotYourSeat("not_your_seat", N_("This link only shows the table: only the host's "
                                           "tablet or a player's own phone may change it."))


def check_seat(who: Access, *players: str) -> None:
    """Refuse (``not_your_seat``) unless ``who`` may act for one of ``players``:
    the host and the table token for anyone, a seat for its own player (a
    payment: the one who pays or the one paid), a viewer for no one."""
    if who.writes:
        return
    if who.role == SEAT and who.player in players:
        return
    raise not_your_seat(who, players[0] if players and who.role == SEAT else None)


def actor_of(action: str) -> str:
    """The player an action line is about (``"Ben: draw 4c"`` -> ``"Ben"``)."""
    return action.partition(":")[0].strip()


def shown_token(secret: str, sid: str, link: Link) -> str | None:
    """The token of a link in force, made again for its QR code; None when the
    service's secret key has changed since it was issued (issue a new one)."""
    token = link_token(secret, sid, link.nonce)
    return token if hmac.compare_digest(access.token_hash(token), link.token_hash) else None
