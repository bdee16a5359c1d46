"""A whole night at a 3-player table in headless Chromium, as a host runs it:
a name fixed, a caught drop confirmed with what it settles, every known hand
shown with one tap, acceptances, a void, a stake change, a second catch, a
payment, closing, and both PDFs; another tablet sees each action without a
reload; then the club's pages (the host key typed once): the ledger with a
transfer marked paid at next week's table, a player's page and the season.
Every page is checked at the tablet and phone sizes of the issue: no
sideways scroll, and axe-core finds no serious or critical violation.

Screenshots go to ``$TABLET_SHOTS`` (default /tmp/shots) as ``night-*``.
"""

from __future__ import annotations

import re

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_tablet import (
    PIN,
    SHOTS,
    confirm,
    create_table,
    deal,
    submit,
    tap,
    text,
)

from .helpers import serve_for_browser

pytestmark = tb.pytestmark
browser = tb.browser  # the same fixture
HOST_KEY = "night-host-key"


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    """The tablet tests' server with a host key: the club's pages are open
    to whoever types it, and opening a table needs it too."""
    yield from serve_for_browser(request, tmp_path_factory, REFEREE_HOST_KEY=HOST_KEY)

sync_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

SIZES = [(768, 1024), (810, 1080), (1024, 768), (1280, 800), (1366, 1024), (390, 844)]
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
# axe at the two sizes whose layouts differ most; the scroll check at every size.
AXE_SIZES = [(1024, 768), (390, 844)]

