"""A dispute on the host's tablet in Chromium, at 1024x768 and 390x844
(newcomer44's P5, P7, P14): "Settled by" asks who settles it and the
browser sends nothing until someone is chosen; the winner's accept leaves
the loser's dispute correctable and says the correction withdraws it; the
history and the audit's step view number "action N" as the dispute does."""

from __future__ import annotations

import pytest

from tests import test_browser_tablet as tb
from tests.helpers import FOLLOW
from tests.test_browser_follow import Night, served  # noqa: F401 - a fixture

pytestmark = tb.pytestmark
browser = tb.browser  # the same fixture
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
TABLET = {"width": 1024, "height": 768}

DEAL = {"Ann": ["2c", "3d", "As", "Ah", "9s"], "Ben": ["Ks", "Kh", "Kd", "Qs", "4c"],
        "Cy": ["Jh", "Js", "9c", "9d", "5d"]}
PLAYED = ["Ben: draw 8c", "Ben: spread Ks Kh Kd", "Ben: discard Qs", "Cy: take",
          "Cy: discard Jh", "Ann: drop", "Ann: show 2c 3d As Ah 9s", "Ben: show 4c 8c",
          "Cy: show Js 9c 9d 5d Qs"]


def played_with_an_undo(night) -> int:
    """A hand played through the API, Ben's spread undone and logged again (it
    is action 2 both times); its number."""
    n = night.post("/hands", {"dealer": "Ann", "deal": DEAL, "upcard": "7d"})["hand"]
    for k, text in enumerate([*PLAYED[:2], None, *PLAYED[1:]]):
        seq = night.state(n)["seq"]
        if text is None:
            night.post(f"/hands/{n}/undo", {"client_id": "undo", "expected_seq": seq})
        else:
            night.post(f"/hands/{n}/actions", {"action": text, "client_id": f"tap-{k}",
                                               "expected_seq": seq})
    return n


def test_a_dispute_after_the_winners_accept_is_settled_by_a_chosen_host(served, browser):  # noqa: F811
    base, app = served
    night = Night(app)
    n = played_with_an_undo(night)
    net = night.state(n)["result"]["net"]
    winner = max(net, key=lambda p: float(net[p]))
    night.post(f"/hands/{n}/accept", {"player": winner})
    night.post(f"/hands/{n}/disputes", {"by": "Cy", "note": "I took the 9d", "action": 4})
    host = night.host(browser, base, viewport=TABLET)
    host.goto(f"{base}/s/{night.sid}/hands/{n}")
    # The history numbers the undone spread and the one logged in its place alike.
    numbers = host.locator("#history ol.history > li").evaluate_all(
        "items => items.map(li => li.value)")
    assert numbers == [1, 2, 2, 3, 4, 5, 6, 7, 8, 9], numbers
    assert tb.text(host, "#history summary") == "History (9 actions in force, 1 undone)"
    select = host.locator("#settle-by-1")
    assert select.input_value() == "" and tb.text(host, "#settle-by-1 option:checked") == \
        "who settles it?"
    assert tb.text(host, "#settle-withdraws-1") == (
        f"A correction withdraws the acceptance of {winner}: they accepted the result it "
        "changes.")
    host.locator("#dispute-1").scroll_into_view_if_needed()
    tb.shot(host, "dispute44-settle-tablet", full_page=False)
    host.set_viewport_size(tb.PHONE)
    host.locator("#dispute-1").scroll_into_view_if_needed()
    tb.shot(host, "dispute44-settle-phone", full_page=False)
    host.set_viewport_size(TABLET)
    # Nobody chosen: the browser asks, and nothing is written.
    host.locator("#settle-stand-1").click()
    assert select.evaluate("s => !s.validity.valid")
    assert night.state(n)["seq"] == 9 and "badge wait" in host.content()
    select.select_option("Ann")
    tb.submit(host, "#settle-correct-1")
    tb.submit(host, "#confirm-yes")
    expect(host.locator("#seq")).to_have_text("3", timeout=FOLLOW)
    assert winner not in (night.state(n).get("accepted") or [])
    tb.shot(host, "dispute44-corrected-tablet")
    # The audit's step view: the take is action 4 there too.
    host.goto(f"{base}/reports/{night.sid}/hands/{n}/audit?step=6&token={night.token}")
    assert tb.text(host, "section.step p").startswith("Action 4 · Event")
    assert "Cy disputes action 4 (Cy: take Q♠, since undone)" in tb.text(host, "#disputes")
    tb.shot(host, "dispute44-audit-tablet")
    host.set_viewport_size(tb.PHONE)
    tb.shot(host, "dispute44-audit-phone")
    assert host.errors == []
