"""A host's night between the hands (issue 24): what a table meets besides
play, each as the tablet and the API show it."""

from __future__ import annotations

import re
from pathlib import Path

from referee.cli import build_parser
from referee.record import load_log
from referee.replay import replay
from referee.reports.settlement import render_settlement
from tests.reports_fixtures import pdf_text
from tests.test_api import bearer

ROOT = Path(__file__).resolve().parents[1]


def _subparser(name: str):
    parser = build_parser()
    for action in parser._subparsers._group_actions:
        if name in action.choices:
            return action.choices[name]
    raise AssertionError(name)


# ------------------------------------------------------------------ 12, 13

def test_a_table_opened_through_the_api_records_when_it_opened(client):
    for doc in ({"format": "tonk-log/1", "stake": "1", "rules": "pagat", "players": ["A", "B"]},
                {"format": "tonk-log/1", "stake": "1", "rules": "pagat", "players": ["A", "B"],
                 "hands": []}):
        r = client.post("/api/sessions", json=doc)
        assert r.status_code == 201, r.get_json()
        made = r.get_json()
        log = client.get(f"/api/sessions/{made['id']}/log",
                         headers=bearer(made["audit_token"])).get_json()
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", log.get("started", "")), log
        text = pdf_text(render_settlement(replay(load_log(log), allow_open_last_hand=True)))
        assert "not recorded" not in text and "Opened" in text


def test_the_readme_says_every_new_table_asks_for_the_host_key():
    text = " ".join((ROOT / "README.md").read_text().split())
    assert "once `REFEREE_HOST_KEY` is set" in text and "every new table asks for it" in text


def test_serve_host_has_help_text():
    serve = _subparser("serve")
    helps = {a.dest: a.help for a in serve._actions}
    assert helps["host"] and "0.0.0.0" in helps["host"]
    assert helps["port"]
