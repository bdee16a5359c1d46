"""A night imported again as a copy on purpose (newcomer45 P4): the club's
page, its ledger (the API's and ``referee ledger``) and the copy's own pages
listed every debt twice under the same table name, with nothing to tell the
copy from the night. A copy is named as one wherever a table is named,
decided at its import and stored; the night itself is not."""

from __future__ import annotations

import html

import pytest

from referee import language
from referee.cli import main as cli_main
from referee.reports.words import TABLE_COPY
from tests.test_club import KEY, _csrf, _log


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_copy_is_named_as_one_wherever_a_table_is_named(copied, club_app, capsys, lang):
    client = copied["client"]
    marked = language.gettext(lang, TABLE_COPY, table="Thursday club")
    assert marked != "Thursday club"
    tables = client.get("/api/club/ledger", headers=KEY).get_json()["transfers"]
    assert tables and len({t["session"] for t in tables}) == 2
    assert cli_main(["ledger", "--db", club_app.config["DATABASE"], "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert marked in out and out.count(marked) == len(tables) // 2, out
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = html.unescape(client.get(f"/club?lang={lang}").get_data(as_text=True))
    assert page.count(marked) >= len(tables) // 2, page
    copy, night = copied["copy"], copied["night"]
    client.post(f"/s/{copy['id']}/unlock", data={"pin": copy["table_token"],
                                                 "csrf_token": _csrf(client)})
    page = html.unescape(client.get(f"/s/{copy['id']}?lang={lang}").get_data(as_text=True))
    assert f"<title>{marked}" in page or marked in page
    client.post(f"/s/{night['id']}/unlock", data={"pin": night["table_token"],
                                                  "csrf_token": _csrf(client)})
    page = html.unescape(client.get(f"/s/{night['id']}?lang={lang}").get_data(as_text=True))
    assert marked not in page and "Thursday club" in page


def test_a_table_opened_now_or_imported_once_is_no_copy(club_app):
    client = club_app.test_client()
    doc = _log(1)
    made = client.post("/api/sessions", json={**doc, "copy": True}, headers=KEY).get_json()
    opened = client.post("/api/sessions", json={"table": "Thursday club", "stake": "1",
                                                "rules": "pagat", "players": ["Ann", "Ben"]},
                         headers=KEY).get_json()
    again = client.post("/api/sessions", json={"table": "Thursday club", "stake": "1",
                                               "rules": "pagat", "players": ["Ann", "Ben"]},
                        headers=KEY).get_json()
    for sid, token in ((made["id"], made["table_token"]), (opened["id"], opened["table_token"]),
                       (again["id"], again["table_token"])):
        got = client.get(f"/api/sessions/{sid}", headers={"Authorization": f"Bearer {token}"})
        assert got.get_json()["copy_of"] is None, sid
