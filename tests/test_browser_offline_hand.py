"""A hand shown offline follows the taps kept on the device (newcomer 43's
N5): a phone offline that kept "draw 3♥, spread 3♥ 4♥ 5♥ 6♥, discard 10♠"
still listed 4♥ 5♥ 6♥ 10♠ in its player's hand ("5 cards, count 34"), and
its picker did not mark the 3♥ drawn as his. The players' list says each
hand as the kept taps leave it (its number of cards and the cards known, no
count until the referee has them) and the picker marks who holds what; the
queue still sends each tap once. Headless Chromium at 1024x768 and 390x844."""

from __future__ import annotations

from . import test_browser_offline as offline
from .test_browser_offline import drained, keep_tap, logged, open_hand

# The offline tests' server, browser and context (fixtures), and their marks.
pytestmark = offline.pytestmark
server, pw, browser, context = offline.server, offline.pw, offline.browser, offline.context


def _line(pg, name: str) -> str:
    li = pg.locator("#players > li", has=pg.locator("strong", has_text=name))
    return " ".join(li.inner_text().split())


def _tile(pg, card: str) -> str:
    return pg.locator(f"#act label.tile:has(input[value='{card}'])").get_attribute("class")


def test_the_players_hand_follows_the_taps_kept_offline(server, context):
    pg = context.new_page()
    sid = open_hand(pg, server)
    assert _line(pg, "Ben").startswith("Ben 5 cards count 44 4♣ K♦ K♥ Q♠ K♠")
    context.set_offline(True)
    keep_tap(pg, 1, "draw", ["8c"])
    # The card drawn is Ben's: in his line and marked his in the picker.
    assert _line(pg, "Ben") == "Ben 6 cards 4♣ 8♣ K♦ K♥ Q♠ K♠"
    assert "tile-mine" in _tile(pg, "8c")
    keep_tap(pg, 1, "spread", ["Ks", "Kh", "Kd"])
    keep_tap(pg, 1, "discard", ["8c"])
    # Laid and discarded: out of his hand, and no count the referee has not said.
    assert _line(pg, "Ben") == "Ben 2 cards 4♣ Q♠"
    assert pg.locator("#players > li.acting strong").inner_text() == "Cy"
    assert "tile-held" not in _tile(pg, "Ks") and "tile-mine" not in _tile(pg, "Ks")
    assert "tile-held" not in _tile(pg, "8c") and "tile-mine" not in _tile(pg, "8c")
    # Cy's turn now: his cards are the ones marked his own.
    assert "tile-mine" in _tile(pg, "Jh") and "tile-mine" not in _tile(pg, "Qs")
    # A hand no kept tap touched is as served, its count with it.
    assert _line(pg, "Ann") == "Ann dealer 5 cards count 16 2♣ 3♦ A♥ A♠ 9♠"
    offline.shot(pg, "10-hand-follows-kept-taps")
    context.set_offline(False)
    drained(pg)
    assert logged(server, sid) == ["Ben: draw 8c", "Ben: spread Kd Kh Ks", "Ben: discard 8c"]
    # The referee's own list again, its count with it.
    assert _line(pg, "Ben") == "Ben 2 cards count 14 4♣ Q♠"
