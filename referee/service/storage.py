"""The service's storage: every SQL statement of the service, on SQLite
(sqlite-utils, the embedded default) or PostgreSQL (a ``postgresql://`` URL:
``referee.service.pg`` runs these same statements through psycopg).

Events are append-only: an action, a correction (undo), a hand's start. Each
event row carries a SHA-256 hash chained over the session's previous event,
so any edit or deletion of history shows up in ``verify_chain``. The
``hands`` rows hold derived data (live action count, the settled result) so
that reading a hand never needs a replay of the session.

Durability: WAL with ``synchronous=FULL`` makes a committed transaction
survive a power cut or a killed process; every write takes the lock up front
(``BEGIN IMMEDIATE``) so a transaction never fails half-way on a lock it
could not upgrade.

On PostgreSQL (several app processes, one database) the same guarantees hold
by the same means: a write transaction first takes one transaction-level
advisory lock (``WRITE_LOCK``), PostgreSQL's counterpart of ``BEGIN
IMMEDIATE``, so writers queue across processes, ids stay dense and a
session's newest event is re-read under the lock; triggers refuse updates
and deletions of events; the unique keys on (session, seq) and (session,
client_id) refuse a second winner; commits are durable
(``synchronous_commit`` on, the server's default). Statements are written
once, with ``?``; the few that differ are chosen by ``is_pg``.
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlite_utils import Database, Migrations

from ..record.chain import (
    CHAIN,
    GENESIS,
    canonical,
    event_hash,
    event_hash_v2,
    event_hashes_v2,
)
from ..rules.words import N_
from . import pg
from .errors import MalformedInput

BUSY_TIMEOUT_MS = 10_000
# PostgreSQL's write lock: one advisory lock (a key of the referee's own, in
# the database's advisory lock space) held by every write transaction.
WRITE_LOCK = 0x7265666572656531  # "referee1"

# A key or constraint refused a row, on either database (a racing retry of a
# client_id is noticed so).
INTEGRITY_ERRORS = (sqlite3.IntegrityError, pg.IntegrityError)

migrations = Migrations("referee")
# Every migration in order, for PostgreSQL (sqlite-utils' Migrations keeps
# SQLite's): the same functions, each writing its dialect's statements, and
# the applied ones tracked in MIGRATIONS_TABLE.
MIGRATIONS: list[Callable[[Any], None]] = []
MIGRATIONS_TABLE = "referee_migrations"


def migration(fn: Callable[[Any], None]) -> Callable[[Any], None]:
    MIGRATIONS.append(fn)
    return migrations()(fn)


def is_pg(db: Any) -> bool:
    return getattr(db, "dialect", None) == "postgresql"


_PG_APPEND_ONLY = (
    "CREATE OR REPLACE FUNCTION referee_append_only() RETURNS trigger LANGUAGE plpgsql "
    "AS $$ BEGIN RAISE EXCEPTION 'events are append-only'; END $$")


def _pg_append_only(db: Any, table: str) -> None:
    """PostgreSQL refuses edits, deletions and truncation of ``table``."""
    db.execute(_PG_APPEND_ONLY)
    for what, each in (("UPDATE", "ROW"), ("DELETE", "ROW"), ("TRUNCATE", "STATEMENT")):
        db.execute(f"CREATE TRIGGER {table}_no_{what.lower()} BEFORE {what} ON {table} "
                   f"FOR EACH {each} EXECUTE FUNCTION referee_append_only()")


@migration
def m001_initial(db: Database) -> None:
    if is_pg(db):
        return _m001_pg(db)
    db["sessions"].create(
        {
            "id": str,
            "created": str,
            "table_name": str,
            "started": str,
            "currency": str,
            "stake": str,
            "header": str,  # the log's header as given (without hands), JSON
            "rules_source": str,  # JSON, as given
            "rules_expanded": str,  # JSON, HouseRules.to_json()
            "players": str,  # JSON
            "everyone": str,  # JSON: everyone who has sat, in order of arrival
            "pin_hash": str,
            "table_token_hash": str,
            "audit_token_hash": str,
        },
        pk="id",
        not_null={"created", "stake", "header", "rules_source", "rules_expanded",
                  "players", "everyone", "table_token_hash", "audit_token_hash"},
        strict=True,
    )
    db["hands"].create(
        {
            "session_id": str,
            "n": int,
            "setup": str,  # JSON, the hand's setup as given (without actions)
            "actions_key": int,  # the given hand had an "actions" key (for export)
            "seats": str,  # JSON
            "dealer": str,
            "status": str,  # open | complete
            "seq": int,  # actions in force (corrections taken out)
            "last_event": int,  # id of the newest event of this hand: the cache's version
            "result": str,  # JSON, when complete
        },
        pk=("session_id", "n"),
        not_null={"setup", "seats", "dealer", "status", "seq", "last_event"},
        foreign_keys=[("session_id", "sessions", "id")],
        strict=True,
    )
    db["seats"].create(
        {"session_id": str, "hand": int, "position": int, "name": str},
        pk=("session_id", "hand", "position"),
        not_null={"name"},
        foreign_keys=[("session_id", "sessions", "id")],
        strict=True,
    )
    db["events"].create(
        {
            "id": int,
            "session_id": str,
            "hand": int,
            "seq": int,  # the session's event number, from 1
            "kind": str,  # referee.service.kinds.EventKind
            "payload": str,  # canonical JSON
            "client_id": str,
            "created": str,
            "prev_hash": str,
            "hash": str,
        },
        pk="id",
        not_null={"session_id", "seq", "kind", "payload", "created", "prev_hash", "hash"},
        foreign_keys=[("session_id", "sessions", "id")],
        strict=True,
    )
    db["events"].create_index(["session_id", "seq"], unique=True)
    db["events"].create_index(["session_id", "hand", "seq"])
    # The first answer to each client_id, so a retried request gets it again.
    db["replies"].create(
        {"session_id": str, "client_id": str, "status": int, "body": str},
        pk=("session_id", "client_id"),
        not_null={"status", "body"},
        strict=True,
    )
    # History is append-only: refuse edits and deletions at the database too.
    db.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
               "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    db.execute("CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
               "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")


def _m001_pg(db: Any) -> None:
    """m001's tables on PostgreSQL: the columns, keys and indexes sqlite-utils
    makes of m001 on SQLite, with PostgreSQL's types."""
    db.execute(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, created TEXT NOT NULL, table_name TEXT, "
        "started TEXT, currency TEXT, stake TEXT NOT NULL, header TEXT NOT NULL, "
        "rules_source TEXT NOT NULL, rules_expanded TEXT NOT NULL, players TEXT NOT NULL, "
        "everyone TEXT NOT NULL, pin_hash TEXT, table_token_hash TEXT NOT NULL, "
        "audit_token_hash TEXT NOT NULL)")
    db.execute(
        "CREATE TABLE hands (session_id TEXT REFERENCES sessions (id), n BIGINT, "
        "setup TEXT NOT NULL, actions_key BIGINT, seats TEXT NOT NULL, dealer TEXT NOT NULL, "
        "status TEXT NOT NULL, seq BIGINT NOT NULL, last_event BIGINT NOT NULL, result TEXT, "
        "PRIMARY KEY (session_id, n))")
    db.execute(
        "CREATE TABLE seats (session_id TEXT REFERENCES sessions (id), hand BIGINT, "
        "position BIGINT, name TEXT NOT NULL, PRIMARY KEY (session_id, hand, position))")
    db.execute(
        "CREATE TABLE events (id BIGINT PRIMARY KEY, "
        "session_id TEXT NOT NULL REFERENCES sessions (id), hand BIGINT, seq BIGINT NOT NULL, "
        "kind TEXT NOT NULL, payload TEXT NOT NULL, client_id TEXT, created TEXT NOT NULL, "
        "prev_hash TEXT NOT NULL, hash TEXT NOT NULL)")
    db.execute("CREATE UNIQUE INDEX idx_events_session_id_seq ON events (session_id, seq)")
    db.execute("CREATE INDEX idx_events_session_id_hand_seq ON events (session_id, hand, seq)")
    db.execute(
        "CREATE TABLE replies (session_id TEXT, client_id TEXT, status BIGINT NOT NULL, "
        "body TEXT NOT NULL, PRIMARY KEY (session_id, client_id))")
    _pg_append_only(db, "events")


