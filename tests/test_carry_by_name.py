"""Carrying an earlier table's debts by name (newcomer N3): a new table
opened with "Jurgen" (a keyboard without umlauts) carrying from a table where
"Jürgen" was owed carried nothing and said nothing; the host believed the
debt had moved. Such a name is now refused before anything opens, naming
both spellings; a table that opens says what it carried (who owes whom how
much) and what stays owed at the earlier table; and a table where nothing
happened is no session of the club."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.test_tablet import create, token
from tests.test_tablet_quick import confirm, pick

KITCHEN = ("Jürgen", "Zoë", "Anna")


def _kitchen(client) -> str:
    """Jürgen tonks out at 0.50: Zoë and Anna each owe him 1.00."""
    sid = create(client, KITCHEN, currency="EUR", stake="0.50", table="Kitchen")
    assert confirm(client, sid, pick(client, sid, "tonk_out:0")).status_code == 303
    return sid


def _open(client, players, earlier):
    data = {"csrf_token": token(client), "stake": "1", "currency": "EUR", "preset": "pagat",
            "pin": "4321", "pin2": "4321", "table": "Back room", "carry_from": earlier}
    data.update({f"player{k}": p for k, p in enumerate(players, 1)})
    return client.post("/new", data=data)


def _flashes(page: str) -> list[tuple[str, str]]:
    return [(kind, unescape(text).replace("\xa0", " ")) for kind, text in
            re.findall(r'<p class="flash flash-(\w+)"[^>]*>([^<]*)</p>', page)]


def _tables(client) -> int:
    """The tables this tablet lists (every one it opened)."""
    return len(re.findall(r'href="/s/[0-9a-f]+"', client.get("/").get_data(as_text=True)))


def test_a_name_spelt_without_its_accents_is_refused_naming_both(client):
    earlier = _kitchen(client)
    before = _tables(client)
    r = _open(client, ("Jurgen", "Anna", "Mike"), earlier)
    assert r.status_code == 303 and r.headers["Location"].endswith("/new")
    page = unescape(client.get("/new").get_data(as_text=True))
    assert "Jurgen sits here, but at Kitchen the name is Jürgen (Anna pays Jürgen): write it " \
        "as it is there to carry that debt, or carry nothing" in page
    assert 'value="Jurgen"' in page  # the form again, as typed
    assert _tables(client) == before  # nothing opened, nothing carried
    settle = client.get(f"/s/{earlier}/settle").get_data(as_text=True)
    assert "Carried on to" not in settle


def test_opening_says_what_was_carried_and_what_stays_owed(client):
    earlier = _kitchen(client)
    r = _open(client, ("Jürgen", "Anna", "Mike"), earlier)
    assert r.status_code == 303 and re.fullmatch(r"/s/[0-9a-f]+", r.headers["Location"])
    said = _flashes(client.get(r.headers["Location"]).get_data(as_text=True))
    assert ("ok", "Carried from Kitchen: Anna pays Jürgen €1.00") in said
    assert ("error", "Not carried, still owed at Kitchen: Zoë pays Jürgen €1.00. Only a debt "
                     "between two players who both sit here is carried.") in said


@pytest.mark.parametrize("lang, said", [
    ("en", "Nothing was carried from Kitchen: nobody owes anything there."),
    ("de", "Von Kitchen wurde nichts übertragen: Dort schuldet niemand etwas.")])
def test_opening_from_a_settled_table_says_nothing_was_carried(client, lang, said):
    earlier = create(client, KITCHEN, currency="EUR", table="Kitchen")
    client.get(f"/?lang={lang}")
    r = _open(client, ("Jürgen", "Anna"), earlier)
    assert ("error", said) in _flashes(client.get(r.headers["Location"]).get_data(as_text=True))


def test_a_table_where_nothing_happened_is_no_session_of_the_club(client):
    client.application.config["REFEREE_HOST_KEY"] = "k"
    key = {"X-Host-Key": "k"}
    create(client, KITCHEN, currency="EUR", table="Kitchen", host_key="k")
    played = create(client, ("Jürgen", "Anna", "Mike"), currency="EUR", table="Played",
                    host_key="k")
    assert confirm(client, played, pick(client, played, "tonk_out:0")).status_code == 303
    create(client, ("Jurgen", "Anna", "Mike", "Dee"), currency="EUR", table="Abandoned",
           host_key="k")
    people = {p["name"]: p["sessions"]
              for p in client.get("/api/club/people", headers=key).get_json()["people"]}
    # Kitchen and Abandoned saw nothing: Dee and Jurgen sat only there
    assert people == {"Anna": 1, "Jürgen": 1, "Mike": 1}
    season = client.get("/api/club/season", headers=key).get_json()
    assert season["sessions"] == 1
