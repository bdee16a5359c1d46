"""The house-rules sheet's "Caught" row (newcomer45's P3): the option is said
in words, never as the log writes it, and its last column says what a caught
drop costs at this table, as every other row says the money."""

from __future__ import annotations

from decimal import Decimal

import pytest

from referee import language
from referee.reports.common import cash
from referee.reports.sheet import payment_rows, render_sheet
from referee.rules.options import resolve
from tests.reports_fixtures import pdf_text, session_log


def _caught(preset: str, stake: str, lang: str) -> tuple[str, str, str]:
    log = session_log()
    log.update(currency="EUR", rules=preset, stake=stake)
    return next(row for row in payment_rows(log, lang)
                if row[0] == language.gettext(lang, "Caught"))


def _money(value: str, lang: str) -> str:
    return cash(Decimal(value), Decimal("0.01"), "EUR", "", lang)


@pytest.mark.parametrize("lang", language.LANGUAGES)
@pytest.mark.parametrize("preset", ["rushville", "washington"])
def test_the_caught_row_says_the_option_in_words(preset, lang):
    _ending, pays, _cost = _caught(preset, "0.50", lang)
    assert "caught_pays" not in pays and "drop_pays" not in pays, pays


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_the_caught_row_says_what_paying_the_beaters_costs(lang):
    """rushville: the dropper pays 4 stakes to each beater."""
    assert resolve("rushville").caught == "pay_beaters"
    _ending, _pays, cost = _caught("rushville", "1.00", lang)
    assert _money("4.00", lang) in cost, cost
    assert language.gettext(lang, "1 stake is {amount}").split("{")[0] not in cost


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_the_caught_row_says_what_paying_the_lowest_costs(lang):
    """washington: twice the number of players, 8 stakes at a table of 4."""
    log = session_log()
    assert len(log["players"]) == 4 and resolve("washington").caught == "pay_lowest"
    _ending, pays, cost = _caught("washington", "0.50", lang)
    assert _money("4.00", lang) in cost and "8" in cost and "4" in cost, cost


def test_the_printed_sheet_says_it():
    log = session_log()
    log.update(currency="EUR", rules="washington", stake="0.50", language="pt")
    text = pdf_text(render_sheet(log))
    # the rules list keeps the option's code name beside its words, in brackets
    assert "paga caught_pays" not in text, text
    assert "8 apostas = 4,00 € a cada jogador com a contagem mais baixa (4 jogadores)" in text
