"""The tablet pages through Flask's test client: forms, PIN, CSRF, idempotent
taps, refusals, undo, escaping."""

from __future__ import annotations

import copy
import html
import json
import re
import secrets
import sys
from collections import Counter
from pathlib import Path

import pytest

from referee.rules.catches import CATCH_SCHEMES
from referee.rules.errors import RefereeError
from referee.rules.hand import Hand
from referee.rules.options import OPTION_DOCS
from referee.service import storage
from referee.service.table import action, cache, hands, sessions
from referee.web import create_app

XSS = "<script>alert(1)</script>"
PIN = "4321"

# Every card known: Ben spreads kings, Cy takes the upcard, Ann drops with 16
# and is caught by Ben's 12.
CAUGHT_DEAL = {
    "Ann": ["2c", "3d", "As", "Ah", "9s"],
    "Ben": ["Ks", "Kh", "Kd", "Qs", "4c"],
    "Cy": ["Jh", "Js", "9c", "9d", "5d"],
}


def token(client, path="/new") -> str:
    # Followed: a form that may not be used now leads to the page that says why.
    page = client.get(path, follow_redirects=True)
    m = re.search(rb'name="csrf_token" value="([^"]+)"', page.data)
    assert m, page.data[:500]
    return m.group(1).decode()


def create(client, players=("Ann", "Ben", "Cy"), **extra) -> str:
    data = {"csrf_token": token(client), "stake": "0.25", "currency": "USD", "preset": "pagat",
            "pin": PIN, "pin2": PIN, "table": "Back room"}
    for i, p in enumerate(players, 1):
        data[f"player{i}"] = p
    data.update(extra)
    r = client.post("/new", data=data)
    assert r.status_code == 303, r.data.decode()[:2000]
    m = re.fullmatch(r"/s/([0-9a-f]+)", r.headers["Location"])
    assert m
    return m.group(1)


def start(client, sid, dealer="Ann", deal=None, upcard=None, players=("Ann", "Ben", "Cy"),
          client_id="start-1"):
    data = {"csrf_token": token(client, f"/s/{sid}/hands/new"), "dealer": dealer,
            "client_id": client_id}
    for name, cards in (deal or {}).items():
        data[f"deal{players.index(name)}"] = cards
    if upcard:
        data["upcard"] = upcard
    return client.post(f"/s/{sid}/hands/new", data=data)


def hand_page(client, sid, n=1) -> str:
    r = client.get(f"/s/{sid}/hands/{n}")
    assert r.status_code == 200
    return r.data.decode()


def form_value(page: str, name: str) -> str:
    m = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert m, name
    return m.group(1)


def act(client, sid, who: int, verb: str, cards=(), spread=None, n=1, client_id=None,
        expected_seq=None):
    """Tap a button as the hand screen offers it; returns the page after the redirect."""
    page = hand_page(client, sid, n)
    data = {"csrf_token": form_value(page, "csrf_token"),
            "client_id": client_id or form_value(page, "client_id"),
            "expected_seq": expected_seq if expected_seq is not None
            else form_value(page, "expected_seq"),
            "act": f"{who}:{verb}", "card": list(cards)}
    if spread:
        data["spread"] = spread
    r = client.post(f"/s/{sid}/hands/{n}/act", data=data)
    if r.headers.get("Location", "").endswith("/confirm"):
        # An action that ends play asks for a second tap, showing what it settles
        # on a page of its own (a GET: back and forward never meet the post).
        assert 'id="confirm-yes"' in client.get(r.headers["Location"]).data.decode()
        r = client.post(f"/s/{sid}/hands/{n}/act", data={**data, "confirm": "1"})
    assert r.status_code == 303
    return client.get(r.headers["Location"]).data.decode()


def flashes(page: str) -> list[str]:
    return re.findall(r'class="flash flash-(\w+)"[^>]*>([^<]*)<', page)


def seq_of(page: str) -> int:
    return int(re.search(r'id="seq">(\d+)<', page).group(1))


# ---------------------------------------------------------------- create, unlock


def test_create_page_explains_every_option(client):
    page = client.get("/new").data.decode()
    for name, doc in OPTION_DOCS.items():
        assert f'name="opt_{name}"' in page
        assert doc.replace("'", "&#39;").replace('"', "&#34;") in page
    assert "Values: 0 to 4; typical game: 0" in page
    assert "built-in method" not in page
    assert "chicago" in page and "Mike Foulds, Chicago" in page
    control = re.search(r'<select name="opt_caught".*?</select>', page, re.S).group(0)
    offered = re.findall(r'<option value="&#34;(\w+)&#34;"', control)
    assert offered == list(CATCH_SCHEMES)  # the registry's schemes, double_to_beaters too


def test_create_opens_the_table_and_lists_it(client):
    sid = create(client, opt_upcard="false", opt_hit_wait="1")
    page = client.get(f"/s/{sid}").data.decode()
    assert "Ann, Ben, Cy" in page
    assert "upcard: no" in page and "wait after being hit: 1" in page
    assert "Start hand 1 (Ann deals)" in page
    home = client.get("/").data.decode()
    assert f"/s/{sid}" in home and "Back room" in home


