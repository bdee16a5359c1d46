"""An old table whose debts were carried on to a new one (newcomer 44, P6):
it stayed open and took the next hand without a word, so at 1 a.m. with two
tablets a host logged a hand at the wrong table and the night's money split
over two tables and two papers. The old table's page, and its start and
quick-hand forms (before a new hand), now say where its debts went and
when, with a link there and the way to close it; a hand may still be logged
there (the rules allow it: some players may play on), and a closed table,
or one whose debts were never carried, says nothing of it."""

from __future__ import annotations

import html
import re

import pytest
from werkzeug.datastructures import MultiDict

from referee.language import LANGUAGES, gettext
from referee.reports.words import WENT_ON
from tests.money_tables import carry, made, open_table, out_by, seat_token
from tests.test_pay import join, unlock

PAGES = ("", "/hands/new?hand=2", "/hands/quick?hand=2")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def _night(client, lang="en"):
    early = open_table(client, players=("Ann", "Ben"), table="Kitchen table", language=lang)
    out_by(client, early, "Ben")
    late = made(carry(client, early, ("Ann", "Ben")))
    unlock(client, early["id"], early["token"])
    unlock(client, late["id"], late["token"])
    return early, late


def _said(lang: str) -> re.Pattern:
    """The sentence with any table and time, in ``lang``."""
    parts = re.split(r"\{table\}|\{when\}", gettext(lang, WENT_ON))
    return re.compile(".+?".join(re.escape(" ".join(p.split())) for p in parts))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_old_table_says_where_its_debts_went_before_a_new_hand(client, lang):
    early, late = _night(client, lang)
    for path in PAGES:
        page = client.get(f"/s/{early['id']}{path}{'&' if '?' in path else '?'}lang={lang}")
        assert page.status_code == 200, path
        html = page.get_data(as_text=True)
        assert _said(lang).search(_text(html)), (path, _text(html)[:3000])
        assert f'href="/s/{late["id"]}"' in html, path
    page = client.get(f"/s/{early['id']}").get_data(as_text=True)
    assert f'href="/s/{early["id"]}/manage#h-close"' in page
    # The new table, which the night goes on at, says nothing of it.
    assert not _said(lang).search(_text(client.get(f"/s/{late['id']}").get_data(as_text=True)))


def test_a_hand_may_still_be_logged_at_the_old_table_and_a_closed_one_says_nothing(client):
    early, _late = _night(client)
    out_by(client, early, "Ann")  # not refused: the rules allow it
    client.post(f"/api/sessions/{early['id']}/close", json={},
                headers={"Authorization": f"Bearer {early['token']}"})
    page = client.get(f"/s/{early['id']}").get_data(as_text=True)
    assert 'id="closed"' in page and not _said("en").search(_text(page))


def test_a_seats_phone_is_told_too_but_offered_no_way_it_cannot_take(app, client):
    """A seat's link opens this table alone: the new table's page would ask
    the phone for a PIN, and closing is the host's."""
    early, late = _night(client)
    phone = app.test_client()
    join(phone, early["id"], seat_token(client, early, "Ann"))
    page = phone.get(f"/s/{early['id']}").get_data(as_text=True)
    assert _said("en").search(_text(page)), _text(page)[:2000]
    assert f'href="/s/{late["id"]}"' not in page and "/manage#h-close" not in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_api_says_it_too_when_a_hand_starts_at_the_old_table(client, lang):
    """A host (or a script) starting the next hand by the API got the hand and
    no word of where the night went (pushup45): the answer now carries the
    tablet's note as a warning, its sentence and code, and the hand is
    logged all the same, as the tablet logs it."""
    early, late = _night(client, lang)
    page = client.get(f"/s/{early['id']}?lang={lang}").get_data(as_text=True)
    note = re.search(r'id="went-on"(?: data-code="([a-z_]+)")?>\s*<p>(.*?)</p>', page, re.S)
    assert note and _said(lang).search(_text(note.group(2)))
    code, shown = note.group(1), html.unescape(note.group(2))
    auth = {"Authorization": f"Bearer {early['token']}", "Accept-Language": lang}
    for body in ({"dealer": "Ben", "ending": {"how": "out", "by": "Ann"}}, {"dealer": "Ann"}):
        r = client.post(f"/api/sessions/{early['id']}/hands", json=body, headers=auth)
        assert r.status_code == 201, r.get_json()
        warning = r.get_json()["warning"]
        assert warning["code"] == code == "carried_on" and warning["table"] == late["id"]
        assert warning["message"] == shown, (warning["message"], shown)
    # The new table answers without it.
    r = client.post(f"/api/sessions/{late['id']}/hands", json={"dealer": "Ann"},
                    headers={"Authorization": f"Bearer {late['token']}"})
    assert r.status_code == 201 and "warning" not in r.get_json()


