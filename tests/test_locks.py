"""Locks that hold: wrong PINs counted in the database per table (surviving
a restart, shared by a second process), unlock links that only lead within
the site, and a home page that lists only the tables this device unlocked."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from referee.service import access, storage
from referee.service.errors import TooManyTries
from referee.web import create_app

from .conftest import BOTH_BACKENDS, TEST_CONFIG
from .test_tablet import PIN, create, token


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


def wrong_tries(client, sid, k=5):
    tok = token(client, f"/s/{sid}/unlock")
    for _ in range(k):
        r = client.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": "0000"})
        assert r.status_code == 403


def right_pin(client, sid):
    tok = token(client, f"/s/{sid}/unlock")
    return client.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": PIN})


def test_the_limit_survives_a_restart(app, client):
    sid = create(client)
    wrong_tries(app.test_client(), sid)
    restarted = create_app({**TEST_CONFIG, "DATABASE": app.config["DATABASE"]})
    r = right_pin(restarted.test_client(), sid)
    assert r.status_code == 429
    assert "try again at" in r.data.decode()


def test_the_limit_is_shared_by_a_second_process(app, client):
    sid = create(client)
    wrong_tries(app.test_client(), sid)
    code = ("import sys; from referee.service import access, storage; "
            "from referee.service.errors import TooManyTries\n"
            f"db = storage.connect({app.config['DATABASE']!r})\n"
            "try:\n"
            f"    access.unlock(db, {sid!r}, {PIN!r}, address='127.0.0.1')\n"
            "except TooManyTries:\n"
            "    sys.exit(7)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert done.returncode == 7, done.stderr.decode()


def test_the_wait_grows_and_ends(app, client):
    sid = create(client)
    db = storage.connect(app.config["DATABASE"])
    t = 1_000_000.0
    for _ in range(access.FREE_TRIES):
        assert access.unlock(db, sid, "0000", now=t) is False
    waits = []
    for _ in range(3):
        with pytest.raises(TooManyTries) as caught:
            access.unlock(db, sid, PIN, now=t)
        waits.append(caught.value.until - t)
        t = caught.value.until  # the wait is over: one more wrong try
        assert access.unlock(db, sid, "0000", now=t) is False
    assert waits[0] == access.FIRST_WAIT and waits[1] > waits[0]
    t += access.LONGEST_WAIT
    assert access.unlock(db, sid, PIN, now=t) is True
    assert access.unlock(db, sid, "0000", now=t) is False  # counting starts again


@pytest.mark.parametrize("target", ["/\t/evil.example", "/\n/evil.example", "/\\evil.example",
                                    "//evil.example", "https://evil.example/", "/\r/x",
                                    "javascript:alert(1)", " /x"])
def test_unlock_follows_only_a_path_of_this_site(app, client, target):
    sid = create(client)
    other = app.test_client()
    tok = token(other, f"/s/{sid}/unlock")
    r = other.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": PIN, "next": target})
    assert r.status_code == 303
    assert r.headers["Location"] == f"/s/{sid}"


def test_unlock_follows_a_path_of_this_site(app, client):
    sid = create(client)
    other = app.test_client()
    tok = token(other, f"/s/{sid}/unlock")
    r = other.post(f"/s/{sid}/unlock",
                   data={"csrf_token": tok, "pin": PIN, "next": f"/s/{sid}/hands/new"})
    assert r.headers["Location"] == f"/s/{sid}/hands/new"


def test_home_lists_only_the_tables_this_device_unlocked(app, client):
    mine = create(client, table="Mine")
    stranger = app.test_client()
    theirs = create(stranger, players=("Zed", "Yul"), table="Theirs")
    page = client.get("/").data.decode()
    # Names as words: a page's random CSRF token may hold the letters.
    assert f"/s/{mine}" in page and f"/s/{theirs}" not in page and not re.search(r"\bZed\b", page)
    fresh = app.test_client().get("/").data.decode()
    assert f"/s/{mine}" not in fresh and not re.search(r"\bAnn\b", fresh)
    assert 'name="session_id"' in fresh  # open a table by its id


@pytest.mark.parametrize("page", ["/new", "/club/unlock"])
def test_wrong_host_keys_are_counted_by_every_server(app, page):
    """Wrong host keys from one address, on one app server, make a second
    server (another app on the same database) wait too; the right key then
    starts the count again."""
    config = {**TEST_CONFIG, "DATABASE": app.config["DATABASE"], "REFEREE_HOST_KEY": "hostkey"}
    first, second = create_app(config), create_app(config)

    def attempt(server, key):
        client = server.test_client()
        data = {"csrf_token": token(client, page), "host_key": key}
        if page == "/new":
            data.update(stake="1", preset="pagat", pin=PIN, pin2=PIN, player1="Ann",
                        player2="Ben")
        return client.post(page, data=data, environ_base={"REMOTE_ADDR": "10.0.0.7"})

    for _ in range(access.FREE_TRIES):
        assert attempt(first, "nope").status_code == 403
    r = attempt(second, "hostkey")
    assert r.status_code in (403, 429) and "Too many wrong host keys" in r.data.decode()
    db = storage.connect(app.config["DATABASE"])
    storage.run_write(db, lambda w: storage.attempts.clear(
        w, access.HOST_KEY, f"{'new table' if page == '/new' else 'club'} 10.0.0.7"))
    assert attempt(second, "hostkey").status_code in (302, 303)
    assert attempt(first, "nope").status_code == 403  # counting from the start again


def _written(db) -> object:
    """What changes whenever a row of the tries or their anchors is
    written: SQLite's count of the rows this connection changed (the app's
    requests run on it), PostgreSQL's transaction ids of the rows."""
    if not storage.is_pg(db):
        return db.conn.total_changes
    return sorted(r[0] for table in ("attempts", "anchors") for r in db.conn.execute(
        f"SELECT xmin::text FROM {table}"))


