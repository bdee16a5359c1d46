"""A long import holds the database's write lock only while it writes
(issue 34: beside three 1,500-hand imports on PostgreSQL, a request waited
past a client's 60 s). The import's hands are replayed and settled in a
second process; the import held the one write lock (an advisory lock on
PostgreSQL, the file's on SQLite) from before the replay to its end, so
every other table's write waited behind whole imports in a row. Now the
replay and every check come first, outside the lock, and the writing
after, in one transaction: another table's write waits for the writing at
most, a session appears whole or not at all, and a refused log never takes
the lock."""

from __future__ import annotations

import threading
import time

import pytest

from referee.devtools.samplegen import make_session
from referee.rules.errors import RefereeError
from referee.service import beside, storage, trust
from referee.service.table import sessions

from .conftest import BOTH_BACKENDS
from .test_import_batch import counts

# Another table's write beside a replaying import finishes within this; the
# import's replay is held back four times as long (or until the write is in).
BOUND = 10.0

IMPORTS = ("first", "second")  # the long imports' threads


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


@pytest.fixture(autouse=True)
def judge_beside(monkeypatch):
    if not beside.can_fork():
        pytest.skip("no second process on this host: the import is judged before it writes")
    monkeypatch.setattr(sessions, "BESIDE_HANDS", 0)


def opened(path: str) -> sessions.SessionInfo:
    return sessions.create_session(storage.connect(path), {
        "stake": "1", "rules": "pagat", "players": ["Ann", "Ben"]})


def test_a_write_beside_a_replaying_import_waits_for_no_replay(app, monkeypatch):
    path = app.config["DATABASE"]
    replaying, replayed = threading.Event(), threading.Event()
    length = beside.Stream._length

    def slow_replay(stream):  # this process waits for the second one's answer
        if threading.current_thread() is importing:
            replaying.set()
            replayed.wait(4 * BOUND)
        return length(stream)
    monkeypatch.setattr(beside.Stream, "_length", slow_replay)
    before = counts(path)
    got: dict = {}

    def importer() -> None:
        got["import"] = sessions.import_log(storage.connect(path), make_session(12, seed=34))

    def writer() -> None:
        t0 = time.monotonic()
        got["other"] = opened(path)
        got["took"] = time.monotonic() - t0

    importing = threading.Thread(target=importer)
    importing.start()
    try:
        assert replaying.wait(60), "the import never waited for its replay"
        writing = threading.Thread(target=writer)
        writing.start()
        writing.join(BOUND)
        waited = writing.is_alive()
        # Nothing of the import is to be seen while it replays.
        seen = counts(path)
    finally:
        replayed.set()
        importing.join(120)
    writing.join(120)
    assert not waited, f"another table's write waited {BOUND:.0f} s and more for a replay"
    assert got["took"] < BOUND
    assert seen == counts_of_one_table(path, got["other"].id, before)
    db = storage.connect(path)
    for made in (got["import"], got["other"]):
        assert trust.verify_session(db, made.id) == []
    assert sessions.played_count(db, got["import"].id) == 12


def counts_of_one_table(path: str, sid: str, before: dict[str, int]) -> dict[str, int]:
    """``before`` with one table's rows added (its session, events, hands, seats)."""
    db = storage.connect(path)
    try:
        return {t: before[t] + db.conn.execute(
            f"SELECT count(*) FROM {t} WHERE {'id' if t == 'sessions' else 'session_id'} = ?",
            (sid,)).fetchone()[0] for t in before}
    finally:
        db.close()


def test_a_refused_long_log_never_takes_the_write_lock(app, monkeypatch):
    """The replay's fault is known before anything is written (it was met
    inside the write, which was then rolled back, the lock held meanwhile)."""
    monkeypatch.setattr(storage, "write", lambda db: pytest.fail("took the write lock"))
    doc = make_session(7)
    actions = doc["hands"][5]["actions"]
    actions.insert(0, actions[1])  # out of turn in hand 6
    before = counts(app.config["DATABASE"])
    with pytest.raises(RefereeError) as refused:
        sessions.import_log(storage.connect(app.config["DATABASE"]), doc)
    assert (refused.value.hand, refused.value.action) == (6, 1)
    assert counts(app.config["DATABASE"]) == before


