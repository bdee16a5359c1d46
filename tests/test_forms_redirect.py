"""Every form's POST outside the API answers a redirect (303) to a GET page,
never a page of its own (post, redirect, get; docs/decisions.md, "Forms that
redirect"): reload and Back then never post again, and a browser's
back/forward cache keeps only pages that were got. A refusal of the request
itself (no CSRF token, a locked table, a phone's not_your_seat, a wrong PIN
or host key, too many tries) may answer 4xx with its error on the page; a
form refused for what was typed goes back to its page (303) and says why
there. The test walks the app's url_map: a new form must bring its cases
here, or ``test_every_form_is_walked`` fails.

(tablet.js's own fetch of a tap, ``X-Tablet-Swap``, gets the hand's page as
its answer: a script's request, not a page the browser keeps in its history.)
"""

from __future__ import annotations

import re

import pytest

from tests.test_history_words import _played
from tests.test_tablet import PIN, create

# The statuses that refuse the request itself (each with its error on the page).
REFUSALS = {400, 403, 404, 409, 429}

# A table of three (Ann, Ben, Cy): "played", hand 1 in play with five actions
# and Ann's dispute of action 2 open; "told", hand 1 told by its ending (Cy
# drops), nothing in play. Each case is a form as posted ("csrf_token" added).
DROP = {"dealer": "Ann", "how": "drop", "by": "2", "hand": "2",
        "count0": "23", "count1": "31", "count2": "7"}
