"""The tablet as an installable web app and the offline queue's way in,
through Flask's test client: the manifest and its icons, the service worker
served where its scope covers the table's pages, the page a device shows for
a page it never saw, and the JSON API's action endpoint taking the tablet's
own unlock (its cookie and CSRF token) for a kept tap, exactly once. The
queue itself is driven in Chromium (tests/test_browser_offline.py)."""

from __future__ import annotations

import json
import re

import pytest

from .test_tablet import create, hand_page, start

DEAL = {"Ann": ["2c", "3d", "As", "Ah", "9s"], "Ben": ["Ks", "Kh", "Kd", "Qs", "4c"],
        "Cy": ["Jh", "Js", "9c", "9d", "5d"]}


def test_the_manifest_names_the_app_its_pages_and_icons_it_serves(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.mimetype == "application/manifest+json"
    body = json.loads(r.data)
    assert body["display"] == "standalone" and body["scope"] == "/"
    assert body["start_url"] == "/"
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon
        assert got.mimetype == icon["type"]
        if icon["type"] == "image/png":
            assert got.data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(got.data[16:20], "big"), \
                int.from_bytes(got.data[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"]


def test_the_manifest_is_in_the_readers_language(client):
    body = json.loads(client.get("/manifest.webmanifest?lang=de").data)
    assert body["name"] == "Tonk-Schiedsrichter"


def test_the_service_worker_is_served_from_the_top_of_the_site(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "no-cache"
    assert b"addEventListener(\"fetch\"" in r.data


def test_every_page_links_the_manifest_and_the_queue_script(client):
    page = client.get("/").data.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert re.search(r'src="/tablet-static/offline\.js\?v=[0-9a-f]+"', page)
    assert 'id="offline-words"' in page


def test_the_offline_page_says_what_it_is(client):
    r = client.get("/offline?lang=fr")
    assert r.status_code == 200
    assert "<h1>" in r.data.decode()


def test_the_offline_page_speaks_of_the_device_whatever_it_is(client):
    # Kept by the worker of a phone as of a tablet, and shown for a page it
    # may have opened before it ran: it names neither (newcomer F7).
    for lang in ("en", "de", "fr", "pt"):
        page = client.get(f"/offline?lang={lang}").get_data(as_text=True)
        notice = re.search(r'<p class="notice">(.*?)</p>', page, re.S).group(1)
        assert "tablet" not in notice.lower(), (lang, notice)
        assert not re.search(r"never|nie |jamais|nunca", notice), (lang, notice)


def _started(client) -> tuple[str, str, str]:
    sid = create(client)
    start(client, sid, deal=DEAL, upcard="7c")
    page = hand_page(client, sid)
    node = re.search(r'<div id="offline-hand"[^>]*>', page, re.S).group(0)
    csrf = re.search(r'data-csrf="([^"]+)"', page).group(1)
    return sid, node, csrf


def test_the_hand_page_carries_what_a_kept_tap_needs(client):
    sid, node, _csrf = _started(client)
    assert f'data-api="/api/sessions/{sid}/hands/1/actions"' in node
    assert 'data-seq="0"' in node
    # How the turn goes on, asked of the engine: Ben starts, Cy after him.
    turns = json.loads(re.search(r"data-turns='([^']*)'", node).group(1))
    assert (turns["to_act"], turns["phase"], turns["next"]["Ben"]) == ("Ben", "start", "Cy")
    players = json.loads(re.search(r"data-players='([^']*)'", node).group(1))
    assert players == ["Ann", "Ben", "Cy"]
    assert "7c" in json.loads(re.search(r"data-played='([^']*)'", node).group(1))


def _post(client, sid, csrf, text, client_id, seq, **headers):
    return client.post(f"/api/sessions/{sid}/hands/1/actions?lang=de",
                       json={"action": text, "client_id": client_id, "expected_seq": seq},
                       headers={"X-CSRF-Token": csrf, **headers})


def test_a_kept_tap_is_logged_once_with_the_tablets_own_unlock(client):
    sid, _node, csrf = _started(client)
    first = _post(client, sid, csrf, "Ben: take", "kept-1", 0)
    assert first.status_code == 201, first.data
    again = _post(client, sid, csrf, "Ben: take", "kept-1", 0)  # the answer was lost
    assert again.status_code == 201 and again.data == first.data
    assert json.loads(first.data)["seq"] == 1
    assert "Ben: take" in hand_page(client, sid)
    log = client.get(f"/s/{sid}/hands/1/seq").get_json()
    assert log["seq"] == 1


def test_a_kept_tap_the_referee_refuses_is_said_in_the_readers_language(client):
    sid, _node, csrf = _started(client)
    r = _post(client, sid, csrf, "Ben: discard 9d", "kept-x", 0)
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert error["code"] and error["hand"] == 1 and error["action"] == 1
    stale = _post(client, sid, csrf, "Ben: take", "kept-y", 3)
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "stale_seq"
    # In the reader's language (the page sends its own): the queue shows these words.
    assert stale.get_json()["error"]["message"].startswith("Hand 1")
    assert "die Hand hat 0 Züge, nicht 3" in stale.get_json()["error"]["message"]


def test_the_api_takes_the_tablets_unlock_only_with_its_csrf_token(client, app):
    sid, _node, csrf = _started(client)
    for headers in ({"X-CSRF-Token": "wrong"}, {"X-CSRF-Token": ""}):
        r = client.post(f"/api/sessions/{sid}/hands/1/actions", headers=headers,
                        json={"action": "Ben: take", "client_id": "c", "expected_seq": 0})
        assert r.status_code == 401, r.data
    # Another browser (no unlock of this table) with a token of its own is refused too.
    other = app.test_client()
    other.get("/")
    with other.session_transaction() as s:
        s["csrf"] = "theirs"
    r = other.post(f"/api/sessions/{sid}/hands/1/actions", headers={"X-CSRF-Token": "theirs"},
                   json={"action": "Ben: take", "client_id": "c", "expected_seq": 0})
    assert r.status_code == 401
    # Only the action endpoint takes it: the rest of the API wants the table token.
    r = client.post(f"/api/sessions/{sid}/hands/1/undo", headers={"X-CSRF-Token": csrf},
                    json={"client_id": "u"})
    assert r.status_code == 401
    assert client.get(f"/s/{sid}/hands/1/seq").get_json()["seq"] == 0


def test_a_phone_joined_by_a_seat_link_sends_its_kept_taps_for_its_own_player(app, client):
    from .test_api import Game, bearer

    g = Game(client)
    g.start()
    text = g.sim.next_action()
    actor = text.partition(":")[0]
    other = next(p for p in ("Ann", "Ben", "Cy", "Dee") if p != actor)
    links = {}
    for player in (actor, other):
        r = client.post(g.url("/links"), json={"role": "seat", "player": player},
                        headers=bearer(g.table))
        links[player] = r.get_json()["url"].split("localhost", 1)[1]
    phone = app.test_client()
    assert phone.get(links[actor]).status_code == 303
    page = phone.get(f"/s/{g.sid}/hands/{g.n}").get_data(as_text=True)
    csrf = re.search(r'data-csrf="([^"]+)"', page).group(1)
    url = g.url(f"/hands/{g.n}/actions")
    theirs = phone.post(url, headers={"X-CSRF-Token": csrf}, json={
        "action": f"{other}: drop", "client_id": "p-1", "expected_seq": 0})
    assert theirs.status_code == 403
    assert theirs.get_json()["error"]["code"] == "not_your_seat"
    mine = phone.post(url, headers={"X-CSRF-Token": csrf}, json={
        "action": text, "client_id": "p-2", "expected_seq": 0})
    assert mine.status_code == 201, mine.get_json()
    # Revoked: the phone's cookie no longer stands for the seat.
    client.post(g.url("/links/revoke"), json={"role": "seat", "player": actor},
                headers=bearer(g.table))
    late = phone.post(url, headers={"X-CSRF-Token": csrf}, json={
        "action": text, "client_id": "p-3", "expected_seq": 1})
    assert late.status_code == 401, late.get_json()


def test_the_offline_words_are_in_each_reader_s_language_on_one_server(client):
    # Rendered once a language and kept by the app (issue 37): a page in one
    # language must never hand its words to a reader of another, in any order.
    def words(lang: str) -> dict:
        page = client.get(f"/?lang={lang}").get_data(as_text=True)
        return json.loads(re.search(r'id="offline-words"[^>]*>(.*?)</script>', page, re.S)[1])

    first = {lang: words(lang) for lang in ("en", "de", "fr", "pt")}
    assert len({json.dumps(w, sort_keys=True) for w in first.values()}) == 4
    assert [first[lang]["queue"] for lang in first] == [
        "Waiting to send", "Wartet auf Senden", "En attente d'envoi", "À espera de envio"]
    for lang in ("pt", "en", "fr", "de", "en"):
        assert words(lang) == first[lang]
    assert first["en"]["card_counts"][1] == "1 card" and first["en"]["card_counts"][2] == "2 cards"


def _queue_words(client, lang: str) -> dict:
    page = client.get(f"/?lang={lang}").get_data(as_text=True)
    return json.loads(re.search(r'id="offline-words"[^>]*>(.*?)</script>', page, re.S)[1])


def _game_verbs(app, lang: str) -> set[str]:
    """The words the table says discard and drop with in ``lang``: their
    buttons (templates/_verbs.html) and their sentences (``Zoë descarta
    J♥``, the action templates every page and offline.js say a tap with)."""
    from referee.language import action_templates

    with app.test_request_context(f"/?lang={lang}"):
        app.preprocess_request()
        labels = json.loads(app.jinja_env.from_string(
            '{% from "_verbs.html" import labels with context %}{{ labels|tojson }}').render())
    said = action_templates(lang)
    texts = [labels["discard"], labels["drop"], said["cards"]["discard"], said["alone"]["drop"]]
    return {w for t in texts for w in re.findall(r"\w+", re.sub(r"\{\w+\}", " ", t).lower())
            if len(w) >= 3}


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_the_queue_s_buttons_never_say_the_game_s_discard_or_drop(app, client, lang):
    """Newcomer 46: the Portuguese queue's "Descartar este, enviar os outros"
    (drop this tap) read as the game's discard on the screen that says "Zoë
    descarta J♥", and English "Drop it" as the game's drop. No word of the
    queue's buttons, nor of the sentences that name them, shares a stem (five
    letters of it in a row, or a short verb whole) with the game's own words for
    discard and drop in that language."""
    words = _queue_words(client, lang)
    verbs = _game_verbs(app, lang)
    assert verbs
    said = " ".join(words[k] for k in ("resend", "drop_one", "drop_all", "rest", "send_first"))
    clashes = [(w, v) for w in re.findall(r"\w+", said.lower()) for v in verbs
               if any(v[i:i + min(5, len(v))] in w for i in range(len(v) - min(5, len(v)) + 1))]
    assert clashes == [], (lang, clashes)
