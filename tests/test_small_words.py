"""Small words and numbers (newcomer45's P11): a count agrees with its noun,
and every amount of the text report says its currency."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee import language
from referee.cli import main
from referee.replay import replay
from referee.reports.settlement import render_settlement
from tests.reports_fixtures import pdf_text
from tests.test_club import weeks  # noqa: F401 - the season's fixture

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"

# "2 played, 1 void" in each language's agreement: one void hand is singular.
PLAYED_VOID = {"en": "2 played, 1 void", "de": "2 gespielt, 1 annulliert",
               "fr": "2 jouées, 1 annulée", "pt": "2 jogadas, 1 anulada"}


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_the_settlement_says_one_void_hand_in_the_singular(lang):
    log = json.loads((SAMPLES / "ev_void_misdeal.json").read_text())
    text = pdf_text(render_settlement(replay(log), lang=lang))
    assert PLAYED_VOID[lang] in text, text[:600]


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_the_text_report_says_carried_money_in_its_currency(lang, tmp_path, capsys):
    """'Reporté à …: Amélie 5,00' said no currency where every other line did."""
    log = json.loads((SAMPLES / "ev_carried_forward.json").read_text())
    log["currency"] = "EUR"
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    assert main(["replay", str(path), "--lang", lang]) == 0
    out = capsys.readouterr().out
    carried = language.gettext(lang, "Carried on to {table}: {amounts}").split("{")[0]
    lines = [line for line in out.splitlines()
             if line.startswith(carried) or re.match(r"^\w+ \(", line)]
    assert lines, out
    for line in lines:
        amounts = line.rsplit(": ", 1)[-1].rsplit("\u00a0: ", 1)[-1]
        for said in amounts.split(", "):
            assert "€" in said or "EUR" in said, line


def test_the_french_hand_page_says_undo_and_void_apart(client):
    """'Annuler' said three things on one page (newcomer45 P11): undoing the
    last action, voiding the hand and an undone action. An undo is now
    'retirer' ('(retirée)'); 'annuler' is left to a void hand."""
    from tests import test_tablet as tt

    client.get("/?lang=fr")
    sid = tt.create(client)
    tt.start(client, sid, deal=tt.CAUGHT_DEAL, upcard="7d")
    page = tt.act(client, sid, 1, "draw", ["8c"])
    client.post(f"/s/{sid}/hands/1/undo",
                data={"csrf_token": tt.form_value(page, "csrf_token"), "client_id": "u1",
                      "expected_seq": "1"})
    page = tt.act(client, sid, 1, "draw", ["8c"])  # an action to undo again
    undone = re.search(r'<li class="corrected"[^>]*>.*?</li>', page).group(0)
    undo = re.search(r'<button[^>]*id="undo">([^<]*)</button>', page).group(1)
    void = re.search(r"<summary>([^<]*maldonne[^<]*)</summary>", page).group(1)
    assert "Annuler" in void
    assert "annul" not in undone.lower() and "annul" not in undo.lower(), (undone, undo)
    assert "retirée" in undone and undo.startswith("Retirer")


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_the_season_page_says_each_figure_alike(weeks, lang):  # noqa: F811 - the fixture
    """'Compte moyen par main montrée' read 32,6 and 42,67 in one column, and
    'Tombé (gagné)' 2 (0), a count in brackets read as a rate: each average
    to the same places as the paper, the bracket says what it counts."""
    from tests.test_club import _csrf

    client = weeks["client"]
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = client.get(f"/club/season?lang={lang}").get_data(as_text=True)
    average = language.gettext(lang, "Average count per hand shown")
    drops = language.gettext(lang, "Drops (won)")
    cells = re.findall(rf'data-label="{re.escape(average)}">([^<]*)<', page)
    # as the paper writes them: to the hundredth, "32,60" beside "42,67"
    paper = pdf_text(client.get(f"/club/season.pdf?lang={lang}").data)
    assert cells and all(re.search(rf"(?<![\d,.]){re.escape(c)}(?![\d])", paper)
                         for c in cells if c), (cells, paper)
    brackets = re.findall(rf'data-label="{re.escape(drops)}">[^<(]*\(([^)]*)\)', page)
    assert brackets and all(not b.strip().isdigit() for b in brackets), brackets


def test_an_average_on_a_page_keeps_its_places(app):
    """The season page wrote 32,6 beside 42,67 (its plain-number filter drops a
    trailing zero); an average is written to its places, as on the paper."""
    from decimal import Decimal

    from referee.web.lang import figure

    with app.test_request_context("/?lang=fr"):
        assert figure(Decimal("32.60")) == "32,60"
