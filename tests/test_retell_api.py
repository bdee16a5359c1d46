"""A told hand corrected through the JSON API (``POST
/api/sessions/<id>/hands/<n>/tell-again``): the tablet's correction
(``tablet.tell_again``) by the same service call, refused in the same words,
and leaving the same rows by either door."""

from __future__ import annotations

import html
import json
import re

import pytest
from werkzeug.datastructures import MultiDict

from referee.service import storage, trust
from referee.service.table import sessions, table_events
from referee.web.db import get_db

from .conftest import BOTH_BACKENDS
from .test_action_doors import CLOCK, PIN, SID, _open_table, _stored, other_database  # noqa: F401 - a fixture
from .test_api import assert_error, bearer
from .test_retell import TYPO, _told, verified_kinds
from .test_tablet import flashes, token
from .test_tablet_quick import fields_of
from .test_told_service import DROP, HEADER, _table


def _url(sid: str, n: int = 1) -> str:
    return f"/api/sessions/{sid}/hands/{n}/tell-again"


def _head(client, sid: str, auth: dict) -> tuple:
    summary = client.get(f"/api/sessions/{sid}", headers=auth).get_json()
    return summary["seq"], summary["head"]


def test_the_api_tells_a_told_hand_again(app, client):
    sid, auth = _told(client)
    seq, _ = _head(client, sid, auth)
    r = client.post(_url(sid), json={"ending": DROP, "expected_seq": seq},
                    headers={**auth, "Idempotency-Key": "fix-1"})
    assert r.status_code == 201, r.get_json()
    state = r.get_json()
    assert state["hand"] == 1 and state["complete"] and state["result"]["told"]
    assert state["result"]["outcome"] == "drop_won"
    assert state["result"]["net"] == {"Ann": "-0.50", "Ben": "1.00", "Cy": "-0.50"}
    assert state["result"]["story"]  # in words, as POST hands answers a told hand
    # The same request again: its first answer, byte for byte, nothing written twice.
    again = client.post(_url(sid), json={"ending": DROP, "client_id": "fix-1",
                                         "expected_seq": seq}, headers=auth)
    assert again.status_code == 201 and again.data == r.data
    # The same id for another ending is another request: refused, not answered.
    assert_error(client.post(_url(sid), json={"ending": TYPO}, headers={
        **auth, "Idempotency-Key": "fix-1"}), 409, "client_id_reused")
    log = client.get(f"/api/sessions/{sid}/log", headers=auth).get_json()
    assert log["hands"] == [{"dealer": "Ann", "ending": DROP}]
    standings = client.get(f"/api/sessions/{sid}/standings", headers=auth).get_json()
    assert standings["totals"] == state["result"]["net"]
    with app.app_context():
        assert verified_kinds(get_db(), sid) == \
            ["session", "hand_start", "correction", "hand_start"]


def test_a_dispute_of_a_told_hand_is_settled_by_telling_it_again(app, client):
    """``settle`` corrected is refused on a told hand (dispute_told: "it is
    corrected by telling its ending again"): this is that telling."""
    sid, auth = _told(client)
    r = client.post(f"/api/sessions/{sid}/hands/1/disputes", headers=auth,
                    json={"by": "Ann", "note": "I had 20, not 8"})
    assert r.status_code == 201, r.get_json()
    assert_error(client.post(f"/api/sessions/{sid}/hands/1/disputes/1/settle", headers=auth,
                             json={"how": "corrected", "by": "Cy"}), 422, "dispute_told")
    assert_error(client.post(_url(sid), headers=auth, json={
        "ending": DROP, "settles": {"dispute": 2, "by": "Cy"}}), 404, "no_dispute")
    r = client.post(_url(sid), headers=auth,
                    json={"ending": DROP, "settles": {"dispute": 1, "by": "Cy"}})
    assert r.status_code == 201, r.get_json()
    hand = client.get(f"/api/sessions/{sid}/hands/1", headers=auth).get_json()
    assert [(d["how"], d["by"]) for d in hand["settled_disputes"]] == [("corrected", "Cy")]
    with app.app_context():
        assert verified_kinds(get_db(), sid) == \
            ["session", "hand_start", "dispute", "correction", "hand_start", "settle"]
    assert_error(client.post(_url(sid), headers=auth, json={
        "ending": TYPO, "settles": {"dispute": 1, "by": "Cy"}}), 422, "dispute_settled")


def _played(client, sid, auth):
    r = client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann"}, headers=auth)
    assert r.status_code == 201, r.get_json()


def _accepted(client, sid, auth):
    r = client.post(f"/api/sessions/{sid}/hands/1/accept", json={"player": "Cy"},
                    headers=auth)
    assert r.status_code == 201, r.get_json()


def _next_hand(client, sid, auth):
    r = client.post(f"/api/sessions/{sid}/hands", headers=auth,
                    json={"dealer": "Ben", "ending": {"how": "out", "by": "Cy"}})
    assert r.status_code == 201, r.get_json()


