"""A German table played in headless Chromium: the host chooses German on
the create form, the hand is dealt and played to its end with taps, and
every heading, button and label on the way is German (``<html lang="de">``);
a reader then switches the page to Portuguese with the switch in the top
bar, and the choice holds on the next page. The hand page is photographed
in German and Portuguese at the three sizes a table uses, and must not
scroll sideways or cut a button's words there.

Screenshots go to ``$TABLET_SHOTS`` (default /tmp/shots), ``lang-*.png``.
"""

from __future__ import annotations

import re

import pytest

from . import test_browser_tablet as tb
from .test_browser_tablet import SHOTS, confirm, submit, tap, text
from .test_languages_web import _english

# A crawl of every page of a German night: slow (-m "not slow" leaves it out
# of a quick run).
pytestmark = [*tb.pytestmark, pytest.mark.slow]
server, browser = tb.server, tb.browser  # the same fixtures (a module's own server)

SIZES = [(1024, 768), (768, 1024), (390, 844)]
# What a reader reads as the page's own words: its headings, buttons and labels.
LABELS = """Array.from(document.querySelectorAll(
  'h1, h2, h3, button, summary, legend, label, th, dt, a.button, nav.steps a'))
  .filter(e => e.offsetParent !== null || e.closest('details'))
  .filter(e => !(e.htmlFor || '').startsWith('opt_'))
  .map(e => { const c = e.cloneNode(true); c.querySelectorAll('select').forEach(s => s.remove());
              return c.textContent.replace(/\\s+/g, ' ').trim(); })"""
# Buttons whose words do not fit in them.
CUT = """Array.from(document.querySelectorAll('button, a.button'))
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.textContent.trim())"""


def english_left(pg, english: list[str]) -> list[tuple[str, str]]:
    return [(said, e) for said in pg.evaluate(LABELS) for e in english
            if re.search(rf"(?<!\w){re.escape(e)}(?!\w)", said)]


