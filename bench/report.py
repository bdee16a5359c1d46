"""The text report (``referee replay LOG``, no ``--json``) of a 10,000-hand
log as a whole process, side by side with another checkout.

    .venv/bin/python bench/report.py --against DIR [--hands N] [--rounds R] [--lang L]

Run by hand, never as a test. The log is bench/replay.py's; each side is
its checkout's own ``.venv/bin/referee``, the two taking turns
(bench/pairs.py: CPU time, user and system, beside the wall clock). Prints
each side's best and median, the ratio of this checkout's CPU time to the
other's, and whether the two reports are the same text. Target (issue 37):
at most the other's (ratio <= 1.00) against the commit before the report
was split into ``_Forms`` (now in ``referee/reports/text.py``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import pairs  # noqa: E402
from engine import log_file  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", type=Path, required=True, help="a checkout with its .venv")
    ap.add_argument("--this", type=Path, default=ROOT)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--lang", default="en")
    args = ap.parse_args()
    log = log_file(args.hands)
    commands = {name: [str(checkout / ".venv" / "bin" / "referee"), "replay", str(log),
                       "--lang", args.lang]
                for name, checkout in (("this", args.this), ("against", args.against))}
    texts = {name: subprocess.run(argv, check=True, capture_output=True,
                                  cwd=tempfile.gettempdir()).stdout
             for name, argv in commands.items()}
    runs = pairs.take_turns(commands, args.rounds, cwd=tempfile.gettempdir())
    print(f"referee replay (the text report, {args.lang}), {args.hands} hands, "
          f"{args.rounds} runs a side, alternating")
    pairs.show(runs)
    same = texts["this"] == texts["against"]
    print(f"{pairs.verdict(runs, 1.0)}; "
          f"the reports are {'the same text' if same else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
