"""Load test of ``referee serve`` (run by hand, not a test).

20 simulated tablets, each playing its own session, post legal actions
concurrently (chosen before the clock starts); in rounds taking turns with
those, the same tablets hit the baseline endpoint, which does only the same
durable event insert (the floor). The server is ``referee serve``'s app
with that endpoint added (bench/floor.py): the user's app has no such route.
Then the latency of one action is measured at the 10th and at the 10,000th
action of a session, at the same hand state.

    .venv/bin/python bench/load.py [--tablets 20] [--actions 150]
    .venv/bin/python bench/load.py --db postgresql://... --servers 2 --repeat 5 --no-long

``--streams N`` holds N live streams open during the run (``GET
/api/sessions/<id>/stream``, spread over the tablets' tables: 120 = 20 tables
x 6 devices), read by a process of its own; ``--slow N`` holds N half-sent
requests open (a header line, then a byte every 10 s). ``--pair`` measures,
in each repeat, a run without them and then one with them, and prints each
pair's ratio and the best and median of them (the issue 27 figure; the
pairs take turns which run goes first):

    .venv/bin/python bench/load.py --no-long --actions 100 --streams 120 --pair --repeat 5

``--server PATH`` measures another checkout's server (its bench/floor.py)
with this benchmark, for a side-by-side with the commit before. The server's
processor time per action (Linux) is printed beside each run.

``--db`` a PostgreSQL URL (a new schema in it for the run; default: a new
SQLite file); ``--servers`` app processes on that one database, each tablet
sticking to one (``--balance round-robin``: each request to the next
process, so that every cached hand is stale); ``--repeat`` the whole
measurement, printing each run and the best and median (a shared machine is
noisy).

Targets: p99 at most 1.5 x the floor's, at least 300 actions/s, and the
same latency at the 10,000th action of a session as at the 10th.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.devtools.loadgen import (  # noqa: E402
    Balanced,
    Client,
    SimTable,
    Tablet,
    free_port,
    start_server,
)
from referee.devtools.simulate import Dealer  # noqa: E402


def _hold(port: int, streams: list[tuple[str, str]], slow: int, pipe) -> None:
    """The held sockets' process: open them, read them (and trickle the slow
    ones) until told to stop, then say what was read."""
    import selectors
    import socket

    from referee.commands.service import open_files

    open_files()
    selector = selectors.DefaultSelector()
    held = []
    for sid, token in streams:
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(f"GET /api/sessions/{sid}/stream HTTP/1.1\r\nHost: bench\r\n"
                  f"Authorization: Bearer {token}\r\n\r\n".encode())
        held.append(s)
    slow_socks = []
    for _ in range(slow):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /api/openapi.json HTTP/1.1\r\nHost: bench\r\nX-Slow: ")
        slow_socks.append(s)
    for s in held + slow_socks:  # the server closing a slow one is read too
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
    pipe.send("open")
    events = refused = 0
    trickled = time.monotonic()
    while not pipe.poll():
        ready = selector.select(0.5)
        for key, _ in ready:
            try:
                data = key.fileobj.recv(262144)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                selector.unregister(key.fileobj)
                continue
            events += data.count(b"\nid: ") + data.startswith(b"id: ")
            refused += data.count(b" 503 ")
        if ready:
            # A phone reads its own stream, on its own processor: here one
            # process reads all of them, in batches (what the server sent
            # waits in the socket's buffer), so that reading costs this
            # shared machine's processors little.
            time.sleep(0.05)
        if slow_socks and time.monotonic() - trickled > 10:
            trickled = time.monotonic()
            for s in slow_socks:
                try:
                    s.sendall(b"x")
                except OSError:
                    pass
    pipe.send((len(selector.get_map()), events, refused))
    for s in held + slow_socks:
        s.close()


class Held:
    """Sockets held open beside the load, in a process of their own (so that
    reading them does not take the tablets' interpreter lock): live streams
    of the tablets' tables, and half-sent requests."""

    def __init__(self, port: int, tablets: list[Tablet], streams: int, slow: int) -> None:
        import multiprocessing

        self.count = streams + slow
        self.pipe, child = multiprocessing.Pipe()
        pairs = [(tablets[k % len(tablets)].sid, tablets[k % len(tablets)].client.token)
                 for k in range(streams)]
        self.proc = multiprocessing.get_context("fork").Process(
            target=_hold, args=(port, pairs, slow, child), daemon=True)
        self.proc.start()
        assert self.pipe.recv() == "open"
        self.alive = self.events = self.refused = 0

    def close(self) -> None:
        if self.proc.is_alive():
            self.pipe.send("stop")
            if self.pipe.poll(10):
                self.alive, self.events, self.refused = self.pipe.recv()
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()

    def said(self) -> str:
        return (f"held open: {self.alive} of {self.count} sockets still open at the end; "
                f"{self.events} stream events read, {self.refused} streams refused (503)")


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


def long_log(actions: int, at: int = 9, seed: int = 11) -> tuple[dict, dict]:
    """A session log of about ``actions`` actions whose last hand is open after
    its first ``at`` actions, and a log of that same open hand alone: the two
    sessions are at the same hand state, one at its (at+1)th action, the other
    at about its ``actions``th."""
    sim = SimTable(seed)
    dealer = Dealer(sim.rules, sim.players, sim.rng, max_actions=400)
    total = 0
    while True:
        setup, _ = dealer.play_hand()
        del dealer.table.hands[:-1]
        if total >= actions - at and len(setup["actions"]) > at + 2:
            break
        total += len(setup["actions"])
    setup["actions"] = setup["actions"][:at]
    long = dealer.log(rules_source=sim.rules_source)
    short = {**long, "hands": [setup]}
    return long, short


def latencies_at(client: Client, sessions: list[tuple[str, str, int]],
                 reps: int) -> list[list[float]]:
    """One action's latency in each session, ``reps`` times, the sessions taking
    turns: post an action, then undo it so the next rep starts from the same
    place (the undo is not timed)."""
    out: list[list[float]] = [[] for _ in sessions]
    for _ in range(reps):
        for i, (sid, token, n) in enumerate(sessions):
            client.token = token
            status, state = client.request("GET", f"/api/sessions/{sid}/hands/{n}")
            assert status == 200, state
            legal = state["legal"]
            plain = [a for a in legal if ": draw" not in a and ": drop" not in a]
            payload = {"action": (plain or legal)[0], "client_id": uuid.uuid4().hex,
                       "expected_seq": state["seq"]}
            t0 = time.perf_counter()
            status, _ = client.request("POST", f"/api/sessions/{sid}/hands/{n}/actions",
                                       payload)
            out[i].append(time.perf_counter() - t0)
            assert status == 201, status
            status, _ = client.request("POST", f"/api/sessions/{sid}/hands/{n}/undo",
                                       {"client_id": uuid.uuid4().hex})
            assert status == 201, status
    return out


def fresh_schema(url: str) -> str:
    """A URL on a new, empty schema of the database at ``url``."""
    from urllib.parse import quote

    from referee.service import storage

    name = f"bench_{uuid.uuid4().hex[:10]}"
    storage.connect(url).execute(f"CREATE SCHEMA {name}")
    return f"{url}{'&' if '?' in url else '?'}options={quote(f'-c search_path={name}')}"


def cpu_seconds(pids: list[int]) -> float:
    """The processor time (user and system) the processes ``pids`` have used
    (Linux's /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            return 0.0
    return total / os.sysconf("SC_CLK_TCK")


def measure(tablets: list[Tablet], args: argparse.Namespace, pids: list[int]) -> dict:
    """One measurement: rounds of actions and of the floor taking turns."""
    for t in tablets:
        t.prepare(args.actions)
    lat, floor, busy, floor_busy, cpu = [], [], 0.0, 0.0, 0.0
    for k in range(args.rounds):
        count = args.actions // args.rounds + (k < args.actions % args.rounds)
        before = cpu_seconds(pids)
        r, xs = run(tablets, count, "step")
        cpu += cpu_seconds(pids) - before
        lat += xs
        busy += len(xs) / r
        r, xs = run(tablets, count, "bench_insert")
        floor += xs
        floor_busy += len(xs) / r
    m = {"rate": len(lat) / busy, "floor_rate": len(floor) / floor_busy,
         "p50": pct(lat, 50) * 1e3, "p99": pct(lat, 99) * 1e3,
         "f50": pct(floor, 50) * 1e3, "f99": pct(floor, 99) * 1e3,
         "cpu": cpu / len(lat) * 1e3}
    # The ratios of one run: actions and floor met the same weather.
    m["p99_x"], m["rate_x"] = m["p99"] / m["f99"], m["rate"] / m["floor_rate"]
    return m


def show(m: dict, label: str) -> None:
    print(f"  {label:7} actions : {m['rate']:7.0f} actions/s  p50 {m['p50']:6.2f} ms  "
          f"p99 {m['p99']:6.2f} ms  server processor {m['cpu']:.2f} ms an action")
    print(f"  {'':7} floor   : {m['floor_rate']:7.0f} inserts/s  p50 {m['f50']:6.2f} ms  "
          f"p99 {m['f99']:6.2f} ms")
    print(f"  {'':7} ratios  : p99 {m['p99_x']:.2f} x floor (target <= 1.5), "
          f"throughput {m['rate_x']:.2f} x floor; "
          f"{'meets' if m['rate'] >= 300 else 'MISSES'} 300 actions/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=20)
    parser.add_argument("--actions", type=int, default=150, help="actions per tablet")
    parser.add_argument("--threads", type=int, default=8, help="server threads")
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds of actions and of the floor, taking turns")
    parser.add_argument("--db", help="a postgresql:// URL (default: a new SQLite file)")
    parser.add_argument("--servers", type=int, default=1, help="app processes")
    parser.add_argument("--balance", choices=("sticky", "round-robin"), default="sticky")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--streams", type=int, default=0,
                        help="live streams held open during the run (120: 20 tables x 6)")
    parser.add_argument("--slow", type=int, default=0,
                        help="half-sent requests held open during the run")
    parser.add_argument("--server", default=str(ROOT / "bench" / "floor.py"),
                        help="the server script (default this checkout's bench/floor.py; "
                        "another checkout's measures that one's server with this benchmark)")
    parser.add_argument("--pair", action="store_true",
                        help="each repeat also measures a run without the held sockets "
                        "(taking turns) and prints the ratio of the pair")
    parser.add_argument("--no-long", action="store_true",
                        help="skip the action at the 10,000th action of a session")
    args = parser.parse_args()

    if args.db:
        target = fresh_schema(args.db)
        backend = "PostgreSQL"
    else:
        target = str(Path(tempfile.mkdtemp(prefix="referee-bench-")) / "bench.sqlite3")
        backend = "SQLite"
    ports = [free_port() for _ in range(args.servers)]
    servers = []
    held = None
    try:
        for port in ports:  # one after the other: the first makes the floor's table
            servers.append(start_server(target, port, "--threads", str(args.threads),
                                        command=(args.server,)))
        port = ports[0]

        def client(k: int) -> Client:
            if args.balance == "round-robin" and len(ports) > 1:
                return Balanced("127.0.0.1", ports)
            return Client("127.0.0.1", ports[k % len(ports)])

        tablets = [Tablet(client(k), seed=k) for k in range(args.tablets)]
        for t in tablets:
            t.open()
        # Each tablet's actions are chosen before the clock starts: during the
        # measurement the client only posts, as the floor's client does.
        for t in tablets:
            t.prepare(10)
        run(tablets, 10, "step")  # warm-up: connections, caches
        run(tablets, 10, "bench_insert")
        # Rounds of actions and of the floor take turns, so that both meet the
        # same weather on a shared machine.
        print(f"{backend}, {args.servers} app process(es) ({args.balance}), "
              f"{args.tablets} tablets x {args.actions} actions, server threads "
              f"{args.threads}, {args.streams} live streams, {args.slow} half-sent "
              "requests held open" + (", each run paired with one without them"
                                      if args.pair else ""))
        runs, bare, ratios = [], [], []
        for k in range(args.repeat):
            # --pair: a run without them and one with them, in turns which
            # first: a server's later runs meet a longer database (and its
            # write-ahead log), and the second run of a pair was the slower
            # whichever it was. (Streams closed here are noticed by the
            # server within seconds, not at once.)
            order = ((False, True) if k % 2 == 0 else (True, False)) if args.pair else (True,)
            for holding in order:
                if holding and (args.streams or args.slow):
                    held = Held(port, tablets, args.streams, args.slow)
                    time.sleep(1.0)
                    try:
                        runs.append(measure(tablets, args, [s.pid for s in servers]))
                    finally:
                        held.close()
                    show(runs[-1], f"run {k + 1}")
                    print(f"  {'':7} {held.said()}")
                    held = None
                    # The server notices a closed stream at its next write or
                    # its own look (within 5 s): streams opened at once for the
                    # next run found the old ones still counted (40 of 120
                    # refused, the run at 0.6x).
                    time.sleep(6.0)
                elif holding:
                    runs.append(measure(tablets, args, [s.pid for s in servers]))
                    show(runs[-1], f"run {k + 1}")
                else:
                    bare.append(measure(tablets, args, [s.pid for s in servers]))
                    show(bare[-1], f"without {k + 1}")
            if args.pair:
                ratios.append((runs[-1]["rate"] / bare[-1]["rate"], runs[-1]["p99_x"],
                               runs[-1]["p99"] / bare[-1]["f99"]))
                print(f"  pair {k + 1}: actions/s {runs[-1]['rate']:.0f} with, "
                      f"{bare[-1]['rate']:.0f} without: {ratios[-1][0]:.2f}x (target >= 0.9); "
                      f"p99 with {ratios[-1][1]:.2f}x its own floor, {ratios[-1][2]:.2f}x "
                      "the floor without (target <= 1.5)")
        if args.repeat > 1:
            # best: the run with the most actions/s, whole; median: of each
            # figure and each run's ratio, apart
            show(max(runs, key=lambda m: m["rate"]), "best")
            show({key: statistics.median(m[key] for m in runs) for key in runs[0]}, "median")
        if args.pair:
            rates = [r[0] for r in ratios]
            print(f"  with / without, actions/s: best {max(rates):.2f}x, median "
                  f"{statistics.median(rates):.2f}x, worst {min(rates):.2f}x of {len(rates)} "
                  f"pairs; p99 with: median {statistics.median(r[1] for r in ratios):.2f}x "
                  f"its own floor, {statistics.median(r[2] for r in ratios):.2f}x the floor "
                  "without")
        if args.no_long:
            return

        t0 = time.perf_counter()
        long_doc, short_doc = long_log(10_000)
        made = time.perf_counter() - t0
        total = sum(len(h["actions"]) for h in long_doc["hands"])
        client = Client("127.0.0.1", port)
        sessions = []
        for doc in (short_doc, long_doc):
            client.token = None
            status, created = client.request("POST", "/api/sessions", doc)
            assert status == 201, created
            sessions.append((created["id"], created["table_token"], len(doc["hands"])))
        latencies_at(client, sessions, 5)  # warm-up
        at10, at10k = latencies_at(client, sessions, args.reps)
        print(f"  one action at the 10th action of a session    : p50 "
              f"{pct(at10, 50) * 1e3:6.2f} ms  p99 {pct(at10, 99) * 1e3:6.2f} ms")
        print(f"  one action at the {total + 1:,}th action of a session: p50 "
              f"{pct(at10k, 50) * 1e3:6.2f} ms  p99 {pct(at10k, 99) * 1e3:6.2f} ms "
              f"(the same hand state; {len(long_doc['hands'])} hands, made in {made:.1f} s)")
        print(f"  ratios  : p50 {pct(at10k, 50) / pct(at10, 50):.2f}, "
              f"p99 {pct(at10k, 99) / pct(at10, 99):.2f} (10,000th / 10th)")
    finally:
        if held is not None:
            held.close()
        for server in servers:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
