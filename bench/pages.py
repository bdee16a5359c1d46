"""Pages that stay fast: every read of a long session against the same read
of a 10-hand one, and the import, verify and settlement PDF against floors.

    .venv/bin/python bench/pages.py [--hands N] [--repeat R]

Run by hand, never as a test. Imports a 10-hand and an N-hand session (the
legal sessions of bench/replay.py) through the API into a fresh database,
then times, best and median of R:

- GET of the session page, the standings page, the reports index (as a
  browser that unlocked the table with its token), the API standings and
  result: each long figure over its 10-hand figure (target: at most 2x);
  and the API result's first read in a process, built from every hand's
  row (shown, no target: the service keeps it up to date from there);
- the import: hands/s, and its ratio to a replay of the same log in process
  (target: 5,000 hands/s);
- ``referee verify`` of the long session against its floor, reading every
  event of the session and hashing it as the chain does
  (record/chain.event_hash: its canonical JSON, SHA-256) (target: at most 1.5x);
- the long session's settlement PDF, render only (target: under 2 s).

The host is shared and noisy: compare medians as well as bests.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from replay import best_of as timed  # noqa: E402
from replay import generate  # noqa: E402

from referee.record import load_log  # noqa: E402
from referee.record.chain import event_hash  # noqa: E402
from referee.replay import replay  # noqa: E402
from referee.reports.common import register_fonts  # noqa: E402
from referee.reports.settlement import render_settlement  # noqa: E402
from referee.service import storage, trust  # noqa: E402
from referee.service.table import cache  # noqa: E402
from referee.web import create_app  # noqa: E402


def log_of(hands: int) -> dict:
    cache = Path(tempfile.gettempdir()) / f"tonk-bench-v2-{hands}.json"
    if not cache.exists():
        cache.write_text(json.dumps(generate(hands)))
    return json.loads(cache.read_text())


def unlock(client, sid: str, token: str) -> None:
    page = client.get(f"/s/{sid}/unlock").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    answer = client.post(f"/s/{sid}/unlock", data={"csrf_token": csrf, "pin": token})
    assert answer.status_code in (302, 303), answer.status_code


def line(name: str, short: tuple[float, float], long: tuple[float, float], limit: float) -> None:
    ratio, ratio_med = long[0] / short[0], long[1] / short[1]
    print(f"{name:<18} 10 hands {short[0] * 1000:8.1f} ms (med {short[1] * 1000:8.1f})  "
          f"long {long[0] * 1000:9.1f} ms (med {long[1] * 1000:9.1f})  "
          f"ratio {ratio:6.1f}x (med {ratio_med:6.1f}x)  "
          + (f"{'ok' if ratio_med <= limit else 'OVER'} (<= {limit}x)"
             if limit != float("inf") else "(no target)"))


def import_figures(post, long_log: dict, hands: int, repeat: int) -> None:
    imp = timed(lambda: post(long_log), max(2, repeat // 2))
    floor = timed(lambda: replay(load_log(json.loads(json.dumps(long_log)))),
                  max(2, repeat // 2))
    print(f"import {hands} hands: best {imp[0]:.2f} s ({hands / imp[0]:.0f} hands/s), "
          f"median {imp[1]:.2f} s ({hands / imp[1]:.0f} hands/s); replay in process "
          f"{floor[0]:.2f} s: ratio {imp[0] / floor[0]:.1f}x (med {imp[1] / floor[1]:.1f}x); "
          f"{'ok' if hands / imp[1] >= 5000 else 'UNDER'} (>= 5000 hands/s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pages-only", action="store_true",
                    help="time the reads only (no import, verify or PDF figures)")
    args = ap.parse_args()
    short_log, long_log = log_of(10), log_of(args.hands)
    tmp = Path(tempfile.mkdtemp(prefix="tonk-pages-"))
    # The service as it runs (group commit on: its thread checkpoints the
    # WAL beside the requests), with room for a long log's body.
    app = create_app({"DATABASE": str(tmp / "bench.sqlite3"), "TESTING": True,
                      "MAX_CONTENT_LENGTH": 256 * 1024 * 1024})
    client = app.test_client()

    bodies: dict[int, bytes] = {}

    def post(log: dict) -> dict:
        # The body as a tablet sends it, encoded once: the test client's own
        # encoding of a 10,000-hand log is not the service's work.
        # each run a copy of the same night, on purpose
        body = bodies.setdefault(id(log), json.dumps({**log, "copy": True}).encode())
        answer = client.post("/api/sessions", data=body, content_type="application/json")
        assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
        return answer.get_json()

    hands = len(long_log["hands"])
    # Import: the whole request, each run a new session in the same database.
    if not args.pages_only:
        import_figures(post, long_log, hands, args.repeat)

    made = {"short": post(short_log), "long": post(long_log)}
    for info in made.values():
        unlock(client, info["id"], info["table_token"])

    def page(path: str, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}

        def get():
            answer = client.get(path, headers=headers)
            assert answer.status_code == 200, (path, answer.status_code)
        return get

    reads = {
        "session page": lambda i: page(f"/s/{i['id']}"),
        "standings page": lambda i: page(f"/s/{i['id']}/standings"),
        "reports index": lambda i: page(f"/reports/{i['id']}/"),
        "API standings": lambda i: page(f"/api/sessions/{i['id']}/standings", i["table_token"]),
        "API result": lambda i: page(f"/api/sessions/{i['id']}/result", i["table_token"]),
    }
    for name, make in reads.items():
        short_fn, long_fn = make(made["short"]), make(made["long"])
        short_fn(), long_fn()  # warm: templates compiled, caches filled
        line(name, timed(short_fn, args.repeat * 4), timed(long_fn, args.repeat), 2.0)

    # The API result is kept up to date by the process that serves it; its
    # first read in a process (or after a corrected name) builds it from
    # every hand's row. Shown, not held to the target.
    db = storage.connect(tmp / "bench.sqlite3")

    def first_read(info):
        get = reads["API result"](info)

        def run():
            cache.forget(db)
            get()
        return run
    short_fn, long_fn = first_read(made["short"]), first_read(made["long"])
    line("API result, 1st", timed(short_fn, args.repeat * 4), timed(long_fn, args.repeat),
         float("inf"))

    if args.pages_only:
        return
    sid = made["long"]["id"]

    def hash_every_event():
        cur = db.conn.execute(
            "SELECT id, chain, session_id, hand, seq, kind, payload, client_id, created, "
            "prev_hash, hash FROM events WHERE session_id = ? ORDER BY seq", (sid,))
        keys = [d[0] for d in cur.description]
        for values in cur:
            event_hash(values[9], dict(zip(keys, values, strict=True)))
    faults = trust.verify_session(db, sid)
    assert not faults, faults[:3]
    ver = timed(lambda: trust.verify_session(db, sid), max(2, args.repeat // 2))
    vfloor = timed(hash_every_event, args.repeat)
    events = db.conn.execute("SELECT count(*) FROM events WHERE session_id = ?",
                             (sid,)).fetchone()[0]
    print(f"verify {events} events: best {ver[0]:.2f} s, median {ver[1]:.2f} s; floor (read "
          f"and SHA-256 each) best {vfloor[0]:.3f} s, median {vfloor[1]:.3f} s: ratio "
          f"{ver[0] / vfloor[0]:.1f}x (med {ver[1] / vfloor[1]:.1f}x); "
          f"{'ok' if ver[1] / vfloor[1] <= 1.5 else 'OVER'} (<= 1.5x)")

    register_fonts()
    session = replay(load_log(json.loads(json.dumps(long_log))))
    pdf = timed(lambda: render_settlement(session), max(2, args.repeat // 2))
    print(f"settlement PDF {hands} hands: best {pdf[0]:.2f} s, median {pdf[1]:.2f} s; "
          f"{'ok' if pdf[1] < 2 else 'OVER'} (< 2 s)")


if __name__ == "__main__":
    main()
