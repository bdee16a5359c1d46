"""A dispute on a told hand (issue 35, item 3): shown and settled on the told
hand's page, which then offers no "accept for everyone"; closing the table
with a dispute open asks first; the settlement (page and PDF) says plainly
that a dispute is open."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from tests.reports_fixtures import pdf_text
from tests.test_tablet import create, form_value, hand_page
from tests.test_tablet_quick import FOUR, confirm, fields_of, pick


def _told_and_disputed(client) -> str:
    sid = create(client, FOUR)
    assert confirm(client, sid, pick(client, sid, "tonk_out:1")).status_code == 303
    page = hand_page(client, sid, 1)
    assert 'id="dispute-form"' in page, "a told hand offers no way to dispute it"
    r = client.post(f"/s/{sid}/hands/1/dispute", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": "d1", "by": "Cy",
        "action": "", "note": "Ben had a card left"})
    assert r.status_code == 303
    return sid


def test_a_told_hands_dispute_is_shown_and_settled_on_its_page(client):
    sid = _told_and_disputed(client)
    page = hand_page(client, sid, 1)
    assert "Ben had a card left" in page and 'id="settle-stand-1"' in page
    assert 'id="accept-all"' not in page and 'id="disputed"' in page
    # The accept-for-everyone post is refused too while the dispute is open.
    r = client.post(f"/s/{sid}/hands/1/accept-all", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": "a1", "sure": "1"})
    assert r.status_code == 303
    assert "accepted:" not in client.get(f"/s/{sid}").data.decode()
    r = client.post(f"/s/{sid}/hands/1/disputes/1/settle", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": "s1", "by": "Dee",
        "how": "stands"})
    assert r.status_code == 303
    page = hand_page(client, sid, 1)
    assert "Settled, the record stands: Dee" in page and 'id="accept-all"' in page


def test_closing_with_a_dispute_open_asks_first_and_the_settlement_says_so(client):
    sid = _told_and_disputed(client)
    settle = client.get(f"/s/{sid}/settle").data.decode()
    assert 'id="settle-disputed"' in settle and "1 dispute is still open (hand 1)" in settle
    pdf = pdf_text(client.get(f"/reports/{sid}/settlement.pdf").data)
    # said under the table's facts, before the money, and again above the signatures
    assert pdf.count("1 dispute is still open (hand 1)") == 2
    manage = client.get(f"/s/{sid}/manage").data.decode()
    data = {"csrf_token": form_value(manage, "csrf_token"), "client_id": "c1", "sure": "1"}
    asked = client.post(f"/s/{sid}/manage/close", data=data)
    assert asked.status_code == 303 and "?" in asked.headers["Location"], \
        "the table closed without a word about the dispute"
    text = client.get(asked.headers["Location"]).data.decode()
    assert "Close the table with a dispute open?" in text and "Hand 1: 1 open" in text
    assert "closed on" not in client.get(f"/s/{sid}").data.decode()
    form = text.split('class="row confirm-form"')[1]
    r = client.post(f"/s/{sid}/manage/close", data=MultiDict(fields_of(form)))
    assert r.status_code == 303
    assert "closed on" in client.get(f"/s/{sid}").data.decode()
