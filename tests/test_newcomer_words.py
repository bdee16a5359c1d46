"""What a newcomer's German night met: a hand voided because a player left,
or by the void form's own reason, said in English on the German papers and
pages; the club's shut page a dead end; the TV still "standings" after the
table closed; a phone told its taps were kept "on this tablet"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.record import load_log
from referee.replay import replay
from referee.reports.settlement import render_settlement
from referee.reports.text import format_report
from tests.reports_fixtures import pdf_text
from tests.test_api import Game
from tests.test_phones import _joined, _link
from tests.test_table_events import log_of, post

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def _voided(reasons):
    doc = json.loads((SAMPLES / "ev_closed_after_void.json").read_text())
    void = next(h for h in doc["hands"] if "void" in h)
    hands = []
    for reason in reasons:
        hands.append({**void, "void": reason})
    doc["hands"] = [doc["hands"][0], *hands]
    return replay(load_log(doc), allow_open_last_hand=True)


@pytest.mark.parametrize("lang, said", [
    ("de", ["Fehlgeben", "Cy hat den Tisch verlassen", "the lights went out"]),
    ("en", ["misdeal", "Cy left the table", "the lights went out"]),
])
def test_a_void_hands_reason_is_said_in_the_papers_language(lang, said):
    session = _voided(["misdeal", "Cy left the table", "the lights went out"])
    report = format_report(session, session.result(), lang)
    for reason in said:
        assert reason in report
    if lang == "de":
        assert "left the table" not in report and "misdeal" not in report
    text = pdf_text(render_settlement(session, lang=lang))
    for reason in said:
        assert reason in " ".join(text.split())


def test_a_leaver_voids_the_hand_in_the_log_s_words_and_the_page_says_it_in_german(app, client):
    g = Game(client)
    g.start()
    g.play(1)
    assert post(g, "/leave", {"player": "Cy"}).status_code == 201
    assert log_of(g)["hands"][0]["void"] == "Cy left the table"
    viewer = _joined(app, _link(g, "viewer"))
    page = viewer.get(f"/s/{g.sid}/hands/1?lang=de").get_data(as_text=True)
    assert "Cy hat den Tisch verlassen" in page and "left the table" not in page


def test_the_tv_says_final_totals_once_the_table_is_closed(app, client):
    g = Game(client)
    g.start()
    g.finish_hand()
    tv = _joined(app, _link(g, "viewer"))
    assert ">Standings</h2>" in tv.get(f"/s/{g.sid}/tv").get_data(as_text=True)
    assert post(g, "/close", {}).status_code in (200, 201)
    page = tv.get(f"/s/{g.sid}/tv?lang=de").get_data(as_text=True)
    assert ">Endsummen</h2>" in page
    # Not "Between two hands" over "The table is closed" (the newcomer's F20).
    assert '<h2 id="tv-hand-title">Geschlossen</h2>' in page
    page = tv.get(f"/s/{g.sid}/tv?lang=fr").get_data(as_text=True)
    assert "Manches" not in page and "Mains jouées" in page


def test_the_shut_club_says_how_to_open_it(app, client):
    app.config["REFEREE_HOST_KEY"] = None
    page = client.get("/club?lang=de")
    assert page.status_code == 403
    assert "REFEREE_HOST_KEY=… referee serve" in page.get_data(as_text=True)


def test_a_phone_is_told_its_taps_stay_on_this_device(app, client):
    g = Game(client)
    g.start()
    phone = _joined(app, _link(g, "seat", "Ann"))
    page = phone.get(f"/s/{g.sid}/hands/1?lang=de").get_data(as_text=True)
    words = json.loads(re.search(r'id="offline-words"[^>]*>(.*?)</script>', page, re.S)[1])
    assert "auf diesem Gerät" in words["offline"] and "auf diesem Gerät" in words["rest"]
    assert "dieses Gerät" in words["copy"]
    assert "Tablet" not in words["offline"] + words["rest"] + words["copy"]


@pytest.mark.parametrize("lang, device", [
    ("en", "this device"), ("de", "diesem Gerät"), ("fr", "cet appareil"),
    ("pt", "deste aparelho")])
def test_a_phone_s_stale_form_is_said_not_to_come_from_this_device(app, client, lang, device):
    """Newcomer 46: a phone was told its form "did not come from this
    tablet" (missing CSRF token): the device may be a phone or a TV."""
    g = Game(client)
    g.start()
    phone = _joined(app, _link(g, "seat", "Ann"))
    r = phone.post(f"/s/{g.sid}/hands/1/act?lang={lang}", data={"action": "Ann: drop"})
    assert r.status_code == 400
    said = re.search(r'role="alert">(.*?)</p>', r.get_data(as_text=True), re.S)[1]
    assert "CSRF" in said and device in said and "ablet" not in said, said


@pytest.mark.parametrize("lang, device", [
    ("en", "this device"), ("de", "dieses Gerät"), ("fr", "cet appareil"), ("pt", "este aparelho")])
def test_the_home_page_lists_the_tables_this_device_unlocked(client, lang, device):
    """Newcomer 46: a phone's home page listed "the tables this tablet has
    unlocked"."""
    heading = re.search(r"<h2>(.*?)</h2>", client.get(f"/?lang={lang}").get_data(as_text=True))[1]
    assert device in heading and "ablet" not in heading, heading
