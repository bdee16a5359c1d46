"""Load test of ``referee serve`` (run by hand, not a test).

20 simulated tablets, each playing its own session, post legal actions
concurrently; then the same tablets hit the baseline endpoint, which does
only the same durable event insert (the floor). Then the latency of one
action is measured at the 10th and at the 10,000th action of a session.

    .venv/bin/python bench/load.py [--tablets 20] [--actions 150]

Targets: p99 at most 1.5 x the floor's, at least 300 actions/s, and the
same latency at the 10,000th action of a session as at the 10th.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.loadgen import Client, SimTable, Tablet  # noqa: E402
from referee.simulate import Dealer  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int, threads: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--db", str(db), "--port", str(port),
         "--threads", str(threads), "--bench"], cwd=ROOT, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * len(values)) - 1))
    return values[k]


def run(tablets: list[Tablet], count: int, fn: str) -> tuple[float, list[float]]:
    """Every tablet does ``count`` requests at once; (requests/s, latencies)."""
    latencies: list[list[float]] = [[] for _ in tablets]
    barrier = threading.Barrier(len(tablets) + 1)
    errors: list[BaseException] = []

    def worker(i: int, t: Tablet) -> None:
        barrier.wait()
        try:
            for _ in range(count):
                status, seconds = getattr(t, fn)()
                if status != 201:
                    raise RuntimeError(f"{fn}: {status}")
                latencies[i].append(seconds)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(i, t)) for i, t in enumerate(tablets)]
    for th in threads:
        th.start()
    barrier.wait()
    t0 = time.perf_counter()
    for th in threads:
        th.join()
    elapsed = time.perf_counter() - t0
    if errors:
        raise errors[0]
    flat = [x for xs in latencies for x in xs]
    return len(flat) / elapsed, flat


def long_log(actions: int, seed: int = 11) -> dict:
    """A session log of about ``actions`` actions whose last hand is still open."""
    sim = SimTable(seed)
    dealer = Dealer(sim.rules, sim.players, sim.rng, max_actions=400)
    total = 0
    while total < actions - 60:
        setup, _ = dealer.play_hand()
        total += len(setup["actions"])
        del dealer.table.hands[:-1]
    # an open hand: play a few actions of the next one
    setup, hand = dealer.play_hand()
    keep = max(3, min(len(setup["actions"]) - 2, actions - total))
    setup["actions"] = setup["actions"][:keep]
    return dealer.log(rules_source=sim.rules_source)


def latency_at(client: Client, sid: str, token: str, n: int, reps: int) -> list[float]:
    """One action's latency at this point of the session, ``reps`` times: post
    a legal action, then undo it so the next rep starts from the same place."""
    client.token = token
    out = []
    for _ in range(reps):
        status, state = client.request("GET", f"/api/sessions/{sid}/hands/{n}")
        candidates = [a for a in state["legal"] if ": draw" not in a] or state["legal"]
        payload = {"action": candidates[0], "client_id": uuid.uuid4().hex,
                   "expected_seq": state["seq"]}
        t0 = time.perf_counter()
        status, _ = client.request("POST", f"/api/sessions/{sid}/hands/{n}/actions", payload)
        out.append(time.perf_counter() - t0)
        assert status == 201, status
        status, _ = client.request("POST", f"/api/sessions/{sid}/hands/{n}/undo",
                                   {"client_id": uuid.uuid4().hex})
        assert status == 201, status
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=20)
    parser.add_argument("--actions", type=int, default=150, help="actions per tablet")
    parser.add_argument("--threads", type=int, default=8, help="server threads")
    parser.add_argument("--reps", type=int, default=300)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    port = free_port()
    server = start_server(tmp / "bench.sqlite3", port, args.threads)
    try:
        tablets = [Tablet(Client("127.0.0.1", port), seed=k) for k in range(args.tablets)]
        for t in tablets:
            t.open()
        run(tablets, 10, "step")  # warm-up: connections, caches
        run(tablets, 10, "bench_insert")
        rate, lat = run(tablets, args.actions, "step")
        floor_rate, floor = run(tablets, args.actions, "bench_insert")
        p50, p99 = pct(lat, 50) * 1e3, pct(lat, 99) * 1e3
        f50, f99 = pct(floor, 50) * 1e3, pct(floor, 99) * 1e3
        print(f"{args.tablets} tablets x {args.actions} actions, server threads "
              f"{args.threads}")
        print(f"  actions : {rate:7.0f} actions/s  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms")
        print(f"  floor   : {floor_rate:7.0f} inserts/s  p50 {f50:6.2f} ms  p99 {f99:6.2f} ms")
        print(f"  ratios  : p99 {p99 / f99:.2f} x floor (target <= 1.5), "
              f"throughput {rate / floor_rate:.2f} x floor; "
              f"{'meets' if rate >= 300 else 'MISSES'} 300 actions/s")

        client = Client("127.0.0.1", port)
        short = Tablet(client, seed=3)
        short.open()
        short_token = client.token
        while short.seq < 9:
            short.step()
            if short.sim.hand.is_complete:
                raise SystemExit("the short session's hand ended early; pick another seed")
        t0 = time.perf_counter()
        doc = long_log(10_000)
        made = time.perf_counter() - t0
        total = sum(len(h["actions"]) for h in doc["hands"])
        client.token = None
        status, created = client.request("POST", "/api/sessions", doc)
        assert status == 201, created
        at10 = latency_at(client, short.sid, short_token, short.n, args.reps)
        latency_at(client, created["id"], created["table_token"], len(doc["hands"]), 5)
        at10k = latency_at(client, created["id"], created["table_token"], len(doc["hands"]),
                           args.reps)
        print(f"  one action at the 10th action of a session    : p50 "
              f"{pct(at10, 50) * 1e3:6.2f} ms  p99 {pct(at10, 99) * 1e3:6.2f} ms")
        print(f"  one action at the {total + 1:,}th action of a session: p50 "
              f"{pct(at10k, 50) * 1e3:6.2f} ms  p99 {pct(at10k, 99) * 1e3:6.2f} ms "
              f"(session imported, {len(doc['hands'])} hands, made in {made:.1f} s)")
        print(f"  ratio   : p99 {pct(at10k, 99) / pct(at10, 99):.2f} (10,000th / 10th)")
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