def test_a_write_beside_imports_waiting_to_write_waits_for_one_at_most(app, monkeypatch):
    """Imports write one at a time, and another table's write waiting when
    one of them is writing goes before the next: it waits for one import's
    writing at most, however many are ready to write (it waited for all of
    them in a row: 8.7 s beside three 1,500-hand imports on a busy host)."""
    monkeypatch.setattr(sessions, "BESIDE_HANDS", 10**9)  # judged here: quicker
    path = app.config["DATABASE"]
    storing: dict[str, threading.Event] = {}
    writing: dict[str, threading.Event] = {}
    written: dict[str, threading.Event] = {}
    store, append = sessions._store, storage.events.append_many

    def named_store(*args, **kwargs):
        storing[threading.current_thread().name].set()
        return store(*args, **kwargs)

    def slow_append(*args, **kwargs):  # a long import's writing, held back
        name = threading.current_thread().name
        if name in IMPORTS:
            writing[name].set()
            written[name].wait(4 * BOUND)
        return append(*args, **kwargs)
    monkeypatch.setattr(sessions, "_store", named_store)
    monkeypatch.setattr(storage.events, "append_many", slow_append)
    got: dict = {}

    def run(name: str, job) -> threading.Thread:
        storing[name], writing[name], written[name] = (threading.Event(), threading.Event(),
                                                       threading.Event())

        def timed() -> None:
            t0 = time.monotonic()
            got[name] = job()
            got[f"{name} took"] = time.monotonic() - t0
        thread = threading.Thread(target=timed, name=name)
        thread.start()
        return thread

    def long_import() -> sessions.SessionInfo:
        # one log twice, each a copy: two imports' writing, not a refusal
        return sessions.import_log(storage.connect(path), make_session(3, seed=34), copy=True)

    run("first", long_import)
    try:
        assert writing["first"].wait(60)
        run("second", long_import)
        assert storing["second"].wait(60)
        other = run("other", lambda: opened(path))
        assert storing["other"].wait(60)
        # The state itself, not a pause: on two busy cores a second's sleep
        # did not always see the other table's write reach the lock.
        turn = storage.write_turn(storage.connect(path))
        deadline = time.monotonic() + 60
        while not turn.short_waiting and time.monotonic() < deadline:
            time.sleep(0.01)
        assert turn.short_waiting == 1
        written["first"].set()
        other.join(BOUND)
        waited = other.is_alive()
    finally:
        for name in ("first", "second", "other"):
            if name in written:
                written[name].set()
        for thread in threading.enumerate():
            if thread.name in ("first", "second", "other"):
                thread.join(120)
    assert not waited, "another table's write waited for a second import's writing"
    db = storage.connect(path)
    for name in ("first", "second", "other"):
        assert trust.verify_session(db, got[name].id) == []


def test_an_import_lets_the_writes_already_waiting_go_first():
    """The turn at the write lock, alone: a long write coming while short ones
    wait lets them go first, whenever its thread gets there (a plain lock
    woke whichever waiter the scheduler picked)."""
    turn = storage.WriteTurn()
    order: list[str] = []

    def write(name: str, long: bool = False) -> threading.Thread:
        def go() -> None:
            with turn.held(long=long):
                order.append(name)
        thread = threading.Thread(target=go, name=name)
        thread.start()
        return thread

    with turn.held():  # a write in progress
        early = [write(f"tap {k}") for k in range(3)]
        deadline = time.monotonic() + 30
        while turn.short_waiting < 3 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert turn.short_waiting == 3
        importing = write("import", long=True)
    for thread in [*early, importing]:
        thread.join(30)
    assert order[-1] == "import" and sorted(order[:3]) == ["tap 0", "tap 1", "tap 2"]