@migration
def m002_replies_refused(db: Database) -> None:
    # A stored answer says whether it was a refusal, not the HTTP status it was
    # sent with: statuses are the web's business (referee/web/errors.py).
    db.execute("ALTER TABLE replies RENAME COLUMN status TO refused")
    db.execute("UPDATE replies SET refused = CASE WHEN refused <> 201 THEN 1 ELSE 0 END")


@migration
def m003_table_events(db: Database) -> None:
    # What the table's own events leave pending for the hands to come, and the
    # places every amount is written with (a hand's own stake may need more
    # than the session's stake: the replay's quantum, kept as it was imported).
    db.execute("ALTER TABLE sessions ADD COLUMN quantum TEXT")
    db.execute("ALTER TABLE sessions ADD COLUMN next_stake TEXT")
    db.execute("ALTER TABLE sessions ADD COLUMN next_seats TEXT")  # JSON


@migration
def m004_chain_v2(db: Database) -> None:
    # Chain format 2 hashes every column of an event that the service reads
    # (its id too: a correction points at an id) and links a session's first
    # event to the database's newest event before it. Existing events keep
    # format 1 and their hashes: re-hashing them now would vouch for whatever
    # the file holds today, which is exactly what a chain must not do.
    db.execute("ALTER TABLE events ADD COLUMN chain INTEGER NOT NULL DEFAULT 1")
    # Wrong PINs and tokens, per session and kind, whoever tries and from
    # whichever process: a limit kept in memory forgets on a restart.
    if is_pg(db):
        db.execute("CREATE TABLE attempts (session_id TEXT, kind TEXT, failures BIGINT NOT NULL, "
                   "last DOUBLE PRECISION NOT NULL, locked_until DOUBLE PRECISION NOT NULL, "
                   "PRIMARY KEY (session_id, kind))")
        return
    db["attempts"].create(
        {"session_id": str, "kind": str, "failures": int, "last": float,
         "locked_until": float},
        pk=("session_id", "kind"),
        not_null={"failures", "last", "locked_until"},
        strict=True,
    )


@migration
def m005_club(db: Database) -> None:
    # The club's own events (a spelling merged into a person, a nickname, an
    # undo of either) have a chain of their own, hashed like a session's: they
    # belong to no table, and a session's chain must not change with them.
    if is_pg(db):
        _m005_pg(db)
    else:
        _m005_sqlite(db)
    # Which session a table's brought-forward amounts came from (the club's
    # ledger leaves them out: they were counted there).
    db.execute("ALTER TABLE sessions ADD COLUMN brought_forward_from TEXT")


def _m005_pg(db: Any) -> None:
    db.execute(
        "CREATE TABLE club_events (id BIGINT PRIMARY KEY, chain BIGINT NOT NULL, "
        "session_id TEXT NOT NULL, hand BIGINT, seq BIGINT NOT NULL, kind TEXT NOT NULL, "
        "payload TEXT NOT NULL, client_id TEXT, created TEXT NOT NULL, "
        "prev_hash TEXT NOT NULL, hash TEXT NOT NULL)")
    db.execute("CREATE UNIQUE INDEX idx_club_events_seq ON club_events (seq)")
    _pg_append_only(db, "club_events")
    db.execute("CREATE TABLE aliases (spelling TEXT PRIMARY KEY, person TEXT NOT NULL)")
    db.execute("CREATE TABLE nicknames (person TEXT PRIMARY KEY, nickname TEXT NOT NULL)")


def _m005_sqlite(db: Database) -> None:
    db["club_events"].create(
        {"id": int, "chain": int, "session_id": str, "hand": int, "seq": int, "kind": str,
         "payload": str, "client_id": str, "created": str, "prev_hash": str, "hash": str},
        pk="id",
        not_null={"chain", "session_id", "seq", "kind", "payload", "created", "prev_hash",
                  "hash"},
        strict=True,
    )
    db["club_events"].create_index(["seq"], unique=True)
    db.execute("CREATE TRIGGER club_events_no_update BEFORE UPDATE ON club_events "
               "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    db.execute("CREATE TRIGGER club_events_no_delete BEFORE DELETE ON club_events "
               "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    # Derived from the club's events (verify folds them again): which person
    # each other spelling is, and the nicknames.
    db["aliases"].create({"spelling": str, "person": str}, pk="spelling",
                         not_null={"person"}, strict=True)
    db["nicknames"].create({"person": str, "nickname": str}, pk="person",
                           not_null={"nickname"}, strict=True)


@migration
def m006_running_totals(db: Database) -> None:
    # Each settled hand's running totals (referee.service.totals), written
    # with its result: the standings of a long session read one row for the
    # totals and a page of rows for the hands, where they summed every hand.
    from . import totals

    db.execute("ALTER TABLE hands ADD COLUMN running TEXT")
    # The settled hands alone, in order: counting them and skipping to a page
    # walks this small index, not 10,000 rows with their results.
    db.execute("CREATE INDEX hands_settled ON hands (session_id, n) WHERE running IS NOT NULL")
    # How many hands are settled, kept with them: counting 10,000 index
    # entries on every read cost a page 1-2 ms.
    db.execute("ALTER TABLE sessions ADD COLUMN settled INTEGER NOT NULL DEFAULT 0")
    for (sid,) in db.conn.execute("SELECT id FROM sessions").fetchall():
        set_running(db, sid, totals.chain(None, results_from(db, sid, 1)))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_seconds() -> str:
    """A time for the log (``started``, ``closed``, a payment's ``at``): UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


# One lock per database file: threads of one process queue here instead of
# in SQLite's busy handler, whose sleeps would add milliseconds to every wait.
_FILE_LOCKS: dict[str, threading.Lock] = {}
_FILE_LOCKS_GUARD = threading.Lock()


def db_key(db: Database) -> str:
    key = getattr(db, "_referee_key", None)
    if key is None:
        row = db.conn.execute("PRAGMA database_list").fetchone()
        key = row[2] or f"memory:{id(db)}"
        db._referee_key = key  # type: ignore[attr-defined]
    return key


def _file_lock(db: Database) -> threading.Lock:
    key = db_key(db)
    lock = _FILE_LOCKS.get(key)
    if lock is None:
        with _FILE_LOCKS_GUARD:
            lock = _FILE_LOCKS.setdefault(key, threading.Lock())
    return lock


def connect(path: str | Path) -> Database:
    """Open (and create or migrate) the database at ``path``: a file, or a
    PostgreSQL URL (``postgresql://...``)."""
    if pg.is_url(path):
        return _connect_pg(str(path))
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000,
                               isolation_level=None, check_same_thread=False)
        db = Database(conn, strict=True)
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        if _committers.get(db_key(db)) is not None:
            # This process checkpoints beside its writers (GroupCommitter): a
            # long import's commit copied its 40 MB into the file again.
            db.execute("PRAGMA wal_autocheckpoint = 0")
        if migrations.pending(db):
            with write(db):
                migrations.apply(db)
    except sqlite3.DatabaseError as err:
        # A file that is not a database (or a folder): the caller's input, not a
        # failure of ours. A busy or failing disk stays an OperationalError.
        if type(err) is not sqlite3.DatabaseError and "unable to open" not in str(err):
            raise
        raise MalformedInput("not_a_database",
                             N_("{path} is not a referee database ({error})"),
                             {"path": path, "error": err}) from None
    return db


def _connect_pg(url: str) -> Any:
    try:
        db = pg.PgDatabase(url)
    except pg.Unreachable as err:
        raise MalformedInput("no_database", N_("cannot reach the database at {url} ({why})"),
                             {"url": pg.safe_url(url), "why": str(err)}) from None
    if pending_migrations(db):
        with write(db):  # under the write lock: processes starting together migrate once
            done = _applied_pg(db)
            for fn in MIGRATIONS:
                if fn.__name__ not in done:
                    fn(db)
                    db.conn.execute(f"INSERT INTO {MIGRATIONS_TABLE} (name, applied) "
                                    "VALUES (?, ?)", (fn.__name__, now()))
    return db


def _applied_pg(db: Any) -> set[str]:
    db.conn.execute(f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} "
                    "(name TEXT PRIMARY KEY, applied TEXT NOT NULL)")
    return {r[0] for r in db.conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE}")}