@pytest.mark.parametrize("typed", ["chips", "Dollar", "€€€€"])
def test_a_currency_that_names_no_one_code_is_refused(client, typed):
    """A table opened at the tablet plays for money in a currency the
    referee knows, or for points: "chips" was kept as a currency, and
    "Dollar" (US, Canadian, ...) too, as typed (forms46, newcomer46 N3)."""
    data = {"csrf_token": token(client), "stake": "1", "preset": "pagat", "pin": PIN,
            "pin2": PIN, "player1": "Ann", "player2": "Ben", "currency": typed}
    r = client.post("/new", data=data)
    assert r.headers["Location"] == "/new"
    page = html.unescape(client.get("/new").data.decode())
    assert f'Currency: a currency\'s code, like EUR, or nothing to play for points, not "{typed}"' \
        in page


@pytest.mark.parametrize(("typed", "lang", "kept"), [
    ("€", "de", "EUR"), ("eur", "en", "EUR"), ("$", "en", "USD"), ("$", "fr", "USD"),
    ("£", "pt", "GBP"), ("CHF", "fr", "CHF"), ("", "en", None),
    # newcomer44 P10: "Euro"/"EURO" made a currency of their own beside EUR
    ("Euro", "en", "EUR"), ("EURO", "de", "EUR"), ("euros", "fr", "EUR"), ("Euros", "pt", "EUR"),
    ("US$", "en", "USD"), ("US dollars", "de", "USD"), ("Schweizer  Franken", "de", "CHF"),
])
def test_a_currency_typed_as_its_symbol_is_kept_as_its_code(app, client, typed, lang, kept):
    """A table opened in "€" was a currency of its own beside "EUR": the
    club could not add the two, nor a debt be carried between them."""
    client.get(f"/new?lang={lang}")
    sid = create(client, currency=typed)
    with app.app_context():
        from referee.web.db import get_db
        assert storage.sessions.row(get_db(), sid)["currency"] == kept


@pytest.mark.parametrize(("fields", "message"), [
    ({"player2": "", "player3": ""}, "Players: at least 2, their names in seat order"),
    ({"stake": "-1"}, "Stake per unit: a decimal greater than 0"),
    ({"pin": "12", "pin2": "12"}, "PIN: 4 to 12 digits"),
    ({"pin2": "9999"}, "PIN again: the same PIN as above"),
    ({"opt_jokers": "7"}, "Jokers: cannot be 7: expected a whole number from 0 to 4"),
    ({"player2": "Ann"}, "unique"),
    ({"player2": "B:en"}, "cannot contain &#39;:&#39;"),
    ({"currency": "Zwanzig Bierdeckel"}, "Currency: a currency&#39;s code, like EUR, or nothing"),
])
def test_create_refuses_with_the_reason_and_keeps_the_input(client, fields, message):
    data = {"csrf_token": token(client), "stake": "0.25", "preset": "pagat", "pin": PIN,
            "pin2": PIN, "player1": "Ann", "player2": "Ben", "player3": "Cy",
            "table": "Kept table name"}
    data.update(fields)
    r = client.post("/new", data=data)
    # back to the form's own page (a GET: a reload posts nothing), as typed
    assert r.status_code == 303 and r.headers["Location"] == "/new"
    page = client.get("/new").data.decode()
    assert message in page
    assert 'value="Kept table name"' in page
    assert 'value="' + PIN not in page  # the PINs are typed again, never kept
    assert message not in client.get("/new").data.decode()  # said once, as a flash is
    assert client.get("/").data.decode().count("/s/") == 0


def test_other_devices_need_the_pin(app, client):
    sid = create(client)
    other = app.test_client()
    r = other.get(f"/s/{sid}/hands/new")
    assert r.status_code == 302
    assert r.headers["Location"].startswith(f"/s/{sid}/unlock?next=")
    tok = token(other, f"/s/{sid}/unlock")
    r = other.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": "0000"})
    assert r.status_code == 403
    assert "does not open with that PIN" in r.data.decode()
    r = other.post(f"/s/{sid}/unlock",
                   data={"csrf_token": tok, "pin": PIN, "next": f"/s/{sid}/hands/new"})
    assert r.status_code == 303 and r.headers["Location"] == f"/s/{sid}/hands/new"
    assert other.get(f"/s/{sid}/hands/new").status_code == 200


def test_unlock_never_redirects_off_site(app, client):
    sid = create(client)
    other = app.test_client()
    tok = token(other, f"/s/{sid}/unlock")
    r = other.post(f"/s/{sid}/unlock",
                   data={"csrf_token": tok, "pin": PIN, "next": "//evil.example/x"})
    assert r.headers["Location"] == f"/s/{sid}"


