"""The service's storage: every SQL statement of the service, on SQLite
(sqlite-utils, the embedded default) or PostgreSQL (a ``postgresql://`` URL:
``pg`` runs these same statements through psycopg). Statements are written
once, with ``?``; the few that differ are chosen by ``is_pg``.

One job per module:

- ``schema``: the tables, every migration for both databases;
- ``engine``: connections, write transactions and their locks, the
  group-committing writer;
- ``pg``: the PostgreSQL seam (psycopg's pool, placeholders, transactions);
- ``events``: the hash-chained, append-only events of each session and of
  the club, appended and read (the chain's checks are
  ``record.chain.session_chain_fault``, a pure function over the rows);
- ``rows``: the derived rows the service reads instead of replaying (the
  sessions, each hand's live count and result, running totals, stored
  answers, wrong tries at a secret, the club's people).

Events are append-only: an action, a correction (undo), a hand's start. Each
event row carries a SHA-256 hash chained over the session's previous event,
so any edit or deletion of history shows up in ``verify_chain``.

Callers import this package and use the names below; which module holds a
name is the package's own business.
"""

from ...record.chain import GENESIS, canonical, event_hash
from .engine import (
    BUSY_TIMEOUT_MS,
    INTEGRITY_ERRORS,
    WRITE_LOCK,
    GroupCommitter,
    connect,
    db_file,
    db_key,
    enable_group_commit,
    forget_group_commit,
    listen,
    run_write,
    snapshot,
    write,
)
from .events import (
    CLUB,
    Moved,
    append_club_event,
    append_event,
    append_events,
    chain_end,
    chain_events,
    club_events,
    database_head,
    events_of_kinds,
    events_since,
    final_hash,
    first_new_event,
    hand_events,
    hand_start_id,
    hand_table_events,
    hash_at,
    holds_hash,
    iter_chain_events,
    live_actions,
    newest_seq,
    orphan_sessions,
    renamed_text,
    renames,
    session_actions,
    session_events,
    session_level_events,
    settled_between,
    touched_since,
    verify_chain,
    verify_club_chain,
    verify_session_chain,
)
from .handle import Database
from .pg import is_pg
from .rows import (
    NamedRow,
    accepted_between,
    aliases,
    all_hand_rows,
    claim_attempt,
    claim_in_window,
    clear_attempts,
    club_session_rows,
    complete_results,
    counted_settled,
    current_version,
    disputed_hands,
    disputes_between,
    encode_hands,
    hand_row,
    hand_rows_as_stored,
    hand_setups,
    insert_hand,
    insert_hands,
    insert_session,
    list_sessions,
    newest_hands,
    newest_running,
    nicknames,
    note_request,
    now,
    now_seconds,
    refresh_running,
    reply,
    reply_request,
    results_from,
    rewrite_names,
    running_before,
    running_between,
    running_rows,
    seat_rows,
    session_ids,
    session_replies,
    session_row,
    session_token_hashes,
    set_brought_forward_from,
    set_everyone,
    set_hand,
    set_header,
    set_next,
    set_people,
    set_quantum,
    set_running,
    settled_count,
    store_reply,
    to_json,
    touch_hand,
    update_hand,
    void_count,
)
from .schema import (
    MIGRATIONS,
    MIGRATIONS_TABLE,
    applied_migrations,
    migrations,
    pending_migrations,
    table_names,
)

__all__ = [
    "accepted_between", "Database",
    "BUSY_TIMEOUT_MS", "CLUB", "GENESIS", "INTEGRITY_ERRORS", "MIGRATIONS", "MIGRATIONS_TABLE",
    "WRITE_LOCK", "GroupCommitter", "Moved", "NamedRow", "aliases", "all_hand_rows",
    "append_club_event", "append_event", "append_events", "applied_migrations", "canonical",
    "chain_events", "claim_attempt", "claim_in_window", "clear_attempts", "club_events",
    "club_session_rows",
    "complete_results", "connect", "counted_settled", "current_version", "db_file", "db_key",
    "disputed_hands", "disputes_between", "void_count",
    "enable_group_commit", "encode_hands", "event_hash", "events_of_kinds", "events_since",
    "final_hash", "hash_at", "chain_end",
    "forget_group_commit", "hand_events", "hand_start_id", "hand_table_events", "hand_row",
    "hand_rows_as_stored", "hand_setups", "session_replies", "database_head", "holds_hash",
    "insert_hand", "insert_hands", "insert_session", "is_pg", "iter_chain_events",
    "list_sessions", "listen", "live_actions", "migrations", "newest_hands", "newest_running",
    "newest_seq", "nicknames", "now", "now_seconds", "orphan_sessions", "pending_migrations",
    "refresh_running", "renamed_text", "renames", "reply", "results_from", "rewrite_names",
    "run_write", "running_before", "running_between", "running_rows", "seat_rows",
    "session_actions", "session_events", "session_level_events", "settled_between",
    "session_ids", "session_row", "snapshot", "first_new_event",
    "session_token_hashes",
    "set_brought_forward_from", "set_everyone", "set_header", "set_hand", "set_next",
    "set_people", "set_quantum", "set_running", "settled_count", "store_reply", "reply_request",
    "note_request", "table_names",
    "to_json", "touch_hand", "touched_since", "update_hand", "verify_chain",
    "verify_club_chain", "verify_session_chain", "write",
]
