"""The reports blueprint: PDFs to download, what-if, the auditor's step view."""

from __future__ import annotations

import pytest

from referee.service.table import sessions
from tests.reports_fixtures import pdf_text, session_log


@pytest.fixture()
def stored(app):
    with app.app_context():
        db = app.extensions["referee"]["db"]
        info = sessions.import_log(db, session_log(), pin="4321")
    return info


def test_reports_need_a_token_when_the_table_has_a_pin(app, stored):
    client = app.test_client()
    r = client.get(f"/reports/{stored.id}/")
    # A locked tablet is led to the unlock page, which brings it back here.
    assert r.status_code == 303
    assert f"/s/{stored.id}/unlock?next=/reports/{stored.id}/" in r.headers["Location"]
    assert client.get(f"/reports/{stored.id}/?token=wrong").status_code == 403
    assert client.get("/reports/nosuch/").status_code == 303  # as a real one
    r = client.get(f"/reports/{stored.id}/?token={stored.audit_token}")
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert "Settlement PDF" in body and "step through" in body
    assert f"token={stored.audit_token}" in body


def test_settlement_and_audit_pdfs(app, stored):
    client = app.test_client()
    tok = f"?token={stored.audit_token}"
    r = client.get(f"/reports/{stored.id}/settlement.pdf{tok}")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = pdf_text(r.data)
    assert "Jürgen pays Zoë $1.75" in text and "Final event hash" in text
    r = client.get(f"/reports/{stored.id}/hands/1/audit.pdf{tok}")
    assert r.status_code == 200
    assert "Jürgen dropped with 10" in pdf_text(r.data)
    assert client.get(f"/reports/{stored.id}/hands/9/audit.pdf{tok}").status_code == 404


def test_auditor_steps_through_a_hand(app, stored):
    client = app.test_client()
    base = f"/reports/{stored.id}/hands/1/audit?token={stored.audit_token}"
    first = client.get(base).get_data(as_text=True)
    assert "The deal" in first and "next ›" in first
    third = client.get(base + "&step=2").get_data(as_text=True)
    assert "Jürgen: spread 3♣ 3♦ 3♥" in third and "S1 (Jürgen) 3♣ 3♦ 3♥" in third
    last = client.get(base + "&step=99").get_data(as_text=True)
    assert "Jürgen is caught" in last and "next ›" not in last


def test_whatif_page(app, stored):
    client = app.test_client()
    url = f"/reports/{stored.id}/whatif?token={stored.audit_token}"
    r = client.get(url + "&rules=%7B%22caught%22%3A+%22double_to_all%22%7D")
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and "diff" in body and "double_to_all" in body
    body = client.get(url + "&rules=baton_rouge").get_data(as_text=True)
    assert "40-card deck" in body
    body = client.get(url + "&rules=nope").get_data(as_text=True)
    assert "unknown preset" in body


def test_session_and_hand_pages_link_to_the_reports(tmp_path):
    from referee.web import create_app
    from tests.test_tablet import act, create, start

    app = create_app({"DATABASE": str(tmp_path / "t.sqlite3"), "TESTING": True,
                      "SECRET_KEY": "x"})
    client = app.test_client()
    sid = create(client)
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    assert f"/reports/{sid}/settlement.pdf" in page
    pdf = client.get(f"/reports/{sid}/settlement.pdf")
    assert pdf.status_code == 200 and pdf.headers["Content-Type"] == "application/pdf"
    start(client, sid)
    act(client, sid, 1, "draw")
    hand = client.get(f"/s/{sid}/hands/1").get_data(as_text=True)
    assert f"/reports/{sid}/hands/1/audit.pdf" in hand
    assert f"/reports/{sid}/hands/1/audit" in hand


@pytest.mark.parametrize("n", [1, 2])
def test_an_earlier_hands_audit_with_money_of_a_player_seated_later(app, n):
    """Dee sits down at hand 2 and pays at the table: the audit of hand 1
    (replayed only up to it, before Dee sat) still draws, page and PDF; it
    answered 500 (the match summary counted the whole session's money over
    hand 1's players)."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).resolve().parents[1] / "sample_logs" /
                      "ev_payments_newcomer.json").read_text())
    with app.app_context():
        info = sessions.import_log(app.extensions["referee"]["db"], log)
    client = app.test_client()
    tok = f"token={info.audit_token}"
    page = client.get(f"/reports/{info.id}/hands/{n}/audit?{tok}&step=99")
    assert page.status_code == 200
    assert "Ben" in page.get_data(as_text=True)
    assert client.get(f"/reports/{info.id}/hands/{n}/audit.pdf?{tok}").status_code == 200


def test_the_clis_papers_of_a_stored_table_are_the_webs(app, client, tmp_path):
    """One gathering of what a stored table's papers say beyond its log
    (StoredSession.settlement_paper, audit_settled): a dispute settled by a
    correction reads settled on the CLI's settlement and audit PDFs as on the
    web's. The CLI's said it was open."""
    from referee.cli import main
    from tests.test_api import Game

    g = Game(client)
    g.start()
    g.finish_hand()
    g.correct_last("fix")
    assert g.post(str(g.sim.hand.actions[-1])).status_code == 201  # logged again
    g.seq += 1
    db = app.config["DATABASE"]
    tok = f"?token={g.audit}"
    for path, argv in ((f"/reports/{g.sid}/settlement.pdf{tok}", ["settle"]),
                       (f"/reports/{g.sid}/hands/1/audit.pdf{tok}", ["audit", "--hand", "1"])):
        web = client.get(path)
        assert web.status_code == 200
        out = tmp_path / "paper.pdf"
        assert main([*argv, g.sid, "--db", db, "--pdf", str(out)]) == 0
        assert pdf_text(out.read_bytes()) == pdf_text(web.data), argv