def _closed(client, sid, auth):
    assert client.post(f"/api/sessions/{sid}/close", json={}, headers=auth).status_code == 201


def _link(role: str, player: str | None = None):
    def token_of(client, sid, auth) -> dict:
        r = client.post(f"/api/sessions/{sid}/links", headers=auth,
                        json={"role": role, **({"player": player} if player else {})})
        assert r.status_code == 201, r.get_json()
        return bearer(r.get_json()["token"])
    return token_of


def _audit(client, sid, auth) -> dict:
    return bearer(_AUDIT[sid])


_AUDIT: dict[str, str] = {}

# (what happens first, the body, the hand, the key it is sent with) ->
# (status, code, the error's hand). None: nothing first, the table's token.
REFUSALS = {
    "a played hand": (_played, {"ending": DROP}, 1, None, 422, "not_told", 1),
    "no such hand": (None, {"ending": DROP}, 2, None, 404, "no_hand", 2),
    "hand 0": (None, {"ending": DROP}, 0, None, 404, "no_hand", 0),
    "no ending": (None, {}, 1, None, 400, "bad_request", None),
    "an ending that is no object": (None, {"ending": "drop"}, 1, None, 400, "bad_request",
                                    None),
    "an unknown ending": (None, {"ending": {"how": "fold", "by": "Ben"}}, 1, None, 400,
                          "malformed", 1),
    "an ending without who": (None, {"ending": {"how": "tonk_out"}}, 1, None, 400,
                              "malformed", 1),
    "an ending by nobody seated": (None, {"ending": {**DROP, "by": "Zed"}}, 1, None, 422,
                                   "not_seated", 1),
    "an impossible count": (None, {"ending": {**DROP, "counts": {**DROP["counts"], "Ben": 0}}},
                            1, None, 422, "impossible_count", 1),
    "a count missing": (None, {"ending": {**DROP, "counts": {"Ann": 20}}}, 1, None, 400,
                        "malformed", 1),
    "an unknown field": (None, {"ending": DROP, "dealer": "Ben"}, 1, None, 400,
                         "bad_request", None),
    "a dispute without who settles it": (None, {"ending": DROP, "settles": {"dispute": 1}}, 1,
                                         None, 400, "bad_request", None),
    "a stale sequence": (None, {"ending": DROP, "expected_seq": 1}, 1, None, 409,
                         "stale_seq", 1),
    "accepted": (_accepted, {"ending": DROP}, 1, None, 422, "undo_accepted", 1),
    "a later hand": (_next_hand, {"ending": DROP}, 1, None, 422, "hand_over", 1),
    "a closed table": (_closed, {"ending": DROP}, 1, None, 409, "table_closed", None),
    "no key": (None, {"ending": DROP}, 1, {}, 401, "unauthorized", None),
    "a wrong key": (None, {"ending": DROP}, 1, bearer("nope"), 401, "unauthorized", None),
    "the audit token": (None, {"ending": DROP}, 1, _audit, 403, "forbidden", None),
    "the viewer's link": (None, {"ending": DROP}, 1, _link("viewer"), 403, "not_your_seat",
                          None),
    "a seat's link": (None, {"ending": DROP}, 1, _link("seat", "Ben"), 403, "not_your_seat",
                      None),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_each_refusal_says_why_and_changes_nothing(app, client, case):
    first, body, n, key, status, code, hand = REFUSALS[case]
    r = client.post("/api/sessions", json=HEADER)
    made = r.get_json()
    sid, auth = made["id"], bearer(made["table_token"])
    _AUDIT[sid] = made["audit_token"]
    if first is not _played:
        r = client.post(f"/api/sessions/{sid}/hands", headers=auth,
                        json={"dealer": "Ann", "ending": TYPO})
        assert r.status_code == 201, r.get_json()
    if first is not None:
        first(client, sid, auth)
    headers = key(client, sid, auth) if callable(key) else auth if key is None else key
    before = _head(client, sid, auth)
    log = client.get(f"/api/sessions/{sid}/log", headers=auth).get_json()
    error = assert_error(client.post(_url(sid, n), json=body, headers=headers), status, code)
    assert error["hand"] == hand, error
    assert _head(client, sid, auth) == before
    assert client.get(f"/api/sessions/{sid}/log", headers=auth).get_json() == log
    with app.app_context():
        assert trust.verify_session(get_db(), sid) == []


def test_another_tables_token_is_refused(client):
    """Not this token's table, like any other (docs/decisions.md)."""
    _sid, auth = _table(client)
    assert_error(client.post(_url("0" * 12), json={"ending": DROP}, headers=auth), 401,
                 "unauthorized")


# ---------------------------------------------------------------- the same words

def _german_table(client) -> tuple[str, dict]:
    """A German table made through the API, this tablet unlocked with its token."""
    made = client.post("/api/sessions", json={**HEADER, "language": "de"}).get_json()
    sid, auth = made["id"], bearer(made["table_token"])
    r = client.post(f"/s/{sid}/unlock", data={"csrf_token": token(client, f"/s/{sid}/unlock"),
                                              "pin": made["table_token"]})
    assert r.status_code == 303, r.data[:300]
    return sid, auth


def _api_words(client, sid, auth, body) -> str:
    r = client.post(_url(sid), json=body, headers={**auth, "Accept-Language": "de"})
    return assert_error(r, r.status_code)["message"]


def test_a_played_hand_is_refused_in_the_pages_words(client):
    sid, auth = _german_table(client)
    _played(client, sid, auth)
    r = client.get(f"/s/{sid}/hands/1/tell-again")
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).data.decode()
    said = [html.unescape(text) for kind, text in flashes(page) if kind == "error"]
    words = _api_words(client, sid, auth, {"ending": DROP})
    assert said == [words] and "Hand 1" in words, (said, words)


