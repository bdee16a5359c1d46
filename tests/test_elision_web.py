"""French joins "de" and "que" to a name that starts with a vowel's sound, on
every page (newcomer 43's N7): Ömer's phone read "Téléphone de Ömer" and his
hand's story "reçoivent chacun 1 mise de chacun de Ömer et Anna"; and a
payment's stakes and reason are said with French's " : " ("(2 mises :
attrapé)"), as every other French sentence of the page."""

from __future__ import annotations

import html
import re

from tests.test_api import bearer

PLAYERS = ["Jürgen", "Zoë", "Ömer", "Anna"]
# Hand 7 of the newcomer's night: Ömer drops with 20, Jürgen and Zoë hold 8.
CAUGHT = {"how": "drop", "by": "Ömer", "counts": {"Jürgen": 8, "Zoë": 8, "Ömer": 20, "Anna": 27}}


def _text(page: str) -> str:
    """A page's words as read: its tags out, its entities read."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_oemers_french_phone_says_d_oemer_and_a_french_colon(app, client):
    made = client.post("/api/sessions", json={
        "format": "tonk-log/1", "table": "Küche, Tisch 1", "stake": "1", "currency": "EUR",
        "rules": "pagat", "players": PLAYERS, "language": "fr"}).get_json()
    sid, auth = made["id"], bearer(made["table_token"])
    r = client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Zoë", "ending": CAUGHT},
                    headers=auth)
    assert r.status_code == 201, r.get_json()
    link = client.post(f"/api/sessions/{sid}/links", json={"role": "seat", "player": "Ömer"},
                       headers=auth).get_json()
    phone = app.test_client()
    assert phone.get(link["url"].split("localhost", 1)[1]).status_code == 303
    page = _text(phone.get(f"/s/{sid}/hands/1").get_data(as_text=True))
    assert "Téléphone d'Ömer" in page
    assert "de chacun d'Ömer et Anna" in page, page
    assert "(2 mises : attrapé)" in page
    assert " de Ömer" not in page and "mises: " not in page
    # The TV says a player's cards and the last result with the same colon.
    tv = _text(phone.get(f"/s/{sid}/tv").get_data(as_text=True))
    assert "Main 1 : Attrapé : Jürgen et Zoë gagnent" in tv, tv
