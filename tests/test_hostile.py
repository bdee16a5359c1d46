"""Hostile documents, generated: deep nesting, huge numbers, lone surrogates,
wrong types, extra fields, dropped fields, put anywhere in a good log or
request. The CLI answers 0, 1 or 2 and never prints a traceback; the API
answers below 500."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import main

BASE = json.loads((Path(__file__).resolve().parents[1] / "sample_logs" /
                   "pagat_basic.json").read_text())
ROOT = Path(__file__).resolve().parents[1]


def deep(n: int):
    value: object = []
    for _ in range(n):
        value = [value]
    return value


HOSTILE = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([10**30, -1, 0, 2**63, 2**64, 1e26, 1e308, -1e308, 5e-324, 0.1]),
    st.text(max_size=30),
    st.sampled_from(["\ud800", "a\udfffb", "1e26", "1e-30", "NaN", "Infinity", "-0",
                     "", " ", ":", "\x00", "yesterday", "9" * 400, "X9", "??"]),
    st.booleans(), st.none(),
    st.integers(min_value=30, max_value=400).map(deep),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.lists(st.text(max_size=5), max_size=12),
)


def paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from paths(value, (*prefix, i))


PATHS = [p for p in paths(BASE) if p]


@st.composite
def hostile_logs(draw):
    doc = json.loads(json.dumps(BASE))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PATHS))
        target = doc
        try:
            for key in path[:-1]:
                target = target[key]
            how = draw(st.sampled_from(["replace", "extra", "drop"]))
            if how == "replace":
                target[path[-1]] = draw(HOSTILE)
            elif how == "extra" and isinstance(target, dict):
                target[draw(st.text(max_size=8))] = draw(HOSTILE)
            elif isinstance(target, dict):
                target.pop(path[-1], None)
        except (KeyError, IndexError, TypeError):
            pass
    return doc


SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


@SETTINGS
@given(doc=hostile_logs())
def test_the_cli_never_crashes(doc, tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    log = folder / "log.json"
    log.write_text(json.dumps(doc))  # lone surrogates go out escaped, as an attacker sends
    for argv in (["replay", str(log), "--json"], ["replay", str(log)],
                 ["import", str(log), "--db", str(folder / "db.sqlite3")],
                 ["settle", str(log), "--pdf", str(folder / "s.pdf")]):
        assert main(argv) in (0, 1, 2), argv


@SETTINGS
@given(doc=hostile_logs())
def test_the_api_never_answers_500(doc, client):
    r = client.post("/api/sessions", data=json.dumps(doc), content_type="application/json")
    assert r.status_code < 500, r.get_data()[:300]
    if r.status_code == 201:
        t = r.get_json()
        h = {"Authorization": f"Bearer {t['audit_token']}"}
        for tail in ("", "/log", "/result", "/standings", "/hands/1"):
            got = client.get(f"/api/sessions/{t['id']}{tail}", headers=h)
            assert got.status_code < 500, (tail, got.get_data()[:300])


@SETTINGS
@given(setup=st.dictionaries(st.sampled_from(["dealer", "upcard", "deal", "players",
                                               "stake_multiplier", "side_bets", "extra"]),
                             HOSTILE, max_size=4),
       action=HOSTILE, expected=HOSTILE)
def test_hands_and_actions_never_answer_500(setup, action, expected, client):
    t = client.post("/api/sessions", json={"stake": "1", "rules": "pagat",
                                           "players": ["Ann", "Ben", "Cy"]}).get_json()
    h = {"Authorization": f"Bearer {t['table_token']}"}
    base = f"/api/sessions/{t['id']}"
    r = client.post(f"{base}/hands", data=json.dumps({"dealer": "Ann", **setup}),
                    content_type="application/json", headers=h)
    assert r.status_code < 500, r.get_data()[:300]
    client.post(f"{base}/hands", json={"dealer": "Ann", "upcard": "7d"}, headers=h)
    r = client.post(f"{base}/hands/1/actions", headers=h, content_type="application/json",
                    data=json.dumps({"action": action, "client_id": "c1",
                                     "expected_seq": expected}))
    assert r.status_code < 500, r.get_data()[:300]
    r = client.post(f"{base}/hands/1/undo", headers=h, content_type="application/json",
                    data=json.dumps({"client_id": action, "expected_seq": expected}))
    assert r.status_code < 500, r.get_data()[:300]


def test_the_installed_command_refuses_hostile_files_without_a_traceback(tmp_path):
    deep_log = tmp_path / "deep.json"
    deep_log.write_text("[" * 100_000 + "]" * 100_000)
    lone = tmp_path / "lone.json"
    doc = json.loads(json.dumps(BASE))
    doc["hands"][0]["actions"][0] = "Ben: draw \ud800"
    lone.write_text(json.dumps(doc))
    for log in (deep_log, lone):
        done = subprocess.run([sys.executable, "-m", "referee.cli", "replay", str(log),
                               "--json"], capture_output=True, text=True, cwd=ROOT,
                              timeout=60)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert json.loads(done.stdout)["error"]["code"] == "malformed_log"
