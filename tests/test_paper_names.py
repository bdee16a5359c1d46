"""Names the papers can print (newcomer 46's F9): a name with a character
the papers' font has no glyph for is refused at every door where a name
enters, naming the characters; a name kept before that rule (a log already
stored, or a night played brought in by an import) prints each such
character as its code, never as an empty box."""

from __future__ import annotations

import html
import json
import re

import pytest

from referee.cli import main
from referee.replay import replay
from referee.reports.common import register_fonts
from referee.reports.settlement import render_settlement
from referee.rules import glyphs
from referee.rules.errors import MalformedInput
from referee.rules.table import check_printable
from referee.service.club import nickname
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


def test_the_api_refuses_such_a_name_at_an_opening(client):
    header = {"format": "tonk-log/1", "stake": "1", "rules": "pagat",
              "players": ["Ann", JOKER_KING]}
    for body in (header, {**header, "hands": []}):  # no hand yet: a table opening
        err = assert_error(client.post("/api/sessions", json=body), 400, "bad_name")
        assert "王 (U+738B)" in err["message"] and "🃏 (" not in err["message"]
    # The table's name too, in the same words, its field named (glyph46b N2).
    err = assert_error(client.post("/api/sessions", json={**header, "players": ["Ann", "Zoë"],
                                                          "table": "Kitchen 王"}),
                       400, "bad_name")
    assert err["message"] == ("table: the papers cannot print 王 (U+738B) in Kitchen 王: "
                              "choose a name with letters they can print"), err
    assert err["field"] == "table"


def test_an_import_of_a_night_played_keeps_its_names(client):
    """A log with hands is a night played (glyph46b, recheck N1): recorded as
    it was, its names (and the table's) not refused; its paper prints the
    missing character as its code."""
    log = _renamed(session_log(), "Zoë", JOKER_KING)
    log["table"] = "Kitchen 王"
    r = client.post("/api/sessions", json=log)
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    paper = client.get(f"/reports/{made['id']}/settlement.pdf?token={made['audit_token']}")
    assert paper.status_code == 200
    text = pdf_text(paper.data)
    assert "Zoë" in text and "王" not in text and "[U+738B]" in text


def test_the_command_imports_a_stored_nights_export(client, tmp_path, capsys):
    """recheck N1: a night stored before the rule, exported, comes in again
    with ``referee import --copy``, and ``referee settle`` prints it."""
    log = _renamed(session_log(), "Zoë", JOKER_KING)
    made = client.post("/api/sessions", json=log).get_json()
    exported = client.get(f"/api/sessions/{made['id']}/log",
                          headers=bearer(made["audit_token"])).get_json()
    path, db = tmp_path / "night.json", tmp_path / "club.sqlite3"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    assert main(["import", str(path), "--db", str(db)]) == 0
    assert main(["import", str(path), "--db", str(db), "--copy"]) == 0
    sid = capsys.readouterr().out.split()[-1]
    out = tmp_path / "night.pdf"
    assert main(["settle", sid, "--db", str(db), "--pdf", str(out)]) == 0
    text = pdf_text(out.read_bytes())
    assert "Zoë" in text and "[U+738B]" in text


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


def test_the_new_table_form_refuses_a_table_name_it_cannot_print(client):
    """glyph46b N2: the table's name was taken, and its paper's title read
    'Kitchen [U+738B]'."""
    data = {"csrf_token": token(client), "stake": "1", "currency": "EUR", "preset": "pagat",
            "pin": PIN, "pin2": PIN, "player1": "Ann", "player2": "Zoë",
            "table": "Kitchen 王"}
    r = client.post("/new", data=data, follow_redirects=True)
    page = html.unescape(r.get_data(as_text=True))
    assert ("Table name: the papers cannot print 王 (U+738B) in Kitchen 王: choose a name "
            "with letters they can print") in page, page[:3000]
    assert "/s/" not in r.request.path


def test_a_club_nickname_is_refused(client):
    g = Game(client)
    g.start()
    g.finish_hand()
    with client.application.app_context():
        with pytest.raises(MalformedInput, match="U\\+738B"):
            nickname(get_db(), "Ann", "王")


def test_a_table_carrying_debts_refuses_it_before_anything_is_carried(client):
    """The opening's names are judged before the earlier table's debts move
    (they left it, and the new table never opened)."""
    from .money_tables import KEY, get, open_table, out_by

    earlier = open_table(client, players=("Ann", "Ben"))
    out_by(client, earlier, "Ann")
    log = get(client, earlier, "/log", earlier["audit"])
    r = client.post("/api/sessions", headers=KEY, json={
        "stake": "1", "rules": "pagat", "players": ["Ann", "Ben"], "currency": "USD",
        "table": "Kitchen 王", "brought_forward_from": earlier["id"],
        "brought_forward_token": earlier["token"]})
    assert "U+738B" in assert_error(r, 400, "bad_name")["message"]
    assert get(client, earlier, "/log", earlier["audit"]) == log
