"""``referee settle --pdf`` of a 10,000-hand log as a whole process, side by
side with another checkout.

    .venv/bin/python bench/settle.py --against DIR [--hands N] [--rounds R]

Run by hand, never as a test. The log is bench/replay.py's; each side is
its checkout's own ``.venv/bin/referee`` (a plain install, as the README
sets up), the two taking turns (bench/pairs.py: CPU time, user and system,
beside the wall clock). Prints each side's best and median and the ratio of
this checkout's CPU time to the other's, and whether the two papers are the
same bytes. Target (issue 37): at most 0.7x the commit before the collector
was paused for it (or 3 s on a quiet host).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import pairs  # noqa: E402
from engine import log_file  # noqa: E402

TARGET = 0.7


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", type=Path, required=True, help="a checkout with its .venv")
    ap.add_argument("--this", type=Path, default=ROOT)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    log = log_file(args.hands)
    out = Path(tempfile.mkdtemp(prefix="tonk-settle-"))
    commands = {name: [str(checkout / ".venv" / "bin" / "referee"), "settle", str(log),
                       "--pdf", str(out / f"{name}.pdf")]
                for name, checkout in (("this", args.this), ("against", args.against))}
    runs = pairs.take_turns(commands, args.rounds, cwd=out)
    print(f"referee settle --pdf, {args.hands} hands, {args.rounds} runs a side, alternating")
    pairs.show(runs)
    same = (out / "this.pdf").read_bytes() == (out / "against.pdf").read_bytes()
    print(f"{pairs.verdict(runs, TARGET)}; "
          f"the papers are {'the same bytes' if same else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
