"""Long, allocation-heavy work (an import, verify, ``referee replay``) with
Python's cyclic garbage collector paused.

Such work makes no reference cycles, but its hundreds of thousands of small
objects (hands, actions, event rows) set the collector off again and again,
and each time it rescans everything kept so far: a quarter of a 10,000-hand
import. Refcounting still frees everything as usual. The collector is
process-wide, so the pause is counted: it resumes when the last of the
threads that paused it is done (and only if it ran before).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def paused() -> Iterator[None]:
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()
