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


# ------------------------------------------- the right key in flight beside others

class _AtTheCheck:
    """``hmac`` for the access module whose ``compare_digest`` holds each try
    at the check until ``parties`` tries have reached it: that many requests
    in flight at once, each past whatever comes before its check."""

    def __init__(self, parties: int):
        import hmac
        import threading

        self.compare = hmac.compare_digest
        self.barrier = threading.Barrier(parties, timeout=60)

    def compare_digest(self, a, b):
        import threading

        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            pass
        return self.compare(a, b)

    def with_last(self, first, last) -> None:
        """Start each of ``first`` (threads), then run ``last`` while they all
        wait at their check; then let them go."""
        import time

        for t in first:
            t.start()
        try:
            deadline = time.monotonic() + 60
            while self.barrier.n_waiting < len(first) and time.monotonic() < deadline:
                time.sleep(0.01)
            last()
        finally:
            self.barrier.abort()  # a last refused before its check: let the first go
            for t in first:
                t.join()


@pytest.mark.parametrize("method,path", [("post", "/api/sessions"),
                                         ("get", "/api/club/ledger")])
def test_the_right_host_key_sent_by_many_at_once_is_never_taken_for_wrong_tries(
        app, monkeypatch, method, path):
    """Each try at the host key was counted as a wrong one before it was
    checked (and the count cleared after a right one): five requests with the
    right key in flight from one address made a wait, and the sixth, right
    too, was answered 429 'Too many wrong host keys' (seen with six tablets
    opening their tables at once)."""
    import threading

    from referee.service import access

    app.config["REFEREE_HOST_KEY"] = "club-key"
    held = _AtTheCheck(access.FREE_TRIES + 1)
    monkeypatch.setattr(access, "hmac", held)
    body = {"json": {"format": "tonk-log/1", "rules": "pagat", "stake": "1",
                     "players": ["Ann", "Ben"]}} if method == "post" else {}
    answers: list[int] = []

    def send():
        r = getattr(app.test_client(), method)(path, headers={"X-Host-Key": "club-key"},
                                               **body)
        answers.append(r.status_code)

    held.with_last([threading.Thread(target=send) for _ in range(access.FREE_TRIES)], send)
    assert sorted(set(answers)) == [201 if method == "post" else 200], answers


def test_the_right_pin_typed_on_many_tablets_at_once_is_never_taken_for_wrong_tries(
        app, client, monkeypatch):
    """The same for a table's PIN: six tablets of one household unlocking at
    once with the right PIN, the sixth was told 'Too many wrong PINs'."""
    import threading

    from referee.service import access

    from .test_tablet import PIN, create, token

    sid = create(client)
    held = _AtTheCheck(access.FREE_TRIES + 1)
    monkeypatch.setattr(access, "hmac", held)
    tablets = [app.test_client() for _ in range(access.FREE_TRIES + 1)]
    tokens = [token(t, f"/s/{sid}/unlock") for t in tablets]
    answers: list[int] = []

    def unlock(i):
        answers.append(tablets[i].post(f"/s/{sid}/unlock",
                                       data={"csrf_token": tokens[i], "pin": PIN}).status_code)

    held.with_last([threading.Thread(target=unlock, args=(i,))
                    for i in range(access.FREE_TRIES)], lambda: unlock(access.FREE_TRIES))
    assert set(answers) == {303}, answers


# ------------------------------------------- what the document says may come back

def _documented(client, path, method):
    spec = client.get("/api/openapi.json").get_json()
    return set(spec["paths"][path][method]["responses"])


def test_every_wait_and_refusal_the_api_answers_is_in_its_document(app, client):
    """schemathesis (status_code_conformance): POST /api/sessions answered
    429 (too many tables from an address, too many wrong host keys), which
    the document did not list; nor the 429 of an action refused too often, the
    club's 429 after wrong host keys, or the 403 of a seat's link asking for
    the log."""
    from referee.service import access
    from referee.web import refusals

    app.config["OPENINGS"] = (1, 600)
    body = {"format": "tonk-log/1", "rules": "pagat", "stake": "1", "players": ["Ann", "Ben"]}
    assert client.post("/api/sessions", json=body).status_code == 201
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 429
    assert "429" in _documented(client, "/api/sessions", "post")
    app.config["OPENINGS"] = None

    sid, table = _table(client, "pagat")
    _start(client, sid, table, "Ann", "9c")
    g = _G(client, sid, table)
    seat = _link(g, "seat", "Ann")["token"]
    r = client.get(g.url("/log"), headers=bearer(seat))
    assert r.status_code == 403
    assert "403" in _documented(client, "/api/sessions/{sid}/log", "get")

    for i in range(refusals.MOST + 1):
        r = client.post(g.url("/hands/1/actions"), headers=bearer(table),
                        json={"action": "Cy: draw 4c", "client_id": f"r{i}",
                              "expected_seq": 0})
    assert r.status_code == 429, r.get_json()
    assert "429" in _documented(client, "/api/sessions/{sid}/hands/{n}/actions", "post")

    app.config["REFEREE_HOST_KEY"] = "club-key"
    for _ in range(access.FREE_TRIES + 1):
        r = client.get("/api/club/people", headers={"X-Host-Key": "guess"})
    assert r.status_code == 429
    spec = client.get("/api/openapi.json").get_json()
    assert all("429" in op["responses"] for path, item in spec["paths"].items()
               if path.startswith("/api/club/") for op in item.values()
               if isinstance(op, dict) and "responses" in op)
