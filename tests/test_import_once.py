"""A night is stored once (newcomer 44's P1): importing a log whose table is
stored already is refused at every door, in the same words, naming the
table it is stored as; a copy is stored only when asked for. Imported twice,
the club's ledger counted every debt twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import language
from referee.cli import main
from referee.service import storage
from referee.service.errors import AlreadyStored
from referee.service.table import once, sessions

from .money_tables import open_table, out_by
from .test_api import bearer

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def exported(client, table) -> dict:
    r = client.get(f"/api/sessions/{table['id']}/log", headers=bearer(table["token"]))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def a_night(client) -> tuple[dict, dict]:
    """A table opened through the API (the service records when), with Ben
    owing Ann after one hand; its id and tokens, and its export."""
    table = open_table(client, players=("Ann", "Ben", "Cy"), table="Kitchen table")
    out_by(client, table, "Ann")
    return table, exported(client, table)


def ledger(capsys, db) -> str:
    capsys.readouterr()
    assert main(["ledger", "--db", str(db)]) == 0
    return capsys.readouterr().out


def test_the_command_refuses_a_log_stored_already_and_the_ledger_stays(client, tmp_path,
                                                                      capsys):
    _table, log = a_night(client)
    path, db = tmp_path / "t1.json", tmp_path / "club.sqlite3"
    path.write_text(json.dumps(log))
    assert main(["import", str(path), "--db", str(db)]) == 0
    first = capsys.readouterr().out.strip()
    before = ledger(capsys, db)
    assert main(["import", str(path), "--db", str(db)]) == 1
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.startswith("already stored [already_stored]: this log is already stored, "
                               f"as Kitchen table (table {first}): importing it again would "
                               "count its hands and its debts twice."), said.err
    assert "referee import --copy" in said.err
    assert ledger(capsys, db) == before
    assert storage.sessions.ids(storage.connect(str(db))) == [first]
    # Asked for, the copy is stored (a second table, its debts counted again).
    assert main(["import", str(path), "--db", str(db), "--copy"]) == 0
    assert len(storage.sessions.ids(storage.connect(str(db)))) == 2


def test_the_api_refuses_it_in_the_same_words_and_stores_a_copy_asked_for(client):
    table, log = a_night(client)
    r = client.post("/api/sessions", json=log)
    assert r.status_code == 409, r.get_json()
    error = r.get_json()["error"]
    assert error["code"] == "already_stored"
    assert error["message"].startswith(
        f"this log is already stored, as Kitchen table (table {table['id']}): ")
    r = client.post("/api/sessions", json={**log, "copy": True})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["id"] != table["id"]


def test_a_later_export_of_the_same_table_is_the_same_night(client, database):
    """The first export is stored; the table played on; its later export
    holds the first hands again: refused too, as a restore of a newer
    backup over an older one would double them."""
    table, log = a_night(client)
    db = storage.connect(database)
    stored = sessions.import_log(db, log, copy=True)  # a second copy, as if elsewhere
    out_by(client, table, "Ben")
    later = exported(client, table)
    with pytest.raises(AlreadyStored) as refused:
        sessions.import_log(db, later)
    # the first one stored of that night is named
    assert refused.value.params["id"] == table["id"] != stored.id


def test_another_table_opened_alike_is_not_refused(client):
    """Same players, rules and stake, but another opening time (or another
    first deal at the same time): another night, stored."""
    _table, log = a_night(client)
    r = client.post("/api/sessions", json={**log, "started": "2026-11-21T20:00:01Z"})
    assert r.status_code == 201, r.get_json()
    first = log["hands"][0]
    other = {**first, "dealer": next(p for p in log["players"] if p != first["dealer"])}
    r = client.post("/api/sessions", json={**log, "hands": [other, *log["hands"][1:]]})
    assert r.status_code == 201, r.get_json()


def test_a_log_with_no_time_is_refused_only_when_it_is_that_log_again(database):
    """A hand-written log has no ``started``: the same document again is the
    same night; another night with the same players and rules is not."""
    db = storage.connect(database)
    basic = json.loads((SAMPLES / "pagat_basic.json").read_text())
    basic.pop("started", None)
    sessions.import_log(db, basic)
    with pytest.raises(AlreadyStored):
        sessions.import_log(db, json.loads(json.dumps(basic)))
    sessions.import_log(db, {**basic, "table": "Back room"})  # another log: stored


def test_the_refusal_is_said_in_every_language():
    for template in (once.STORED_AS, once.STORED_AS_NAMED):
        err = AlreadyStored("already_stored", template, {"id": "abc123def456", "table": "K"})
        for lang in ("de", "fr", "pt"):
            said = language.message(err, lang)
            assert said != err.message and "abc123def456" in said and "--copy" in said


def test_two_tables_opened_alike_in_one_second_are_two(client, monkeypatch):
    """A log with no hand and no time is a table opening now (the API's
    "hands": []): never a night stored already."""
    monkeypatch.setattr(storage, "now_seconds", lambda: "2026-11-29T04:53:00Z")
    header = {"format": "tonk-log/1", "stake": "1", "rules": "pagat", "players": ["A", "B"]}
    made = {client.post("/api/sessions", json={**header, "hands": []}).get_json()["id"]
            for _ in range(3)}
    assert len(made) == 3