def test_wrong_pins_are_rate_limited_for_the_guessing_address(app, client):
    sid = create(client)
    other = app.test_client()
    tok = token(other, f"/s/{sid}/unlock")
    for _ in range(5):
        r = other.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": "1111"})
        assert r.status_code == 403
    # Even the right PIN waits now: guessing must not go on at full speed.
    r = other.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": PIN})
    assert r.status_code == 429
    assert "Too many wrong PINs for this table: try again at" in r.data.decode()
    assert other.get(f"/s/{sid}").status_code == 302
    # A second browser at the same address is the same guesser.
    third = app.test_client()
    tok3 = token(third, f"/s/{sid}/unlock")
    r = third.post(f"/s/{sid}/unlock", data={"csrf_token": tok3, "pin": PIN})
    assert r.status_code == 429


def test_host_key_is_needed_when_set(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "h.sqlite3"), "SECRET_KEY": "s",
                      "REFEREE_HOST_KEY": "hostkey"})
    client = app.test_client()
    assert 'name="host_key"' in client.get("/new").data.decode()
    data = {"csrf_token": token(client), "stake": "1", "preset": "pagat", "pin": PIN,
            "pin2": PIN, "player1": "Ann", "player2": "Ben", "host_key": "nope"}
    r = client.post("/new", data=data)
    assert r.status_code == 403 and "Host key: not this referee&#39;s" in r.data.decode()
    r = client.post("/new", data={**data, "host_key": "hostkey"})
    assert r.status_code == 303


# ---------------------------------------------------------------- CSRF


def test_every_post_needs_the_csrf_token(client):
    sid = create(client)
    start(client, sid)
    posts = ["/new", "/open", f"/s/{sid}/unlock", f"/s/{sid}/hands/new",
             f"/s/{sid}/hands/1/act", f"/s/{sid}/hands/1/undo"]
    for path in posts:
        r = client.post(path, data={"act": "1:draw", "pin": PIN})
        assert r.status_code == 400, path
        assert "CSRF" in r.data.decode()
        r = client.post(path, data={"act": "1:draw", "pin": PIN, "csrf_token": "forged"})
        assert r.status_code == 400, path
    assert seq_of(hand_page(client, sid)) == 0


def test_the_token_belongs_to_the_browser(app, client):
    sid = create(client)
    mine = token(client)
    other = app.test_client()
    token(other)  # the other browser has a token of its own
    r = other.post(f"/s/{sid}/unlock", data={"csrf_token": mine, "pin": PIN})
    assert r.status_code == 400


# ---------------------------------------------------------------- the hand


def test_start_a_hand_with_the_suggested_dealer_and_partial_deal(client):
    sid = create(client)
    page = client.get(f"/s/{sid}/hands/new").data.decode()
    assert "Ann deals this hand" in page
    assert 'value="Ann" checked' in page
    r = start(client, sid, deal={"Ben": ["Ks", "Kh"]}, upcard="7d")
    assert r.status_code == 303 and r.headers["Location"] == f"/s/{sid}/hands/1"
    page = hand_page(client, sid)
    assert 'id="to-act">Ben<' in page
    assert "+3 unknown" in page  # two of Ben's five cards were seen
    assert 'id="stock">36<' in page


