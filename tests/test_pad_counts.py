"""A drop's counts are judged whole before anything is logged (newcomer N10):
a dropper's count 3 for 5 cards (they count 6 to 50) was accepted on the pad
and the confirm page, and "Bestätigen" logged the drop and the three good
counts and refused the fourth. Now nothing is logged, the confirm page comes
again with every count as typed, and the refusal names the player, the count
and the range; each count field says its player's range."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.test_refusals_read import _after, _errors
from tests.test_tablet import create, flashes, form_value, hand_page, start

FOUR = ("Ann", "Max", "Cy", "Dee")


def _dropped(client, lang: str = "de"):
    sid = create(client, FOUR, language=lang)
    assert start(client, sid).status_code == 303
    page = hand_page(client, sid)
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "d1",
            "expected_seq": "0", "act": "1:drop"}
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    assert r.headers["Location"].endswith("/confirm"), r.headers
    return sid, data


def _seq(client, sid: str) -> int:
    return int(re.search(r'id="seq">(\d+)<', hand_page(client, sid)).group(1))


def test_an_impossible_count_at_a_drops_confirm_logs_nothing_and_keeps_the_counts(client):
    sid, data = _dropped(client)
    typed = {"count0": "20", "count1": "3", "count2": "30", "count3": "12"}
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1", **typed})
    assert r.status_code == 303 and r.headers["Location"].endswith("/confirm"), r.headers
    page = _after(client, r)
    said = _errors(page)
    assert said and "Die 5 Karten von Max können nicht 3 zählen: sie zählen 6 bis 50" \
        in said[0], said
    assert not [t for kind, t in flashes(page) if kind == "ok"]
    for key, value in typed.items():  # the pad again, every count as typed
        assert re.search(rf'id="{key}" name="{key}" value="{value}"', page), key
    assert 'id="confirm-yes"' in page
    assert _seq(client, sid) == 0  # nothing logged: not the drop, no count
    # Corrected, the same tap logs the drop and every count.
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1", **typed,
                                                     "count1": "7"})
    page = _after(client, r)
    assert not _errors(page), _errors(page)
    assert _seq(client, sid) == 5


def test_every_count_field_says_its_players_range(client):
    sid, _data = _dropped(client, "fr")
    page = unescape(client.get(f"/s/{sid}/hands/1/confirm").get_data(as_text=True))
    field = re.search(r'<input[^>]*id="count1"[^>]*>', page).group(0)
    assert 'data-low="6"' in field and 'data-high="50"' in field, field
    assert "Les 5 cartes de Max ne peuvent pas compter {count}\u00a0: elles comptent de 6 " \
        "à 50" in field, field
    assert re.search(r'id="count1-range">de 6 à 50<', page), page


def test_counts_only_refused_keeps_them_on_the_hands_pad(client):
    """"Log these counts" on the hand's page, one impossible: nothing logged,
    the hand's pad again with the counts as typed."""
    sid, data = _dropped(client, "pt")
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1"})
    assert _seq(client, sid) == 1
    page = hand_page(client, sid)
    typed = {"count0": "20", "count1": "60", "count2": "30"}
    r = client.post(f"/s/{sid}/hands/1/act", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": "c2",
        "expected_seq": "1", "act": "all:count", **typed})
    page = _after(client, r)
    said = _errors(page)
    assert said and "As 5 cartas de Max não podem contar 60: contam de 6 a 50" in said[0], said
    assert _seq(client, sid) == 1
    for key, value in typed.items():
        assert re.search(rf'id="{key}" name="{key}" value="{value}"', page), key


def test_a_phones_own_count_refused_comes_back_as_typed(app, client):
    """A seat's phone posts its own player's count alone ("Log these counts"
    with one field): refused whole, the phone's pad came back empty where the
    tablet's keeps every count; now it keeps it too (newcomer46 N4)."""
    from tests.test_phones import ben_and_cy_phones

    g, ben, cy, hand, tap = ben_and_cy_phones(app, client)
    ben.post(f"{hand}/act", data=tap)
    r = ben.post(f"{hand}/act", data={**tap, "confirm": "1", "count1": "12"})
    assert r.status_code == 303
    before = _seq(cy, g.sid)
    r = cy.post(f"{hand}/act", data={
        "csrf_token": "t", "act": "all:count", "client_id": "c1",
        "expected_seq": str(before), "count2": "60"})
    page = _after(cy, r)
    said = _errors(page)
    assert said and "Cy" in said[0] and "60" in said[0], said
    assert re.findall(r'id="(count\d)"', page) == ["count2"]
    assert re.search(r'id="count2" name="count2" value="60"', page), page
    assert _seq(cy, g.sid) == before


@pytest.mark.parametrize(("extra", "least"), [
    ({}, 1), ({"opt_boobed": "true"}, 0), ({"opt_jokers": "2"}, 0)])
def test_a_told_droppers_field_says_the_range_the_referee_judges(client, extra, least):
    """A quick hand's drop: the pad said "0 bis 50" under the dropper's
    field, and the referee refused their 0 (a dropper holds cards): the
    field says 1 to 50, and its refusal below, unless boobed rules or a
    joker (which counts 0) let a dropper count 0 (newcomer46 N3)."""
    sid = create(client, FOUR, language="de", **extra)
    page = unescape(client.get(f"/s/{sid}/hands/quick", query_string={
        "pick": "drop:1", "hand": "1"}).get_data(as_text=True))
    field = re.search(r'<input[^>]*id="count1"[^>]*>', page).group(0)
    assert f'data-low="{least}"' in field and 'data-high="50"' in field, field
    assert re.search(rf'id="count1-range">{least} bis 50<', page), page
    if least:
        assert "Max hat mit 0 Punkten hingelegt" in field, field
    for other in (0, 2, 3):
        assert re.search(rf'id="count{other}-range">0 bis 50<', page), other
