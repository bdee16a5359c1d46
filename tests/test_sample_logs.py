"""Data-driven: every log in sample_logs/ replays to the result beside it.

``NAME.json`` is a session log; ``NAME.expected.json`` is what ``referee
replay NAME.json --json`` must print (with ``exit_status`` added for logs
that break a rule or are malformed). Errors are compared by hand, action,
code and exit status: the sentence may be reworded.
"""

import json
from pathlib import Path

import pytest

from referee.cli import main

from .samples import cover

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
LOGS = sorted(p for p in SAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def _legal(log: Path) -> bool:
    return "error" not in json.loads(log.with_suffix(".expected.json").read_text())


LEGAL = [p for p in LOGS if _legal(p)]


def test_there_are_samples_for_every_kind_of_ending():
    outcomes = set()
    for log in LOGS:
        expected = json.loads(log.with_suffix(".expected.json").read_text())
        outcomes |= {h["outcome"] for h in expected.get("hands", [])}
    assert outcomes >= {"deal_win", "thrown_in", "tonk_out", "out", "drop_won", "caught",
                        "stock_out", "dead"}


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_sample_log_replays_as_expected(log, capsys):
    expected = json.loads(log.with_suffix(".expected.json").read_text())
    status = main(["replay", str(log), "--json"])
    out = json.loads(capsys.readouterr().out)
    if "error" in expected:
        assert status == expected["exit_status"], out
        want = {k: expected["error"][k] for k in ("hand", "action", "code")}
        got = {k: out["error"][k] for k in ("hand", "action", "code")}
        assert got == want, out["error"]["message"]
        assert out["error"]["message"]
    else:
        assert status == 0, out
        assert out == expected


# The samples that between them have every feature of these (tests/samples.py):
# what this checks lies in what a log has; every sample is replayed against its
# expected result above.
@pytest.mark.parametrize("log", sorted(cover(tuple(LEGAL))), ids=lambda p: p.stem)
def test_sample_log_readable_report(log, capsys):
    from referee.language import gettext

    assert main(["replay", str(log)]) == 0
    text = capsys.readouterr().out
    # In the table's language (the log's own).
    assert gettext(json.loads(log.read_text()).get("language", "en"), "totals") in text


@pytest.mark.parametrize("log", sorted(cover(tuple(LEGAL))), ids=lambda p: p.stem)
def test_write_then_read_gives_back_the_same_document(log):
    from referee.record import dump_log, load_log, parse_log_text, write_log

    doc = json.loads(log.read_text())
    assert dump_log(load_log(doc)) == doc
    assert parse_log_text(write_log(load_log(doc))) == load_log(doc)
