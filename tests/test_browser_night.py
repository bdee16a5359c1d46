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
from tests.test_tablet import CAUGHT_DEAL  # the caught drop's deal

from .helpers import FOLLOW, device, serve_for_browser

# A crawl of every page of a night at six screen sizes: slow (-m "not slow"
# leaves it out of a quick run).
pytestmark = [*tb.pytestmark, pytest.mark.slow]
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
    pg = device(browser, TABLET)
    context, errors = pg.context, pg.errors
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
    deal(pg, players, CAUGHT_DEAL, "7d")
    check(pg, "start-hand")
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    hand_url = pg.url
    # The start-hand form waits while a hand is in play.
    pg.goto(f"{base}/s/{sid}/hands/new")
    assert pg.url == hand_url and "still in play" in text(pg, ".flash-error")

    # A second tablet on the same hand sees every action live, no reload.
    other = context.new_page()
    other.goto(hand_url)
    check(pg, "hand-start")

    # With Ben's hand known, only cards that can be drawn are offered: not
    # the cards others hold, not the pile's.
    assert pg.locator("#act input[name=card][value='As']").is_disabled()
    tap(pg, 1, "draw", ["8c"])
    assert text(pg, ".flash-ok") == "✓ Ben draws 8♣."
    sync_api.expect(other.locator("#seq")).to_have_text("1", timeout=FOLLOW)
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
    other.wait_for_selector("#result", timeout=FOLLOW)
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
    deal(pg, players, CAUGHT_DEAL, "7d")
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
    # hand 3 nobody accepted: named, and asked about first (newcomer N14); hand 1
    # everyone accepted, hand 2 is void
    assert text(pg, "#confirm-lines") == "Hand 3: not accepted by Ann, Ben, Cy"
    check(pg, "close-unaccepted")
    post_form(pg, ".confirm-form", "#confirm-yes")
    assert "closed" in text(pg, "#closed")
    check(pg, "session-closed")
    pg.goto(f"{base}/s/{sid}/standings")
    check(pg, "standings")
    # What the service worker shows for a page this device never opened
    # (the queue's own states: tests/test_browser_offline.py).
    pg.goto(f"{base}/offline")
    check(pg, "offline")

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

    # Next week's table opens; the club's ledger says who owes whom, table by
    # table, and a transfer marked paid is recorded at the table that owes it
    # (issue 33: one answer to who pays whom), not at the open one.
    create_table(pg, base, players, table="Next Friday", host_key=HOST_KEY)
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
    assert f"{payer} paid {payee} {amount} at Friday night." in text(pg, ".flash-ok")
    assert owed not in text(pg, "main")  # paid: no longer owed
    check(pg, "club-ledger-paid")
    pg.locator("main ul.plain a", has_text=payer).first.click()
    pg.wait_for_url(re.compile(rf".*/club/people/{payer}$"))
    # "Next Friday" opened but nothing happened there: no session of the
    # club (carry43), so the player's page lists the one night.
    assert "Friday night" in text(pg, "main") and "Next Friday" not in text(pg, "main")
    check(pg, "club-player")
    pg.goto(f"{base}/club/season?a=Ann&b=Ben")
    assert "Ann" in text(pg, "main") and "Ben" in text(pg, "main")
    check(pg, "club-season")

    # Settling up the first table after its close: the payee's PayPal.me name
    # and line given on the tablet, the page checked, the transfer marked paid.
    pg.goto(f"{base}/s/{sid}")
    with pg.expect_navigation():
        pg.locator("#settle-up").click()
    # The club's payment is this table's (issue 33): listed here, and taken
    # back here (a reversing event) the debt is owed here again.
    club_paid = pg.locator("li.payment", has_text=f"{payer} paid {payee}").first
    owed_with_it = pg.locator("li.transfer").count()
    with pg.expect_navigation():
        club_paid.locator("button", has_text="Take back").click()
    # asked first, the payment named (newcomer N11)
    assert f"from {payer} to {payee}?" in text(pg, "h1")
    check(pg, "settle-take-back")
    post_form(pg, ".confirm-form", "#confirm-yes")
    assert "is taken back" in text(pg, ".flash-ok")
    assert pg.locator("li.transfer").count() == owed_with_it + 1
    owed_before = pg.locator("li.transfer").count()
    first = pg.locator("li.transfer").first
    payee, amount = first.get_attribute("data-to"), first.get_attribute("data-amount")
    pg.select_option("#pay-player", payee)
    pg.fill("#pay-paypal", "paypalname")
    pg.fill("#pay-note", "or cash next Friday")
    post_form(pg, "#details-form")
    assert payee in text(pg, ".flash-ok")
    assert first.locator("a.paypal").get_attribute("href") == \
        f"https://paypal.me/paypalname/{amount}USD"
    assert "or cash next Friday" in text(pg, "li.transfer")
    check(pg, "settle")
    with pg.expect_navigation():
        pg.locator("li.transfer button", has_text="Mark paid").first.click()
    assert pg.locator("li.transfer").count() == owed_before - 1
    check(pg, "settle-paid")
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