def test_start_refuses_the_wrong_dealer_with_the_rule(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    play_caught_hand(client, sid)
    r = start(client, sid, dealer="Cy", client_id="start-2")
    assert r.status_code == 303 and r.headers["Location"] == f"/s/{sid}/hands/new"
    page = client.get(r.headers["Location"]).data.decode()
    assert "Ben deals this hand (the deal passes to the left of Ann), not Cy" in page


def test_a_double_tap_logs_one_action(client):
    sid = create(client)
    start(client, sid)
    page = hand_page(client, sid)
    cid = form_value(page, "client_id")
    act(client, sid, 1, "draw", client_id=cid, expected_seq=0)
    page = act(client, sid, 1, "draw", client_id=cid, expected_seq=0)
    assert seq_of(page) == 1
    assert not [f for f in flashes(page) if f[0] == "error"]
    assert page.count("Ben: draw") == 1


def test_a_refused_action_names_the_rule_and_changes_nothing(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    act(client, sid, 1, "draw", ["8c"])
    before = hand_page(client, sid)
    page = act(client, sid, 1, "spread", ["Qs", "4c", "8c"])
    (kind, text), = flashes(page)
    assert kind == "error"
    # Its cards as the page writes them (newcomer N2), not "Qs 4c 8c".
    assert "Q♠ 4♣ 8♣ is neither a book" in text and "Ben: spread Q♠ 4♣ 8♣" in text
    assert '<small class="code">(rule invalid_spread)</small>' in page
    # The receipt moves on (and the table's newest event the page says, for
    # live.js): the refused try is kept in the record.
    strip = re.compile(r'name="(client_id|csrf_token)" value="[^"]*"|data-render="[^"]*"|'
                       r'data-(seq|head)="[^"]*"|'
                       r'<p class="flash.*?</p>|<p class="muted receipt">.*?</p>', re.S)
    def same(p):
        return re.sub(r"\s+", " ", strip.sub("", p))

    assert same(page) == same(before)
    assert seq_of(page) == 1


def test_a_stale_screen_is_refused(client):
    sid = create(client)
    start(client, sid)
    act(client, sid, 1, "draw")
    page = act(client, sid, 1, "discard", ["4c"], expected_seq=0)
    assert "the hand changed since this screen was loaded" in page
    assert seq_of(page) == 1


def test_a_button_must_name_a_seat(client):
    sid = create(client)
    start(client, sid)
    page = act(client, sid, 9, "draw")
    assert "Tap one of the action buttons" in page


def test_undo_keeps_the_original_in_the_history(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    page = act(client, sid, 1, "draw", ["8c"])
    assert 'id="stock">35<' in page
    r = client.post(f"/s/{sid}/hands/1/undo",
                    data={"csrf_token": form_value(page, "csrf_token"), "client_id": "u1",
                          "expected_seq": "1"})
    assert r.status_code == 303
    # The same tap again changes nothing more.
    client.post(f"/s/{sid}/hands/1/undo",
                data={"csrf_token": form_value(page, "csrf_token"), "client_id": "u1",
                      "expected_seq": "1"})
    page = client.get(r.headers["Location"]).data.decode()
    assert ("ok", "Undone: Ben draws 8♣. It stays in the history, marked as undone.") \
        in flashes(page)
    assert seq_of(page) == 0 and 'id="stock">36<' in page
    assert '<li class="corrected" value="1">Ben: draw 8♣ <small>(undone)</small></li>' in page
    # 8c is free again.
    assert 'value="8c" disabled' not in page
    page = act(client, sid, 1, "draw", ["8c"])
    assert seq_of(page) == 1


def test_nothing_to_undo(client):
    sid = create(client)
    start(client, sid)
    tok = token(client, f"/s/{sid}/hands/1")
    r = client.post(f"/s/{sid}/hands/1/undo", data={"csrf_token": tok, "client_id": "u"})
    page = client.get(r.headers["Location"]).data.decode()
    assert "no action to undo" in page and "(rule nothing_to_undo)" in page


def play_caught_hand(client, sid) -> str:
    act(client, sid, 1, "draw", ["8c"])
    act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])
    act(client, sid, 1, "discard", ["Qs"])
    act(client, sid, 2, "take")
    act(client, sid, 2, "discard", ["Jh"])
    page = act(client, sid, 0, "drop")
    assert "Show" in page
    for seat in (0, 1, 2):
        # Nothing picked: the referee knows every card, so the show is those cards.
        page = act(client, sid, seat, "show")
    return page


def test_a_whole_hand_with_its_settlement_in_words(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    page = act(client, sid, 1, "draw", ["8c"])
    assert 'value="Ks">' in page and "tile-held" in page
    assert 'value="7d" disabled' in page  # the upcard is on the pile
    page = act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])
    assert "<b>S1</b> <span class=\"owner\">Ben:</span>" in page
    page = play_caught_hand_rest(client, sid)
    assert 'id="result"' in page
    assert "Caught" in page
    assert "Ann dropped with 16" in page
    assert "Ann pays Ben" in page
    standings = client.get(f"/s/{sid}/standings").data.decode()
    assert "Caught" in standings and "To settle up now" in standings
    session = client.get(f"/s/{sid}").data.decode()
    assert "Start hand 2 (Ben deals)" in session


def play_caught_hand_rest(client, sid) -> str:
    act(client, sid, 1, "discard", ["Qs"])
    page = act(client, sid, 2, "take")
    # the flash names the card taken, as the history does (issue 35)
    assert ("ok", "✓ Cy takes Q♠.") in flashes(page), flashes(page)
    assert 'id="top"><span class="c c-red">7♦</span> <small>(2)' not in page
    assert 'id="top"><span class="c c-red">7♦</span></dd>' in page
    act(client, sid, 2, "discard", ["Jh"])
    act(client, sid, 0, "drop")
    for seat in (0, 1, 2):
        page = act(client, sid, seat, "show")
    return page


def test_a_tonk_out(client):
    sid = create(client, players=("Ann", "Ben"))
    start(client, sid, deal={"Ben": ["5h", "6h", "7h", "3s", "3c"]}, upcard="3d",
          players=("Ann", "Ben"))
    act(client, sid, 1, "take")
    act(client, sid, 1, "spread", ["5h", "6h", "7h"])
    page = act(client, sid, 1, "spread", ["3s", "3c", "3d"])
    assert "Tonk out" in page
    assert "Ann pays Ben $0.50" in page


def test_a_hit_needs_its_spread_and_keeps_what_was_picked(client):
    """Newcomer N1: a card picked, "Hit" tapped before the spread: the page
    asks for the spread, and the card must still be picked; a hit without
    its card says so in the player's words, not the log's line."""
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    act(client, sid, 1, "draw", ["8c"])
    act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])
    page = act(client, sid, 1, "hit", ["Qs"])
    assert "Choose the spread to hit" in page
    assert re.search(r'value="Qs"[^>]* checked', page)
    page = act(client, sid, 1, "hit", [], spread="S1")
    (kind, text), = flashes(page)
    assert kind == "error" and text == "Pick the card to hit with among the cards, then tap Hit."
    assert not re.search(r'value="Qs"[^>]* checked', page)
    # Kept for the page drawn next only.
    assert re.search(r'value="Qs"[^>]* checked', act(client, sid, 1, "hit", ["Qs"]))
    assert not re.search(r'value="Qs"[^>]* checked', hand_page(client, sid))
    # With both, the engine judges the hit.
    assert "Q♠ does not extend S1" in act(client, sid, 1, "hit", ["Qs"], spread="S1")


