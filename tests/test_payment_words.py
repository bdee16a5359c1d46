"""How a payment's reason and a hand's ending read where a player meets them
(the newcomer's night, F6 and F26): no catch scheme's code name in brackets
inside the brackets of a payment, a deal win's claim said once and in
words, the outcome column's names capitalised alike, and the word why a
player dealt a deal win is offered only "Declare"."""

from __future__ import annotations

import re

import pytest

from referee import language
from referee.reports.words import REASONS, reason_in
from referee.rules.catches import CATCH_SCHEMES
from tests.test_tablet import CAUGHT_DEAL, act, create, hand_page, play_caught_hand, start

LANGS = ["en", "de", "fr", "pt"]


def _payments(page: str) -> list[str]:
    """The result's payment lines, as text."""
    block = re.search(r'<ul class="story" id="payments">(.*?)</ul>', page, re.S)
    assert block, page
    return [re.sub(r"<[^>]+>", "", li).strip()
            for li in re.findall(r"<li>(.*?)</li>", block.group(1), re.S)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", sorted(CATCH_SCHEMES))
def test_a_caught_payments_reason_names_no_scheme_in_brackets(lang, scheme):
    """"caught (pagat)": nobody at the table knows that pagat names a catch
    scheme, and the brackets inside a payment's own read as broken."""
    for label in ("caught", "lowest count"):
        said = reason_in(f"{label} ({scheme})", lang)
        assert said == language.gettext(lang, REASONS[label]), (lang, scheme, said)
        assert "(" not in said and scheme not in said


@pytest.mark.parametrize("lang", LANGS)
def test_a_deal_wins_reason_says_its_claim_in_the_sentences_words(lang):
    """"deal win: Dealt exactly 50 points" was a capital and a colon after the
    payment's own colon ("(2 stakes: deal win: Dealt ...)")."""
    for when, n in (("total:50", "50"), ("low:13", "13"), ("five_faces", None)):
        said = reason_in(f"deal win ({when})", lang)
        assert ":" not in said and "(" not in said, (lang, said)
        assert said.startswith(language.gettext(lang, REASONS["deal win"])), said
        assert n is None or n in said
        assert said == said[:1] + said[1:].lower() or lang == "de", said
    assert reason_in("deal win (total:50)", "en") == "deal win, a dealt hand of exactly 50"


def test_the_hand_page_says_a_caught_hands_payments_without_the_scheme(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    play_caught_hand(client, sid)
    page = client.get(f"/s/{sid}/hands/1?lang=de").data.decode()
    lines = _payments(page)
    assert lines and all("pagat" not in line and "((" not in line.replace(" ", "")
                         for line in lines), lines
    assert any(line.endswith("(2 Einsätze: hereingelegt)") for line in lines), lines


def test_the_outcome_column_starts_each_ending_with_a_capital(client):
    """German writes its nouns with a capital ("Hinlegen gewonnen") and its
    participles without ("hereingelegt"): a column of both read as a slip."""
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    play_caught_hand(client, sid)
    page = client.get(f"/s/{sid}/standings?lang=de").data.decode()
    assert "<td>Hereingelegt" in page and "<td>hereingelegt" not in page
    page = hand_page(client, sid)
    # Jinja's capitalize lowered the rest of the name ("Tote hand")
    assert "<strong>Hereingelegt</strong>" in page


def test_a_player_who_must_declare_is_told_why_he_cannot_draw(client):
    """Ben, dealt 49 under pagat (deal_win_declare must), was offered only
    "Declare", with no word why."""
    sid = create(client)
    start(client, sid, deal={"Ben": ["Ks", "Kh", "Kd", "Qs", "9c"]}, upcard="7d")
    page = hand_page(client, sid)
    assert 'value="1:draw"' not in page
    said = re.search(r'<p class="hint" id="must-declare">(.*?)</p>', page)
    assert said, page
    assert said.group(1) == ("Ben holds a deal win: these house rules say it must be "
                             "declared before anyone draws.")
    page = act(client, sid, 1, "declare")
    lines = _payments(page)
    assert "Ann pays Ben $0.50 (2 stakes: deal win, a dealt hand of exactly 49)" in lines, lines


def test_no_word_where_the_table_may_keep_its_deal_win_quiet(client):
    sid = create(client, opt_deal_win_declare='"may"')
    start(client, sid, deal={"Ben": ["Ks", "Kh", "Kd", "Qs", "9c"]}, upcard="7d")
    page = hand_page(client, sid)
    assert 'value="1:draw"' in page and 'id="must-declare"' not in page
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    assert 'id="must-declare"' not in hand_page(client, sid)