def applied_migrations(db: Any) -> list[str]:
    """The names of the migrations applied to the database, in order."""
    if not is_pg(db):
        return [m.name for m in migrations.applied(db)]
    if db.conn.execute("SELECT to_regclass(?)", (MIGRATIONS_TABLE,)).fetchone()[0] is None:
        return []
    return [r[0] for r in db.conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE} "
                                          "ORDER BY applied, name")]


def pending_migrations(db: Any) -> list[str]:
    """The names of the migrations not yet applied, in order."""
    if not is_pg(db):
        return [m.name for m in migrations.pending(db)]
    done = set(applied_migrations(db))
    return [fn.__name__ for fn in MIGRATIONS if fn.__name__ not in done]


def table_names(db: Any) -> list[str]:
    if not is_pg(db):
        return db.table_names()
    return [r[0] for r in db.conn.execute(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema() ORDER BY table_name")]


def _begin_write(db: Any) -> None:
    """Start a transaction that holds the database's write lock."""
    if is_pg(db):
        db.conn.execute("BEGIN")
        db.conn.execute("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
    else:
        db.conn.execute("BEGIN IMMEDIATE")


@contextmanager
def write(db: Database) -> Iterator[Database]:
    """A write transaction that holds the database's write lock from its start."""
    with _file_lock(db):
        _begin_write(db)
        try:
            yield db
        except BaseException:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise
        db.conn.execute("COMMIT")
    committer = _committers.get(db_key(db))
    if committer is not None:
        committer.wrote.set()  # its checkpointing thread copies the pages in


class Moved(Exception):
    """The session has a newer event than the writer expected (another process
    wrote): the transaction's job gives up, to be worked out again."""


def append_event(db: Database, session_id: str, hand: int | None, kind: str, payload: Any,
                 client_id: str | None = None, *, table: str = "events",
                 after: int | None = None) -> dict:
    """Append one event to the session's chain (inside a ``write`` transaction).
    With ``after``, raise ``Moved`` unless the session's newest event has that id.
    ``table`` is only for the benchmark's floor, which times this same insert."""
    last = db.conn.execute(
        f"SELECT seq, hash, id FROM {table} WHERE session_id = ? ORDER BY seq DESC LIMIT 1",
        (session_id,),
    ).fetchone()
    if after is not None and (last is None or last[2] != after):
        raise Moved(session_id)
    # Ids are given here, one more than the newest (the write lock is held), so
    # that they are dense: a deleted event or session leaves a hole verify sees.
    newest = db.conn.execute(f"SELECT id, hash FROM {table} ORDER BY id DESC LIMIT 1"
                             ).fetchone()
    new_id = newest[0] + 1 if newest else 1
    if last:
        seq, prev = last[0] + 1, last[1]
    else:  # a session's first event hangs on the database's newest one
        seq, prev = 1, newest[1] if newest else GENESIS
    row = {
        "id": new_id,
        "chain": CHAIN,
        "session_id": session_id,
        "hand": hand,
        "seq": seq,
        "kind": kind,
        "payload": canonical(payload),
        "client_id": client_id,
        "created": now(),
        "prev_hash": prev,
    }
    row["hash"] = event_hash(prev, row)
    db.conn.execute(
        f"INSERT INTO {table} (id, chain, session_id, hand, seq, kind, payload, client_id, "
        "created, prev_hash, hash) VALUES (:id, :chain, :session_id, :hand, :seq, :kind, "
        ":payload, :client_id, :created, :prev_hash, :hash)",
        row,
    )
    return row


def append_events(db: Database, session_id: str,
                  events: list[tuple[int | None, str, Any]]) -> int:
    """Append a new session's events ``(hand, kind, payload)`` in one go
    (``payload``: data, or its canonical text already)
    (inside a ``write`` transaction): the rows ``append_event`` would write
    one by one, hashed the same way, inserted at once (``_insert_rows``). An
    import of 10,000 hands spent most of its time in the two selects and the
    insert that each event costs there. Returns the first event's id (the
    others follow it)."""
    if db.conn.execute("SELECT 1 FROM events WHERE session_id = ? LIMIT 1",
                       (session_id,)).fetchone():
        raise ValueError(f"session {session_id} has events already")
    newest = db.conn.execute("SELECT id, hash FROM events ORDER BY id DESC LIMIT 1"
                             ).fetchone()
    new_id, prev = (newest[0] + 1, newest[1]) if newest else (1, GENESIS)
    created = now()
    assert CHAIN == 2, "event_hashes_v2 writes format 2"
    short = [(new_id + i, hand, i + 1, kind,
              payload if isinstance(payload, str) else canonical(payload))
             for i, (hand, kind, payload) in enumerate(events)]
    hashes = event_hashes_v2(prev, session_id, created, short)
    prevs = [prev, *hashes[:-1]]
    _insert_rows(db, "events", ("id", "hand", "seq", "kind", "payload", "prev_hash", "hash"),
                 [(*row, before, after)
                  for row, before, after in zip(short, prevs, hashes, strict=True)],
                 shared={"chain": CHAIN, "session_id": session_id, "client_id": None,
                         "created": created})
    return new_id


def _insert_rows(db: Database, table: str, columns: tuple[str, ...], rows: list[tuple],
                 shared: dict[str, Any]) -> None:
    """A new session's many rows of ``table`` at once (an import): ``rows``
    give ``columns``, ``shared`` what every row holds alike. SQLite takes
    one ``executemany``, with the shared values written once in the
    statement (binding them for each of 143,000 events was a sixth of their
    insert); PostgreSQL one COPY (its ``executemany`` sends a statement a row:
    4 s for those events)."""
    if is_pg(db):
        alike = tuple(shared.values())
        db.conn.copy_rows(table, (*columns, *shared), (row + alike for row in rows))
        return
    values = ", ".join(["?"] * len(columns) + [_literal(v) for v in shared.values()])
    db.conn.executemany(
        f"INSERT INTO {table} ({', '.join((*columns, *shared))}) VALUES ({values})", rows)


def _literal(value: str | int | None) -> str:
    """``value`` as an SQL literal (both databases quote alike)."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(int(value))
    return "'" + value.replace("'", "''") + "'"


def hand_events(db: Database, session_id: str, n: int, *,
                refusals: bool = False) -> list[dict]:
    """The hand's actions and corrections in order (and the refused attempts,
    with ``refusals``: the audit shows them)."""
    if not _fits(n):
        return []
    kinds = ("action", "correction", "refusal") if refusals else ("action", "correction")
    rows = db.conn.execute(
        "SELECT id, seq, kind, payload FROM events WHERE session_id = ? AND hand = ? "
        f"AND kind IN ({', '.join('?' * len(kinds))}) ORDER BY seq",
        (session_id, n, *kinds),
    ).fetchall()
    return _rename_payloads(
        [{"id": r[0], "seq": r[1], "kind": r[2], "payload": json.loads(r[3])} for r in rows],
        renames(db, session_id))


def events_of_kinds(db: Database, session_id: str, kinds: tuple[str, ...]) -> list[dict]:
    """The session's events of ``kinds`` in order (the table's own events, for
    the papers: who accepted when, what was disputed)."""
    rows = db.conn.execute(
        "SELECT id, seq, hand, kind, payload, created FROM events WHERE session_id = ? "
        f"AND kind IN ({', '.join('?' * len(kinds))}) ORDER BY seq", (session_id, *kinds),
    ).fetchall()
    return [{"id": r[0], "seq": r[1], "hand": r[2], "kind": r[3], "payload": json.loads(r[4]),
             "created": r[5]} for r in rows]


def renames(db: Database, session_id: str) -> list[tuple[int, str, str]]:
    """The session's name corrections in order: (seq, old, new). Session-level
    events only (``hand`` null): a short walk of the index."""
    return [(seq, p["old"], p["new"]) for seq, p in (
        (r[0], json.loads(r[1])) for r in db.conn.execute(
            "SELECT seq, payload FROM events WHERE session_id = ? AND hand IS NULL AND "
            "kind = 'rename' ORDER BY seq", (session_id,)))]


def renamed_text(text: str, seq: int, names: list[tuple[int, str, str]]) -> str:
    """An action's text as the table now names its player: the payloads stay
    as they were chained; the corrections after the action apply to it."""
    for at, old, new in names:
        if at > seq and text.startswith(old + ":"):
            text = new + text[len(old):]
    return text


def _rename_payloads(events: list[dict], names: list[tuple[int, str, str]]) -> list[dict]:
    if not names:
        return events
    for ev in events:
        payload = ev["payload"]
        for key in ("action", "text"):
            if isinstance(payload.get(key), str):
                payload[key] = renamed_text(payload[key], ev["seq"], names)
    return events


def live_actions(events: list[dict]) -> list[dict]:
    """The hand's actions in force: every action not cancelled by a correction."""
    live: list[dict] = []
    for ev in events:
        if ev["kind"] == "action":
            live.append(ev)
        elif ev["kind"] == "correction":
            cancels = ev["payload"]["cancels"]
            live = [a for a in live if a["id"] != cancels]
    return live


def _fault(row: dict, why: str) -> dict:
    return {"id": row["id"], "seq": row["seq"], "kind": row["kind"], "hand": row["hand"],
            "reason": why}


def session_ids(db: Database) -> list[str]:
    return [r[0] for r in db.conn.execute("SELECT id FROM sessions ORDER BY created, id")]


def iter_chain_events(db: Database, sid: str) -> Iterator[dict]:
    """The session's events as stored, every column, in order, as the cursor
    reads them."""
    cur = db.conn.execute(
        "SELECT id, chain, session_id, hand, seq, kind, payload, client_id, created, "
        "prev_hash, hash FROM events WHERE session_id = ? ORDER BY seq", (sid,))
    keys = [d[0] for d in cur.description]
    for values in cur:
        yield dict(zip(keys, values, strict=True))


def chain_events(db: Database, sid: str) -> list[dict]:
    """The session's events as stored, every column, in order."""
    return list(iter_chain_events(db, sid))


def _hash_of(db: Database, event_id: int) -> str | None:
    row = db.conn.execute("SELECT hash FROM events WHERE id = ?", (event_id,)).fetchone()
    return row[0] if row else None


class NamedRow(tuple):
    """A row read by position or by column name, as ``sqlite3.Row`` is (on
    PostgreSQL, whose rows come as plain tuples)."""

    __slots__ = ()
    names: dict[str, int] = {}

    def __getitem__(self, key):
        return tuple.__getitem__(self, self.names[key] if isinstance(key, str) else key)

    def keys(self) -> list[str]:
        return list(self.names)


def _named_rows(db: Database, sql: str, params: tuple) -> list:
    """A statement's rows, each read by position or column name: SQLite's own
    ``sqlite3.Row`` (made in C: verify reads 140,000 at a time), else
    ``NamedRow``."""
    if is_pg(db):
        cur = db.conn.execute(sql, params)
        names = {d[0]: i for i, d in enumerate(cur.description)}
        row = type("Row", (NamedRow,), {"__slots__": (), "names": names})
        return [row(values) for values in cur.fetchall()]
    cur = db.conn.cursor()
    cur.row_factory = sqlite3.Row
    return cur.execute(sql, params).fetchall()


def session_events(db: Database, sid: str) -> list:
    """The session's events as stored, every column, in order, each read by
    column name or position (``_named_rows``)."""
    return _named_rows(
        db, "SELECT id, chain, session_id, hand, seq, kind, payload, client_id, created, "
        "prev_hash, hash FROM events WHERE session_id = ? ORDER BY seq", (sid,))


def db_file(db: Database) -> str | None:
    """The SQLite database's file, for a forked process to open on its own
    (None: in memory, or PostgreSQL, where verify does not fork)."""
    if is_pg(db):
        return None
    key = db_key(db)
    return None if key.startswith("memory:") else key


def verify_session_chain(db: Database, sid: str, head: str | None = None, *,
                         rows: list | None = None) -> dict | None:
    """The first fault of the session's chain (None: intact). With ``head``
    (a receipt), the chain must also still hold that hash. ``rows``: the
    session's events as ``session_events`` read them (verify reads them once
    for everything it checks), else they are read here."""
    prev = GENESIS
    expected_seq = 1
    prev_chain = 1
    first_new = db.conn.execute("SELECT min(id) FROM events WHERE chain >= ?",
                                (CHAIN,)).fetchone()[0]
    seen_head = head is None
    ids: dict[int, tuple[str, int | None]] = {}  # the actions (kind, hand): a correction's target
    previous_id = None
    if rows is None:
        rows = session_events(db, sid)
    for row in rows:
        ev_id, chain, _, hand, seq, kind, payload, client_id, created, prev_hash, hash_ = row
        why = None
        if seq != expected_seq:
            why = f"event {expected_seq} is missing (next is {seq})"
        elif expected_seq == 1 and chain < 2:
            if prev_hash != GENESIS:
                why = "its prev_hash does not match the previous event's hash"
        elif expected_seq == 1:
            # Format 2 links the first event to the event stored just before it.
            before = _hash_of(db, ev_id - 1) if ev_id > 1 else GENESIS
            if before is None:
                why = f"event id {ev_id - 1}, stored before this session, is missing"
            elif prev_hash != before:
                why = "its prev_hash does not match the event stored before it"
        elif expected_seq > 1 and prev_hash != prev:
            why = "its prev_hash does not match the previous event's hash"
        if why is None and chain < prev_chain:
            why = "it is hashed with an older chain format than the event before it"
        if why is None and chain < CHAIN and first_new is not None and ev_id > first_new:
            # Format 1 ended at the migration: an older event after a newer
            # one is a downgrade, which would drop the ids and rules from the hash.
            why = "it is hashed with an older chain format than events stored before it"
        if why is None and (event_hash_v2(prev_hash, ev_id, sid, hand, seq, kind, payload,
                                          client_id, created) if chain == 2
                            else event_hash(prev_hash, dict(row))) != hash_:
            why = "its hash does not match its contents"
        if why is None and kind == "correction":
            target = ids.get(json.loads(payload).get("cancels"))
            if target is None or target[0] != "action" or target[1] != hand:
                why = "it cancels an event that is not an earlier action of its hand"
        # Most events follow their session's previous one directly: only a
        # gap in the session's ids (another session wrote between) costs a select.
        if why is None and chain >= 2 and ev_id > 1 \
                and previous_id != ev_id - 1 and _hash_of(db, ev_id - 1) is None:
            why = f"event id {ev_id - 1} is missing"
        if why:
            return _fault(dict(row), why)
        if kind == "action":
            ids[ev_id] = (kind, hand)
        prev, prev_chain, previous_id = hash_, chain, ev_id
        expected_seq += 1
        seen_head = seen_head or hash_ == head
    if expected_seq == 1:
        return {"id": None, "seq": 1, "kind": None, "hand": None,
                "reason": "the session has no events"}
    if not seen_head:
        return {"id": None, "seq": None, "kind": None, "hand": None,
                "reason": f"the receipt's head {head} is not in the chain: events were "
                          "deleted or the chain was written again"}
    return None


def verify_chain(db: Database) -> dict[str, dict | None]:
    """For each session, the first event whose hash does not match (None: intact)."""
    return {sid: verify_session_chain(db, sid) for sid in session_ids(db)}


def orphan_sessions(db: Database) -> list[str]:
    return [r[0] for r in db.conn.execute(
        "SELECT DISTINCT session_id FROM events WHERE session_id NOT IN "
        "(SELECT id FROM sessions) ORDER BY session_id")]


def all_hand_rows(db: Database, sid: str) -> list[dict]:
    """Every hand's row, its JSON columns read."""
    cur = db.conn.execute("SELECT * FROM hands WHERE session_id = ? ORDER BY n", (sid,))
    keys = [d[0] for d in cur.description]
    return [_hand(dict(zip(keys, values, strict=True))) for values in cur.fetchall()]


def hand_rows_as_stored(db: Database, sid: str) -> list:
    """Every hand's row, its JSON columns as the text stored (verify compares
    most of them as text, and decodes only what differs), each read by column
    name (``_named_rows``)."""
    return _named_rows(db, "SELECT n, setup, actions_key, seats, dealer, seq, last_event, "
                       "result, running FROM hands WHERE session_id = ? ORDER BY n", (sid,))


def seat_rows(db: Database, sid: str) -> dict[int, list[str]]:
    seats: dict[int, list[str]] = {}
    for hand, name in db.conn.execute("SELECT hand, name FROM seats WHERE session_id = ? "
                                      "ORDER BY hand, position", (sid,)):
        seats.setdefault(hand, []).append(name)
    return seats


class GroupCommitter:
    """One writer thread that runs the queued write jobs of many requests in one
    transaction, each in its own savepoint, and acknowledges them all after a
    single durable COMMIT. With ``synchronous=FULL`` a commit costs an fsync;
    sharing it is what lets many tablets log faster than the disk syncs, and
    no job is acknowledged before its commit.

    The writer does not checkpoint the WAL itself (SQLite's automatic
    checkpoint would copy a thousand pages into the database file, and sync
    it, inside some unlucky request's commit): a second thread, on its own
    connection, runs a passive checkpoint a moment after writes, beside the
    writer, every ``CHECKPOINT_EVERY`` commits (a hundred pages or so each
    time, so that no checkpoint is long). Durability does not depend on it: a
    commit is synced into the WAL."""

    MAX_BATCH = 64
    CHECKPOINT_EVERY = 20  # commits

    def __init__(self, path: str | Path) -> None:
        self.db = connect(path)
        self.wrote = threading.Event()
        self.commits = 0
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="referee-commit", daemon=True)
        self.thread.start()
        if is_pg(self.db):
            return  # PostgreSQL checkpoints in its own processes
        self.db.execute("PRAGMA wal_autocheckpoint = 0")
        self.checkpoint_db = connect(path)
        self.checkpoint_db.execute("PRAGMA wal_autocheckpoint = 0")
        self.checkpointer = threading.Thread(target=self._checkpoints,
                                             name="referee-checkpoint", daemon=True)
        self.checkpointer.start()

    def _checkpoints(self) -> None:
        while True:
            self.wrote.wait()
            self.wrote.clear()
            try:
                self.checkpoint_db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                pass  # busy or failing: the next round tries again

    def submit(self, job: Callable[[Database], Any]) -> Any:
        future: Future = Future()
        self.queue.put((job, future))
        return future.result()

    def stop(self) -> None:
        """End the writer thread once the jobs queued before are done."""
        self.queue.put(None)

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < self.MAX_BATCH:
                try:
                    job = self.queue.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    self._commit(batch)
                    return
                batch.append(job)
            self._commit(batch)

    def _commit(self, batch: list) -> None:
        conn = self.db.conn
        outcomes: list[tuple[bool, Any]] = []
        try:
            with _file_lock(self.db):
                _begin_write(self.db)
                try:
                    for job, _ in batch:
                        conn.execute("SAVEPOINT job")
                        try:
                            outcomes.append((True, job(self.db)))
                        except Exception as err:
                            conn.execute("ROLLBACK TO job")
                            outcomes.append((False, err))
                        conn.execute("RELEASE job")
                    conn.execute("COMMIT")
                    self.commits += 1
                    if self.commits >= self.CHECKPOINT_EVERY and not is_pg(self.db):
                        self.commits = 0
                        self.wrote.set()
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
        except Exception as err:
            for _, future in batch:
                future.set_exception(err)
            return
        for (ok, value), (_, future) in zip(outcomes, batch, strict=True):
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)


