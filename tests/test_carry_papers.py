"""Debts carried between tables, said as what they are on every paper
(newcomer 44, P4): the table whose debts were carried *away* listed them in
its balances' "Brought forward" column with the sign reversed ("Ben:
Brought forward 7.00" for the 7 Ben owed, moved on), on the paper everyone
signs. A paper now has a "Carried on" column beside (never inside) the
"Brought forward" one, each only where the table has such money, and the
sentence under the balances (the text report's formula too) names the
columns the table has, in every language."""

from __future__ import annotations

import json
import re

import pytest

from referee.cli import main as cli_main
from referee.language import LANGUAGES, gettext
from referee.replay import replay
from referee.reports.settlement import render_settlement
from referee.reports.text import format_report
from referee.reports.words import BALANCE_IS, BALANCES_ARE
from tests.money_tables import carry, get, made, open_table, out_by
from tests.reports_fixtures import pdf_text


def _night(client):
    """Ann owes Ben 1.00 at the Kitchen table; the debt is carried on to
    the Kitchen, Sunday (Ann and Ben), where Ben goes out again."""
    early = open_table(client, players=("Ann", "Ben"), table="Kitchen table")
    out_by(client, early, "Ben")
    late = made(carry(client, early, ("Ann", "Ben")))
    out_by(client, late, "Ben")
    return early, late


def _paper(log: dict, lang: str) -> str:
    return pdf_text(render_settlement(replay(log), lang=lang))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_paper_of_a_table_whose_debts_went_on_says_carried_on(client, lang):
    early, late = _night(client)
    _ = lambda s, **kw: gettext(lang, s, **kw)  # noqa: E731
    old = _paper({**get(client, early, "/log"), "language": lang}, lang)
    num = (lambda s: s.replace(".", ",")) if lang != "en" else (lambda s: s)
    # Player, Hands, Paid, Received, Carried on, Balance: Ann's -1.00 went on,
    # as lost, and she stands at 0 here; no column of money brought forward.
    assert _("Carried on") in old and _("Brought forward") + " " not in old, old
    assert re.search(re.escape(num("Ann -1.00 0.00 0.00 -1.00 0.00")), old), old
    assert re.search(re.escape(num("Ben 1.00 0.00 0.00 1.00 0.00")), old), old
    assert " ".join(_(BALANCE_IS[False, True]).split()) in old
    new = _paper({**get(client, late, "/log"), "language": lang}, lang)
    # Player, Brought forward, Hands, Paid, Received, Balance
    assert re.search(re.escape(num("Ann -1.00 -1.00 0.00 0.00 -2.00")), new), new
    assert _("Carried on") not in new
    assert " ".join(_(BALANCE_IS[True, False]).split()) in new


def test_the_text_report_names_what_was_carried_on_in_its_formula(client):
    early, _late = _night(client)
    log = get(client, early, "/log")
    report = format_report(session := replay(log), session.result(), "en")
    assert BALANCES_ARE[False, True].format(amounts="Ann 0.00 USD, Ben 0.00 USD") in report, report


def test_the_command_lines_paper_of_an_export_says_carried_on(client, tmp_path, capsys):
    early, _late = _night(client)
    path = tmp_path / "early.json"
    path.write_text(json.dumps({**get(client, early, "/log"), "language": "de"}))
    assert cli_main(["settle", str(path), "--pdf", str(tmp_path / "early.pdf")]) == 0
    paper = pdf_text((tmp_path / "early.pdf").read_bytes())
    assert "Ann -1,00 0,00 0,00 -1,00 0,00" in paper, paper
    capsys.readouterr()


def test_the_api_says_what_was_carried_on_beside_what_was_brought_forward(client):
    """The session's answer gave ``brought_forward`` but not where the
    debts carried away went: its balances could not be explained from it."""
    early, late = _night(client)
    got = get(client, early, "")
    assert [(c["to"], c["balances"]) for c in got["carried_forward"]] == [
        (late["id"], {"Ann": "-1.00", "Ben": "1.00"})]
    assert get(client, late, "")["carried_forward"] is None
    assert get(client, early, "/standings")["carried_forward"] == got["carried_forward"]
