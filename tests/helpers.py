"""Small builders for one-hand logs, shared by the engine tests."""

from __future__ import annotations

from referee.replay import replay
from referee.rules.errors import RefereeError

ANN_BEN_CY = ["Ann", "Ben", "Cy"]


def one_hand_log(actions, *, deal=None, upcard="7d", rules="pagat", players=None,
                 dealer="Ann", stake="1", currency=None, extra=None) -> dict:
    hand = {"dealer": dealer, "actions": list(actions)}
    if deal is not None:
        hand["deal"] = deal
    if upcard is not None:
        hand["upcard"] = upcard
    hand.update(extra or {})
    log = {
        "format": "tonk-log/1",
        "stake": stake,
        "rules": rules,
        "players": list(players or ANN_BEN_CY),
        "hands": [hand],
    }
    if currency:
        log["currency"] = currency
    return log


def result_of(log: dict) -> dict:
    return replay(log).result().to_json()


def hand_result(actions, **kw) -> dict:
    return result_of(one_hand_log(actions, **kw))["hands"][0]


def error_of(log: dict) -> RefereeError:
    try:
        replay(log)
    except RefereeError as err:
        return err
    raise AssertionError("the log was accepted")


def hand_error(actions, **kw) -> RefereeError:
    return error_of(one_hand_log(actions, **kw))


def serve_for_browser(request, tmp_path_factory, **config):
    """A generator for a module's browser-test server: the app on a free port
    of its own (on PostgreSQL under ``REFEREE_TEST_BACKEND``, as conftest's
    backend), yielding its address and stopping it after the module."""
    import os
    import threading

    from werkzeug.serving import make_server

    from referee.web import create_app

    from .conftest import new_pg_schema

    db = tmp_path_factory.mktemp("browser") / "referee.sqlite3"
    if os.environ.get("REFEREE_TEST_BACKEND") == "postgresql":
        db = new_pg_schema(request.getfixturevalue("pg_server"))
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "browser-tests", **config})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(5)


#: How long a browser test waits for a page to catch up with the table (ms):
#: a change made on another device (or through the API) reaching it by the
#: live stream is the stream's event, then a fresh copy of the page (a render
#: of the test server), and for a phone sent on to a new hand, that page
#: loaded (a second render, and a load); a tap's offline queue sent once the
#: network is back is a post and the page loaded again. Each step takes a
#: fraction of a second on a quiet host, but they come one after the other
#: on a loaded one: a phone's follow took up to 3 s on this 2-core host at
#: load 15 (nothing missed) and went past 5 s once in CI, where the suite
#: runs on 2 busy cores. A liveness bound: a change never shown fails here;
#: how soon one is shown is measured where it is claimed (the phones' night
#: records each and holds their median, ``test_browser_phones.SOON``).
FOLLOW = 20_000


def device(browser, viewport, *, locale: str | None = None, timeout: int = 10_000,
           service_workers: str = "allow"):
    """A page in a browser context of its own (one device at the table); the
    page's script errors gather in ``page.errors`` for the test to assert on.
    ``service_workers="block"``: the page's requests are its own, for the
    test's routes to see (a worker's are not routed)."""
    context = browser.new_context(viewport=viewport, service_workers=service_workers,
                                  **({"locale": locale} if locale else {}))
    pg = context.new_page()
    pg.set_default_timeout(timeout)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    return pg


def post_json(base: str, path: str, body: dict, headers: dict) -> dict:
    """A JSON POST to a browser test's own server (``serve_for_browser``),
    its answer read as JSON: how a browser test sets a table up through the
    API before its pages are opened."""
    import json
    import urllib.request

    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(req) as answer:
        return json.loads(answer.read())
