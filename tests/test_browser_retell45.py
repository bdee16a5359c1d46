"""retell45 in headless Chromium, at a phone's and a tablet's size: a
disputed told hand corrected from its Result box settles its dispute (the
confirm's offer, who settles it asked first), and the audit's step view
numbers each step by its event, as its paper does, so "taken out by event
N" can be found. Screenshots: ``$TABLET_SHOTS`` (default /tmp/shots) as
``night-retell45-*``."""

from __future__ import annotations

import re

import pytest

from referee.language import gettext

from . import test_browser_tablet as tablet_tests
from .helpers import device, serve_for_browser
from .test_browser_disputes import played_with_an_undo
from .test_browser_follow import Night, served  # noqa: F401 - a fixture
from .test_browser_night import check
from .test_browser_tablet import create_table

FOUR = ["Ann", "Ben", "Cy", "Dee"]
pytestmark = tablet_tests.pytestmark
browser = tablet_tests.browser


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    yield from serve_for_browser(request, tmp_path_factory)


def _go(pg, selector: str) -> None:
    with pg.expect_navigation():
        pg.locator(selector).first.click()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_result_boxs_correction_settles_the_dispute(server, browser, lang):
    pg = device(browser, {"width": 1024, "height": 768}, locale=lang, timeout=15_000)
    sid = create_table(pg, server, FOUR, table="Retold", stake="0.50", currency="EUR")
    _go(pg, "#quick-hand")
    _go(pg, "button[name=pick][value='tonk_out:1']")  # Ben's, typed for Dee's
    _go(pg, "#confirm-yes")
    pg.goto(f"{server}/s/{sid}/hands/1")
    pg.locator(".dispute-box summary").click()
    pg.select_option("#dispute-by", "Dee")
    pg.fill("#dispute-note", "the tonk was mine")
    _go(pg, "#dispute-form button[type=submit]")
    _go(pg, "#tell-again")  # the Result box's, not the dispute's
    _go(pg, "#change-ending")
    _go(pg, "#how-tonk_out button:text-is('Dee')")
    offer = pg.locator("#settle-offer")
    assert "the tonk was mine" in offer.inner_text()
    check(pg, f"retell45-offer-{lang}")
    # Nobody chosen to settle it: the browser asks before anything is sent.
    pg.locator("#confirm-yes").click()
    assert pg.evaluate("document.querySelector('#offer-by').matches(':invalid')")
    assert "/tell-again" in pg.url
    pg.select_option("#offer-by", "Dee")
    _go(pg, "#confirm-yes")
    assert re.search(rf"/s/{sid}/hands/1$", pg.url)
    settled = gettext(lang, "Settled by a correction: {by}, {when}", by="Dee", when="")
    assert settled.rstrip(", ") in pg.locator("#dispute-1").inner_text()
    assert pg.locator("#settle-1").count() == 0
    check(pg, f"retell45-settled-{lang}")
    assert not pg.errors
    pg.context.close()


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_the_audit_step_view_numbers_each_step_by_its_event(served, browser, lang):  # noqa: F811
    base, app = served
    night = Night(app, lang)
    n = played_with_an_undo(night)
    pg = device(browser, {"width": 390, "height": 844}, locale=lang, timeout=15_000)
    pg.goto(f"{base}/reports/{night.sid}/hands/{n}/audit?step=2&lang={lang}"
            f"&token={night.token}")
    heads = pg.locator("table.steps-list thead th").all_inner_texts()
    assert heads[:2] == ["#", gettext(lang, "Event")]
    taken = gettext(lang, "taken out by event {n}", n="\x00")
    said = re.escape(taken).replace("\x00", r"(\d+)")
    named = {int(k) for k in re.findall(said, pg.locator("main").inner_text())}
    assert named, "no step taken out"
    for k in named:  # each event named is a row of the list, numbered so
        assert pg.locator(f"table.steps-list tr#event-{k} td").nth(1).inner_text() == str(k)
    check(pg, f"retell45-audit-{lang}")
    assert not pg.errors
    pg.context.close()
