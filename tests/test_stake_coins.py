"""A stake finer than its currency's smallest coin (newcomer44 P9): 0.123 EUR
was taken without a word, then "Dev pays Ann €0.615". Opening a table for
one asks the host to confirm it (the tablet's form, the API, and `referee
import` of a log without hands); so does a table in whole coins changing to
one later (the manage page, the API: pushup45); an import of a night
already played keeps its stake as handed over (docs/decisions.md)."""

from __future__ import annotations

import html
import re

import pytest

from referee.service import storage
from tests.test_api import assert_error, bearer
from tests.test_tablet import PIN, token

OPENING = {"format": "tonk-log/1", "table": "Odd", "stake": "0.123", "currency": "EUR",
           "rules": "pagat", "players": ["Ann", "Ben"]}

SAID = {
    "en": "a stake of 0.123 EUR is finer than its smallest coin (0.01)",
    "de": "ein Einsatz von 0,123 EUR ist feiner als seine kleinste Münze (0,01)",
    "fr": "une mise de 0,123 EUR est plus fine que sa plus petite pièce (0,01)",
    "pt": "uma aposta de 0,123 EUR é mais fina do que a sua moeda mais pequena (0,01)",
}


def _form(client, **extra) -> dict:
    data = {"csrf_token": token(client), "stake": "0.123", "currency": "EUR",
            "preset": "pagat", "pin": PIN, "pin2": PIN, "player1": "Ann", "player2": "Ben",
            "table": "Odd"}
    return {**data, **extra}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_tablet_asks_the_host_to_confirm_a_stake_finer_than_a_coin(client, lang):
    client.get(f"/new?lang={lang}")
    r = client.post("/new", data=_form(client, stake="0,123" if lang != "en" else "0.123"))
    assert r.status_code == 303 and r.headers["Location"] == "/new"
    page = client.get("/new").get_data(as_text=True)
    assert SAID[lang] in page
    assert 'name="finer_stake"' in page and re.search(r'name="stake"[^>]*value="0[.,]123"', page)
    assert client.get("/").get_data(as_text=True).count("/s/") == 0  # nothing opened
    r = client.post("/new", data=_form(client, stake="0.123", finer_stake="1"))
    assert r.status_code == 303 and re.fullmatch(r"/s/[0-9a-f]+", r.headers["Location"])
    # a stake in whole cents is never asked about
    assert 'name="finer_stake"' not in client.get("/new").get_data(as_text=True)


def test_the_api_refuses_an_opening_unless_confirmed_and_keeps_an_import(client):
    assert_error(client.post("/api/sessions", json=OPENING), 400, "stake_finer_than_coin")
    r = client.post("/api/sessions?finer_stake=true", json=OPENING)
    assert r.status_code == 201, r.get_json()
    played = {**OPENING, "hands": [{"dealer": "Ben", "ending": {"how": "tonk_out", "by": "Ann"}}]}
    assert client.post("/api/sessions", json=played).status_code == 201  # a record, as given
    chips = {**OPENING, "currency": "chips"}  # no coin: free
    assert client.post("/api/sessions", json=chips).status_code == 201


def test_a_table_in_whole_coins_asks_before_a_finer_stake(client, app):
    """Changing the stake later asks as opening does (pushup45): the same
    code and sentence, and the host's confirmation (``?finer_stake=true``)."""
    made = client.post("/api/sessions", json={**OPENING, "stake": "100",
                                              "currency": "JPY"}).get_json()
    sid, key = made["id"], made["table_token"]
    r = client.post(f"/api/sessions/{sid}/stake", json={"stake": "0.5"}, headers=bearer(key))
    said = assert_error(r, 400, "stake_finer_than_coin")["message"]
    opening = assert_error(client.post("/api/sessions", json={**OPENING, "stake": "0.5",
                                                                "currency": "JPY"}),
                           400, "stake_finer_than_coin")["message"]
    assert said == opening, (said, opening)
    assert client.post(f"/api/sessions/{sid}/stake?finer_stake=true", json={"stake": "0.5"},
                       headers=bearer(key)).status_code == 201
    assert client.post(f"/api/sessions/{sid}/stake", json={"stake": "50"},
                       headers=bearer(key)).status_code == 201
    # one opened for a finer stake, confirmed, was told once
    made = client.post("/api/sessions?finer_stake=1", json=OPENING).get_json()
    assert client.post(f"/api/sessions/{made['id']}/stake", json={"stake": "0.124"},
                       headers=bearer(made["table_token"])).status_code == 201
    with app.app_context():
        from referee.web.db import get_db
        assert storage.sessions.row(get_db(), sid)["currency"] == "JPY"


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_manage_page_asks_the_host_to_confirm_a_finer_stake(client, lang):
    """In the API's words: a stake of half a yen at a table playing 100 yen."""
    made = client.post("/api/sessions", json={**OPENING, "stake": "100", "currency": "JPY",
                                              "language": lang}).get_json()
    sid, key = made["id"], bearer(made["table_token"])
    r = client.post(f"/s/{sid}/unlock", data={"csrf_token": token(client, f"/s/{sid}/unlock"),
                                              "pin": made["table_token"]})
    assert r.status_code == 303
    said = assert_error(client.post(f"/api/sessions/{sid}/stake", json={"stake": "0.5"},
                                    headers={**key, "Accept-Language": lang}),
                        400, "stake_finer_than_coin")["message"]
    manage = f"/s/{sid}/manage"
    assert 'name="finer_stake"' not in client.get(manage).get_data(as_text=True)

    def post(**extra):
        page = client.get(manage).get_data(as_text=True)
        data = {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
                "stake": "0,5" if lang != "en" else "0.5", **extra}
        return client.post(f"{manage}/stake", data=data)

    r = post()
    assert r.status_code == 303 and r.headers["Location"].startswith(manage)
    page = html.unescape(client.get(manage).get_data(as_text=True))
    assert said[1:] in page, (said, page[:3000])
    assert 'name="finer_stake"' in page and re.search(r'name="stake"[^>]*value="0[.,]5"', page)
    assert client.get(f"/api/sessions/{sid}", headers=key).get_json()["next_stake"] == "100"
    assert post(finer_stake="1").status_code == 303
    assert client.get(f"/api/sessions/{sid}", headers=key).get_json()["next_stake"] == "0.5"


@pytest.mark.parametrize("lang", sorted(SAID))
def test_referee_import_of_a_table_not_yet_played_asks_too(tmp_path, capsys, lang):
    """A log without hands is a table opening now, whatever door it comes
    by: ``referee import`` refuses it as the API does, in the log's language,
    unless ``--finer-stake``; a night already played keeps its stake."""
    import json

    from referee.cli import main

    db = str(tmp_path / "t.sqlite3")
    path = tmp_path / "opening.json"
    path.write_text(json.dumps({**OPENING, "language": lang}), encoding="utf-8")
    assert main(["import", str(path), "--db", db]) != 0
    err = capsys.readouterr().err
    assert SAID[lang] in err and "stake_finer_than_coin" in err, err
    assert main(["import", str(path), "--db", db, "--finer-stake"]) == 0
    played = {**OPENING, "language": lang,
              "hands": [{"dealer": "Ben", "ending": {"how": "tonk_out", "by": "Ann"}}]}
    path.write_text(json.dumps(played), encoding="utf-8")
    assert main(["import", str(path), "--db", db]) == 0
