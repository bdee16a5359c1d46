"""A show with nothing picked from a hand the referee does not know
(newcomer45 P6b): the engine's sentence ("Ann holds 5 cards but the show
lists 0") said what was wrong and not what to do, on a page whose hint read
"nothing picked: the cards the referee knows". The tablet and a phone add
the way forward (pick the cards, or type the count on the pad), the API what
to send (the cards, or the count), in the reader's language."""

from __future__ import annotations

from html import unescape

from tests.test_tablet import act, create, flashes, hand_page, start

#: The hand page's "Counts only" pad, as each language names it.
COUNTS_ONLY = {"en": "“Counts only”", "de": "„Nur Punktzahlen“",
               "fr": "«\u00a0Comptes seuls\u00a0»", "pt": "“Só contagens”"}


def _dropped(client):
    """Hand 1 with no deal entered: Ben drops at once, and every hand shows."""
    sid = create(client)
    start(client, sid)  # no deal: the referee knows nobody's cards
    page = act(client, sid, 1, "drop")
    # No refusal (the page's offline words hold the sentence, for a show tapped offline).
    assert not [m for kind, m in flashes(page) if kind == "error"]
    return sid


def test_a_show_with_nothing_picked_says_what_to_do(client):
    sid = _dropped(client)
    for lang in ("en", "de", "fr", "pt"):
        client.get(f"/s/{sid}?lang={lang}")
        page = act(client, sid, 0, "show")  # Ann: nothing picked
        [said] = [unescape(m) for kind, m in flashes(page) if kind == "error"] or [None]
        assert said is not None and COUNTS_ONLY[lang] in said, (lang, flashes(page))
        # The engine's own sentence is still said before it, the count twice.
        assert said.count("5") == 2 and said.index("0") < said.index(COUNTS_ONLY[lang]), said
    client.get(f"/s/{sid}?lang=en")
    page = act(client, sid, 0, "show")
    text = unescape(" ".join(m for _k, m in flashes(page)))
    assert "Ann holds 5 cards but the show lists 0" in text
    assert "Pick the 5 cards Ann shows, or type their count under “Counts only”." in text
    assert "Counts only" in hand_page(client, sid)  # the pad it names is on the page
    # Cards picked that are too few: the engine's sentence alone (the picker is in use).
    page = act(client, sid, 0, "show", ["2c", "3d"])
    assert "Pick the" not in unescape(" ".join(m for _k, m in flashes(page)))


def test_the_api_says_what_to_send(client):
    r = client.post("/api/sessions", json={"format": "tonk-log/1", "players": ["Ann", "Ben", "Cy"],
                                           "rules": {"preset": "pagat"}, "stake": "0.25",
                                           "currency": "USD"})
    assert r.status_code == 201, r.get_json()
    sid, auth = r.get_json()["id"], {"Authorization": f"Bearer {r.get_json()['table_token']}"}
    assert client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann"},
                       headers=auth).status_code == 201
    seq = 0
    for line in ("Ben: drop", "Ann: show"):
        r = client.post(f"/api/sessions/{sid}/hands/1/actions", headers={
            **auth, "Accept-Language": "de"}, json={"action": line, "client_id": line,
                                                   "expected_seq": seq})
        seq += 1
    error = r.get_json()["error"]
    assert r.status_code == 422 and error["code"] == "wrong_show", error
    assert error["message"].endswith(
        ". Nenne die 5 Karten, die Ann zeigt, oder gib stattdessen ihre Punktzahl an: "
        "„Ann: show =N“."), error
    # Told its count, the show is logged.
    r = client.post(f"/api/sessions/{sid}/hands/1/actions", headers=auth,
                    json={"action": "Ann: show =23", "client_id": "c", "expected_seq": 1})
    assert r.status_code == 201, r.get_json()
