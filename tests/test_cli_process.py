"""``referee replay`` as a whole process, as people and CI call it: the
command exits at once after writing (``cli.run``), so what it wrote and its
exit status must come through intact."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.devtools.simulate import random_session
from referee.replay import replay

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def referee(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("name", ["pagat_catch_tie", "err_out_of_turn", "err_bad_action"])
def test_json_output_and_exit_status(name):
    expected = json.loads((SAMPLES / f"{name}.expected.json").read_text())
    done = referee("replay", str(SAMPLES / f"{name}.json"), "--json")
    out = json.loads(done.stdout)
    assert done.returncode == expected.pop("exit_status", 0)
    if "error" in expected:
        assert {k: out["error"].get(k) for k in ("hand", "action", "code")} == \
            {k: expected["error"].get(k) for k in ("hand", "action", "code")}
    else:
        assert out == expected


def test_readable_report_and_its_errors():
    done = referee("replay", str(SAMPLES / "pagat_catch_tie.json"))
    assert done.returncode == 0 and "To settle up:" in done.stdout
    done = referee("replay", str(SAMPLES / "err_out_of_turn.json"))
    assert done.returncode == 1 and "rule broken [out_of_turn]" in done.stderr


def test_a_long_log_on_two_cores_writes_every_hand(tmp_path):
    # Long enough to be replayed in two halves: the child's half must arrive.
    # 30 random hands at three seats, 70 times over: the deal still passes left.
    log = random_session(11, hands=30, players=["Ann", "Ben", "Cy"])
    log["hands"] = log["hands"] * 70
    path = tmp_path / "long.json"
    path.write_text(json.dumps(log))
    done = referee("replay", str(path), "--json")
    assert done.returncode == 0
    out = json.loads(done.stdout)
    assert [h["hand"] for h in out["hands"]] == list(range(1, 2101))
    assert out == replay(log).result().to_json()


@pytest.mark.parametrize("args", [["rules", "pagat"], ["rules", "pagat", "--markdown"],
                                  ["replay", str(SAMPLES / "pagat_catch_tie.json"), "--json"]])
def test_a_reader_that_goes_away_gets_no_traceback(args):
    # `referee rules pagat | head -1`: the reader closes the pipe before the
    # command writes (closed here at once, so the write always fails).
    proc = subprocess.Popen([sys.executable, "-m", "referee", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 1
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_serving_on_a_taken_port_says_so_without_a_traceback(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = referee("serve", "--port", str(port), "--db", str(tmp_path / "r.sqlite3"))
    assert done.returncode == 2
    assert f"cannot serve on 127.0.0.1:{port}" in done.stderr and "--port" in done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def test_the_collector_is_set_for_serving():
    """A long-running server freezes what start-up made and collects its
    youngest generation every SERVING_THRESHOLD allocations (in a process of
    its own: a frozen collector would stay frozen in the test's)."""
    code = ("import gc; from referee.speed.collector import SERVING_THRESHOLD, "
            "settle_for_serving; before = gc.get_threshold(); settle_for_serving(); "
            "print(before[0], gc.get_threshold()[0] == SERVING_THRESHOLD, "
            "gc.get_freeze_count() > 1000, gc.isenabled())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["700", "True", "True", "True"], done.stderr


def test_serve_sets_the_collector_before_serving(monkeypatch, tmp_path):
    import waitress

    from referee.commands.service import run_server
    from referee.speed import collector
    from referee.web import create_app

    calls = []

    class Server:
        effective_port = 1

        def run(self):
            calls.append("run")
            raise KeyboardInterrupt

    monkeypatch.setattr(collector, "settle_for_serving", lambda: calls.append("settle"))
    monkeypatch.setattr(waitress, "create_server", lambda app, **kw: Server())
    db = str(tmp_path / "t.sqlite3")
    assert run_server(create_app({"DATABASE": db}), "127.0.0.1", 0, 2, db) == 0
    assert calls == ["settle", "run"]


@pytest.mark.parametrize("argv", [
    ["replay", "-h"], ["replay"], ["replay", "x.json", "--lang", "xx"], ["replay", "a", "b"],
    ["rules", "--help"], ["rules", "pagat", "--bogus"], ["rules", "-h", "pagat"],
])
def test_a_command_s_own_parser_says_what_the_whole_one_says(argv, capsys):
    """``replay`` and ``rules`` build only their own part of the command line
    (a replay's start-up): their usage, help and errors are the whole
    parser's, word for word."""
    from referee import cli

    said = []
    for parse in (cli.build_parser().parse_args, cli._parse):
        with pytest.raises(SystemExit) as stop:
            parse(argv)
        out, err = capsys.readouterr()
        said.append((stop.value.code, out, err))
    assert said[0] == said[1]
    assert said[0][1] or said[0][2]


def test_a_command_s_own_parser_reads_what_the_whole_one_reads():
    from referee import cli

    for argv in (["replay", "log.json", "--json"], ["rules", "pagat", "--lang", "de"],
                 ["rules"]):
        assert vars(cli.build_parser(argv[0]).parse_args(argv)) == \
            vars(cli.build_parser().parse_args(argv)) == vars(cli._parse(argv))
    assert cli._parse(["serve", "--port", "8001"]).port == 8001


def test_a_replay_s_command_line_loads_no_other_command():
    code = ("import sys; from referee.cli import _parse; _parse(['replay', 'x.json', '--json']); "
            "print(sorted(m for m in sys.modules if m.startswith('referee.commands.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_replay_in_process_holds_nothing_and_restores_the_collector(capsys):
    # Only a process that leaves at once (``cli.run``) holds what it read
    # until it leaves (``speed.exit.keep``); a caller that goes on (a test, a
    # tool calling ``main``) must get its memory and its collector back.
    import gc

    from referee import cli
    from referee.speed import exit as leaving

    assert gc.isenabled()
    for args in (["replay", str(SAMPLES / "pagat_catch_tie.json"), "--json"],
                 ["replay", str(SAMPLES / "pagat_catch_tie.json")]):
        assert cli.main(args) == 0
    assert leaving._held == [] and gc.isenabled()
    capsys.readouterr()


def test_a_process_that_leaves_at_once_keeps_what_it_read():
    # cli.run's own path: keep() holds, and the collector stays off, until
    # os._exit; the output is still whole.
    code = ("import gc, sys; from referee import cli; from referee.speed import exit as e; "
            "e.leave_at_once(); sys.argv = ['referee', 'replay', sys.argv[1], '--json']; "
            "args = cli._parse(sys.argv[1:]); status = args.func(args); "
            "print(len(e._held), gc.isenabled(), status, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, str(SAMPLES / "pagat_catch_tie.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.stderr.split() == ["1", "False", "0"]
    assert json.loads(done.stdout)["format"] == "tonk-result/1"


def test_settle_as_a_process_writes_the_whole_paper(tmp_path):
    # `referee settle` leaves at once once the paper is written (speed/exit):
    # the paper must be the same bytes as the command writes in-process.
    from referee import cli

    sample = str(SAMPLES / "pagat_catch_tie.json")
    done = subprocess.run([sys.executable, "-m", "referee", "settle", sample, "--pdf", "-",
                           "--date", "2026-11-29"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "in.pdf"
    assert cli.main(["settle", sample, "--pdf", str(out), "--date", "2026-11-29"]) == 0
    assert done.stdout.startswith(b"%PDF") and done.stdout == out.read_bytes()
