"""A disputed told hand corrected from its Result box (retell45): the host
taps "Correct how it ended" beside the result, not in the dispute's box, and
the correction left the dispute open, so the hand's history said a dispute
was open about a result that was no longer there. Its confirm now offers to
settle the open dispute with the correction (the one write of
``retell.tell_again``); the API asks the same question of a client that
says nothing about it (``dispute_open``); a hand with no open dispute is
told again as before."""

from __future__ import annotations

import html
import re

import pytest
from werkzeug.datastructures import MultiDict

from referee.language import LANGUAGES, gettext
from referee.replay import replay
from referee.service import trust
from referee.service.errors import RefereeError
from referee.service.table import disputes, retell, sessions, table_events
from referee.web.db import get_db

from .test_api import assert_error
from .test_retell import DROP, TYPO, _quick_told, _told, verified_kinds
from .test_tablet import form_value, hand_page
from .test_tablet_quick import fields_of


def _dispute_on_the_page(client, sid: str, by: str, note: str) -> None:
    page = hand_page(client, sid, 1)
    r = client.post(f"/s/{sid}/hands/1/dispute", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": f"d-{by}", "by": by,
        "action": "", "note": note})
    assert r.status_code == 303


def _result_box_preview(client, sid: str, pick: str) -> str:
    """From the Result box's "Correct how it ended" to who pays whom, with
    the ending picked again (the page's own links)."""
    page = hand_page(client, sid, 1)
    link = re.search(r'id="tell-again" href="([^"]+)"', page)
    assert link, "no correction in the Result box"
    href = html.unescape(link.group(1))
    assert "dispute=" not in href  # not the dispute box's way in
    assert client.get(href).status_code == 200
    r = client.get(href, query_string={"pick": pick})
    assert r.status_code == 200
    return r.data.decode()


def _settled_line(lang: str, by: str) -> str:
    return gettext(lang, "Settled by a correction: {by}, {when}", by=by, when="")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_result_boxs_correction_settles_the_open_dispute(app, client, lang):
    sid = _quick_told(client, lang, "tonk_out:1")  # Ben's tonk, typed for Dee's
    _dispute_on_the_page(client, sid, "Dee", "the tonk was mine")
    preview = _result_box_preview(client, sid, "tonk_out:3")
    offer = re.search(r'<fieldset[^>]*id="settle-offer".*?</fieldset>', preview, re.S)
    assert offer, "the confirm does not offer to settle the open dispute"
    assert "the tonk was mine" in offer.group(0)
    # Nobody is chosen to settle it (P14): the host picks who does.
    assert re.search(r'<option value="" selected disabled>', offer.group(0))
    fields = MultiDict(fields_of(preview))
    assert fields.get("dispute") == "1"
    fields["settler"] = "Dee"
    r = client.post(f"/s/{sid}/hands/1/tell-again", data=fields)
    assert r.status_code == 303
    page = hand_page(client, sid, 1)
    history = page[page.index('id="dispute-1"'):]
    assert _settled_line(lang, "Dee").rstrip(", ") in html.unescape(history)
    assert 'id="settle-1"' not in page  # nothing left to settle
    with app.app_context():
        db = get_db()
        assert [(d["how"], d["by"]) for d in disputes.settlements(db, sid, 1).values()] == \
            [("corrected", "Dee")]
        log = sessions.get_log(db, sid)
        assert log["hands"][0]["ending"] == {"how": "tonk_out", "by": "Dee"}
        # The exported log is still tonk-log/1 and replays to the stored result.
        assert verified_kinds(db, sid) == \
            ["session", "hand_start", "dispute", "correction", "hand_start", "settle"]
        assert {p: str(v) for p, v in replay(log).result().totals.items()} == \
            sessions.standings(db, sid)["totals"]


