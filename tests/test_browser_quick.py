"""A quick night in headless Chromium: hands told by their ending on the
number pad (a tonk out, a drop, a stock out, a deal win, a Chicago tonk out
with its facts) and a played hand whose shows are counts, at a tablet's and
a phone's size, in English and German; every quick page without sideways
scroll, with targets a finger can hit and no serious axe violation, and the
money as the referee settles the same log."""

from __future__ import annotations

import re

import pytest

from referee.replay import replay
from referee.service import storage
from referee.service.table import sessions

from . import test_browser_tablet as tablet_tests
from .helpers import device, serve_for_browser
from .test_browser_night import check
from .test_browser_tablet import create_table

FOUR = ["Ann", "Ben", "Cy", "Dee"]
# The tablet tests' Chromium, marks and browser fixture.
pytestmark = tablet_tests.pytestmark
browser = tablet_tests.browser


@pytest.fixture(scope="module")
def quick_db(tmp_path_factory):
    return tmp_path_factory.mktemp("quick") / "referee.sqlite3"


@pytest.fixture(scope="module")
def server(request, tmp_path_factory, quick_db):
    yield from serve_for_browser(request, tmp_path_factory, DATABASE=str(quick_db))


def _go(pg, selector: str) -> None:
    with pg.expect_navigation():
        pg.locator(selector).first.click()


def _pad(pg, counts: list[int]) -> None:
    for count in counts:
        for digit in str(count):
            pg.locator(f"[data-pad] button[data-digit='{digit}']").click()
        if len(str(count)) < 2 and count:  # shorter than 50: it waits for Next
            pg.locator("[data-pad] button[data-next]").click()


def _open(pg, base: str, preset: str | None = None) -> str:
    return create_table(pg, base, FOUR, table="Quick night", preset=preset, stake="0.50",
                        currency="EUR")


def _told(pg, pick: str, counts=(), *, name: str | None = None) -> None:
    _go(pg, "#quick-hand")
    if name:
        check(pg, f"quick-pick-{name}")
    _go(pg, f"button[name=pick][value='{pick}']")
    if counts:
        _pad(pg, list(counts))
        if name:
            check(pg, f"quick-counts-{name}")
        _go(pg, "#quick-preview")
    assert pg.locator("#preview-payments, #confirm").count()
    if name:
        check(pg, f"quick-preview-{name}")
    _go(pg, "#confirm-yes")
    assert pg.locator(".flash-ok").count(), pg.content()[:2000]


@pytest.mark.parametrize("size,lang", [((1024, 768), "en"), ((390, 844), "de")])
def test_a_quick_night(server, browser, quick_db, size, lang):
    pg = device(browser, {"width": size[0], "height": size[1]}, locale=lang, timeout=15_000)
    context, errors = pg.context, pg.errors
    sid = _open(pg, server)
    tag = f"{lang}-{size[0]}"
    _told(pg, "tonk_out:1", name=tag)                  # Ann deals, Ben tonks out
    _told(pg, "drop:3", (23, 31, 17, 7), name=tag)     # Ben deals, Dee drops and wins
    _told(pg, "stock_out:", (12, 9, 30, 9))            # Cy deals, Ben and Dee share
    # Dee deals, a played hand: Ann drops at once and the counts ride on the second tap.
    _go(pg, "#start-hand")
    _go(pg, "form.deal-form button[type=submit]")
    _go(pg, "button[name=act][value='0:drop']")
    check(pg, f"quick-drop-confirm-{tag}")
    _pad(pg, (6, 20, 33, 40))
    _go(pg, "#confirm-yes")
    assert pg.locator("#result").count()
    context.close()
    assert not errors, errors

    log = sessions.get_log(storage.connect(quick_db), sid)
    assert [h.get("ending", {}).get("how") for h in log["hands"]] == \
        ["tonk_out", "drop", "stock_out", None]
    assert log["hands"][3]["actions"] == ["Ann: drop", "Ann: show =6", "Ben: show =20",
                                          "Cy: show =33", "Dee: show =40"]
    result = replay(log).result()
    assert [h.told for h in result.hands] == [True, True, True, False]
    assert {p: str(v) for p, v in result.totals.items()} == \
        {"Ann": "-1.00", "Ben": "3.00", "Cy": "-3.00", "Dee": "1.00"}


@pytest.mark.parametrize("size", [(1024, 768), (390, 844)])
def test_facts_and_a_deal_win_on_the_tablet(server, browser, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    _open(pg, server, "chicago")
    _go(pg, "#quick-hand")
    _go(pg, "button[name=pick][value='tonk_out:2']")
    check(pg, f"quick-facts-{size[0]}")
    pg.locator("label.tile:has(input[name=fact_first_turn][value=yes])").click()
    pg.locator("label.tile:has(input[name=fact_hit_a_spread][value=no])").click()
    _go(pg, "#quick-preview")
    text = pg.locator("#confirm").inner_text()
    assert re.search(r"Ann pays Cy €1[.,]00", text), text  # 2 stakes at €0.50
    _go(pg, "#confirm-yes")
    _go(pg, "#quick-hand")
    _go(pg, "button[name=pick][value='deal_win:1']")
    for card in ("Ks", "Kh", "Kd", "Kc", "Qs"):
        pg.locator(f"label.tile:has(input[name=declare1][value='{card}'])").click()
    _go(pg, "#quick-preview")
    assert "deal win" in pg.locator("#confirm").inner_text()
    _go(pg, "#confirm-yes")
    context.close()
