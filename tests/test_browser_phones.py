"""The whole table on its phones, in headless Chromium: the host's tablet
makes a seat link for Ann and Ben and the viewer link (QR codes on the table
page); Ann's and Ben's phones join by them, a viewer phone and a TV by the
viewer link. Ben logs his own turn from his phone, Ann's phone is refused
Ben's; every other device follows live; Ann and Ben accept on their phones;
the host revokes Ben's link and his phone is locked out; a deleted tail is
caught by the phone that saw it. Every page at the tablet and phone sizes,
axe clean (``test_browser_night.check``)."""

from __future__ import annotations

import re
import sqlite3
import statistics
import time

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_night import SHOTS, _axe, check
from tests.test_browser_tablet import create_table, deal, submit, tap, text
from tests.test_tablet import CAUGHT_DEAL  # the caught drop's deal

from .helpers import FOLLOW, device

pytestmark = tb.pytestmark
browser = tb.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
#: How far behind the device a change was made on the others show it, at the
#: median of every change the night's devices follow (ms): they refresh while
#: that device renders its own answer. Measured 0.04-0.07 s at the median here
#: at loads 4 to 10 (0.4 s at most); a device that only heard of a change by
#: asking every 3 s (live.js's poll), or at the stream's look every 5 s, would
#: lag by seconds. (The issue's 250 ms from the tap to the other screens is
#: bench/live.py's to measure on a quiet host; each wait here allows FOLLOW,
#: as one render on a loaded host can take seconds.)
SOON = 1000
#: What a page asks every few seconds once its live stream failed (live.js's
#: poll): the night's devices follow by the stream, never by this.
POLL = re.compile(r"/consistency\?seq=0&head=0{64}$")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app on a threaded server, with its database file (the test deletes
    a tail from it, as an attacker with the file would)."""
    import threading

    from werkzeug.serving import make_server

    from referee.web import create_app

    db = tmp_path_factory.mktemp("phones") / "referee.sqlite3"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "phones", "REFEREE_HOST_KEY": None})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}", db
    srv.shutdown()
    thread.join(5)


def check_tv(tv, name: str) -> None:
    """The TV page at the tablet and phone sizes (``check``), then at 1920x1080:
    the standings, the hand in play and the last result all on the screen
    without a scroll, letters of 24 px at least (read across a room), axe
    clean; a screenshot. The page stays at 1920x1080."""
    check(tv, name)
    tv.set_viewport_size(TV)
    wide, high = tv.evaluate("[document.documentElement.scrollWidth, "
                             "document.documentElement.scrollHeight]")
    assert wide <= TV["width"] and high <= TV["height"], \
        f"{name} scrolls at 1920x1080: {wide}x{high}"
    for panel in ("#tv-standings", "#tv-hand", "#tv-result"):
        box = tv.locator(panel).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= TV["height"], (panel, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= TV["width"], (panel, box)
    size = tv.evaluate("parseFloat(getComputedStyle(document.getElementById('tv')).fontSize)")
    assert size >= 24, f"{name}: letters of {size} px on the TV"
    found = _axe.run(tv).response["violations"]
    assert not [v["id"] for v in found if v["impact"] in ("serious", "critical")]
    SHOTS.mkdir(parents=True, exist_ok=True)
    tv.screenshot(path=str(SHOTS / f"night-{name}-tv.png"))


def make_link(host, who: str) -> str:
    row = f"#invite-{who}"
    submit(host, f"{row} button:not([name=revoke])")
    return host.locator(f"{row} .link a").get_attribute("href")


class Followed:
    """How long each change made at the table took to be shown on each
    device that follows it, and whether any device fell back to asking."""

    def __init__(self) -> None:
        self.took: list[float] = []
        self.polled: list[str] = []

    def watch(self, pg) -> None:
        pg.context.on("request", lambda r: POLL.search(r.url) and self.polled.append(r.url))

    def made(self) -> None:
        """A change was made now (the tap's own device shows its answer)."""
        self.since = time.monotonic()

    def shown(self, locator, check: str, *args) -> None:
        """``expect(locator).<check>(*args)`` met (within FOLLOW), and how
        long after the change it was."""
        getattr(expect(locator), check)(*args, timeout=FOLLOW)
        self.took.append(time.monotonic() - self.since)

    def url(self, pg, url) -> None:
        """``pg`` followed the table to ``url`` (within FOLLOW)."""
        pg.wait_for_url(url, timeout=FOLLOW)
        self.took.append(time.monotonic() - self.since)


def test_a_night_on_phones(served, browser):
    base, db = served
    players = ["Ann", "Ben", "Cy"]
    live = Followed()
    host = device(browser, TABLET)
    sid = create_table(host, base, players)
    links = {who: make_link(host, who) for who in ("viewer", "Ann", "Ben")}
    assert all(f"/s/{sid}/join/" in url for url in links.values())
    assert host.locator("#invite svg").count() == 3
    check(host, "phones-invite")

    ann, ben, viewer = (device(browser, PHONE) for _ in range(3))
    tv = device(browser, TV)
    for pg in (host, ann, ben, viewer, tv):
        live.watch(pg)
    for pg, url in ((ann, links["Ann"]), (ben, links["Ben"]), (viewer, links["viewer"]),
                    (tv, links["viewer"])):
        pg.goto(url)
        pg.wait_for_url(re.compile(rf".*/s/{sid}$"))
    assert text(ann, "#role") == "Ann's phone" and text(viewer, "#role") == "Viewer"
    assert ann.locator("#manage, #start-hand, #invite").count() == 0
    check(viewer, "phones-viewer-table")
    tv.goto(f"{base}/s/{sid}/tv")

    # The host deals; the phones and the TV see the hand start without a tap.
    deal(host, players, CAUGHT_DEAL, "7d")
    host.get_by_role("button", name="Deal: start the hand").click()
    host.wait_for_url(re.compile(r".*/hands/1$"))
    live.made()
    hand_url = host.url
    live.shown(tv.locator("#tv-to-act"), "to_have_text", "Ben to act")
    # A seat's phone follows the table to the hand in play by itself (issue 35).
    live.url(ann, hand_url)
    check_tv(tv, "phones-tv")
    ann.goto(hand_url)
    ben.goto(hand_url)
    # Ann's phone waits for Ben and offers no button of his.
    assert "Ben" in text(ann, "#nobody")
    assert ann.locator("button[name=act]").count() == 0
    check(ann, "phones-seat-waiting")
    # A post of Ben's turn from Ann's phone is refused, and changes nothing.
    ann.evaluate("""() => { const b = document.createElement('button');
        b.name = 'act'; b.value = '1:draw'; b.id = 'forged';
        document.getElementById('act').append(b); }""")
    submit(ann, "#forged")
    assert "Ann's phone" in text(ann, ".flash-error") and "Ben" in text(ann, ".flash-error")
    assert text(ann, "#seq") == "0"
    # Ben logs his own turn on his phone; the host, Ann, the viewer and the TV follow.
    assert ben.locator("button[name=act]").count() >= 1
    tap(ben, 1, "draw", ["8c"])
    live.made()
    assert text(ben, ".flash-ok") == "✓ Ben draws 8♣."
    live.shown(host.locator("#seq"), "to_have_text", "1")
    live.shown(ann.locator("#seq"), "to_have_text", "1")
    live.shown(tv.locator("#tv-stock"), "to_have_text", "35")
    # Cards picked on the host's tablet stay picked while another device logs.
    host.locator("#act label.tile:has(input[name='card'][value='Ks'])").click()
    tap(ben, 1, "spread", ["Ks", "Kh", "Kd"])
    live.made()
    live.shown(host.locator("#seq"), "to_have_text", "2")
    assert host.locator("#act input[name=card][value='Ks']").is_checked() or \
        host.locator("#act input[name=card][value='Ks']").is_disabled()
    host.locator("#act input[name=card][value='Ks']").set_checked(False, force=True) \
        if host.locator("#act input[name=card][value='Ks']").is_enabled() else None
    tap(ben, 1, "discard", ["Qs"])
    live.made()
    live.shown(host.locator("#seq"), "to_have_text", "3")
    tap(host, 2, "take")
    tap(host, 2, "discard", ["Jh"])
    live.made()
    live.shown(ann.locator("button[value='0:drop']"), "to_be_visible")
    submit(ann, "button[value='0:drop']")
    submit(ann, "#confirm-yes")
    live.made()
    live.shown(host.locator("#show-all"), "to_be_visible")
    submit(host, "#show-all")
    submit(host, "#confirm-yes")
    live.made()

    # The result on every phone: each seat accepts (or disputes) its own.
    live.shown(ann.locator("#result"), "to_be_visible")
    live.shown(ben.locator("#result"), "to_be_visible")
    assert ann.locator("#accepts button").all_inner_texts() == ["Ann accepts"]
    check(ann, "phones-seat-result")
    submit(ann, "#accepts button")
    submit(ben, "#accepts button")
    live.made()
    live.shown(host.locator("#accepts"), "to_contain_text", "✓ Ben")
    live.shown(tv.locator("#tv-result"), "to_contain_text", "Ann pays Ben")
    check_tv(tv, "phones-tv-result")
    host.goto(f"{base}/s/{sid}")
    assert "accepted: Ann, Ben" in text(host, "#hands")
    check(host, "phones-table-accepted")

    # The host revokes Ben's link (asked first): his phone is locked out at once.
    submit(host, "#invite-Ben button[name=revoke]")
    assert "Revoke the link for Ben?" in text(host, "h1")
    check(host, "phones-revoke-confirm")
    submit(host, "#confirm-yes")
    live.made()
    assert host.locator("#invite-Ben svg").count() == 0
    # (his phone, on the hand's page, is led to the unlock page by itself)
    live.url(ben, re.compile(r".*/unlock\?.*revoked=1"))
    assert "revoked" in text(ben, ".flash-error")
    ben.goto(f"{base}/s/{sid}")
    assert "/unlock" in ben.url
    ben.goto(links["Ben"])
    assert "not in force" in text(ben, "main")

    # A deleted tail: the viewer phone saw the newest event; it is taken out
    # of the file (and the service restarted would not know); the phone says so.
    viewer.goto(f"{base}/s/{sid}/standings")
    viewer.wait_for_function("() => localStorage.length > 0")
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER IF EXISTS events_no_delete")
    newest = con.execute("SELECT max(seq) FROM events WHERE session_id = ?", (sid,)).fetchone()
    con.execute("DELETE FROM events WHERE session_id = ? AND seq = ?", (sid, newest[0]))
    con.commit()
    con.close()
    viewer.goto(f"{base}/s/{sid}")
    expect(viewer.locator("#witness-warning")).to_be_visible(timeout=FOLLOW)
    assert "no longer in the chain" in text(viewer, "#witness-warning")
    check(viewer, "phones-witness-warning")
    viewer.goto(f"{base}/s/{sid}/tv")
    expect(viewer.locator("#witness-warning")).to_be_visible(timeout=FOLLOW)

    for pg in (host, ann, ben, viewer, tv):
        assert pg.errors == []
    # Every change above reached the devices by their live streams, and soon.
    assert live.polled == []
    assert statistics.median(live.took) < SOON / 1000, sorted(round(t, 2) for t in live.took)


def test_a_phone_without_its_stream_is_locked_out_too(served, browser):
    """A phone whose stream is gone (no EventSource, or refused when a server
    is full) follows the table by asking every 3 s; its link revoked, it is
    led to the unlock page as a phone on the stream is (flake44 found it
    stayed on the table's page)."""
    base, _ = served
    host = device(browser, TABLET)
    sid = create_table(host, base, ["Ann", "Ben"])
    link = make_link(host, "Ben")
    ben = device(browser, PHONE)
    ben.add_init_script("delete window.EventSource")
    asked: list[str] = []
    ben.context.on("request", lambda r: POLL.search(r.url) and asked.append(r.url))
    ben.goto(link)
    ben.wait_for_url(re.compile(rf".*/s/{sid}$"))
    submit(host, "#invite-Ben button[name=revoke]")
    submit(host, "#confirm-yes")
    ben.wait_for_url(re.compile(r".*/unlock\?.*revoked=1"), timeout=FOLLOW)
    assert "revoked" in text(ben, ".flash-error")
    assert asked, "the phone followed by asking"
    assert not ben.errors
