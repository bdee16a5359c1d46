"""Every import test of test_import_batch again, with the hands replayed and
settled in a second process while this one writes the events
(``sessions.BESIDE_HANDS``: a long log's way, here from the first hand);
and every sample log stored the same way by either path, the replay's first
fault reported whichever process meets a fault first, and a crashed second
process never losing an import."""

from __future__ import annotations

import json
import os
import tracemalloc

import pytest

from referee.devtools.samplegen import make_session
from referee.record import load_log
from referee.rules.errors import RefereeError
from referee.service import beside, storage, trust
from referee.service.table import sessions

from .samples import cover
from .test_api import GOOD, assert_error
from .test_import_batch import *  # noqa: F403 - the same tests, collected here too
from .test_import_batch import base, counts


@pytest.fixture(autouse=True)
def judge_beside(monkeypatch):
    monkeypatch.setattr(sessions, "BESIDE_HANDS", 0)


@pytest.fixture
def forks(monkeypatch):
    started = []
    stream = beside.stream
    monkeypatch.setattr(beside, "stream", lambda *job: started.append(1) or stream(*job))
    return started


# What differs between two imports of one log by design: ids, tokens, times,
# and that the second, a copy on purpose, says so (copy_of).
MINE = {"sessions": {"id", "created", "table_token_hash", "audit_token_hash", "copy_of"},
        "events": {"id", "session_id", "created", "prev_hash", "hash"},
        "hands": {"session_id", "last_event"}, "seats": {"session_id"}}


def stored(db, sid: str) -> dict[str, list[dict]]:
    out = {}
    for table, order in (("sessions", "id"), ("events", "seq"), ("hands", "n"),
                         ("seats", "hand, position")):
        rows = db.conn.execute(f"SELECT * FROM {table} WHERE "
                               f"{'id' if table == 'sessions' else 'session_id'} = ? "
                               f"ORDER BY {order}", (sid,))
        keys = [d[0] for d in rows.description]
        out[table] = [{k: v for k, v in zip(keys, row, strict=True) if k not in MINE[table]}
                      for row in rows]
    # The opening event holds a digest of the tokens (``locks``): mine too.
    opening = json.loads(out["events"][0]["payload"])
    opening.pop("locks", None)
    out["events"][0]["payload"] = opening
    first = db.conn.execute("SELECT min(id) FROM events WHERE session_id = ?",
                            (sid,)).fetchone()[0]
    # Each hand's newest event, counted from the session's first.
    out["last events"] = [r[0] - first for r in db.conn.execute(
        "SELECT last_event FROM hands WHERE session_id = ? ORDER BY n", (sid,))]
    return out


# The samples that between them have every feature (tests/samples.py): the
# rows a log makes follow from what it has.
@pytest.mark.parametrize("path", sorted(cover(tuple(GOOD))), ids=lambda p: p.name)
def test_both_ways_store_the_same_rows(app, monkeypatch, forks, path):
    db = storage.connect(app.config["DATABASE"])
    doc = json.loads(path.read_text())
    far = sessions.import_log(db, json.loads(json.dumps(doc))).id
    assert forks == [1]
    monkeypatch.setattr(sessions, "BESIDE_HANDS", 10**9)
    near = sessions.import_log(db, doc, copy=True).id  # the same log again, on purpose
    assert forks == [1]
    assert stored(db, far) == stored(db, near)
    assert sessions.result_text(db, far) == sessions.result_text(db, near)
    assert trust.verify_session(db, far) == []


def test_the_first_fault_is_reported_whichever_process_meets_it(app, client, forks):
    # Hand 1 breaks a rule (the replay's fault); hand 2's action cannot even
    # be read, which this process meets first while it encodes the events.
    doc = base()
    doc["hands"].append(json.loads(json.dumps(doc["hands"][0])))
    doc["hands"][0]["actions"].insert(0, doc["hands"][0]["actions"][1])
    doc["hands"][1]["actions"][0] = "Nobody: juggles"
    before = counts(app.config["DATABASE"])
    r = client.post("/api/sessions", json=doc)
    got = assert_error(r, 422)
    assert got["hand"] == 1 and got["action"] == 1
    assert forks == [1]
    assert counts(app.config["DATABASE"]) == before
    # Alone, hand 2's unreadable action is what is reported.
    doc["hands"][0] = base()["hands"][0]
    got = assert_error(client.post("/api/sessions", json=doc), 400)
    assert (got["hand"], got["action"]) == (2, 1)
    assert counts(app.config["DATABASE"]) == before


