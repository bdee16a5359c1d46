"""The table's own events at a live table, through the API: each one
recorded, hash-chained, exported, and replayed by ``referee replay`` to the
service's own result; one test per refusal, each changing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.record import load_log
from referee.record.chain import LogChainError
from referee.replay import replay
from referee.reports.audit import audit_hand, render_audit
from referee.reports.settlement import render_settlement
from referee.reports.whatif import what_if
from referee.service import storage
from referee.service.table import sessions
from referee.service.trust import verify_log
from referee.web.db import get_db
from tests.reports_fixtures import pdf_text
from tests.test_api import Game, assert_error, bearer


def post(g, tail, body, token=None):
    return g.client.post(g.url(tail), json=body, headers=bearer(token or g.table))


def log_of(g):
    return g.client.get(g.url("/log"), headers=bearer(g.audit)).get_json()


def result_of(g):
    return g.client.get(g.url("/result"), headers=bearer(g.audit)).get_json()


def assert_replays(g):
    """The export replays (``referee replay``) to the service's own result, and
    imports back to the same log."""
    doc = log_of(g)
    played = replay(load_log(doc), allow_open_last_hand=True)
    assert result_of(g) == played.result().to_json()
    # the same night again, on purpose: a copy, asked for (else already_stored)
    r = g.client.post("/api/sessions", json={**doc, "copy": True})
    assert r.status_code == 201, r.get_json()
    t = r.get_json()
    again = g.client.get(f"/api/sessions/{t['id']}/log", headers=bearer(t["audit_token"]))
    assert again.get_json() == doc
    return doc


def unchanged(g):
    """What a refusal must leave as it was: the log and the chain's end."""
    with g.client.application.app_context():
        return log_of(g), storage.chain.final_hash(get_db(), g.sid)


def refused(g, tail, body, status, code):
    before = unchanged(g)
    r = post(g, tail, body)
    err = assert_error(r, status, code)
    assert unchanged(g) == before
    return err


def void_local(g):
    from referee.rules.hand import VOID

    g.sim.hand.phase = VOID


# ------------------------------------------------------------------ void

def test_void_then_same_dealer_deals_again(client):
    g = Game(client)
    first = g.start()
    g.play(2)
    r = post(g, f"/hands/{g.n}/void", {"reason": "misdeal", "client_id": "v1"})
    assert r.status_code == 201, r.get_json()
    assert r.get_json() == {"event": "void", "hand": 1, "reason": "misdeal"}
    # a retry gets the first answer
    assert post(g, f"/hands/{g.n}/void", {"reason": "misdeal", "client_id": "v1"}).get_json() \
        == r.get_json()
    void_local(g)
    second = g.start()
    assert second["dealer"] == first["dealer"]
    g.finish_hand()
    doc = assert_replays(g)
    assert doc["hands"][0]["void"] == "misdeal"
    assert result_of(g)["hands"][0]["outcome"] == "void"
    state = client.get(g.url("/hands/1"), headers=bearer(g.audit)).get_json()
    assert state["void"] == "misdeal" and state["result"]["outcome"] == "void"


