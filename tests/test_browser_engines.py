"""The night's essential path in the other engines Debian has (issue 35):
Firefox ESR over its own Marionette protocol (Debian has no geckodriver)
and WebKitGTK through ``WebKitWebDriver`` with Selenium, under Xvfb. A
German table: the host unlocks it, a told hand is told again after a typo,
a played hand's pages, the money on the standings is the referee's; then
the same browser joins as Ann's phone, follows the table to a new hand
by itself and accepts it; back and forward load. Each
skips, saying why, where its engine or driver is not installed (test.sh
installs them when run as root)."""

from __future__ import annotations

import os
import re
import shutil
import time

import pytest

from tests import test_browser_tablet as tb
from tests.helpers import FOLLOW
from tests.test_browser_follow import Night, served  # noqa: F401
from tests.test_words_left import english_left

pytestmark = [pytest.mark.browser]

FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
SIZES = ((1024, 768), (768, 1024), (390, 844))
OWN = {"Ann", "Ben", "Cy", "Freitag", "EUR"}
WAIT = FOLLOW / 1000  # s: a page that follows the table, in engines started on a busy machine


class Engine:
    """What the test asks of a browser, over either protocol."""

    name = ""

    def wait(self, what, timeout: float = WAIT):
        end = time.monotonic() + timeout
        while True:
            try:
                got = what()
            except Exception:  # an element not there yet, a page being swapped
                got = None
            if got:
                return got
            if time.monotonic() > end:
                raise AssertionError(f"{self.name}: gave up waiting at {self.url()}: "
                                     f"{(self.text('main') or '')[:800]}")
            time.sleep(0.1)

    def text(self, css: str) -> str:
        return self.script(f"const e = document.querySelector({css!r}); "
                           "return e ? e.innerText : null;")

    def count(self, css: str) -> int:
        return self.script(f"return document.querySelectorAll({css!r}).length;")

    def loaded(self) -> bool:
        return self.script("return document.readyState") == "complete"


class Firefox(Engine):
    name = "firefox"

    def __init__(self):
        import tempfile

        from marionette_driver.marionette import Marionette

        # Firefox's own log to a temporary file, not the working directory.
        log = os.path.join(tempfile.gettempdir(), "referee-gecko.log")
        self.m = Marionette(host="127.0.0.1", port=0, bin=FIREFOX, headless=True,
                            startup_timeout=120, gecko_log=log)
        self.m.start_session()

    def goto(self, url):
        self.m.navigate(url)

    def url(self):
        return self.m.get_url()

    def script(self, js):
        return self.m.execute_script(js, sandbox=None)

    def click(self, css):
        from marionette_driver.by import By

        self.m.find_element(By.CSS_SELECTOR, css).click()

    def fill(self, css, value):
        from marionette_driver.by import By

        el = self.m.find_element(By.CSS_SELECTOR, css)
        el.clear()
        el.send_keys(value)

    def forget(self):
        self.m.delete_all_cookies()

    def back(self):
        self.m.go_back()

    def forward(self):
        self.m.go_forward()

    def size(self, w, h):
        self.m.set_window_rect(width=w, height=h)

    def shot(self, path):
        with open(path, "wb") as f:
            f.write(self.m.screenshot(format="binary", full=True))

    def quit(self):
        self.m.delete_session()
        self.m.cleanup()


class WebKit(Engine):
    name = "webkit"

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service

        self.d = webdriver.WebKitGTK(service=Service(executable_path=WEBKIT_DRIVER))

    def goto(self, url):
        self.d.get(url)

    def url(self):
        return self.d.current_url

    def script(self, js):
        return self.d.execute_script(js)

    def click(self, css):
        from selenium.webdriver.common.by import By

        self.d.find_element(By.CSS_SELECTOR, css).click()

    def fill(self, css, value):
        from selenium.webdriver.common.by import By

        el = self.d.find_element(By.CSS_SELECTOR, css)
        el.clear()
        el.send_keys(value)

    def forget(self):
        self.d.delete_all_cookies()

    def back(self):
        self.d.back()

    def forward(self):
        self.d.forward()

    def size(self, w, h):
        self.d.set_window_size(w, h)

    def shot(self, path):
        self.d.save_screenshot(path)

    def quit(self):
        self.d.quit()


def _firefox():
    if not os.path.exists(FIREFOX):
        pytest.skip(f"{FIREFOX} is missing (apt-get install firefox-esr; test.sh does)")
    pytest.importorskip("marionette_driver", reason="pip install marionette-driver "
                        "(Firefox's own protocol: Debian has no geckodriver)")
    return Firefox()


def _webkit():
    if not os.path.exists(WEBKIT_DRIVER):
        pytest.skip(f"{WEBKIT_DRIVER} is missing (apt-get install webkit2gtk-driver; "
                    "test.sh does)")
    pytest.importorskip("selenium", reason="pip install selenium (WebKitWebDriver's client)")
    if not os.environ.get("DISPLAY"):
        if not shutil.which("Xvfb"):
            pytest.skip("WebKitGTK needs a display: apt-get install xvfb (test.sh does)")
        pytest.skip("WebKitGTK needs a display: run under xvfb-run (test.sh does)")
    return WebKit()


