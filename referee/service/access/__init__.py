"""Who may do what with a session: its PIN (the tablet) and its bearer tokens
(the API: the table token writes, the audit token reads)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from datetime import UTC, datetime

from ...rules.words import N_, Np_
from .. import storage
from ..errors import Locked, NotFound, ReadOnly, TooManyTries
from ..storage import Database, db_key

# Wrong tries at a table's PIN (or, for a table without one, its token on the
# unlock page): counted in the database, so a restart or a second server
# process does not start afresh; per table and address (an IPv6 address's
# /64, what one household holds), so the guesser is slowed and the table is
# not: after FREE_TRIES the address's wait doubles from FIRST_WAIT up to a
# day (a 4-digit PIN then takes one address years), while a tablet elsewhere
# comes in at once. Many addresses together meet the table's own count: after
# TABLE_FREE_TRIES, each try waits from TABLE_FIRST_WAIT doubling up to
# TABLE_LONGEST_WAIT for everyone, so a tablet with the PIN waits a minute at
# most, never a day (docs/decisions.md).
FREE_TRIES = 5
FIRST_WAIT = 60.0
LONGEST_WAIT = 86_400.0
TABLE_FREE_TRIES = 50
TABLE_FIRST_WAIT = 1.0
TABLE_LONGEST_WAIT = 60.0

# The waits, said as each language counts seconds (a wait can be 1 second).
WRONG_PINS = Np_("Too many wrong PINs for this table: try again at {when} (in {seconds} "
                 "second).",
                 "Too many wrong PINs for this table: try again at {when} (in {seconds} "
                 "seconds).", "seconds")
WRONG_TOKENS = Np_("Too many wrong tokens for this table: try again at {when} (in {seconds} "
                   "second).",
                   "Too many wrong tokens for this table: try again at {when} (in {seconds} "
                   "seconds).", "seconds")
WRONG_HOST_KEYS = Np_("Too many wrong host keys. Wait {seconds} second.",
                      "Too many wrong host keys. Wait {seconds} seconds.", "seconds")
TOO_MANY_TABLES = Np_("Too many new tables from this address: try again in {seconds} second.",
                      "Too many new tables from this address: try again in {seconds} seconds.",
                      "seconds")


def wait_after(tries: int) -> float:
    """The wait one address earns with ``tries`` tries since the last success."""
    if tries < FREE_TRIES:
        return 0.0
    return min(FIRST_WAIT * 2 ** min(tries - FREE_TRIES, 32), LONGEST_WAIT)


def table_wait_after(tries: int) -> float:
    """The wait a table earns with ``tries`` tries from every address since its
    last success."""
    if tries < TABLE_FREE_TRIES:
        return 0.0
    return min(TABLE_FIRST_WAIT * 2 ** min(tries - TABLE_FREE_TRIES, 32), TABLE_LONGEST_WAIT)


def network(address: str) -> str:
    """Whose tries ``address``'s are: itself, or its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address or "?"  # never empty: the kind of the tries' anchor
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def locks_digest(table_hash: str, audit_hash: str, pin_hash: str | None) -> str:
    """What a session's chain holds of its locks (its opening event's
    ``locks``): verify compares the stored columns with it."""
    return hashlib.sha256("\n".join((table_hash, audit_hash, pin_hash or "")).encode()
                          ).hexdigest()