_committers: dict[str, GroupCommitter] = {}


def enable_group_commit(path: str | Path) -> GroupCommitter:
    """Send this process's writes to ``path`` through one group-committing writer."""
    probe = connect(path)
    key = db_key(probe)
    probe.close()
    with _FILE_LOCKS_GUARD:
        committer = _committers.get(key)
        if committer is None:
            committer = _committers[key] = GroupCommitter(path)
    return committer


def forget_group_commit(path: str | Path) -> None:
    """Stop this process's group-committing writer for ``path`` (a file or a
    URL), if it has one (the tests' throwaway databases)."""
    key = pg.safe_url(str(path)) if pg.is_url(path) else str(Path(path).resolve())
    with _FILE_LOCKS_GUARD:
        committer = _committers.pop(key, None)
    if committer is not None:
        committer.stop()


def run_write(db: Database, job: Callable[[Database], Any]) -> Any:
    """Run ``job(db)`` in a write transaction and return its result once committed."""
    committer = _committers.get(db_key(db))
    if committer is not None:
        return committer.submit(job)
    with write(db):
        return job(db)


# ---------------------------------------------------------------- the service's rows
# JSON columns go in and come out as data; the service never sees SQL or JSON text.

def to_json(data: Any) -> str:
    """A row's JSON column, as every JSON column is written (also made by
    callers outside the write, so that the writer thread only inserts).
    orjson: a 10,000-hand import encodes 40,000 columns (its results, running
    rows, seats and setups), which took ``json.dumps`` 0.5-0.7 s and orjson
    a tenth of that; verify compares the stored text with this again. What
    orjson refuses (an integer past 64 bits, a lone surrogate) is written
    by ``json.dumps``, which reads back the same."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data)


def _row(cur: Any) -> dict | None:
    values = cur.fetchone()
    if values is None:
        return None
    return dict(zip([d[0] for d in cur.description], values, strict=True))


_SESSION_JSON = ("header", "rules_source", "rules_expanded", "players", "everyone")


def _an_id(text: str) -> bool:
    """Text that may be a stored id: a URL's may hold a NUL, which no id has
    (PostgreSQL refuses it outright, where the session is simply not found)."""
    return "\x00" not in text


def session_row(db: Database, sid: str) -> dict | None:
    """The session's row, its JSON columns read."""
    if not _an_id(sid):
        return None
    row = _row(db.conn.execute("SELECT * FROM sessions WHERE id = ?", (sid,)))
    if row is not None:
        for key in _SESSION_JSON:
            row[key] = json.loads(row[key])
        row["next_seats"] = json.loads(row["next_seats"]) if row["next_seats"] else None
    return row


