"""What `referee replay --json` loads at start-up: none of the modules only
other commands use (docs/decisions.md, "Replay speed"; issue 37: its start-up
is part of the replay's figure against a bare ``json.load`` process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"

# Each is loaded by a command a replay is not: the schema's reader, the
# languages, the web service, the papers, PostgreSQL, SQLite.
NEVER = ("marshmallow", "babel", "flask", "reportlab", "psycopg", "logging",
         "sqlite3")

CHILD = """
import io, json, sys
from contextlib import redirect_stdout
from referee import cli
with redirect_stdout(io.StringIO()):
    status = cli.main(["replay", sys.argv[1], "--json"])
print(json.dumps([status, sorted(sys.modules)]))
"""


@pytest.mark.parametrize("sample", ["baton_rouge_forty.json", "chicago_wild.json"])
def test_a_replay_loads_none_of_the_other_commands_modules(sample):
    out = subprocess.run([sys.executable, "-c", CHILD, str(SAMPLES / sample)], check=True,
                         capture_output=True, text=True).stdout
    status, modules = json.loads(out)
    assert status == 0
    loaded = {name.split(".")[0] for name in modules}
    assert [name for name in NEVER if name in loaded] == []
