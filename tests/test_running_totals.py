"""The running totals kept as hands are written (``referee.service.money.totals``,
migration m006): equal to summing every stored result again, whatever the
table did (undo, void, payments, a rename, side bets); checked by verify;
read a page at a time. And the batched import writes the chain the
per-event path writes."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest

from referee.devtools.simulate import random_session
from referee.ledger.money import fmt
from referee.ledger.running import chain
from referee.ledger.side_bets import Pots, SideBetOutcome
from referee.record.chain import event_hash
from referee.rules.hand import VOID
from referee.rules.options import resolve
from referee.service import storage, trust
from referee.service.money.results import session_quantum
from referee.service.table import sessions
from referee.service.table.live_state import session_row

from .test_api import Game, bearer
from .test_trust import raw, verify


@pytest.fixture
def backend():
    """SQLite, whatever REFEREE_TEST_BACKEND says: some of these tests tamper
    with the SQLite file itself."""
    return "sqlite"

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def summed_again(db, sid: str) -> list[dict]:
    """Each settled hand's nets and totals as standings summed them before the
    running rows: every stored result, the side-bet pots carried in order."""
    row = session_row(db, sid)
    q = session_quantum(row, resolve(row["rules_expanded"]))
    sums = {p: Decimal(0) for p in row["everyone"]}
    pots, out = Pots(), []
    for r in storage.hands.complete_results(db, sid):
        net = r["net"]
        if r.get("side_bets"):
            won, _ = pots.settle(SideBetOutcome.from_json(o) for o in r["side_bets"])
            exact = {p: Decimal(v) + won.get(p, Decimal(0)) for p, v in r["net_exact"].items()}
            r["net_exact"] = {p: str(v) for p, v in exact.items()}
            net = {p: fmt(v, q) for p, v in exact.items()}
        for p, v in r["net_exact"].items():
            sums[p] = sums.get(p, Decimal(0)) + Decimal(v)
        out.append({"hand": r["hand"], "net": net,
                    "totals": {p: fmt(v, q) for p, v in sums.items()}})
    return out


def assert_running_right(db, sid: str) -> None:
    want = summed_again(db, sid)
    got = sessions.standings(db, sid)
    assert [{k: h[k] for k in ("hand", "net", "totals")} for h in got["hands"]] == want
    if want:
        assert got["totals"] == want[-1]["totals"]
    assert (storage.running.settled_count(db, sid) == storage.running.counted_settled(db, sid)
            == len(want))
    stored = [(n, r) for n, r in storage.hands.results_from(db, sid, 1)]
    assert [(n, json.loads(json.dumps(r))) for n, r in chain(None, stored)] == \
        [(n, r["running"]) for n, r in ((h["n"], h) for h in storage.hands.all_rows(db, sid))]


@pytest.mark.parametrize("seed", range(4))
def test_running_totals_after_a_random_live_night(app, client, seed):
    rng = random.Random(seed)
    g = Game(client, seed=seed)
    db = storage.connect(app.config["DATABASE"])
    for _ in range(8):
        g.start()
        roll = rng.random()
        if roll < 0.2:
            r = client.post(g.url(f"/hands/{g.n}/void"), json={"reason": "misdeal"},
                            headers=bearer(g.table))
            assert r.status_code == 201, r.get_json()
            g.sim.hand.phase = VOID  # the local copy follows the table
            continue
        g.finish_hand()
        if roll < 0.5:  # the completing action taken back (a dispute corrected), logged again
            g.correct_last(f"u{g.n}")
            assert [h["hand"] for h in sessions.standings(db, g.sid)["hands"]][-1:] != [g.n]
            assert_running_right(db, g.sid)
            r = g.post(str(g.sim.hand.actions[-1]))
            assert r.status_code == 201, r.get_json()
            g.seq += 1
        if roll < 0.7:
            r = client.post(g.url("/payments"), json={"from": "Ann", "to": "Ben",
                                                      "amount": "0.25"},
                            headers=bearer(g.table))
            assert r.status_code == 201, r.get_json()
        assert_running_right(db, g.sid)
    r = client.post(g.url("/players/Ben"), json={"name": "Benny"}, headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    assert_running_right(db, g.sid)
    assert all("Ben" not in h["totals"] for h in sessions.standings(db, g.sid)["hands"])
    assert verify(app) == 0


@pytest.mark.parametrize("name", ["opt_side_bets.json", "pagat_basic.json",
                                  "evt_night_through_the_service.json"])
def test_running_totals_of_imported_samples(app, client, name):
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"no {name}")
    r = client.post("/api/sessions", json=json.loads(path.read_text()))
    assert r.status_code == 201, r.get_json()
    db = storage.connect(app.config["DATABASE"])
    assert_running_right(db, r.get_json()["id"])
    assert verify(app) == 0


def test_a_tampered_running_total_fails_verify(app, client):
    g = Game(client, seed=5)
    for _ in range(2):
        g.start()
        g.finish_hand()
    assert verify(app) == 0
    conn = raw(app)
    running = json.loads(conn.execute("SELECT running FROM hands WHERE n = 1").fetchone()[0])
    name = next(iter(running["totals"]))
    running["totals"][name] = str(Decimal(running["totals"][name]) + 1)
    conn.execute("UPDATE hands SET running = ? WHERE n = 1", [json.dumps(running)])
    assert verify(app) == 1
    db = storage.connect(app.config["DATABASE"])
    assert any("running totals" in str(f) for f in trust.verify_session(db, g.sid))


def test_a_tampered_count_of_settled_hands_fails_verify(app, client):
    g = Game(client, seed=6)
    g.start()
    g.finish_hand()
    assert verify(app) == 0
    raw(app).execute("UPDATE sessions SET settled = settled + 1")
    assert verify(app) == 1


def test_standings_read_a_page(app, client):
    log = random_session(11, hands=30)
    r = client.post("/api/sessions", json=log)
    sid, token = r.get_json()["id"], r.get_json()["table_token"]
    db = storage.connect(app.config["DATABASE"])
    whole = sessions.standings(db, sid)
    page = sessions.standings(db, sid, offset=10, limit=5)
    assert page["hands"] == whole["hands"][10:15]
    assert page["totals"] == whole["totals"] and page["transfers"] == whole["transfers"]
    assert page["settled"] == whole["settled"] == len(whole["hands"])
    api = client.get(f"/api/sessions/{sid}/standings?offset=10&limit=5",
                     headers=bearer(token)).get_json()
    assert api["hands"] == whole["hands"][10:15] and api["settled"] == len(whole["hands"])
    newest = client.get(f"/api/sessions/{sid}/standings", headers=bearer(token)).get_json()
    assert newest["hands"][-1] == whole["hands"][-1]
    assert client.get(f"/api/sessions/{sid}/result", headers=bearer(token)).get_json() == \
        whole["result"]


def test_the_import_writes_the_chain_the_per_event_path_writes(app, client, monkeypatch):
    # One clock for the events and the session's row: verify holds the row's
    # created to its first event's (issue 34 item 10).
    monkeypatch.setattr(storage.events, "now", lambda: "2026-11-23T23:00:00.000Z")
    monkeypatch.setattr(storage.sessions, "now", lambda: "2026-11-23T23:00:00.000Z")
    r = client.post("/api/sessions", json=random_session(3, hands=12))
    sid = r.get_json()["id"]
    db = storage.connect(app.config["DATABASE"])
    rows = storage.chain.rows(db, sid)
    assert trust.verify_session(db, sid) == []
    # The same events appended one at a time, as the service did before
    # batching, into an empty database: the same hashes, event for event.
    other = storage.connect(":memory:")
    other.execute("PRAGMA foreign_keys = OFF")  # the events alone, without their session
    with storage.write(other):
        other.conn.executemany("INSERT INTO events (id, chain, session_id, hand, seq, kind, "
                               "payload, created, prev_hash, hash) VALUES "
                               "(?, 2, 'x', NULL, 1, 'pad', '{}', '', '', ?)",
                               [(i, rows[0]["prev_hash"] if i == rows[0]["id"] - 1 else "h")
                                for i in range(1, rows[0]["id"])])
        again = [storage.events.append(other, sid, row["hand"], row["kind"],
                                       json.loads(row["payload"])) for row in rows]
    assert [a["hash"] for a in again] == [row["hash"] for row in rows]
    assert again[-1]["hash"] == storage.chain.final_hash(db, sid)
    assert all(event_hash(row["prev_hash"], row) == row["hash"] for row in rows)



def test_the_standings_page_and_the_reports_index_are_paged(client):
    from .test_tablet import token

    r = client.post("/api/sessions", json=random_session(12, hands=120))
    sid, table = r.get_json()["id"], r.get_json()["table_token"]
    r = client.post(f"/s/{sid}/unlock", data={"csrf_token": token(client, f"/s/{sid}/unlock"),
                                              "pin": table})
    assert r.status_code in (302, 303)
    settled = sessions.standings(storage.connect(client.application.config["DATABASE"]),
                                 sid)["hands"]
    newest = client.get(f"/s/{sid}/standings").get_data(as_text=True)
    assert f'<th scope="row">{settled[-1]["hand"]}</th>' in newest
    assert f'<th scope="row">{settled[0]["hand"]}</th>' not in newest and "Older hands" in newest
    last = client.get(f"/s/{sid}/standings?page=99").get_data(as_text=True)
    assert f'<th scope="row">{settled[0]["hand"]}</th>' in last and "Newer hands" in last
    index = client.get(f"/reports/{sid}/").get_data(as_text=True)
    assert f"/reports/{sid}/hands/{settled[-1]['hand']}/audit" in index
    assert f"/reports/{sid}/hands/{settled[0]['hand']}/audit\"" not in index
    older = client.get(f"/reports/{sid}/?page=99").get_data(as_text=True)
    assert f"/reports/{sid}/hands/{settled[0]['hand']}/audit" in older
