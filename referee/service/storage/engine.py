"""The storage's engine: connections to SQLite or PostgreSQL, write
transactions that hold the database's write lock from their start, and the
group-committing writer thread.

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
(``synchronous_commit`` on, the server's default).
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import sqlite_utils

from ...rules.words import N_
from ..errors import MalformedInput
from . import changes, pg, schema
from .handle import Database
from .pg import is_pg

BUSY_TIMEOUT_MS = 10_000
# PostgreSQL's write lock: one advisory lock (a key of the referee's own, in
# the database's advisory lock space) held by every write transaction.
WRITE_LOCK = 0x7265666572656531  # "referee1"
# The long writes' queue (an import's many rows): an advisory lock a long
# write transaction takes before the write lock, so that the processes' long
# writes wait for the write lock one at a time.
LONG_WRITE_LOCK = 0x7265666572656532  # "referee2"

# A key or constraint refused a row, on either database (a racing retry of a
# client_id is noticed so).
INTEGRITY_ERRORS = (sqlite3.IntegrityError, pg.IntegrityError)

class WriteTurn:
    """This process's turn at a database's write lock: one writer at a time,
    and a long write (an import's) lets the short writes waiting when it
    comes go first (not the ones after: a steady stream of taps would never
    let it write). A plain lock wakes whichever waiter the scheduler picks:
    on a busy host the next import, which another table's tap then waited
    behind for a whole import's writing."""

    def __init__(self) -> None:
        self._turn = threading.Condition(threading.Lock())
        self._held = False
        self._issued = 0  # the short writes' tickets, in the order they came
        self._waiting: set[int] = set()

    @property
    def short_waiting(self) -> int:
        """How many short writes wait (the tests wait for this state)."""
        with self._turn:
            return len(self._waiting)

    def _blocked(self, before: int | None) -> bool:
        return self._held or (before is not None
                              and any(t <= before for t in self._waiting))

    @contextmanager
    def held(self, *, long: bool = False) -> Iterator[None]:
        with self._turn:
            before = self._issued if long else None
            if self._blocked(before):
                ticket = None
                if not long:
                    self._issued += 1
                    ticket = self._issued
                    self._waiting.add(ticket)
                try:
                    while self._blocked(before):
                        self._turn.wait()
                finally:
                    if ticket is not None:
                        self._waiting.discard(ticket)
            self._held = True
        try:
            yield
        finally:
            with self._turn:
                self._held = False
                self._turn.notify_all()


# One turn per database file: threads of one process queue here instead of
# in SQLite's busy handler, whose sleeps would add milliseconds to every wait.
_WRITE_TURNS: dict[str, WriteTurn] = {}
_FILE_LOCKS_GUARD = threading.Lock()
# And one lock per database for this process's long writes, taken before it.
_LONG_LOCKS: dict[str, threading.Lock] = {}


def db_key(db: Database) -> str:
    key = getattr(db, "_referee_key", None)
    if key is None:
        row = db.conn.execute("PRAGMA database_list").fetchone()
        key = row[2] or f"memory:{id(db)}"
        db._referee_key = key  # type: ignore[attr-defined]
    return key


def write_turn(db: Database) -> WriteTurn:
    return _of_database(_WRITE_TURNS, db, WriteTurn)


def _long_lock(db: Database) -> threading.Lock:
    return _of_database(_LONG_LOCKS, db, threading.Lock)


def _of_database(table: dict[str, Any], db: Database, make: Callable[[], Any]) -> Any:
    """``db``'s entry of ``table`` (one per database this process writes to),
    made on first use."""
    key = db_key(db)
    found = table.get(key)
    if found is None:
        with _FILE_LOCKS_GUARD:
            found = table.setdefault(key, make())
    return found


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
        db = sqlite_utils.Database(conn, strict=True)
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        if _committers.get(db_key(db)) is not None:
            # This process checkpoints beside its writers (GroupCommitter): a
            # long import's commit copied its 40 MB into the file again.
            db.execute("PRAGMA wal_autocheckpoint = 0")
        if schema.migrations.pending(db):
            with write(db):
                schema.migrations.apply(db)
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
    if schema.pending_migrations(db):
        with write(db):  # under the write lock: processes starting together migrate once
            schema.apply_pg(db)
    return db



def _notify(db: Any) -> None:
    """On PostgreSQL, tell every app server's streams what this transaction
    wrote (delivered at its commit: ``service.changes``)."""
    if is_pg(db):
        for said in changes.notices(db):
            db.conn.execute("SELECT pg_notify(?, ?)", (changes.CHANNEL, said))


def listen(url: str, channel: str, heard: Callable[[str], Any]) -> None:
    """Forever: ``heard(payload)`` for each notice on ``channel`` of the
    PostgreSQL database at ``url`` (on a connection of its own; again after a
    second if it drops)."""
    import time

    import psycopg

    while True:
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"LISTEN {channel}")
                for note in conn.notifies():
                    heard(note.payload)
        except psycopg.Error:
            time.sleep(1.0)


