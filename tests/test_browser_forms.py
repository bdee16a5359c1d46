"""A quick hand's preview in Chromium (docs/decisions.md, "Forms that
redirect"): its post answers a redirect to the preview's own GET page, so
reload, Back and Forward show the right page and post nothing again, before
the second tap and after it. Run twice: as Playwright launches Chromium (its
back/forward cache off) and as people run it (the cache on), where Back may
bring the page back from the cache without asking the server."""

from __future__ import annotations

import re

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_follow import Night, chrome, served  # noqa: F401

pytestmark = tb.pytestmark
browser = tb.browser  # the same fixture
sync_api = pytest.importorskip("playwright.sync_api")


def _shown(pg) -> str:
    """Which page the tablet shows: the preview, the counts' form, the table."""
    pg.wait_for_selector("main")
    text = pg.content()
    assert "ERR_CACHE_MISS" not in text and "Confirm Form Resubmission" not in text, pg.url
    if pg.locator("#confirm-yes").count():
        return "preview"
    if pg.locator("#quick-form").count():
        return "form"
    return "table" if re.search(r"/s/[0-9a-f]+$", pg.url) else pg.url


@pytest.mark.parametrize("launched", ["browser", "chrome"])
def test_reload_back_and_forward_through_a_quick_hands_preview(served, request,  # noqa: F811
                                                               launched):
    base, app = served
    night = Night(app, "de")
    pg = night.host(request.getfixturevalue(launched), base)
    try:
        pg.goto(f"{base}/s/{night.sid}/hands/quick?hand=1")
        pg.locator('button[name=pick][value="drop:2"]').click()  # Cy drops
        pg.wait_for_selector("#quick-form")
        for k, count in enumerate(("23", "31", "7")):
            pg.fill(f"#count{k}", count)
        pg.locator("#quick-preview").click()
        pg.wait_for_url(re.compile(r".*/hands/quick\?.*preview=1"))
        preview = pg.url
        assert _shown(pg) == "preview"
        assert "Ann 23 · Ben 31 · Cy 7" in pg.locator("#confirm").inner_text()
        pg.reload()
        assert _shown(pg) == "preview" and pg.url == preview
        pg.go_back(wait_until="commit")  # the cache fires no load
        assert _shown(pg) == "form"
        pg.go_forward(wait_until="commit")  # the cache fires no load
        assert _shown(pg) == "preview"
        assert night.summary()["hands"] == 0  # only looked at, never logged
        pg.locator("#confirm-yes").click()
        pg.wait_for_url(re.compile(rf".*/s/{night.sid}$"))
        assert night.summary()["hands"] == 1
        pg.reload()  # the table's page, got: nothing posted again
        assert _shown(pg) == "table"
        pg.go_back(wait_until="commit")  # the cache fires no load
        # The server leads the preview of a logged hand on to the table; a
        # preview the cache brings back (its button greyed by the tap) asks
        # the server again (tablet.js), and so leads there too.
        pg.wait_for_url(re.compile(rf".*/s/{night.sid}$"))
        assert _shown(pg) == "table"
        pg.go_forward(wait_until="commit")  # the cache fires no load
        _shown(pg)
        assert night.summary()["hands"] == 1
        assert not pg.errors
    finally:
        pg.context.close()
