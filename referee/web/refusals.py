"""Refused tries counted per token: a seat posted 6,000 refused actions (121
to 385 a second), each a chained event, and the hand's audit then drew every
one (issue 34). A token (or a page unlocked without one) refused ``MOST``
times within ``WINDOW`` seconds is answered 429 for the rest of the window,
before anything is judged or written. Counted in this process's memory: a
table's requests go to one app server (docs/deploy.md), and the limit is a
brake on a flood, not a lock (a wrong PIN's is, in the database)."""

from __future__ import annotations

import functools
import threading
import time
from collections import deque

from flask import request

from ..rules.words import Np_
from ..service.errors import RuleViolation, TooManyTries

#: Refusals one token may have within ``WINDOW`` seconds (a table refused
#: that often in ten seconds is not being played).
MOST = 20
WINDOW = 10.0
WAIT = Np_("Too many refused actions: wait {seconds} second.",
           "Too many refused actions: wait {seconds} seconds.", "seconds")
# Tokens remembered at most (the oldest forgotten first): memory stays bounded.
KEPT = 10_000

_lock = threading.Lock()
_refused: dict[tuple[str, str], deque[float]] = {}


def _key(sid: str) -> tuple[str, str]:
    scheme, _sep, token = request.headers.get("Authorization", "").partition(" ")
    return sid, token.strip() if scheme.lower() == "bearer" else ""


def _recent(key: tuple[str, str], now: float, *, keep: bool = False) -> deque[float]:
    """The token's refusals within the window; kept (``keep``) only for one
    being refused: a token never refused, or none for a window, leaves
    nothing behind (every token of every table touched was kept)."""
    times = _refused.get(key)
    if times is None:
        times = deque()
        if not keep:
            return times
        if len(_refused) >= KEPT:
            _refused.pop(next(iter(_refused)))
        _refused[key] = times
    while times and times[0] <= now - WINDOW:
        times.popleft()
    if not times and not keep:
        del _refused[key]
    return times


def limited(view):
    """Wrap a view that may refuse (a hand's action): answered 429 while its
    token has been refused ``MOST`` times within ``WINDOW`` seconds."""

    @functools.wraps(view)
    def wrapped(sid: str, **kwargs):
        key, now = _key(sid), time.monotonic()
        with _lock:
            times = _recent(key, now)
            if len(times) >= MOST:
                wait = max(1, int(times[0] + WINDOW - now + 0.999))
                raise TooManyTries("too_many_refusals", WAIT.pick(wait),
                                   {"seconds": wait}, until=time.time() + wait)
        try:
            return view(sid, **kwargs)
        except RuleViolation:  # a refusal (kept in the chain), or one told again
            with _lock:
                _recent(key, time.monotonic(), keep=True).append(time.monotonic())
            raise
    return wrapped