def test_missing_table_and_hand_are_404_pages(client):
    # To a stranger an unknown table looks like a locked one (docs/decisions.md).
    assert client.get("/s/nosuchtable").headers["Location"] == "/s/nosuchtable/unlock?next=" \
        "/s/nosuchtable"
    sid = create(client)
    r = client.get(f"/s/{sid}/hands/5")
    assert r.status_code == 404 and b"There is no such table or hand" in r.data


# ---------------------------------------------------------------- escaping


def test_names_are_escaped_everywhere(client):
    sid = create(client, players=("Ann", XSS, "Cy"), table=XSS)
    deal = {"Ann": CAUGHT_DEAL["Ann"], XSS: CAUGHT_DEAL["Ben"], "Cy": CAUGHT_DEAL["Cy"]}
    start(client, sid, deal=deal, upcard="7d", players=("Ann", XSS, "Cy"))
    act(client, sid, 1, "draw", ["8c"])
    refused = act(client, sid, 2, "drop")  # out of turn: the message names the player
    pages = [client.get(p).data.decode() for p in
             ("/", f"/s/{sid}", f"/s/{sid}/hands/new", f"/s/{sid}/standings")]
    pages += [refused, hand_page(client, sid)]
    for page in pages:
        assert XSS not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[1]
    assert "It is &lt;script&gt;alert(1)&lt;/script&gt;&#39;s turn" in refused
    headers = client.get(f"/s/{sid}").headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]


def test_a_deal_win_is_declared_with_the_known_cards(client):
    sid = create(client)
    start(client, sid, deal={"Ben": ["Ks", "Kh", "Kd", "Qs", "9c"]}, upcard="7d")
    page = hand_page(client, sid)
    assert 'value="1:declare"' in page
    page = act(client, sid, 1, "draw")
    assert "must declare it before play starts" in page
    page = act(client, sid, 1, "declare")
    assert "Deal win" in page and "Ben was dealt 49" in page


def test_the_session_page_leads_back_to_the_hand_in_play(client):
    sid = create(client)
    start(client, sid)
    act(client, sid, 1, "draw")
    page = client.get(f"/s/{sid}").data.decode()
    # Said as a fact of the table: the device opening it may never have been
    # on the hand (a phone that just joined), so not "back to" it.
    assert "Hand 1 in play (Ben to act)" in page and "Back to" not in page
    assert "· in play" in page


@pytest.mark.parametrize("lang, said", [
    ("en", "Who holds a deal win? {names}"),
    ("de", "Wer hat einen automatischen Gewinn? {names}"),
    ("fr", "Qui a une victoire immédiate\xa0? {names}"),
    ("pt", "Quem tem uma vitória imediata? {names}")])
def test_the_folded_declare_rows_ask_what_a_player_would(client, lang, said):
    """Under ``dc`` everyone may declare at the first turn; the folded rows
    ask the table's question and name who may answer it (not "Declare a deal
    win (3 player)")."""
    players = ("Ann", "Ben", "Cy", "Dev")
    sid = create(client, players=players, preset="dc", language=lang)
    start(client, sid, dealer="Ann", players=players)
    page = hand_page(client, sid)
    summary = re.search(r'<details class="actor declares" id="declares"><summary>(.*?)</summary>',
                        page)
    assert summary, page
    to_act = re.search(r'<span class="who">(\w+) <small>', page).group(1)
    # Everyone but the player to act (whose row offers it beside the rest).
    assert summary.group(1) == said.format(names=", ".join(p for p in players if p != to_act))


def test_an_earlier_hand_is_read_only(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    play_caught_hand(client, sid)
    assert start(client, sid, dealer="Ben", client_id="start-2").status_code == 303
    page = hand_page(client, sid, 1)
    assert "Caught" in page
    assert 'id="undo"' not in page and "Start the next hand" not in page
    assert 'id="undo"' not in hand_page(client, sid, 2)  # nothing logged yet


def test_the_seq_endpoint_tells_a_tablet_when_to_reload(app, client):
    sid = create(client)
    start(client, sid)
    assert client.get(f"/s/{sid}/hands/1/seq").get_json() == {"seq": 0, "complete": False}
    act(client, sid, 1, "draw")
    assert client.get(f"/s/{sid}/hands/1/seq").get_json()["seq"] == 1
    assert app.test_client().get(f"/s/{sid}/hands/1/seq").status_code == 403


def test_a_slap_by_another_player_owes_an_extra_discard(client):
    sid = create(client, opt_slapping='"on"')
    start(client, sid, deal={"Ben": ["Ks", "Kh", "Kd", "4c", "5c"]}, upcard="7d")
    act(client, sid, 1, "draw", ["2c"])
    act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])
    act(client, sid, 1, "discard", ["2c"])
    act(client, sid, 2, "draw", ["Kc"])
    page = act(client, sid, 2, "discard", ["Kc"])
    # Ann is next and may play on; anyone may slap the king onto S1.
    assert 'value="0:draw"' in page and 'value="1:slap"' in page
    page = act(client, sid, 1, "slap", spread="S1")
    assert not [f for f in flashes(page) if f[0] == "error"], flashes(page)
    assert "K♣" in page.split('id="spreads"')[1].split("</section>")[0]
    assert 'id="to-act">Ben<' in page and 'value="1:discard"' in page