def set_header(db: Database, sid: str, header: dict) -> None:
    """The session's header after a table event (closed, payments, ...)."""
    db.conn.execute("UPDATE sessions SET header = ? WHERE id = ?", (to_json(header), sid))


def set_quantum(db: Database, sid: str, quantum: str) -> None:
    db.conn.execute("UPDATE sessions SET quantum = ? WHERE id = ?", (quantum, sid))


def set_next(db: Database, sid: str, *, stake: str | None, seats: list[str] | None) -> None:
    """What the next hand takes from the table's events: its stake (None: the
    session's) and its seats (None: the last hand's)."""
    db.conn.execute("UPDATE sessions SET next_stake = ?, next_seats = ? WHERE id = ?",
                    (stake, to_json(seats) if seats is not None else None, sid))


def set_hand(db: Database, sid: str, n: int, setup: dict, last_event: int,
             result: dict | None = None, *, void: bool = False) -> None:
    """A hand's setup after an event about it (void, accepted, disputes); a
    void hand gets its void result."""
    if void:
        db.conn.execute("UPDATE hands SET setup = ?, last_event = ?, status = 'void', "
                        "result = ? WHERE session_id = ? AND n = ?",
                        (to_json(setup), last_event, to_json(result), sid, n))
    else:
        newer = "GREATEST" if is_pg(db) else "MAX"
        db.conn.execute(f"UPDATE hands SET setup = ?, last_event = {newer}(last_event, ?) "
                        "WHERE session_id = ? AND n = ?", (to_json(setup), last_event, sid, n))


