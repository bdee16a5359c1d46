"""The pages read the result's one model (issue 32 item 1): the table's
pages lay out the same ``reports.sections.Sections`` as the text report and
the settlement PDF, built from the service's stored running totals
(``Sections.stored``) where the papers replay the log (``Sections.replayed``).
The two sources give the same facts; a section changed shows on the page,
the PDF and the text report alike; and a page never replays the night."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from referee.ledger.settlement import Transfer
from referee.replay import replay
from referee.reports import sections as sections_module
from referee.reports.sections import Sections
from referee.reports.text import format_report
from referee.service.table import disputes, sessions
from referee.web.db import get_db
from tests.reports_fixtures import pdf_text
from tests.test_api import bearer
from tests.test_pay import unlock

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"
# Logs whose money, disputes, matches, stakes and closing the sections hold.
WITH_SECTIONS = ["ev_brought_forward_payments", "ev_carried_forward", "ev_disputes",
                 "ev_payments_pending_undone", "evt_payments_partly", "ev_closed_language",
                 "evt_hand_stake_places", "opt_caught_lowest_wins_push_ups",
                 "ev_balances_more_places", "opt_match_to_not_over", "opt_match_to_over",
                 "opt_match_to_shared_win", "spec36_match_over_tie"]


def _import(client, name: str) -> dict:
    r = client.post("/api/sessions", data=(SAMPLES / f"{name}.json").read_bytes(),
                    content_type="application/json")
    assert r.status_code == 201, (name, r.get_json())
    return r.get_json()


def _facts(sec: Sections) -> dict:
    """Every fact of the sections but the hands (a stored source has none)."""
    money = sec.money
    return {
        "head": (sec.players, sec.table, sec.preset, sec.push_ups, sec.currency, sec.stake,
                 sec.started, sec.closed, sec.final, sec.quantum),
        "totals": sec.totals,
        "owed": ([(t.payer, t.payee, t.amount) for t in sec.transfers], sec.transfer_quantum),
        "money": None if money is None else (
            money.quantum, money.brought_forward, money.carried_out, money.carries,
            [(p.payer, p.payee, p.amount, p.at, p.note, p.undone, p.pending, p.claimed, p.by)
             for p in money.payments], money.paid, money.received, money.balances),
        "match": sec.match, "best": sec.best if sec.push_ups else None,
        "disputes": [(d.hand, d.action, d.by, d.note, d.settled) for d in sec.disputes],
    }


@pytest.mark.parametrize("name", WITH_SECTIONS)
def test_the_stored_and_the_replayed_sections_are_the_same_facts(client, name):
    """A stored table's sections from its running totals (what its pages
    read) hold what a replay of its export gives (what its papers read)."""
    made = _import(client, name)
    sid = made["id"]
    log = client.get(f"/api/sessions/{sid}/log", headers=bearer(made["audit_token"])).get_json()
    with client.application.app_context():
        db = get_db()
        settled = disputes.all_settlements(db, sid)
        stored = Sections.stored(sessions.running_result(db, sid), disputes.disputed(db, sid),
                                 settled)
    replayed = Sections.replayed(replay(log, allow_open_last_hand=True), settled)
    assert stored.hands is None and replayed.hands
    assert _facts(stored) == _facts(replayed)


def test_a_stored_tables_sections_read_no_dispute_unless_asked(client):
    made = _import(client, "ev_disputes")
    with client.application.app_context():
        sec = Sections.stored(sessions.running_result(get_db(), made["id"]))
    assert sec.disputes is None  # not read: not an empty list, which would say "none"


CHANGED = Transfer("Zed", "Yan", Decimal("987.65"))


@pytest.fixture
def changed_sections(monkeypatch):
    """Every ``Sections`` built from here on with one section changed: who
    pays whom (a transfer nobody owes), and the first player's total."""
    made = sections_module.Sections.__init__

    def init(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.transfers = [CHANGED]
        self.totals = {**self.totals, self.players[0]: Decimal("4321")}

    monkeypatch.setattr(sections_module.Sections, "__init__", init)


def test_a_section_changed_shows_on_the_pages_the_pdf_and_the_text_report(
        client, changed_sections):
    """The settle page's transfers, the table page's totals and settle-up,
    the manage page's debts, the PDF's and the text report's all come from
    the one model: changing it changes every one of them."""
    made = _import(client, "ev_payments_two")
    sid = made["id"]
    unlock(client, sid, made["table_token"])
    for tail in ("/settle", "", "/manage", "/standings"):
        page = client.get(f"/s/{sid}{tail}?lang=en").get_data(as_text=True)
        assert "Zed pays Yan" in page and "987.65" in page, tail
    assert "4,321.00" in client.get(f"/s/{sid}?lang=en").get_data(as_text=True)
    assert "4,321.00" in client.get(f"/s/{sid}/tv?lang=en").get_data(as_text=True)
    pdf = client.get(f"/reports/{sid}/settlement.pdf?token={made['audit_token']}&lang=en")
    assert pdf.status_code == 200
    paper = pdf_text(pdf.data)
    assert "Zed pays Yan" in paper and "987.65" in paper and "4,321.00" in paper
    log = client.get(f"/api/sessions/{sid}/log", headers=bearer(made["audit_token"])).get_json()
    session = replay(log, allow_open_last_hand=True)
    report = format_report(session, session.result(), "en")
    assert "Zed pays Yan 987.65" in report and "4321.00" in report


def test_the_tables_pages_never_replay_the_night(client, monkeypatch):
    """The pages read the stored running totals: a replay per request would
    grow with the night (the papers, asked for, replay)."""
    made = _import(client, "ev_disputes")
    sid = made["id"]
    unlock(client, sid, made["table_token"])
    hands = len(json.loads((SAMPLES / "ev_disputes.json").read_text())["hands"])

    def refused(*args, **kwargs):
        raise AssertionError("a page replayed the log")

    monkeypatch.setattr(Sections, "replayed", classmethod(refused))
    monkeypatch.setattr("referee.replay.sequential.Session.result", refused)
    for tail in ("", "/standings", "/settle", "/tv", "/manage",
                 *(f"/hands/{n}" for n in range(1, hands + 1))):
        assert client.get(f"/s/{sid}{tail}").status_code == 200, tail


def test_a_carried_debt_is_named_on_both_tables_pages_and_papers(client):
    """A debt carried from one table into the next shows on both tables'
    pages as on their papers, each table named (newcomer's night, F14):
    the new table's standings and settle-up say where the debt came from
    (its totals alone said +1.00 while the player paid 2.00), and the old
    table's say where it went (they said "Nobody owes anything", as if it
    had been paid); the papers name the table, not its id."""
    from tests.money_tables import open_table, out_by, paper_text

    early = open_table(client, players=("Ann", "Ben"), table="Kitchen table")
    out_by(client, early, "Ben")  # Ann owes Ben 1.00
    late = open_table(client, players=("Ben", "Ann", "Dora"), table="Kitchen, Sunday",
                      brought_forward_from=early["id"], brought_forward_token=early["token"])
    out_by(client, late, "Dora")
    came = "Brought forward from Kitchen table: Ben $1.00, Ann -$1.00"
    went = "Carried on to Kitchen, Sunday: Ben $1.00, Ann -$1.00"
    unlock(client, late["id"], late["token"])
    unlock(client, early["id"], early["token"])
    for path in ("", "/standings", "/settle"):
        page = client.get(f"/s/{late['id']}{path}").get_data(as_text=True)
        assert came in page, path
        old = client.get(f"/s/{early['id']}{path}").get_data(as_text=True)
        assert went in old, path
    assert "Nobody owes anything" in old
    assert went in paper_text(client, early) and early["id"] not in paper_text(client, early)
    assert came in paper_text(client, late)
