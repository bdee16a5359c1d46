"""The service's storage: every SQL statement of the service, on SQLite
(sqlite-utils, the embedded default) or PostgreSQL (a ``postgresql://`` URL:
``pg`` runs these same statements through psycopg). Statements are written
once, with ``?``; the few that differ are chosen by ``is_pg``.

A caller names the group it stores in or reads from, one module each:

- ``events``: a session's hash-chained, append-only events, appended and
  read (``storage.events.append``, ``storage.events.of_hand``);
- ``chain``: the chain as verify and a witness read it (every column, the
  hashes, ``storage.chain.verify_session``; the checks themselves are
  ``record.chain.session_chain_fault``, a pure function over the rows);
- ``sessions``: a session's row (``storage.sessions.row``);
- ``hands``: each hand's derived row and seats (``storage.hands.update``);
- ``running``: the running totals (``storage.running.store``);
- ``replies``: the first answer to each client id (``storage.replies.store``);
- ``attempts``: wrong tries at a secret (``storage.attempts.claim``);
- ``club``: the club's own chain and its people (``storage.club.aliases``);
- ``anchors``: what verify must see the end of (``storage.anchors.read``);
- ``schema``: the tables, every migration for both databases.

Beside the groups, the engine (``engine``: connections, write transactions
and their locks, the group-committing writer), what a transaction wrote,
told at its commit to whoever listens (``changes``: the tables' bells
listen), the database handle's type (``handle``), the PostgreSQL seam
(``pg``) and how a JSON column and a time are written (``columns``):
``storage.connect``, ``storage.write``, ``storage.run_write``,
``storage.snapshot``, ``storage.to_json``, ...

Events are append-only: an action, a correction (undo), a hand's start. Each
event row carries a SHA-256 hash chained over the session's previous event,
so any edit or deletion of history shows up in ``chain.verify_all``.
"""

from . import (
    anchors,
    attempts,
    chain,
    changes,
    club,
    events,
    hands,
    pg,
    replies,
    running,
    schema,
    sessions,
)
from .columns import now_seconds, to_json
from .engine import (
    BUSY_TIMEOUT_MS,
    INTEGRITY_ERRORS,
    WRITE_LOCK,
    GroupCommitter,
    WriteTurn,
    connect,
    db_file,
    db_key,
    enable_group_commit,
    forget_group_commit,
    listen,
    run_write,
    snapshot,
    write,
    write_turn,
)
from .handle import Database
from .pg import is_pg

#: The groups a caller names (``storage.hands.update``); the package holds
#: none of their functions itself.
GROUPS = ("events", "chain", "sessions", "hands", "running", "replies", "attempts", "club",
          "anchors", "schema")

__all__ = [
    "events", "chain", "sessions", "hands", "running", "replies", "attempts", "club", "anchors",
    "schema",
    "BUSY_TIMEOUT_MS", "INTEGRITY_ERRORS", "WRITE_LOCK", "Database", "GroupCommitter",
    "connect", "db_file", "db_key", "enable_group_commit", "forget_group_commit", "is_pg",
    "changes", "listen", "now_seconds", "pg", "run_write", "snapshot", "to_json", "write",
    "write_turn", "WriteTurn",
]
