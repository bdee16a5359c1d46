"""End to end: a dropped network in headless Chromium (Playwright takes the
browser context offline). Taps on the hand page made offline are kept on the
device and shown as waiting; back online they are sent in order and logged
once (``referee export`` and ``referee verify`` on the server's database);
a tap the referee refuses, or one another tablet overtook, stops the queue
there with the referee's words; the queue survives a closed browser (a
persistent profile); a table's pages open offline from the service worker's
copy, saying so and since when. At 1024x768 and 390x844; screenshots in
``$TABLET_SHOTS`` (default /tmp/shots), prefixed ``offline-``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading

import pytest

from .test_browser_tablet import ARGS, CHROMIUM, SHOTS, create_table, deal, tap_card

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
PLAYERS = ["Ann", "Ben", "Cy"]
CARDS = {"Ann": ["2c", "3d", "As", "Ah", "9s"], "Ben": ["Ks", "Kh", "Kd", "Qs", "4c"],
         "Cy": ["Jh", "Js", "9c", "9d", "5d"]}
UPCARD = "7d"
# Ten actions over four turns, Ben's first and last among them: draws and a
# take, a spread and a hit, the discards that pass the turn on.
TEN = [(1, "draw", ["8c"], None), (1, "spread", ["Ks", "Kh", "Kd"], None),
       (1, "discard", ["8c"], None), (2, "take", [], None), (2, "discard", ["Jh"], None),
       (0, "draw", ["8h"], None), (0, "discard", ["8h"], None), (1, "draw", ["Kc"], None),
       (1, "hit", ["Kc"], "S1"), (1, "discard", ["4c"], None)]
LINES = ["Ben: draw 8c", "Ben: spread Kd Kh Ks", "Ben: discard 8c", "Cy: take",
         "Cy: discard Jh", "Ann: draw 8h", "Ann: discard 8h", "Ben: draw Kc",
         "Ben: hit S1 Kc", "Ben: discard 4c"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"{CHROMIUM} is missing (apt-get install chromium; test.sh does)"),
]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    """The app on a port of its own, with the database's address for the CLI."""
    from werkzeug.serving import make_server

    from referee.web import create_app

    from .conftest import new_pg_schema

    db = str(tmp_path_factory.mktemp("offline") / "referee.sqlite3")
    if os.environ.get("REFEREE_TEST_BACKEND") == "postgresql":
        db = new_pg_schema(request.getfixturevalue("pg_server"))
    app = create_app({"DATABASE": db, "SECRET_KEY": "offline-tests"})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield {"base": f"http://127.0.0.1:{srv.server_port}", "db": db}
    srv.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def watched(pg, errors: list[str]):
    pg.set_default_timeout(10_000)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())
    return pg


@pytest.fixture()
def context(browser):
    ctx = browser.new_context(viewport=TABLET)
    errors: list[str] = []
    ctx.on("page", lambda pg: watched(pg, errors))
    yield ctx
    ctx.close()
    assert not errors, errors


def referee(server, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", *args, "--db", server["db"]],
                          capture_output=True, text=True, timeout=120)


def logged(server, sid: str) -> list[str]:
    """The hand's actions as the server's database holds them."""
    out = referee(server, "export", sid)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["hands"][0]["actions"]


def shot(pg, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, tag in ((TABLET, "tablet"), (PHONE, "phone")):
        pg.set_viewport_size(size)
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name}: {width}px wide at {size['width']}"
        pg.screenshot(path=str(SHOTS / f"offline-{name}-{tag}.png"), full_page=True)
    pg.set_viewport_size(TABLET)


def open_hand(pg, server) -> str:
    sid = create_table(pg, server["base"], PLAYERS, table="Kitchen")
    deal(pg, PLAYERS, CARDS, UPCARD)
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    return sid


def keep_tap(pg, seat: int, verb: str, cards=(), spread=None) -> None:
    """A tap made offline: kept at once, the page stays."""
    before = pg.locator("#offline-queue > ol > li").count()
    for card in cards:
        tap_card(pg, "#act", "card", card)
    if spread:
        pg.locator(f"label.spread:has(input[value='{spread}'])").click()
    pg.locator(f"button[name=act][value='{seat}:{verb}']").click()
    expect(pg.locator("#offline-queue > ol > li")).to_have_count(before + 1)


def drained(pg) -> None:
    """The queue sent and the page reloaded with the referee's state."""
    expect(pg.locator("#offline-queue")).to_be_hidden(timeout=20_000)
    pg.wait_for_load_state("load")


def test_ten_taps_offline_over_four_turns_are_logged_once_in_order(server, context):
    pg = context.new_page()
    sid = open_hand(pg, server)
    context.set_offline(True)
    for k, (seat, verb, cards, spread) in enumerate(TEN):
        keep_tap(pg, seat, verb, cards, spread)
        if k == 2:
            # The turn passed to Cy as far as the page can tell; the note says since when.
            assert pg.locator("#to-act").inner_text().strip() == "Cy"
            assert pg.locator("#offline-note").is_visible()
            assert "Offline since" in pg.locator("#offline-note").inner_text()
            shot(pg, "01-kept")
    items = pg.locator("#offline-queue > ol > li")
    assert items.count() == 10
    assert "waiting to send" in items.nth(9).inner_text()
    assert pg.locator("#history li.pending").count() == 10
    assert pg.locator("#to-act").inner_text().strip() == "Cy"
    shot(pg, "02-ten-waiting")
    assert logged(server, sid) == []
    context.set_offline(False)
    drained(pg)
    assert logged(server, sid) == LINES
    assert pg.locator("#seq").inner_text().strip() == "10"
    assert not pg.locator("#offline-note").is_visible()
    shot(pg, "03-sent")
    out = referee(server, "verify")
    assert out.returncode == 0, out.stdout + out.stderr