def test_an_imported_table_without_pin_unlocks_with_its_table_token(client, app):
    from referee.web.db import get_db

    log = {"format": "tonk-log/1", "stake": "1", "rules": "pagat", "players": ["Ann", "Ben"]}
    with app.app_context():
        info = sessions.import_log(get_db(), log)
    page = client.get(f"/s/{info.id}")
    assert page.status_code in (302, 303) and "/unlock" in page.headers["Location"]
    form = client.get(f"/s/{info.id}/unlock").get_data(as_text=True)
    assert "table token" in form
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    bad = client.post(f"/s/{info.id}/unlock", data={"csrf_token": token, "pin": "nope"})
    assert bad.status_code == 403 and "token." in bad.get_data(as_text=True)
    assert client.post(f"/s/{info.id}/unlock", data={"csrf_token": token,
                                                     "pin": info.audit_token}).status_code == 403
    ok = client.post(f"/s/{info.id}/unlock", data={"csrf_token": token, "pin": info.table_token})
    assert ok.status_code == 303
    assert client.get(f"/s/{info.id}").status_code == 200


def _at_ann_s_drop(client) -> tuple[str, dict]:
    """A table where Ann may drop (five actions in), and her drop tap's form."""
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    for who, verb, cards in ((1, "draw", ["8c"]), (1, "spread", ["Ks", "Kh", "Kd"]),
                             (1, "discard", ["Qs"]), (2, "take", []), (2, "discard", ["Jh"])):
        act(client, sid, who, verb, cards)
    page = hand_page(client, sid)
    return sid, {"csrf_token": form_value(page, "csrf_token"),
                 "client_id": form_value(page, "client_id"),
                 "expected_seq": form_value(page, "expected_seq"), "act": "0:drop"}


def test_a_drop_asks_for_a_second_tap_and_a_settled_hand_has_no_undo(client):
    sid, data = _at_ann_s_drop(client)
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    # The first tap only shows what the drop would do: nothing is logged.
    assert r.status_code == 303
    r = client.get(r.headers["Location"])
    assert r.status_code == 200 and 'id="confirm-yes"' in r.data.decode()
    assert "Ann drops" in r.data.decode()
    assert seq_of(hand_page(client, sid)) == 5
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1"})
    assert r.status_code == 303 and seq_of(hand_page(client, sid)) == 6
    # Every hand is known: one tap (and its confirmation) shows them all.
    page = hand_page(client, sid)
    assert 'id="show-all"' in page
    shows = re.findall(r'name="show" value="([^"]+)"', page)
    data = {"csrf_token": form_value(page, "csrf_token"),
            "client_id": form_value(page, "client_id"),
            "expected_seq": "6", "act": "all:show", "show": shows}
    r = client.get(client.post(f"/s/{sid}/hands/1/act", data=data).headers["Location"])
    assert "Ann pays Ben" in r.data.decode() and 'id="confirm-yes"' in r.data.decode()
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1"})
    page = client.get(r.headers["Location"]).data.decode()
    assert 'id="result"' in page and 'id="undo"' not in page
    # The tap that ended the hand says its result, not its three shows run on
    # (newcomer F2), in the words the result is said with.
    flashed = flashes(page)
    assert flashed == [("ok", "✓ Hand 1 is over: caught, Ben wins.")], flashed


def test_a_drops_confirm_page_shows_every_known_hand_with_it(client):
    """With every card entered, a drop took five taps and two confirm pages
    (newcomer F3): its confirm page offers the shows of the hands the referee
    knows with it, and one tap settles the hand."""
    sid, data = _at_ann_s_drop(client)
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    page = client.get(r.headers["Location"]).data.decode()
    assert "Log it and show every known hand (3)" in page
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1", "show_known": "1"})
    page = client.get(r.headers["Location"]).data.decode()
    assert 'id="result"' in page and "Ann pays Ben" in page
    assert flashes(page) == [("ok", "✓ Hand 1 is over: caught, Ben wins.")]


def test_a_tap_kept_for_its_confirm_step_fits_the_session_cookie(client):
    """A field typed long to break it made the session cookie too long for a
    browser, which drops it whole (the tables this tablet unlocked with it);
    the confirm step keeps what a tap's fields can be, and still asks."""
    sid, data = _at_ann_s_drop(client)
    data.update(note=secrets.token_hex(2500),  # random, as the session cookie is compressed
                **{f"junk{k}": secrets.token_hex(75) for k in range(40)})
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    assert r.status_code == 303
    cookie = client.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 4000, len(cookie.value)
    confirm = client.get(r.headers["Location"])
    assert confirm.status_code == 200 and 'id="confirm-yes"' in confirm.data.decode()