def test_void_after_end_is_refused(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    refused(g, f"/hands/{g.n}/void", {"reason": "misdeal"}, 422, "void_after_end")


def test_void_of_an_earlier_hand_is_refused(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    g.start()
    refused(g, "/hands/1/void", {"reason": "misdeal"}, 422, "hand_over")


def test_void_reason_is_bounded(client):
    g = Game(client)
    g.start()
    refused(g, f"/hands/{g.n}/void", {"reason": "x" * 201}, 400, "bad_request")


def test_void_hand_takes_no_action(client):
    g = Game(client)
    g.start()
    post(g, f"/hands/{g.n}/void", {"reason": "card exposed in the deal"})
    before = unchanged(g)
    assert g.post(g.sim.next_action()).status_code == 422
    # the refusal is kept in the history like any refused action, the log is not changed
    assert unchanged(g)[0] == before[0]


# ------------------------------------------------------------------ accept

def test_accept_each_player(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    for name in ("Ben", "Ann"):
        r = post(g, "/hands/1/accept", {"player": name})
        assert r.status_code == 201, r.get_json()
    assert log_of(g)["hands"][0]["accepted"] == ["Ben", "Ann"]
    g.start()  # an earlier hand may still be accepted
    assert post(g, "/hands/1/accept", {"player": "Cy"}).status_code == 201
    assert_replays(g)


def test_accept_in_play_is_refused(client):
    g = Game(client)
    g.start()
    g.play(1)
    refused(g, "/hands/1/accept", {"player": "Ann"}, 422, "accept_in_play")


def test_accept_not_seated_is_refused(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    refused(g, "/hands/1/accept", {"player": "Zed"}, 422, "accept_not_seated")


def test_accept_twice_is_refused(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    post(g, "/hands/1/accept", {"player": "Ann"})
    refused(g, "/hands/1/accept", {"player": "Ann"}, 422, "accept_twice")


def test_undo_of_an_accepted_hand_is_refused(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    post(g, "/hands/1/accept", {"player": "Ann"})
    refused(g, "/hands/1/undo", {"client_id": "u1"}, 422, "undo_accepted")


# ------------------------------------------------------------------ disputes

def test_dispute_an_action_and_the_hand(client):
    g = Game(client)
    g.start()
    g.play(3)
    r = post(g, "/hands/1/disputes", {"action": 2, "by": "Cy", "note": "it was the 9h"})
    assert r.status_code == 201, r.get_json()
    assert post(g, "/hands/1/disputes", {"by": "Ann", "note": "slow play"}).status_code == 201
    g.finish_hand()
    doc = assert_replays(g)
    assert doc["hands"][0]["disputes"] == [
        {"action": 2, "by": "Cy", "note": "it was the 9h"},
        {"action": None, "by": "Ann", "note": "slow play"}]


def test_dispute_no_action_is_refused(client):
    g = Game(client)
    g.start()
    g.play(2)
    refused(g, "/hands/1/disputes", {"action": 3, "by": "Cy", "note": "x"}, 422,
            "dispute_no_action")


def test_dispute_not_seated_is_refused(client):
    g = Game(client)
    g.start()
    g.play(2)
    refused(g, "/hands/1/disputes", {"action": 1, "by": "Zed", "note": "x"}, 422,
            "dispute_not_seated")


def test_undo_settles_a_dispute_and_the_objection_stays(client):
    # The spec: "the table settles it by a correction (the service's undo)".
    from referee.service.trust import verify_all

    g = Game(client)
    g.start()
    g.play(2)
    second = log_of(g)["hands"][0]["actions"][1]
    assert post(g, "/hands/1/disputes", {"action": 2, "by": "Cy", "note": "no"}).status_code \
        == 201
    assert post(g, "/hands/1/disputes", {"action": 1, "by": "Ann", "note": "ok"}).status_code \
        == 201
    r = g.client.post(g.url("/hands/1/undo"), json={"client_id": "u1", "expected_seq": 2},
                      headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    disputes = log_of(g)["hands"][0]["disputes"]
    assert disputes == [
        {"action": None, "by": "Cy", "note": f"[on action 2, {second}, since undone] no"},
        {"action": 1, "by": "Ann", "note": "ok"}]
    with client.application.app_context():
        assert verify_all(get_db())[g.sid] == []
    assert_replays(g)


def test_a_client_id_used_for_another_kind_of_request_is_refused(client):
    # Its first answer (a hand's state, or another event) says nothing about
    # this request: a retry must be the same request.
    g = Game(client)
    g.start()
    text = g.sim.next_action()
    r = g.post(text, client_id="same")
    assert r.status_code == 201, r.get_json()
    g.sim.accepted(text)
    g.seq += 1
    refused(g, "/hands/1/disputes", {"by": "Cy", "note": "no", "client_id": "same"}, 409,
            "client_id_reused")
    assert post(g, "/hands/1/disputes",
                {"by": "Cy", "note": "no", "client_id": "d1"}).status_code == 201
    refused(g, "/hands/1/void", {"reason": "misdeal", "client_id": "d1"}, 409,
            "client_id_reused")
    before = unchanged(g)
    assert_error(g.post(g.sim.next_action(), client_id="d1"), 409, "client_id_reused")
    assert unchanged(g) == before


# ------------------------------------------------------------------ stake

def test_stake_changes_from_the_next_hand_on(client):
    g = Game(client)
    g.start()
    r = post(g, "/stake", {"stake": "0.50"})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["from_hand"] == 2
    g.finish_hand()
    g.start()
    g.finish_hand()
    g.start()
    g.finish_hand()
    doc = assert_replays(g)
    assert "stake" not in doc["hands"][0]
    assert doc["hands"][1]["stake"] == doc["hands"][2]["stake"] == "0.50"


def test_stake_must_be_positive(client):
    g = Game(client)
    refused(g, "/stake", {"stake": "0"}, 400, "malformed")


def test_stake_needing_more_places_is_refused(client):
    g = Game(client)
    refused(g, "/stake", {"stake": "0.125"}, 400, "stake_places")


# ------------------------------------------------------------------ leave

def test_leave_mid_hand_voids_it_and_the_next_hand_lists_the_seats(client):
    g = Game(client)
    g.start()
    g.play(1)
    r = post(g, "/leave", {"player": "Cy"})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["void"] == "Cy left the table"
    summary = client.get(g.url(), headers=bearer(g.audit)).get_json()
    assert summary["next_seats"] == ["Ann", "Ben"]
    r = post(g, "/hands", {"dealer": summary["next_dealer"]})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["dealer"] == log_of(g)["hands"][0]["dealer"] or \
        log_of(g)["hands"][0]["dealer"] == "Cy"
    doc = assert_replays(g)
    assert doc["hands"][1]["players"] == ["Ann", "Ben"]
    assert doc["hands"][0]["void"] == "Cy left the table"


def test_leave_between_hands(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    r = post(g, "/leave", {"player": "Ann"})
    assert r.status_code == 201 and "void" not in r.get_json()
    summary = client.get(g.url(), headers=bearer(g.audit)).get_json()
    assert post(g, "/hands", {"dealer": summary["next_dealer"]}).status_code == 201
    assert log_of(g)["hands"][1]["players"] == ["Ben", "Cy"]


def test_leave_not_seated_is_refused(client):
    g = Game(client)
    refused(g, "/leave", {"player": "Zed"}, 422, "not_seated")


def test_leave_of_the_last_two_is_refused(client):
    g = Game(client)
    post(g, "/leave", {"player": "Cy"})
    refused(g, "/leave", {"player": "Ben"}, 422, "too_few_players")


def test_leave_after_the_play_ended_is_refused(client):
    g = Game(client)
    g.start()
    while not (g.sim.hand.must_show or g.sim.hand.is_complete):
        g.play()
    if g.sim.hand.is_complete:
        pytest.skip("this deal needs no show")
    seated = g.sim.hand.players[0]
    err = refused(g, "/leave", {"player": seated}, 422, "void_after_end")
    # Said as leaving, not as a void the host did not ask for (newcomer N19).
    assert f"finish hand 1 first, then {seated} can leave" in err["message"], err
    assert "cannot be void" not in err["message"]


# ------------------------------------------------------------------ payments

def test_payments_and_balances(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    totals = result_of(g)["totals"]
    loser = min(totals, key=lambda p: float(totals[p]))
    winner = max(totals, key=lambda p: float(totals[p]))
    r = post(g, "/payments", {"from": loser, "to": winner, "amount": "0.25", "note": "cash"})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["at"].endswith("Z")
    result = result_of(g)
    assert "balances" in result
    assert float(result["balances"][loser]) == float(totals[loser]) + 0.25
    assert_replays(g)


def test_payment_to_self_is_refused(client):
    g = Game(client)
    refused(g, "/payments", {"from": "Ann", "to": "Ann", "amount": "1"}, 400,
            "payment_to_self")


def test_payment_amount_is_refused(client):
    g = Game(client)
    refused(g, "/payments", {"from": "Ann", "to": "Ben", "amount": "0"}, 400,
            "payment_amount")


def test_payment_unknown_player_is_refused(client):
    g = Game(client)
    refused(g, "/payments", {"from": "Ann", "to": "Zed", "amount": "1"}, 400,
            "unknown_player")


def test_payment_time_must_have_an_offset(client):
    g = Game(client)
    refused(g, "/payments", {"from": "Ann", "to": "Ben", "amount": "1",
                             "at": "2026-11-21T23:50:00"}, 400, "malformed")


# ------------------------------------------------------------------ close

def test_close_then_nothing_more(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    r = post(g, "/close", {})
    assert r.status_code == 201, r.get_json()
    closed = r.get_json()["closed"]
    assert result_of(g)["closed"] == closed
    assert client.get(g.url(), headers=bearer(g.audit)).get_json()["closed"] == closed
    for tail, body in [("/hands", g.sim.next_setup()), ("/stake", {"stake": "1"}),
                       ("/hands/1/accept", {"player": "Ann"}), ("/close", {}),
                       ("/hands/1/undo", {"client_id": "u"})]:
        refused(g, tail, body, 409, "table_closed")
    # The night's debts are paid after it: a closed table takes payments.
    r = post(g, "/payments", {"from": "Ann", "to": "Ben", "amount": "1"})
    assert r.status_code == 201, r.get_json()
    assert log_of(g)["payments"][-1]["amount"] == "1" and log_of(g)["closed"] == closed
    assert_replays(g)


def test_close_in_play_is_refused(client):
    g = Game(client)
    g.start()
    g.play(1)
    refused(g, "/close", {}, 422, "closed_in_play")


def test_close_after_a_void_hand(client):
    g = Game(client)
    g.start()
    post(g, f"/hands/{g.n}/void", {"reason": "misdeal"})
    assert post(g, "/close", {}).status_code == 201
    assert_replays(g)


# ------------------------------------------------------------------ new table

def test_started_is_recorded_and_language_kept(client):
    header = {"stake": "1", "rules": "pagat", "players": ["Ann", "Ben"], "language": "de"}
    t = client.post("/api/sessions", json=header).get_json()
    doc = client.get(f"/api/sessions/{t['id']}/log", headers=bearer(t["audit_token"])).get_json()
    assert doc["language"] == "de"
    assert doc["started"].endswith("Z") and "T" in doc["started"]


def test_balances_brought_forward_from_an_earlier_table(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    owed = result_of(g)["transfers"]
    header = {"stake": "0.25", "currency": "USD", "rules": "pagat",
              "players": ["Ann", "Ben", "Cy"], "brought_forward_from": g.sid,
              "brought_forward_token": g.audit}
    r = client.post("/api/sessions", json=header)
    assert r.status_code == 201, r.get_json()
    t = r.get_json()
    doc = client.get(f"/api/sessions/{t['id']}/log", headers=bearer(t["audit_token"])).get_json()
    carried = doc["brought_forward"]
    for transfer in owed:
        assert float(carried[transfer["from"]]) < 0 < float(carried[transfer["to"]])
    result = client.get(f"/api/sessions/{t['id']}/result",
                        headers=bearer(t["audit_token"])).get_json()
    assert result["transfers"] == owed


def test_brought_forward_drops_debts_of_the_absent(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    owed = result_of(g)["transfers"]
    stay = ["Ann", "Ben", "Dee"]
    header = {"stake": "0.25", "currency": "USD", "rules": "pagat", "players": stay,
              "brought_forward_from": g.sid, "brought_forward_token": g.table}
    t = client.post("/api/sessions", json=header).get_json()
    doc = client.get(f"/api/sessions/{t['id']}/log", headers=bearer(t["audit_token"])).get_json()
    kept = [x for x in owed if x["from"] in stay and x["to"] in stay]
    # Nothing to carry (every debt is to or from the absent): no brought_forward.
    carried = doc.get("brought_forward", {})
    assert sum(float(v) for v in carried.values()) == 0
    assert len([v for v in carried.values() if float(v) < 0]) <= len(kept)


def test_brought_forward_needs_the_earlier_token(client):
    g = Game(client)
    header = {"stake": "1", "rules": "pagat", "players": ["Ann", "Ben"],
              "brought_forward_from": g.sid, "brought_forward_token": "wrong"}
    assert_error(client.post("/api/sessions", json=header), 401, "unauthorized")


# ------------------------------------------------------------------ chain

def test_every_event_is_in_the_chain(client):
    g = Game(client)
    g.start()
    g.play(1)
    post(g, "/hands/1/disputes", {"action": 1, "by": "Ann", "note": "hm"})
    post(g, "/hands/1/void", {"reason": "misdeal"})
    post(g, "/stake", {"stake": "0.50"})
    post(g, "/payments", {"from": "Ann", "to": "Ben", "amount": "1"})
    post(g, "/close", {})
    with client.application.app_context():
        db = get_db()
        kinds = [r[0] for r in db.conn.execute(
            "SELECT kind FROM events WHERE session_id = ? ORDER BY seq", (g.sid,))]
        assert kinds[-5:] == ["dispute", "void", "stake", "payment", "close"]
        assert storage.chain.verify_all(db)[g.sid] is None


def test_verify_holds_after_every_kind_of_event(client):
    # `referee verify` replays the chain and compares every derived row: each
    # event kind must leave rows that its own replay gives back.
    from referee.service.trust import verify_all

    def ok(g, tail, body):
        r = post(g, tail, body)
        assert r.status_code == 201, r.get_json()

    g = Game(client)
    g.start()
    g.finish_hand()
    ok(g, "/hands/1/accept", {"player": "Ann"})
    ok(g, "/hands/1/disputes", {"action": 1, "by": "Cy", "note": "hm"})
    ok(g, "/stake", {"stake": "0.50"})
    g.start()
    ok(g, "/players/Ben", {"name": "Benny"})
    ok(g, "/hands/2/void", {"reason": "misdeal"})
    ok(g, "/payments", {"from": "Ann", "to": "Cy", "amount": "0.25", "note": "cash"})
    with client.application.app_context():
        assert verify_all(get_db())[g.sid] == []
    ok(g, "/leave", {"player": "Cy"})
    ok(g, "/close", {})
    with client.application.app_context():
        assert verify_all(get_db())[g.sid] == []
    assert_replays(g)


def test_openapi_describes_the_events(client):
    spec = client.get("/api/openapi.json").get_json()
    for tail in ("/hands/{n}/void", "/hands/{n}/accept", "/hands/{n}/disputes", "/stake",
                 "/leave", "/payments", "/close", "/players/{name}"):
        assert f"/api/sessions/{{sid}}{tail}" in spec["paths"]
    assert spec["components"]["schemas"]["VoidRequest"]["properties"]["reason"]["maxLength"] \
        == 200


# ------------------------------------------------------------------ names

def test_rename_writes_the_corrected_name_everywhere(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    g.start()
    g.play(2)
    r = post(g, "/players/Ben", {"name": "Benny", "client_id": "r1"})
    assert r.status_code == 201, r.get_json()
    assert r.get_json() == {"event": "rename", "hand": None, "old": "Ben", "new": "Benny"}
    doc = log_of(g)
    text = str(doc)
    assert "'Ben'" not in text and "Ben:" not in text
    assert doc["players"] == ["Ann", "Benny", "Cy"]
    assert "Benny" in result_of(g)["totals"]
    # play goes on under the corrected name
    g.sim = None
    state = client.get(g.url(f"/hands/{g.n}"), headers=bearer(g.audit)).get_json()
    if state["legal"]:
        action = state["legal"][0]
        r = client.post(g.url(f"/hands/{g.n}/actions"), headers=bearer(g.table),
                        json={"action": action, "client_id": "x1",
                              "expected_seq": state["seq"]})
        assert r.status_code == 201, r.get_json()
    doc = log_of(g)
    replay(load_log(doc), allow_open_last_hand=True)


def test_rename_to_a_seated_name_is_refused(client):
    g = Game(client)
    refused(g, "/players/Ben", {"name": "Ann"}, 422, "name_taken")


def test_rename_to_an_invalid_name_is_refused(client):
    g = Game(client)
    refused(g, "/players/Ben", {"name": "Be:n"}, 400, "bad_name")


def test_rename_of_an_unknown_player_is_refused(client):
    g = Game(client)
    refused(g, "/players/Zed", {"name": "Zoe"}, 400, "unknown_player")


# ------------------------------------------------------------------ papers and what-if

NIGHT = Path(__file__).resolve().parents[1] / "sample_logs" / "evt_night_through_the_service.json"


def night():
    return json.loads(NIGHT.read_text())


def test_settlement_pdf_tells_the_whole_night():
    text = pdf_text(render_settlement(replay(load_log(night()))))
    for words in ("(final)", "Opened 2026-11-21 20:00 UTC", "Closed 2026-11-22 01:30 UTC",
                  "Payments made", "Ann paid Cy $0.50", "Brought forward", "Balances",
                  "Still owed", "Ann pays Cy $1.00", "Ben pays Cy $2.50",
                  "Hand 2 (dealt by Ben): misdeal", "from hand 3: $0.50",
                  "Hands 3–4: stake $0.50"):
        assert words in text, words
    assert "date not recorded" not in text


def test_settlement_pdf_before_closing_is_provisional():
    doc = night()
    del doc["closed"]
    text = pdf_text(render_settlement(replay(load_log(doc))))
    assert "(provisional)" in text and "has not been closed" in text


def test_audit_pdf_shows_disputes_and_acceptance():
    doc = night()
    text = pdf_text(render_audit(audit_hand(doc, 2)))
    assert "disputed by Cy" in text and "I discarded the 9h, not the 9d" in text
    assert "Void misdeal" in text and "nobody pays" in text
    text = pdf_text(render_audit(audit_hand(doc, 3)))
    assert "Accepted by Cy" in text
    assert "Ben disputes the hand as a whole" in text
    assert "$0.50" in text


def test_whatif_keeps_void_hands_void_and_each_hands_stake():
    doc = night()
    w = what_if(doc, {"drop_pays": 2})
    assert w.error is None
    by = {h.number: h for h in w.hands}
    assert by[2].old.outcome == by[2].new.outcome == "void"
    assert all(v == 0 for v in by[2].new.net.values())
    # the same hand at the session's stake settles for half as much
    for h in doc["hands"]:
        h.pop("stake", None)
    half = {h.number: h for h in what_if(doc, {"drop_pays": 2}).hands}
    for p, v in by[3].new.net.items():
        assert v == 2 * half[3].new.net[p]


def test_void_twice_is_refused(client):
    g = Game(client)
    g.start()
    post(g, f"/hands/{g.n}/void", {"reason": "misdeal"})
    refused(g, f"/hands/{g.n}/void", {"reason": "misdeal"}, 422, "hand_void")


def test_undo_in_a_void_hand_is_refused(client):
    g = Game(client)
    g.start()
    g.play(1)
    post(g, f"/hands/{g.n}/void", {"reason": "misdeal"})
    refused(g, f"/hands/{g.n}/undo", {"client_id": "u1"}, 422, "hand_void")


def test_brought_forward_given_twice_is_refused(client):
    g = Game(client)
    header = {"stake": "1", "rules": "pagat", "players": ["Ann", "Ben"],
              "brought_forward": {"Ann": "1", "Ben": "-1"},
              "brought_forward_from": g.sid, "brought_forward_token": g.audit}
    assert_error(client.post("/api/sessions", json=header), 400, "malformed")


def test_cli_import_export_keeps_every_event(tmp_path, capsys):
    from referee.cli import main

    db = tmp_path / "db.sqlite3"
    assert main(["import", str(NIGHT), "--db", str(db)]) == 0
    sid = capsys.readouterr().out.strip()
    assert main(["export", sid, "--db", str(db)]) == 0
    assert json.loads(capsys.readouterr().out) == night()
    assert main(["verify", "--db", str(db)]) == 0


def test_an_open_table_s_export_says_its_last_hand_is_in_play(client, tmp_path, capsys):
    """The export of a table whose hand is being played ends in that hand,
    and ``referee replay`` refuses such a log (``hand_unfinished``): the
    export says so, in the table's language, and only then (newcomer F32)."""
    g = Game(client)
    path = client.application.config["DATABASE"]
    g.start()
    assert main(["export", g.sid, "--db", path]) == 0
    out = capsys.readouterr()
    assert "note: hand 1 is still in play" in out.err
    log = tmp_path / "open.json"
    log.write_text(out.out)
    assert main(["replay", str(log)]) == 1
    assert "hand_unfinished" in capsys.readouterr().err
    g.finish_hand()
    assert main(["export", g.sid, "--db", path]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    log.write_text(out.out)
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    r = client.post("/api/sessions", json={"stake": "1", "rules": "pagat", "language": "de",
                                           "players": ["Ann", "Ben"]})
    sid, token = r.get_json()["id"], r.get_json()["table_token"]
    r = client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann"}, headers=bearer(token))
    assert r.status_code == 201, r.get_json()
    assert main(["export", sid, "--db", path]) == 0
    assert "Hand 1" in capsys.readouterr().err


def test_stored_session_papers_show_the_events(client):
    g = Game(client)
    g.start()
    g.play(2)
    post(g, "/hands/1/disputes", {"action": 1, "by": "Ben", "note": "wrong card named"})
    g.finish_hand()
    post(g, "/hands/1/accept", {"player": "Cy"})
    post(g, "/payments", {"from": "Ann", "to": "Ben", "amount": "0.25"})
    r = client.get(f"/reports/{g.sid}/hands/1/audit.pdf?token={g.audit}")
    assert r.status_code == 200
    text = pdf_text(r.data)
    assert "disputed by Ben" in text and "Accepted by Cy" in text
    r = client.get(f"/reports/{g.sid}/settlement.pdf?token={g.audit}")
    text = pdf_text(r.data)
    assert "(provisional)" in text and "Ann paid Ben $0.25" in text
    assert "date not recorded" not in text and "Opened" in text
    post(g, "/close", {})
    text = pdf_text(client.get(f"/reports/{g.sid}/settlement.pdf?token={g.audit}").data)
    assert "(final)" in text


def test_an_export_of_a_night_with_every_table_event_verifies_offline(client, tmp_path):
    """``referee verify LOG`` of ``referee export ID --chain``: a night's
    log carries what its table's own events left (payments, the closing,
    acceptances, disputes, a void, a stake change, a renamed player), and
    the offline check folds them in as the stored session's verify does.
    It compared them with the opening alone: every real night's export
    failed ("the log's header is not the one its chain holds"). An edit of
    any of them is still caught."""
    g = Game(client, seed=5)
    g.start()
    g.finish_hand()
    players = list(g.sim.hand.players)
    for name in players:
        post(g, "/hands/1/accept", {"player": name})
    g.start()
    g.finish_hand()
    g.correct_last("c")  # a dispute settled by a correction
    assert g.post(str(g.sim.hand.actions[-1])).status_code == 201  # logged again
    g.seq += 1
    post(g, "/hands/2/disputes", {"by": players[1], "note": "slow play"})
    assert post(g, "/stake", {"stake": "2"}).status_code == 201
    g.start()
    assert post(g, f"/hands/{g.n}/void", {"reason": "misdeal"}).status_code == 201
    assert post(g, f"/players/{players[0]}", {"name": "Renamed"}).status_code == 201
    r = post(g, "/payments", {"from": "Renamed", "to": players[1], "amount": "1"})
    assert r.status_code == 201, r.get_json()
    assert post(g, "/close", {}).status_code == 201
    with client.application.app_context():
        doc = sessions.export_with_chain(get_db(), g.sid)  # referee export ID --chain
    assert {"closed", "payments"} <= set(doc) and doc["hands"][0]["accepted"]
    assert doc["hands"][1]["disputes"] and doc["hands"][2]["void"]
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 0
    head = verify_log(doc)

    def caught(edit, why):
        forged = json.loads(json.dumps(doc))
        edit(forged)
        with pytest.raises(LogChainError) as err:
            verify_log(forged)
        assert err.value.words.template == why, err.value

    header = "the log's header is not the one its chain holds"
    setup = "hand {hand}'s setup is not the one its chain holds"
    caught(lambda d: d["payments"][0].update(amount="100"), header)
    caught(lambda d: d.update(closed="2030-01-01T00:00:00Z"), header)
    caught(lambda d: d["hands"][0]["accepted"].pop(), setup)
    caught(lambda d: d["hands"][1]["disputes"][-1].update(note="no"), setup)
    caught(lambda d: d["hands"][2].update(void="not so"), setup)
    caught(lambda d: d["hands"][2].update(stake="3"), setup)
    assert head == doc["head"]


def _stored_sessions(client) -> list[tuple]:
    with client.application.app_context():
        return [tuple(r) for r in get_db().conn.execute(
            "SELECT id, settled FROM sessions ORDER BY id").fetchall()]


@pytest.mark.parametrize("lang,said", [("en", "given without brought_forward_from"),
                                       ("de", "ohne brought_forward_from"),
                                       ("fr", "sans brought_forward_from"),
                                       ("pt", "sem brought_forward_from")])
def test_a_carry_token_without_its_table_is_refused(client, lang, said):
    """A ``brought_forward_token`` alone was dropped in silence: the table
    opened (or the log was imported) carrying nothing, as if the host had not
    asked. Refused, naming the field, in the reader's language; nothing is
    stored and the table the token opens keeps its debts."""
    g = Game(client)
    g.start()
    g.finish_hand()
    before, log_before = _stored_sessions(client), log_of(g)
    header = {"format": "tonk-log/1", "stake": "0.25", "currency": "USD", "rules": "pagat",
              "players": ["Ann", "Ben", "Cy"]}
    imported = {**header, "hands": [], "brought_forward": {"Ann": "-1", "Ben": "1"}}
    for body in (header, imported, {**header, "brought_forward_from": None}):
        r = client.post("/api/sessions", json={**body, "brought_forward_token": g.audit},
                        headers={"Accept-Language": lang})
        message = assert_error(r, 400, "bad_request")["message"]
        assert message.startswith("brought_forward_token") and said in message, message
    assert _stored_sessions(client) == before
    assert log_of(g) == log_before and "carried_forward" not in log_before
    # Without a token (null, as the document allows) the table opens as before.
    r = client.post("/api/sessions", json={**header, "brought_forward_token": None})
    assert r.status_code == 201, r.get_json()


@pytest.mark.parametrize("field", ["brought_forward_token", "brought_forward_from"])
def test_a_log_file_with_a_carry_field_is_refused_by_every_command(field, tmp_path, capsys):
    """The commands read a log file, which has no carry (a token opens a
    stored table through the API): either field is refused as not the log
    format's, exit 2, naming it, never skipped, and the import stores nothing."""
    db = str(tmp_path / "db.sqlite3")
    assert main(["import", "sample_logs/pagat_basic.json", "--db", db]) == 0
    sid = capsys.readouterr().out.strip()
    assert main(["export", sid, "--db", db, "--chain"]) == 0
    log = tmp_path / "log.json"
    log.write_text(json.dumps({**json.loads(capsys.readouterr().out), field: "0" * 12}))
    stored = storage.connect(db).conn.execute("SELECT id FROM sessions").fetchall()
    for argv in (["import", str(log), "--db", db], ["replay", str(log), "--json"],
                 ["verify", str(log)]):
        assert main(argv) == 2, argv
        out = capsys.readouterr()
        assert f"{field}: is not a field of the log format" in out.out + out.err, argv
    assert storage.connect(db).conn.execute("SELECT id FROM sessions").fetchall() == stored
