"""The standings' column headings keep a name whole on a phone (newcomer 43,
N8): at 390 px four players' headings read "Jürge / n", "Öme / r", "Ann / a",
each name cut wherever its column ended. A name wraps between its words
only; a word wider than its column ends in an ellipsis, the whole name in the
heading's title; the table still fits the screen. Headless Chromium at
390x844 and 1024x768; screenshots in ``$TABLET_SHOTS`` as ``names-*``."""

from __future__ import annotations

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_narrow import WORD_LINES
from tests.test_browser_tablet import SHOTS

from .helpers import device, post_json, serve_for_browser

pytestmark = tb.pytestmark
browser = tb.browser
HOST_KEY = "names-host-key"
SIZES = [(390, 844), (1024, 768)]
# The newcomer's table, and one of long names (one word wider than any column).
TABLES = {
    "night": ["Jürgen", "Zoë", "Ömer", "Anna"],
    "long": ["Wolfeschlegelsteinhausen", "Bartholomäus", "Anna-Katharina Müller", "Maximiliane"],
}


def _told(players: list[str]) -> list[dict]:
    a, b, c, d = players
    counts = {a: 10, b: 8, c: 30, d: 12}
    return [{"dealer": a, "ending": {"how": "drop", "by": b, "counts": counts}},
            {"dealer": b, "ending": {"how": "out", "by": c}},
            {"dealer": c, "ending": {"how": "stock_out", "counts": counts}}]


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    yield from serve_for_browser(request, tmp_path_factory, REFEREE_HOST_KEY=HOST_KEY)


def _open(server, players: list[str]) -> dict:
    return post_json(server, "/api/sessions", {
        "format": "tonk-log/1", "stake": "1", "currency": "EUR", "rules": "pagat",
        "language": "de", "players": players, "started": "2026-11-28T19:00:00Z",
        "hands": _told(players), "copy": True}, {"X-Host-Key": HOST_KEY})


# Each column heading: its text, its title, and whether it is wider inside
# than it shows (a word cut by the ellipsis).
HEADINGS = """() => [...document.querySelectorAll('table.standings thead th.num')].map((th) => {
  const inner = th.querySelector('.name') || th;
  return [th.textContent.trim(), th.title, inner.scrollWidth > inner.clientWidth];
})"""


@pytest.mark.parametrize("table", sorted(TABLES))
def test_a_players_name_is_never_cut_inside_a_word(server, browser, table):
    players = TABLES[table]
    made = _open(server, players)
    pg = device(browser, {"width": 390, "height": 844})
    pg.goto(f"{server}/s/{made['id']}/unlock")
    pg.fill("input[name=pin]", made["table_token"])
    with pg.expect_navigation():
        pg.locator("main form button[type=submit]").click()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        pg.set_viewport_size({"width": w, "height": h})
        pg.goto(f"{server}/s/{made['id']}/standings")
        pg.screenshot(path=str(SHOTS / f"names-standings-{table}-{w}.png"), full_page=True)
        assert pg.evaluate("document.documentElement.scrollWidth") <= w, (table, w)
        region = pg.evaluate("[document.querySelector('main .scroll').scrollWidth,"
                             " document.querySelector('main .scroll').clientWidth]")
        assert region[0] <= region[1], (table, w, region)
        headings = pg.evaluate(HEADINGS)
        assert [text for text, _title, _cut in headings] == players
        # Every name in its heading's title: a cut one is read whole there.
        assert [title for _text, title, _cut in headings] == players
        if w == 390 and table == "long":
            # Four long names head no phone's columns: each hand is a block,
            # every amount under its player's name (the compact standings).
            assert not pg.locator("table.standings thead").is_visible() or \
                pg.locator("table.standings thead").bounding_box()["width"] <= 1
            assert pg.locator("table.standings.many").count() == 1
            continue
        assert pg.locator("table.standings thead").bounding_box()["width"] > 100, (table, w)
        for k in range(len(players)):
            # A hyphen is a place between words ("Anna-" / "Katharina").
            cut = [word for word, lines in
                   pg.evaluate(WORD_LINES, f"table.standings thead th.num:nth-child({k + 3})")
                   if lines > 1 + word.count("-")]
            assert cut == [], (table, w, players[k])
        if table == "night":  # the newcomer's names are shown whole: no ellipsis
            assert not any(c for _text, _title, c in headings), (w, headings)
    assert not pg.errors, pg.errors
    pg.context.close()
