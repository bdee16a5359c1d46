"""A seat's phone after the host took its tap back (the 41st newcomer's N4):
the phone followed live to the state before the tap, but kept its line
"✓ Ben discards 3♦." on top, as if the tap still stood."""

from __future__ import annotations

import re

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_follow import PHONE, Night, served  # noqa: F401 - a fixture

from .helpers import FOLLOW, device

pytestmark = tb.pytestmark
browser = tb.browser  # the same fixture
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def phone_to_act(base: str, app, chromium):
    """A new hand, and the phone of the player to act, joined by its seat's
    link, on the hand's page: the night, the hand's number, its players, who
    acts, their seat and the phone."""
    night = Night(app)
    n = night.start()
    state = night.state(n)
    players = [p["name"] for p in state["players"]]
    who = state["to_act"]
    phone = device(chromium, PHONE)
    phone.goto(base + night.link("seat", who))
    phone.wait_for_url(re.compile(rf".*/s/{night.sid}(/hands/{n})?$"))
    phone.goto(f"{base}/s/{night.sid}/hands/{n}")
    return night, n, players, who, players.index(who), phone


def test_an_undone_tap_s_line_goes_from_the_phone_that_made_it(served, browser):  # noqa: F811
    base, app = served
    night, n, _players, who, seat, phone = phone_to_act(base, app, browser)
    tb.tap(phone, seat, "draw", ["8c"])
    assert tb.text(phone, ".flash-ok") == f"✓ {who} draws 8♣."

    # Someone else's action leaves the line about the phone's own tap alone.
    night.post(f"/hands/{n}/disputes", {"by": who, "note": "kept", "action": None})
    expect(phone.locator("#status-disputes")).to_be_visible(timeout=FOLLOW)
    assert tb.text(phone, ".flash-ok") == f"✓ {who} draws 8♣."

    # The host takes the draw back: the phone follows, and the line goes.
    night.post(f"/hands/{n}/undo", {"client_id": "undo-1"})
    expect(phone.locator("#history > summary")).to_contain_text("undone", timeout=FOLLOW)
    tb.shot(phone, "undo-banner-phone")
    assert phone.locator(".flash-ok").count() == 0
    assert tb.text(phone, "#to-act") == who
    assert phone.errors == []


def test_a_tap_s_line_goes_when_the_hand_moves_on(served, browser):  # noqa: F811
    """Newcomer 43's N6: "✓ Zoë discards K♦." stayed on top of her phone eight
    actions later, over a pile whose top was K♣, and the host's tablet kept
    its own line into the shows. The line stays while nothing was logged
    after it, and goes once the page shows a later action, on the phone and
    on the tablet alike."""
    base, app = served
    night, n, players, who, seat, phone = phone_to_act(base, app, browser)
    after = players[(seat + 1) % len(players)]
    host = night.host(browser, base)
    host.goto(f"{base}/s/{night.sid}/hands/{n}")
    tb.tap(phone, seat, "draw", ["8c"])
    tb.tap(phone, seat, "discard", ["8c"])
    assert tb.text(phone, ".flash-ok") == f"✓ {who} discards 8♣."
    # The tablet's own tap: the next player draws, logged from the host's tablet.
    tb.tap(host, players.index(after), "draw", ["9c"])
    assert tb.text(host, ".flash-ok") == f"✓ {after} draws 9♣."
    expect(phone.locator("#seq")).to_have_text("3", timeout=FOLLOW)
    tb.shot(phone, "moved-on-banner-phone")
    assert phone.locator(".flash-ok").count() == 0
    # Another device's action: the tablet's line about its own draw goes too.
    night.act(n, f"{after}: discard 9c")
    expect(host.locator("#seq")).to_have_text("4", timeout=FOLLOW)
    tb.shot(host, "moved-on-banner-tablet")
    assert host.locator(".flash-ok").count() == 0
    assert phone.errors == [] and host.errors == []
