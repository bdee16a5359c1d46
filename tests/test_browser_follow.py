"""Where the features meet (issue 35), in Chromium: real Chrome's
back/forward cache with the live stream, a seat's phone that follows the
table and offers only what is its own, disputes seen by the host and the TV,
the TV as a TV, and the pages by keyboard and screen reader."""

from __future__ import annotations

import threading
import time

import pytest

from tests import test_browser_tablet as tb
from tests.test_api import Game, bearer

from .helpers import device

pytestmark = tb.pytestmark
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
LIVE = 5000  # ms


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app on a threaded server, and a test client on the same database
    (the table's other devices, through the API)."""
    from werkzeug.serving import make_server

    from referee.web import create_app

    db = tmp_path_factory.mktemp("follow") / "referee.sqlite3"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "follow", "REFEREE_HOST_KEY": None})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}", app
    srv.shutdown()
    thread.join(5)


def link(g: Game, role: str, player: str | None = None) -> str:
    body = {"role": role, **({"player": player} if player else {})}
    r = g.client.post(g.url("/links"), json=body, headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    return r.get_json()["url"].split("localhost", 1)[1]


def table_seq(g: Game) -> int:
    return g.client.get(g.url(), headers=bearer(g.audit)).get_json()["seq"]


# ------------------------------------------------------------------ 1: the back/forward cache

@pytest.fixture(scope="module")
def chrome():
    """Chromium as people run it: Playwright turns the back/forward cache off
    by default, which hid that a cached page kept its live stream open."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=tb.CHROMIUM, args=tb.ARGS,
                              ignore_default_args=["--disable-back-forward-cache"])
        yield b
        b.close()


def test_no_page_load_waits_on_a_stream_kept_in_the_back_forward_cache(served, chrome):
    base, app = served
    g = Game(app.test_client())
    g.start()
    g.play(2)
    pg = device(chrome, PHONE, timeout=8000)
    pg.context.add_init_script(
        "window.addEventListener('pageshow', (e) => { window.restored = e.persisted; });")
    pg.goto(base + link(g, "viewer"))
    pages = [f"/s/{g.sid}", f"/s/{g.sid}/standings", f"/s/{g.sid}/tv",
             f"/s/{g.sid}/hands/1"]
    took = []
    # Each page left for the next is kept in the cache: more than the six
    # connections a host Chrome allows.
    for i in range(10):
        t0 = time.monotonic()
        pg.goto(base + pages[i % len(pages)])
        pg.wait_for_selector("body[data-seq]")
        took.append(time.monotonic() - t0)
    assert max(took) < 3, [round(t, 2) for t in took]
    # Back and forth through the cache, the table moving on while a page is away.
    for _ in range(4):
        g.play(1)
        seq = table_seq(g)
        t0 = time.monotonic()
        pg.go_back(wait_until="commit")
        expect(pg.locator("body")).to_have_attribute("data-seq", str(seq), timeout=LIVE)
        took.append(time.monotonic() - t0)
        assert pg.evaluate("window.restored") is True, "not restored from the cache"
    pg.go_forward(wait_until="commit")
    g.play(1)
    expect(pg.locator("body")).to_have_attribute("data-seq", str(table_seq(g)), timeout=LIVE)
    for i in range(4):
        t0 = time.monotonic()
        pg.goto(base + pages[i])
        took.append(time.monotonic() - t0)
    assert max(took) < 3, [round(t, 2) for t in took]
    assert pg.errors == []
