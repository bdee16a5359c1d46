"""A show with nothing picked, tapped offline (newcomer 46): online the
referee refuses it at once with what to do ("Pick the 5 cards Ann shows, or
type their count under “Counts only”."); offline the tap was kept, and
stopped the queue only once sent. The page now refuses it at once offline
too, in the same words, and keeps nothing. Headless Chromium, in English and
in French (its no-break spaces and quotes)."""

from __future__ import annotations

import re

import pytest

from . import test_browser_offline as offline
from .test_browser_offline import KEPT, expect
from .test_browser_tablet import create_table

# The offline tests' server, browser and context (fixtures), and their marks.
pytestmark = offline.pytestmark
server, pw, browser, context = offline.server, offline.pw, offline.browser, offline.context


def _said(pg, selector: str) -> str:
    return " ".join(pg.locator(selector).inner_text().split())


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_show_with_nothing_picked_is_refused_at_once_offline_in_the_same_words(
        server, context, lang):
    pg = context.new_page()
    sid = create_table(pg, server["base"], ["Ann", "Ben", "Cy"], table="Porch")
    pg.locator("#start-hand").click()
    pg.get_by_role("button", name="Deal: start the hand").click()  # no card dealt known
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    pg.locator("button[name=act][value='1:drop']").click()
    pg.locator("#confirm-yes").click()
    pg.wait_for_selector("#count-only")
    pg.goto(f"{server['base']}/s/{sid}/hands/1?lang={lang}")
    # Online: Ann's show with nothing picked, refused by the referee.
    pg.locator("button[name=act][value='0:show']").click()
    expect(pg.locator("p.flash-error")).to_be_visible()
    online = _said(pg, "p.flash-error")
    assert "wrong_show" in online and "5" in online
    assert "Counts only" in online or "Comptes seuls" in online
    context.set_offline(True)
    pg.locator("button[name=act][value='0:show']").click()
    expect(pg.locator("#offline-flash")).to_be_visible()
    assert _said(pg, "#offline-flash") == online
    # Nothing kept: no queue to stop later.
    assert pg.locator("#offline-queue > ol > li").count() == 0
    assert pg.evaluate(KEPT) == 0
    context.set_offline(False)
