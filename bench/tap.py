"""The server's own time per tablet tap (run by hand, not a test).

The 100-action hand of ``bench/tablet.py`` (two players whose cards are
known, each turn a take of the pile's top and a discard), tapped through the
app in this process (Flask's test client, a temporary SQLite database, group
commit as ``referee serve`` runs it): each tap is the form post tablet.js
sends (``X-Tablet-Swap``: the answer is the new hand page itself), timed from
the request to its answer (and the CPU time of the thread that serves it:
judging and drawing the page, without the writer thread's inserts and the
commit's sync, steadier than the wall clock on a busy host). No browser, no
network: what the server spends.
``--profile`` prints where the time goes (cProfile, the functions with the
most time of their own and in what they call).

    .venv/bin/python bench/tap.py [--actions 100] [--rounds 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PIN = "2468"
DEAL = {"Ann": ["2c", "4d", "6h", "8s", "Tc"], "Ben": ["3c", "5d", "7h", "9s", "Jc"]}
UPCARD = "Kd"
RANKS = "A23456789TJQK"


def _field(page: str, name: str) -> str:
    m = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert m, name
    return m.group(1)


def open_hand(client) -> str:
    page = client.get("/new").data.decode()
    r = client.post("/new", data={"csrf_token": _field(page, "csrf_token"), "stake": "0.25",
                                  "preset": "pagat", "pin": PIN, "pin2": PIN,
                                  "player1": "Ann", "player2": "Ben"})
    sid = r.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/s/{sid}/hands/new").data.decode()
    r = client.post(f"/s/{sid}/hands/new", data={
        "csrf_token": _field(page, "csrf_token"), "dealer": "Ann", "upcard": UPCARD,
        "deal0": DEAL["Ann"], "deal1": DEAL["Ben"]})
    assert r.status_code == 303, r.data[:300]
    return sid


def long_hand(client, sid: str, actions: int, cpu: list[float]) -> list[float]:
    """Take the top and discard the lowest other card, turn after turn; each
    tap posted with the fields of the page the previous tap answered."""
    hands = {p: list(c) for p, c in DEAL.items()}
    seats, order = {"Ann": 0, "Ben": 1}, ["Ben", "Ann"]
    page = client.get(f"/s/{sid}/hands/1").data.decode()
    top, timed, turn = UPCARD, [], 0

    def tap(seat: int, verb: str, cards: list[str]) -> str:
        data = {"csrf_token": _field(page, "csrf_token"),
                "client_id": _field(page, "client_id"),
                "expected_seq": _field(page, "expected_seq"), "act": f"{seat}:{verb}",
                "card": cards}
        t0, c0 = time.perf_counter(), time.thread_time()
        r = client.post(f"/s/{sid}/hands/1/act", data=data, headers={"X-Tablet-Swap": "1"})
        timed.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
        assert r.status_code == 200 and "flash-error" not in r.data.decode(), r.data[-2000:]
        return r.data.decode()

    while len(timed) < actions:
        p = order[turn % 2]
        page = tap(seats[p], "take", [])
        hands[p].append(top)
        out = next(c for c in sorted(hands[p], key=lambda c: RANKS.index(c[0])) if c != top)
        hands[p].remove(out)
        page = tap(seats[p], "discard", [out])
        top, turn = out, turn + 1
    return timed[:actions]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    from referee.web import create_app

    medians, means, cpus = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "tap.sqlite3"), "SECRET_KEY": "bench"})
        for _ in range(args.rounds):
            client = app.test_client()
            sid = open_hand(client)
            profile = cProfile.Profile() if args.profile else None
            if profile:
                profile.enable()
            cpu: list[float] = []
            ms = [x * 1000 for x in long_hand(client, sid, args.actions, cpu)]
            if profile:
                profile.disable()
                stats = pstats.Stats(profile).sort_stats("cumulative")
                stats.print_stats(r"referee/|jinja2/environment", 40)
            medians.append(statistics.median(ms))
            means.append(statistics.fmean(ms))
            cpus.append(statistics.median(cpu) * 1000)
            print(f"{len(ms)} taps: median {medians[-1]:.2f} ms, mean {means[-1]:.2f} ms, "
                  f"max {max(ms):.2f} ms; the request thread's CPU median {cpus[-1]:.2f} ms")
    print(f"server time per tap: best median {min(medians):.2f} ms, "
          f"median of medians {statistics.median(medians):.2f} ms; request thread's CPU: "
          f"best {min(cpus):.2f} ms, median {statistics.median(cpus):.2f} ms")


if __name__ == "__main__":
    main()
