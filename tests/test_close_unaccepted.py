"""Closing a table with hands not everyone accepted (newcomer N14): the box
"Yes, the night is over" closed it with no word about hands 2, 3 and 8,
which nobody (or one player) had accepted; once closed, nobody can accept or
dispute them. The close now asks first, as it does with a dispute open, and
names each such hand and whose word is missing, in the table's language."""

from __future__ import annotations

import re

from werkzeug.datastructures import MultiDict

from tests.test_tablet import create, form_value
from tests.test_tablet_quick import FOUR, confirm, fields_of, pick


def _told(client, sid: str, how: str, n: int) -> None:
    assert confirm(client, sid, pick(client, sid, how, hand=str(n))).status_code == 303


def _accept(client, sid: str, n: int, *players: str) -> None:
    page = client.get(f"/s/{sid}/hands/{n}").get_data(as_text=True)
    for k, player in enumerate(players):
        r = client.post(f"/s/{sid}/hands/{n}/accept", data={
            "csrf_token": form_value(page, "csrf_token"), "client_id": f"a{n}-{k}",
            "player": player})
        assert r.status_code == 303


def _close(client, sid: str):
    manage = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    return client.post(f"/s/{sid}/manage/close", data={
        "csrf_token": form_value(manage, "csrf_token"), "client_id": "close-1", "sure": "1"})


def _closed(client, sid: str) -> bool:
    return 'id="closed"' in client.get(f"/s/{sid}/manage").get_data(as_text=True)


def test_closing_asks_first_naming_the_hands_not_accepted_and_by_whom(client):
    sid = create(client, FOUR, currency="EUR", language="de")
    _told(client, sid, "tonk_out:1", 1)
    _accept(client, sid, 1, "Ben")
    _told(client, sid, "out:2", 2)
    _accept(client, sid, 2, *FOUR)
    _told(client, sid, "tonk_out:3", 3)
    r = _close(client, sid)
    assert r.status_code == 303 and "/manage/close?" in r.headers["Location"], \
        "the table closed without a word about the hands not accepted"
    assert not _closed(client, sid)
    asked = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "<h1>Tisch mit Händen schließen, die nicht alle bestätigt haben?</h1>" in asked
    # hand 2, accepted by everyone, is not named
    assert re.findall(r"<li>([^<]*)</li>", asked.split('id="confirm-lines"')[1]) == [
        "Hand 1: nicht bestätigt von Ann, Cy, Dee",
        "Hand 3: nicht bestätigt von Ann, Ben, Cy, Dee"]
    form = asked.split('class="row confirm-form"')[1]
    assert ">Ja, Tisch schließen<" in form
    r = client.post(f"/s/{sid}/manage/close", data=MultiDict(fields_of(form)))
    assert r.status_code == 303 and _closed(client, sid)


def test_a_table_whose_hands_everyone_accepted_closes_without_a_question(client):
    sid = create(client, FOUR)
    _told(client, sid, "tonk_out:1", 1)
    _accept(client, sid, 1, *FOUR)
    r = _close(client, sid)
    assert r.status_code == 303 and "?" not in r.headers["Location"]
    assert _closed(client, sid)
