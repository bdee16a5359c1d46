"""The 10-hand table page's CPU per request, side by side with another checkout.

    .venv/bin/python bench/table_page.py --against DIR [--rounds R] [--requests N]

Run by hand, never as a test. Each round starts a process per side (its
checkout's own ``.venv``, started outside the checkout): the app on a fresh
SQLite database, bench/replay.py's 10-hand log imported over the API, the
table unlocked as a browser does, the page read once to warm it, then N
reads of ``/s/<id>`` through Flask's test client, each timed by the thread's
CPU clock (what the request itself costs; the other agents on a shared host
take the wall clock, not this). The sides take turns, each round in the
other order. Prints each side's best and median CPU per request, the bytes
of the page, and the ratio of this checkout's median to the other's. Target
(issue 37): at most the other's (ratio <= 1.00) against ``42a3a6c``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from engine import log_file  # noqa: E402

# Only names both sides have (the app factory, the API import, the unlock form).
CHILD = r"""
import json, re, statistics, sys, tempfile, time
from pathlib import Path
from referee.web import create_app
log_path, n = sys.argv[1], int(sys.argv[2])
tmp = Path(tempfile.mkdtemp(prefix="tonk-page-"))
app = create_app({"DATABASE": str(tmp / "bench.sqlite3"), "TESTING": True})
client = app.test_client()
answer = client.post("/api/sessions", data=open(log_path, "rb").read(),
                     content_type="application/json")
assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
info = answer.get_json()
sid = info["id"]
page = client.get(f"/s/{sid}/unlock").get_data(as_text=True)
csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
done = client.post(f"/s/{sid}/unlock", data={"csrf_token": csrf, "pin": info["table_token"]})
assert done.status_code in (302, 303), done.status_code
first = client.get(f"/s/{sid}")
assert first.status_code == 200
times = []
for _ in range(n):
    t = time.thread_time()
    got = client.get(f"/s/{sid}")
    times.append(time.thread_time() - t)
    assert got.status_code == 200
print(json.dumps({"times": times, "bytes": len(first.get_data())}))
"""


def measure(checkout: Path, log: Path, n: int) -> dict:
    out = subprocess.run([str(checkout / ".venv" / "bin" / "python"), "-c", CHILD, str(log),
                          str(n)], check=True, capture_output=True, text=True,
                         cwd=tempfile.gettempdir())
    return json.loads(out.stdout.splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", type=Path, required=True, help="a checkout with its .venv")
    ap.add_argument("--this", type=Path, default=ROOT)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--requests", type=int, default=200)
    args = ap.parse_args()
    log = log_file(10)
    sides = {"this": args.this, "against": args.against}
    times: dict[str, list[float]] = {name: [] for name in sides}
    medians: dict[str, list[float]] = {name: [] for name in sides}
    size = {}
    for i in range(args.rounds):
        for name in (list(sides) if i % 2 == 0 else list(sides)[::-1]):
            got = measure(sides[name], log, args.requests)
            times[name] += got["times"]
            medians[name].append(statistics.median(got["times"]))
            size[name] = got["bytes"]
    print(f"GET /s/<id> of a 10-hand table, {args.rounds} rounds of {args.requests} a side")
    for name in sides:
        print(f"  {name:<8} CPU a request best {min(times[name]) * 1e3:6.2f} ms, median "
              f"{statistics.median(times[name]) * 1e3:6.2f} ms (rounds' medians "
              f"{', '.join(f'{m * 1e3:.2f}' for m in medians[name])}); {size[name]:,} bytes")
    ratio = statistics.median(times["this"]) / statistics.median(times["against"])
    best = min(times["this"]) / min(times["against"])
    print(f"ratio this/against, CPU a request: median {ratio:.2f}x, best {best:.2f}x; "
          f"{'met' if ratio <= 1 else 'NOT met'} (target <= 1.00x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
