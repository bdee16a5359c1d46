"""What the newcomer's night met on a phone (390x844), a tablet held upright
(768x1024) and one held sideways (1024x768), in every language, in headless
Chromium: the "to act" tile broke German's "vorzeigen" mid-word (F5), the
reports page's hand table hid its own audit buttons past the screen's edge
(F24), and the season page's tables needed a sideways swipe while its chart
wrote its dates "11-21" in every language (F28).

Screenshots go to ``$TABLET_SHOTS`` (default /tmp/shots) as ``narrow-*``.
"""

from __future__ import annotations

import pytest

from referee import language
from tests import test_browser_tablet as tb
from tests.test_browser_tablet import SHOTS

from .helpers import device, post_json, serve_for_browser

pytestmark = tb.pytestmark
browser = tb.browser
HOST_KEY = "narrow-host-key"
SIZES = [(390, 844), (768, 1024), (1024, 768)]
LANGS = ["en", "de", "fr", "pt"]
PLAYERS = ["Anna", "Ben", "Cleo", "Dóra Núñez"]
COUNTS = {"Anna": 10, "Ben": 8, "Cleo": 30, "Dóra Núñez": 12}
TOLD = [{"dealer": "Anna", "ending": {"how": "drop", "by": "Ben", "counts": COUNTS}},
        {"dealer": "Ben", "ending": {"how": "drop", "by": "Anna", "counts": COUNTS}},
        {"dealer": "Cleo", "ending": {"how": "out", "by": "Cleo"}},
        {"dealer": "Dóra Núñez", "ending": {"how": "stock_out", "counts": COUNTS}}]
DAYS = ["2026-11-07", "2026-11-14", "2026-11-21", "2026-11-28"]


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    yield from serve_for_browser(request, tmp_path_factory, REFEREE_HOST_KEY=HOST_KEY)


@pytest.fixture(scope="module")
def night(server) -> dict:
    """A season of four German tables of four told hands each; on the last, a
    fifth hand in play where Ben has dropped and everyone is still to show."""
    for day in DAYS:
        made = post_json(server, "/api/sessions", {
            "format": "tonk-log/1", "stake": "1", "currency": "EUR", "rules": "pagat",
            "language": "de", "players": PLAYERS, "started": f"{day}T19:00:00Z",
            "hands": TOLD, "copy": True}, {"X-Host-Key": HOST_KEY})
    auth = {"Authorization": f"Bearer {made['table_token']}"}
    sid = made["id"]
    n = post_json(server, f"/api/sessions/{sid}/hands", {"dealer": "Anna"}, auth)["hand"]
    post_json(server, f"/api/sessions/{sid}/hands/{n}/actions",
          {"action": "Ben: drop", "client_id": "narrow-drop", "expected_seq": 0}, auth)
    return {"sid": sid, "token": made["table_token"], "hand": n}


# Each word of an element's text and how many lines it was laid out on (a
# word cut by the line's end is on two).
WORD_LINES = """(sel) => { const out = [];
  const walk = document.createTreeWalker(document.querySelector(sel), NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    for (const m of t.textContent.matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
      out.push([m[0], tops.size]); } }
  return out; }"""


def test_the_to_act_tile_breaks_no_word(server, browser, night):
    """F5: on a phone, "2 müssen vorzeigen" was laid out as "vorzeige" / "n"
    ("overflow-wrap: anywhere" in a third of the screen). No word of the
    tile is cut, at any size, in any language; German says "4 zeigen noch"."""
    pg = device(browser, {"width": 390, "height": 844})
    pg.goto(f"{server}/s/{night['sid']}")  # the host's tablet: opened by the table's token
    pg.fill("input[name=pin]", night["token"])
    with pg.expect_navigation():
        pg.locator("main form button[type=submit]").click()
    SHOTS.mkdir(parents=True, exist_ok=True)
    hand = f"{server}/s/{night['sid']}/hands/{night['hand']}"
    for lang in LANGS:
        for w, h in SIZES:
            pg.set_viewport_size({"width": w, "height": h})
            pg.goto(f"{hand}?lang={lang}")
            said = pg.inner_text("#to-act")
            assert said.startswith("4 "), said
            cut = [word for word, lines in pg.evaluate(WORD_LINES, "#to-act") if lines > 1]
            assert cut == [], (lang, w, said)
            if w == 390:
                pg.locator("dl.status").screenshot(path=str(SHOTS / f"narrow-to-act-{lang}.png"))
    pg.goto(f"{hand}?lang=de")
    assert pg.inner_text("#to-act") == "4 zeigen noch"
    assert not pg.errors, pg.errors
    pg.context.close()


# Each scrolling region's width and the width it may take.
REGIONS = "[...document.querySelectorAll('main .scroll')].map(e => [e.scrollWidth, e.clientWidth])"


def test_the_reports_hand_table_shows_its_buttons_on_a_phone(server, browser, night):
    """F24: at 390 px the hand table scrolled inside its box, its audit column
    cut at "Pr…" and its buttons half past the screen's edge. Every hand's
    two audit buttons are shown whole inside the screen, and the table needs
    no swipe, at every size."""
    pg = device(browser, {"width": 390, "height": 844})
    for lang in LANGS:
        for w, h in SIZES:
            pg.set_viewport_size({"width": w, "height": h})
            pg.goto(f"{server}/reports/{night['sid']}/?token={night['token']}&lang={lang}")
            assert all(wide <= room for wide, room in pg.evaluate(REGIONS)), (lang, w)
            assert pg.evaluate("document.documentElement.scrollWidth") <= w
            buttons = pg.locator("table.reports a.button:visible")
            assert buttons.count() == 2 * len(TOLD), (lang, w, buttons.count())
            for k in range(buttons.count()):
                box = buttons.nth(k).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= w, (lang, w, k, box)
            pg.screenshot(path=str(SHOTS / f"narrow-reports-{lang}-{w}.png"), full_page=True)
    assert not pg.errors, pg.errors
    pg.context.close()


def test_the_season_fits_and_its_chart_says_dates_in_the_readers_form(server, browser, night):
    """F28: at 390 px both season tables scrolled sideways (German's nine
    ending names also at 768 and 1024), and the chart wrote "11-21" in every
    language. Up to a tablet's width each player is a block of labelled
    numbers; the chart's dates are the reader's day and month ("21.11.")."""
    pg = device(browser, {"width": 1024, "height": 768})
    pg.goto(f"{server}/club/unlock")
    pg.fill("input[name=host_key]", HOST_KEY)
    with pg.expect_navigation():
        pg.locator("main form button[type=submit]").click()
    for lang in LANGS:
        for w, h in SIZES:
            pg.set_viewport_size({"width": w, "height": h})
            pg.goto(f"{server}/club/season?currency=EUR&lang={lang}")
            regions = pg.evaluate(REGIONS)
            assert len(regions) == 2 and all(wide <= room for wide, room in regions), \
                (lang, w, regions)
            assert pg.evaluate("document.documentElement.scrollWidth") <= w
            labels = pg.evaluate("[...document.querySelectorAll('figure.chart text.day')]"
                                 ".map(e => e.textContent)")
            assert labels and set(labels) <= {language.short_day(d, lang) for d in DAYS}, \
                (lang, labels)
            pg.screenshot(path=str(SHOTS / f"narrow-season-{lang}-{w}.png"), full_page=True)
    assert language.short_day(DAYS[2], "de") == "21.11."
    assert language.short_day(DAYS[2], "en") == "11/21"
    assert not pg.errors, pg.errors
    pg.context.close()