def _hands(client, table) -> int:
    r = client.get(f"/api/sessions/{table['id']}", headers={"Authorization":
                                                            f"Bearer {table['token']}"})
    return r.get_json()["hands"]


def _asked(lang: str, page: str, late: dict, button: str, note_go: str) -> list[tuple[str, str]]:
    """The question before a new hand at the old table, in ``lang``: the
    note's sentence, its "Go to" the later table (``note_go``, as the table's
    page says it) and ``button``; its form's fields."""
    assert 'id="went-on-ask" data-code="carried_on"' in page, _text(page)[:3000]
    assert _said(lang).search(_text(page)), _text(page)[:3000]
    go = re.search(rf'id="went-on-there" href="/s/{late["id"]}">([^<]+)<', page)
    assert go and go.group(1) == note_go, (go and go.group(1), note_go)
    assert gettext(lang, button) in html.unescape(page)
    here = re.search(r'<form[^>]*id="here-form".*?</form>', page, re.S).group(0)
    return [(k, html.unescape(v))
            for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', here)]


def _go(client, early, lang) -> str:
    page = client.get(f"/s/{early['id']}?lang={lang}").get_data(as_text=True)
    return re.search(r'id="went-on-there" href="[^"]+">([^<]+)<', page).group(1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tablet_asks_before_a_hand_starts_at_the_old_table(client, lang):
    """Newcomer45 P9: after the room was told what the new table opened
    with, a hand started (or told) at the old table was taken without a word
    at the moment of starting it (the note sat above the form), and changed
    who owes whom. Starting one now asks, in the note's words, with "Go to"
    the later table and "Start it here all the same"; only that logs it."""
    early, late = _night(client, lang)
    before = _hands(client, early)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get(
        f"/s/{early['id']}/hands/new?hand={before + 1}").get_data(as_text=True)).group(1)
    r = client.post(f"/s/{early['id']}/hands/new?lang={lang}", data={
        "csrf_token": csrf, "client_id": "deal-here", "hand": before + 1, "dealer": "Ben"})
    assert r.status_code == 200
    fields = _asked(lang, r.get_data(as_text=True), late, "Start it here all the same",
                    _go(client, early, lang))
    assert _hands(client, early) == before  # asked, nothing logged
    r = client.post(f"/s/{early['id']}/hands/new", data=MultiDict(
        [("csrf_token", csrf), *fields]))
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/hands/{before + 1}")
    assert _hands(client, early) == before + 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tablet_asks_before_a_hand_is_told_at_the_old_table(client, lang):
    early, late = _night(client, lang)
    before = _hands(client, early)
    preview = client.get(f"/s/{early['id']}/hands/quick", query_string={
        "pick": "out:0", "hand": before + 1, "lang": lang}).get_data(as_text=True)
    assert 'id="confirm-yes"' not in preview  # the second tap is the question
    fields = _asked(lang, preview, late, "Log it here all the same", _go(client, early, lang))
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', preview).group(1)
    # A confirm posted without the answer (a page from before the carry) is asked too.
    asked = client.post(f"/s/{early['id']}/hands/quick?lang={lang}", data=MultiDict(
        [("csrf_token", csrf), *((k, v) for k, v in fields if k != "here")]))
    assert asked.status_code == 200
    assert _asked(lang, asked.get_data(as_text=True), late, "Log it here all the same",
                  _go(client, early, lang))
    assert _hands(client, early) == before
    r = client.post(f"/s/{early['id']}/hands/quick", data=MultiDict(
        [("csrf_token", csrf), *fields]))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    assert _hands(client, early) == before + 1
