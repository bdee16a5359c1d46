"""Storage: migrations, pragmas, the append-only hash chain and its verification,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from referee.commands.service import cmd_verify
from referee.devtools.simulate import random_session
from referee.record.chain import canonical, event_hash
from referee.service import storage
from referee.service.errors import StaleSeq
from referee.service.table import cache, hands, sessions
from referee.service.table.action import log_action

from .conftest import BOTH_BACKENDS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def db(database):
    cache.forget()
    return storage.connect(database)


def drop_guard(db, trigger):
    """An attacker with the database: drop one of the append-only triggers."""
    on = " ON events" if storage.is_pg(db) else ""
    db.execute(f"DROP TRIGGER {trigger}{on}")


def test_migrations_are_numbered_and_tracked(db, database):
    schema = storage.schema
    assert {"sessions", "seats", "hands", "events", "replies"} <= set(schema.table_names(db))
    assert schema.applied_migrations(db) == ["m001_initial", "m002_replies_refused",
                                             "m003_table_events", "m004_chain_v2",
                                             "m005_club", "m006_running_totals",
                                             "m007_reply_requests", "m008_anchors",
                                             "m009_attempts_anchored_by_group", "m010_copy_of"]
    assert [fn.__name__ for fn in schema.MIGRATIONS] == schema.applied_migrations(db)
    # migrating again is a no-op
    assert storage.schema.pending_migrations(storage.connect(database)) == []


def test_pragmas(tmp_path):
    db = storage.connect(tmp_path / "s.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    assert db["events"].strict


def test_postgresql_commits_are_durable(pg_server):
    db = storage.connect(pg_server)
    assert db.execute("SHOW synchronous_commit").fetchone()[0] == "on"
    assert db.execute("SHOW fsync").fetchone()[0] == "on"


def test_events_are_append_only(db):
    info = sessions.import_log(db, random_session(1, hands=1))
    with pytest.raises(Exception, match="append-only"):
        db.execute("UPDATE events SET payload = '{}' WHERE session_id = ?", [info.id])
    with pytest.raises(Exception, match="append-only"):
        db.execute("DELETE FROM events WHERE session_id = ?", [info.id])
    if storage.is_pg(db):
        with pytest.raises(Exception, match="append-only"):
            db.execute("TRUNCATE events CASCADE")
    assert storage.chain.verify_all(db)[info.id] is None


def test_chain_verifies_and_names_the_tampered_event(db, database, capsys):
    good = sessions.import_log(db, random_session(2, hands=2))
    bad = sessions.import_log(db, random_session(3, hands=2))
    report = storage.chain.verify_all(db)
    assert report == {good.id: None, bad.id: None}
    # an attacker with the database: drop the guard and edit the fifth event
    drop_guard(db, "events_no_update")
    row = db.execute("SELECT id, payload FROM events WHERE session_id = ? AND seq = 5",
                     [bad.id]).fetchone()
    payload = json.loads(row[1])
    payload["action"] = payload.get("action", "") + "x"
    db.execute("UPDATE events SET payload = ? WHERE id = ?", [canonical(payload),
                                                              row[0]])
    report = storage.chain.verify_all(db)
    assert report[good.id] is None
    assert report[bad.id]["seq"] == 5 and report[bad.id]["id"] == row[0]
    assert "hash" in str(report[bad.id]["reason"])

    class Args:
        db = database
        log = session = head = lang = None
    assert cmd_verify(Args) == 1
    out = capsys.readouterr().out
    assert f"session {bad.id}: event 5" in out


def test_rehashed_edit_breaks_the_next_link(db):
    info = sessions.import_log(db, random_session(4, hands=1))
    drop_guard(db, "events_no_update")
    row = db.execute("SELECT * FROM events WHERE session_id = ? AND seq = 3",
                     [info.id]).fetchone()
    cols = [d[0] for d in db.execute("SELECT * FROM events LIMIT 0").description]
    ev = dict(zip(cols, row, strict=True))
    ev["payload"] = canonical({"action": "Ann: drop", "text": "Ann: drop"})
    ev["hash"] = event_hash(ev["prev_hash"], ev)
    db.execute("UPDATE events SET payload = ?, hash = ? WHERE id = ?",
               [ev["payload"], ev["hash"], ev["id"]])
    fault = storage.chain.verify_all(db)[info.id]
    assert fault["seq"] == 4 and "prev_hash" in str(fault["reason"])


def test_deleted_event_is_detected(db):
    info = sessions.import_log(db, random_session(5, hands=1))
    drop_guard(db, "events_no_delete")
    db.execute("DELETE FROM events WHERE session_id = ? AND seq = 4", [info.id])
    fault = storage.chain.verify_all(db)[info.id]
    assert fault["seq"] == 5 and "missing" in str(fault["reason"])


def test_write_rolls_back_on_error(db):
    info = sessions.import_log(db, random_session(6, hands=1))
    before = db.execute("SELECT count(*) FROM events").fetchone()[0]
    with pytest.raises(RuntimeError), storage.write(db):
        storage.events.append(db, info.id, None, "action", {"x": 1})
        raise RuntimeError("boom")
    assert db.execute("SELECT count(*) FROM events").fetchone()[0] == before
    assert storage.chain.verify_all(db)[info.id] is None


def test_threads_with_their_own_connections_never_interleave(database):
    """Several writers on one session: every event lands, the chain is whole."""
    path = database
    db = storage.connect(path)
    info = sessions.import_log(db, random_session(8, hands=1))
    errors = []

    def writer(k):
        conn = storage.connect(path)
        try:
            for i in range(25):
                with storage.write(conn):
                    storage.events.append(conn, info.id, None, "note", {"k": k, "i": i})
        except Exception as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert storage.chain.verify_all(db)[info.id] is None
    assert db.execute("SELECT count(*) FROM events WHERE kind = 'note'").fetchone()[0] == 150


def test_concurrent_posts_to_one_hand_log_each_seq_once(database):
    """Two tablets race the same expected_seq: one wins, the other gets 409."""
    from referee.devtools.loadgen import SimTable

    path = database
    db = storage.connect(path)
    sim = SimTable(3)
    info = sessions.create_session(db, sim.header())
    hands.start_hand(db, info.id, sim.next_setup())
    text = sim.next_action()
    answers = []
    barrier = threading.Barrier(4)

    def tablet(k):
        conn = storage.connect(path)
        barrier.wait()
        try:
            log_action(conn, info.id, 1, [text], f"t{k}", 0).answer()
            answers.append("logged")
        except StaleSeq:
            answers.append("stale")

    threads = [threading.Thread(target=tablet, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == ["logged", "stale", "stale", "stale"]
    assert hands.hand_state(db, info.id, 1)["seq"] == 1
    assert storage.chain.verify_all(db)[info.id] is None


def counted_in_the_file(path, sql: str, params: tuple, want: int | None,
                        seconds: float = 10) -> int | None:
    """``sql``'s count in the database file alone (the WAL ignored), read
    until it is ``want`` or ``seconds`` have passed: what a checkpoint has
    copied in. Until the first checkpoint the file may hold no table at all
    (the schema is in the WAL too): not there yet, as a count short of
    ``want`` is."""
    import sqlite3
    import time

    deadline, count = time.monotonic() + seconds, None
    while True:
        time.sleep(0.05)
        raw = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        try:
            count = raw.execute(sql, params).fetchone()[0]
        except sqlite3.OperationalError:  # "no such table": nothing copied in yet
            count = None
        finally:
            raw.close()
        if count == want or time.monotonic() >= deadline:
            return count


def test_group_commit_checkpoints_beside_the_writer(tmp_path):
    """The writer's connection never checkpoints inside a commit; the
    checkpointing thread copies the committed pages into the database file."""
    path = tmp_path / "g.sqlite3"
    committer = storage.GroupCommitter(path)
    committer.CHECKPOINT_EVERY = 5
    assert committer.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    info = sessions.create_session(storage.connect(path), {"players": ["Ann", "Ben"],
                                                       "stake": "1", "rules": "pagat"})
    for i in range(20):
        committer.submit(lambda w, i=i: storage.events.append(w, info.id, None, "note",
                                                             {"i": i}))
    # The database file alone (the WAL ignored) gets the events, shortly.
    assert counted_in_the_file(path, "SELECT count(*) FROM events WHERE kind = 'note'", (),
                               20) == 20
    assert storage.chain.verify_all(storage.connect(path))[info.id] is None


def test_writes_beside_a_group_committer_leave_checkpoints_to_its_thread(tmp_path):
    """With a group committer in the process (the service's way), a request's
    own connection never checkpoints inside its commit (a long import copied
    its whole WAL into the file there): the committer's checkpointing thread
    is woken by the write and copies the pages in."""
    path = tmp_path / "w.sqlite3"
    alone = storage.connect(path)
    assert alone.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
    storage.enable_group_commit(path)
    try:
        db = storage.connect(path)
        assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        info = sessions.import_log(db, json.loads(
            (ROOT / "sample_logs" / "chicago_wild.json").read_text()))
        events = len(storage.chain.rows_by_name(db, info.id))
        assert counted_in_the_file(path, "SELECT count(*) FROM events WHERE session_id = ?",
                                   (info.id,), events) == events
    finally:
        storage.forget_group_commit(path)


class _Checkpoints:
    """The checkpointing thread's connection, the answers of its checkpoints
    kept: (busy, frames in the WAL, frames copied into the file)."""

    def __init__(self, db) -> None:
        self.db, self.answers = db, []

    def execute(self, sql: str, *params):
        rows = self.db.execute(sql, *params)
        if "wal_checkpoint" not in sql:
            return rows
        answer = rows.fetchone()
        self.answers.append(answer)
        return SimpleNamespace(fetchone=lambda: answer)

    def __getattr__(self, name: str):
        return getattr(self.db, name)


def test_a_checkpoint_stopped_short_by_a_reader_is_tried_again(tmp_path):
    """A reader that holds an older snapshot (verify reading a night) stops
    the passive checkpoint short of the last write; once it is done, the
    checkpointing thread copies the rest in without waiting for a next write
    (the night's last write may be the last)."""
    import time

    path = tmp_path / "r.sqlite3"
    storage.connect(path)
    committer = storage.enable_group_commit(path)
    checkpoints = committer.checkpoint_db = _Checkpoints(committer.checkpoint_db)
    try:
        db = storage.connect(path)
        reader = storage.connect(path)
        reader.conn.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM events").fetchone()[0] == 0
        info = sessions.import_log(db, json.loads(
            (ROOT / "sample_logs" / "chicago_wild.json").read_text()))
        events = len(storage.chain.rows_by_name(db, info.id))
        # The checkpointing thread tried after the writes and stopped short
        # of the reader's snapshot (waited for, not slept on: a reader let go
        # before that try would leave nothing to try again).
        deadline = time.monotonic() + 60
        while not any(busy or copied < frames for busy, frames, copied in checkpoints.answers):
            assert time.monotonic() < deadline, checkpoints.answers
            time.sleep(0.01)
        assert counted_in_the_file(path, "SELECT count(*) FROM events", (), None,
                                   seconds=0) in (None, 0)
        reader.conn.execute("ROLLBACK")
        assert counted_in_the_file(path, "SELECT count(*) FROM events WHERE session_id = ?",
                                   (info.id,), events) == events
    finally:
        storage.forget_group_commit(path)


def test_group_commit_keeps_each_job_apart(database):
    """Jobs from many threads share commits; a job that fails leaves nothing
    behind (its savepoint rolled back), on either database."""
    committer = storage.GroupCommitter(database)
    db = storage.connect(database)
    info = sessions.create_session(db, {"players": ["Ann", "Ben"], "stake": "1",
                                        "rules": "pagat"})

    def job(w, i):
        storage.events.append(w, info.id, None, "note", {"i": i})
        if i % 5 == 0:
            raise ValueError(i)

    failed = []

    def submit(i):
        try:
            committer.submit(lambda w: job(w, i))
        except ValueError:
            failed.append(i)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    committer.stop()
    assert sorted(failed) == list(range(0, 40, 5))
    notes = [json.loads(e["payload"])["i"] for e in storage.chain.rows(db, info.id)
             if e["kind"] == "note"]
    assert sorted(notes) == [i for i in range(40) if i % 5]
    assert storage.chain.verify_all(db)[info.id] is None


def test_verify_runs_on_a_read_only_replica(pg_server, capsys):
    """``referee verify --db URL`` on a hot standby: a connection that may not
    write (here: every transaction read-only) checks the chains and a receipt."""
    from urllib.parse import quote

    from referee.cli import main

    from .conftest import new_pg_schema

    url = new_pg_schema(pg_server)
    db = storage.connect(url)
    info = sessions.import_log(db, random_session(9, hands=2))
    head = storage.chain.final_hash(db, info.id)
    # the schema's URL has its search_path in options: one more setting there
    replica = url.replace("options=", f"options={quote('-c default_transaction_read_only=on ')}")
    ro = storage.connect(replica)
    with pytest.raises(Exception, match="read-only"):
        ro.execute("INSERT INTO aliases (spelling, person) VALUES ('a', 'b')")
    assert main(["verify", "--db", replica]) == 0
    assert main(["verify", "--db", replica, "--session", info.id, "--head", head]) == 0
    assert main(["verify", "--db", replica, "--session", info.id, "--head", "0" * 64]) == 1
    assert f"no session here has the head {'0' * 64}" in capsys.readouterr().out


def test_placeholders_are_translated_for_psycopg():
    from referee.service.storage.pg import safe_url, translate

    assert translate("SELECT a FROM t WHERE b = ? AND c = :name") == \
        "SELECT a FROM t WHERE b = %s AND c = %(name)s"
    # quoted text, casts and a literal % are left as they mean
    assert translate("SELECT '?:x', x::int, 'it''s ?' FROM t WHERE y LIKE 'a%' AND z = ?") == \
        "SELECT '?:x', x::int, 'it''s ?' FROM t WHERE y LIKE 'a%%' AND z = %s"
    assert safe_url("postgresql://u:secret@h/db") == "postgresql://u:***@h/db"
    assert safe_url("postgresql://u@h/db") == "postgresql://u@h/db"


def test_servers_starting_together_migrate_once(pg_server):
    """Three processes open a new PostgreSQL schema at once: each waits for
    the write lock, one migrates, and every migration is applied once."""
    import subprocess
    import sys

    from .conftest import new_pg_schema

    url = new_pg_schema(pg_server)
    code = f"from referee.service import storage; storage.connect({url!r})"
    procs = [subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
             for _ in range(3)]
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err.decode()
    db = storage.connect(url)
    migrations = storage.schema.MIGRATIONS
    assert storage.schema.applied_migrations(db) == [fn.__name__ for fn in migrations]
    rows = db.execute(f"SELECT count(*) FROM {storage.schema.MIGRATIONS_TABLE}").fetchone()[0]
    assert rows == len(storage.schema.MIGRATIONS)


@pytest.mark.parametrize("value", [
    {"hand": 1, "story": ["Ann wins", "Zoë pays"], "net": {"Ann": "1.50"}},
    {"multiplier": 2**70},  # past 64 bits: orjson refuses it, json.dumps writes it
    {"name": "\ud800"},  # a lone surrogate: likewise
    {1: "a key that is not text"},
])
def test_json_columns_read_back_as_written(value):
    text = storage.to_json(value)
    assert json.loads(text) == json.loads(json.dumps(value))