def test_the_host_may_leave_the_dispute_open_on_purpose(app, client):
    sid = _quick_told(client, "en", "tonk_out:1")
    _dispute_on_the_page(client, sid, "Dee", "the tonk was mine")
    preview = _result_box_preview(client, sid, "tonk_out:2")
    button = re.search(r'<button type="submit" name="leave_open" value="1"[^>]*>([^<]+)<',
                       preview)
    assert button and "formnovalidate" in button.group(0)
    fields = MultiDict(fields_of(preview))
    fields["leave_open"] = "1"
    assert client.post(f"/s/{sid}/hands/1/tell-again", data=fields).status_code == 303
    with app.app_context():
        db = get_db()
        assert disputes.settlements(db, sid, 1) == {}
        assert sessions.get_log(db, sid)["hands"][0]["ending"]["by"] == "Cy"
        assert trust.verify_session(db, sid) == []
    assert 'id="settle-1"' in hand_page(client, sid, 1)


def test_a_settler_left_unchosen_is_refused_and_nothing_is_told(app, client):
    sid = _quick_told(client, "en", "tonk_out:1")
    _dispute_on_the_page(client, sid, "Dee", "the tonk was mine")
    preview = _result_box_preview(client, sid, "tonk_out:3")
    r = client.post(f"/s/{sid}/hands/1/tell-again", data=MultiDict(fields_of(preview)))
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).data.decode()
    assert "say who settles dispute 1 of hand 1" in html.unescape(page)
    assert "settled by )" not in page  # no half-carried dispute on the form
    with app.app_context():
        db = get_db()
        assert sessions.get_log(db, sid)["hands"][0]["ending"]["by"] == "Ben"
        assert disputes.settlements(db, sid, 1) == {}


def test_a_hand_with_no_open_dispute_is_told_again_as_before(app, client):
    sid = _quick_told(client, "en", "tonk_out:1")
    preview = _result_box_preview(client, sid, "tonk_out:3")
    assert 'id="settle-offer"' not in preview and 'name="leave_open"' not in preview
    r = client.post(f"/s/{sid}/hands/1/tell-again", data=MultiDict(fields_of(preview)))
    assert r.status_code == 303
    with app.app_context():
        assert sessions.get_log(get_db(), sid)["hands"][0]["ending"]["by"] == "Dee"


def test_the_api_asks_what_becomes_of_an_open_dispute(app, client):
    """The same question by the API's door, the same one write: a correction
    that says nothing of the open dispute is refused (nothing written); it
    settles it (``settles``) or leaves it open (``leaves_open``)."""
    sid, auth = _told(client)
    url = f"/api/sessions/{sid}/hands/1/tell-again"
    assert client.post(f"/api/sessions/{sid}/hands/1/disputes", headers=auth,
                       json={"by": "Ann", "note": "I had 20, not 8"}).status_code == 201
    with app.app_context():
        before = verified_kinds(get_db(), sid)
    r = client.post(url, headers=auth, json={"ending": DROP})
    assert_error(r, 422, "dispute_open")
    error = r.get_json()["error"]
    assert error["hand"] == 1 and "dispute 1 of hand 1" in error["message"]
    with app.app_context():
        assert verified_kinds(get_db(), sid) == before  # nothing written
    r = client.post(url, headers=auth, json={"ending": DROP, "leaves_open": True})
    assert r.status_code == 201, r.get_json()
    with app.app_context():
        db = get_db()
        assert disputes.settlements(db, sid, 1) == {}
        with pytest.raises(RefereeError) as err:  # the service says so to every door
            retell.tell_again(db, sid, 1, {"ending": TYPO})
        assert err.value.code == "dispute_open"
    r = client.post(url, headers=auth,
                    json={"ending": TYPO, "settles": {"dispute": 1, "by": "Cy"}})
    assert r.status_code == 201, r.get_json()
    with app.app_context():
        db = get_db()
        assert [(d["how"], d["by"]) for d in disputes.settlements(db, sid, 1).values()] == \
            [("corrected", "Cy")]
        # Settled: told again once more with nothing open, as before.
        retell.tell_again(db, sid, 1, {"ending": DROP})
        table_events.dispute(db, sid, 1, "Ben", "and again")
        with pytest.raises(RefereeError) as err:
            retell.tell_again(db, sid, 1, {"ending": TYPO})
        assert err.value.code == "dispute_open" and "dispute 2 of hand 1" in str(err.value)
        assert trust.verify_session(db, sid) == []