_axe = axe_sync.Axe()
# Buttons, button links and card tiles shown and smaller than 44 x 44 px.
SMALL_TARGETS = """Array.from(document.querySelectorAll('button, a.button, .tile > span'))
  .filter(e => e.offsetParent !== null)
  .map(e => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([t, r]) => `${t} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def check(pg, name: str) -> None:
    """No sideways scroll at any size, no serious or critical axe violation, a
    screenshot at the tablet and phone sizes; back to the tablet size."""
    pg.wait_for_load_state("load")
    for w, h in SIZES:
        pg.set_viewport_size({"width": w, "height": h})
        wide = pg.evaluate("document.documentElement.scrollWidth")
        assert wide <= w, f"{name} scrolls sideways at {w}x{h}: {wide} px wide"
        small = pg.evaluate(SMALL_TARGETS)
        assert not small, f"{name} at {w}x{h}: targets under 44 px: {small[:5]}"
        if (w, h) in AXE_SIZES:
            found = _axe.run(pg).response["violations"]
            bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
                   for v in found if v["impact"] in ("serious", "critical")]
            assert not bad, f"{name} at {w}x{h}: {bad}"
            SHOTS.mkdir(parents=True, exist_ok=True)
            kind = "phone" if w < 500 else "tablet"
            pg.screenshot(path=str(SHOTS / f"night-{name}-{kind}.png"), full_page=True)
    pg.set_viewport_size(TABLET)


def tap_check(pg, seat: int, verb: str, cards=(), name: str | None = None) -> str:
    """Tap an action that ends play: the confirm page says what it settles
    (checked) before the second tap; returns its text."""
    for card in cards:
        pg.locator(f"#act label.tile:has(input[name='card'][value='{card}'])").click()
    submit(pg, f"button[name=act][value='{seat}:{verb}']")
    assert pg.locator("#confirm").count(), "a money-moving tap was not confirmed"
    said = text(pg, "#confirm")
    if name:
        check(pg, name)
    confirm(pg)
    return said


def post_form(pg, form: str, button: str | None = None) -> None:
    with pg.expect_navigation():
        pg.locator(f"{form} button[type=submit]" if button is None else button).click()


def test_a_whole_night(server, browser):
    context = browser.new_context(viewport=TABLET)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    base = server
    players = ["Ann", "Bne", "Cy"]

    check_fresh_device(browser, base, pg, players)

    pg.goto(base + "/new")
    check(pg, "create")
    sid = create_table(pg, base, players, table="Friday night", host_key=HOST_KEY)
    check(pg, "session-new")

    # The host fixes a typo in a name: kept as an event.
    pg.locator("#manage").click()
    check(pg, "manage")
    pg.select_option("#old-player", "Bne")
    pg.fill("#new-name", "Ben")
    post_form(pg, "#rename-form")
    assert "Bne is now called Ben" in text(pg, ".flash-ok")
    players = ["Ann", "Ben", "Cy"]
    pg.goto(f"{base}/s/{sid}")
    assert text(pg, "#seating") == "Ann, Ben, Cy"

    # Hand 1: a caught drop, with everyone's cards known.
    deal(pg, players, {
        "Ann": ["2c", "3d", "As", "Ah", "9s"],
        "Ben": ["Ks", "Kh", "Kd", "Qs", "4c"],
        "Cy": ["Jh", "Js", "9c", "9d", "5d"],
    }, "7d")
    check(pg, "start-hand")
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    hand_url = pg.url
    # The start-hand form waits while a hand is in play.
    pg.goto(f"{base}/s/{sid}/hands/new")
    assert pg.url == hand_url and "still in play" in text(pg, ".flash-error")

    # A second tablet on the same hand sees every action within 2 s, no reload.
    other = context.new_page()
    other.goto(hand_url)
    check(pg, "hand-start")

    # With Ben's hand known, only cards that can be drawn are offered: not
    # the cards others hold, not the pile's.
    assert pg.locator("#act input[name=card][value='As']").is_disabled()
    tap(pg, 1, "draw", ["8c"])
    assert text(pg, ".flash-ok") == "✓ Ben draws 8♣."
    sync_api.expect(other.locator("#seq")).to_have_text("1", timeout=2500)
    # Ben's hand is known: only his cards can be picked now.
    assert pg.locator("#act input[name=card][value='8c']").is_enabled()
    assert pg.locator("#act input[name=card][value='2c']").is_disabled()
    tap(pg, 1, "spread", ["Ks", "Kh", "Kd"])
    check(pg, "hand-spread")
    tap(pg, 1, "discard", ["Qs"])
    assert text(pg, ".flash-ok") == "✓ Ben discards Q♠."
    tap(pg, 2, "take")
    tap(pg, 2, "discard", ["Jh"])
    said = tap_check(pg, 0, "drop", name="confirm-drop")
    assert "Ann drops" in said and "settles once" in said
    # After the drop the referee knows every hand: one tap shows them all,
    # confirmed with who pays whom.
    submit(pg, "#show-all")
    said = text(pg, "#confirm")
    assert "Caught" in said or "caught" in said
    assert "Ann pays Ben" in said
    check(pg, "confirm-show")
    confirm(pg)
    assert "Ann pays Ben" in text(pg, "#result")
    assert pg.locator("#undo").count() == 0  # a settled hand offers no undo
    other.wait_for_selector("#result", timeout=2500)
    other.close()
    # Each player accepts the result (on their own device, or here).
    for p in players:
        post_form(pg, "#accepts", f"#accepts button:has-text('{p} accepts')")
    assert text(pg, "#accepts").count("✓") == 3
    assert "Ben: spread K♦ K♥ K♠" in text(pg, "#history")  # open once settled
    check(pg, "hand-result")

    # Hand 2 is misdealt: void.
    pg.goto(f"{base}/s/{sid}")
    deal(pg, players, {}, "3c")
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/2$"))
    pg.locator(".void-box > summary").click()
    pg.fill("#void-reason", "card exposed")
    post_form(pg, "#void-form")
    assert "void" in text(pg, "#result").lower()
    check(pg, "hand-void")

    # The stake goes up from the next hand on.
    pg.goto(f"{base}/s/{sid}/manage")
    pg.fill("#new-stake", "0.50")
    post_form(pg, "#stake-form")
    assert "0.50" in text(pg, ".flash-ok")

    # Hand 3: Cy drops at once and is caught.
    pg.goto(f"{base}/s/{sid}")
    deal(pg, players, {
        "Ann": ["2c", "3d", "As", "Ah", "9s"],
        "Ben": ["Ks", "Kh", "Kd", "Qs", "4c"],
        "Cy": ["Jh", "Js", "9c", "9d", "5d"],
    }, "7d")
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/3$"))
    to_act = text(pg, "#to-act")
    tap_check(pg, players.index(to_act), "drop")
    submit(pg, "#show-all")
    confirm(pg)
    assert f"{to_act} pays" in text(pg, "#result")

    # A payment at the table, then the host closes it.
    pg.goto(f"{base}/s/{sid}/manage")
    pg.select_option("#from-who-paid", "Ann")
    pg.select_option("#to-to-whom", "Ben")
    pg.fill("#pay-amount", "0.50")
    post_form(pg, "#payment-form")
    assert "Ann paid Ben $0.50" in text(pg, ".flash-ok")
    check(pg, "manage-paid")
    post_form(pg, "#close-form")  # without the box ticked: not closed
    assert "Tick the box" in text(pg, ".flash-error")
    pg.locator("#close-sure").check()
    post_form(pg, "#close-form")
    assert "closed" in text(pg, "#closed")
    check(pg, "session-closed")
    pg.goto(f"{base}/s/{sid}/standings")
    check(pg, "standings")

    # Reports: the index, the what-if from the list, the auditor's view, both PDFs.
    pg.goto(f"{base}/reports/{sid}/")
    check(pg, "reports")
    pg.goto(f"{base}/reports/{sid}/whatif")
    pg.locator(".whatif-form summary").click()
    pg.select_option("#opt_caught", '"double_to_all"')
    post_form(pg, ".whatif-form")
    # Per player, per hand: what each would have got, and the difference.
    assert pg.locator("table.whatif tbody tr").count() == 4  # 3 hands and the total
    check(pg, "whatif")
    pg.goto(f"{base}/reports/{sid}/hands/1/audit?step=3")
    assert "K♠" in text(pg, "main")
    check(pg, "audit")
    for url in (f"/reports/{sid}/settlement.pdf", f"/reports/{sid}/hands/1/audit.pdf"):
        r = context.request.get(base + url)
        assert r.status == 200 and r.body()[:4] == b"%PDF", url

    # Next week's table opens; the club's ledger says who owes whom across
    # both, and a transfer marked paid is recorded at the open table.
    week2 = create_table(pg, base, players, table="Next Friday", host_key=HOST_KEY)
    pg.goto(f"{base}/club")
    assert "/club/unlock" in pg.url
    check(pg, "club-unlock")
    pg.fill("input[name=host_key]", HOST_KEY)
    post_form(pg, "main form")
    assert pg.url.rstrip("/").endswith("/club")
    check(pg, "club-ledger")
    first = pg.locator("main ul.plain li", has=pg.locator("button", has_text="Mark paid")).first
    owed = first.inner_text().split("\n")[0].strip()  # "Ann pays Ben 0.75"
    payer, _, payee, amount = owed.split()[:4]
    with pg.expect_navigation():
        first.locator("button", has_text="Mark paid").click()
    assert f"{payer} paid {payee} {amount} at table {week2}" in text(pg, ".flash-ok")
    assert owed not in text(pg, "main")  # paid: no longer owed
    check(pg, "club-ledger-paid")
    pg.locator("main ul.plain a", has_text=payer).first.click()
    pg.wait_for_url(re.compile(rf".*/club/people/{payer}$"))
    assert "Friday night" in text(pg, "main") and "Next Friday" in text(pg, "main")
    check(pg, "club-player")
    pg.goto(f"{base}/club/season?a=Ann&b=Ben")
    assert "Ann" in text(pg, "main") and "Ben" in text(pg, "main")
    check(pg, "club-season")
    context.close()
    assert not errors, errors


def check_fresh_device(chromium, base, host_page, players) -> None:
    """A device that never unlocked a table is led to the unlock page from a
    report link, and back to the report after the PIN."""
    sid = create_table(host_page, base, ["Dee", "Eve"], table="Locked test",
                       host_key=HOST_KEY)
    fresh = chromium.new_context(viewport=PHONE)
    pg = fresh.new_page()
    pg.goto(f"{base}/reports/{sid}/")
    assert "/unlock" in pg.url
    check(pg, "unlock")
    pg.fill("input[name=pin]", PIN)
    with pg.expect_navigation():
        pg.locator("main button[type=submit]").click()
    assert pg.url.endswith(f"/reports/{sid}/")
    fresh.close()
    host_page.goto(base + "/")
    check(host_page, "home")
