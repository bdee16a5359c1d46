"""The turn's buttons are told apart at a glance in every language
(newcomer44 P13: German Hinlegen / Auslegen / Anlegen / Ablegen differed by a
prefix only; spread is now Melden and discard Abwerfen, the words the German
rule texts in the seeds use)."""

from __future__ import annotations

import itertools

import pytest

from referee import language

# The buttons a player meets at once (templates/_verbs.html's words): drop,
# draw and take at a turn's start, spread, hit and discard after drawing; and
# drop beside discard, the two a tired player mixed up (both end something).
AT_ONCE = [("Drop", "Draw", "Take"), ("Spread", "Hit", "Discard"), ("Drop", "Discard")]


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_no_two_buttons_seen_at_once_differ_by_a_prefix_only(lang):
    for group in AT_ONCE:
        words = [language.gettext(lang, w).lower() for w in group]
        for a, b in itertools.combinations(words, 2):
            assert a[-5:] != b[-5:], (lang, a, b)


def test_the_german_buttons_and_sentences_say_the_same_verb():
    said = {w: language.gettext("de", w) for w in ("Spread", "Discard", "Hit", "Drop")}
    assert said == {"Spread": "Melden", "Discard": "Abwerfen", "Hit": "Anlegen",
                    "Drop": "Hinlegen"}
    assert language.action_sentence("Ben: discard 9c", "de") == "Ben wirft 9♣ ab"
    assert language.action_sentence("Ben: spread 5h 6h 7h", "de") == "Ben meldet 5♥ 6♥ 7♥"
