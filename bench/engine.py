"""The rules engine's CPU per hand: a 10,000-hand log judged and settled in
one process on one core, side by side with another checkout.

    .venv/bin/python bench/engine.py [--against DIR] [--pairs N] [--hands N]
    .venv/bin/python bench/engine.py --against DIR --instructions [--hands 2000]

Run by hand, never as a test. Each run is a fresh process (the checkout's
own ``.venv``, started outside the checkout so that it imports what is
installed): it reads bench/replay.py's log, then times with the process's
CPU clock (user and system: the other agents on a shared host take the
wall clock, not this) the sequential replay (``replay``: every action
judged) and the settling (``Session.result``), with the collector paused
as ``referee replay`` runs. The floor is ``json.loads`` of the same log in
the same process: a replay must at least read its input.

With ``--against DIR`` (a checkout with its own ``.venv``, such as the
commit issue 37 measures against) the two take turns, ``--pairs`` pairs,
each pair in the other order from the last, and the figure is this
checkout's hands per CPU-second over the other's (best and median of the
pairs' ratios). ``--instructions`` counts instructions instead
(``valgrind --tool=cachegrind``, ``PYTHONHASHSEED=0``, which counts the same
on a busy host): the process that replays less the same process stopping
before the replay. Both figures leave out what a process pays once (its
first table and hand, replayed before: a fixed cost, shown apart).

Target (issue 37): at least the other checkout's hands per CPU-second
(ratio >= 1.00), measured side by side.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

# The measured process: only names both sides of a comparison have
# (``referee.replay.replay`` and ``Session.result`` since issue 10).
CHILD = r"""
import gc, json, sys, time
log_path, stop = sys.argv[1], sys.argv[2]
from referee.replay import replay
data = open(log_path, "rb").read()
t = time.process_time()
log = json.loads(data)
floor = time.process_time() - t
gc.disable()
# What a process pays once (the first table opened, the first hand judged),
# apart: the figure is what each further hand costs.
t = time.process_time()
replay(dict(log, hands=log["hands"][:1])).result()
once = time.process_time() - t
if stop == "read":
    raise SystemExit(0)
t = time.process_time()
session = replay(log)
judged = time.process_time() - t
t = time.process_time()
result = session.result()
settled = time.process_time() - t
print(json.dumps({"floor": floor, "once": once, "replay": judged, "result": settled,
                  "hands": len(result.hands)}))
"""


def python_of(checkout: Path) -> str:
    return str(checkout / ".venv" / "bin" / "python")


def log_file(hands: int) -> Path:
    cache = Path(tempfile.gettempdir()) / f"tonk-bench-v2-{hands}.json"
    if not cache.exists():
        from replay import generate  # bench/replay.py: the same log it times

        cache.write_text(json.dumps(generate(hands)))
    return cache


def run_once(python: str, log: Path) -> dict:
    out = subprocess.run([python, "-c", CHILD, str(log), "all"], check=True,
                         capture_output=True, text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout)


def instructions(python: str, log: Path, stop: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        f"--cachegrind-out-file={out}", python, "-c", CHILD, str(log), stop],
                       check=True, capture_output=True, cwd=tmp,
                       env={**os.environ, "PYTHONHASHSEED": "0"})
        for line in out.read_text().splitlines():
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise RuntimeError("no summary in cachegrind's output")


def per_hand(run: dict) -> float:
    return (run["replay"] + run["result"]) / run["hands"]


def show(name: str, runs: list[dict]) -> None:
    hands = runs[0]["hands"]
    total = sorted(per_hand(r) for r in runs)
    best, median = total[0], statistics.median(total)
    floor = min(r["floor"] for r in runs)
    judged = min(r["replay"] for r in runs)
    settled = min(r["result"] for r in runs)
    once = min(r["once"] for r in runs)
    print(f"{name:<10} best {1 / best:7.0f} hands/CPU-s (median {1 / median:7.0f}); "
          f"judging {judged * 1e3:6.1f} ms, settling {settled * 1e3:5.1f} ms, the first "
          f"hand {once * 1e3:4.1f} ms (best); "
          f"ratio to the floor (json.loads, {floor * 1e3:.0f} ms) "
          f"{best * hands / floor:.2f}x")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", type=Path, help="another checkout with its own .venv")
    ap.add_argument("--this", type=Path, default=ROOT,
                    help="the checkout measured (default: this one)")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions under cachegrind instead (use --hands 2000)")
    args = ap.parse_args()
    log = log_file(args.hands)
    here = python_of(args.this)
    # As installed: pip byte-compiles a plain install; an editable checkout
    # (PYTHONDONTWRITEBYTECODE on this host) would compile what the replay
    # imports late in every run.
    compileall.compile_dir(str(args.this / "referee"), quiet=1)
    if args.instructions:
        sides = [("this", here)] + ([("against", python_of(args.against))]
                                    if args.against else [])
        counted = {}
        for name, python in sides:
            counted[name] = instructions(python, log, "all") - instructions(python, log, "read")
            print(f"{name:<10} {counted[name] / 1e6:9.1f} M instructions, "
                  f"{counted[name] / args.hands / 1e3:6.1f} k a hand")
        if args.against:
            print(f"ratio this/against: {counted['this'] / counted['against']:.3f} "
                  f"(target <= 1.000)")
        return 0
    runs: dict[str, list[dict]] = {"this": [], "against": []}
    ratios = []
    for i in range(args.pairs):
        order = [("this", here)]
        if args.against:
            order.append(("against", python_of(args.against)))
            if i % 2:
                order.reverse()
        pair = {name: run_once(python, log) for name, python in order}
        for name, run in pair.items():
            runs[name].append(run)
        if args.against:
            ratios.append(per_hand(pair["against"]) / per_hand(pair["this"]))
    print(f"{args.hands} hands, {args.pairs} runs a side (CPU time: user + system)")
    show("this", runs["this"])
    if args.against:
        show("against", runs["against"])
        ratio = min(per_hand(r) for r in runs["against"]) / min(per_hand(r) for r in runs["this"])
        print(f"ratio this/against, hands per CPU-second: best runs {ratio:.3f}; "
              f"pairs median {statistics.median(ratios):.3f} (range {min(ratios):.3f}-"
              f"{max(ratios):.3f}); {'met' if ratio >= 1 else 'NOT met'} (target >= 1.00)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
