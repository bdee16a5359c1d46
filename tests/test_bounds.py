"""Every input bounded, every refusal clear: one test per class of hostile
input, through the CLI (exit 2, the field named, no traceback) and the API
(400 with the usual error shape, never 500)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.ledger.money import MAX_MULTIPLIER, MAX_STAKE, STAKE_PLACES
from referee.rules.allowed import MOST_PAYS

from .test_api import assert_error, bearer

BASE = json.loads((Path(__file__).resolve().parents[1] / "sample_logs" /
                   "pagat_basic.json").read_text())


def variant(change) -> dict:
    doc = json.loads(json.dumps(BASE))
    change(doc)
    return doc


def _set(path, value):
    def change(doc):
        *first, last = path
        for key in first:
            doc = doc[key]
        doc[last] = value
    return change


CASES = {
    "huge stake": (_set(["stake"], "1e26"), "stake"),
    "huge stake number": (_set(["stake"], 1e26), "stake"),
    "stake over the bound": (_set(["stake"], str(MAX_STAKE + 1)), "stake"),
    "stake with too many places": (_set(["stake"], "0." + "0" * STAKE_PLACES + "1"), "stake"),
    "huge multiplier": (_set(["hands", 0, "stake_multiplier"], 10**30), "stake_multiplier"),
    "multiplier over the bound": (_set(["hands", 0, "stake_multiplier"], MAX_MULTIPLIER + 1),
                                  "stake_multiplier"),
    "eleven players": (_set(["players"], [f"P{i}" for i in range(11)]), "players"),
    "500 players": (_set(["players"], [f"P{i}" for i in range(500)]), "players"),
    "started yesterday": (_set(["started"], "yesterday"), "started"),
    "lone surrogate": (_set(["hands", 0, "actions", 0], "Ben: draw \ud800"), "actions"),
    "surrogate name": (_set(["table"], "\udfff"), "table"),
    "deep rules": (_set(["rules"], {"preset": "pagat", "x": json.loads("[" * 60 + "]" * 60)}),
                   "rules"),
    # Issue 34, item 7: a rule's pays beyond any table's (MOST_PAYS) broke every paper.
    "huge tonk out": (_set(["rules"], {"preset": "pagat", "tonk_out_pays": 1e308}),
                      "tonk_out_pays"),
    "tonk out past the bound": (_set(["rules"], {"preset": "pagat",
                                                 "tonk_out_pays": int(MOST_PAYS) + 1}),
                                "tonk_out_pays"),
    "huge deal win": (_set(["rules"], {"preset": "pagat", "deal_wins": [
        {"when": "total:49", "pays": 10**30}]}), "deal_wins[1].pays"),
    "tiny caught pays": (_set(["rules"], {"preset": "pagat", "caught": "pay_beaters",
                                          "caught_pays": "0.00001"}), "caught_pays"),
}


@pytest.mark.parametrize("name", CASES)
def test_the_cli_refuses_with_exit_2_naming_the_field(name, tmp_path, capsys):
    change, field = CASES[name]
    log = tmp_path / "log.json"
    log.write_text(json.dumps(variant(change)))
    for argv in (["replay", str(log), "--json"], ["replay", str(log)],
                 ["settle", str(log), "--pdf", str(tmp_path / "o.pdf")],
                 ["audit", str(log), "--hand", "1", "--pdf", str(tmp_path / "o.pdf")],
                 ["import", str(log), "--db", str(tmp_path / "db.sqlite3")]):
        assert main(argv) == 2, argv
        out = capsys.readouterr()
        assert field in out.out + out.err
        assert "Traceback" not in out.err


@pytest.mark.parametrize("name", CASES)
def test_the_api_refuses_with_400(client, name):
    change, field = CASES[name]
    r = client.post("/api/sessions", data=json.dumps(variant(change)),
                    content_type="application/json")
    assert field in assert_error(r, 400)["message"]


def test_a_deep_document_is_refused(client, tmp_path, capsys):
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post("/api/sessions", data=deep, content_type="application/json")
    assert "nested" in assert_error(r, 400, "bad_request")["message"]
    log = tmp_path / "deep.json"
    log.write_text(deep)
    assert main(["replay", str(log), "--json"]) == 2
    assert "nested" in capsys.readouterr().out


def test_a_hand_started_beyond_the_bounds_is_refused(client):
    r = client.post("/api/sessions", json={"stake": "1", "rules": "pagat",
                                           "players": ["Ann", "Ben"]})
    t = r.get_json()
    h = bearer(t["table_token"])
    r = client.post(f"/api/sessions/{t['id']}/hands", headers=h,
                    json={"dealer": "Ann", "upcard": "7d", "stake_multiplier": 10**30})
    assert "stake_multiplier" in assert_error(r, 400)["message"]
    assert client.get(f"/api/sessions/{t['id']}/hands/{10**30}", headers=h).status_code == 404


def test_the_most_players_the_deck_allows_is_accepted(client):
    r = client.post("/api/sessions", json={"stake": "1000000", "rules": "pagat",
                                           "players": [f"P{i}" for i in range(10)]})
    assert r.status_code == 201
    r = client.post("/api/sessions", json={"stake": "1", "rules": "seattle",
                                           "players": [f"P{i}" for i in range(8)]})
    assert "players" in assert_error(r, 400, "too_many_players")["message"]


def test_verify_on_a_file_that_is_not_a_database(tmp_path, capsys):
    junk = tmp_path / "junk"
    junk.write_text("hello" * 1000)
    assert main(["verify", "--db", str(junk)]) == 2
    assert "not a referee database" in capsys.readouterr().err


@pytest.mark.parametrize("change,field", [
    (_set(["payments"], [{"from": "Ann", "to": "Ben", "amount": "1e26"}]), "amount"),
    (_set(["payments"], [{"from": "Ann", "to": "Ben", "amount": "0.000000000001"}]), "amount"),
    (_set(["brought_forward"], {"Ann": "-1e40", "Ben": "1e40"}), "brought_forward"),
    (_set(["hands", 0, "stake"], "1e26"), "stake"),
])
def test_the_tables_own_amounts_are_bounded(change, field, tmp_path, capsys):
    log = tmp_path / "log.json"
    log.write_text(json.dumps(variant(change)))
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert field in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["export", "zzz"], ["import", "sample_logs/pagat_basic.json"],
                                  ["settle", "zzz", "--pdf", "-"], ["verify"],
                                  ["serve"]])
def test_a_file_that_is_not_a_database_is_refused_plainly(argv, tmp_path, capsys):
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("hello" * 1000)
    assert main([*argv, "--db", str(junk)]) == 2
    err = capsys.readouterr().err
    assert "not a referee database" in err and "Traceback" not in err


DEEP = "[" * 100_000 + "]" * 100_000


OUT_OF_BOUNDS = [("tonk_out_pays", "1e308"), ("caught_pays", "1e30"),
                 ("deal_wins", '[{"when": "total:49", "pays": 1e30}]'),
                 ("caught", DEEP), ("deal_wins", "[" * 900 + "]" * 900)]


@pytest.mark.parametrize("option,raw", OUT_OF_BOUNDS)
def test_what_if_refuses_rules_out_of_bounds(app, option, raw):
    from referee.service.table import sessions

    with app.app_context():
        info = sessions.import_log(app.extensions["referee"]["db"], BASE)
    client = app.test_client()
    url = f"/reports/{info.id}/whatif"
    for query in ({"rules": f'{{"{option}": {raw}}}'}, {f"opt_{option}": raw}):
        r = client.get(url, query_string={"token": info.audit_token, **query})
        assert r.status_code == 200, r.get_data(as_text=True)[:500]
        assert "diff" not in r.get_data(as_text=True)


@pytest.mark.parametrize("option,raw", OUT_OF_BOUNDS)
def test_the_new_table_form_refuses_rules_out_of_bounds(client, option, raw):
    from tests.test_tablet import PIN, token

    data = {"csrf_token": token(client), "stake": "1", "preset": "pagat", "pin": PIN,
            "pin2": PIN, "player1": "Ann", "player2": "Ben", f"opt_{option}": raw}
    r = client.post("/new", data=data)
    assert r.status_code == 303 and r.headers["Location"] == "/new", r.get_data(as_text=True)[:500]
    assert 'id="form-error"' in client.get("/new").get_data(as_text=True)
    assert client.get("/").status_code == 200


@pytest.mark.parametrize("rules", ['{"tonk_out_pays": 1e308}', '{"caught": ' + DEEP + "}"])
def test_whatif_on_the_command_line_refuses_them_without_a_traceback(rules, tmp_path, capsys):
    log = tmp_path / "log.json"
    log.write_text(json.dumps(BASE))
    assert main(["whatif", str(log), "--rules", rules]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.err and out.err
