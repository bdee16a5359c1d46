"""Leaving a process at once, without Python's clean-up at exit.

Buys: ``referee replay`` of a 10,000-hand log ends 60 ms sooner: freeing the
log and every hand at interpreter exit took that long, after the output was
written (docs/decisions.md, "Replay speed"). Only a command that holds
nothing to close may use it (``replay``: ``exit_at_once`` on its parser).

Would break: anything left to run at exit (``atexit`` hooks, a database
connection's close, buffered output not flushed here, a temporary file's
removal) would silently not happen. The forked children of
``replay/two_cores.py`` and ``service/beside.py`` leave the same way, so that
none of their parent's clean-up runs twice.
"""

from __future__ import annotations

import os
import sys


def exit_now(status: int) -> None:
    """Flush what was written and end the process with ``status`` now."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
