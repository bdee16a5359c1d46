"""The holes of the third trust pass (issue 34), each reproduced: a client id
reused across link roles, stored replies deleted, streams and refusals
without a cap, a long audit, and the smaller ones. (Unicode digits, rule
bounds, the Host header and the proxy have modules of their own:
test_digits, test_bounds, test_proxy.)"""

from __future__ import annotations

import pytest

from .test_api import Game, assert_error, bearer


def _link(g, role, player=None, client_id=None):
    body = {"role": role, **({"player": player} if player else {}),
            **({"client_id": client_id} if client_id else {})}
    return g.client.post(g.url("/links"), json=body, headers=bearer(g.table))


# ---------------------------------------------------------------- item 9

@pytest.mark.parametrize("first,then", [(("seat", "Ann"), ("viewer", None)),
                                        (("viewer", None), ("seat", "Ann")),
                                        (("seat", "Ann"), ("seat", "Ben"))])
def test_a_client_id_reused_for_another_link_is_refused(client, first, then):
    g = Game(client)
    r = _link(g, *first, client_id="same")
    assert r.status_code == 201
    token = r.get_json()["token"]
    again = _link(g, *first, client_id="same")  # the same request again: the same link
    assert again.status_code == 201 and again.get_json()["token"] == token
    assert_error(_link(g, *then, client_id="same"), 409, "client_id_reused")
    # The token handed out is still the first role's, and no other role's.
    me = client.get(g.url(), headers=bearer(token))
    assert me.status_code == 200


# ---------------------------------------------------------------- item 2

def _payment(g, client_id):
    return g.client.post(g.url("/payments"), json={"from": "Ann", "to": "Ben", "amount": "1",
                                                   "client_id": client_id},
                         headers=bearer(g.table))


def test_a_deleted_stored_answer_fails_verify(app, client, capsys):
    from .test_trust import played, raw, verify

    g = played(client)
    assert verify(app) == 0
    raw(app).execute("DELETE FROM replies WHERE session_id = ? AND client_id = 'u1'", [g.sid])
    assert verify(app) == 1
    assert "u1" in capsys.readouterr().out


def test_a_payment_retried_after_its_answer_was_deleted_fails_verify(app, client, capsys):
    from .test_trust import raw, verify

    g = Game(client)
    assert _payment(g, "pay-1").status_code == 201
    assert verify(app) == 0
    raw(app).execute("DELETE FROM replies WHERE session_id = ?", [g.sid])
    assert _payment(g, "pay-1").status_code == 201  # recorded twice: the answer was gone
    capsys.readouterr()
    assert verify(app) == 1
    said = capsys.readouterr().out
    assert "pay-1" in said


# ---------------------------------------------------------------- item 4

def _open(client, g, token):
    return client.get(g.url("/stream"), headers=bearer(token), buffered=False)


def test_one_link_or_one_table_cannot_take_every_stream(client):
    from referee.web import live

    g, other = Game(client, seed=1), Game(client, seed=2)
    viewer = _link(g, "viewer").get_json()["token"]
    seats_ = {p: _link(g, "seat", p).get_json()["token"] for p in ("Ann", "Ben", "Cy")}
    elsewhere = _link(other, "viewer").get_json()["token"]
    before = live.slots.open
    held = []
    try:
        for _ in range(live.PER_LINK):
            held.append(_open(client, g, viewer))
            assert held[-1].status_code == 200
        refused = _open(client, g, viewer)
        assert refused.status_code == 503 and refused.headers["Retry-After"]
        refused.close()
        for token in (seats_["Ann"], seats_["Ben"]):  # the table's other links still stream
            while len(held) < live.PER_TABLE and \
                    (r := _open(client, g, token)).status_code == 200:
                held.append(r)
        assert len(held) == live.PER_TABLE
        refused = _open(client, g, seats_["Cy"])
        assert refused.status_code == 503
        refused.close()
        r = _open(client, other, elsewhere)  # and another table is not kept out
        assert r.status_code == 200
        held.append(r)
    finally:
        for r in held:
            r.close()
    assert live.slots.open == before and not live.slots.held


# ---------------------------------------------------------------- item 5

