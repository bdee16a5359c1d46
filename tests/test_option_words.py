"""Players read an option's value in words, never the value the log and the
CLI use (newcomer44 P16: "(catch scheme pagat)", "(Fangregel pay_lowest)",
the rules' list "(standard: pagat)")."""

from __future__ import annotations

import pytest

from referee import language
from referee.ledger.payments import settle_ending
from referee.reports.common import rules_in_words
from referee.rules.catches import CATCH_SCHEMES
from referee.rules.ending import DROP, Ending
from referee.rules.options import resolve

LANGS = ["en", "de", "fr", "pt"]
FOUR = ("Ann", "Ben", "Cy", "Dee")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", sorted(CATCH_SCHEMES))
def test_a_catch_is_told_with_its_schemes_words(lang, scheme):
    ending = Ending(DROP, FOUR, "Dee", player="Ann", counts={"Ann": 9, "Ben": 7, "Cy": 9,
                                                              "Dee": 20})
    said = " ".join(language.say(w, lang) for w in settle_ending(ending, resolve(
        {"caught": scheme})).words)
    assert scheme not in said and "pagat" not in said, said


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_list_says_the_standard_catch_in_words(lang):
    _intro, lines = rules_in_words(resolve("washington"), lang)
    caught = next(line for line in lines if "<i>caught</i>" in line)
    assert "pagat" not in caught.replace("<i>caught</i>", ""), caught
