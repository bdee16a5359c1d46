"""Back and forward on a phone never meet a form's post (issue 35): the
confirm step of a tap that ends play is a page reached by a redirect, so
Chromium (its back/forward cache on, as people run it) never shows "Confirm
Form Resubmission" (ERR_CACHE_MISS) on the way back through it."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, NamedTuple

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_follow import PHONE, TABLET, Night, served  # noqa: F401
from tests.test_browser_seams import chrome  # noqa: F401

from .helpers import FOLLOW, device
from .test_browser_quick import _pad

pytestmark = tb.pytestmark
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


class Dropped(NamedTuple):
    night: Night
    n: int
    who: str
    hand: str  # the hand's page
    confirm: str  # the drop's confirm page, sent
    phone: Any


@contextmanager
def a_confirmed_drop(base: str, app, browser, language: str, script: str | None = None):
    """The player to act at a new hand drops on their seat's phone and
    confirms it; the phone is back on the hand's page (closed after).
    ``script`` runs on each page the phone loads."""
    night = Night(app, language)
    n = night.start()
    who = night.state(n)["to_act"]
    seat = ["Ann", "Ben", "Cy"].index(who)
    phone = device(browser, PHONE)
    try:
        if script:
            phone.context.add_init_script(script)
        phone.goto(base + night.link("seat", who))
        hand = f"{base}/s/{night.sid}/hands/{n}"
        phone.goto(hand)
        phone.locator(f'button[name=act][value="{seat}:drop"]').click()
        phone.wait_for_url(re.compile(r".*/confirm$"))
        confirm = phone.url
        phone.locator("#confirm-yes").click()
        phone.wait_for_url(hand)
        yield Dropped(night, n, who, hand, confirm, phone)
    finally:
        phone.context.close()


def test_back_and_forward_through_a_confirmed_drop_on_a_phone(served, chrome):  # noqa: F811
    base, app = served
    with a_confirmed_drop(base, app, chrome, "pt") as (night, n, _who, _hand, _confirm, phone):
        assert night.state(n)["seq"] >= 1  # the drop is logged
        for step in (phone.go_back, phone.go_forward, phone.go_back, phone.go_back):
            step(wait_until="commit")  # a page the cache restores fires no load
            # The page's own main, or the browser's error page (which has none).
            expect(phone.locator("main, #main-frame-error")).to_have_count(1, timeout=FOLLOW)
            text = phone.content()
            assert "ERR_CACHE_MISS" not in text and phone.locator("main").count() == 1, \
                phone.url
        assert night.state(n)["seq"] == 1  # nothing was posted again on the way
        assert not phone.errors


# Set on a page the back/forward cache brings back; kept in the tab's
# sessionStorage, so that it outlives a load of the page that follows.
RESTORED = ("window.addEventListener('pageshow', (e) => { if (e.persisted) "
            "sessionStorage.setItem('restored', location.pathname + location.search); });")


# A tonk out's preview is the pick's own GET page; a drop's comes after its
# counts, by the form's post and a redirect.
@pytest.mark.parametrize("size,pick,counts", [(PHONE, "tonk_out:1", ()),
                                               (TABLET, "drop:1", (30, 9, 25))])
def test_back_to_a_confirmed_quick_hands_preview_is_no_dead_end(
        served, chrome, size, pick, counts):  # noqa: F811
    base, app = served
    night = Night(app, "en")
    host = night.host(chrome, base, size)
    try:
        host.context.add_init_script(RESTORED)
        table = f"{base}/s/{night.sid}"
        with host.expect_navigation():
            host.locator("#quick-hand").click()
        with host.expect_navigation():
            host.locator(f"button[name=pick][value='{pick}']").click()
        if counts:
            _pad(host, list(counts))
            with host.expect_navigation():
                host.locator("#quick-preview").click()
        preview = host.url
        assert host.locator("#confirm-yes").count() == 1
        host.locator("#confirm-yes").click()
        host.wait_for_url(table)
        assert host.locator(".flash-ok").count() == 1
        host.go_back(wait_until="commit")
        # The preview comes back from the cache as it was left, its button
        # greyed by the tap; it asks the referee again, which no longer
        # serves it once the hand is logged, as Back without the cache.
        expect(host).not_to_have_url(preview, timeout=FOLLOW)
        host.wait_for_load_state("load")
        assert host.evaluate("sessionStorage.getItem('restored')") == preview.split(base, 1)[1]
        said = host.locator("main").inner_text()
        assert host.locator("#confirm-yes").count() == 0, said
        assert host.url == table or "Hand 1 is already logged" in said, (host.url, said)
        assert night.summary()["hands"] == 1  # nothing was posted again on the way
        tb.shot(host, f"back-quick-confirmed-{size['width']}")
        assert not host.errors
    finally:
        host.context.close()


def test_back_to_a_sent_confirm_page_says_it_was_logged(served, chrome):  # noqa: F811
    """Newcomer N18: Back to a confirm page already sent showed it from the
    cache with every button greyed and no word why (then, loaded again, the
    hand with no word either). It says the tap was logged, once, and leads
    to the hand."""
    base, app = served
    with a_confirmed_drop(base, app, chrome, "de", RESTORED) as (night, n, who, hand, confirm,
                                                                 phone):
        phone.go_back(wait_until="commit")
        sent = phone.locator("#confirm-sent")
        expect(sent).to_contain_text(f"Schon erfasst: {who} legt hin.", timeout=FOLLOW)
        assert phone.url == confirm
        assert phone.evaluate("sessionStorage.getItem('restored')") == confirm.split(base, 1)[1]
        assert phone.locator("main button").count() == 0  # nothing greyed, nothing to send
        tb.shot(phone, "back-confirm-sent")
        with phone.expect_navigation():
            phone.locator("#confirm-to-hand").click()
        assert phone.url == hand
        assert night.state(n)["seq"] == 1  # logged once
        assert not phone.errors
