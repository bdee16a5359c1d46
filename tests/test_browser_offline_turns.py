"""The offline preview in headless Chromium says and follows kept taps from
what the page was told (issue 32 item 5): a kept take says the card it takes
in the page's language (issue 35 items 10 and 14), and the turn goes on as
the table's rules say (``rules.phases.turn_after``), not as the script
guessed: under ``hit_replaces_discard`` a kept hit passes the turn."""

from __future__ import annotations

import re

from referee.language import action_words

from . import test_browser_offline as offline
from .test_browser_offline import (
    CARDS,
    PLAYERS,
    UPCARD,
    drained,
    expect,
    keep_tap,
    logged,
    open_hand,
)
from .test_browser_tablet import PIN, create_table, deal

# The offline tests' server, browser and context (fixtures), and their marks.
pytestmark = offline.pytestmark
server, pw, browser, context = offline.server, offline.pw, offline.browser, offline.context


def _pending(pg) -> list[str]:
    return [t.strip() for t in pg.locator("#offline-queue > ol > li > span").all_inner_texts()]


def test_a_kept_take_says_the_card_it_takes_in_the_pages_language(server, context):
    pg = context.new_page()
    sid = open_hand(pg, server)
    pg.goto(pg.url + "?lang=de")
    context.set_offline(True)
    keep_tap(pg, 1, "draw", ["8c"])
    keep_tap(pg, 1, "spread", ["Ks", "Kh", "Kd"])
    keep_tap(pg, 1, "discard", ["8c"])
    keep_tap(pg, 2, "take")
    # As the referee says them once logged: the take with its card, the spread in order.
    said = [action_words(t, "de") for t in
            ("Ben: draw 8c", "Ben: spread Kd Kh Ks", "Ben: discard 8c", "Cy: take 8c")]
    assert said[-1] == "Cy nimmt 8♣"
    assert _pending(pg) == said
    assert pg.locator("#history li.pending").last.inner_text().startswith("Cy nimmt 8♣ ")
    context.set_offline(False)
    drained(pg)
    assert logged(server, sid)[-1] == "Cy: take"
    history = pg.locator("#history ol.history > li").all_text_contents()
    assert history[-1].strip() == "Cy nimmt 8♣"


def test_a_kept_hit_passes_the_turn_where_the_rules_say_so(server, context):
    pg = context.new_page()
    pg.goto(server["base"] + "/new")
    pg.locator("summary", has_text="Change single rules").click()
    pg.select_option("#opt_hit_replaces_discard", "true")
    pg.fill("input[name=table]", "Hits end turns")
    for i, name in enumerate(PLAYERS, 1):
        pg.fill(f"input[name=player{i}]", name)
    pg.fill("input[name=pin]", PIN)
    pg.fill("input[name=pin2]", PIN)
    pg.locator("form[action='/new'] button[type=submit]").click()
    pg.wait_for_url(re.compile(r".*/s/[0-9a-f]+$"))
    sid = pg.url.rsplit("/", 1)[1]
    deal(pg, PLAYERS, CARDS, UPCARD)
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    context.set_offline(True)
    keep_tap(pg, 1, "draw", ["8c"])
    keep_tap(pg, 1, "spread", ["Ks", "Kh", "Kd"])
    keep_tap(pg, 1, "discard", ["8c"])
    keep_tap(pg, 2, "draw", ["Kc"])
    keep_tap(pg, 2, "hit", ["Kc"], spread="S1")
    # Cy's hit ended his turn: Ann starts hers (the page was told, not guessing).
    assert pg.locator("#to-act").inner_text().strip() == "Ann"
    assert pg.locator("button[name=act][value='0:draw']").count() == 1
    assert pg.locator("button[name=act][value='2:discard']").count() == 0
    context.set_offline(False)
    drained(pg)
    assert logged(server, sid)[-1] == "Cy: hit S1 Kc"
    assert pg.locator("#to-act").inner_text().strip() == "Ann"


# How many lines an element's text takes (its words' boxes, by their tops).
LINES_OF = """(selector) => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(selector));
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


def test_a_kept_tap_that_empties_a_hand_offers_no_more_actions(server, context):
    # Newcomer 41, N9: a tonk out by spreads kept offline still offered
    # Spread / Hit / Discard. The hand may be over: the referee says so.
    pg = context.new_page()
    sid = create_table(pg, server["base"], PLAYERS, table="Tonk out offline")
    deal(pg, PLAYERS, {**CARDS, "Ben": ["4s", "4h", "4d", "5s", "5h"]}, UPCARD)
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    context.set_offline(True)
    keep_tap(pg, 1, "draw", ["5c"])
    keep_tap(pg, 1, "spread", ["4s", "4h", "4d"])
    expect(pg.locator("button[name=act][value='1:spread']")).to_have_count(1)
    keep_tap(pg, 1, "spread", ["5s", "5h", "5c"])
    expect(pg.locator("#actions button")).to_have_count(0)
    expect(pg.locator("#actions")).to_have_text("known when the waiting taps are sent.")
    assert pg.locator("#to-act").inner_text().strip() == "known when the waiting taps are sent"
    # A sentence in the box of a name: on a phone, broken between words, not inside them.
    pg.set_viewport_size(offline.PHONE)
    assert pg.evaluate(LINES_OF, "#to-act") <= 2
    pg.set_viewport_size(offline.TABLET)
    offline.shot(pg, "09-emptied-hand-kept")
    context.set_offline(False)
    drained(pg)
    assert logged(server, sid) == ["Ben: draw 5c", "Ben: spread 4d 4h 4s", "Ben: spread 5c 5h 5s"]
    expect(pg.locator("#to-act")).to_have_text("hand over")
