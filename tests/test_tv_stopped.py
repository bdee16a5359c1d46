"""The TV says why play stopped (newcomer44 P18: after Ben's drop it showed
"4 to show" and not who dropped)."""

from __future__ import annotations

import re

from tests.test_tablet import create, form_value, hand_page, start


def test_the_tv_says_who_dropped_while_hands_are_shown(client):
    sid = create(client, ("Ann", "Ben", "Cy"), language="de")
    assert start(client, sid).status_code == 303
    page = hand_page(client, sid)
    tv = client.get(f"/s/{sid}/tv").data.decode()
    assert 'id="tv-stopped"' not in tv  # someone is to act: nothing stopped
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "d1",
            "expected_seq": "0", "act": "1:drop"}
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1"})
    tv = client.get(f"/s/{sid}/tv").data.decode()
    said = re.search(r'id="tv-to-act">(.*?)</p>', tv, re.S)
    assert said and r.status_code == 303
    assert re.sub(r"<[^>]+>", "", said.group(1)) == "Ben legt hin · 3 zeigen noch", said.group(1)