def _see(b: Engine, what: str) -> str:
    """The page as a player reads it: German throughout, a way on."""
    b.wait(b.loaded)
    said = b.text("main") or ""
    assert "Traceback" not in said, (b.name, what)
    assert english_left(said, OWN) == [], (b.name, what, english_left(said, OWN))
    assert b.count("main a[href], main button, header a[href]") > 0, (b.name, what)
    return said


def _shots(b: Engine, name: str) -> None:
    tb.SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        b.size(w, h)
        b.shot(str(tb.SHOTS / f"engine-{b.name}-{name}-{w}x{h}.png"))
    b.size(*SIZES[0])


@pytest.mark.parametrize("make", [_firefox, _webkit], ids=["firefox", "webkit"])
def test_the_essential_night_in_another_engine(served, make):  # noqa: F811
    base, app = served
    night = Night(app, "de")
    b = make()
    try:
        b.size(*SIZES[0])
        # The host unlocks the table with its token.
        b.goto(f"{base}/s/{night.sid}")
        b.fill("input[name=pin]", night.token)
        b.click("form button[type=submit]")
        b.wait(lambda: re.search(rf"/s/{night.sid}$", b.url()))
        _see(b, "table")
        # A told hand with a typo (Ann's 20 typed as 8: caught), told again.
        n = night.told({"how": "drop", "by": "Ben", "counts": {"Ann": 8, "Ben": 9, "Cy": 30}})
        b.goto(f"{base}/s/{night.sid}/hands/{n}")
        assert "hereingelegt" in _see(b, "told hand").lower()
        b.click("#tell-again")
        b.wait(lambda: b.count("input[name=count0]"))
        _see(b, "tell again")
        b.fill("input[name=count0]", "20")
        b.click("#quick-preview")
        b.wait(lambda: b.count("#confirm-yes"))
        _see(b, "tell again: who pays whom")
        b.click("#confirm-yes")
        b.wait(lambda: b.count("#result") and "Hinlegen gewonnen" in b.text("#result"))
        assert night.state(n)["result"]["outcome"] == "drop_won"
        _shots(b, "told-again")
        # A played hand: the drop tapped, its second tap confirmed, the shows
        # by count.
        n = night.start()
        to = night.state(n)["to_act"]
        seat = [p["name"] for p in night.state(n)["players"]].index(to)
        b.goto(f"{base}/s/{night.sid}/hands/{n}")
        _see(b, "hand in play")
        b.click(f"#actions button[value='{seat}:drop']")
        b.wait(lambda: b.count("#confirm-yes"))
        _see(b, "the drop's second tap")
        b.click("#confirm-yes")
        b.wait(lambda: night.state(n)["seq"] == 1)
        for p in night.state(n)["must_show"]:
            night.act(n, f"{p}: show ={9 if p == to else 25}")
        b.goto(f"{base}/s/{night.sid}/hands/{n}")
        b.wait(lambda: b.count("#result"))
        _see(b, "played hand settled")
        # The money on the standings is the referee's.
        totals = night.client.get(f"/api/sessions/{night.sid}/standings",
                                  headers=night.auth).get_json()["totals"]
        b.goto(f"{base}/s/{night.sid}/standings")
        said = _see(b, "standings")
        for amount in totals.values():
            assert amount.lstrip("-").replace(".", ",") in said, (b.name, amount)
        _shots(b, "standings")
        # Ann's phone: it follows the table to a new hand by itself and asks
        # her to accept it. (The host's unlock forgotten first: this browser
        # is her phone now.) Off the table's pages first: the new seat link is
        # an event of the table, which a table page left open would follow
        # live, without the unlock, to the unlock page, over the link's load.
        b.goto(f"{base}/")
        b.forget()
        b.goto(base + night.link("seat", "Ann"))
        b.wait(lambda: re.search(rf"/s/{night.sid}$", b.url()))
        _see(b, "phone's table page")
        n = night.told({"how": "out", "by": "Cy"})
        b.wait(lambda: b.url().endswith(f"/hands/{n}"))
        b.wait(lambda: b.count("#yours"))
        _see(b, "phone on the new hand")
        b.click("#accepts button")
        b.wait(lambda: "✓ Ann" in (b.text("#accepts") or ""))
        _shots(b, "phone-accepted")
        # Back and forward load at once: no page waits on a held connection
        # (a minute, till the browser gives one up), each well within WAIT.
        for step in (b.back, b.forward, b.back):
            started = time.monotonic()
            step()
            b.wait(b.loaded)
            assert time.monotonic() - started < WAIT, (b.name, step.__name__)
    finally:
        b.quit()
