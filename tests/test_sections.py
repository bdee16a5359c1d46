"""A session's result is built once as data (``reports.sections``) and laid
out by the text report, the settlement PDF and the pages: "who pays whom
how much" is one sentence (one msgid) everywhere, and a payment made is
said with that same sentence in every language (the French and Portuguese
report had drifted: "paie Ben 1" beside "paie 1 à Ben")."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from referee.language import LANGUAGES
from referee.record import read_log_file
from referee.replay import replay
from referee.reports.sections import Sections
from referee.reports.words import paid_words

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"


def _session(name: str):
    return replay(read_log_file(str(SAMPLES / f"{name}.json")), allow_open_last_hand=True)


def test_who_pays_whom_is_written_in_one_place():
    """The sentence's msgid is stated once (``reports.words.PAYS``): no page,
    paper or report writes it out again, nor a variant of it."""
    found = []
    for path in [*(ROOT / "referee").rglob("*.py"), *(ROOT / "templates").rglob("*.html")]:
        if "translations" in path.parts:
            continue
        text = path.read_text()
        if "pays {payee} {amount}" in text:
            found.append(path.relative_to(ROOT).as_posix())
    assert found == ["referee/reports/words.py"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_payment_made_is_said_as_a_transfer_is(lang):
    """The report's line of each payment made is the paid sentence in
    ``lang``, as the PDF says it (its words in their order, the amount as
    written): German read "Gezahlt: Chris zahlt Anna" (newcomer 41's N13)."""
    from referee.reports.text import format_report

    session = _session("ev_payments_two")
    payments = Sections.replayed(session).money.payments
    lines = format_report(session, session.result(), lang).splitlines()
    assert len(payments) == 2
    for given in payments:
        said = re.escape(paid_words(given.payer, given.payee, "\0", lang)).replace(
            re.escape("\0"), r"\S.*")
        made = [line for line in lines if re.search(said, line) and not line.startswith(" ")]
        assert made, (said, lines)


def test_the_sections_hold_the_money_as_the_log_and_the_ledger_give_it():
    sec = Sections.replayed(_session("ev_payments_pending_undone"))
    money = sec.money
    assert money is not None
    listed = [(p.payer, p.payee, p.amount, p.undone, p.pending) for p in money.payments]
    log = sec.log["payments"]
    assert [(d["from"], d["to"], Decimal(str(d["amount"]))) for d in log] == \
        [row[:3] for row in listed]
    # only what counts moves a balance: taken back and waiting payments do not
    counted = sum(p.amount for p in money.payments if not p.undone and not p.pending)
    assert sum(money.paid.values()) == sum(money.received.values()) == counted
    assert any(p.undone for p in money.payments) and any(p.pending for p in money.payments)


def test_a_hand_at_the_sessions_stake_written_otherwise_is_not_another_stake():
    """A hand's stake is another stake when its value differs, not its
    spelling ("0.250" is the session's 0.25)."""
    log = read_log_file(str(SAMPLES / "evt_hand_stake.json"))
    log["hands"][0]["stake"] = "0.250"
    sec = Sections.replayed(replay(log, allow_open_last_hand=True))
    assert 1 not in sec.own_stakes
    assert all(n != 1 for n, _s in sec.stake_changes())