def hash_pin(pin: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${salt.hex()}${digest.hex()}"


def _pin_hash(db: Database, sid: str) -> str | None:
    row = storage.sessions.row(db, sid)
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


def unlock(db: Database, sid: str, secret: str, *, address: str = "?",
           now: float | None = None) -> bool:
    """Whether ``secret`` unlocks the session: its PIN, or its table token when
    it has no PIN (a table imported through the API). Every try is counted,
    for ``address`` and for the table, in the write that answers it; raises
    ``TooManyTries`` while either waits. An unknown table is answered as a
    wrong PIN is, after as long (nothing to count: no row for a guessed id)."""
    try:
        has = has_pin(db, sid)
    except NotFound:
        hash_pin(secret)  # as long as a real table's check
        return False
    now = time.time() if now is None else now
    mine = f"unlock {network(address)}"
    attempts = storage.attempts

    def waiting(r: Database) -> float:
        return attempts.waiting(r, sid, mine, now) or attempts.waiting(r, sid, "unlock", now)

    # Checked before it is counted, and answered in the write that counts it
    # (``attempts.answer``): counted before its check, five right PINs typed
    # at once from one household made a wait, and the sixth was refused.
    until = waiting(db)
    if not until:
        ok = check_pin(db, sid, secret) if has else \
            token_role(db, sid, secret.strip()) == "table"
        until = storage.run_write(db, lambda w: waiting(w) or (
            attempts.answer(w, sid, mine, now, wait_after, ok) or
            attempts.answer(w, sid, "unlock", now, table_wait_after, ok)))
    if until:
        when = datetime.fromtimestamp(until, UTC).strftime("%H:%M:%S UTC")
        wait = max(1, int(until - now + 0.999))
        raise TooManyTries("too_many_tries", (WRONG_PINS if has else WRONG_TOKENS).pick(wait),
                           {"when": when, "seconds": wait}, until=until)
    return ok


# Tries at the host key are rows of ``attempts`` too, under this name in place
# of a session's id, one row per page and address: every app server counts them.
HOST_KEY = storage.attempts.HOST_KEY


def host_key(db: Database, key: str, sent: str, place: str, address: str, *,
             now: float | None = None) -> bool:
    """Whether ``sent`` is the host key ``key``, the try counted from
    ``address`` on ``place`` (a page, or the API: each request carries the
    key) before it is answered, as a PIN's is. Raises ``TooManyTries`` while
    the address waits, even with the right key, which would otherwise tell
    which try was right."""
    now = time.time() if now is None else now
    # Compared first (constant time, nothing to wait for), answered after
    # every try before it was counted (``attempts.answer``, in one write),
    # without the write lock where nothing is to be written (a right key
    # with no wrong try before it: ``attempts.answered``). A try counted
    # then cleared cost every API request two commits, each with its anchor.
    right = hmac.compare_digest(sent.encode(), key.encode())
    kind = f"{place} {address}"
    until = storage.attempts.answered(db, HOST_KEY, kind, now, right)
    if until is None:
        until = storage.run_write(db, lambda w: storage.attempts.answer(
            w, HOST_KEY, kind, now, wait_after, right))
    if until:
        wait = max(1, int(until - now + 0.999))
        raise TooManyTries("too_many_tries", WRONG_HOST_KEYS.pick(wait),
                           {"seconds": wait}, until=now + wait)
    return right


# Tables opened without a host key (anyone who reaches the service may open
# one): counted per address (its network, as a PIN's tries), ``OPENINGS`` in
# ``OPENINGS_WINDOW`` seconds, in the database as wrong tries are, so every
# app server counts them. Anyone could open hundreds of tables a second
# (issue 34). A club night's tables come in far under it; a flood gets this
# many, then waits. Every try is counted before the table is made, whether
# it opens or is refused: a flood of bad bodies costs its reading too.
OPENINGS = 30
OPENINGS_WINDOW = 600.0
TABLES_OPENED = storage.attempts.TABLES_OPENED


def opening(db: Database, address: str, *, most: int = OPENINGS,
            window: float = OPENINGS_WINDOW, now: float | None = None) -> None:
    """Count one table opened from ``address``; raises ``TooManyTries`` once
    its network has opened ``most`` within ``window`` seconds."""
    now = time.time() if now is None else now
    until = storage.run_write(db, lambda w: storage.attempts.claim_in_window(
        w, TABLES_OPENED, network(address), now, most, window))
    if until:
        wait = max(1, int(until - now + 0.999))
        raise TooManyTries("too_many_tables", TOO_MANY_TABLES.pick(wait),
                           {"seconds": wait}, until=until)


def has_pin(db: Database, sid: str) -> bool:
    """Whether the session has a PIN (a table imported through the API has none).
    Raises ``NotFound``."""
    return bool(_pin_hash(db, sid))


# A session's token hashes never change: kept here, so that checking a
# request's token costs no query (and no copy of the session's row). At most
# TOKENS_KEPT sessions' (four times the live tables a process keeps), then
# they are read afresh.
TOKENS_KEPT = 2048
_token_hashes: dict[tuple[str, str], tuple[str, str]] = {}
_guard = threading.Lock()


def _session_tokens(db: Database, sid: str) -> tuple[str, str]:
    key = (db_key(db), sid)
    hashes = _token_hashes.get(key)
    if hashes is None:
        hashes = storage.sessions.token_hashes(db, sid)
        if hashes is None:
            raise NotFound("no_session", N_("there is no session {session}"),
                                         {"session": repr(sid)})
        with _guard:
            if len(_token_hashes) >= TOKENS_KEPT:
                _token_hashes.clear()
            _token_hashes[key] = hashes
    return hashes


def forget_tokens(db: Database | None = None) -> None:
    """Drop the token hashes kept (all, or one database's), as the table's
    cache drops its state (``table.cache.forget``)."""
    with _guard:
        if db is None:
            _token_hashes.clear()
            return
        key = db_key(db)
        for k in [k for k in _token_hashes if k[0] == key]:
            del _token_hashes[k]


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
    Raises ``Locked`` (no token, or not this session's, or no such session:
    to whoever holds no token of it, an unknown id and a real one answer
    alike), ``ReadOnly`` (the audit token, for a write)."""
    try:
        role = token_role(db, sid, token)
    except NotFound:
        role = None
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
