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
    # Runs of ASCII white space only: a no-break space is the words' own (French).
    return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_audit_page_names_the_card_taken(client, lang):
    sid = _played(client)
    # Step 4 is the take (the deal, draw, spread, discard before it).
    page = client.get(f"/reports/{sid}/hands/1/audit?step=4&lang={lang}").data.decode()
    heading = _page_text(re.search(r"<h2>(.*?)</h2>", page, re.S).group(1)).strip()
    assert heading == _words(lang)
    steps = _page_text(re.search(r'<table class="data small steps-list">(.*?)</table>', page,
                                 re.S).group(1))
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


def _corrected(client) -> str:
    """The played hand with Ben's dispute of action 7 (Ann's hit) settled by a
    correction, then Ann's draw before it undone on its own."""
    from tests.test_tablet import form_value, hand_page

    sid = _played(client)
    page = hand_page(client, sid)
    form = {"csrf_token": form_value(page, "csrf_token")}
    r = client.post(f"/s/{sid}/hands/1/dispute", data={
        **form, "by": "Ben", "note": "3d does not go there", "action": "7", "client_id": "d7"})
    assert r.status_code == 303
    r = client.post(f"/s/{sid}/hands/1/disputes/1/settle", data={
        **form, "by": "Cy", "how": "corrected", "confirm": "1", "client_id": "s7"})
    assert r.status_code == 303
    r = client.post(f"/s/{sid}/hands/1/undo", data={
        **form, "expected_seq": form_value(hand_page(client, sid), "expected_seq"),
        "client_id": "u6"})
    assert r.status_code == 303 and "Undone" in client.get(r.headers["Location"]).data.decode()
    return sid


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_audit_step_says_what_an_undo_took_back_and_whose_dispute(client, lang):
    """"(undo) (correction)" said neither what was taken back nor why
    (newcomer F19): the step view and the paper name the step undone with its
    action, and the dispute a correction settled, and the page lists the
    hand's disputes as the paper does."""
    sid = _corrected(client)
    hit = language.action_words("Ann: hit S1 3d", lang)
    draw = language.action_words("Ann: draw Kc", lang)
    dispute = language.gettext(lang, "{undo}: a correction after {player}'s dispute",
                               undo=language.gettext(lang, "Undo of action {number} ({action})",
                                                     number=7, action=hit), player="Ben")
    plain = language.gettext(lang, "Undo of action {number} ({action})", number=6, action=draw)

    def heading(step: int) -> str:
        page = client.get(f"/reports/{sid}/hands/1/audit?step={step}&lang={lang}").data.decode()
        return _page_text(re.search(r"<h2>(.*?)</h2>", page, re.S).group(1)).strip()

    assert heading(8) == dispute
    assert heading(9) == plain
    page = _page_text(client.get(f"/reports/{sid}/hands/1/audit?step=9&lang={lang}").data
                      .decode())
    assert plain in page and dispute in page
    assert "3d does not go there" in page.split(language.gettext(lang, "Disputes"))[-1]
    text = " ".join(pdf_text(client.get(f"/reports/{sid}/hands/1/audit.pdf?lang={lang}")
                             .data).split())
    assert " ".join(plain.split()) in text and "(undo)" not in text



def _payments(client, sid: str, lang: str) -> list[str]:
    """The step view's payment lines, at its last step (the result's): the
    list after the story's."""
    first = client.get(f"/reports/{sid}/hands/1/audit?lang={lang}").data.decode()
    last = max(int(k) for k in re.findall(r"[?&]step=(\d+)", first))
    page = client.get(f"/reports/{sid}/hands/1/audit?lang={lang}&step={last}").data.decode()
    result = page[page.rindex("<h2>"):]
    lists = re.findall(r"<ul>(.*?)</ul>", result, re.S)
    return [_page_text(li).strip() for li in re.findall(r"<li>(.*?)</li>", lists[1], re.S)]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_audit_page_says_the_payments_in_the_readers_language(client, lang):
    """The step view's payments are in the reader's language, as the paper's
    (recheck44: "Ben pays Cleo 8 stakes = €8.00 (caught)." on a German page)."""
    from tests import test_tablet as tt
    from tests.test_night import _tonk_out

    sid = tt.create(client, ["Ann", "Ben"])
    _tonk_out(client, sid)
    english, theirs = _payments(client, sid, "en"), _payments(client, sid, lang)
    assert english and english[0].startswith("Ann pays Ben 2 stakes")
    assert len(theirs) == len(english) and not set(theirs) & set(english), theirs
