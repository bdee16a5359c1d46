"""The batched import (``sessions.import_log``): the log is checked once
(``load_log``; the API's body reader leaves the walk to it), and a log it
refuses is named as the replay names it (hand, action, field) and leaves
the database exactly as it was, through the API and ``referee import``."""

from __future__ import annotations

import json

import pytest

from referee.cli import main
from referee.record import WrittenNumber, parse_json
from referee.record.chain import event_hash, event_hash_v2, event_hashes_v2
from referee.service import storage

from .test_api import BAD, GOOD, assert_error

TABLES = ("sessions", "events", "hands", "seats")


def counts(path) -> dict[str, int]:
    db = storage.connect(str(path))  # either backend
    try:
        return {t: db.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    finally:
        db.close()


def base() -> dict:
    return json.loads(GOOD[0].read_text())


def hostile() -> dict[str, tuple[dict, str]]:
    deep = base()
    deep["rules"] = {"preset": "pagat", "x": json.loads("[" * 60 + "]" * 60)}
    surrogate = base()
    surrogate["hands"][0]["actions"][0] = "Ben: draw \ud800"
    nested_hand = base()
    nested_hand["hands"][0]["deal"] = json.loads("[" * 60 + "]" * 60)
    return {"deep rules": (deep, "rules"), "lone surrogate": (surrogate, "actions"),
            "deep hand": (nested_hand, "deal")}


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_a_refused_import_stores_nothing(app, client, path):
    client.post("/api/sessions", json=base())  # something there already
    before = counts(app.config["DATABASE"])
    r = client.post("/api/sessions", json=json.loads(path.read_text()))
    if r.status_code == 201:
        pytest.skip("only the unfinished last hand is wrong: an import may continue it")
    expected = json.loads(path.with_suffix(".expected.json").read_text())["error"]
    got = assert_error(r, r.status_code, expected["code"])
    assert (got["hand"], got["action"]) == (expected["hand"], expected["action"])
    assert counts(app.config["DATABASE"]) == before


@pytest.mark.parametrize("name", ["deep rules", "lone surrogate", "deep hand"])
def test_a_hostile_import_is_refused_naming_the_field(app, client, tmp_path, capsys, name):
    doc, field = hostile()[name]
    before = counts(app.config["DATABASE"])
    # Escaped, as an attacker sends a lone surrogate.
    r = client.post("/api/sessions", data=json.dumps(doc), content_type="application/json")
    assert field in assert_error(r, 400)["message"]
    assert counts(app.config["DATABASE"]) == before
    log, db = tmp_path / "log.json", tmp_path / "db.sqlite3"
    log.write_text(json.dumps(doc))
    assert main(["import", str(log), "--db", str(db)]) == 2
    out = capsys.readouterr()
    assert field in out.out + out.err and "Traceback" not in out.err
    assert not db.exists() or counts(db) == {t: 0 for t in TABLES}


@pytest.mark.parametrize("client_id,hand", [(None, None), ("c1", 3), ('q"\\ü', 0)])
def test_the_direct_hashes_are_the_generic_ones(client_id, hand):
    """``event_hash_v2`` (verify) and ``event_hashes_v2`` (the import) write
    the canonical body ``event_hash`` builds from a dict."""
    row = {"id": 7, "chain": 2, "session_id": "s\u00e9", "hand": hand, "seq": 4,
           "kind": "action", "payload": '{"action":"Ann: draw","text":"Ann: draw"}',
           "client_id": client_id, "created": "2026-11-24T00:00:00.000Z"}
    prev = "a" * 64
    direct = event_hash_v2(prev, row["id"], row["session_id"], hand, row["seq"], row["kind"],
                           row["payload"], client_id, row["created"])
    assert direct == event_hash(prev, row)
    if client_id is None:
        second = {**row, "id": 8, "seq": 5, "kind": "hand_start", "payload": "{}"}
        assert event_hashes_v2(prev, row["session_id"], row["created"], [
            (r["id"], r["hand"], r["seq"], r["kind"], r["payload"]) for r in (row, second)]) \
            == [direct, event_hash(direct, second)]


@pytest.mark.parametrize("text", [
    '{"stake_multiplier": 123456789012345678901234567890}',  # orjson: a float
    '{"a": 18446744073709551615, "b": -9223372036854775808, "c": 0.1, "d": 1e400}',
    '{"a": NaN, "b": -Infinity}', '{"a": 1, "a": 2}', '{"name": "Zo\\u00eb"}',
    '{"deal": [["Ann", -99999999999999999999999]], "n": "12345678901234567890"}',
    '{"a": 1234567890123456789, "b": "Zo\u00eb 1234567890123456789"}',
])
def test_the_body_reads_as_json_loads_reads_it(text):
    """orjson reads the body where it can; whatever it would read otherwise
    (an integer past 64 bits, NaN) is read by json.loads, as before."""
    for given in (text, text.encode()):
        got, want = parse_json(given), json.loads(text)
        # A number no double holds is that float, written as it was sent
        # (record.WrittenNumber: a refusal quotes "1e400", never "inf").
        sent = {k: str(v) for k, v in got.items() if isinstance(v, WrittenNumber)}
        assert sent == ({"d": "1e400"} if "1e400" in text else
                        {"a": "NaN", "b": "-Infinity"} if "NaN" in text else {})
        assert repr({k: float(v) if k in sent else v for k, v in got.items()}) == repr(want)
        assert all(isinstance(g, type(w)) for g, w in zip(got.values(), want.values(), strict=True))
