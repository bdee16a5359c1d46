"""The attack again (issue 34): what an adversary over loopback, with hostile
files or with the database file found that the earlier rounds had not. Each
test reproduces one finding; the figures are in docs/decisions.md ("The
attack again (issue 34)")."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.service import storage
from referee.service.table import cache

from .test_api import Game
from .test_trust import played, raw, verify

ROOT = Path(__file__).resolve().parents[1]
BASE = json.loads((ROOT / "sample_logs" / "pagat_basic.json").read_text())
LONG = "9" * 3000  # beyond the 28 digits Decimal keeps


@pytest.fixture
def backend():
    """SQLite: some of these tests edit the file itself."""
    return "sqlite"


# ------------------------------------------- a long amount refused in German

@pytest.mark.parametrize("lang", ["de", "fr", "pt"])
def test_a_long_amount_is_refused_in_every_language_without_a_500(client, lang):
    """An import's payment of 3,000 digits is refused (its bound): the refusal
    quotes it, and writing it in German, French or Portuguese raised
    InvalidOperation inside babel, a 500."""
    log = {**BASE, "hands": [], "payments": [{"from": "Ann", "to": "Ben", "amount": LONG}]}
    r = client.post("/api/sessions", json=log, headers={"Accept-Language": lang})
    assert r.status_code == 400, r.get_data()[:300]
    assert r.get_json()["error"]["code"] == "malformed"


def test_replay_refuses_a_long_amount_in_german_with_exit_2(tmp_path, capsys):
    path = tmp_path / "long.json"
    path.write_text(json.dumps({**BASE, "payments": [{"from": "Ann", "to": "Ben",
                                                       "amount": LONG}]}))
    assert main(["replay", str(path), "--lang", "de"]) == 2
    assert "höchstens 1.000.000.000.000" in capsys.readouterr().err


# ------------------------------------------- a hand's audit with long refusals

LONG_REFUSALS = ["Ben: " + "X" * 495, "Ben: draw " + "2c " * 163, "Ben: " + "\u0301" * 495,
                 "Ben: " + "W" * 495, "Ben: " + "\ufdfd" * 495]


def test_a_hand_of_long_refused_actions_keeps_its_audit(client):
    """A table (or a seat) posts refused 500-character actions, each kept in
    the chain and quoted again by its refusal: the step's row grew taller
    than a page, and the hand's audit PDF, the evidence of a dispute,
    answered 500 for everyone."""
    g = Game(client)
    g.start()
    for k, text in enumerate(LONG_REFUSALS):
        assert g.post(text, client_id=f"long{k}").status_code == 422
    r = client.get(f"/reports/{g.sid}/hands/{g.n}/audit.pdf?token={g.audit}")
    assert r.status_code == 200, r.get_data()[:300]
    assert r.data.startswith(b"%PDF")


def test_audit_draws_a_log_with_a_huge_action(tmp_path):
    """A log's action of 150,000 characters (malformed, and drawn as such):
    the audit raised reportlab's LayoutError, a traceback."""
    log = json.loads(json.dumps(BASE))
    log["hands"][0]["actions"].insert(0, "Ben: draw " + "2c " * 50_000)
    path = tmp_path / "huge-action.json"
    path.write_text(json.dumps(log))
    out = subprocess.run([sys.executable, "-m", "referee", "audit", str(path), "--hand", "1",
                          "--pdf", str(tmp_path / "a.pdf")],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert "Traceback" not in out.stderr, out.stderr[-1500:]
    assert out.returncode in (0, 1, 2)


# ------------------------------------------- verify on an unreadable row

UNREADABLE = [("hands", "result"), ("hands", "running"), ("hands", "setup"),
              ("hands", "seats"), ("sessions", "header"), ("sessions", "everyone"),
              ("sessions", "rules_expanded"), ("sessions", "next_seats"),
              ("sessions", "quantum")]


@pytest.mark.parametrize("table,column", UNREADABLE)
def test_verify_names_an_unreadable_row_and_checks_the_other_sessions(
        app, client, capsys, table, column):
    """A row edited into text the service never writes (not JSON, no number):
    verify stopped with a traceback (JSONDecodeError, InvalidOperation) and
    checked no other session; now it is that session's fault, exit 1."""
    first = played(client, hands=1, undo=False)
    second = played(client, hands=1, undo=False)
    raw(app).execute(f"UPDATE {table} SET {column} = 'x{{' WHERE "
                     f"{'session_id' if table == 'hands' else 'id'} = ?", [first.sid])
    capsys.readouterr()
    assert verify(app) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.err
    assert "a stored row cannot be read" in said.out + said.err
    assert "2 sessions checked, 1 with a fault" in said.out + said.err
    assert second.sid != first.sid


# ------------------------------------------- memory: a lock per table, forever

def test_a_table_nobody_writes_to_keeps_no_lock(app, client):
    """Each table written to left its lock in a dict for the life of the
    process: opening tables (no host key by default) grew it without bound."""
    for _ in range(30):
        Game(client).start()
    gc.collect()
    assert len(cache._locks) < 5


def test_the_lock_is_one_while_it_is_held(app):
    db = storage.connect(app.config["DATABASE"])
    held = cache.lock(db, "x")
    with held:
        assert cache.lock(db, "x") is held
        assert cache.lock(db, "y") is not held


# ------------------------------------------- a hostile amount in the tablet's forms

HUGE_AMOUNTS = ["9" * 3000, "1e400", "-1e-400"]


@pytest.mark.parametrize("currency", ["", "EUR"])
@pytest.mark.parametrize("amount", HUGE_AMOUNTS)
def test_a_huge_stake_or_payment_typed_in_the_form_is_refused_without_a_500(
        client, amount, currency):
    """The manage page's stake and payment forms write their confirmation
    (the amount in the reader's form) before the write refuses the amount:
    babel rounded 3,000 digits or 1e400 in the 28-digit context, a 500 with a
    traceback. Now refused like any bad amount, and nothing is written."""
    from referee.service.table import sessions
    from referee.web.db import get_db

    from .test_tablet import create, flashes, form_value

    sid = create(client, currency=currency)
    manage = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    csrf = form_value(manage, "csrf_token")
    for path, fields in (("stake", {"stake": amount}),
                         ("payment", {"from": "Ann", "to": "Ben", "amount": amount})):
        r = client.post(f"/s/{sid}/manage/{path}",
                        data={"csrf_token": csrf, "client_id": f"huge-{path}", **fields})
        assert r.status_code < 500, r.get_data()[:300]
        page = client.get(r.headers["Location"]).get_data(as_text=True)
        assert [f for f in flashes(page) if f[0] == "error"], path
    with client.application.app_context():
        log = sessions.get_log(get_db(), sid)
    assert not log.get("payments") and log["stake"] != amount


# ------------------------------------------- a payment taken back, as documented

def test_a_taken_back_payment_is_answered_as_the_openapi_document_says(client):
    """schemathesis (response_schema_conformance) on ``/standings``: a
    payment taken back carries its mark (``undone``: who and when), which the
    documented PaymentMade (additionalProperties false) did not allow, so a
    generated client refused the table's standings and summary."""
    from openapi_schema_validator import OAS30Validator

    g = Game(client)
    auth = {"Authorization": f"Bearer {g.table}"}
    r = client.post(g.url("/payments"), json={"from": "Ann", "to": "Ben", "amount": "1",
                                              "client_id": "paid"}, headers=auth)
    assert r.status_code == 201, r.get_json()
    r = client.post(g.url("/payments/1/undo"), json={"client_id": "back"}, headers=auth)
    assert r.status_code in (200, 201), r.get_json()
    document = client.get("/api/openapi.json").get_json()
    for tail, name in (("/standings", "Standings"), ("", "SessionSummary")):
        got = client.get(g.url(tail), headers=auth).get_json()
        assert "undone" in got["payments"][0], got["payments"]
        OAS30Validator({"$ref": f"#/components/schemas/{name}",
                        "components": document["components"]}).validate(got)
