"""A draw from the empty stock (the rules' "stock empty": the first player
who wants to draw from it ends the play) draws nothing: the tablet offered
it as an ordinary draw, and its confirm page, its flash, the hand's history
and the audit said "Ann draws (card not seen)" (newcomer F1). Each now says
what happens: the play ends."""

from __future__ import annotations

import re
from html import unescape

import pytest

from referee import language
from tests.reports_fixtures import pdf_text
from tests.test_history_words import _history
from tests.test_tablet import act, create, flashes, form_value, hand_page, start

RANKS, SUITS = "A23456789TJQK", "cdhs"
UPCARD = "7d"
TURNS = 52 - 2 * 5 - 1  # the stock after the deal and the upcard


def _stock_run_down(app, client) -> str:
    """Ann and Ben, no cards entered: Ben and Ann draw and discard until the
    stock is empty (one call of the service: the tablet's taps cost a
    second each); Ann is to act."""
    from referee.service.table import action
    from referee.web.db import get_db

    sid = create(client, players=("Ann", "Ben"))
    start(client, sid, dealer="Ann", upcard=UPCARD, players=("Ann", "Ben"))
    free = [r + s for r in RANKS for s in SUITS if r + s != UPCARD]
    texts = []
    for turn in range(TURNS):
        who = ("Ben", "Ann")[turn % 2]  # Ben first, left of the dealer
        texts += [f"{who}: draw", f"{who}: discard {free.pop()}"]
    with app.test_request_context():
        done = action.log_action(get_db(), sid, 1, texts, "run-down", 0, legal=True)
    assert done.refused is None and len(done.logged) == len(texts)
    assert 'id="stock">0<' in hand_page(client, sid)
    return sid


def _text(page: str) -> str:
    # ASCII white space only: a no-break space is the words' own (French).
    return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture
def emptied(app, client):
    return _stock_run_down(app, client)


def test_a_draw_from_the_empty_stock_says_the_play_ends(client, emptied):
    sid = emptied
    page = hand_page(client, sid)
    # The offer: not a draw of a card (no "??" to pick for it), and why.
    assert "Draw (the stock is empty)" in page
    assert "the stock is empty, so a draw ends the play" in page
    assert "pick the card drawn" not in page
    said = language.empty_draw("Ann", "en")
    data = {"csrf_token": form_value(page, "csrf_token"),
            "client_id": form_value(page, "client_id"),
            "expected_seq": form_value(page, "expected_seq"), "act": "0:draw"}
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    assert r.headers["Location"].endswith("/confirm")  # it ends the play: asked first
    confirm = client.get(r.headers["Location"]).data.decode()
    assert _text(re.search(r'<p class="big">(.*?)</p>', confirm, re.S).group(1)) == f"{said}."
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1"})
    page = client.get(r.headers["Location"]).data.decode()
    assert ("ok", f"✓ {said}.") in flashes(page)
    assert _history(page)[-1] == said


@pytest.mark.parametrize("lang", ["de", "fr", "pt"])
def test_the_empty_stock_draw_is_said_in_every_language(client, emptied, lang):
    sid = emptied
    act(client, sid, 0, "draw")
    said = language.empty_draw("Ann", lang)
    assert said != language.empty_draw("Ann", "en")  # translated
    assert _history(client.get(f"/s/{sid}/hands/1?lang={lang}").data.decode())[-1] == said
    last = 2 * TURNS + 1
    step = client.get(f"/reports/{sid}/hands/1/audit?step={last}&lang={lang}").data.decode()
    assert said in _text(step)
    paper = " ".join(pdf_text(client.get(f"/reports/{sid}/hands/1/audit.pdf?lang={lang}")
                              .data).split())
    assert " ".join(said.split()) in paper


def test_the_audit_says_it_in_english_too(client, emptied):
    sid = emptied
    act(client, sid, 0, "draw")
    said = language.empty_draw("Ann", "en")
    last = 2 * TURNS + 1
    step = _text(client.get(f"/reports/{sid}/hands/1/audit?step={last}").data.decode())
    assert said in step
    # only the last draw: the 41 before it drew a card
    assert step.count("empty stock") == 2  # its heading and its line in the list
