"""One write path for a hand's action (issue 32 item 2): the same actions,
sent through the JSON API in one database and tapped on the tablet in
another, leave byte-identical stored rows: the events (hashes and all), the
hand's row, the replies kept for each client id, the running totals and the
refusals."""

from __future__ import annotations

import itertools
import json
import shutil

import pytest

from referee.record.kinds import EventKind
from referee.service import storage
from referee.service.table import sessions
from referee.web import create_app

from .conftest import BOTH_BACKENDS, TEST_CONFIG, new_pg_schema
from .test_tablet import CAUGHT_DEAL, PIN, form_value, token

SID = "0a1b2c3d4e5f"
PLAYERS = ["Ann", "Ben", "Cy"]
CLOCK = "2026-11-28T13:00:00.000Z"

# (seat, verb, cards) as the hand screen's buttons send them: Ben's first
# spread is no book or run, and Ann's draw is out of turn (both refused, and
# kept); Ann's drop ends play (a preview, then its second tap).
TAPS = [
    (1, "draw", ["8c"]),
    (1, "spread", ["Qs", "4c", "8c"]),
    (1, "spread", ["Ks", "Kh", "Kd"]),
    (1, "discard", ["Qs"]),
    (0, "draw", []),
    (2, "take", []),
    (2, "discard", ["Jh"]),
    (0, "drop", []),
    (0, "show", []),
    (1, "show", []),
    (2, "show", []),
]


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def other_database(request, backend, tmp_path):
    """A second new, migrated database, beside the test's own."""
    if backend == "sqlite":
        path = tmp_path / "other.sqlite3"
        shutil.copy(request.getfixturevalue("migrated_db"), path)
        return str(path)
    return new_pg_schema(request.getfixturevalue("pg_server"))


def _open_table(target: str, monkeypatch, hand: dict | None = None):
    """The app on ``target``, with the session ``SID`` and its first hand
    (``hand``, else dealt as ``CAUGHT_DEAL``); its tokens and its PIN's salt
    the same in every database (the session's first event holds their digest,
    and every later event's hash hangs on it)."""
    from referee.service import access
    from referee.service.table import hands

    made = itertools.count()
    monkeypatch.setattr(access.secrets, "token_urlsafe", lambda n: f"token-{next(made)}")
    monkeypatch.setattr(access.secrets, "token_bytes", lambda n: bytes(n))
    app = create_app({**TEST_CONFIG, "DATABASE": target})
    db = storage.connect(target)
    info = sessions.import_log(db, sessions.opening({
        "stake": "0.25", "currency": "USD", "rules": "pagat", "players": PLAYERS,
        "started": "2026-11-28T13:00:00Z"}), PIN, sid=SID)
    hands.start_hand(db, SID, hand or {"dealer": "Ann", "upcard": "7d", "deal": CAUGHT_DEAL},
                     client_id="start")
    return app, db, info


def _tap_all(app) -> None:
    client = app.test_client()
    r = client.post(f"/s/{SID}/unlock", data={"csrf_token": token(client, f"/s/{SID}/unlock"),
                                              "pin": PIN})
    assert r.status_code == 303, r.data[:300]
    for k, (seat, verb, cards) in enumerate(TAPS):
        page = client.get(f"/s/{SID}/hands/1").data.decode()
        data = {"csrf_token": form_value(page, "csrf_token"), "client_id": f"tap-{k}",
                "expected_seq": form_value(page, "expected_seq"), "act": f"{seat}:{verb}",
                "card": cards}
        r = client.post(f"/s/{SID}/hands/1/act", data=data)
        if r.headers["Location"].endswith("/confirm"):  # the second tap of one that ends play
            assert 'id="confirm-yes"' in client.get(r.headers["Location"]).data.decode()
            r = client.post(f"/s/{SID}/hands/1/act", data={**data, "confirm": "1"})
        assert r.status_code == 303


def _post_all(app, info, tapped: list[tuple[EventKind, str, str]]) -> None:
    """The tapped actions (kind, text, client id) posted to the API, in order."""
    client = app.test_client()
    seq = 0
    for kind, text, client_id in tapped:
        r = client.post(f"/api/sessions/{SID}/hands/1/actions",
                        json={"action": text, "client_id": client_id, "expected_seq": seq},
                        headers={"Authorization": f"Bearer {info.table_token}"})
        if kind is EventKind.REFUSAL:
            assert r.status_code == 422, r.get_json()
        else:
            assert r.status_code == 201, r.get_json()
            seq += 1


def _stored(db) -> dict:
    def rows(sql: str) -> list[tuple]:
        return [tuple(row) for row in db.conn.execute(sql).fetchall()]

    return {
        "events": rows("SELECT * FROM events ORDER BY id"),
        "hands": rows("SELECT * FROM hands ORDER BY session_id, n"),
        "replies": rows("SELECT * FROM replies ORDER BY session_id, client_id"),
        "settled": rows("SELECT id, settled FROM sessions ORDER BY id"),
    }


def test_an_action_leaves_the_same_rows_by_either_door(database, other_database,
                                                        monkeypatch):
    monkeypatch.setattr(storage.events, "now", lambda: CLOCK)
    monkeypatch.setattr(storage.sessions, "now", lambda: CLOCK)
    tablet_app, tablet_db, _ = _open_table(database, monkeypatch)
    _tap_all(tablet_app)
    tapped = [(EventKind(ev["kind"]), json.loads(ev["payload"])["action"], ev["client_id"])
              for ev in storage.chain.rows(tablet_db, SID)
              if ev["kind"] in (EventKind.ACTION, EventKind.REFUSAL)]
    assert [kind for kind, _, _ in tapped].count(EventKind.REFUSAL) == 2, tapped
    assert len(tapped) == len(TAPS)

    api_app, api_db, info = _open_table(other_database, monkeypatch)
    _post_all(api_app, info, tapped)

    by_tablet, by_api = _stored(tablet_db), _stored(api_db)
    assert by_api["settled"] == [(SID, 1)]  # the hand settled: its running row is written
    for table in by_tablet:
        assert by_api[table] == by_tablet[table], table