CASES: dict[str, tuple[str, str, list[dict]]] = {
    "tablet.open_session": ("played", "/open", [{"session_id": "{sid}"}, {}]),
    "tablet.create_post": ("played", "/new", [
        {"stake": "0.25", "preset": "pagat", "pin": PIN, "pin2": PIN,
         "player1": "Ann", "player2": "Ben"},
        {"stake": "0.25", "preset": "pagat", "pin": PIN, "pin2": "9999",
         "player1": "Ann", "player2": "Ben"},
        {"stake": "x", "preset": "pagat", "pin": PIN, "pin2": PIN, "player1": "Ann"},
        {"stake": "1", "preset": "pagat", "pin": PIN, "pin2": PIN, "player1": "Ann",
         "player2": "Ben", "opt_hand_size": "99", "table": "y" * 3000},
        {"stake": "1", "preset": "pagat", "pin": PIN, "pin2": PIN, "player1": "Ann",
         "player2": "Ben", "carry_from": "0000"}]),
    "tablet.unlock_post": ("played", "/s/{sid}/unlock", [
        {"pin": "0000"}, {"pin": PIN, "next": "/s/{sid}/manage"}, {"pin": PIN}]),
    "tablet.invite_post": ("played", "/s/{sid}/invite", [
        {"role": "seat", "player": "Ann"}, {"role": "viewer"},
        {"role": "viewer", "revoke": "1"}, {"role": "seat", "player": "Ann", "revoke": "1"},
        {"role": "viewer", "revoke": "1", "confirm": "1"}, {"role": "zz", "player": "Zed"}]),
    "tablet.rename_post": ("played", "/s/{sid}/manage/rename", [
        {"old": "Ann", "new": "Anna"}, {"old": "Zed", "new": "Ben"}, {}]),
    "tablet.stake_post": ("played", "/s/{sid}/manage/stake", [
        {"stake": "0.50"}, {"stake": "x"}, {"stake": "9" * 3000}]),
    "tablet.payment_post": ("played", "/s/{sid}/manage/payment", [
        {"from": "Ann", "to": "Ben", "amount": "1"},
        {"from": "Ann", "to": "Ann", "amount": "-1"}]),
    "tablet.leave_post": ("told", "/s/{sid}/manage/leave", [
        {"player": "Cy"}, {"player": "Zed"}, {"player": "Cy", "confirm": "1"}]),
    "tablet.seat_post": ("told", "/s/{sid}/manage/seat", [{"player": "Dee"}, {"player": ""}]),
    "tablet.close_post": ("played", "/s/{sid}/manage/close", [
        {}, {"sure": "1"}, {"sure": "1", "confirm": "1"}, {"sure": "1"}]),
    "tablet.void_post": ("played", "/s/{sid}/hands/1/void", [{"reason": "misdeal"}, {}]),
    "tablet.accept_all_post": ("told", "/s/{sid}/hands/1/accept-all", [{}, {"sure": "1"}]),
    "tablet.accept_post": ("told", "/s/{sid}/hands/1/accept", [
        {"player": "Ann"}, {"player": "Zed"}]),
    "tablet.dispute_post": ("played", "/s/{sid}/hands/1/dispute", [
        {"by": "Ben", "note": "no", "action": "3"}, {"by": "Zed", "action": "99"}]),
    "tablet.settle_post": ("played", "/s/{sid}/hands/1/disputes/1/settle", [
        {"by": "Ben", "how": "corrected"}, {"by": "Ben", "how": "zz"},
        {"by": "Ben", "how": "corrected", "confirm": "1"},
        {"by": "Ben", "how": "corrected"}, {"by": "Ben", "how": "stands"}]),
    "tablet.instead_post": ("played", "/s/{sid}/hands/1/disputes/1/instead", [
        {"by": "Ben", "act": "1:discard", "card": "8c"}, {"by": "Ben", "act": "zz"},
        {"by": "Ben", "act": "1:discard"}]),
    "tablet.act": ("played", "/s/{sid}/hands/1/act", [
        {"act": "0:draw", "card": "Kc", "expected_seq": "5"},
        {"act": "zz"}, {"act": "1:drop", "expected_seq": "6"},
        {"act": "1:drop", "expected_seq": "6", "confirm": "1"}]),
    "tablet.undo": ("played", "/s/{sid}/hands/1/undo", [{"expected_seq": "5"}, {}]),
    "tablet.start_hand_post": ("told", "/s/{sid}/hands/new", [
        {"dealer": "Zed", "hand": "2"}, {"dealer": "Ben", "deal0": ["Ac", "Ac"], "hand": "2"},
        {"dealer": "Ben", "hand": "2"}, {"dealer": "Ben", "hand": "2"}]),
    "tablet.quick_hand_post": ("told", "/s/{sid}/hands/quick", [
        DROP, {**DROP, "count0": "x"}, {**DROP, "how": "zz"},
        {**DROP, "count0": "1", "confirm": "1"}, {**DROP, "confirm": "1"},
        {**DROP, "confirm": "1"}]),
    "tablet.tell_again": ("told", "/s/{sid}/hands/1/tell-again", [
        {**DROP, "hand": "1"}, {**DROP, "count1": "x"}, {**DROP, "by": "7"},
        {**DROP, "count0": "1", "confirm": "1"}, {**DROP, "confirm": "1"}]),
    "settle.paid": ("told", "/s/{sid}/settle/paid", [
        {"from": "Ann", "to": "Cy", "amount": "1"}, {"from": "Ann", "to": "Cy", "amount": "x"}]),
    "settle.confirm": ("told", "/s/{sid}/settle/confirm", [{"payment": "1"}, {"payment": "x"}]),
    "settle.undo": ("told", "/s/{sid}/settle/undo", [{"payment": "1"}, {"payment": "99"}]),
    "settle.details": ("told", "/s/{sid}/settle/details", [
        {"player": "Ann", "iban": "DE89370400440532013000"}, {"player": "Ann", "iban": "x"}]),
    "club.unlock": ("club", "/club/unlock", [{"host_key": "nope"}, {"host_key": "club-key"}]),
    "club.paid": ("club", "/club/paid", [{"from": "Ann", "to": "Cy", "amount": "1"}, {}]),
    "club.merge": ("club", "/club/merge", [{"spelling": "Zed", "into": "Ann"}, {}]),
    "club.nickname": ("club", "/club/nickname", [{"person": "Ann", "nickname": "A"},
                                                 {"person": "Zed"}]),
    "club.undo": ("club", "/club/undo", [{"event": "1"}, {"event": "x"}]),
    # A table that is no copy: refused, back to the club's page with why.
    "club.take_out": ("club", "/club/copies/{sid}", [{}, {"session": "x"}]),
    "club.pay_details_page": ("club", "/club/people/Ann/pay", [{"iban": "x"}, {}]),
}

# What each case's fields are also posted as: empty, and too long for any of them.
HOSTILE = ("", "9" * 400)


def _forms(app):
    return sorted(r.endpoint for r in app.url_map.iter_rules()
                  if "POST" in r.methods and not r.rule.startswith("/api/"))


