"""Requests beside long imports, under two servers (issue 34 item 1): what
is dropped first, what is answered second.

    .venv/bin/python bench/beside.py [--server waitress|gevent] [--imports 4]
        [--hands 1000] [--clients 6] [--workers 2] [--rounds 1]
        [--db postgresql://...] [--parallel 1]

Run by hand, never as a test (gevent and gunicorn are not the referee's
dependencies: ``pip install gunicorn gevent`` into the venv first). Serves
a fresh SQLite database with ``referee serve`` (waitress, its poll loop,
the fork server started before its threads: ``waitress``) or with gunicorn's
gevent workers (``gevent``: ``--workers`` processes of
``referee.web:create_app()``, the usual home of Flask with server-sent
events). Clients ask in a loop while one client posts ``--imports`` imports
of ``--hands`` hands one after the other (1,000 is where a long import's
second process starts: ``sessions.BESIDE_HANDS``): a table's summary on a
new connection each time, the OpenAPI document on a kept connection, and a
payment posted with a client id. A request is dropped when it gets no
answer, or a cut one, or a 500. Prints, per round, the requests answered,
dropped (with their kinds), answered per second while the imports ran, and
the imports' median time.

``--db`` serves a PostgreSQL database instead (a fresh SQLite file when
left out); ``--parallel N`` posts the imports from N clients at once. Then
the clients also read the session's report page and post legal actions at
a table of their own (every fourth and fifth client), and every answer
slower than 5 s is counted too. Each kind's slowest answer is printed
(``payment`` and ``action`` are writes to other tables than the imports':
they wait for the database's write lock).
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.devtools.loadgen import Client, Tablet, answering, free_port  # noqa: E402
from referee.devtools.simulate import random_session  # noqa: E402


def serve(kind: str, db: Path | str, port: int, workers: int, log) -> subprocess.Popen:
    env = {**os.environ, "REFEREE_HOST_KEY": "", "REFEREE_DATABASE_URL": str(db)}
    if kind == "waitress":
        argv = [sys.executable, "-m", "referee", "serve", "--db", str(db), "--port", str(port)]
    else:
        argv = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", str(workers),
                "--worker-connections", "1000", "--timeout", "120",
                "-b", f"127.0.0.1:{port}", "referee.web:create_app()"]
    return answering(subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                                      cwd=ROOT), port, 120)


def post(conn: http.client.HTTPConnection, path: str, body: dict | bytes,
         token: str | None = None) -> tuple[int, bytes]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request("POST", path, body=data, headers=headers)
    answer = conn.getresponse()
    return answer.status, answer.read()


class Clients:
    """Clients asking in a loop until stopped; each answer or drop counted."""

    def __init__(self, port: int, made: dict, count: int) -> None:
        self.port, self.made = port, made
        self.answered = self.slow = 0
        self.worst: collections.Counter = collections.Counter()  # seconds, by kind
        self.dropped: collections.Counter = collections.Counter()
        self.statuses: collections.Counter = collections.Counter()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        kinds = ["summary", "openapi", "payment", "page", "action"]
        self.threads = [threading.Thread(target=self.run, args=(kinds[k % len(kinds)], k))
                        for k in range(count)]

    def count(self, kind: str, error: str | None, took: float = 0.0) -> None:
        with self.lock:
            self.slow += took > 5.0
            self.worst[kind] = max(self.worst[kind], took)
            if error is None:
                self.answered += 1
            else:
                self.dropped[error] += 1

    def ask(self, kind: str, conn, k: int, n: int):
        sid = self.made["id"]
        if kind == "action":
            status, _ = conn.step()
            self.statuses[status] += 1
            return
        if kind == "page":
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            conn.request("GET", f"/reports/{sid}/?token={self.made['audit_token']}")
        elif kind == "summary":
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            conn.request("GET", f"/api/sessions/{sid}",
                         headers={"Authorization": f"Bearer {self.made['audit_token']}"})
        elif kind == "openapi":
            conn.request("GET", "/api/openapi.json")
        else:
            conn.request("POST", f"/api/sessions/{sid}/payments", body=json.dumps(
                {"from": "Ann", "to": "Ben", "amount": "1", "client_id": f"p{k}-{n}"}),
                headers={"Content-Type": "application/json",
                         "Authorization": f"Bearer {self.made['table_token']}"})
        answer = conn.getresponse()
        body = answer.read()
        self.statuses[answer.status] += 1
        if answer.status >= 500:
            raise ValueError(f"status {answer.status}")
        if kind == "page":
            if not body.rstrip().endswith(b"</html>"):
                raise ValueError("a cut page")
        else:
            json.loads(body)  # cut mid-body: not JSON
        if kind in ("summary", "page"):
            conn.close()

    def run(self, kind: str, k: int) -> None:
        conn = None if kind in ("summary", "page") else \
            http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        if kind == "action":
            conn = Tablet(Client("127.0.0.1", self.port, timeout=60), 340 + k)
            conn.open()
        n = 0
        while not self.stop.is_set():
            n += 1
            t0 = time.monotonic()
            try:
                self.ask(kind, conn, k, n)
                self.count(kind, None, time.monotonic() - t0)
            except (OSError, http.client.HTTPException, ValueError, RuntimeError) as err:
                self.count(kind, type(err).__name__, time.monotonic() - t0)
                if kind == "action":
                    return  # a tablet refused or cut off does not know its seq
                if conn is not None:
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)


def one_round(kind: str, args, body: bytes) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "server.log"
        with log_path.open("wb") as log:
            port = free_port()
            server = serve(kind, args.db or Path(tmp) / "r.sqlite3", port, args.workers, log)
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
                status, said = post(conn, "/api/sessions", {"stake": "1", "rules": "pagat",
                                                            "players": ["Ann", "Ben"]})
                assert status == 201, said
                clients = Clients(port, json.loads(said), args.clients)
                for t in clients.threads:
                    t.start()
                time.sleep(1.0)  # the clients under way before the first import
                with clients.lock:
                    before = clients.answered
                took: list[float] = []
                refused: list[str] = []

                def importer(count: int) -> None:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
                    for _ in range(count):
                        t = time.monotonic()
                        try:
                            status, said = post(c, "/api/sessions", body)
                        except (OSError, http.client.HTTPException) as err:
                            refused.append(type(err).__name__)
                            c.close()
                            c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
                            continue
                        took.append(time.monotonic() - t)
                        if status != 201:
                            refused.append(f"{status} {said[:120]!r}")
                    c.close()
                t0 = time.monotonic()
                importers = [threading.Thread(target=importer, args=(args.imports,))
                             for _ in range(args.parallel)]
                for t in importers:
                    t.start()
                for t in importers:
                    t.join()
                span = time.monotonic() - t0
                with clients.lock:
                    during = clients.answered - before
                clients.stop.set()
                for t in clients.threads:
                    t.join(120)
                conn.close()
            finally:
                server.terminate()
                server.wait(30)
        said = log_path.read_text(errors="replace")
    return {"answered": clients.answered, "dropped": dict(clients.dropped),
            "slow": clients.slow, "statuses": dict(clients.statuses),
            "worst": dict(clients.worst),
            "imports": len(took), "refused": refused,
            "per_second": during / span, "import": statistics.median(took),
            "errors_logged": said.count("Traceback") + said.count("BlockingIOError")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", choices=["waitress", "gevent"], default="waitress")
    ap.add_argument("--imports", type=int, default=4)
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--workers", type=int, default=2, help="gunicorn's worker processes")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--db", help="a postgresql:// URL (default: a fresh SQLite file)")
    ap.add_argument("--parallel", type=int, default=1, help="imports posted at once")
    args = ap.parse_args()
    # The same night imported again and again, each a copy on purpose.
    body = json.dumps({**random_session(34, hands=args.hands), "copy": True}).encode()
    for r in range(args.rounds):
        got = one_round(args.server, args, body)
        dropped = sum(got["dropped"].values())
        print(f"{args.server} round {r + 1}: {got['answered']} answered, {dropped} dropped "
              f"{got['dropped'] or ''}, {got['per_second']:.0f} answered/s during "
              f"{got['imports']} imports of {args.hands} hands by {args.parallel} clients "
              f"(median {got['import']:.2f} s; not 201: {got['refused']}), "
              f"{got['slow']} answers over 5 s, worst "
              + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(got["worst"].items()))
              + f", statuses {got['statuses']}, "
              f"{got['errors_logged']} errors logged", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
