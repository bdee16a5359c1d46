"""The database's tables, on SQLite and on PostgreSQL: every migration in
order, written once for both (the few statements that differ chosen by
``is_pg``), applied by ``engine.connect`` under the write lock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlite_utils
from sqlite_utils import Migrations

from . import anchors, attempts, hands, running
from .columns import now
from .handle import Database
from .pg import is_pg

migrations = Migrations("referee")
# Every migration in order, for PostgreSQL (sqlite-utils' Migrations keeps
# SQLite's): the same functions, each writing its dialect's statements, and
# the applied ones tracked in MIGRATIONS_TABLE.
MIGRATIONS: list[Callable[[Any], None]] = []
MIGRATIONS_TABLE = "referee_migrations"


def migration(fn: Callable[[Any], None]) -> Callable[[Any], None]:
    MIGRATIONS.append(fn)
    return migrations()(fn)


_PG_APPEND_ONLY = (
    "CREATE OR REPLACE FUNCTION referee_append_only() RETURNS trigger LANGUAGE plpgsql "
    "AS $$ BEGIN RAISE EXCEPTION 'events are append-only'; END $$")


def _sqlite(db: Database) -> sqlite_utils.Database:
    """The handle of a migration's SQLite branch: sqlite-utils' own, whose
    tables it creates (``db.table("events").create``); PostgreSQL's branches write
    their statements."""
    assert isinstance(db, sqlite_utils.Database)
    return db


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
    db = _sqlite(db)
    db.table("sessions").create(
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
    db.table("hands").create(
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
    db.table("seats").create(
        {"session_id": str, "hand": int, "position": int, "name": str},
        pk=("session_id", "hand", "position"),
        not_null={"name"},
        foreign_keys=[("session_id", "sessions", "id")],
        strict=True,
    )
    db.table("events").create(
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
    db.table("events").create_index(["session_id", "seq"], unique=True)
    db.table("events").create_index(["session_id", "hand", "seq"])
    # The first answer to each client_id, so a retried request gets it again.
    db.table("replies").create(
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
    db = _sqlite(db)
    db.table("attempts").create(
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
        _m005_sqlite(_sqlite(db))
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


def _m005_sqlite(db: sqlite_utils.Database) -> None:
    db.table("club_events").create(
        {"id": int, "chain": int, "session_id": str, "hand": int, "seq": int, "kind": str,
         "payload": str, "client_id": str, "created": str, "prev_hash": str, "hash": str},
        pk="id",
        not_null={"chain", "session_id", "seq", "kind", "payload", "created", "prev_hash",
                  "hash"},
        strict=True,
    )
    db.table("club_events").create_index(["seq"], unique=True)
    db.execute("CREATE TRIGGER club_events_no_update BEFORE UPDATE ON club_events "
               "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    db.execute("CREATE TRIGGER club_events_no_delete BEFORE DELETE ON club_events "
               "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    # Derived from the club's events (verify folds them again): which person
    # each other spelling is, and the nicknames.
    db.table("aliases").create({"spelling": str, "person": str}, pk="spelling",
                                not_null={"person"}, strict=True)
    db.table("nicknames").create({"person": str, "nickname": str}, pk="person",
                                  not_null={"nickname"}, strict=True)


@migration
def m006_running_totals(db: Database) -> None:
    # Each settled hand's running totals (referee.ledger.running), written
    # with its result: the standings of a long session read one row for the
    # totals and a page of rows for the hands, where they summed every hand.
    from ...ledger.running import chain

    db.execute("ALTER TABLE hands ADD COLUMN running TEXT")
    # The settled hands alone, in order: counting them and skipping to a page
    # walks this small index, not 10,000 rows with their results.
    db.execute("CREATE INDEX hands_settled ON hands (session_id, n) WHERE running IS NOT NULL")
    # How many hands are settled, kept with them: counting 10,000 index
    # entries on every read cost a page 1-2 ms.
    db.execute("ALTER TABLE sessions ADD COLUMN settled INTEGER NOT NULL DEFAULT 0")
    for (sid,) in db.conn.execute("SELECT id FROM sessions").fetchall():
        running.store(db, sid, chain(None, hands.results_from(db, sid, 1)))


@migration
def m007_reply_requests(db: Database) -> None:
    # What each stored answer answered (the request's kind and a digest of
    # its body, ``service.writes.Request``): a client_id sent again with
    # another body is refused, not given the first answer (issue 33).
    db.execute("ALTER TABLE replies ADD COLUMN request TEXT")


@migration
def m008_anchors(db: Database) -> None:
    # What verify must see the end of, moved by every write it follows: the
    # newest event of the events and of the club's, and the rows of the
    # wrong tries (issue 34: a deleted tail, a deleted attempts row, went
    # unseen). Started from what the database holds now.
    anchors.create(db, pg=is_pg(db))


@migration
def m009_attempts_anchored_by_group(db: Database) -> None:
    # The wrong tries anchored a group each (a session's, the host key's, the
    # tables opened), beside their rows: a session's verify adds up its own,
    # and a try moves its anchor in the statement that writes it (the one
    # anchor of the whole table was a row of its own, written with every try:
    # issue 34). The one anchor stays only where it did not add up.
    anchors.retire_attempts(db)
    attempts.anchor_groups(db, [r[0] for r in db.conn.execute("SELECT id FROM sessions")])


@migration
def m010_copy_of(db: Database) -> None:
    # A log imported as a copy of a night stored already (newcomer45 P4):
    # the table it copies, decided at the import, so that every page names
    # the copy as one (the log format has no such field).
    db.execute("ALTER TABLE sessions ADD COLUMN copy_of TEXT")


def apply_pg(db: Any) -> None:
    """Apply PostgreSQL's pending migrations (inside the write lock: processes
    starting together migrate once)."""
    done = _applied_pg(db)
    for fn in MIGRATIONS:
        if fn.__name__ not in done:
            fn(db)
            db.conn.execute(f"INSERT INTO {MIGRATIONS_TABLE} (name, applied) "
                            "VALUES (?, ?)", (fn.__name__, now()))


def _applied_pg(db: Any) -> set[str]:
    db.conn.execute(f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} "
                    "(name TEXT PRIMARY KEY, applied TEXT NOT NULL)")
    return {r[0] for r in db.conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE}")}


def applied_migrations(db: Any) -> list[str]:
    """The names of the migrations applied to the database, in order."""
    if not is_pg(db):
        return [m.name for m in migrations.applied(db)]
    found = db.conn.execute("SELECT to_regclass(?)", (MIGRATIONS_TABLE,)).fetchone()
    if found is None or found[0] is None:
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

