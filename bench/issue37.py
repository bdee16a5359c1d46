"""Every figure of issue 37 in one run, each against its target.

    .venv/bin/python bench/issue37.py --against /path/to/42a3a6c-checkout [--quick]

Run by hand, never as a test. ``--against`` is a checkout of the commit the
issue measures against (``42a3a6c``) with its own ``.venv`` (``python3 -m
venv .venv && .venv/bin/pip install -e .``). Each benchmark of ``bench/``
runs in turn as a process of its own, with this checkout's interpreter, and
prints its figures as it goes; at the end one line per figure repeats each
benchmark's own verdict, with the host's load (``/proc/loadavg``) at its
start and end. The benchmarks themselves say how they measure; this only
runs them together, so that the figures come from one sitting on one host.
``--quick`` runs fewer rounds (a check that everything runs, not figures).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (issue 37's figure, its target, the benchmark's arguments (``{against}``:
# the other checkout), the pattern of the benchmark's verdict lines)
FIGURES = [
    ("engine CPU a hand", "<= 42a3a6c's",
     ["engine.py", "--against", "{against}", "--pairs", "{pairs}"], r"^ratio this/against"),
    ("replay --json, 10,000 hands", "<= 6x a bare json.load process",
     ["replay.py", "--repeat", "{repeat}"], r"over the bare process"),
    ("settle --pdf, 10,000 hands", "<= 3 s or <= 0.7x before",
     ["settle.py", "--against", "{against}", "--rounds", "{rounds}"], r"^ratio this/against"),
    ("the text report", "<= 42a3a6c's",
     ["report.py", "--against", "{against}", "--rounds", "{rounds}"], r"^ratio this/against"),
    ("verify, 1,000 and 10,000 hands", "<= 1.5x its floor",
     ["verify.py", "--repeat", "{repeat}"], r"verify wall best"),
    ("120 live streams", ">= 0.9x the actions a second",
     ["load.py", "--no-long", "--actions", "100", "--streams", "120", "--pair",
      "--repeat", "{repeat}"], r"with / without"),
    ("the 10-hand table page", "<= 42a3a6c's CPU a request",
     ["table_page.py", "--against", "{against}", "--rounds", "{rounds}"], r"^ratio this/against"),
]


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", type=Path, required=True,
                    help="a checkout of 42a3a6c with its own .venv")
    ap.add_argument("--quick", action="store_true", help="fewer rounds: does it all run")
    ap.add_argument("--only", nargs="+", help="the benchmarks to run (e.g. verify.py)")
    args = ap.parse_args()
    counts = ({"pairs": "2", "rounds": "1", "repeat": "1"} if args.quick
              else {"pairs": "10", "rounds": "5", "repeat": "5"})
    said: list[tuple[str, str, str, list[str], float]] = []
    failed = 0
    for figure, target, argv, verdict in FIGURES:
        if args.only and argv[0] not in args.only:
            continue
        argv = [a.format(against=args.against, **counts) for a in argv]
        before, start = load(), time.monotonic()
        print(f"\n=== {figure} (target {target}): bench/{' '.join(argv)}  [load {before}]",
              flush=True)
        proc = subprocess.run([sys.executable, str(ROOT / "bench" / argv[0]), *argv[1:]],
                              cwd=ROOT, capture_output=True, text=True)
        print(proc.stdout, end="", flush=True)
        if proc.returncode:
            failed += 1
            print(proc.stderr[-2000:], file=sys.stderr)
        lines = [line.strip() for line in proc.stdout.splitlines() if re.search(verdict, line)]
        said.append((figure, target, f"{before} -> {load()}",
                     lines or [f"(no verdict: exit {proc.returncode})"],
                     time.monotonic() - start))
    print("\n=== issue 37's figures, this sitting")
    for figure, target, loads, lines, took in said:
        print(f"- {figure} (target {target}; load {loads}; {took:.0f} s)")
        for line in lines:
            print(f"    {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
