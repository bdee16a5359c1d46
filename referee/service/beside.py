"""Work done in a second, forked process while this one goes on: a long
session's verify hashes its chain there, a long import replays and settles
its hands there while this process hashes and writes the events.

The host has two cores and Python one lock, so a thread would not help; a
forked child starts with everything this process has read (nothing is sent
to it), computes, and answers through a pipe. It never touches a database
handle, a lock or a file of its parent's, and leaves with ``os._exit``, so
none of the parent's clean-up (atexit, buffered output, connections) runs
twice.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from typing import Any


class SecondProcessFailed(RuntimeError):
    """The second process crashed (or sent no answer): a fault of ours, not
    of the input, which the caller works out in this process instead, or
    reports."""


def can_fork() -> bool:
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2


def start(job: Callable[[], Any]) -> Callable[[], Any]:
    """Start ``job`` in a forked process; the function returned waits for it
    and gives its answer (its return value, pickled), or raises
    ``SecondProcessFailed``. The answer is waited for exactly once."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answers through the pipe, and never returns
        try:
            os.close(read)
            try:
                payload = ("ok", job())
            except BaseException as err:  # reported by the parent, never lost
                payload = ("crash", repr(err))
            with os.fdopen(write, "wb") as out:
                out.write(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
        finally:
            os._exit(0)
    os.close(write)

    def wait() -> Any:
        try:
            with os.fdopen(read, "rb") as pipe:
                data = pipe.read()
        finally:
            os.waitpid(pid, 0)  # whatever happened: no zombie
        status, answer = pickle.loads(data) if data else ("crash", "no answer")
        if status != "ok":
            raise SecondProcessFailed(f"the second process failed: {answer}")
        return answer
    return wait