def session_token_hashes(db: Database, sid: str) -> tuple[str, str] | None:
    if not _an_id(sid):
        return None
    row = db.conn.execute("SELECT table_token_hash, audit_token_hash FROM sessions "
                          "WHERE id = ?", (sid,)).fetchone()
    return (row[0], row[1]) if row else None


def insert_session(db: Database, sid: str, log: dict, header: dict, rules_expanded: dict,
                   everyone: list[str], pin_hash: str | None, table_token_hash: str,
                   audit_token_hash: str) -> None:
    db.conn.execute(
        "INSERT INTO sessions (id, created, table_name, started, currency, stake, header, "
        "rules_source, rules_expanded, players, everyone, pin_hash, table_token_hash, "
        "audit_token_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (sid, now(), log.get("table"), log.get("started"), log.get("currency"),
         str(log["stake"]), to_json(header), to_json(log["rules"]),
         to_json(rules_expanded), to_json(log["players"]), to_json(everyone),
         pin_hash, table_token_hash, audit_token_hash),
    )
    db.conn.executemany(
        "INSERT INTO seats (session_id, hand, position, name) VALUES (?, 0, ?, ?)",
        [(sid, i, name) for i, name in enumerate(log["players"])])


def set_everyone(db: Database, sid: str, everyone: list[str]) -> None:
    db.conn.execute("UPDATE sessions SET everyone = ? WHERE id = ?",
                    (to_json(everyone), sid))


def list_sessions(db: Database) -> list[dict]:
    return [
        {"id": r[0], "created": r[1], "table": r[2], "players": json.loads(r[3])}
        for r in db.conn.execute("SELECT id, created, table_name, players FROM sessions "
                                 "ORDER BY created DESC")
    ]


def insert_hand(db: Database, sid: str, n: int, setup: dict, actions_key: bool,
                seats: list[str], dealer: str, seq: int, last_event: int,
                result: dict | None) -> None:
    db.conn.execute(
        "INSERT INTO hands (session_id, n, setup, actions_key, seats, dealer, status, seq, "
        "last_event, result) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (sid, n, to_json(setup), int(actions_key), to_json(seats), dealer,
         _status(result), seq, last_event,
         to_json(result) if result else None),
    )
    db.conn.executemany(
        "INSERT INTO seats (session_id, hand, position, name) VALUES (?, ?, ?, ?)",
        [(sid, n, i, name) for i, name in enumerate(seats)])


def encode_hands(hands: list[tuple]) -> list[tuple]:
    """Many hands' rows (an import), encoded as ``insert_hands`` writes them:
    each ``insert_hand``'s arguments after ``sid``, with ``last_event``
    counted from the session's first event, and the hand's running row, as a
    tuple. Encoding needs no database: a long import's second process does
    it while this one writes the events."""
    return [(n, to_json(setup), int(actions_key), to_json(seats), dealer, _status(result), seq,
             last_event, to_json(result) if result else None,
             to_json(running) if running is not None else None, tuple(seats))
            for n, setup, actions_key, seats, dealer, seq, last_event, result, running in hands]


def insert_hands(db: Database, sid: str, rows: list[tuple], first_event: int) -> None:
    """The ``encode_hands`` rows of a new session whose first event has the id
    ``first_event``, its hands' seats, and its count of settled hands."""
    _insert_rows(db, "hands", ("n", "setup", "actions_key", "seats", "dealer", "status", "seq",
                               "last_event", "result", "running"),
                 [(n, setup, actions_key, seats, dealer, status, seq, first_event + last_event,
                   result, running)
                  for n, setup, actions_key, seats, dealer, status, seq, last_event, result,
                  running, _ in rows],
                 shared={"session_id": sid})
    _insert_rows(db, "seats", ("hand", "position", "name"),
                 [(row[0], i, name) for row in rows for i, name in enumerate(row[10])],
                 shared={"session_id": sid})
    db.conn.execute("UPDATE sessions SET settled = settled + ? WHERE id = ?",
                    (sum(row[9] is not None for row in rows), sid))


def running_before(db: Database, sid: str, n: int) -> dict | None:
    """The running row of the newest settled hand before hand ``n``."""
    row = db.conn.execute("SELECT running FROM hands WHERE session_id = ? AND n < ? AND "
                          "running IS NOT NULL ORDER BY n DESC LIMIT 1", (sid, n)).fetchone()
    return json.loads(row[0]) if row else None


