"""Names the papers can print (newcomer 46's F9): a name with a character
the papers' font has no glyph for is refused at every door where a name
enters, naming the characters; a name kept before that rule (a log already
stored) prints each such character as its code, never as an empty box."""

from __future__ import annotations

import json
import re

import pytest

from referee.replay import replay
from referee.reports.common import register_fonts
from referee.reports.settlement import render_settlement
from referee.rules import glyphs
from referee.rules.errors import MalformedInput
from referee.rules.table import check_printable
from referee.service.club import nickname
from referee.service.table import sessions
from referee.web.db import get_db

from .reports_fixtures import pdf_text, session_log
from .test_api import Game, assert_error, bearer
from .test_tablet import PIN, token

JOKER_KING = "Zoë 🃏 王"  # the joker has its glyph in DejaVu Sans, the CJK "king" has none


def _renamed(log: dict, old: str, new: str) -> dict:
    return json.loads(json.dumps(log, ensure_ascii=False).replace(old, new))


def test_latin_greek_and_cyrillic_names_print_and_cjk_does_not():
    for name in ("Zoë", "Łukasz", "Nguyễn Thị", "Ærøskøbing", "Şule", "Ελένη", "Дмитрий",
                 "Їжак", "Ὀδυσσεύς", "🃏 Joker"):
        assert check_printable(name) is None, name
    why = check_printable(JOKER_KING)
    assert str(why) == ("the papers cannot print 王 (U+738B) in Zoë 🃏 王: choose a name "
                        "with letters they can print")
    assert glyphs.unprintable("王 😀 한 王") == ["王", "한"]  # DejaVu has 😀


def test_the_rule_reads_the_fonts_the_papers_embed():
    """``glyphs`` reads the fonts' cmaps itself (the rules import no
    reportlab): the same characters as reportlab finds in both fonts."""
    from reportlab.pdfbase import pdfmetrics

    from referee.reports.common import FONT, FONT_BOLD

    register_fonts()
    both = [{c for c, g in pdfmetrics.getFont(f).face.charToGlyph.items() if g}
            for f in (FONT, FONT_BOLD)]
    assert glyphs.printable() == both[0] & both[1]


def test_a_stored_name_prints_its_unprintable_characters_as_their_codes():
    log = _renamed(session_log(), "Zoë", JOKER_KING)
    text = pdf_text(render_settlement(replay(log)))
    assert "Zoë" in text and "王" not in text  # (pypdf reads no 🃏 back; the page shows it)
    assert text.count("[U+738B]") >= 4  # the players, totals, balances, transfers


def test_the_api_refuses_such_a_name_at_the_opening_and_an_import(client):
    header = {"format": "tonk-log/1", "stake": "1", "rules": "pagat",
              "players": ["Ann", JOKER_KING]}
    err = assert_error(client.post("/api/sessions", json=header), 400, "bad_name")
    assert "王 (U+738B)" in err["message"] and "🃏 (" not in err["message"]
    err = assert_error(client.post("/api/sessions",
                                   json=_renamed(session_log(), "Zoë", JOKER_KING)),
                       400, "bad_name")
    assert "cannot print 王 (U+738B)" in err["message"]


def test_an_import_refuses_a_seat_taken_in_a_later_hand(app):
    log = session_log()
    log["hands"][1]["players"] = [*log["players"][:3], "王"]
    with app.app_context(), pytest.raises(MalformedInput) as refused:
        sessions.import_log(get_db(), log)
    assert refused.value.code == "bad_name" and "U+738B" in str(refused.value)


def test_a_rename_a_newcomer_and_a_hands_seat_are_refused(client):
    g = Game(client)
    players = g.sim.header()["players"]
    before = client.get(g.url("/log"), headers=bearer(g.audit)).get_json()
    r = client.post(g.url(f"/players/{players[1]}"), json={"name": JOKER_KING},
                    headers=bearer(g.table))
    assert "U+738B" in assert_error(r, 400, "bad_name")["message"]
    r = client.post(g.url("/seat"), json={"player": "王"}, headers=bearer(g.table))
    assert "U+738B" in assert_error(r, 400, "bad_name")["message"]
    r = client.post(g.url("/hands"), json={"dealer": players[0],
                                            "players": [*players, "王"]},
                    headers=bearer(g.table))
    assert "U+738B" in assert_error(r, 400, "bad_name")["message"]
    assert client.get(g.url("/log"), headers=bearer(g.audit)).get_json() == before


def test_the_new_table_form_refuses_it_by_name(client):
    data = {"csrf_token": token(client), "stake": "1", "currency": "EUR", "preset": "pagat",
            "pin": PIN, "pin2": PIN, "player1": "Ann", "player2": JOKER_KING}
    r = client.post("/new", data=data, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert re.search(r"cannot print 王 \(U\+738B\) in Zoë 🃏 王", page), page[:3000]
    assert "/s/" not in r.request.path


def test_a_club_nickname_is_refused(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    with client.application.app_context():
        with pytest.raises(MalformedInput, match="U\\+738B"):
            nickname(get_db(), "Ann", "王")
