"""A count or an amount agrees with its word as its language says it: a
catalog's Plural-Forms reads whole numbers only, and French says "0,5 point"
and "1,5 point" (the singular below 2) where German says "0,5 Punkte" and
European Portuguese "0,5 pontos"; "-1 point" is one point in each (the
newcomer's night: "0,5 points")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from referee import language
from referee.reports.words import stakes_words

AMOUNTS = ("0.5", "1", "1.5", "-1", "-0.5", "2", "2.5", "0")
POINTS = {
    "en": ["0.5 points", "1 point", "1.5 points", "-1 point", "-0.5 points", "2 points",
           "2.5 points", "0 points"],
    "de": ["0,5 Punkte", "1 Punkt", "1,5 Punkte", "-1 Punkt", "-0,5 Punkte", "2 Punkte",
           "2,5 Punkte", "0 Punkte"],
    "fr": ["0,5 point", "1 point", "1,5 point", "-1 point", "-0,5 point", "2 points",
           "2,5 points", "0 point"],
    "pt": ["0,5 pontos", "1 ponto", "1,5 pontos", "-1 ponto", "-0,5 pontos", "2 pontos",
           "2,5 pontos", "0 pontos"],
}
STAKES = {"en": ["0.5 stakes", "1 stake", "1.5 stakes"],
          "de": ["0,5 Einsätze", "1 Einsatz", "1,5 Einsätze"],
          "fr": ["0,5 mise", "1 mise", "1,5 mise"],
          "pt": ["0,5 apostas", "1 aposta", "1,5 apostas"]}


@pytest.mark.parametrize("lang", sorted(POINTS))
def test_an_amount_of_points_agrees_with_its_number_in_each_language(lang):
    said = [language.in_unit(Decimal(a), None, lang) for a in AMOUNTS]
    assert said == POINTS[lang]


@pytest.mark.parametrize("lang", sorted(STAKES))
def test_a_number_of_stakes_agrees_with_its_number_in_each_language(lang):
    said = [stakes_words(Decimal(a), lang) for a in ("0.5", "1.0", "1.5")]
    assert said == STAKES[lang]


@pytest.mark.parametrize(("lang", "half", "two"), [
    ("en", "0.5 stakes", "2 stakes"), ("de", "0,5 Einsätze", "2 Einsätze"),
    ("fr", "0,5 mise", "2 mises"), ("pt", "0,5 apostas", "2 apostas")])
def test_a_pages_plural_follows_the_same_rule(app, lang, half, two):
    template = app.jinja_env.from_string(
        '{{ ngettext("{count} stake", "{count} stakes", n, count=shown) }}')
    with app.test_request_context(f"/?lang={lang}"):
        assert template.render(n=Decimal("0.5"), shown=half.split()[0]) == half
        assert template.render(n=2, shown="2") == two


def test_whole_numbers_keep_the_catalogs_own_rule():
    assert [language.plural_count("fr", n) for n in (0, 1, 2, -1, Decimal("3.0"))] == \
        [0, 1, 2, 1, 3]
    assert [language.plural_count(lang, Decimal("0.5")) for lang in ("en", "de", "fr", "pt")] \
        == [2, 2, 1, 2]
