"""SIGKILL under load, counted (issue 34, the attack's second tester).

    .venv/bin/python bench/crash_load.py --db PATH_OR_URL [--kills 10] [--tables 3]

Run by hand, never as a test. Serves ``--db`` with ``referee serve``; on
``--tables`` tables, one client posts actions (client_id and expected_seq in
the body) and one posts payments (client id alternately in the body and as
the Idempotency-Key header). Every request is recorded client-side: its
client id, its body, acknowledged (2xx read whole) or not. After a random
0.5-2.5 s the server gets SIGKILL; it is restarted, every unacknowledged
request is sent again with the same client id and body, and then the stored
events are read from the database itself and compared: an acknowledged
write missing (lost), a client id stored twice (doubled), a hand whose
stored seq disagrees with its events (half-applied). ``referee verify``
after each kill. Prints the counts; exit 1 on any fault.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.devtools.loadgen import SimTable, answering, free_port  # noqa: E402


def start_server(db: str, port: int, stdout) -> subprocess.Popen:
    """``referee serve`` once it answers (90 s: a loaded host imports slowly)."""
    proc = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--db", db,
                             "--port", str(port)], stdout=stdout, stderr=subprocess.STDOUT,
                            env={**os.environ, "REFEREE_HOST_KEY": ""}, cwd=ROOT)
    return answering(proc, port, 90)


class Conn:
    def __init__(self, port: int, token: str) -> None:
        self.port, self.token, self.conn = port, token, None

    def post(self, path: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        h = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}",
             **(headers or {})}
        try:
            self.conn.request("POST", path, body=json.dumps(body), headers=h)
            r = self.conn.getresponse()
            raw = r.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        return r.status, json.loads(raw) if raw else {}


class Table:
    """One table: its simulated cards, its tokens, and what was sent."""

    def __init__(self, seed: int) -> None:
        self.sim = SimTable(seed)
        self.sid = self.token = ""
        self.n = 0
        self.seq = 0
        self.sent: list[dict] = []  # {kind, path, body, headers, cid, acked, status}
        self.lock = threading.Lock()

    def record(self, kind, path, body, headers, cid) -> dict:
        item = {"kind": kind, "path": path, "body": body, "headers": headers, "cid": cid,
                "acked": False, "status": None}
        with self.lock:
            self.sent.append(item)
        return item


def send(conn: Conn, item: dict) -> int:
    status, body = conn.post(item["path"], item["body"], item["headers"])
    item["status"] = status
    if 200 <= status < 300:
        item["acked"] = True
    return status


def actions(port: int, t: Table, stop: threading.Event) -> None:
    conn = Conn(port, t.token)
    while not stop.is_set():
        if t.sim.hand is None or t.sim.hand.is_complete:
            setup = t.sim.next_setup()
            item = t.record("hand", f"/api/sessions/{t.sid}/hands", setup, None, None)
            try:
                status, body = conn.post(item["path"], setup)
            except (OSError, http.client.HTTPException):
                return
            item["status"] = status
            if status != 201:
                return
            item["acked"] = True
            t.n, t.seq = body["hand"], 0
        text = t.sim.next_action()
        cid = uuid.uuid4().hex
        item = t.record("action", f"/api/sessions/{t.sid}/hands/{t.n}/actions",
                        {"action": text, "client_id": cid, "expected_seq": t.seq}, None, cid)
        try:
            status = send(conn, item)
        except (OSError, http.client.HTTPException):
            return
        if status != 201:
            return
        t.sim.accepted(text)
        t.seq += 1


def payments(port: int, t: Table, stop: threading.Event, k: int) -> None:
    conn = Conn(port, t.token)
    n = 0
    while not stop.is_set():
        n += 1
        cid = f"pay-{k}-{uuid.uuid4().hex}"
        body = {"from": "Ann", "to": "Ben", "amount": "1.25"}
        headers = None
        if n % 2:
            body["client_id"] = cid
        else:
            headers = {"Idempotency-Key": cid}
        item = t.record("payment", f"/api/sessions/{t.sid}/payments", body, headers, cid)
        try:
            if not 200 <= send(conn, item) < 300:
                return
        except (OSError, http.client.HTTPException):
            return


def stored(db: str) -> tuple[collections.Counter, list[str]]:
    """Client ids of the stored events; client ids half-applied: an event
    without its stored answer, or an accepted answer without its event."""
    if db.startswith("postgres"):
        import psycopg
        conn = psycopg.connect(db)
    else:
        import sqlite3
        conn = sqlite3.connect(db)
    counts = collections.Counter(r[0] for r in conn.execute(
        "SELECT client_id FROM events WHERE client_id IS NOT NULL"))
    replies = {r[0]: r[1] for r in conn.execute("SELECT client_id, refused FROM replies")}
    conn.close()
    half = [c for c in counts if c not in replies]
    half += [c for c, body in replies.items() if c not in counts and not body]
    return counts, half


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--log", default="/tmp/crash_load.log")
    args = ap.parse_args()
    rnd = random.Random(34)
    port = free_port()
    log = open(args.log, "ab")
    server = start_server(args.db, port, stdout=log)
    every: list[Table] = []
    faults = []
    figures = collections.Counter()
    for kill in range(args.kills):
        # Fresh tables each round: a tablet never guesses where a killed hand stood.
        tables = [Table(rnd.randrange(10**6)) for _ in range(args.tables)]
        every += tables
        for t in tables:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("POST", "/api/sessions", json.dumps(t.sim.header()),
                      {"Content-Type": "application/json"})
            body = json.loads(c.getresponse().read())
            t.sid, t.token = body["id"], body["table_token"]
        stop = threading.Event()
        threads = [threading.Thread(target=actions, args=(port, t, stop)) for t in tables]
        threads += [threading.Thread(target=payments, args=(port, t, stop, k))
                    for k, t in enumerate(tables)]
        for th in threads:
            th.start()
        time.sleep(rnd.uniform(0.5, 2.5))
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        stop.set()
        for th in threads:
            th.join(60)
        server = start_server(args.db, port, stdout=log)
        # Retry every unacknowledged write with its client id and body.
        for t in tables:
            conn = Conn(port, t.token)
            for item in t.sent:
                if item["acked"] or item["cid"] is None:
                    continue
                figures["retried"] += 1
                status = send(conn, item)
                figures[f"retry {status}"] += 1
                if item["kind"] == "action" and status == 201:
                    t.sim.accepted(item["body"]["action"])
                    t.seq = item["body"]["expected_seq"] + 1
                elif item["kind"] == "action" and status != 201:
                    # refused on retry: the action was lost before its
                    # answer and the seq moved? Read the table again.
                    figures["retry refused"] += 1
            # A hand begun but unanswered: the next setup is asked again.
            for item in t.sent:
                if item["kind"] == "hand" and not item["acked"]:
                    item["acked"] = None  # counted apart: a start without client id
        counts, half = stored(args.db)
        acked = [i for t in every for i in t.sent if i["acked"] and i["cid"]]
        lost = [i["cid"] for i in acked if counts[i["cid"]] == 0]
        doubled = [c for c, k in counts.items() if k > 1]
        verify = subprocess.run([sys.executable, "-m", "referee", "verify", "--db", args.db],
                                capture_output=True, text=True, cwd=ROOT)
        print(f"kill {kill + 1}: {len(acked)} acknowledged so far, lost {len(lost)}, "
              f"doubled {len(doubled)}, half-applied {len(half)}, "
              f"verify exit {verify.returncode}", flush=True)
        if lost or doubled or half or verify.returncode:
            faults.append((kill, lost[:3], doubled[:3], half[:3],
                           verify.stdout[-300:] + verify.stderr[-300:]))
    server.terminate()
    server.wait(30)
    sent = collections.Counter(i["kind"] for t in every for i in t.sent)
    acked = collections.Counter(i["kind"] for t in every for i in t.sent if i["acked"])
    print(f"sent {dict(sent)}, acknowledged {dict(acked)}, {dict(figures)}")
    for f in faults:
        print("FAULT", f)
    log.close()
    said = Path(args.log).read_text(errors="replace")
    print(f"tracebacks in the server log: {said.count('Traceback')}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