def results_from(db: Database, sid: str, n: int) -> list[tuple[int, dict | None]]:
    """Each hand's stored result from hand ``n`` on (None: not settled)."""
    return [(k, json.loads(r) if r else None) for k, r in db.conn.execute(
        "SELECT n, result FROM hands WHERE session_id = ? AND n >= ? ORDER BY n", (sid, n))]


def set_running(db: Database, sid: str, rows: list[tuple[int, dict | None]]) -> None:
    """The running rows of hands ``n`` (None: not settled), and the session's
    count of settled hands moved by as many as became or stopped being settled."""
    if not rows:
        return
    was = db.conn.execute("SELECT count(*) FROM hands WHERE session_id = ? AND n >= ? AND "
                          "running IS NOT NULL", (sid, min(n for n, _ in rows))).fetchone()[0]
    db.conn.executemany("UPDATE hands SET running = ? WHERE session_id = ? AND n = ?",
                        [(to_json(r) if r is not None else None, sid, n) for n, r in rows])
    now_settled = sum(r is not None for _, r in rows)
    db.conn.execute("UPDATE sessions SET settled = settled + ? WHERE id = ?",
                    (now_settled - was, sid))


def refresh_running(db: Database, sid: str, n: int) -> None:
    """Write the running rows again from hand ``n`` on (inside the write that
    changed hand ``n``'s result)."""
    from . import totals

    set_running(db, sid, totals.chain(running_before(db, sid, n), results_from(db, sid, n)))


def settled_count(db: Database, sid: str) -> int:
    row = db.conn.execute("SELECT settled FROM sessions WHERE id = ?", (sid,)).fetchone()
    return row[0] if row else 0


def counted_settled(db: Database, sid: str) -> int:
    """The settled hands counted again (verify holds ``settled_count`` to it)."""
    return db.conn.execute("SELECT count(*) FROM hands WHERE session_id = ? AND "
                           "running IS NOT NULL", (sid,)).fetchone()[0]


def running_rows(db: Database, sid: str, *, offset: int = 0,
                 limit: int = -1) -> list[tuple[int, dict]]:
    """The settled hands' running rows in order of hands, ``limit`` of them
    (-1: all) after the first ``offset``."""
    settled = settled_count(db, sid)
    end = settled if limit < 0 else min(settled, offset + limit)
    if end <= offset:
        return []
    # Counted from the newest end of the settled hands' index: the pages read
    # most are the newest, which this reaches without stepping over the rest.
    rows = db.conn.execute(
        "SELECT n, running FROM hands WHERE session_id = ? AND running IS NOT NULL "
        "ORDER BY n DESC LIMIT ? OFFSET ?", (sid, end - offset, settled - end)).fetchall()
    return [(n, json.loads(r)) for n, r in reversed(rows)]


def running_between(db: Database, sid: str, first: int, last: int) -> list[tuple[int, dict]]:
    """The running rows of the settled hands numbered ``first`` to ``last``."""
    return [(n, json.loads(r)) for n, r in db.conn.execute(
        "SELECT n, running FROM hands WHERE session_id = ? AND n BETWEEN ? AND ? AND "
        "running IS NOT NULL ORDER BY n", (sid, first, last))]


def newest_running(db: Database, sid: str) -> dict | None:
    """The running row of the session's newest settled hand: its totals."""
    row = db.conn.execute("SELECT running FROM hands WHERE session_id = ? AND running IS NOT "
                          "NULL ORDER BY n DESC LIMIT 1", (sid,)).fetchone()
    return json.loads(row[0]) if row else None


# ---------------------------------------------------------------- the result's text
# What ``sessions.result_text`` needs to keep a session's result document up
# to date without reading every hand again: the session's newest event, and
# what the events after a known one touched.

def newest_seq(db: Database, sid: str) -> int:
    """The number of the session's newest event (0: none): every change to
    what its result says is an event, so this says whether it changed."""
    row = db.conn.execute("SELECT seq FROM events WHERE session_id = ? ORDER BY seq DESC "
                          "LIMIT 1", (sid,)).fetchone()
    return row[0] if row else 0


def touched_since(db: Database, sid: str, seq: int) -> tuple[int | None, bool]:
    """What the session's events after event ``seq`` touched: the lowest hand
    number among them (None: none was about a hand), and whether one of them
    corrected a name (which rewrites every hand)."""
    row = db.conn.execute(
        "SELECT min(hand), max(CASE WHEN kind = 'rename' THEN 1 ELSE 0 END) FROM events "
        "WHERE session_id = ? AND seq > ?", (sid, seq)).fetchone()
    return row[0], bool(row[1])


def _status(result: dict | None) -> str:
    if not result:
        return "open"
    return "void" if result.get("outcome") == "void" else "complete"


def update_hand(db: Database, sid: str, n: int, seq: int, last_event: int,
                result_json: str | None) -> None:
    """A hand's derived row after an action or a correction (``result_json``:
    its result when complete)."""
    db.conn.execute(
        "UPDATE hands SET seq = ?, last_event = ?, status = ?, result = ? "
        "WHERE session_id = ? AND n = ?",
        (seq, last_event, "complete" if result_json else "open", result_json, sid, n))


def touch_hand(db: Database, sid: str, n: int, last_event: int) -> None:
    """The hand's newest event moved on without changing it (a refusal)."""
    db.conn.execute("UPDATE hands SET last_event = ? WHERE session_id = ? AND n = ?",
                    (last_event, sid, n))


def _hand(row: dict | None) -> dict | None:
    if row is None:
        return None
    for key in ("setup", "seats", "result", "running"):
        if row.get(key) is not None:
            row[key] = json.loads(row[key])
    return row


def _fits(n: int) -> bool:
    """A number the database can hold (SQLite's INTEGER, PostgreSQL's BIGINT):
    a hand number from a URL may be any size, and none beyond this is stored."""
    return -(2**63) <= n < 2**63


def hand_row(db: Database, sid: str, n: int) -> dict | None:
    """Hand ``n``'s row, its JSON columns read."""
    if not _fits(n):
        return None
    return _hand(_row(db.conn.execute("SELECT * FROM hands WHERE session_id = ? AND n = ?",
                                      (sid, n))))


def newest_hands(db: Database, sid: str, count: int) -> list[dict]:
    """The session's ``count`` newest hands, newest first (seating and setup)."""
    cur = db.conn.execute("SELECT n, setup, seats, dealer, last_event FROM hands "
                          "WHERE session_id = ? ORDER BY n DESC LIMIT ?", (sid, count))
    keys = [d[0] for d in cur.description]
    return [_hand(dict(zip(keys, values, strict=True))) for values in cur.fetchall()]


def current_version(db: Database, sid: str) -> tuple[int, int]:
    """(newest hand, id of its newest event): what the live cache is checked against."""
    row = db.conn.execute("SELECT n, last_event FROM hands WHERE session_id = ? "
                          "ORDER BY n DESC LIMIT 1", (sid,)).fetchone()
    return (row[0], row[1]) if row else (0, 0)


def hand_setups(db: Database, sid: str) -> list[tuple[int, dict, bool]]:
    """Each hand's (number, setup as given, whether it had an ``actions`` key)."""
    return [(n, json.loads(setup), bool(actions_key)) for n, setup, actions_key in
            db.conn.execute("SELECT n, setup, actions_key FROM hands WHERE session_id = ? "
                            "ORDER BY n", (sid,))]


