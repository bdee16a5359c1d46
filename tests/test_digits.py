"""Numbers read from input are ASCII digits, everywhere (issue 34, item 6):
``²`` passes ``str.isdigit()`` and ``int()`` refuses it (a 500), ``١``
(Arabic-Indic one) passes both and was read as 1. Each place that reads a
number from a request, a header, an action's text, a log or a form field
refuses both, clearly, and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.rules import numbers
from referee.rules.actions import parse_action
from referee.rules.errors import MalformedInput

from .test_api import Game, bearer
from .test_phones import _link
from .test_tablet import create, form_value, hand_page, start

ROOT = Path(__file__).resolve().parents[1]
OTHER_DIGITS = ["²", "١", "7²", "１"]  # superscript, Arabic-Indic, mixed, fullwidth


@pytest.mark.parametrize("text", OTHER_DIGITS + ["", "-1", "+1", " 1", "1 ", "1" * 19])
def test_only_ascii_digits_are_a_whole_number(text):
    assert numbers.whole(text) is None
    assert not numbers.is_whole(text)


@pytest.mark.parametrize("text", ["0", "7", "0012", "9" * 18])
def test_ascii_digits_are_read(text):
    assert numbers.whole(text) == int(text)


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_a_spread_in_another_script_is_refused(digit):
    with pytest.raises(MalformedInput) as err:
        parse_action(f"Ben: hit S{digit} 7c")
    assert err.value.code == "bad_action"


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_a_shown_count_in_another_script_is_refused(digit):
    with pytest.raises(MalformedInput):
        parse_action(f"Ben: show ={digit}")


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_the_api_refuses_other_digits_without_a_500(client, digit):
    g = Game(client)
    g.start()
    viewer = _link(g, "viewer")["token"]
    seat = _link(g, "seat", g.sim.hand.players[g.sim.hand.turn])["token"]
    head = "0" * 64
    r = client.get(g.url(f"/consistency?seq={digit}&head={head}"), headers=bearer(viewer))
    assert r.status_code == 400, r.get_data()[:300]
    for headers, query in ((bearer(viewer) | {"Last-Event-ID": digit}, ""),
                           (bearer(viewer), f"?last={digit}")):
        r = client.get(g.url(f"/stream{query}"), headers=headers, buffered=False)
        assert r.status_code == 200, r.get_data()[:300]
        r.close()
    player = g.sim.hand.players[g.sim.hand.turn]
    for token_ in (g.table, seat):
        r = g.post(f"{player}: hit S{digit} 7c", token=token_)
        assert r.status_code == 422, r.get_data()[:300]
        assert r.get_json()["error"]["code"] == "bad_action"
    assert client.get(g.url(), headers=bearer(g.audit)).get_json()["hands"] == 1


def test_an_imported_log_with_other_digits_is_refused(client):
    for digit in OTHER_DIGITS:
        doc = json.loads((ROOT / "sample_logs/baton_rouge_forty.json").read_text())
        doc["hands"][0]["actions"][6] = f"Ann: hit S{digit} Qd"
        r = client.post("/api/sessions", json=doc)
        assert r.status_code == 400, r.get_data()[:300]
        assert r.get_json()["error"]["code"] == "bad_action"


def test_the_cli_refuses_other_digits_with_exit_2_and_no_traceback(tmp_path):
    doc = json.loads((ROOT / "sample_logs/baton_rouge_forty.json").read_text())
    doc["hands"][0]["actions"][6] = "Ann: hit S² Qd"
    log = tmp_path / "log.json"
    log.write_text(json.dumps(doc))
    for args in (["replay", str(log)], ["replay", str(log), "--json"],
                 ["audit", str(log), "--hand", "²", "--pdf", str(tmp_path / "a.pdf")],
                 ["whatif", str(log), "--rules", "pagat", "--hand", "١"]):
        done = subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True,
                              text=True, cwd=ROOT, timeout=60)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- the tablet's forms

def _tablet(client):
    sid = create(client)
    assert start(client, sid).status_code == 303
    return sid


@pytest.mark.parametrize("digit", ["²", "١"])
def test_the_tablet_forms_refuse_other_digits_without_a_500(client, digit):
    sid = _tablet(client)
    page = hand_page(client, sid)
    csrf, seq = form_value(page, "csrf_token"), form_value(page, "expected_seq")
    base = {"csrf_token": csrf, "client_id": "t1", "expected_seq": seq}
    posts = [
        (f"/s/{sid}/hands/1/act", {**base, "act": f"{digit}:draw"}),
        (f"/s/{sid}/hands/1/act", {**base, "act": "1:draw", "expected_seq": digit}),
        (f"/s/{sid}/hands/1/act", {**base, "act": "all:count", "count0": digit}),
        (f"/s/{sid}/hands/1/undo", {**base, "expected_seq": digit}),
        (f"/s/{sid}/hands/1/dispute", {**base, "by": "Ann", "note": "no", "action": digit}),
        (f"/s/{sid}/hands/quick", {"csrf_token": csrf,
                                   "client_id": "q1", "dealer": "Ann", "how": "tonk_out",
                                   "by": digit, "hand": digit}),
        (f"/s/{sid}/hands/new", {"csrf_token": csrf, "client_id": "n1", "dealer": "Ann",
                                 "hand": digit}),
    ]
    for path, data in posts:
        r = client.post(path, data=data)
        assert r.status_code < 500, (path, data, r.get_data()[:300])
    for path in (f"/s/{sid}/hands/quick?pick=tonk_out:&by={digit}&hand={digit}",
                 f"/s/{sid}/hands/new?hand={digit}", f"/s/{sid}/standings?page={digit}",
                 f"/s/{sid}?page={digit}"):
        r = client.get(path)
        assert r.status_code < 500, (path, r.get_data()[:300])


@pytest.mark.parametrize("change", [{"stake": "١"}, {"stake": "0.٢٥"},
                                    {"rules": {"preset": "pagat", "tonk_out_pays": "٢"}}])
def test_decimals_in_another_script_are_refused(change):
    from referee.record import load_log
    from referee.replay import replay
    from referee.rules.errors import RefereeError

    doc = json.loads((ROOT / "sample_logs/baton_rouge_forty.json").read_text())
    doc.update(change)
    with pytest.raises(RefereeError) as err:
        replay(load_log(doc))
    assert err.value.exit_status == 2
