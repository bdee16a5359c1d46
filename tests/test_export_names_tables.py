"""A log exported from a table whose debts went on to a later one names that
table as the table's own pages and paper do (newcomer 44's P12: the replay
and the command line's paper said "Table opened 2026-11-29 04:53 UTC" where
the web paper said "Küche, Tisch 2")."""

from __future__ import annotations

import json

from referee.cli import main
from referee.service import trust
from referee.service.table import sessions
from referee.web.db import get_db
from tests.money_tables import KEY, get, made, open_table, out_by
from tests.reports_fixtures import pdf_text

LATER = "Küche, Tisch 2"


def _night(client) -> tuple[dict, dict]:
    early = open_table(client, players=("Ann", "Ben"), table="Kitchen table")
    out_by(client, early, "Ben")
    late = made(client.post("/api/sessions", headers=KEY, json={
        "table": LATER, "stake": "1", "rules": "pagat", "players": ["Ann", "Ben"],
        "currency": "USD", "brought_forward_from": early["id"],
        "brought_forward_token": early["token"]}))
    return early, late


def test_the_replay_and_the_paper_of_an_export_name_the_later_table(client, tmp_path, capsys):
    early, _late = _night(client)
    log = get(client, early, "/log")
    assert [c.get("table") for c in log["carried_forward"]] == [LATER]
    path = tmp_path / "early.json"
    path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert f"Carried on to {LATER}: Ann -1.00 USD, Ben 1.00 USD" in capsys.readouterr().out
    assert main(["settle", str(path), "--pdf", str(tmp_path / "early.pdf")]) == 0
    assert f"Carried on to {LATER}" in pdf_text((tmp_path / "early.pdf").read_bytes())


def test_the_export_with_its_chain_still_verifies(client):
    early, _late = _night(client)
    with client.application.app_context():
        exported = sessions.export_with_chain(get_db(), early["id"])
    assert exported["carried_forward"][0]["table"] == LATER
    assert trust.verify_log(exported) == exported["head"]


def test_a_carry_naming_its_table_is_read_and_a_bad_name_refused(client):
    log = json.loads(json.dumps(get_log_with_carry()))
    assert client.post("/api/sessions", json=log).status_code == 201
    log["carried_forward"][0]["table"] = ""
    r = client.post("/api/sessions", json={**log, "copy": True})
    assert r.status_code == 400 and "carried_forward" in r.get_json()["error"]["message"]


def get_log_with_carry() -> dict:
    return {"format": "tonk-log/1", "stake": "1", "rules": "pagat", "players": ["Ann", "Ben"],
            "hands": [{"dealer": "Ann", "ending": {"how": "out", "by": "Ben"}}],
            "carried_forward": [{"to": "0123456789ab", "balances": {"Ann": "-1", "Ben": "1"},
                                 "at": "2026-11-29T04:53:00Z", "table": LATER}]}


def test_the_later_tables_export_names_where_its_debts_came_from(client, tmp_path, capsys):
    early, late = _night(client)
    log = get(client, late, "/log")
    assert log["brought_from"] == {"id": early["id"], "table": "Kitchen table"}
    path = tmp_path / "late.json"
    path.write_text(json.dumps({**log, "language": "de"}, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    said = "Übertrag von Kitchen table: Ann -1,00\u00a0$, Ben 1,00\u00a0$"
    assert said in capsys.readouterr().out
    with client.application.app_context():
        exported = sessions.export_with_chain(get_db(), late["id"])
    assert trust.verify_log(exported) == exported["head"]
