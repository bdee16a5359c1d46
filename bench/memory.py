"""An import's memory against the replay's: the peak memory of
`referee import LOG` and of `referee replay LOG --json` on one long log.

    .venv/bin/python bench/memory.py [--hands N] [--runs R] [--keep]

Run by hand, never as a test (a 200,000-hand run needs about 4 GB free and
a few minutes; check `free -g` first, and run one at a time). Generates a
legal log with every card dealt (``devtools.samplegen``, about 870 bytes a
hand: 200,000 hands are about 174 MB), then runs each command R times,
alternating, each alone, and polls every 20 ms each process of the command
(the first and any it forked) for its resident memory (``VmRSS``) and its
proportional share (``Pss``: a page the fork still shares counted half in
each). Prints, per run, the peak of each process, the peak of the largest
(``max``) and the peak of the sum of their shares (``sum pss``: what the
machine gave the command). Target (issue 25): the import's peak at most
1 KB a hand above the replay's (200 MB at 200,000 hands).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.devtools.samplegen import make_session  # noqa: E402

REFEREE = str(Path(sys.executable).with_name("referee"))


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def _memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of ``pid`` in bytes; (0, 0) once it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            text = f.read()
    except OSError:
        return 0, 0
    rss = pss = 0
    for line in text.splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) * 1024
        elif line.startswith("Pss:"):
            pss = int(line.split()[1]) * 1024
    return rss, pss


def peak(argv: list[str]) -> dict:
    """Run ``argv`` to its end, polling it and its children; their peaks."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peaks: dict[int, int] = {}
    top_sum = 0
    while proc.poll() is None:
        pids = [proc.pid, *_children(proc.pid)]
        total = 0
        for pid in pids:
            rss, pss = _memory(pid)
            peaks[pid] = max(peaks.get(pid, 0), rss)
            total += pss
        top_sum = max(top_sum, total)
        time.sleep(0.02)
    err = proc.stderr.read().decode(errors="replace")
    if proc.returncode != 0:
        raise SystemExit(f"{argv} failed ({proc.returncode}): {err[-2000:]}")
    return {"seconds": time.perf_counter() - start, "processes": list(peaks.values()),
            "max": max(peaks.values()), "sum_pss": top_sum}


def mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--keep", action="store_true", help="keep the generated log for next time")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tonk-memory-"))
    log = Path(tempfile.gettempdir()) / f"tonk-memory-{args.hands}.json"
    try:
        if not log.exists():
            log.write_text(json.dumps(make_session(args.hands)))
        print(f"{args.hands} hands, {log.stat().st_size / 1e6:.0f} MB")
        figures: dict[str, list[dict]] = {"replay --json": [], "import": []}
        for run in range(args.runs):
            for name, argv in (("replay --json", [REFEREE, "replay", str(log), "--json"]),
                               ("import", [REFEREE, "import", str(log), "--db",
                                           str(tmp / f"import-{run}.sqlite3")])):
                got = peak(argv)
                figures[name].append(got)
                print(f"{name:<14} {got['seconds']:6.1f} s  max {mb(got['max'])}  "
                      f"sum pss {mb(got['sum_pss'])}  processes "
                      + ", ".join(mb(p) for p in got["processes"]), flush=True)
                for db in tmp.glob("import-*"):
                    db.unlink()
        over = [imp["max"] - rep["max"] for imp, rep in
                zip(figures["import"], figures["replay --json"], strict=True)]
        print(f"import over replay --json (max of the processes): median "
              f"{mb(statistics.median(over))}, {statistics.median(over) / args.hands:,.0f} "
              f"bytes a hand (target: at most 1,000)")
    finally:
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()
        if not args.keep:
            log.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
