"""The audit names the card a take took (issue 35, left from item 14): the
log line of a take names none ("Cy: take"), the discard pile's top before it
does, and the hand's history already says it; the audit's page and paper say
it too, in every language, each as that language says an action."""

from __future__ import annotations

import re
from html import unescape

import pytest

from referee import language
from referee.language import LANGUAGES
from tests.reports_fixtures import pdf_text
from tests.test_history_words import _played

TAKE = "Cy: take 8c"  # the 8c Ben discarded just before: the pile's top


def _words(lang: str) -> str:
    return language.action_words(TAKE, lang)


def _page_text(page: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_audit_page_names_the_card_taken(client, lang):
    sid = _played(client)
    # Step 4 is the take (the deal, draw, spread, discard before it).
    page = client.get(f"/reports/{sid}/hands/1/audit?step=4&lang={lang}").data.decode()
    heading = _page_text(re.search(r"<h2>(.*?)</h2>", page, re.S).group(1)).strip()
    assert heading == _words(lang)
    steps = _page_text(re.search(r'<ol class="small">(.*?)</ol>', page, re.S).group(1))
    assert _words(lang) in steps


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_audit_paper_names_the_card_taken(client, lang):
    sid = _played(client)
    text = pdf_text(client.get(f"/reports/{sid}/hands/1/audit.pdf?lang={lang}").data)
    assert _words(lang) in text
    # Nowhere without its card.
    assert language.action_words("Cy: take", lang) not in text.replace(_words(lang), "")


def test_a_disputed_take_is_named_with_its_card_in_the_disputes(client):
    from tests.test_tablet import form_value, hand_page

    sid = _played(client)
    page = hand_page(client, sid)
    r = client.post(f"/s/{sid}/hands/1/dispute",
                    data={"csrf_token": form_value(page, "csrf_token"), "by": "Ann",
                          "note": "that was not the top", "action": "4",
                          "client_id": "dispute-take"})
    assert r.status_code == 303
    text = pdf_text(client.get(f"/reports/{sid}/hands/1/audit.pdf").data)
    assert f"action 4 ({language.action_words(TAKE, 'en')})" in text


def test_a_refused_tap_is_said_in_the_papers_language(client):
    """A refusal is stored with its English sentence; the audit paper and
    the step view say it in their own language, judged again from its code
    and parameters as the tablet's flash says it (newcomer's night, F29:
    the German audit quoted "Anna's 5 cards cannot count 5" in English)."""
    from referee.rules.errors import RefereeError
    from tests.test_api import Game

    g = Game(client)
    g.start()
    hand = g.sim.hand
    other = next(p for p in hand.players if p != hand.to_act)
    refused = g.post(f"{other}: draw").get_json()["error"]
    english = refused["message"].split(": ", 1)[1]
    said = language.message(RefereeError("out_of_turn", "it is {turn}'s turn, not {player}'s",
                                         {"turn": hand.to_act, "player": other}), "de")
    assert said != english and refused["code"] == "out_of_turn"
    paper = pdf_text(client.get(f"/reports/{g.sid}/hands/1/audit.pdf?lang=de&token={g.audit}"
                                ).data)
    assert said in paper and english not in paper
    view = client.get(f"/reports/{g.sid}/hands/1/audit?step=1&lang=de&token={g.audit}")
    assert said in view.get_data(as_text=True).replace("&#39;", "'")
