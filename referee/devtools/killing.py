"""An import killed inside its database commit, for the crash test and
``bench/attack.py``.

The import runs in a process of its own whose connection tells, through a
pipe, when its COMMIT statement starts and ends, with the bytes the process
has written so far (``/proc/self/io``'s ``wchar``). The caller stops it
(SIGSTOP) once a chosen number of bytes of the commit are written, reads
where it stopped, and kills it (SIGKILL), as a power cut or the OOM killer
would. No hook in the referee's code: the connection the referee uses is
wrapped by this module's own script, in that process only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from ..service import storage

CHILD = r"""
import json, os, sys
from referee.service import storage
from referee.service.table import sessions

path, log, fd = sys.argv[1], sys.argv[2], int(sys.argv[3])

def written():
    with open("/proc/self/io") as io:
        return next(int(line.split()[1]) for line in io if line.startswith("wchar:"))

db = storage.connect(path)
real = db.conn

class Told:
    # The referee's connection, telling the caller when its COMMIT starts and ends.
    def __getattr__(self, name):
        return getattr(real, name)

    def execute(self, sql, *args):
        if sql != "COMMIT":
            return real.execute(sql, *args)
        os.write(fd, b"commit %d\n" % written())
        out = real.execute(sql, *args)
        os.write(fd, b"committed %d\n" % written())
        return out

db.conn = Told()
with open(log) as f:
    doc = json.load(f)
# The same log again after each kill, on purpose: a copy, not a night stored twice.
os.write(fd, b"id %s\n" % sessions.import_log(db, doc, copy=True).id.encode())
"""


def written(pid: int) -> int:
    """The bytes process ``pid`` has passed to write calls so far."""
    with open(f"/proc/{pid}/io") as io:
        return next(int(line.split()[1]) for line in io if line.startswith("wchar:"))


class Import:
    """``sessions.import_log`` of the log file ``log`` into ``database`` (a
    file or a URL) in a process group of its own, read as it tells of its
    commit."""

    def __init__(self, database: str, log: str) -> None:
        read, write = os.pipe()
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD, database, log, str(write)],
                                     pass_fds=(write,), start_new_session=True)
        os.close(write)
        self.pipe = os.fdopen(read, "rb")

    def said(self, word: str) -> str:
        line = self.pipe.readline().decode()
        if not line.startswith(word + " "):
            raise RuntimeError(f"the import said {line!r} (exit {self.proc.wait(60)}), "
                               f"not {word!r}")
        return line.split()[1]

    def close(self) -> None:
        self.pipe.close()
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(60)


@dataclass
class Kill:
    share: float  # of the commit's bytes, when the stop was asked for
    into: int  # bytes of the commit written when it stopped
    commit_bytes: int  # what a whole commit of the same import writes


def commit_bytes(database: str, log: str) -> tuple[str, int]:
    """Import ``log`` whole: the new session's id and the bytes its COMMIT
    wrote."""
    imp = Import(database, log)
    try:
        start = int(imp.said("commit"))
        size = int(imp.said("committed")) - start
        return imp.said("id"), size
    finally:
        imp.close()


def kill_in_commit(database: str, log: str, share: float, size: int) -> Kill:
    """Import ``log``, stop it once ``share`` of ``size`` bytes of its commit
    are written, and kill it (its second process too)."""
    imp = Import(database, log)
    try:
        began = int(imp.said("commit"))
        while written(imp.proc.pid) - began < share * size:
            time.sleep(0.0002)
        os.killpg(imp.proc.pid, signal.SIGSTOP)
        into = written(imp.proc.pid) - began
        os.killpg(imp.proc.pid, signal.SIGKILL)
        return Kill(share, into, size)
    finally:
        imp.close()


def kill_after(database: str, log: str, seconds: float) -> None:
    """Import ``log`` and kill it (both processes) ``seconds`` after it started."""
    imp = Import(database, log)
    try:
        time.sleep(seconds)
    finally:
        imp.close()


# What a kill left: the crash test and bench/attack.py both look.

def sessions_now(database: str) -> set[str]:
    """The ids of the sessions stored in ``database`` now."""
    db = storage.connect(database)
    try:
        return {row[0] for row in db.conn.execute("SELECT id FROM sessions")}
    finally:
        db.close()


def sessions_settled(database: str) -> set[str]:
    """The sessions once the database stops changing: on PostgreSQL a COMMIT the
    server had received completes after its client was killed, and a look
    taken before that would count it in the next kill."""
    seen = sessions_now(database)
    for _ in range(20):
        time.sleep(0.25)
        again = sessions_now(database)
        if again == seen:
            return again
        seen = again
    return seen


def rows_of(database: str, sid: str) -> tuple[int, int]:
    """How many events and hand rows session ``sid`` has."""
    db = storage.connect(database)
    try:
        return tuple(db.conn.execute(f"SELECT count(*) FROM {table} WHERE session_id = ?",
                                     (sid,)).fetchone()[0] for table in ("events", "hands"))
    finally:
        db.close()
