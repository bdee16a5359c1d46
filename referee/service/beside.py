"""Work done in a second, forked process while this one goes on: a long
session's verify hashes its chain there, a long import replays and settles
its hands there while this process hashes and writes the events.

The host has two cores and Python one lock, so a thread would not help; a
forked child starts with everything this process has read (nothing is sent
to it), computes, and answers. It never touches a database handle, a lock
or a file of its parent's, and leaves with ``os._exit``, so none of the
parent's clean-up (atexit, buffered output, connections) runs twice.

A child that answers as it goes (``stream``) writes each item to a spool
file and only its length to a pipe: a pipe holds 64 KB, and a child that
had to wait for its parent to read a megabyte would stop computing until
the parent was free, which is the waiting this module is for.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import tempfile
from collections.abc import Callable, Iterable
from contextlib import closing, suppress
from typing import Any

_LENGTH = struct.Struct("<q")
_END, _CRASH = -1, -2  # lengths that are not an item's


class SecondProcessFailed(RuntimeError):
    """The second process crashed (or sent no answer): a fault of ours, not
    of the input, which the caller works out in this process instead, or
    reports."""


def can_fork() -> bool:
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2


def stream(job: Callable[[], Iterable[Any]]) -> Stream:
    """Start ``job`` in a forked process now; iterate over the items it
    yields, each as soon as it is yielded (pickled), in order. Raises
    ``SecondProcessFailed`` where the job crashed. ``close()`` (after the
    last item, or instead of reading on) ends the child. Where no second
    process can be had (no room for the spool, no descriptors, no memory
    for the fork), raises ``SecondProcessFailed`` before anything started."""
    made: list = []
    try:
        spool = tempfile.TemporaryFile()
        made.append(spool.close)
        read, write = os.pipe()
        made += [lambda: os.close(read), lambda: os.close(write)]
        pid = os.fork()
    except OSError as err:
        for undo in made:
            undo()
        raise SecondProcessFailed(f"no second process: {err}") from None
    if pid == 0:  # the child: answers through the spool, and never returns
        try:
            os.close(read)
            try:
                for item in job():
                    data = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
                    spool.write(data)
                    spool.flush()
                    os.write(write, _LENGTH.pack(len(data)))
                os.write(write, _LENGTH.pack(_END))
            except BaseException as err:  # reported by the parent, never lost
                data = repr(err).encode()
                spool.write(data)
                spool.flush()
                os.write(write, _LENGTH.pack(_CRASH) + _LENGTH.pack(len(data)))
        finally:
            os._exit(0)
    os.close(write)
    return Stream(pid, read, spool)


class Stream:
    """The items a forked child yields, read as they come."""

    def __init__(self, pid: int, read: int, spool) -> None:
        self.pid, self.spool = pid, spool
        self.pipe = os.fdopen(read, "rb")
        self.offset = 0
        self.done = False

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> Any:
        if self.done:
            raise StopIteration
        length = self._length()
        if length == _END:
            self.close()
            raise StopIteration
        if length == _CRASH:
            said = self._length()
            why = "no answer" if said < 0 else self._read(said).decode(errors="replace")
            self.close()
            raise SecondProcessFailed(f"the second process failed: {why}")
        return pickle.loads(self._read(length))

    def _length(self) -> int:
        head = self.pipe.read(_LENGTH.size)
        return _LENGTH.unpack(head)[0] if len(head) == _LENGTH.size else _CRASH

    def _read(self, length: int) -> bytes:
        data = os.pread(self.spool.fileno(), length, self.offset)
        self.offset += length
        return data

    def close(self) -> None:
        """End the child (done, failed, or no longer wanted) and wait for it
        (no zombie)."""
        if self.done:
            return
        self.done = True
        with suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        self.pipe.close()
        self.spool.close()


def start(job: Callable[[], Any]) -> Callable[[], Any]:
    """Start ``job`` in a forked process now; the function returned waits
    for its answer (its return value, pickled), or raises
    ``SecondProcessFailed``. The answer is waited for exactly once."""
    items = stream(lambda: (job(),))

    def wait() -> Any:
        with closing(items):
            for answer in items:
                return answer
        raise SecondProcessFailed("the second process sent no answer")
    return wait