def test_the_audit_stops_at_the_hands_first_fault(tmp_path, capsys):
    import json
    import time
    from pathlib import Path

    from referee.cli import main

    log = json.loads((Path(__file__).resolve().parents[1] / "sample_logs" /
                      "pagat_basic.json").read_text())
    actions = log["hands"][0]["actions"]
    log["hands"][0]["actions"] = [actions[1], *actions, *(["Ann: draw"] * 100_000)]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(log))
    t0 = time.monotonic()
    assert main(["audit", str(path), "--hand", "1", "--json"]) == 1
    took = time.monotonic() - t0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert len(steps) == 3 and steps[1]["status"] == "fault", steps[:3]
    assert took < 20, took


def test_a_refused_step_is_drawn_without_the_state_again():
    import json
    from pathlib import Path

    from referee.replay.audit import audit_hand
    from referee.reports import audit as paper
    from tests.reports_fixtures import pdf_text

    log = json.loads((Path(__file__).resolve().parents[1] / "sample_logs" /
                      "pagat_basic.json").read_text())
    events = [{"seq": k, "action": "Cy: draw", "status": "refused", "code": "not_your_turn",
               "message": "x"} for k in range(60)]
    text = pdf_text(paper.render_audit(audit_hand(log, 1, events)))
    assert text.count("a refusal changes nothing") == 60


def test_papers_are_drawn_a_few_at_a_time(app, monkeypatch):
    from referee.service.table import sessions
    from referee.web import reports
    from tests.reports_fixtures import session_log

    with app.app_context():
        info = sessions.import_log(app.extensions["referee"]["db"], session_log())
    client = app.test_client()
    url = f"/reports/{info.id}/settlement.pdf?token={info.audit_token}"
    monkeypatch.setattr(reports, "PAPER_WAIT", 0.2)
    for _ in range(reports.PAPERS_AT_ONCE):  # papers being drawn for other tables
        assert reports._papers.acquire(timeout=1)
    try:
        for path in (url, f"/reports/{info.id}/hands/1/audit.pdf?token={info.audit_token}"):
            r = client.get(path)
            assert r.status_code == 503 and r.headers["Retry-After"], r.status_code
            assert "try again" in r.get_data(as_text=True)
    finally:
        for _ in range(reports.PAPERS_AT_ONCE):
            reports._papers.release()
    assert client.get(url).status_code == 200


def test_refused_tries_are_limited_per_token(client):
    from referee.web import refusals

    g = Game(client)
    g.start()
    hand = g.sim.hand
    idle = next(p for p in hand.players if p != hand.players[hand.turn])
    seat = _link(g, "seat", idle).get_json()["token"]
    for k in range(refusals.MOST):
        r = g.post(f"{idle}: draw", client_id=f"r{k}", token=seat)
        assert r.status_code == 422, r.get_json()
    head = client.get(g.url(), headers=bearer(g.audit)).get_json()["head"]
    flooded = g.post(f"{idle}: draw", client_id="r-last", token=seat)
    assert_error(flooded, 429, "too_many_refusals")
    # Nothing was judged or written for it; the table's own token still plays.
    assert client.get(g.url(), headers=bearer(g.audit)).get_json()["head"] == head
    assert g.play()["seq"] == 1


# ---------------------------------------------------------------- item 10

@pytest.mark.parametrize("created", ["2020-01-01T00:00:00.000Z", "2099-01-01T00:00:00.000Z",
                                     "yesterday"])
def test_an_edited_session_creation_time_fails_verify(app, client, capsys, created):
    from .test_trust import played, raw, verify

    g = played(client)
    assert verify(app) == 0
    raw(app).execute("UPDATE sessions SET created = ? WHERE id = ?", [created, g.sid])
    assert verify(app) == 1
    assert "created" in capsys.readouterr().out


def test_a_sheet_url_too_long_for_a_qr_code_is_refused(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "referee.cli", "sheet",
                           "sample_logs/pagat_basic.json", "--pdf", str(tmp_path / "s.pdf"),
                           "--url", "http://x/" + "a" * 5000], capture_output=True, text=True,
                          cwd=root, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "QR code" in done.stderr


