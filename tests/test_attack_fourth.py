"""The attack, fourth pass: what a player at the table, a stranger on the
LAN, a hostile file or an edited database found that the earlier passes had
not. Each test reproduces one finding; the figures are in docs/decisions.md
("The attack, fourth pass (attack)")."""

from __future__ import annotations

import pytest

from .test_api import bearer
from .test_phones import _link

# ------------------------------------------- the verbs open to another player

# Cy is dealt 50 (four kings and a queen): under pagat's deal wins a hand Cy
# may declare before play. Ann holds 2s 3s: with 4s on the pile under
# take_must_meld, a take is hers to make only because of what she holds.
DEAL = {"Ann": ["2s", "3s", "7c", "5h", "9d"], "Ben": ["As", "2d", "3c", "8h", "4c"],
        "Cy": ["Kc", "Kd", "Ks", "Kh", "Qs"]}


def _table(client, rules):
    r = client.post("/api/sessions", json={"format": "tonk-log/1", "rules": rules,
                                           "players": ["Ann", "Ben", "Cy"], "stake": "1"})
    assert r.status_code == 201, r.get_json()
    sid, table = r.get_json()["id"], r.get_json()["table_token"]
    return sid, table


def _start(client, sid, table, dealer, upcard):
    r = client.post(f"/api/sessions/{sid}/hands", headers=bearer(table),
                    json={"dealer": dealer, "deal": DEAL, "upcard": upcard})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


class _G:
    def __init__(self, client, sid, table):
        self.client, self.sid, self.table = client, sid, table

    def url(self, tail=""):
        return f"/api/sessions/{self.sid}{tail}"


@pytest.mark.parametrize("rules,dealer,upcard,holder,verb", [
    ("pagat", "Ann", "9c", "Cy", "declare"),  # a dealt 50: Cy's to declare
    ({"preset": "pagat", "take_must_meld": True, "deal_wins": []}, "Cy", "4s", "Ann",
     "take"),  # 2s 3s and the 4s: a take Ann can use, a take Ben could not
])
def test_another_players_open_verbs_do_not_tell_their_cards(client, rules, dealer, upcard,
                                                           holder, verb):
    """The verbs open to a player follow from the cards they hold (a dealt
    winning hand to declare; under take_must_meld, a take they can meld): a
    seat's phone and the viewer link were given every player's verbs, the
    referee's own knowledge of a hand they must not see."""
    sid, table = _table(client, rules)
    host = _start(client, sid, table, dealer, upcard)
    assert verb in host["verbs"].get(holder, ()), "the host's tablet offers it"
    g = _G(client, sid, table)
    others = [p for p in DEAL if p != holder]
    tokens = {p: _link(g, "seat", p)["token"] for p in others}
    tokens["viewer"] = _link(g, "viewer")["token"]
    for who, token in tokens.items():
        seen = client.get(g.url("/hands/1"), headers=bearer(token)).get_json()
        assert holder not in seen["verbs"], (who, seen["verbs"])
        assert set(seen["verbs"]) <= {who}, (who, seen["verbs"])
    # the holder's own phone still gets its own verbs
    own = _link(g, "seat", holder)["token"]
    seen = client.get(g.url("/hands/1"), headers=bearer(own)).get_json()
    assert verb in seen["verbs"][holder]
