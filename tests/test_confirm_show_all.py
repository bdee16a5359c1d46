"""A drop's "log it and show every known hand" says what it settles before
the tap (newcomer44 P17: it settled the hand with no preview, where the two
confirm pages of the step-by-step way show who pays whom)."""

from __future__ import annotations

import re

from tests.test_tablet import _at_ann_s_drop


def test_the_shortcut_shows_who_pays_whom_before_it_settles(client):
    sid, data = _at_ann_s_drop(client)
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    page = client.get(r.headers["Location"]).data.decode()
    assert "Log it and show every known hand (3)" in page
    shown = re.search(r'id="show-all-preview">(.*?)</div>', page, re.S)
    assert shown, page
    text = re.sub(r"<[^>]+>", "", shown.group(1))
    assert "With every known hand shown (3)" in text
    assert "This ends the hand: caught, Ben wins." in text and "Ann pays Ben" in text
    # the preview logged nothing: the hand still waits for its drop
    assert 'id="result"' not in client.get(f"/s/{sid}/hands/1").data.decode()
