"""Who may do what with a session: its PIN (the tablet) and its bearer tokens
(the API: the table token writes, the audit token reads)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from datetime import UTC, datetime

from sqlite_utils import Database

from ..rules.words import N_
from . import cache, storage
from .errors import Locked, NotFound, ReadOnly, TooManyTries

# Wrong tries at a table's PIN (or, for a table without one, its token on the
# unlock page): counted in the database per table, whoever and wherever they
# come from, so a restart, a second server process or another address does
# not start afresh. After FREE_TRIES the wait doubles from FIRST_WAIT, up to
# a day: a 4-digit PIN then takes years, not hours.
FREE_TRIES = 5
FIRST_WAIT = 60.0
LONGEST_WAIT = 86_400.0


def wait_after(tries: int) -> float:
    """The wait earned by ``tries`` tries since the last success."""
    if tries < FREE_TRIES:
        return 0.0
    return min(FIRST_WAIT * 2 ** min(tries - FREE_TRIES, 32), LONGEST_WAIT)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_pin(pin: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${salt.hex()}${digest.hex()}"


def _pin_hash(db: Database, sid: str) -> str | None:
    row = storage.session_row(db, sid)
    if row is None:
        raise NotFound("no_session", N_("there is no session {session}"), {"session": repr(sid)})
    return row["pin_hash"]


def check_pin(db: Database, sid: str, pin: str) -> bool:
    """Whether ``pin`` unlocks the session (True when it has no PIN)."""
    stored = _pin_hash(db, sid)
    if not stored:
        return True
    _, salt, digest = stored.split("$")
    got = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), n=2**14, r=8, p=1)
    return hmac.compare_digest(got.hex(), digest)


def unlock(db: Database, sid: str, secret: str, *, now: float | None = None) -> bool:
    """Whether ``secret`` unlocks the session: its PIN, or its table token when
    it has no PIN (a table imported through the API). Every try is counted
    before it is checked; raises ``TooManyTries`` while the table waits."""
    has = has_pin(db, sid)
    now = time.time() if now is None else now
    until = storage.run_write(
        db, lambda w: storage.claim_attempt(w, sid, "unlock", now, wait_after))
    if until:
        when = datetime.fromtimestamp(until, UTC).strftime("%H:%M:%S UTC")
        raise TooManyTries(
            "too_many_tries",
            N_("Too many wrong PINs for this table: try again at {when} (in {seconds} "
               "seconds).") if has else
            N_("Too many wrong tokens for this table: try again at {when} (in {seconds} "
               "seconds)."),
            {"when": when, "seconds": max(1, int(until - now + 0.999))}, until=until)
    ok = check_pin(db, sid, secret) if has else \
        token_role(db, sid, secret.strip()) == "table"
    if ok:
        storage.run_write(db, lambda w: storage.clear_attempts(w, sid, "unlock"))
    return ok


# Tries at the host key are rows of ``attempts`` too, under this name in place
# of a session's id, one row per page and address: every app server counts them.
HOST_KEY = "host key"


def host_key_try(db: Database, place: str, address: str, *,
                 now: float | None = None) -> int:
    """Count one try at the host key from ``address`` on ``place`` (a page)
    before it is checked: 0 if it may go ahead, else the seconds to wait."""
    now = time.time() if now is None else now
    until = storage.run_write(db, lambda w: storage.claim_attempt(
        w, HOST_KEY, f"{place} {address}", now, wait_after))
    return max(1, int(until - now + 0.999)) if until else 0


def host_key_right(db: Database, place: str, address: str) -> None:
    """The host key was right: the address's count starts again."""
    storage.run_write(db, lambda w: storage.clear_attempts(w, HOST_KEY, f"{place} {address}"))


def host_key(db: Database, key: str, sent: str, place: str, address: str, *,
             now: float | None = None) -> bool:
    """Whether ``sent`` is the host key ``key``, the try counted from
    ``address`` before it is checked, as a PIN's is (the API's guard: each
    request carries the key). Raises ``TooManyTries`` while the address waits,
    even with the right key, which would otherwise tell which try was right."""
    now = time.time() if now is None else now
    wait = host_key_try(db, place, address, now=now)
    if wait:
        raise TooManyTries("too_many_tries",
                           N_("Too many wrong host keys. Wait {seconds} seconds."),
                           {"seconds": wait}, until=now + wait)
    if not hmac.compare_digest(sent.encode(), key.encode()):
        return False
    host_key_right(db, place, address)
    return True


def has_pin(db: Database, sid: str) -> bool:
    """Whether the session has a PIN (a table imported through the API has none).
    Raises ``NotFound``."""
    return bool(_pin_hash(db, sid))


def _session_tokens(db: Database, sid: str) -> tuple[str, str]:
    hashes = cache.token_hashes(db, sid)
    if hashes is None:
        hashes = storage.session_token_hashes(db, sid)
        if hashes is None:
            raise NotFound("no_session", N_("there is no session {session}"),
                                         {"session": repr(sid)})
        cache.keep_token_hashes(db, sid, hashes)
    return hashes


def token_role(db: Database, sid: str, token: str | None) -> str | None:
    """``"table"``, ``"audit"`` or None for a bearer token of session ``sid``.
    Raises ``NotFound`` first, whatever the token."""
    table_hash, audit_hash = _session_tokens(db, sid)
    if not token:
        return None
    h = token_hash(token)
    if hmac.compare_digest(h, table_hash):
        return "table"
    if hmac.compare_digest(h, audit_hash):
        return "audit"
    return None


def authorize(db: Database, sid: str, token: str | None, *, write: bool) -> str:
    """The token's role, if it may read (or with ``write``, write) the session.
    Raises ``NotFound``, then ``Locked`` (no token, or not this session's),
    ``ReadOnly`` (the audit token, for a write)."""
    role = token_role(db, sid, token)
    if token is None:
        raise Locked("unauthorized", N_("this needs 'Authorization: Bearer <token>' with the "
                                        "session's table token") if write else
                     N_("this needs 'Authorization: Bearer <token>' with the session's table "
                        "token or audit token"))
    if role is None:
        raise Locked("unauthorized", N_("the token is not this session's"))
    if write and role != "table":
        raise ReadOnly("forbidden", N_("the audit token is read-only; writes need the table "
                                       "token"))
    return role
