"""A hand's history and spreads as a person reads them (issue 35 item 14):
a take says the card it took, a spread's cards stand in rank order however
they were laid and hit, in every language the page is read in; the page
says each action from its fields (``service.table.history``), not by splitting
its log line."""

from __future__ import annotations

import re

from .test_tablet import act, create, hand_page, start

DEAL = {"Ann": ["3d", "2c", "Ks", "Qh", "9s"], "Ben": ["7d", "5d", "4d", "6d", "Qs"],
        "Cy": ["Jh", "Js", "9c", "9d", "5c"]}


def _played(client) -> str:
    sid = create(client)
    start(client, sid, deal=DEAL, upcard="Td")
    act(client, sid, 1, "draw", ["8c"])
    act(client, sid, 1, "spread", ["7d", "4d", "6d", "5d"])  # laid out of order
    act(client, sid, 1, "discard", ["8c"])
    act(client, sid, 2, "take")  # the 8c Ben discarded: the log line names no card
    act(client, sid, 2, "discard", ["Jh"])
    act(client, sid, 0, "draw", ["Kc"])
    act(client, sid, 0, "hit", ["3d"], spread="S1")  # below the run
    return sid


def _history(page: str) -> list[str]:
    block = re.search(r'<ol class="history"[^>]*>(.*?)</ol>', page, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li[^>]*>(.*?)</li>", block)]


def test_a_take_says_the_card_it_took_in_every_language(client):
    sid = _played(client)
    assert "Cy: take 8♣" in _history(hand_page(client, sid))
    german = client.get(f"/s/{sid}/hands/1?lang=de").data.decode()
    assert "Cy nimmt 8♣" in _history(german)
    # The line as logged stays the notation under the words.
    assert 'title="Cy: take"' in german


def test_a_spread_reads_in_rank_order_however_it_was_laid_and_hit(client):
    sid = _played(client)
    page = hand_page(client, sid)
    spread = re.search(r'<b>S1</b> <span class="owner">Ben:</span>(.*?)</span></label>',
                       page, re.S).group(1)
    shown = re.findall(r"(?:10|[2-9AJQK])[♣♦♥♠]", spread)
    assert shown == ["3♦", "4♦", "5♦", "6♦", "7♦"]
    assert "Ben: spread 4♦ 5♦ 6♦ 7♦" in _history(page)
    tv = client.get(f"/s/{sid}/tv").data.decode()
    tv_spread = re.search(r'id="tv-spreads">(.*?)</ul>', tv, re.S).group(1)
    assert re.findall(r"(?:10|[2-9AJQK])[♣♦♥♠]", tv_spread) == shown