def _begin_write(db: Any) -> None:
    """Start a transaction that holds the database's write lock (on
    PostgreSQL, in the transaction a long write began)."""
    if is_pg(db):
        if not db.conn.in_transaction:
            db.conn.execute("BEGIN")
        db.conn.execute("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
    else:
        db.conn.execute("BEGIN IMMEDIATE")


@contextmanager
def _long_writes(db: Database) -> Iterator[None]:
    """Wait for the long writes before this one: this process's (a lock),
    then, on PostgreSQL, every process's (``LONG_WRITE_LOCK``, in the
    transaction the write goes on in; taken before this process's write
    lock, so that no short write of this process waits while another
    process's long write is waited for)."""
    with _long_lock(db):
        if is_pg(db):
            db.conn.execute("BEGIN")
            try:
                db.conn.execute("SELECT pg_advisory_xact_lock(?)", (LONG_WRITE_LOCK,))
            except BaseException:
                db.conn.execute("ROLLBACK")
                raise
        yield


@contextmanager
def write(db: Database, *, long: bool = False) -> Iterator[Database]:
    """A write transaction that holds the database's write lock from its start.

    ``long``: a write of many rows (an import), which waits for the long
    writes before it first, so that at most one long write waits for the
    write lock or holds it at a time: another table's write (short) waits
    for one long write at most, not for every import ready to write (with
    three 1,500-hand imports at once on a busy host: 8.7 s)."""
    with _long_writes(db) if long else nullcontext(), write_turn(db).held(long=long):
        try:
            _begin_write(db)
            yield db
            _notify(db)
        except BaseException:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            changes.rolled_back(db)
            raise
        db.conn.execute("COMMIT")
    changes.committed(db)
    committer = _committers.get(db_key(db))
    if committer is not None:
        committer.wrote.set()  # its checkpointing thread copies the pages in



@contextmanager
def snapshot(db: Database) -> Iterator[Database]:
    """Reads that all see one state of the database, whatever is committed
    meanwhile: ``verify`` compares rows read in several queries, and an
    action stored between two of them would look like an edit. SQLite (WAL):
    one read transaction, whose first read fixes what it sees (it takes no
    lock a writer waits for); PostgreSQL: a ``REPEATABLE READ`` transaction,
    read-only. Inside a transaction already (the same handle), the reads are
    that transaction's."""
    if db.conn.in_transaction:
        yield db
        return
    if is_pg(db):
        db.conn.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY")
    else:
        db.conn.execute("BEGIN")
    try:
        yield db
    finally:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")  # nothing was written: nothing to keep


def db_file(db: Database) -> str | None:
    """The SQLite database's file, for a forked process to open on its own
    (None: in memory, or PostgreSQL, where verify does not fork)."""
    if is_pg(db):
        return None
    key = db_key(db)
    return None if key.startswith("memory:") else key


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
    RETRY_AFTER = 0.5  # seconds, while a checkpoint left pages in the WAL

    def __init__(self, path: str | Path) -> None:
        self.db = connect(path)
        self.wrote = threading.Event()
        self.stopping = False
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
        behind = False
        while True:
            # A passive checkpoint stops short of a reader's snapshot (or fails
            # beside another checkpoint): it is tried again shortly, not only
            # at the next write, which may never come (CI met a file that had
            # nothing copied in 10 s after the night's last write).
            self.wrote.wait(self.RETRY_AFTER if behind else None)
            self.wrote.clear()
            if self.stopping:
                self.checkpoint_db.close()
                return
            try:
                busy, frames, copied = self.checkpoint_db.execute(
                    "PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                behind = bool(busy) or copied < frames
            except sqlite3.Error:
                behind = True

    def submit(self, job: Callable[[Database], Any]) -> Any:
        future: Future = Future()
        self.queue.put((job, future))
        return future.result()

    def stop(self) -> None:
        """End the writer thread once the jobs queued before are done, and the
        checkpointing thread (the pages left in the WAL are the next
        connection's to copy: nothing is lost)."""
        self.queue.put(None)
        self.stopping = True
        self.wrote.set()

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
            with write_turn(self.db).held():
                _begin_write(self.db)
                try:
                    for job, _ in batch:
                        conn.execute("SAVEPOINT job")
                        marked = changes.mark(self.db)
                        try:
                            outcomes.append((True, job(self.db)))
                        except Exception as err:
                            conn.execute("ROLLBACK TO job")
                            changes.undo_to(self.db, marked)
                            outcomes.append((False, err))
                        conn.execute("RELEASE job")
                    _notify(self.db)
                    conn.execute("COMMIT")
                    self.commits += 1
                    if self.commits >= self.CHECKPOINT_EVERY and not is_pg(self.db):
                        self.commits = 0
                        self.wrote.set()
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    changes.rolled_back(self.db)
                    raise
        except Exception as err:
            for _, future in batch:
                future.set_exception(err)
            return
        changes.committed(self.db)
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

