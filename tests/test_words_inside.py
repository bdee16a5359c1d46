"""No English inside another language (issue 35, item 10): a corrected
dispute's note, the audit's correction, a refused or kept tap are said in the
table's language wherever a person reads them, by one function for an
action's words (``language.action_words``)."""

from __future__ import annotations

import re

import pytest

from referee import language
from referee.cli import main
from referee.rules.events import disputes_after_undo
from referee.service import storage
from referee.service.table import disputes, hands, sessions
from referee.service.table.action import log_action
from tests.reports_fixtures import pdf_text, session_log

OTHERS = [lang for lang in language.LANGUAGES if lang != language.DEFAULT]
# The log's own English that used to show through: verbs, and the referee's notes.
ENGLISH = ("undo of", "since undone", "on action", " discard ", " draw ", " show =")


@pytest.mark.parametrize("lang", OTHERS)
def test_an_actions_words_are_the_languages(lang):
    note = disputes_after_undo([{"action": 3, "by": "Cy", "note": "9h, nicht 9d"}], 3,
                               "Clara: discard Qc")[0]["note"]
    for said in (language.note_words(note, lang), language.undo_words("undo of Clara: discard Qc",
                                                                      lang),
                 language.action_words("Ben: show =3", lang),
                 language.action_words("Dev: draw", lang)):
        assert not any(e in f" {said} " for e in ENGLISH), said
    assert language.note_words(note, lang).endswith("9h, nicht 9d")
    assert "Q♣" in language.undo_words("undo of Clara: discard Qc", lang)


def _corrected(tmp_path):
    """A stored hand with an undo and a dispute settled by a correction."""
    path = tmp_path / "referee.sqlite3"
    db = storage.connect(path)
    log = session_log()
    log["hands"] = [log["hands"][0], dict(log["hands"][1], actions=[])]
    info = sessions.import_log(db, log)
    log_action(db, info.id, 2, ["Zoë: draw 9d"], None, None).answer()
    hands.undo(db, info.id, 2)
    from referee.service.table import table_events
    log_action(db, info.id, 2, ["Zoë: drop"], None, None).answer()
    table_events.dispute(db, info.id, 2, "José", "zu früh", 1)
    disputes.settle_dispute(db, info.id, 2, 0, "corrected", "Zoë")
    for action in ("Zoë: drop", "Zoë: show Ah 2d 3s 4c 5c", "Łukasz: show 6d 6c 6s 5h Td",
                   "José: show Kd Ks Kc 7c 9s", "Jürgen: show 9c 9h 7h Th 2h"):
        log_action(db, info.id, 2, [action], None, None).answer()
    return path, info.id


@pytest.mark.parametrize("lang", OTHERS)
def test_the_papers_say_corrections_in_the_tables_language(tmp_path, lang):
    path, sid = _corrected(tmp_path)
    for args in (["audit", sid, "--hand", "2"], ["settle", sid]):
        out = tmp_path / f"{args[0]}.pdf"
        assert main([*args, "--db", str(path), "--lang", lang, "--pdf", str(out)]) == 0
        text = pdf_text(out.read_bytes())
        assert "undo of" not in text and "since undone" not in text, (args[0], text)


# ---------------------------------------------------------------- words (item 14)

def test_papers_are_in_the_tables_time_zone():
    """A table's time zone is its ``started``'s offset: every time on its
    papers is said there, not in UTC (a German night at 19:30 read 18:30 UTC)."""
    started = "2026-11-16T19:30:00+01:00"
    assert language.time_text("2026-11-16T22:10:00Z", "de", started) == "16.11.2026 23:10 UTC+1"
    assert language.time_text(started, "en", started) == "2026-11-16 19:30 UTC+1"
    assert language.time_text("2026-11-16T22:10:00Z", "en", "2026-11-16T19:30:00+05:30") == \
        "2026-11-17 03:40 UTC+5:30"
    assert language.time_text("2026-11-16T22:10:00Z", "en") == "2026-11-16 22:10 UTC"


def test_a_table_opens_in_the_opening_devices_time_zone(client):
    from tests.test_tablet import create

    sid = create(client, language="de", currency="EUR", utc_offset="60")
    with client.application.app_context():
        from referee.web.db import get_db
        started = sessions.get_log(get_db(), sid)["started"]
    assert started.endswith("+01:00"), started
    text = pdf_text(client.get(f"/reports/{sid}/settlement.pdf").data)
    assert "UTC+1" in text and not re.search(r"\d UTC\b(?!\+)", text)


def test_german_says_verein_for_the_club():
    from babel.messages.pofile import read_po

    with (language.TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        for m in read_po(f):
            said = m.string if isinstance(m.string, tuple) else (m.string,)
            assert not any(re.search(r"\bClubs?\b", s) for s in said), m.id


def test_the_season_pages_button_is_not_a_cards_show(app):
    client = app.test_client()
    app.config["REFEREE_HOST_KEY"] = "k"
    client.get("/club/unlock")
    with client.session_transaction() as s:
        token = s["csrf"]
    client.post("/club/unlock", data={"host_key": "k", "csrf_token": token})
    page = client.get("/club/season?lang=de").get_data(as_text=True)
    assert ">Vorzeigen<" not in page and "Diese Saison zeigen" in page


def test_an_accept_button_asks_and_does_not_read_as_a_status(client):
    """"Anna akzeptiert" on a button read as if Anna had accepted already."""
    from tests.test_tablet import create, hand_page
    from tests.test_tablet_quick import FOUR, confirm, pick

    sid = create(client, FOUR, language="de")
    assert confirm(client, sid, pick(client, sid, "tonk_out:1")).status_code == 303
    page = hand_page(client, sid, 1)
    assert ">Ann: akzeptieren<" in page and "Ann akzeptiert" not in page


def test_a_hands_outcome_and_its_winners_stand_without_a_space_between(client):
    """"hereingelegt : Ben": the told mark's place stood between an outcome and
    its winners even when the hand was not told (issue 35 item 14)."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "sample_logs" /
                      "ev_caught_dtb_beater.json").read_text())
    made = client.post("/api/sessions", json={**log, "language": "de"}).get_json()
    with client.session_transaction() as s:
        s["unlocked"] = [made["id"]]
    page = client.get(f"/s/{made['id']}").get_data(as_text=True)
    assert "hereingelegt:" in page
    assert not re.search(r"\w : \w", re.sub(r"<[^>]+>", "", page))
