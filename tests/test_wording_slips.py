"""Small wording slips (newcomer44 P20): German says "du" to the reader on
the settle page too, French writes its space before a colon on the hand's
result, and French names no player's gender when a player comes or goes."""

from __future__ import annotations

import re

import pytest

from referee import language
from tests.test_tablet import CAUGHT_DEAL, create, play_caught_hand, start


@pytest.mark.parametrize("sentence", ["{name} has given no payment details yet: ask them.",
                                      "{name} has given no payment details: ask them, or add "
                                      "them below."])
def test_german_asks_the_reader_as_du(sentence):
    said = language.gettext("de", sentence, name="Ann")
    assert "frag nach" in said and not re.search(r"\b(fragt|tragt)\b", said), said


def test_the_french_result_line_has_its_space_before_the_colon(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    play_caught_hand(client, sid)
    page = client.get(f"/s/{sid}/hands/1?lang=fr").data.decode()
    line = re.search(r'<p><strong>Attrapé</strong>(.*?)</p>', page, re.S)
    assert line and line.group(1).startswith("\u00a0: Ben gagne"), page


@pytest.mark.parametrize("sentence", ["{name} joined (from hand {n})", "{name} left",
                                      "{player} sat down from hand {n}", "{name} is seated twice",
                                      "{player} is seated at this table already"])
def test_french_names_no_gender_of_a_player_who_comes_or_goes(sentence):
    said = language.gettext("fr", sentence, name="Eve", player="Eve", n=3)
    assert not re.search(r"\b(assise?|partie?)\b", said), said
