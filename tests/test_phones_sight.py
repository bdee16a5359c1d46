"""What a phone sees of a hand dealt with real cards (issue 35): its own
player's cards and what is public; the viewer link no hand at all; the
host's tablet and the audit token every card. Every way a link reads a hand
is checked: the hand's page (its live copies are the page again), the data
the offline queue keeps in it, the API's state and the answer to a post."""

from __future__ import annotations

import json
import re

from tests.test_api import Game, bearer
from tests.test_phones import _host, _joined, _link


def _hands(state):
    return {p["name"]: p for p in state["players"]}


def _night(client):
    g = Game(client)
    g.start()
    g.play(4)  # draws among them: a drawn card is its drawer's alone
    full = client.get(g.url(f"/hands/{g.n}"), headers=bearer(g.audit)).get_json()
    assert all(p["known"] for p in full["players"]), "the test needs a dealt hand known"
    return g, full


def test_a_seat_sees_its_own_cards_and_no_one_elses_through_the_api(client):
    g, full = _night(client)
    tokens = {p: _link(g, "seat", p)["token"] for p in _hands(full)}
    for me, token in tokens.items():
        seen = client.get(g.url(f"/hands/{g.n}"), headers=bearer(token)).get_json()
        for name, p in _hands(seen).items():
            whole = _hands(full)[name]
            if name == me or whole["shown"]:
                assert p == whole
            else:
                assert p["known"] == [] and p["count"] is None
                assert p["unknown"] == p["cards"] == whole["cards"]
        # the actions and verbs open follow from cards held: only its own
        assert all(t.startswith(f"{me}:") for t in seen["legal"])
        assert seen["verbs"] == {q: v for q, v in full["verbs"].items() if q == me}
        # what is public stays
        for key in ("top", "stock", "pile", "spreads", "to_act"):
            assert seen[key] == full[key]
    viewer = _link(g, "viewer")["token"]
    seen = client.get(g.url(f"/hands/{g.n}"), headers=bearer(viewer)).get_json()
    assert all(not p["known"] for p in seen["players"]) and seen["legal"] == []
    # the host's token and the audit token see all
    assert client.get(g.url(f"/hands/{g.n}"), headers=bearer(g.table)).get_json() == full


def test_a_seats_answer_to_its_own_action_names_no_other_hand(client):
    g, _ = _night(client)
    text = g.sim.next_action()
    actor = text.split(":")[0]
    token = _link(g, "seat", actor)["token"]
    r = g.post(text, token=token)
    assert r.status_code == 201, r.get_json()
    for p in r.get_json()["players"]:
        if p["name"] != actor and not p["shown"]:
            assert p["known"] == [] and p["count"] is None


def _panel(page: str) -> dict[str, str]:
    """Each player's line of a hand page's players panel."""
    panel = page.split('id="players"', 1)[1].split("</ul>", 1)[0]
    return {m.group(1): m.group(2) for m in
            re.finditer(r"<strong>([^<]+)</strong>(.*?)</li>", panel, re.S)}


def _history(page: str) -> str:
    return page.split('id="history"', 1)[1].split("</details>", 1)[0]


def test_the_hand_page_on_a_phone_shows_only_its_own_hand(app, client):
    g, full = _night(client)
    hands = _hands(full)
    host = _panel(_host(app, g).get(f"/s/{g.sid}/hands/{g.n}").get_data(as_text=True))
    assert all('class="known"' in host[n] for n in hands)
    for me in hands:
        page = _joined(app, _link(g, "seat", me)).get(f"/s/{g.sid}/hands/{g.n}") \
            .get_data(as_text=True)
        others = {c for n, p in hands.items() if n != me for c in p["known"]}
        # the offline queue's data: the cards seen, the shows it may log
        played = set(json.loads(re.search(r"data-played='([^']*)'", page).group(1)))
        known = json.loads(re.search(r"data-known='([^']*)'", page).group(1))
        assert not played & others
        assert all(k["player"] == me for k in known)
        # the picker marks no card with another player's name
        assert not any(f"<small>{n}</small>" in page for n in hands if n != me)
        panel = _panel(page)
        for n in hands:
            if n == me:
                assert panel[n] == host[n]
            else:
                assert 'class="known"' not in panel[n] or "unknown" in panel[n]
                assert "count " not in panel[n], (me, n, panel[n])
    viewer = _joined(app, _link(g, "viewer")).get(f"/s/{g.sid}/hands/{g.n}") \
        .get_data(as_text=True)
    assert all("count " not in line for line in _panel(viewer).values())
    assert not re.search(r"<small>(Ann|Ben|Cy)</small>", viewer)


def test_another_players_draw_names_no_card_in_a_phones_history(app, client):
    g, full = _night(client)
    history = _history(_host(app, g).get(f"/s/{g.sid}/hands/{g.n}").get_data(as_text=True))
    draws = re.findall(r"<li[^>]*>(\w+): draw ([^<]+)</li>", history)
    assert draws, "the test needs a draw with its card"
    drawer, card = draws[0]
    other = next(n for n in _hands(full) if n != drawer)
    seen = _history(_joined(app, _link(g, "seat", other)).get(f"/s/{g.sid}/hands/{g.n}")
                    .get_data(as_text=True))
    mine = _history(_joined(app, _link(g, "seat", drawer)).get(f"/s/{g.sid}/hands/{g.n}")
                    .get_data(as_text=True))
    assert f"{drawer}: draw {card}" not in seen and f"{drawer}: draw" in seen
    assert f"{drawer}: draw {card}" in mine


def test_the_log_and_the_audits_are_not_a_phones(app, client):
    """The log holds every deal and draw, an audit every player's cards at
    each step: a seat's or the viewer's link is refused them in words (the
    API, the audit page and PDF), and its reports page offers no audit; the
    host's table and audit tokens read them. A seat read the whole log, and
    every audit, during play."""
    from tests.test_api import Game, assert_error, bearer

    g = Game(client)
    g.start()
    g.finish_hand()
    links = {}
    for role, player in (("seat", "Ann"), ("viewer", None)):
        body = {"role": role, **({"player": player} if player else {})}
        r = client.post(g.url("/links"), json=body, headers=bearer(g.table))
        assert r.status_code == 201, r.get_json()
        links[role] = r.get_json()["token"]
    for token in links.values():
        err = assert_error(client.get(g.url("/log"), headers=bearer(token)), 403,
                           "not_your_seat")
        assert "every player's cards" in err["message"]
        for path in ("hands/1/audit", "hands/1/audit.pdf"):
            page = client.get(f"/reports/{g.sid}/{path}?token={token}")
            assert page.status_code == 403
            assert "every player" in page.get_data(as_text=True)
        index = client.get(f"/reports/{g.sid}/?token={token}").get_data(as_text=True)
        assert "/audit" not in index
    for token in (g.table, g.audit):
        assert client.get(g.url("/log"), headers=bearer(token)).status_code == 200
        assert client.get(f"/reports/{g.sid}/hands/1/audit?token={token}").status_code == 200
        index = client.get(f"/reports/{g.sid}/?token={token}").get_data(as_text=True)
        assert "/hands/1/audit" in index
