"""A phone reloaded offline shows the hand as it last saw it (newcomer 41,
N8): a seat's phone that followed the hand live (live.js swapping in the page
as the table moved on) and then lost the network was shown, after a reload,
the hand as it was when the page was first opened, under a note saying it was
the last seen: the player whose turn it now was could not keep a tap."""

from __future__ import annotations

from . import test_browser_offline as offline
from .helpers import FOLLOW
from .test_browser_offline import (
    PHONE,
    Referee,
    _seat_link,
    drained,
    expect,
    keep_tap,
    logged,
    open_hand,
    shot,
    watched,
)
from .test_browser_tablet import tap_card

# The offline tests' browser and context (fixtures), and their marks.
pytestmark = offline.pytestmark
pw, browser, context = offline.pw, offline.browser, offline.context


def _tap(pg, seat: int, verb: str, card: str, seq: int) -> None:
    """A tap online, logged before the next."""
    tap_card(pg, "#act", "card", card)
    pg.locator(f"button[name=act][value='{seat}:{verb}']").click()
    expect(pg.locator("#seq")).to_have_text(str(seq))


def test_a_phone_reloaded_offline_shows_the_hand_as_live_refresh_last_showed_it(
        browser, context, request, tmp_path_factory):
    ref = Referee(request, tmp_path_factory)
    phone_ctx = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    phone_ctx.on("page", lambda p: watched(p, errors))
    try:
        host = context.new_page()
        sid = open_hand(host, ref.info)
        hand_url = host.url
        link = _seat_link(host, ref.info, sid, "Cy")
        host.goto(hand_url)
        # The seat link's cookie, then the hand: the page the phone follows.
        assert phone_ctx.request.get(link, max_redirects=0).status == 303
        phone = phone_ctx.new_page()
        phone.goto(hand_url)
        phone.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=FOLLOW)
        expect(phone.locator("#actions")).to_contain_text("Waiting for Ben.")
        opened = phone.evaluate("Date.now()")
        # Ben's turn, logged on the host's tablet; Cy's phone follows it live.
        _tap(host, 1, "draw", "8c", 1)
        _tap(host, 1, "discard", "8c", 2)
        expect(phone.locator("#seq")).to_have_text("2", timeout=FOLLOW)
        expect(phone.locator("button[name=act][value='2:draw']")).to_have_count(1)
        ref.down()
        phone_ctx.set_offline(True)
        phone.reload()
        # The hand as the phone last showed it, Cy to act, and seen when it was swapped in.
        assert phone.locator("html").get_attribute("data-offline-copy")
        seen = phone.evaluate("Date.parse(document.documentElement.dataset.offlineCopy)")
        assert seen >= opened
        expect(phone.locator("#seq")).to_have_text("2")
        expect(phone.locator("#to-act")).to_have_text("Cy")
        keep_tap(phone, 2, "take")
        shot(phone, "08-live-seen-reloaded-offline")
        ref.up()
        phone_ctx.set_offline(False)
        drained(phone)
        assert logged(ref.info, sid) == ["Ben: draw 8c", "Ben: discard 8c", "Cy: take"]
    finally:
        phone_ctx.close()
        ref.down()
    assert not errors, errors
