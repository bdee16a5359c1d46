"""What a request carrying the host key costs the server (run by hand, not a
test).

Each request with the host key counts a try before the key is checked, and
clears the count once it is right: two writes of ``attempts`` (with their
anchor: docs/decisions.md, issue 34). Measured as the processor time of the
whole process (the request's thread and the group committer's, as
``referee serve`` runs it) per ``GET /api/club/people`` through the app in
this process (Flask's test client, a new database), per call of
``access.host_key`` alone, and per table opened from one address
(``access.opening``: a use counted, a write of ``attempts`` each). Each
round prints the load average beside it: on a shared host the figures mean
little without it.

    .venv/bin/python bench/host_key.py [--requests 300] [--calls 1000] [--rounds 5]
    .venv/bin/python bench/host_key.py --db postgresql://...   # a new schema in it

A side-by-side with another checkout: copy this file into its bench/ and run
it there with this venv (it imports the checkout it sits in; it prints
which).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KEY = "bench-host-key"


def load() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 3)[0]


def database(url: str | None, tmp: str) -> str:
    if url is None:
        return str(Path(tmp) / "host_key.sqlite3")
    from referee.service import storage

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    storage.connect(url).execute(f"CREATE SCHEMA {schema}")
    return f"{url}{'&' if '?' in url else '?'}options={quote(f'-c search_path={schema}')}"


def per_request(client, n: int) -> list[float]:
    """Each request's processor time (the process's: the committer's too), µs."""
    headers = {"X-Host-Key": KEY}
    spent = []
    for _ in range(n):
        c0 = time.process_time()
        r = client.get("/api/club/people", headers=headers)
        spent.append((time.process_time() - c0) * 1e6)
        assert r.status_code == 200, r.data[:300]
    return spent


def per_call(db, n: int) -> float:
    """``access.host_key``'s mean processor time per call, µs."""
    from referee.service import access

    c0 = time.process_time()
    for _ in range(n):
        assert access.host_key(db, KEY, KEY, "api", "192.0.2.44")
    return (time.process_time() - c0) * 1e6 / n


def per_opening(db, n: int) -> float:
    """``access.opening``'s mean processor time per call, µs: a use counted
    in ``attempts`` in a write of its own (its anchor moved with it), as a
    wrong try is."""
    from referee.service import access

    c0 = time.process_time()
    for _ in range(n):
        access.opening(db, "192.0.2.45", most=10**9, window=1e9)
    return (time.process_time() - c0) * 1e6 / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db", help="a PostgreSQL URL (default: a new SQLite file)")
    args = parser.parse_args()
    from referee.service import storage
    from referee.web import create_app

    print(f"code: {Path(sys.modules['referee'].__file__).parent}")
    requests, calls, openings = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = database(args.db, tmp)
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "REFEREE_HOST_KEY": KEY})
        client = app.test_client()
        db = storage.connect(path)
        per_request(client, 20)  # warm: the routes, the statements
        for n in range(args.rounds):
            before = load()
            spent = per_request(client, args.requests)
            calls.append(per_call(db, args.calls))
            openings.append(per_opening(db, args.calls))
            requests.append(statistics.median(spent))
            print(f"round {n + 1}: a request {requests[-1]:,.0f} µs (median of "
                  f"{args.requests}), access.host_key {calls[-1]:,.0f} µs, access.opening "
                  f"{openings[-1]:,.0f} µs (means of {args.calls}); load {before} -> {load()}")
    for name, figures in (("a request", requests), ("access.host_key", calls),
                          ("access.opening", openings)):
        print(f"{name}: best {min(figures):,.0f} µs, median "
              f"{statistics.median(figures):,.0f} µs")


if __name__ == "__main__":
    main()
