"""The API's result (``GET /api/sessions/<id>/result``): the text ``referee
replay --json`` writes for the exported log, byte for byte, kept up to date
by the service (``sessions.result_text``) across everything a table does:
a settling action, an undo, a void, a payment, a corrected name, a close, a
refused action, and writes that did not pass through this process's cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.record import load_log
from referee.replay import replay_json_text
from referee.rules.hand import VOID
from referee.service import storage
from referee.service.table import cache, sessions

from .test_api import Game, bearer

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def api_text(client, g: Game) -> str:
    r = client.get(g.url("/result"), headers=bearer(g.audit))
    assert r.status_code == 200 and r.mimetype == "application/json"
    return r.get_data(as_text=True)


def replayed_text(client, g: Game) -> str:
    log = client.get(g.url("/log"), headers=bearer(g.audit)).get_json()
    return replay_json_text(load_log(log))


def assert_current(app, client, g: Game, *, whole_log: bool = True) -> None:
    """The API's text (read twice: built or brought up to date, then kept)
    equals one built from nothing, and the replay's when no hand is open."""
    got = api_text(client, g)
    assert api_text(client, g) == got
    db = storage.connect(app.config["DATABASE"])
    cache.forget(db)
    assert sessions.result_text(db, g.sid) == got
    assert json.loads(got) == sessions.get_result(db, g.sid)
    if whole_log:
        assert got == replayed_text(client, g)


def test_result_is_the_replays_text_through_a_live_night(app, client):
    g = Game(client, seed=3)
    assert_current(app, client, g)  # no hands yet
    for _ in range(3):
        g.start()
        assert_current(app, client, g, whole_log=False)
        g.finish_hand()
        assert_current(app, client, g)
    # The settling action taken back (a dispute of it, corrected): the hand is
    # open again and leaves the result.
    g.correct_last("u1")
    assert_current(app, client, g, whole_log=False)
    assert json.loads(api_text(client, g))["hands"][-1]["hand"] == g.n - 1
    r = g.post(str(g.sim.hand.actions[-1]))
    assert r.status_code == 201, r.get_json()
    g.seq += 1
    assert_current(app, client, g)
    # A refused action changes nothing, but is an event.
    before = api_text(client, g)
    assert g.post("Zed: knock", expected_seq=g.seq).status_code in (400, 404, 409, 422)
    assert api_text(client, g) == before
    g.start()
    r = client.post(g.url(f"/hands/{g.n}/void"), json={"reason": "cards seen"},
                    headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    g.sim.hand.phase = VOID
    assert json.loads(api_text(client, g))["hands"][-1]["outcome"] == "void"
    assert_current(app, client, g)
    r = client.post(g.url("/payments"), json={"from": "Ann", "to": "Ben", "amount": "0.25"},
                    headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    assert "balances" in json.loads(api_text(client, g))
    assert_current(app, client, g)
    r = client.post(g.url("/players/Ben"), json={"name": "Benny"}, headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    text = api_text(client, g)
    assert "Benny" in text and '"Ben"' not in text
    assert_current(app, client, g)
    r = client.post(g.url("/close"), json={}, headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    assert "closed" in json.loads(api_text(client, g))
    assert_current(app, client, g)


def test_a_write_this_process_did_not_see_is_read(app, client):
    """The kept text is checked against the database, not against this
    process's writes: another process's action shows at once."""
    g = Game(client, seed=4)
    g.start()
    g.finish_hand()
    first = api_text(client, g)
    g.start()
    cache.forget()  # the other process's write: nothing of it in this cache ...
    g.finish_hand()
    kept = cache.ResultText(1, [1], [json.dumps({"hand": 1})], first)
    db = storage.connect(app.config["DATABASE"])
    cache.keep_result_text(db, g.sid, kept)  # ... which holds an old text
    assert api_text(client, g) != first
    assert_current(app, client, g)


@pytest.mark.parametrize("name", ["opt_side_bets.json", "pagat_basic.json",
                                  "evt_night_through_the_service.json"])
def test_result_of_imported_samples_is_the_replays_text(app, client, name):
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"no {name}")
    doc = json.loads(path.read_text())
    r = client.post("/api/sessions", json=doc)
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    got = client.get(f"/api/sessions/{made['id']}/result",
                     headers=bearer(made["audit_token"])).get_data(as_text=True)
    assert got == replay_json_text(load_log(doc))


def test_the_report_says_nobody_owes_anything_only_when_nobody_does(capsys):
    """The match's line took the place of the last else: every report with
    transfers also said "Nobody owes anything." (issue 36's landing)."""
    import json
    from pathlib import Path

    from referee.cli import main

    folder = Path(__file__).resolve().parents[1] / "sample_logs"
    seen = set()
    for log in sorted(folder.glob("*.json")):
        if log.name.endswith(".expected.json"):
            continue
        want = json.loads(log.with_suffix(".expected.json").read_text())
        if "error" in want or want.get("language", "en") != "en" or "transfers" not in want:
            continue
        rules = json.loads(log.read_text()).get("rules")
        if "push_ups" in json.dumps(rules):
            continue
        assert main(["replay", str(log)]) == 0
        said = "Nobody owes anything." in capsys.readouterr().out
        assert said == (not want["transfers"]), log.name
        seen.add(said)
    assert seen == {True, False}
