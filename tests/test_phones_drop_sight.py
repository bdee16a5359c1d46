"""A drop tapped on a seat's phone (issue 35, item 4's seam): its confirm
step, and the hand's page while the others have still to show, tell that
phone nothing of another seat's hand, neither cards nor counts, though the
referee knows every card dealt; once the hand is over, what was shown is
public (and the same check finds it there, so it can see what it looks for)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from referee.rules.cards import card_label
from tests.test_api import Game, bearer
from tests.test_phones import _host, _joined, _link


def _text(page: str) -> str:
    """What a person reads on the page of a hand: scripts and their data left
    out, and the card picker's tiles (every card of the deck, whoever holds it)."""
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    page = re.sub(r'<label class="tile">.*?</label>', " ", page, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


def _leaks(page: str, others: dict) -> list[str]:
    """Every card or count of ``others`` (name -> (cards, count)) the page shows."""
    text, found = _text(page), []
    for name, (cards, count) in others.items():
        found += [f"{name}'s {c}" for c in cards if card_label(c) in text]
        if re.search(rf"\b{count}\b", text):
            found.append(f"{name}'s count {count}")
    return found


def _named(page: str, others: dict) -> list[str]:
    """Every card of ``others`` the page's markup names (its data for the
    scripts too), but for the deck's lists (its cards, its red ones) and the
    picker's tiles."""
    page = re.sub(r"data-(deck|red)='[^']*'", " ", page)
    page = re.sub(r'<label class="tile">.*?</label>', " ", page, flags=re.S)
    return [c for p in others for c in others[p][0]
            if re.search(rf"(?<![\w-]){c}(?![\w-])", page)]


def _tiles(page: str) -> dict[str, bool]:
    """The picker's cards, each with whether it is greyed out."""
    return {re.search(r'value="([^"]+)"', tag).group(1): " disabled" in tag
            for tag in re.findall(r'<label class="tile"><input ([^>]*)>', page)}


def _dealt(client):
    g = Game(client)
    state = g.start()
    full = client.get(g.url(f"/hands/{g.n}"), headers=bearer(g.table)).get_json()
    hands = {p["name"]: (p["known"], p["count"]) for p in full["players"]}
    return g, state["to_act"], [p["name"] for p in state["players"]], hands


def state_top(client, g) -> str | None:
    return client.get(g.url(f"/hands/{g.n}"), headers=bearer(g.table)).get_json()["top"]


@pytest.mark.parametrize("typed", ["nothing", "own count"])
def test_a_phones_drop_shows_it_nothing_of_another_seats_hand(app, client, typed):
    g, who, players, hands = _dealt(client)
    seat = players.index(who)
    others = {p: hands[p] for p in players if p != who}
    phone = _joined(app, _link(g, "seat", who))
    hand = f"/s/{g.sid}/hands/{g.n}"
    tap = {"csrf_token": "t", "act": f"{seat}:drop", "expected_seq": "0", "client_id": "d1"}
    if typed == "own count":
        tap[f"count{seat}"] = str(hands[who][1])
    r = phone.post(f"{hand}/act", data=tap)
    assert r.status_code == 303 and r.headers["Location"].endswith("/confirm")
    confirm = phone.get(r.headers["Location"]).get_data(as_text=True)
    assert 'id="confirm-yes"' in confirm
    assert _leaks(confirm, others) == [] and _named(confirm, others) == []
    r = phone.post(f"{hand}/act", data={**tap, "confirm": "1"})
    assert r.status_code == 303
    waiting = phone.get(hand).get_data(as_text=True)
    assert "not_your_seat" not in waiting
    assert _leaks(waiting, others) == [] and _named(waiting, others) == []
    # The picker (shown while this phone's player has still to show) greys
    # another seat's cards out as it does the cards nobody has seen (the
    # stock): it does not tell them apart.
    tiles = _tiles(waiting)
    assert bool(tiles) == (typed == "nothing")
    theirs = {c for cards, _count in others.values() for c in cards}
    unseen = set(tiles) - theirs - set(hands[who][0]) - {state_top(client, g)}
    assert {tiles[c] for c in theirs & set(tiles)} <= {tiles[c] for c in unseen}
    # The others show on the host's tablet: the hand is over, their hands public.
    host = _host(app, g)
    for p in others:
        tap = {"csrf_token": "t", "act": f"{players.index(p)}:show",
               "card": others[p][0], "client_id": f"s-{p}",
               "expected_seq": re.search(r'name="expected_seq" value="(\d+)"',
                                         host.get(hand).get_data(as_text=True)).group(1)}
        r = host.post(f"{hand}/act", data=tap)
        if r.headers.get("Location", "").endswith("/confirm"):
            r = host.post(f"{hand}/act", data={**tap, "confirm": "1"})
        assert r.status_code == 303
    over = phone.get(hand).get_data(as_text=True)
    assert "not_your_seat" not in over
    assert len(_leaks(over, others)) >= sum(len(c) for c, _n in others.values())
