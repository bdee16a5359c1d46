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
# languages, the web service, the papers, PostgreSQL, SQLite; pathlib (9 M
# instructions of a replay's start-up) for a file's name alone. Counted from
# the interpreter's start: an editable install's import hook loads pathlib
# before the referee runs.
NEVER = ("marshmallow", "babel", "flask", "reportlab", "psycopg", "logging",
         "sqlite3", "pathlib")
# The referee's own: the readable report (``--json`` prints the numbers alone).
NEVER_OWN = ("referee.reports",)

CHILD = """
import sys
before = set(sys.modules)
import io, json
from contextlib import redirect_stdout
from referee import cli
with redirect_stdout(io.StringIO()):
    status = cli.main(["replay", sys.argv[1], "--json"])
print(json.dumps([status, sorted(set(sys.modules) - before)]))
"""


@pytest.mark.parametrize("sample", ["baton_rouge_forty.json", "chicago_wild.json"])
def test_a_replay_loads_none_of_the_other_commands_modules(sample):
    out = subprocess.run([sys.executable, "-c", CHILD, str(SAMPLES / sample)], check=True,
                         capture_output=True, text=True).stdout
    status, modules = json.loads(out)
    assert status == 0
    loaded = {name.split(".")[0] for name in modules}
    assert [name for name in NEVER if name in loaded] == []
    assert [name for name in modules if name.startswith(NEVER_OWN)] == []
