"""Quick logging through the service: a told hand is one chained event (one
request, idempotent by its key, checked against the table's sequence), a
count show an ordinary action; the export, the result and `referee verify`
keep both."""

import json

from referee.cli import main
from referee.replay import replay
from tests.test_api import assert_error, bearer

HEADER = {"format": "tonk-log/1", "stake": "0.50", "currency": "EUR", "rules": "pagat",
          "players": ["Ann", "Ben", "Cy"]}
DROP = {"how": "drop", "by": "Ben", "counts": {"Ann": 20, "Ben": 9, "Cy": 30}}


def _table(client):
    r = client.post("/api/sessions", json=HEADER)
    assert r.status_code == 201
    t = r.get_json()
    return t["id"], bearer(t["table_token"])


def test_a_told_hand_is_one_idempotent_request(client):
    sid, auth = _table(client)
    seq = client.get(f"/api/sessions/{sid}", headers=auth).get_json()
    first = client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann", "ending": DROP},
                        headers={**auth, "Idempotency-Key": "tap-1"})
    assert first.status_code == 201, first.get_json()
    state = first.get_json()
    assert state["complete"] and state["result"]["outcome"] == "drop_won"
    assert state["result"]["told"] is True
    assert state["result"]["net"] == {"Ann": "-0.50", "Ben": "1.00", "Cy": "-0.50"}
    again = client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann", "ending": DROP},
                        headers={**auth, "Idempotency-Key": "tap-1"})
    assert again.get_json() == state
    log = client.get(f"/api/sessions/{sid}/log", headers=auth).get_json()
    assert log["hands"] == [{"dealer": "Ann", "ending": DROP}]
    assert seq  # the table answered before the hand


def test_a_told_hand_checks_the_tables_sequence(client):
    sid, auth = _table(client)
    client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann", "ending": DROP},
                headers=auth)
    # the table has two events now: its opening and the told hand
    stale = client.post(f"/api/sessions/{sid}/hands", headers=auth, json={
        "dealer": "Ben", "expected_seq": 1, "ending": {"how": "out", "by": "Cy"}})
    assert_error(stale, 409, "stale_seq")
    ok = client.post(f"/api/sessions/{sid}/hands", headers=auth, json={
        "dealer": "Ben", "expected_seq": 2, "ending": {"how": "out", "by": "Cy"}})
    assert ok.status_code == 201, ok.get_json()
    bad = client.post(f"/api/sessions/{sid}/hands", headers=auth, json={
        "dealer": "Cy", "expected_seq": "two", "ending": {"how": "out", "by": "Cy"}})
    assert "expected_seq" in assert_error(bad, 400)["message"]


def test_refusals_change_nothing(client):
    sid, auth = _table(client)
    url = f"/api/sessions/{sid}/hands"
    assert_error(client.post(url, headers=auth, json={
        "dealer": "Ann", "ending": {"how": "drop", "by": "Ben",
                                    "counts": {"Ann": 20, "Ben": 0, "Cy": 30}}}),
        422, "impossible_count")
    assert_error(client.post(url, headers=auth, json={
        "dealer": "Ann", "deal": {}, "ending": DROP}), 400, "malformed")
    assert_error(client.post(url, headers=auth, json={
        "dealer": "Ann", "ending": {"how": "tonk_out"}}), 400, "malformed")
    r = client.post(url, headers=auth, json={"dealer": "Ann", "ending": DROP})
    assert r.get_json()["hand"] == 1  # nothing was started by the refusals


def test_count_shows_are_ordinary_actions_and_verify_checks_both(client, app, capsys):
    sid, auth = _table(client)
    client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann", "ending": DROP},
                headers=auth)
    r = client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ben"}, headers=auth)
    assert r.status_code == 201
    for i, text in enumerate(["Cy: drop", "Cy: show =12", "Ann: show =4"]):
        r = client.post(f"/api/sessions/{sid}/hands/2/actions", headers=auth,
                        json={"action": text, "client_id": f"c{i}", "expected_seq": i})
        if i < 2:
            assert r.status_code == 201, r.get_json()
    err = assert_error(r, 422, "impossible_count")
    assert (err["hand"], err["action"]) == (2, 3)
    r = client.post(f"/api/sessions/{sid}/hands/2/actions", headers=auth,
                    json={"action": "Ann: show =40", "client_id": "c9", "expected_seq": 2})
    r = client.post(f"/api/sessions/{sid}/hands/2/actions", headers=auth,
                    json={"action": "Ben: show =33", "client_id": "c10", "expected_seq": 3})
    assert r.get_json()["result"]["outcome"] == "drop_won"
    log = client.get(f"/api/sessions/{sid}/log", headers=auth).get_json()
    result = client.get(f"/api/sessions/{sid}/result", headers=auth).get_json()
    assert result == json.loads(json.dumps(replay(log).result().to_json()))
    assert [h.get("told") for h in result["hands"]] == [True, None]
    assert main(["verify", "--db", app.config["DATABASE"]]) == 0, capsys.readouterr().out


def test_verify_catches_a_told_hands_edited_result(client, app, capsys):
    from tests.test_trust import edit_first_settled, raw, verify

    sid, auth = _table(client)
    client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann", "ending": DROP},
                headers=auth)
    assert verify(app) == 0
    edit_first_settled(raw(app), "result", "net", "9.00")
    assert verify(app) == 1, capsys.readouterr().out


def test_verify_catches_a_told_ending_rewritten_in_a_rehashed_chain(client, app):
    from tests.test_trust import rehash_with, verify

    def counts_changed(ev):  # Ben's count rewritten, every hash made again
        if ev["kind"] == "hand_start":
            ev["payload"] = ev["payload"].replace('"Ben":9', '"Ben":29')
            assert '"Ben":29' in ev["payload"]

    sid, auth = _table(client)
    client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann", "ending": DROP},
                headers=auth)
    rehash_with(app, sid, counts_changed)
    # the stored result (a drop won by Ben) no longer follows from the ending
    assert verify(app) == 1