def look(pg, name: str) -> None:
    """The page at each size: photographed, no sideways scroll, no cut button."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        pg.set_viewport_size({"width": w, "height": h})
        wide = pg.evaluate("document.documentElement.scrollWidth")
        assert wide <= w, f"{name} scrolls sideways at {w}x{h}: {wide} px wide"
        assert not pg.evaluate(CUT), f"{name} at {w}x{h}: {pg.evaluate(CUT)}"
        pg.screenshot(path=str(SHOTS / f"lang-{name}-{w}x{h}.png"), full_page=True)
    pg.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def test_a_german_table_played_by_tapping(server, browser):
    # A device that asks for English: the table's language decides its pages.
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())
    english = _english("de")

    def german(where: str) -> None:
        assert pg.evaluate("document.documentElement.lang") == "de", where
        left = english_left(pg, english)
        assert not left, (where, left)

    pg.goto(server + "/new?lang=de")
    pg.locator("summary", has_text="Einzelne Regeln ändern").click()
    look(pg, "de-create")
    context.clear_cookies()  # forget the pick: the device asks for English
    pg.goto(server + "/new")
    assert pg.evaluate("document.documentElement.lang") == "en"
    assert pg.locator("#table-language").input_value() == "en"  # the device's language
    pg.fill("input[name=table]", "Stammtisch")
    pg.select_option("#table-language", "de")
    for i, name in enumerate(["Ann", "Ben"], 1):
        pg.fill(f"input[name=player{i}]", name)
    pg.fill("input[name=stake]", "0.25")
    pg.fill("input[name=currency]", "EUR")
    pg.fill("input[name=pin]", tb.PIN)
    pg.fill("input[name=pin2]", tb.PIN)
    pg.locator("form button[type=submit]").click()
    pg.wait_for_url(re.compile(r".*/s/[0-9a-f]+$"))
    german("session page")
    look(pg, "de-session")
    assert "Der Tisch ist eröffnet" in text(pg, ".flash-ok")
    assert "Einsatz 0,25\u00a0€" in text(pg, "main")

    pg.locator("#start-hand").click()
    pg.wait_for_url(re.compile(r".*/hands/new(\?hand=\d+)?$"))
    german("start page")
    pg.locator("details:has(input[name=upcard]) > summary").click()
    tb.tap_card(pg, "form.deal-form", "upcard", "3d")
    pg.locator("details:has(input[name=deal1]) > summary").click()
    for card in ["5h", "6h", "7h", "3s", "3c"]:
        tb.tap_card(pg, "form.deal-form", "deal1", card)
    pg.locator("form.deal-form button[type=submit]").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    german("hand page")
    assert text(pg, "button[name=act][value='1:take']").startswith("Nehmen")
    look(pg, "de-hand")

    tap(pg, 1, "take")
    tap(pg, 1, "spread", ["5h", "6h", "7h"])
    assert "Ben meldet 5♥ 6♥ 7♥" in text(pg, ".flash-ok")
    pg.locator("#history > summary").click()
    german("hand page, history open")
    for card in ["3s", "3c", "3d"]:
        tb.tap_card(pg, "#act", "card", card)
    submit(pg, "button[name=act][value='1:spread']")
    german("confirm page")
    assert "Ann zahlt Ben 0,50\u00a0€" in text(pg, "#confirm")
    confirm(pg)
    german("result")
    result = text(pg, "#result")
    assert "Ann zahlt Ben 0,50\u00a0€" in result and "Akzeptiert von" in result
    look(pg, "de-result")

    pg.get_by_role("link", name="Zwischenstand").first.click()
    german("standings page")
    look(pg, "de-standings")
    pg.goto(pg.url.replace("/standings", "/manage"))
    german("manage page")
    look(pg, "de-manage")

    # A reader's own pick: Portuguese, from the switch, for this page and the next.
    with pg.expect_navigation():
        pg.locator("nav.langs a[hreflang=pt]").click()
    assert pg.evaluate("document.documentElement.lang") == "pt"
    assert not english_left(pg, _english("pt"))
    pg.goto(pg.url.split("/manage")[0] + "/hands/1")
    assert pg.evaluate("document.documentElement.lang") == "pt"
    assert "Ann paga 0,50\u00a0€ a Ben" in text(pg, "#result")
    look(pg, "pt-result")
    context.close()
    assert not errors, errors


def test_a_portuguese_hand_in_play_fits_the_tablet_and_the_phone(server, browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="pt-BR")
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    pg.goto(server + "/new")
    # The device's language: the page's and the new table's.
    assert pg.evaluate("document.documentElement.lang") == "pt"
    assert pg.locator("#table-language").input_value() == "pt"
    for i, name in enumerate(["Ana", "Bruno", "Carla"], 1):
        pg.fill(f"input[name=player{i}]", name)
    pg.fill("input[name=pin]", tb.PIN)
    pg.fill("input[name=pin2]", tb.PIN)
    pg.locator("form button[type=submit]").click()
    pg.wait_for_url(re.compile(r".*/s/[0-9a-f]+$"))
    pg.locator("#start-hand").click()
    pg.locator("form.deal-form button[type=submit]").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    tap(pg, 1, "draw", ["8c"])
    assert not english_left(pg, _english("pt"))
    look(pg, "pt-hand")
    context.close()



def test_every_page_of_a_german_night_fits_a_phone(server, browser):
    """The night of test_words_left (drop, caught, deal win, void, dispute,
    payments, closed) imported in German: every page of every table at
    390x844 neither scrolls sideways nor cuts a button's words."""
    import json
    import urllib.request

    from .test_words_left import NIGHT, SAMPLES, _pages

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    too_wide = {}
    for name in NIGHT:
        log = {**json.loads((SAMPLES[0].parent / name).read_text()), "language": "de",
               "copy": True}  # a sample may be stored already
        request = urllib.request.Request(server + "/api/sessions", data=json.dumps(log).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            made = json.load(answer)
        pg.goto(f"{server}/s/{made['id']}/unlock")
        pg.fill("input[name=pin]", made["table_token"])
        submit(pg, "form button[type=submit]")
        for page in _pages(made["id"], len(log.get("hands", []))):
            pg.goto(server + page)
            wide = pg.evaluate("document.documentElement.scrollWidth")
            cut = pg.evaluate(CUT)
            if wide > 390 or cut:
                too_wide[f"{name} {page.replace(made['id'], 'ID')}"] = (wide, cut)
                pg.screenshot(path=str(SHOTS / f"lang-night-{name}-{len(too_wide)}.png"),
                              full_page=True)
    pg.screenshot(path=str(SHOTS / "lang-night-last-390x844.png"), full_page=True)
    context.close()
    assert too_wide == {}