@pytest.mark.parametrize("key,warned", [("", True), ("sesame", False)])
def test_serve_lan_without_a_host_key_says_so_loudly(tmp_path, key, warned):
    """Said last, after the address's 17-line QR code (it was said before
    it, scrolled away at once), with the limit that holds instead."""
    import os
    import subprocess
    import sys

    from referee.commands.service import no_host_key
    from referee.service.access import OPENINGS

    proc = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--lan", "--port", "0",
                             "--db", str(tmp_path / "r.sqlite3")], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "REFEREE_HOST_KEY": key})
    try:
        said = []
        while not said or not said[-1].startswith("\u2580"):  # the QR code's last line
            said.append(proc.stdout.readline())
            assert said[-1], said
        if warned:
            said.append(proc.stdout.readline())
    finally:
        proc.terminate()
        said.append(proc.communicate(timeout=30)[0])
    assert any(no_host_key() in line for line in said) == warned, said
    if warned:
        assert said[-2].strip() == no_host_key() and f"{OPENINGS} every" in said[-2]


def test_a_revoked_seats_stream_ends_at_once(app, client):
    """Under referee serve's server (one writer for every stream) a revoked
    seat's stream got the table's events for up to LOOK (5) seconds more."""
    import time

    from .test_phones import _serve, _Stream

    g = Game(client)
    g.start()
    seat = _link(g, "seat", "Ann").get_json()["token"]
    srv = _serve(app, "waitress")
    try:
        s = _Stream(srv.server_port, g.url("/stream"), bearer(seat))
        s.next_event()
        r = client.post(g.url("/links/revoke"), json={"role": "seat", "player": "Ann"},
                        headers=bearer(g.table))
        assert r.status_code == 201, r.get_json()
        t0 = time.monotonic()
        while s.response.fp.readline():  # the revocation's event, then the answer's end
            assert time.monotonic() - t0 < 1.5, "the revoked seat's stream goes on"
        s.close()
    finally:
        srv.shutdown()


# Tables opened without a host key (item 10: about 400 a second from anyone).

def _open_from(client, address, forwarded=None):
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return client.post("/api/sessions", json={"stake": "1", "rules": "pagat",
                                              "players": ["Ann", "Ben"]},
                       headers=headers, environ_base={"REMOTE_ADDR": address})


def _openings_app(tmp_path, **config):
    from referee.service import access
    from referee.web import create_app

    from .conftest import TEST_CONFIG

    return create_app({**TEST_CONFIG, "DATABASE": str(tmp_path / "t.sqlite3"),
                       "OPENINGS": (access.OPENINGS, access.OPENINGS_WINDOW), **config})


