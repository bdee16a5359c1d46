"""Back and forward on a phone never meet a form's post (issue 35): the
confirm step of a tap that ends play is a page reached by a redirect, so
Chromium (its back/forward cache on, as people run it) never shows "Confirm
Form Resubmission" (ERR_CACHE_MISS) on the way back through it."""

from __future__ import annotations

import re

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_follow import PHONE, Night, served  # noqa: F401
from tests.test_browser_seams import chrome  # noqa: F401

from .helpers import device

pytestmark = tb.pytestmark
sync_api = pytest.importorskip("playwright.sync_api")


def test_back_and_forward_through_a_confirmed_drop_on_a_phone(served, chrome):  # noqa: F811
    base, app = served
    night = Night(app, "pt")
    n = night.start()
    who = night.state(n)["to_act"]
    seat = ["Ann", "Ben", "Cy"].index(who)
    phone = device(chrome, PHONE)
    try:
        phone.goto(base + night.link("seat", who))
        hand = f"{base}/s/{night.sid}/hands/{n}"
        phone.goto(hand)
        phone.locator(f'button[name=act][value="{seat}:drop"]').click()
        phone.wait_for_url(re.compile(r".*/confirm$"))
        phone.locator("#confirm-yes").click()
        phone.wait_for_url(hand)
        assert night.state(n)["seq"] >= 1  # the drop is logged
        for step in (phone.go_back, phone.go_forward, phone.go_back, phone.go_back):
            step(wait_until="commit")  # a page the cache restores fires no load
            phone.wait_for_timeout(500)
            text = phone.content()
            assert "ERR_CACHE_MISS" not in text and phone.locator("main").count() == 1, \
                phone.url
        assert night.state(n)["seq"] == 1  # nothing was posted again on the way
        assert not phone.errors
    finally:
        phone.context.close()