def test_a_request_with_the_right_host_key_writes_nothing(app, client):
    """Each API request carries the host key: its try was counted (a
    commit) then cleared (a second), with the tries' anchor moved in each.
    Answered in one write, a right key with nothing counted before it
    writes no row; a wrong one is still counted, and a waiting address is
    refused with the right key too."""
    app.config["REFEREE_HOST_KEY"] = "hostkey"
    db = app.extensions["referee"].db()
    right, wrong = {"X-Host-Key": "hostkey"}, {"X-Host-Key": "nope"}
    assert client.get("/api/club/people", headers=right).status_code == 200
    before = _written(db)
    for _ in range(3):
        assert client.get("/api/club/people", headers=right).status_code == 200
    assert _written(db) == before
    for _ in range(access.FREE_TRIES):
        assert client.get("/api/club/people", headers=wrong).status_code == 403
    assert _written(db) != before
    assert client.get("/api/club/people", headers=right).status_code == 429


def test_wrong_host_keys_sent_at_once_meet_the_limit(app):
    """Tries sent together, each on its own connection: a wrong key is
    answered only once counted, after every try before it, so no more than
    the free tries are told "wrong" before the address waits, however many
    race (a right key read without the lock is answered as one made before
    any count it does not see)."""
    import threading

    path, answers = app.config["DATABASE"], []
    start = threading.Barrier(12)
    # One moment for all: a try timed before another's counted one sees
    # that one's free wait ending after its own time, and waits a second.
    now = 1_800_000_000.0

    def guess() -> None:
        db = storage.connect(path)
        start.wait()
        try:
            answers.append(access.host_key(db, "hostkey", "nope", "api", "203.0.113.77",
                                           now=now))
        except TooManyTries:
            answers.append("wait")

    threads = [threading.Thread(target=guess) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert sorted(answers, key=str) == [False] * access.FREE_TRIES + ["wait"] * (
        12 - access.FREE_TRIES)
    with pytest.raises(TooManyTries):
        access.host_key(storage.connect(path), "hostkey", "hostkey", "api", "203.0.113.77",
                        now=now)
