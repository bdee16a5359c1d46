"""A dispute of one wrongly logged card corrected by that card alone, on the
host's tablet in Chromium at 1024x768 (newcomer 43's N4: "Jürgen zieht 9♠",
it was 3♠; the only way was back to action 1 and every later action typed
again): the hand as it stood before the draw, the card picked, the confirm
page saying what follows, and the later actions still in the hand."""

from __future__ import annotations

import pytest

from tests import test_browser_tablet as tb
from tests.helpers import FOLLOW
from tests.test_browser_follow import Night, served  # noqa: F401 - a fixture

pytestmark = tb.pytestmark
browser = tb.browser  # the same fixture
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

PLAYERS = ("Jürgen", "Zoë", "Ömer")
DEAL = {"Jürgen": ["2c", "3d", "As", "Ah", "9s"], "Zoë": ["Ks", "Kh", "Kd", "Qs", "4c"],
        "Ömer": ["Jh", "Js", "9c", "9d", "5d"]}
PLAYED = ["Zoë: draw 8c", "Zoë: spread Ks Kh Kd", "Zoë: discard Qs", "Ömer: take",
          "Ömer: discard Jh"]


def test_the_host_corrects_one_card_and_the_later_actions_stay(served, browser):  # noqa: F811
    base, app = served
    night = Night(app, language="de", players=PLAYERS)
    n = night.post("/hands", {"dealer": "Jürgen", "deal": DEAL, "upcard": "7d"})["hand"]
    for text in PLAYED:
        night.act(n, text)
    night.post(f"/hands/{n}/disputes", {"by": "Ömer", "note": "Zoë hat 8♥ gezogen",
                                        "action": 1})
    host = night.host(browser, base)
    host.goto(f"{base}/s/{night.sid}/hands/{n}")
    host.select_option("#settle-by-1", "Jürgen")
    tb.submit(host, "#settle-instead-1")
    # The hand as it stood before the draw: Zoë to act, nothing logged yet.
    assert tb.text(host, "#instead-logged") == "Erfasst als: Zoë zieht 8♣"
    assert tb.text(host, "#to-act") == "Zoë" and tb.text(host, "#seq") == "0"
    tb.shot(host, "correct-instead-pick")
    tb.tap_card(host, "#instead-form", "card", "8h")
    tb.submit(host, "#instead-form button[name=act][value='1:draw']")
    lines = tb.text(host, "#confirm-lines")
    assert "Zoë zieht 8♥ statt 8♣" in lines
    assert "Die 4 späteren Aktionen werden danach wieder so erfasst, wie sie waren." in lines
    tb.shot(host, "correct-instead-confirm")
    tb.submit(host, "#confirm-yes")
    expect(host.locator("#seq")).to_have_text("5", timeout=FOLLOW)
    assert tb.text(host, ".flash-ok").startswith(
        "✓ Einspruch 1 zu Hand 1 ist erledigt: Zoë zieht 8♥ statt 8♣.")
    assert tb.text(host, "#to-act") == "Jürgen"
    assert night.state(n)["seq"] == 5
    log = night.client.get(f"/api/sessions/{night.sid}/log", headers=night.auth).get_json()
    assert log["hands"][0]["actions"] == ["Zoë: draw 8h", *PLAYED[1:]]
    tb.shot(host, "correct-instead-done")
    assert host.errors == []
