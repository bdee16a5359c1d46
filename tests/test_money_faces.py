"""Numbers and money have two faces, each stated once: the plain one
(``ledger.money``: the result document, the club's spreadsheet) and the
localised one (``language``: papers, pages, the report in a language). Every
writer of an amount goes through them, so the two rules a reader sees
everywhere hold everywhere: nothing owed has no sign, and one point is "1
point" in each language."""

from __future__ import annotations

from decimal import Decimal

import pytest

from referee import language
from referee.ledger.club import plain
from referee.ledger.money import fmt
from referee.reports.common import cash, stake_amount
from referee.reports.text import _Forms

TINY = Decimal("-0.001")  # rounds to nothing at cents: -0.00 unless the rule holds
CENT = Decimal("0.01")


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_nothing_owed_has_no_sign_in_any_face(lang):
    written = [fmt(TINY, CENT), plain(TINY, 2), language.amount(TINY, CENT, lang),
               language.currency_amount(TINY, CENT, "EUR", lang),
               cash(TINY, CENT, None, language.gettext(lang, language.POINTS), lang),
               cash(TINY, CENT, "EUR", "EUR", lang)]
    assert not any("-" in text or "\u2212" in text for text in written), written


class _Session:
    def __init__(self, currency):
        self.log = {"currency": currency} if currency else {}
        self.rules = type("Rules", (), {"scoring": "money"})()


class _Result:
    quantum = CENT


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_one_point_is_its_own_sentence_on_every_writer(lang):
    one = {"en": "1 point", "de": "1 Punkt", "fr": "1 point", "pt": "1 ponto"}[lang]
    points = language.gettext(lang, language.POINTS)
    forms = _Forms(_Session(None), _Result(), lang)
    assert [cash(Decimal(1), CENT, None, points, lang), stake_amount("1", points, None, lang),
            forms.amount(Decimal(1)), forms.stake_words("1")] == [one] * 4
    # a currency, or another number, is never "point"
    assert language.quantity(Decimal(2), "2", points, lang) == f"2 {points}"
    assert _Forms(_Session("EUR"), _Result(), lang).stake_words("1") != one


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_a_number_pattern_is_parsed_once_not_at_every_amount(lang, monkeypatch):
    # babel parses a pattern given as text on every call; a table's page
    # writes dozens of amounts (a tenth of its CPU went to parsing them).
    from babel import numbers

    for places in ("1", "1.5", "1.25"):  # the patterns used below, parsed
        language.money(Decimal(places), None, lang)
    language.money(Decimal("1.5"), "chips", lang)
    language.amount(Decimal("1.5"), CENT, lang)
    parsed = []
    real = numbers.parse_pattern

    def counted(pattern):
        if isinstance(pattern, str):
            parsed.append(pattern)
        return real(pattern)

    monkeypatch.setattr(numbers, "parse_pattern", counted)
    written = [language.money(Decimal(v), c, lang) for v in ("2.25", "-3", "1234.5")
               for c in (None, "chips", "EUR")]
    written += [language.amount(Decimal("7.1"), CENT, lang) for _ in range(3)]
    assert parsed == []
    assert written[0] == language.decimal_text(Decimal("2.25"), 2, lang)



# (typed, language, the browser lets it through). A value the browser refuses
# is one the service would refuse too: more places than STAKE_PLACES, or a
# sign that is no decimal sign in that language.
TYPED = [("0.25", "en", True), ("1,5", "de", True), ("1.5", "de", True), ("2", "en", True),
         ("0.1234", "en", True), ("0,1234", "de", True), ("0.250000", "en", True),
         ("0.12345", "en", False), ("0,12345", "de", False), ("0.00001", "en", False),
         ("1,5", "en", False), ("1,000.5", "en", False)]


@pytest.mark.parametrize(("text", "lang", "takes"), TYPED)
def test_the_browser_pattern_of_a_decimal_is_the_service_places_rule(text, lang, takes):
    """Said to the browser from STAKE_PLACES, so a payment of 0.12345 is
    stopped on the phone, not after a round trip; what it lets through the
    service takes."""
    import re

    from referee.ledger.money import parse_stake

    assert (re.fullmatch(language.decimal_pattern(lang), text) is not None) == takes
    if takes:
        parse_stake(language.read_decimal(text, lang))
    else:
        with pytest.raises(ValueError):
            parse_stake(language.read_decimal(text, lang))
