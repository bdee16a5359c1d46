"""``verify`` of a stored session against its floor, at 1,000 and 10,000 hands.

    .venv/bin/python bench/verify.py [--hands 1000 10000] [--repeat R]

Run by hand, never as a test. Each log (bench/replay.py's) is imported with
``referee import`` into a fresh database; then, in this process, R times
each, taking turns: ``trust.verify_session`` of the session (which may fork
a second process beside it) and the floor, reading every event of the
session and hashing it as the chain does (``record.chain.event_hash``: its
canonical JSON, SHA-256), in one process. Prints each size's best and
median wall clock and CPU time (this process's and its children's, user and
system) and verify's ratio to the floor. Target (issue 37): verify at most
1.5x its floor at every size (the wall clock, best and median).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from engine import log_file  # noqa: E402

from referee.record.chain import event_hash  # noqa: E402
from referee.service import storage, trust  # noqa: E402


def cpu() -> float:
    me = os.times()
    return me.user + me.system + me.children_user + me.children_system


def timed(fn) -> tuple[float, float]:
    c, w = cpu(), time.perf_counter()
    fn()
    return time.perf_counter() - w, cpu() - c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, nargs="+", default=[1000, 10_000])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    referee = str(Path(sys.executable).with_name("referee"))
    worst = 0.0
    for hands in args.hands:
        tmp = Path(tempfile.mkdtemp(prefix="tonk-verify-"))
        path = tmp / "bench.sqlite3"
        sid = subprocess.run([referee, "import", str(log_file(hands)), "--db", str(path)],
                             check=True, capture_output=True, text=True).stdout.split()[-1]
        db = storage.connect(path)
        assert not trust.verify_session(db, sid)

        def floor(db=db, sid=sid):
            cur = db.conn.execute(
                "SELECT id, chain, session_id, hand, seq, kind, payload, client_id, created, "
                "prev_hash, hash FROM events WHERE session_id = ? ORDER BY seq", (sid,))
            keys = [d[0] for d in cur.description]
            for values in cur:
                event_hash(values[9], dict(zip(keys, values, strict=True)))

        runs: dict[str, list[tuple[float, float]]] = {"verify": [], "floor": []}
        for i in range(args.repeat):
            order = [("verify", lambda db=db, sid=sid: trust.verify_session(db, sid)),
                     ("floor", floor)]
            for name, fn in (order if i % 2 == 0 else order[::-1]):
                runs[name].append(timed(fn))
        events = db.conn.execute("SELECT count(*) FROM events WHERE session_id = ?",
                                 (sid,)).fetchone()[0]
        db.close()
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()
        wall = {k: sorted(w for w, _ in v) for k, v in runs.items()}
        cpus = {k: sorted(c for _, c in v) for k, v in runs.items()}
        best = wall["verify"][0] / wall["floor"][0]
        med = statistics.median(wall["verify"]) / statistics.median(wall["floor"])
        worst = max(worst, best, med)
        print(f"{hands} hands ({events} events): verify wall best {wall['verify'][0]:.3f} s "
              f"(median {statistics.median(wall['verify']):.3f}), CPU best "
              f"{cpus['verify'][0]:.3f} s; floor wall best {wall['floor'][0]:.3f} s (median "
              f"{statistics.median(wall['floor']):.3f}), CPU best {cpus['floor'][0]:.3f} s; "
              f"ratio to the floor {best:.2f}x (median {med:.2f}x, CPU "
              f"{cpus['verify'][0] / cpus['floor'][0]:.2f}x); "
              f"{'ok' if max(best, med) <= 1.5 else 'OVER'} (<= 1.5x)")
    return 0 if worst <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
