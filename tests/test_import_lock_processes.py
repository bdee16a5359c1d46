"""Imports in different app server processes take turns before the write
lock (PostgreSQL's ``LONG_WRITE_LOCK``, issue 34): a short write made in a
third process while one import writes and another waits goes before the
second import, so it waits for one import's writing at most.

``test_import_lock`` shows it with threads of one process, where a lock of
the process's own queues the imports first; here each import and the short
write is a process of its own, as app servers behind one proxy are, so only
the database's locks order them. Nothing is ordered by sleeping: each step
waits for what the processes show (a file a process writes when it gets to
a point, a row of ``pg_locks`` for a backend waiting on a lock)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.service import storage, trust

# How long to wait for a state before giving up (a bound against hanging,
# not a measure: a loaded CI host gets there much sooner).
BOUND = 180.0

# A process of its own: an import (its events written only once the test
# says ``go``, telling it got there first) or a new table (a short write).
CHILD = r"""
import sys, time
from pathlib import Path

from referee.devtools.samplegen import make_session
from referee.service import storage
from referee.service.table import sessions

url, role, gates = sys.argv[1], sys.argv[2], Path(sys.argv[3])
if role == "table":
    made = sessions.create_session(storage.connect(url), {
        "stake": "1", "rules": "pagat", "players": ["Ann", "Ben"]})
else:
    append = storage.events.append_many

    def held(*args, **kwargs):  # inside the write lock: the import's writing
        (gates / f"{role}.writing").touch()
        while not (gates / f"{role}.go").exists():
            time.sleep(0.02)
        return append(*args, **kwargs)

    storage.events.append_many = held
    # Both imports store the same log, on purpose (the order of the writes is
    # the test): the second a copy.
    made = sessions.import_log(storage.connect(url), make_session(3, seed=34), copy=True)
(gates / f"{role}.done").write_text(made.id)
"""


@pytest.fixture
def backend():
    return "postgresql"  # SQLite has one writer per file and no such lock


def _named(url: str, name: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}application_name={name}"


def _until(what: str, holds, children: dict[str, subprocess.Popen]) -> None:
    deadline = time.monotonic() + BOUND
    while not holds():
        for role, child in children.items():
            if child.poll() not in (None, 0):
                pytest.fail(f"{role} ended with {child.returncode} before {what}: "
                            f"{child.stderr.read() if child.stderr else ''}")
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def _waiting(db, role: str) -> bool:
    """Whether the process ``role``'s backend waits for an advisory lock."""
    return db.conn.execute(
        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND NOT l.granted AND a.application_name = ?",
        (role,)).fetchone()[0] > 0


def test_a_short_write_of_a_third_process_goes_before_a_second_import(database, tmp_path):
    db = storage.connect(database)
    gates = tmp_path
    children: dict[str, subprocess.Popen] = {}

    def start(role: str) -> None:
        children[role] = subprocess.Popen(
            [sys.executable, "-c", CHILD, _named(database, role), role, str(gates)],
            cwd=Path(__file__).resolve().parents[1], stderr=subprocess.PIPE, text=True)

    def done(role: str) -> bool:
        return (gates / f"{role}.done").exists()

    try:
        start("first")
        _until("the first import writes", lambda: (gates / "first.writing").exists(),
               children)
        start("second")
        _until("the second import waits for a lock", lambda: _waiting(db, "second"), children)
        start("table")
        _until("the new table waits for the write lock", lambda: _waiting(db, "table"),
               children)
        (gates / "first.go").touch()
        # Either the new table is written, or the second import writes while
        # the new table still waits behind it (which stays so until the test
        # lets the second go on: the fault, seen as a state, not a time).
        _until("the new table is written, or waits for the second import's writing",
               lambda: done("table") or ((gates / "second.writing").exists()
                                         and _waiting(db, "table")), children)
        went_first = done("table")
    finally:
        for role in ("first", "second"):
            (gates / f"{role}.go").touch()
        for child in children.values():
            try:
                child.wait(BOUND)
            except subprocess.TimeoutExpired:
                child.kill()
    assert went_first, "a short write waited for a second import's writing"
    for role, child in children.items():
        assert child.returncode == 0, (role, child.stderr.read() if child.stderr else "")
    ids = [(gates / f"{role}.done").read_text() for role in ("first", "second", "table")]
    for sid in ids:
        assert trust.verify_session(db, sid) == []