def test_tables_opened_without_a_host_key_are_limited_per_address(tmp_path):
    from referee.service import access

    from .test_tablet import PIN, token

    client = _openings_app(tmp_path).test_client()
    for _ in range(access.OPENINGS):
        assert _open_from(client, "203.0.113.9").status_code == 201
    r = _open_from(client, "203.0.113.9")
    assert_error(r, 429, "too_many_tables")
    assert 0 < int(r.headers["Retry-After"]) <= access.OPENINGS_WINDOW
    assert "try again in" in r.get_json()["error"]["message"]
    # The tablet's form from that address says so, and opens nothing.
    form = {"csrf_token": token(client), "stake": "1", "currency": "USD", "preset": "pagat",
            "pin": PIN, "pin2": PIN, "player1": "Ann", "player2": "Ben"}
    page = client.post("/new", data=form, environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert page.status_code == 429 and int(page.headers["Retry-After"]) > 0
    assert "Too many new tables" in page.get_data(as_text=True)
    # Another address, and the same machine's IPv6 neighbour elsewhere, open theirs.
    assert _open_from(client, "198.51.100.7").status_code == 201
    assert _open_from(client, "2001:db8::1").status_code == 201
    page = client.post("/new", data=form, environ_base={"REMOTE_ADDR": "198.51.100.8"})
    assert page.status_code == 303


def test_an_ipv6_network_counts_as_one_address(tmp_path):
    from referee.service import access

    client = _openings_app(tmp_path, OPENINGS=(3, access.OPENINGS_WINDOW)).test_client()
    for k in range(3):
        assert _open_from(client, f"2001:db8:0:1::{k + 1}").status_code == 201
    assert_error(_open_from(client, "2001:db8:0:1::99"), 429, "too_many_tables")
    assert _open_from(client, "2001:db8:0:2::1").status_code == 201


def test_behind_a_trusted_proxy_tables_are_counted_per_client(tmp_path):
    client = _openings_app(tmp_path, TRUSTED_PROXIES=1, OPENINGS=(3, 600.0)).test_client()
    for _ in range(3):
        assert _open_from(client, "10.0.0.1", "203.0.113.9").status_code == 201
    assert_error(_open_from(client, "10.0.0.1", "203.0.113.9"), 429, "too_many_tables")
    assert _open_from(client, "10.0.0.1", "198.51.100.7").status_code == 201
    # A client's own X-Forwarded-For in front of the proxy's changes nothing.
    assert_error(_open_from(client, "10.0.0.1", "198.51.100.1, 203.0.113.9"), 429)


def test_the_host_keys_holder_opens_as_many_as_meant(tmp_path):
    client = _openings_app(tmp_path, REFEREE_HOST_KEY="sesame",
                           OPENINGS=(2, 600.0)).test_client()
    for _ in range(5):
        r = client.post("/api/sessions", json={"stake": "1", "rules": "pagat",
                                               "players": ["Ann", "Ben"]},
                        headers={"X-Host-Key": "sesame"})
        assert r.status_code == 201


def test_the_window_ends_and_the_address_opens_again(app):
    from referee.service import access, errors

    db = app.extensions["referee"].db()
    for _ in range(2):
        access.opening(db, "203.0.113.9", most=2, window=60, now=1000.0)
    with pytest.raises(errors.TooManyTries) as err:
        access.opening(db, "203.0.113.9", most=2, window=60, now=1059.0)
    assert err.value.until == 1060.0
    access.opening(db, "203.0.113.9", most=2, window=60, now=1060.5)


# The home page (item 10: it read every table, 19.7 ms at 4,314 tables).

def _home_cost(app, client, tables: int) -> tuple[int, list[str]]:
    """Open ``tables`` tables, unlock the last three on this device; the
    home page's SQLite instructions and the tables it lists."""
    import re

    from referee.service.table import sessions

    db = app.extensions["referee"].db()
    ids = [sessions.create_session(db, {"stake": "1", "rules": "pagat", "table": f"T{k}",
                                        "players": ["Ann", "Ben"]}).id for k in range(tables)]
    with client.session_transaction() as s:
        s["unlocked"] = ids[-3:]
    steps = [0]

    def count():
        steps[0] += 1
    db.conn.set_progress_handler(count, 1)
    try:
        page = client.get("/").get_data(as_text=True)
    finally:
        db.conn.set_progress_handler(None, 1)
    return steps[0], re.findall(r">(T\d+)</a>", page)


@pytest.mark.parametrize("tables", [300])
def test_the_home_page_reads_only_this_devices_tables(app, client, tables):
    few, listed = _home_cost(app, client, 3)
    assert listed == ["T2", "T1", "T0"]  # newest first
    many, listed = _home_cost(app, client, tables)
    assert listed == [f"T{tables - 1}", f"T{tables - 2}", f"T{tables - 3}"]
    # Its database work does not grow with the tables the service holds.
    assert many < few * 1.5, (few, many)


# Memory per table touched (item 10: 57 -> 195 MB over 9,000 tables).

def _touch(client, k: int) -> None:
    g = Game(client, seed=k)
    g.start()
    g.play()
    client.get(g.url(), headers=bearer(g.table))
    r = _open(client, g, g.audit)
    next(r.response, None)
    r.close()


def test_what_the_process_keeps_of_a_table_touched_stays_bounded(app, client):
    """What a table leaves in this process once nobody is using it: its lock,
    its bell, its refusal counts. Each was kept for every table ever
    touched (the live states and texts are kept in LRUs of their own)."""
    import gc

    from referee.service.table import cache, changes
    from referee.web import refusals

    before = len(cache._locks), len(changes._bells), len(refusals._refused)
    for k in range(60):
        _touch(client, k)
    gc.collect()
    assert (len(cache._locks), len(changes._bells), len(refusals._refused)) == before
