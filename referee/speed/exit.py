"""Leaving a process at once, without Python's clean-up at exit.

Buys: ``referee replay`` of a 10,000-hand log ends 60 ms sooner: freeing the
log and every hand at interpreter exit took that long, after the output was
written (docs/decisions.md, "Replay speed"). Only a command that holds
nothing to close may use it (``replay``: ``exit_at_once`` on its parser).
Such a command also holds what it read until it leaves (``keep``): freeing a
10,000-hand log's 400,000 objects one by one when the command returned took
another 35-40 ms, for memory the kernel takes back with the process anyway;
and it never collects again (the first collection after a pause would scan
everything the pause left young).

Would break: anything left to run at exit (``atexit`` hooks, a database
connection's close, buffered output not flushed here, a temporary file's
removal) would silently not happen. The forked children of
``replay/two_cores.py`` and ``service/beside.py`` leave the same way, so that
none of their parent's clean-up runs twice.
"""

from __future__ import annotations

import gc
import os
import sys

_leaving = False
_held: list[object] = []


def leave_at_once() -> None:
    """Say that this process ends by ``exit_now``: ``keep`` holds from now on,
    and the collector stays off."""
    global _leaving
    _leaving = True
    gc.disable()


def keep(thing: object) -> None:
    """Hold ``thing`` until the process leaves, if it leaves at once; else
    (a caller in a process that goes on, a test) nothing."""
    if _leaving:
        _held.append(thing)


def exit_now(status: int) -> None:
    """Flush what was written and end the process with ``status`` now."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