def test_every_form_is_walked(app):
    assert _forms(app) == sorted(CASES)


def _table(app, client, kind: str) -> str:
    if kind == "told":
        sid = create(client)
        _csrf(client)
        r = client.post(f"/s/{sid}/hands/quick",
                        data={**DROP, "hand": "1", "confirm": "1", "csrf_token": "t",
                              "client_id": "told-1"})
        assert r.status_code == 303, r.data[:300]
        return sid
    sid = _played(client)
    _csrf(client)
    r = client.post(f"/s/{sid}/hands/1/dispute", data={"csrf_token": "t", "by": "Ann",
                                                       "note": "not so", "action": "2"})
    assert r.status_code == 303
    if kind == "club":
        app.config["REFEREE_HOST_KEY"] = "club-key"
        with client.session_transaction() as s:
            s["club"] = True
    return sid


def _csrf(client) -> None:
    with client.session_transaction() as s:
        s["csrf"] = "t"


def _answered(client, url: str, data: dict) -> str | None:
    """What is wrong with the answer to ``data`` posted to ``url`` (None: nothing)."""
    r = client.post(url, data={**data, "csrf_token": "t"})
    body = r.get_data(as_text=True)
    if r.status_code in REFUSALS:
        return None if "flash-error" in body else f"{r.status_code} without its error"
    if r.status_code != 303:
        return f"{r.status_code}, not a redirect"
    where = r.headers["Location"]
    for _hop in range(5):  # the GET page it leads to is there
        got = client.get(where)
        if got.status_code != 303 and got.status_code != 302:
            break
        where = got.headers["Location"]
    if got.status_code != 200 and not (got.status_code in REFUSALS and
                                       "flash-error" in got.get_data(as_text=True)):
        return f"303 to {where}, which answers {got.status_code}"
    return None


@pytest.mark.parametrize("endpoint", sorted(CASES))
def test_a_forms_post_answers_a_redirect(app, client, endpoint):
    kind, path, cases = CASES[endpoint]
    sid = _table(app, client, kind)
    url = path.format(sid=sid)
    wrong = []
    for k, case in enumerate(cases):
        case = {key: (v.format(sid=sid) if isinstance(v, str) else v)
                for key, v in case.items()}
        for data in (case, *({**case, key: bad} for key in case for bad in HOSTILE)):
            said = _answered(client, url, {"client_id": f"c{k}-{len(wrong)}", **data})
            if said:
                wrong.append(f"{data}: {said}")
        _csrf(client)  # an unlock or a new table may have started the session anew
    said = _answered(client, url, {})
    assert wrong + ([f"an empty form: {said}"] if said else []) == []


def test_the_confirm_steps_are_pages_of_their_own(app, client):
    """The host's confirm steps (three drew a page in answer to their post;
    a revoke asked nothing): each leads to a GET page that asks, and asking
    writes nothing."""
    sid = _table(app, client, "played")
    r = client.post(f"/s/{sid}/invite", data={"role": "seat", "player": "Ann", "csrf_token": "t"})
    assert r.status_code == 303
    before = _chain_end(app, sid)
    asked = {"/s/{sid}/hands/1/disputes/1/settle": {"by": "Ben", "how": "corrected"},
             "/s/{sid}/manage/close": {"sure": "1"}, "/s/{sid}/manage/leave": {"player": "Cy"},
             "/s/{sid}/invite": {"role": "seat", "player": "Ann", "revoke": "1"}}
    for path, form in asked.items():
        url = path.format(sid=sid)
        r = client.post(url, data={**form, "csrf_token": "t", "client_id": "ask"})
        assert r.status_code == 303 and r.headers["Location"].startswith(url + "?")
        page = client.get(r.headers["Location"]).get_data(as_text=True)
        assert 'id="confirm-yes"' in page and 'name="confirm" value="1"' in page
        assert re.search(r'name="client_id" value="ask"', page)
        # asked again (a reload): the same question, nothing written
        assert client.get(r.headers["Location"]).get_data(as_text=True).count("confirm-yes") == 1
    assert _chain_end(app, sid) == before


def _chain_end(app, sid: str):
    from referee.service.table import following
    from referee.web.db import get_db

    with app.app_context():
        return following.chain_end(get_db(), sid)