def test_a_closed_table_is_refused_in_the_pages_words(client):
    sid, auth = _german_table(client)
    r = client.post(f"/api/sessions/{sid}/hands", headers=auth,
                    json={"dealer": "Ann", "ending": TYPO})
    assert r.status_code == 201
    preview = client.get(f"/s/{sid}/hands/1/tell-again",
                         query_string={"pick": "drop:1", "count0": "20", "count1": "9",
                                       "count2": "30", "preview": "1"}).data.decode()
    assert 'id="confirm-yes"' in preview, preview[preview.find("<main"):][:2000]
    _closed(client, sid, auth)
    r = client.post(f"/s/{sid}/hands/1/tell-again", data=MultiDict(fields_of(preview)))
    assert r.status_code == 303
    form = client.get(r.headers["Location"]).data.decode()
    found = re.search(r'id="form-error">([^<]*)<', form)
    assert found, form[form.find("<main"):][:2000]
    words = _api_words(client, sid, auth, {"ending": DROP})
    assert html.unescape(found.group(1)).endswith(words), (found.group(1), words)


# ---------------------------------------------------------------- either door

def _open_told(target: str, monkeypatch):
    """The app on ``target`` with the table ``SID``, its hand 1 told with a
    typo and disputed (as the doors of an action open theirs: the same
    tokens, so the same hashes)."""
    app, db, info = _open_table(target, monkeypatch, {"dealer": "Ann", "ending": TYPO})
    table_events.dispute(db, SID, 1, "Ann", "I had 20, not 8", None, client_id="d1")
    return app, db, info


@pytest.mark.parametrize("backend", BOTH_BACKENDS)
def test_the_page_and_the_api_leave_the_same_rows(database, other_database,  # noqa: F811
                                                  monkeypatch):
    monkeypatch.setattr(storage.events, "now", lambda: CLOCK)
    monkeypatch.setattr(storage.sessions, "now", lambda: CLOCK)
    tablet_app, tablet_db, _ = _open_told(database, monkeypatch)
    tablet = tablet_app.test_client()
    r = tablet.post(f"/s/{SID}/unlock", data={"csrf_token": token(tablet, f"/s/{SID}/unlock"),
                                              "pin": PIN})
    assert r.status_code == 303
    preview = tablet.get(f"/s/{SID}/hands/1/tell-again", query_string={
        "pick": "drop:1", "count0": "20", "count1": "9", "count2": "30", "preview": "1",
        "dispute": "1", "settler": "Cy"}).data.decode()
    assert 'id="settles-dispute"' in preview, preview[preview.find("<main"):][:2000]
    r = tablet.post(f"/s/{SID}/hands/1/tell-again", data=MultiDict(fields_of(preview)))
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/s/{SID}/hands/1")
    told = [ev for ev in storage.chain.rows(tablet_db, SID) if ev["kind"] == "hand_start"][-1]
    assert told["client_id"], "the page told it again without its client id"
    assert sessions.get_log(tablet_db, SID)["hands"][0]["ending"] == DROP

    # The ending as the form gives it (how, by, counts; not sorted, as the test
    # client's json= would): the hand's row keeps the keys in the order they
    # came, as a told hand's start does.
    api_app, api_db, info = _open_told(other_database, monkeypatch)
    r = api_app.test_client().post(_url(SID), headers={
        **bearer(info.table_token), "Idempotency-Key": told["client_id"]},
        content_type="application/json",
        data=json.dumps({"ending": DROP, "settles": {"dispute": 1, "by": "Cy"}}))
    assert r.status_code == 201, r.get_json()

    by_tablet, by_api = _stored(tablet_db), _stored(api_db)
    assert [row[4] for row in by_api["events"]][-3:] == ["correction", "hand_start", "settle"]
    for table in by_tablet:
        assert by_api[table] == by_tablet[table], table