def session_actions(db: Database, sid: str) -> dict[int, list[dict]]:
    """Every hand's actions and corrections, in order, by hand."""
    events: dict[int, list[dict]] = {}
    names = renames(db, sid)
    for ev_id, seq, hand, kind, payload in db.conn.execute(
            "SELECT id, seq, hand, kind, payload FROM events WHERE session_id = ? AND kind IN "
            "('action', 'correction') ORDER BY seq", (sid,)):
        events.setdefault(hand, []).append({"id": ev_id, "seq": seq, "kind": kind,
                                            "payload": json.loads(payload)})
    if names:
        for evs in events.values():
            _rename_payloads(evs, names)
    return events


# Keys whose values are never a player's name (a name may be any text).
_NOT_NAMES = frozenset(("kind", "note", "reason", "outcome", "stakes", "amount", "at",
                        "action", "stake", "upcard", "format", "rules", "table", "currency",
                        "started", "closed", "language", "story", "multiplier"))


def renamed(data: Any, old: str, new: str) -> Any:
    """``data`` with the name ``old`` written ``new`` (a corrected name)."""
    if isinstance(data, str):
        return new if data == old else data
    if isinstance(data, list):
        return [renamed(v, old, new) for v in data]
    if isinstance(data, dict):
        return {(new if k == old else k): (v if k in _NOT_NAMES else renamed(v, old, new))
                for k, v in data.items()}
    return data


def rename_player(db: Database, sid: str, old: str, new: str) -> None:
    """Write a corrected name into the session's derived rows: the header, the
    seats, every hand's setup and result (the events keep the old one)."""
    import re

    word = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")
    row = db.conn.execute("SELECT header, players, everyone, next_seats FROM sessions "
                          "WHERE id = ?", (sid,)).fetchone()
    values = [to_json(renamed(json.loads(v), old, new)) if v else v for v in row]
    db.conn.execute("UPDATE sessions SET header = ?, players = ?, everyone = ?, "
                    "next_seats = ? WHERE id = ?", (*values, sid))
    for n, setup, seats, dealer, result in db.conn.execute(
            "SELECT n, setup, seats, dealer, result FROM hands WHERE session_id = ?",
            (sid,)).fetchall():
        r = json.loads(result) if result else None
        if r is not None:
            story = [word.sub(new, line) for line in r.get("story", ())]
            r = renamed(r, old, new)
            r["story"] = story
        db.conn.execute(
            "UPDATE hands SET setup = ?, seats = ?, dealer = ?, result = ? "
            "WHERE session_id = ? AND n = ?",
            (to_json(renamed(json.loads(setup), old, new)),
             to_json(renamed(json.loads(seats), old, new)), new if dealer == old else dealer,
             to_json(r) if r is not None else None, sid, n))
    db.conn.execute("UPDATE seats SET name = ? WHERE session_id = ? AND name = ?",
                    (new, sid, old))


def complete_results(db: Database, sid: str) -> list[dict]:
    """The stored results of the session's complete and void hands, in order."""
    return [json.loads(r[0]) for r in db.conn.execute(
        "SELECT result FROM hands WHERE session_id = ? AND status IN ('complete', 'void') "
        "ORDER BY n",
        (sid,))]


def final_hash(db: Database, sid: str) -> str | None:
    """The hash of the session's newest event: the end of its chain."""
    row = db.conn.execute("SELECT hash FROM events WHERE session_id = ? ORDER BY seq DESC "
                          "LIMIT 1", (sid,)).fetchone()
    return row[0] if row else None


def claim_attempt(db: Database, sid: str, kind: str, now: float,
                  wait_after: Callable[[int], float]) -> float:
    """Count one try at a session's secret before it is checked (so parallel
    tries from many processes are all counted); 0 if it may go ahead, else the
    time (epoch seconds) until which the session refuses tries.
    ``wait_after(failures)``: the wait that many tries earn."""
    row = db.conn.execute("SELECT failures, locked_until FROM attempts WHERE session_id = ? "
                          "AND kind = ?", (sid, kind)).fetchone()
    failures, until = row if row else (0, 0.0)
    if until > now:
        return until
    failures += 1
    db.conn.execute(
        "INSERT INTO attempts (session_id, kind, failures, last, locked_until) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, kind) DO UPDATE SET "
        "failures = excluded.failures, last = excluded.last, "
        "locked_until = excluded.locked_until",
        (sid, kind, failures, now, now + wait_after(failures)))
    return 0.0


def clear_attempts(db: Database, sid: str, kind: str) -> None:
    db.conn.execute("DELETE FROM attempts WHERE session_id = ? AND kind = ?", (sid, kind))


def reply(db: Database, sid: str, client_id: str) -> tuple[bool, dict] | None:
    """The first answer to ``client_id``: (refused, body)."""
    row = db.conn.execute("SELECT refused, body FROM replies WHERE session_id = ? AND "
                          "client_id = ?", (sid, client_id)).fetchone()
    return None if row is None else (bool(row[0]), json.loads(row[1]))


def store_reply(db: Database, sid: str, client_id: str, refused: bool, body_json: str) -> None:
    """Keep the first answer to ``client_id``; a second one breaks the key
    (one of ``INTEGRITY_ERRORS``), which is how a racing retry is noticed."""
    db.conn.execute("INSERT INTO replies (session_id, client_id, refused, body) "
                    "VALUES (?, ?, ?, ?)", (sid, client_id, int(refused), body_json))


# ---------------------------------------------------------------- the club

CLUB = "club"  # the session_id column of the club's events


def append_club_event(db: Database, kind: str, payload: Any) -> dict:
    return append_event(db, CLUB, None, kind, payload, table="club_events")


def club_events(db: Database) -> list[dict]:
    """The club's events as stored, every column, in order."""
    cur = db.conn.execute(
        "SELECT id, chain, session_id, hand, seq, kind, payload, client_id, created, "
        "prev_hash, hash FROM club_events ORDER BY seq")
    keys = [d[0] for d in cur.description]
    return [dict(zip(keys, values, strict=True)) for values in cur]


def verify_club_chain(db: Database) -> str | None:
    """The first fault of the club's chain (None: intact or empty)."""
    prev, expected = GENESIS, 1
    for row in club_events(db):
        if row["seq"] != expected or row["id"] != expected:
            return f"club event {expected} is missing"
        if row["prev_hash"] != prev or event_hash(prev, row) != row["hash"]:
            return f"club event {expected}: its hash does not match its contents"
        prev, expected = row["hash"], expected + 1
    return None


def aliases(db: Database) -> dict[str, str]:
    return dict(db.conn.execute("SELECT spelling, person FROM aliases ORDER BY spelling"))


def nicknames(db: Database) -> dict[str, str]:
    return dict(db.conn.execute("SELECT person, nickname FROM nicknames ORDER BY person"))


def set_people(db: Database, spellings: dict[str, str], nicks: dict[str, str]) -> None:
    """Write the people rows as the club's events now say (a handful of rows:
    rewritten whole after each event)."""
    db.conn.execute("DELETE FROM aliases")
    db.conn.execute("DELETE FROM nicknames")
    db.conn.executemany("INSERT INTO aliases (spelling, person) VALUES (?, ?)",
                        sorted(spellings.items()))
    db.conn.executemany("INSERT INTO nicknames (person, nickname) VALUES (?, ?)",
                        sorted(nicks.items()))


def set_brought_forward_from(db: Database, sid: str, earlier: str) -> None:
    db.conn.execute("UPDATE sessions SET brought_forward_from = ? WHERE id = ?",
                    (earlier, sid))


def club_session_rows(db: Database) -> list[dict]:
    """Every session's row (JSON read), oldest first."""
    return [session_row(db, sid) for sid in session_ids(db)]
