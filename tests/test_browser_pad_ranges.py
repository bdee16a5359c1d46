"""The count pad says each player's range in Chromium (newcomer N10): a digit
past a count's most stayed off without a word ("99" became "9", "51" "5"),
or, after a count moved on by itself, went into the next player's field;
and a dropper's count 3 for 5 cards went on to "Bestätigen", which logged
the drop and the other counts and refused that one."""

from __future__ import annotations

import re

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_follow import TABLET, Night, served  # noqa: F401

pytestmark = tb.pytestmark
browser = tb.browser
expect = pytest.importorskip("playwright.sync_api").expect
PLAYERS = ("Ann", "Max", "Cy", "Dee")


def _tap(pg, keys: str) -> None:
    """Digits, "<" for the delete key and ">" for Next."""
    for k in keys:
        which = {"<": "[data-back]", ">": "[data-next]"}.get(k, f"[data-digit='{k}']")
        pg.locator(f"[data-pad] button{which}").click()


def test_the_pad_says_a_count_past_its_range_and_the_confirm_logs_nothing(served, browser):  # noqa: F811
    base, app = served
    night = Night(app, "de", PLAYERS)
    n = night.start()
    who = night.state(n)["to_act"]
    assert who == "Max"  # Ann deals the first hand
    pg = night.host(browser, base, TABLET)
    try:
        pg.goto(f"{base}/s/{night.sid}/hands/{n}")
        pg.locator('button[name=act][value="1:drop"]').click()
        pg.wait_for_url(re.compile(r".*/confirm$"))
        said = pg.locator("[data-pad] .pad-said")
        # Each field says its player's range: five cards count 6 to 50.
        expect(pg.locator("#count0-range")).to_have_text("6 bis 50")
        # "99" on Ann's count: the second 9 is said, and goes nowhere.
        _tap(pg, "99")
        expect(pg.locator("#count0")).to_have_value("9")
        expect(said).to_have_text("Die 5 Karten von Ann können nicht 99 zählen: sie zählen "
                                  "6 bis 50")
        expect(pg.locator("#count1")).to_have_value("")
        _tap(pg, "<20")  # two digits, as many as 50 has: on by itself
        expect(said).to_be_hidden()
        _tap(pg, "3>")  # the dropper's 3 is below 6: said, and kept
        expect(said).to_have_text("Die 5 Karten von Max können nicht 3 zählen: sie zählen "
                                  "6 bis 50")
        _tap(pg, "51")
        expect(pg.locator("#count2")).to_have_value("5")
        expect(said).to_have_text("Die 5 Karten von Cy können nicht 51 zählen: sie zählen "
                                  "6 bis 50")
        _tap(pg, "<30")  # Cy's put right: the line says Max's again
        expect(said).to_contain_text("von Max können nicht 3 zählen")
        _tap(pg, "9>")  # a count shorter than 50's waits for Next
        typed = {i: pg.locator(f"#count{i}").input_value() for i in range(4)}
        assert typed == {0: "20", 1: "3", 2: "30", 3: "9"}, typed
        pg.locator("#confirm-yes").click()
        # Refused whole: the pad again with every count, and nothing logged.
        pg.wait_for_url(re.compile(r".*/confirm$"))
        expect(pg.locator(".flash-error")).to_contain_text(
            "Die 5 Karten von Max können nicht 3 zählen: sie zählen 6 bis 50")
        assert {i: pg.locator(f"#count{i}").input_value() for i in range(4)} == typed
        assert night.state(n)["seq"] == 0
        assert not pg.errors
    finally:
        pg.context.close()


def test_a_told_droppers_0_is_said_in_the_referees_words(served, browser):  # noqa: F811
    """A quick hand's drop: the dropper's field says 1 to 50, and their 0 is
    said as the referee refuses it (newcomer46 N3: the pad said 0 to 50)."""
    base, app = served
    night = Night(app, "de", PLAYERS)
    pg = night.host(browser, base, TABLET)
    try:
        pg.goto(f"{base}/s/{night.sid}/hands/quick?pick=drop:1&hand=1")
        said = pg.locator("[data-pad] .pad-said")
        expect(pg.locator("#count1-range")).to_have_text("1 bis 50")
        expect(pg.locator("#count0-range")).to_have_text("0 bis 50")
        _tap(pg, "200")  # Ann's 20, on by itself; Max's 0, on by itself and said
        expect(pg.locator("#count1")).to_have_value("0")
        expect(said).to_have_text(re.compile(r"^Max hat mit 0 Punkten hingelegt: wer hinlegt"))
        _tap(pg, "51")  # a digit past the most is said in its own words
        expect(said).to_have_text("Die Punktzahl 51 von Cy ist unmöglich: eine Hand zählt "
                                  "nach diesen Regeln 0 bis 50")
        assert not pg.errors
    finally:
        pg.context.close()