def test_a_hand_of_cards_not_entered_says_no_unknown_cards_beside_none_known(client):
    """"5 cards" and under it "+5 unknown" read as ten cards (the newcomer's
    F4): the unknown ones are said only beside cards that are known."""
    sid = create(client)
    start(client, sid)  # no deal entered
    page = hand_page(client, sid)
    assert not re.search(r"\+\d+ unknown", page)
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    act(client, sid, 1, "draw", [])  # a card not seen joins Ben's five known
    page = hand_page(client, sid)
    assert re.findall(r"\+\d+ unknown", page) == ["+1 unknown"]


def test_a_tap_swapped_in_by_tablet_js_gets_the_hand_page_itself(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    page = hand_page(client, sid)
    r = client.post(f"/s/{sid}/hands/1/act", headers={"X-Tablet-Swap": "1"}, data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": form_value(page, "client_id"),
        "expected_seq": "0", "act": "1:draw", "card": ["8c"]})
    assert r.status_code == 200 and r.headers["X-Hand-Page"] == f"/s/{sid}/hands/1"
    assert "✓ Ben draws 8♣." in r.data.decode() and 'id="seq">1<' in r.data.decode()


def test_a_tap_judges_once_and_leaves_the_state_a_rebuild_gives(app, client, monkeypatch):
    # One verify per action tapped and one enumeration of what is legal next
    # (for the page the tap answers with); no action applied again. Counted
    # where the service asks: the enumeration tries its candidates itself.
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    counted: Counter = Counter()

    def counter(name: str):
        real = getattr(Hand, name)

        def counting(self, *args):
            if not sys._getframe(1).f_globals["__name__"].startswith("referee.rules."):
                counted[name] += 1
            return real(self, *args)
        return counting

    for name in ("verify", "apply", "legal_actions"):
        monkeypatch.setattr(Hand, name, counter(name))
    for who, verb, cards in ((1, "draw", ["8c"]), (1, "spread", ["Ks", "Kh", "Kd"]),
                             (1, "discard", ["Qs"]), (2, "take", []), (2, "discard", ["Jh"])):
        page = hand_page(client, sid)
        counted.clear()
        r = client.post(f"/s/{sid}/hands/1/act", headers={"X-Tablet-Swap": "1"}, data={
            "csrf_token": form_value(page, "csrf_token"),
            "client_id": form_value(page, "client_id"),
            "expected_seq": form_value(page, "expected_seq"), "act": f"{who}:{verb}",
            "card": cards})
        assert r.status_code == 200 and not flashes(r.data.decode())[:-1], flashes(r.data.decode())
        assert counted == {"verify": 1, "legal_actions": 1}, (verb, counted)
    act(client, sid, 0, "drop")
    page = hand_page(client, sid)
    act_all = {"csrf_token": form_value(page, "csrf_token"), "expected_seq": "6",
               "client_id": form_value(page, "client_id"), "act": "all:show",
               "show": re.findall(r'name="show" value="([^"]+)"', page), "confirm": "1"}
    assert client.post(f"/s/{sid}/hands/1/act", data=act_all).status_code == 303
    # The state the taps left in the cache is the one the database rebuilds.
    db = storage.connect(app.config["DATABASE"])
    swapped = hands.hand_state(db, sid, 1)
    assert swapped["complete"] and swapped["result"]["net"]
    cache.drop(db, sid)
    assert hands.hand_state(db, sid, 1) == swapped


def test_the_start_form_waits_for_the_hand_in_play(client):
    sid = create(client)
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    r = client.get(f"/s/{sid}/hands/new")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/s/{sid}/hands/1")


def test_cards_in_words():
    from referee.rules.cards import action_words, pretty

    assert pretty("Ben: hit S1 7c") == "Ben: hit S1 7♣"
    assert pretty("Ks: show Th Xa") == "Ks: show 10♥ Xa"
    assert action_words("Ben: discard 9d") == "Ben discards 9♦"
    assert action_words("Ben: hit S2 7c") == "Ben hits S2 with 7♣"
    assert action_words("Cy: draw") == "Cy draws (card not seen)"


def test_the_payment_form_starts_on_two_different_players(client):
    # A payment to oneself is refused: both lists starting on Ann helped nobody.
    sid = create(client)
    page = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    paid = re.search(r'id="from-who-paid".*?</select>', page, re.S).group(0)
    to = re.search(r'id="to-to-whom".*?</select>', page, re.S).group(0)
    assert "<option selected>Ann</option>" in paid
    assert "<option selected>Ben</option>" in to


def _sample_hands():
    from referee.ledger.results import hand_standing
    from referee.record import load_log
    from referee.replay import start_on
    from referee.rules.options import resolve
    from referee.rules.table import Table

    for path in sorted(Path(__file__).resolve().parents[1].glob("sample_logs/*.json")):
        if path.name.endswith(".expected.json") or path.name.startswith("err_"):
            continue
        try:
            log = load_log(json.loads(path.read_text()))
            table = Table(resolve(log["rules"]), log["players"], settle=hand_standing)
        except RefereeError:
            continue  # a log the referee refuses whole
        for setup in log["hands"]:
            try:
                hand = start_on(table, setup)
            except RefereeError:
                break
            yield path.name, hand, setup.get("actions", ())