# ------------------------------------------------------------------ between the hands

GAP_AND_ACCEPTS = """() => {
  const accepts = document.querySelector('#accepts').getBoundingClientRect();
  const next = [...document.querySelectorAll('#result a.button')]
    .find(e => e.getAttribute('href').includes('/hands/new'));
  return [next.getBoundingClientRect().top - accepts.bottom, accepts.top, innerHeight];
}"""
FITS = """(sel) => { const t = document.querySelector(sel);
  return [t.scrollWidth, t.parentElement.clientWidth]; }"""


def tonk_out(pg, base, sid, players, n, cards_to):
    """Hand ``n``: ``cards_to`` takes the upcard and lays two spreads (a tonk out)."""
    pg.goto(f"{base}/s/{sid}")
    deal(pg, players, {cards_to: ["5h", "6h", "7h", "3s", "3c"]}, "3d")
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(rf".*/hands/{n}$"))
    seat = players.index(cards_to)
    tap(pg, seat, "take")
    tap(pg, seat, "spread", ["5h", "6h", "7h"])
    tap(pg, seat, "spread", ["3s", "3c", "3d"])
    confirm(pg)
    assert pg.locator("#result").count()


def test_a_night_between_the_hands(server, browser):
    """What a host meets between the hands (issue 24): a stake change, a
    dispute settled each way, a leaver, a newcomer, closing, and the closed
    table's debt marked paid at the club; each new page checked like the rest."""
    pg = device(browser, TABLET)
    context, errors = pg.context, pg.errors
    base = server
    players = ["Gus", "Hal", "Ida", "Jo"]
    sid = create_table(pg, base, players, table="Between the hands", host_key=HOST_KEY)

    # Hand 1: the result panel keeps Accept and Start apart, and an accept
    # leads back to the next accept button.
    tonk_out(pg, base, sid, players, 1, "Hal")
    for size in (TABLET, PHONE):
        pg.set_viewport_size(size)
        gap, _top, _height = pg.evaluate(GAP_AND_ACCEPTS)
        assert gap >= 12, f"Accept and Start the next hand {gap} px apart at {size}"
    with pg.expect_navigation():
        pg.locator("#accepts button", has_text="Gus accepts").click()
    assert pg.url.endswith("#accepts")
    _gap, top, height = pg.evaluate(GAP_AND_ACCEPTS)
    assert -2 <= top < height - 48, "the accept buttons are off-screen after an accept"
    pg.set_viewport_size(TABLET)

    # The stake goes up: the table page says from when.
    pg.goto(f"{base}/s/{sid}/manage")
    pg.fill("#new-stake", "1.00")
    post_form(pg, "#stake-form")
    pg.goto(f"{base}/s/{sid}")
    assert "$1.00 from the next hand on" in text(pg, "main")
    tonk_out(pg, base, sid, players, 2, "Ida")
    pg.goto(f"{base}/s/{sid}")
    assert "Stake $1.00 (since hand 2)" in text(pg, "#stake-now")
    check(pg, "between-session")

    # Two disputes of hand 2: one let stand, one corrected back to its action.
    pg.goto(f"{base}/s/{sid}/hands/2")
    for who, action, note in (("Jo", "", "the deal was fast"), ("Gus", "3", "not a spread")):
        pg.locator(".dispute-box > summary").click()
        pg.select_option("#dispute-by", who)
        pg.select_option("#dispute-action", action)
        pg.fill("#dispute-note", note)
        post_form(pg, "#dispute-form")
    assert "2 disputes open" in text(pg, "main") or pg.locator("#settle-stand-1").count()
    pg.select_option("#settle-by-1", "Gus")
    post_form(pg, "#settle-1", "#settle-stand-1")
    assert "Settled, the record stands: Gus" in text(pg, "#dispute-1")
    check(pg, "between-disputes")
    pg.select_option("#settle-by-2", "Hal")
    post_form(pg, "#settle-2", "#settle-correct-2")
    said = text(pg, "#confirm")
    assert "Undone" in said and "no longer" in said
    check(pg, "between-correction")
    post_form(pg, ".confirm-form", "#confirm-yes")
    assert "Settled by a correction: Hal" in text(pg, "#dispute-2")
    assert text(pg, "#seq") == "2" and pg.locator("#result").count() == 0
    tap(pg, players.index("Ida"), "spread", ["3s", "3c", "3d"])
    confirm(pg)
    assert pg.locator("#result").count()
    pg.goto(f"{base}/s/{sid}")
    assert "1 dispute settled" not in text(pg, "#hands")  # both settled: "2 disputes settled"
    assert "2 disputes settled" in text(pg, "#hands")

    # Four players' standings fit a phone, in English and in German.
    for lang in ("en", "de"):
        pg.goto(f"{base}/s/{sid}/standings?lang={lang}")
        pg.set_viewport_size(PHONE)
        wide, room = pg.evaluate(FITS, "table.standings")
        assert wide <= room, f"the standings need {wide} px in {room} ({lang})"
        pg.set_viewport_size(TABLET)
    check(pg, "between-standings-de")
    pg.goto(f"{base}/s/{sid}/standings?lang=en")

    # Jo leaves: the second tap names him; he is gone from the seating and the deal.
    pg.goto(f"{base}/s/{sid}/manage")
    check(pg, "between-manage")
    pg.select_option("#player-who-leaves", "Jo")
    post_form(pg, "#leave-form")
    assert "Yes, Jo leaves" in text(pg, "#confirm-yes")
    check(pg, "between-leave-confirm")
    post_form(pg, ".confirm-form", "#confirm-yes")
    # A newcomer sits down, at the next dealer's (Ida's) right.
    pg.fill("#seat-name", "Kim")
    post_form(pg, "#seat-form")
    assert "Kim sits down for the next hand" in text(pg, ".flash-ok")
    pg.goto(f"{base}/s/{sid}")
    assert text(pg, "#seating") == "Gus, Hal, Kim, Ida"
    pg.locator("#start-hand").click()
    pg.wait_for_url(re.compile(r".*/hands/new(\?hand=\d+)?$"))
    assert "Cards dealt to Kim" in text(pg, "main") and "Jo" not in text(pg, "main")

    # Closing: the manage page says what is owed and offers no form it would refuse.
    pg.goto(f"{base}/s/{sid}/manage")
    pg.locator("#close-sure").check()
    post_form(pg, "#close-form")
    post_form(pg, ".confirm-form", "#confirm-yes")  # hands not everyone accepted
    pg.goto(f"{base}/s/{sid}/manage")
    assert pg.locator("main form").count() == 0
    check(pg, "between-manage-closed")

    # The club marks the closed table's debt paid: recorded at that table,
    # closed as it is (issue 33), so its own page and papers say it is paid.
    pg.goto(f"{base}/club")
    if "/club/unlock" in pg.url:
        pg.fill("input[name=host_key]", HOST_KEY)
        post_form(pg, "main form")
    owed = pg.locator("main ul.plain li", has=pg.locator("button", has_text="Mark paid"))
    mine = owed.filter(has_text=re.compile(r"^(Gus|Hal|Ida|Jo)\b")).first
    line = mine.inner_text().split("\n")[0].strip()
    with pg.expect_navigation():
        mine.locator("button", has_text="Mark paid").click()
    assert "at Between the hands." in text(pg, ".flash-ok")  # the table's name, not its id
    assert line not in pg.locator("main ul.plain").first.inner_text()
    check(pg, "between-club-paid")

    # The season: money in sight on a phone, the German columns inside the
    # page on a tablet, 44 px date fields, and a chart of dots and lines.
    for lang, size in (("en", PHONE), ("de", TABLET), ("de", PHONE)):
        pg.set_viewport_size(size)
        pg.goto(f"{base}/club/season?lang={lang}")
        won = pg.evaluate("document.querySelector('#season-table thead th:nth-child(3)')"
                          ".getBoundingClientRect().right")
        assert won <= size["width"], f"won/lost off-screen at {size} in {lang}"
        if size == TABLET:
            wide, room = pg.evaluate(FITS, "#season-table")
            assert wide <= room, f"the season table needs {wide} px in {room} ({lang})"
        heights = pg.evaluate("[...document.querySelectorAll('input[type=date]')]"
                              ".map(e => e.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44, heights
        assert pg.locator("svg.season-chart circle.point").count() >= 1
    pg.set_viewport_size(TABLET)
    pg.goto(f"{base}/club/season")
    check(pg, "between-season")
    context.close()
    assert not errors, errors


def test_a_phone_under_preset_dc_folds_the_declare_rows(server, browser):
    """Under ``dc`` every player may declare at the first turn: their rows are
    one folded line, so the action bar leaves the cards in sight; and a
    refusal is shown where the thumb is."""
    context = browser.new_context(viewport=PHONE)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    players = ["Ann", "Ben", "Cy", "Dev"]
    create_table(pg, server, players, table="dc night", host_key=HOST_KEY, preset="dc")
    deal(pg, players, {}, None)
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    bar = pg.evaluate("document.querySelector('.actions').getBoundingClientRect().height")
    assert bar <= 0.35 * PHONE["height"], f"the action bar covers {bar} of 844 px"
    assert pg.locator("#declares").count() == 1
    check(pg, "dc-first-turn")
    pg.set_viewport_size(PHONE)
    # A refused tap, the page scrolled down to the action bar: the refusal
    # shows on screen, not above it.
    pg.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    submit(pg, "#actions button[value='1:declare']")
    assert pg.locator(".flash-error").count(), "the tap was not refused"
    top, bottom = pg.evaluate("(() => { const r = document.querySelector('.flash-error')"
                              ".getBoundingClientRect(); return [r.top, r.bottom]; })()")
    assert 0 <= top and bottom <= PHONE["height"], (top, bottom)
    context.close()


def test_on_a_phone_the_whole_hand_page_scrolls_clear_of_the_action_bar(server, browser):
    """The fixed action bar covers the foot of the screen: scrolled to the end,
    the last panel stands above it, and the panels follow the cards without a
    gap between them (the room to scroll is at the page's foot)."""
    context = browser.new_context(viewport=PHONE)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    players = ["Ann", "Ben", "Cy", "Dev"]
    create_table(pg, server, players, table="bar night", host_key=HOST_KEY)
    deal(pg, players, {}, None)
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    pg.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    bar_top, last_bottom, gap = pg.evaluate("""(() => {
        const bar = document.querySelector('.actions').getBoundingClientRect().top;
        const shown = [...document.querySelectorAll('main .panel')]
            .filter(p => p.offsetParent !== null).map(p => p.getBoundingClientRect());
        const last = Math.max(...shown.map(r => r.bottom));
        const cards = document.querySelector('.act-form').getBoundingClientRect().bottom;
        const below = shown.map(r => r.top - cards).filter(d => d >= 0);
        return [bar, last, below.length ? Math.min(...below) : 0];
    })()""")
    assert last_bottom <= bar_top, (last_bottom, bar_top)
    assert gap < 150, f"{gap} px of nothing under the cards"
    context.close()
