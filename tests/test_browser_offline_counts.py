"""Shows given as counts (quick logging) typed while the tablet is offline:
kept on the device like any tap and logged once, in order, when the network
is back."""

from __future__ import annotations

import json
import re

from . import test_browser_offline as offline
from .test_browser_offline import drained, referee
from .test_browser_tablet import create_table

# The offline tests' server, browser and context (fixtures), and their marks.
pytestmark = offline.pytestmark
server, pw, browser, context = offline.server, offline.pw, offline.browser, offline.context

PLAYERS = ["Ann", "Ben", "Cy"]


def test_counts_typed_offline_are_kept_and_logged_once(server, context):
    pg = context.new_page()
    sid = create_table(pg, server["base"], PLAYERS, table="Porch")
    pg.locator("#start-hand").click()
    pg.get_by_role("button", name="Deal: start the hand").click()
    pg.wait_for_url(re.compile(r".*/hands/1$"))
    # Online: Ben drops (he plays first after Ann's deal) and confirms, no counts yet.
    pg.locator("button[name=act][value='1:drop']").click()
    pg.locator("#confirm-yes").click()
    pg.wait_for_selector("#count-only")
    context.set_offline(True)
    for digit in "2089":  # Ann 20, Ben 8 (a single digit: Next), Cy 9
        pg.locator(f"[data-pad] button[data-digit='{digit}']").click()
        if digit == "8":
            pg.locator("[data-pad] button[data-next]").click()
    pg.locator("#count-all").click()
    # Kept in IndexedDB first (a moment), then shown.
    offline.expect(pg.locator("#offline-queue > ol > li")).to_have_count(3)
    context.set_offline(False)
    drained(pg)
    out = referee(server, "export", sid)
    actions = json.loads(out.stdout)["hands"][0]["actions"]
    assert actions == ["Ben: drop", "Ann: show =20", "Ben: show =8", "Cy: show =9"]
    assert pg.locator("#result").count()
    assert referee(server, "verify").returncode == 0