def test_a_tap_judges_on_a_copy_that_leaves_the_live_hand_as_it_was():
    # Every step of every sample hand: the next action applied to the copy
    # changes the copy alone (a part of the hand the copy shared would change
    # the live one too, which the cache serves until the write commits).
    checked = 0
    for name, hand, actions in _sample_hands():
        for text in actions:
            before = copy.deepcopy(hand)
            work = action._copy_hand(hand)
            try:
                work.apply(text)
            except RefereeError:
                break
            assert vars(hand) == vars(before), (name, hand.number, text)
            assert len(work.actions) == len(hand.actions) + 1
            hand.apply(text)
            assert work.snapshot() == hand.snapshot(), (name, hand.number, text)
            checked += 1
    assert checked > 500


def test_what_a_page_hides_a_script_shows_and_what_it_marks_a_script_reads(client):
    """Every hidden part of the hand page is one a script of the page shows
    (``#moved``, 'Another tablet has logged an action', was never shown: the
    live stream redraws the page instead), and every ``data-`` mark of it is
    one a script reads (``data-poll`` named the polling live.js replaced)."""
    scripts = "".join(p.read_text() for p in
                      (Path(__file__).resolve().parent.parent / "referee/web/static").glob("*.js"))
    sid = create(client)
    start(client, sid)
    page = hand_page(client, sid)
    hidden = re.findall(r'<[a-z]+ [^>]*\bid="([\w-]+)"[^>]*\bhidden\b', page)
    assert hidden and [i for i in hidden if i not in scripts] == []
    marks = set(re.findall(r'\bdata-([a-z-]+)=', page))
    def read(mark: str) -> bool:
        camel = re.sub(r"-([a-z])", lambda m: m.group(1).upper(), mark)
        # Read as ``dataset.x``, through a dataset held aside (``data().x``),
        # or by its attribute's name.
        return re.search(rf"\.{camel}\b", scripts) is not None or f"data-{mark}" in scripts
    # ``data-render`` is each rendering's own id, for the browser tests to wait on.
    assert marks and sorted(m for m in marks - {"render"} if not read(m)) == []


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_home_marks_a_closed_table_and_names_everyone_who_sat(client, lang):
    """Issue 35 leftovers: the home page named a table's opening four
    players (not who sat down later) and did not say which tables are
    closed. It marks a closed table in the reader's words and names
    everyone who sat, up to the create form's seats, then how many more."""
    from referee import language
    from referee.web.forms import MAX_SEATS

    big = create(client, players=("Ann", "Ben", "Cy", "Dee"), table="Big night")
    comers = ["Eve", "Fay", "Gus", "Hal", "Ida"]
    csrf = token(client, f"/s/{big}/manage")
    for name in comers:
        r = client.post(f"/s/{big}/manage/seat", data={"player": name, "csrf_token": csrf})
        assert r.status_code == 303
    done = create(client, players=("Ann", "Ben"), table="Done night")
    r = client.post(f"/s/{done}/manage/close", data={"sure": "1", "csrf_token": csrf})
    assert r.status_code == 303
    home = client.get(f"/?lang={lang}").data.decode()

    def row(sid: str) -> str:
        return re.search(rf'<li[^>]*>\s*<a href="/s/{sid}">.*?</li>', home, re.S).group(0)

    closed = language.gettext(lang, "Closed")
    assert closed in row(done) and closed not in row(big)
    everyone = ["Ann", "Ben", "Cy", "Dee", *comers]
    assert len(everyone) == MAX_SEATS + 1
    more = language.ngettext(lang, "{names} and {num} more", "{names} and {num} more", 1,
                             names=", ".join(everyone[:MAX_SEATS]), num=1)
    assert more in row(big) and "Ida" not in row(big)
    assert "Ann, Ben ·" in row(done) or "Ann, Ben <" in row(done)


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_home_says_an_unnamed_table_s_players_and_opening_once(client, lang):
    """Newcomer 46: "Tisch mit Jürgen und Ana, eröffnet 29.11.2026 11:33 UTC
    · Jürgen, Ana · eröffnet 29.11.2026 11:33": the title of a table without
    a name says who sat and when it opened, and the line after it said both
    again. A named table's line still says them (its name does not)."""
    from referee import language

    unnamed = create(client, players=("Jürgen", "Ana"), table="")
    named = create(client, players=("Jürgen", "Ana"), table="Back room")
    home = client.get(f"/?lang={lang}").data.decode()

    def row(sid: str) -> str:
        li = re.search(rf'<li[^>]*>\s*<a href="/s/{sid}">.*?</li>', home, re.S).group(0)
        return " ".join(re.sub(r"<[^>]+>", " ", li).split())

    opened = language.gettext(lang, "opened {when}", when="")
    assert row(unnamed).count("Jürgen") == 1 and row(unnamed).count("Ana") == 1, row(unnamed)
    assert row(unnamed).count(opened.split()[0]) == 1, row(unnamed)
    assert "·" not in row(unnamed), row(unnamed)
    assert "Back room · Jürgen, Ana · " + opened.strip() in row(named), row(named)