@pytest.mark.parametrize("after", [0, 1])
def test_a_crashed_second_process_loses_nothing(app, client, monkeypatch, forks, after):
    """The child dies before its first batch, or after it sent one: the
    import is judged again here, and stored once, whole."""
    monkeypatch.setattr(sessions, "BATCH", 1)
    judge, here = sessions.judge, os.getpid()

    def crashing(log):  # in the second process only
        for k, item in enumerate(judge(log)):
            if k == after and os.getpid() != here:
                raise MemoryError("the second process ran out")
            yield item
    monkeypatch.setattr(sessions, "judge", crashing)
    doc = base()
    assert len(doc["hands"]) > 1
    before = counts(app.config["DATABASE"])
    r = client.post("/api/sessions", json=doc)
    assert r.status_code == 201, r.get_json()
    assert forks == [1]
    db = storage.connect(app.config["DATABASE"])
    far = r.get_json()["id"]
    assert trust.verify_session(db, far) == []
    assert counts(app.config["DATABASE"])["sessions"] == before["sessions"] + 1
    monkeypatch.setattr(sessions, "BESIDE_HANDS", 10**9)
    near = client.post("/api/sessions", json={**doc, "copy": True}).get_json()["id"]
    assert stored(db, far) == stored(db, near)


def test_a_stream_left_unread_ends_its_child():
    items = beside.stream(iter, range(10**9))
    assert next(items) == 0
    items.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(items.pid, os.WNOHANG)


def test_no_second_process_to_be_had_imports_in_one(app, client, monkeypatch):
    def no_fork():
        raise OSError(11, "Resource temporarily unavailable")
    monkeypatch.setattr(beside.os, "fork", no_fork)
    r = client.post("/api/sessions", json=base())
    assert r.status_code == 201, r.get_json()
    db = storage.connect(app.config["DATABASE"])
    assert trust.verify_session(db, r.get_json()["id"]) == []


def test_in_one_process_a_refused_log_never_takes_the_write_lock(app, monkeypatch):
    monkeypatch.setattr(sessions, "BESIDE_HANDS", 10**9)
    monkeypatch.setattr(storage, "write", lambda db: pytest.fail("took the write lock"))
    doc = base()
    doc["hands"][0]["actions"].insert(0, doc["hands"][0]["actions"][1])  # out of turn
    with pytest.raises(RefereeError) as refused:
        sessions.import_log(storage.connect(app.config["DATABASE"]), doc)
    assert (refused.value.hand, refused.value.action) == (1, 1)


def test_a_fault_after_judged_batches_writes_none_of_them(app, client, monkeypatch, forks):
    """The hands are judged a batch at a time, so batches come before the
    replay's first fault: none is written."""
    monkeypatch.setattr(sessions, "BATCH", 2)
    doc = make_session(7)
    actions = doc["hands"][5]["actions"]
    actions.insert(0, actions[1])  # out of turn in hand 6
    before = counts(app.config["DATABASE"])
    got = assert_error(client.post("/api/sessions", json=doc), 422)
    assert (got["hand"], got["action"]) == (6, 1)
    assert forks == [1]
    assert counts(app.config["DATABASE"]) == before


def test_the_judge_keeps_one_batch_of_hands(monkeypatch):
    """What the judge holds does not grow with the log: each batch's hands
    are forgotten once settled (keeping them all for the settling held about
    5 KB a hand, a gigabyte at 200,000 hands)."""
    monkeypatch.setattr(sessions, "BATCH", 50)
    long = make_session(800, seed=3)
    short = {**long, "hands": long["hands"][:200]}
    for _ in sessions.judge(load_log(long)):
        pass  # the action texts parsed once (a cache bounded by its own size)

    def peak(doc: dict) -> int:
        log = load_log(json.loads(json.dumps(doc)))
        tracemalloc.start()
        try:
            for kind, _ in sessions.judge(log):
                assert kind != sessions.FAULT
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak(long) < 1.3 * peak(short)
