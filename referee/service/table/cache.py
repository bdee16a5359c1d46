"""Each session's live state, cached in this process, and the per-session locks.

Reading a hand must not cost more as a session grows, so the service keeps a
session's rules, table and current hand here; ``referee.service.table.live_state``
decides when an entry is stale (another process wrote) and rebuilds it.
This module only holds entries: it knows no SQL and no rules.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from decimal import Decimal

from ...rules.hand import Hand
from ...rules.options import HouseRules
from ...rules.table import Table
from .. import access
from ..storage import Database, db_key
from .state import HandState

SIZE = 512


@dataclass
class Live:
    """One session's live state, as cached in this process."""

    sid: str
    rules: HouseRules
    stake: Decimal
    quantum: Decimal
    players: list[str]
    everyone: list[str]
    table: Table
    n: int = 0  # the current (newest) hand, 0 before the first
    version: int = 0  # id of the newest event of the current hand
    hand: Hand | None = None
    setup: dict = field(default_factory=dict)
    action_ids: list[int] = field(default_factory=list)  # events of the actions in force
    state: HandState | None = None  # hand_state of the current hand at ``version``
    closed: str | None = None  # when the host closed the table: it takes nothing more
    next_stake: str | None = None  # the stake from the next hand on (None: the session's)
    next_seats: list[str] | None = None  # the next hand's seats after someone left


@dataclass(frozen=True)
class ResultText:
    """A session's ``tonk-result/1`` text as of its event ``seq``: each
    settled hand's line (``numbers[i]``'s is ``lines[i]``) and the whole text.
    An entry is never changed: a newer one replaces it."""

    seq: int
    numbers: list[int]
    lines: list[str]
    text: str


# A long session's text is a megabyte: fewer of them are kept than live states.
RESULTS_SIZE = 32

_cache: OrderedDict[tuple[str, str], Live] = OrderedDict()
_results: OrderedDict[tuple[str, str], ResultText] = OrderedDict()
# A session's lock lives while a thread holds it or waits for it (each holds a
# reference), and goes with the last: one was kept for every table ever touched.
_locks: weakref.WeakValueDictionary[tuple[str, str], threading.RLock] = \
    weakref.WeakValueDictionary()
_guard = threading.Lock()


def lock(db: Database, sid: str) -> threading.RLock:
    """The session's lock (threads of this process; other processes are kept
    out by the database's write lock)."""
    key = (db_key(db), sid)
    found = _locks.get(key)
    if found is None:
        with _guard:
            found = _locks.setdefault(key, threading.RLock())
    return found


def get(db: Database, sid: str) -> Live | None:
    key = (db_key(db), sid)
    live = _cache.get(key)
    if live is not None:
        _cache.move_to_end(key)
    return live


def put(db: Database, live: Live) -> None:
    with _guard:
        _cache[(db_key(db), live.sid)] = live
        while len(_cache) > SIZE:
            _cache.popitem(last=False)


def drop(db: Database, sid: str) -> None:
    with _guard:
        _cache.pop((db_key(db), sid), None)


def result_text(db: Database, sid: str) -> ResultText | None:
    key = (db_key(db), sid)
    found = _results.get(key)
    if found is not None:
        with _guard:
            if key in _results:
                _results.move_to_end(key)
    return found


def keep_result_text(db: Database, sid: str, entry: ResultText) -> None:
    with _guard:
        key = (db_key(db), sid)
        old = _results.get(key)
        if old is None or old.seq <= entry.seq:  # a slower reader's older text stays out
            _results[key] = entry
            _results.move_to_end(key)
        while len(_results) > RESULTS_SIZE:
            _results.popitem(last=False)


def forget(db: Database | None = None) -> None:
    """Drop cached state (all of it, or one database's): tests use it to force
    the rebuild a fresh process would do. The tables' token hashes that
    access keeps go with it."""
    access.forget_tokens(db)
    with _guard:
        if db is None:
            _cache.clear()
            _results.clear()
            return
        key = db_key(db)
        for k in [k for k in _cache if k[0] == key]:
            del _cache[k]
        for k in [k for k in _results if k[0] == key]:
            del _results[k]
