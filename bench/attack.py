"""The attack of issue 25, run again against a running service, with counts.

    .venv/bin/python bench/attack.py [--examples N] [--hands N] [--skip PART ...]

Run by hand, never as a test (about 10-20 minutes on this host, most of it
schemathesis). Starts ``referee serve`` on a fresh SQLite database, opens
two tables played by simulated tablets (client ids, so stored answers
exist), then, part by part, and prints what was sent and what came back:

- ``schemathesis``: its command line against the served OpenAPI document,
  with a table's token and that table's id for every ``{sid}`` (every
  phase, N examples an operation; the stream, which stays open half an hour,
  left out); statuses counted from its HAR report;
- ``hostile``: malformed JSON, huge numbers, deep nesting, bad Unicode and
  large arrays posted to every kind of write, and the same documents given
  to ``referee replay`` and ``referee import`` (exit status, no traceback);
- ``slow``: 1,000 half-sent requests held open, then a plain GET timed;
- ``kills``: an import of a long log killed (SIGKILL) mid-transaction and
  inside its commit (``devtools.killing``), the tablets writing beside it;
  every acknowledged action kept, each import whole or absent;
- ``edits``: direct edits of a copy of the database (the append-only
  triggers dropped, as the file's holder can), each checked by
  ``referee verify`` (with the database head kept before, for the two only
  a head outside the file can see): caught or not.

Last, ``referee verify`` of the whole database and the server's log read
for a traceback. Any answer of 500 or more, any traceback, an edit not
caught or an acknowledged action lost is printed as FAULT (exit 1).
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import re
import resource
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.devtools.killing import (  # noqa: E402
    commit_bytes,
    kill_after,
    kill_in_commit,
    rows_of,
    sessions_now,
)
from referee.devtools.loadgen import Burst, Client, Tablet, free_port, start_server  # noqa: E402
from referee.devtools.samplegen import make_session  # noqa: E402
from referee.record.chain import event_hash  # noqa: E402
from referee.service import access, storage  # noqa: E402

BIN = Path(sys.executable).parent
FAULTS: list[str] = []


def fault(text: str) -> None:
    FAULTS.append(text)
    print("FAULT:", text, flush=True)


def send(port: int, method: str, path: str, body: bytes | None, token: str | None = None,
         content_type: str = "application/json", timeout: float = 60) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": content_type}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


# ---------------------------------------------------------------- schemathesis

def schemathesis(port: int, sid: str, token: str, examples: int, tmp: Path) -> None:
    config = tmp / "schemathesis.toml"
    config.write_text(f'[parameters]\n"path.sid" = "{sid}"\n')
    har = tmp / "schemathesis.har"
    started = time.perf_counter()
    run = subprocess.run(
        [str(BIN / "schemathesis"), "--config-file", str(config), "run",
         f"http://127.0.0.1:{port}/api/openapi.json", "-H", f"Authorization: Bearer {token}",
         "--max-examples", str(examples), "--checks", "not_a_server_error",
         "--exclude-path-regex", "/stream$", "--request-timeout", "30", "--seed", "25",
         "--report", "har", "--report-har-path", str(har), "--continue-on-failure"],
        capture_output=True, text=True, cwd=tmp)
    seconds = time.perf_counter() - started
    entries = json.loads(har.read_text())["log"]["entries"] if har.exists() else []
    statuses = collections.Counter(e["response"]["status"] for e in entries)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/openapi.json")
    paths = json.loads(conn.getresponse().read())["paths"]
    conn.close()
    templates = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", p) + "$"), p) for p in paths]

    def operation(entry: dict) -> tuple[str, str]:
        path = "/" + entry["request"]["url"].split("/", 3)[3].split("?")[0]
        return entry["request"]["method"], next(
            (p for pattern, p in templates if pattern.match(path)), path)
    operations = collections.Counter(op for e in entries if (op := operation(e))[1] in paths
                                     and op[0].lower() in paths[op[1]])
    print(f"schemathesis: {len(entries):,} requests to {len(operations)} operations in "
          f"{seconds:.0f} s; statuses {dict(sorted(statuses.items()))}")
    for line in run.stdout.splitlines():
        if re.search(r"API operations|Test cases|Test Phases|passed|failed|errors|Failures",
                     line):
            print("  " + line.strip())
    if any(s >= 500 for s in statuses) or not entries:
        fault(f"schemathesis: {dict(statuses)} (exit {run.returncode})")


# ---------------------------------------------------------------- hostile bodies

def deep(n: int, brace: str = "[") -> str:
    if brace == "{":
        return '{"a":' * n + "1" + "}" * n
    return "[" * n + "1" + "]" * n


def hostile_bodies(good: dict) -> dict[str, bytes]:
    """Bodies by name: each a hostile variant of ``good`` (a write's body)."""
    def with_(key: str, raw: str) -> bytes:
        doc = json.dumps({**good, key: "@@"})
        return doc.replace('"@@"', raw).encode()
    key = next(iter(good))
    bodies = {
        "empty": b"", "not json": b"stake=1", "cut short": json.dumps(good).encode()[:-3],
        "trailing comma": json.dumps(good).encode()[:-1] + b",}", "a lone {": b"{",
        "NaN": with_(key, "NaN"), "Infinity": with_(key, "-Infinity"),
        "1e999": with_(key, "1e999"), "10**400": with_(key, "1" + "0" * 400),
        "10**5000 digits": with_(key, "9" * 5000), "2**64": with_(key, str(2**64)),
        "-0.0": with_(key, "-0.0"), "5e-324": with_(key, "5e-324"),
        "deep list 10,000": with_(key, deep(10_000)),
        "deep object 10,000": with_(key, deep(10_000, "{")),
        "deep list 100,000": with_(key, deep(100_000)),
        "lone surrogate": with_(key, '"\\ud800x"'),
        "reversed surrogates": with_(key, '"\\udc00\\ud800"'),
        "NUL": with_(key, '"a\\u0000b"'), "bidi": with_(key, '"\\u202eAnn"'),
        "invalid UTF-8": json.dumps(good).encode().replace(b"{", b"{\xff\xfe", 1),
        "overlong UTF-8": json.dumps(good).encode().replace(b"{", b'{"\xc0\xaf":1,', 1),
        "UTF-16": json.dumps(good).encode("utf-16"), "BOM": b"\xef\xbb\xbf" + json.dumps(
            good).encode(),
        "a list": b"[" + json.dumps(good).encode() + b"]", "a string": b'"hello"',
        "null": b"null", "a number": b"12",
        "1e6 numbers": with_(key, "[" + ",".join(["1"] * 1_000_000) + "]"),
        "1e6 strings": with_(key, "[" + ",".join(['"Ann: draw"'] * 1_000_000) + "]"),
        "1e5 keys": ("{" + ",".join(f'"k{i}":1' for i in range(100_000)) + "}").encode(),
        "a 10 MB string": with_(key, '"' + "x" * 10_000_000 + '"'),
        "duplicate keys": json.dumps(good).encode()[:-1] + b',' + json.dumps(
            good).encode()[1:],
    }
    return bodies


def hostile(port: int, sid: str, token: str, tmp: Path) -> None:
    log = json.loads((ROOT / "sample_logs" / "pagat_basic.json").read_text())
    writes = [
        ("POST", "/api/sessions", None, {"stake": "0.25", "rules": "pagat",
                                         "players": ["Ann", "Ben", "Cy"]}),
        ("POST", "/api/sessions", None, log),
        ("POST", f"/api/sessions/{sid}/hands", token, {"dealer": "Ann", "upcard": "7d"}),
        ("POST", f"/api/sessions/{sid}/hands/1/actions", token,
         {"action": "Ben: draw", "client_id": "x1", "expected_seq": 0}),
        ("POST", f"/api/sessions/{sid}/hands/1/void", token, {"reason": "misdeal"}),
        ("POST", f"/api/sessions/{sid}/payments", token,
         {"from": "Ann", "to": "Ben", "amount": "1"}),
        ("PUT", f"/api/sessions/{sid}/players/Ann/pay", token, {"paypal": "ann"}),
        ("POST", f"/api/sessions/{sid}/stake", token, {"stake": "0.5"}),
        ("POST", f"/api/sessions/{sid}/players/Ann", token, {"name": "Anna"}),
        ("POST", f"/api/sessions/{sid}/links", token, {"role": "viewer"}),
    ]
    statuses: collections.Counter = collections.Counter()
    sent = 0
    started = time.perf_counter()
    slowest = (0.0, "")
    for method, path, tok, good in writes:
        for name, body in hostile_bodies(good).items():
            kinds = ("application/json", "text/plain") if len(body) < 1e6 else (
                "application/json",)
            for content_type in kinds:
                t0 = time.perf_counter()
                try:
                    status = send(port, method, path, body, tok, content_type)
                except (OSError, http.client.HTTPException) as err:
                    status = type(err).__name__
                took = time.perf_counter() - t0
                slowest = max(slowest, (took, f"{name} to {method} {path.replace(sid, '{sid}')}"))
                sent += 1
                statuses[status] += 1
                if not isinstance(status, int) or status >= 500:
                    fault(f"{name} ({content_type}) to {method} {path}: {status}")
    print(f"hostile bodies: {sent:,} requests in {time.perf_counter() - started:.0f} s; "
          f"statuses {dict(sorted(statuses.items(), key=str))}; slowest {slowest[0]:.2f} s "
          f"({slowest[1]})")
    # The command line, on the same documents as files.
    exits: collections.Counter = collections.Counter()
    runs = 0
    for name, body in hostile_bodies(log).items():
        path = tmp / "hostile.json"
        path.write_bytes(body)
        for argv in (["replay", str(path)], ["replay", str(path), "--json"],
                     ["import", str(path), "--db", str(tmp / "cli.sqlite3")]):
            run = subprocess.run([str(BIN / "referee"), *argv], capture_output=True, timeout=300)
            runs += 1
            exits[run.returncode] += 1
            if run.returncode not in (0, 1, 2) or b"Traceback" in run.stderr:
                fault(f"referee {argv[0]} of {name}: exit {run.returncode} "
                      f"{run.stderr.decode(errors='replace')[-300:]}")
    print(f"hostile files: {runs} CLI runs, exits {dict(sorted(exits.items()))}")


# ---------------------------------------------------------------- slow connections

def slow(port: int, count: int = 1000) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 500)), hard))
    held = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        held.append(s)
    time.sleep(1)
    t0 = time.perf_counter()
    try:
        status = send(port, "GET", "/api/openapi.json", None, timeout=30)
    except OSError as err:
        status = type(err).__name__
    took = time.perf_counter() - t0
    for s in held:
        s.close()
    print(f"half-sent requests: {count} held open, then a GET answered {status} "
          f"in {took * 1000:.0f} ms")
    if status != 200 or took > 2:
        fault(f"with {count} half-sent requests a GET answered {status} in {took:.1f} s")


# ---------------------------------------------------------------- kills

def kills(database: str, port: int, hands: int, tmp: Path) -> None:
    tablets = [Tablet(Client("127.0.0.1", port, timeout=120), seed=k) for k in (10, 11)]
    for t in tablets:
        t.open()
    log = tmp / "long.json"
    log.write_text(json.dumps(make_session(hands, seed=25)))
    # A refusal or a dropped connection stops a tablet: said below.
    writers = Burst(tablets).start()

    acked_before = writers.acked()
    t0 = time.perf_counter()
    stored, size = commit_bytes(database, str(log))
    took = time.perf_counter() - t0
    whole = rows_of(database, stored)
    print(f"kills: a {hands:,}-hand import takes {took:.1f} s beside the tablets; its commit "
          f"writes {size / 1e6:.1f} MB")
    said = []
    for seconds in (0.25 * took, 0.5 * took):  # inside its transaction, before the commit
        before = sessions_now(database)
        kill_after(database, str(log), seconds)
        new = sessions_now(database) - before
        said.append(f"after {seconds:.1f} s: {'all' if new else 'nothing'}")
        if new and rows_of(database, new.pop()) != whole:
            fault(f"an import killed after {seconds:.1f} s is stored in part")
    for share in (0.0, 0.05, 0.5, 0.95):
        before = sessions_now(database)
        kill = kill_in_commit(database, str(log), share, size)
        new = sessions_now(database) - before
        said.append(f"{kill.into / 1e6:.1f} MB into its commit: {'all' if new else 'nothing'}")
        if new and rows_of(database, new.pop()) != whole:
            fault(f"an import killed {kill.into} bytes into its commit is stored in part")
    writers.stop(120)
    acked = writers.acked() - acked_before
    lost = 0
    for t in tablets:
        status, doc = t.client.request("GET", f"/api/sessions/{t.sid}/log")
        logged = {(i + 1, j + 1, a) for i, h in enumerate(doc.get("hands", []))
                  for j, a in enumerate(h.get("actions", []))}
        lost += len(set(t.acked) - logged)
    print("  killed " + "; ".join(said))
    print(f"  the tablets beside: {acked} actions acknowledged meanwhile, {lost} lost"
          + (f"; stopped by {writers.errors[:1]!r}" if writers.errors else ""))
    if lost:
        fault(f"{lost} acknowledged actions lost")


# ---------------------------------------------------------------- direct edits

def verify(path: Path, *extra: str) -> tuple[int, str]:
    run = subprocess.run([str(BIN / "referee"), "verify", "--db", str(path), *extra],
                         capture_output=True, text=True, timeout=900)
    return run.returncode, run.stdout + run.stderr


def raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER IF EXISTS events_no_update")
    conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
    return conn


def rehash(conn: sqlite3.Connection, sid: str, head: str) -> int:
    """The session's event whose hash is ``head`` edited (an action's text),
    and every hash of the chain computed again: how many were edited."""
    cols = [d[0] for d in conn.execute("SELECT * FROM events LIMIT 0").description]
    prev = None
    edited = 0
    for values in conn.execute("SELECT * FROM events WHERE session_id = ? ORDER BY seq",
                               [sid]).fetchall():
        ev = dict(zip(cols, values, strict=True))
        if prev is not None:
            ev["prev_hash"] = prev
        if ev["hash"] == head and ev["kind"] == "action":
            ev["payload"] = ev["payload"].replace('"text":"', '"text":"x', 1)
            edited += 1
        ev["hash"] = event_hash(ev["prev_hash"], ev)
        conn.execute("UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE id = ?",
                     [ev["payload"], ev["prev_hash"], ev["hash"], ev["id"]])
        prev = ev["hash"]
    return edited


class Changed:
    rowcount = 1


def forge(conn: sqlite3.Connection, sid: str, key: str, by: int) -> Changed:
    """A stored answer's ``key`` moved by ``by`` (what a retry gets back)."""
    client_id, body = conn.execute(
        "SELECT client_id, body FROM replies WHERE session_id = ? AND refused = 0 "
        "ORDER BY client_id LIMIT 1", (sid,)).fetchone()
    doc = json.loads(body)
    doc[key] += by
    conn.execute("UPDATE replies SET body = ? WHERE session_id = ? AND client_id = ?",
                 (json.dumps(doc), sid, client_id))
    return Changed()


def edits(database: str, sid: str, tmp: Path) -> None:
    """Each edit on a fresh copy; ``sid``: a live table with stored answers."""
    source = tmp / "edits-source.sqlite3"
    with sqlite3.connect(database) as live, sqlite3.connect(source) as copy:
        live.backup(copy)
    status, said = verify(source)
    if status != 0:
        fault(f"verify of the untouched copy: {status} {said[-500:]}")
        return
    head = said.split("database head ")[1].split()[0]
    newest = sqlite3.connect(source).execute(
        "SELECT session_id FROM events ORDER BY id DESC LIMIT 1").fetchone()[0]

    def hand_of(conn, status: str) -> int:
        return conn.execute("SELECT min(n) FROM hands WHERE session_id = ? AND status = ?",
                            (sid, status)).fetchone()[0]
    plans = {
        "a hand's status complete -> void": lambda c: c.execute(
            "UPDATE hands SET status = 'void' WHERE session_id = ? AND n = ?",
            (sid, hand_of(c, "complete"))),
        "a hand's status complete -> open": lambda c: c.execute(
            "UPDATE hands SET status = 'open' WHERE session_id = ? AND n = ?",
            (sid, hand_of(c, "complete"))),
        "a forged stored answer (seq)": lambda c: forge(c, sid, "seq", 1),
        "a forged stored answer (hand)": lambda c: forge(c, sid, "hand", 9),
        "a stored answer turned into a refusal": lambda c: c.execute(
            "UPDATE replies SET refused = 1 WHERE session_id = ? AND refused = 0 AND "
            "client_id = (SELECT min(client_id) FROM replies WHERE session_id = ? "
            "AND refused = 0)", (sid, sid)),
        "a replaced table-token hash": lambda c: c.execute(
            "UPDATE sessions SET table_token_hash = ? WHERE id = ?",
            (access.token_hash("the attacker's own"), sid)),
        "a replaced audit-token hash": lambda c: c.execute(
            "UPDATE sessions SET audit_token_hash = ? WHERE id = ?",
            (access.token_hash("the attacker's own"), sid)),
        "a PIN hash added": lambda c: c.execute(
            "UPDATE sessions SET pin_hash = ? WHERE id = ?", (access.hash_pin("1234"), sid)),
        "the stake": lambda c: c.execute("UPDATE sessions SET stake = '3.5' WHERE id = ?",
                                         (sid,)),
        "the currency": lambda c: c.execute("UPDATE sessions SET currency = 'EUR' WHERE id = ?",
                                            (sid,)),
        "the expanded rules": lambda c: c.execute(
            "UPDATE sessions SET rules_expanded = replace(rules_expanded, 'true', 'false') "
            "WHERE id = ?", (sid,)),
        "everyone seated": lambda c: c.execute(
            "UPDATE sessions SET everyone = '[\"Ann\", \"Ben\"]' WHERE id = ?", (sid,)),
        "a hand's result": lambda c: c.execute(
            "UPDATE hands SET result = replace(result, '\"-', '\"+') WHERE session_id = ? "
            "AND n = ?", (sid, hand_of(c, "complete"))),
        "a hand's setup": lambda c: c.execute(
            "UPDATE hands SET setup = replace(setup, 'Ann', 'Ben') WHERE session_id = ? "
            "AND n = 1", (sid,)),
        "a hand's dealer": lambda c: c.execute(
            "UPDATE hands SET dealer = 'Cy' WHERE session_id = ? AND n = 1 AND dealer <> 'Cy'",
            (sid,)),
        "a seat's name": lambda c: c.execute(
            "UPDATE seats SET name = 'Zed' WHERE session_id = ? AND hand = 1 AND position = 0",
            (sid,)),
        "an action's text": lambda c: c.execute(
            "UPDATE events SET payload = replace(payload, 'draw', 'pick') WHERE id = "
            "(SELECT min(id) FROM events WHERE session_id = ? AND kind = 'action' "
            "AND payload LIKE '%draw%')", (sid,)),
        "an event's client id": lambda c: c.execute(
            "UPDATE events SET client_id = 'forged' WHERE id = (SELECT max(id) FROM events "
            "WHERE session_id = ? AND client_id IS NOT NULL)", (sid,)),
        "two events swapped": lambda c: c.execute(
            "UPDATE events SET payload = CASE id WHEN a THEN (SELECT payload FROM events "
            "WHERE id = b) ELSE (SELECT payload FROM events WHERE id = a) END FROM (SELECT "
            "min(id) AS a, min(id) + 1 AS b FROM events WHERE session_id = ? AND kind = "
            "'action') WHERE id IN (a, b)", (sid,)),
        "the last event deleted": lambda c: c.execute(
            "DELETE FROM events WHERE id = (SELECT max(id) FROM events WHERE session_id = ?)",
            (sid,)),
        "a session's events deleted, its row kept": lambda c: c.execute(
            "DELETE FROM events WHERE session_id = ?", (sid,)),
        "a hand row deleted": lambda c: c.execute(
            "DELETE FROM hands WHERE session_id = ? AND n = 1", (sid,)),
        "the newest session deleted (against the database head)": None,
        "its last action edited and re-hashed (against the database head)": None,
    }
    caught = 0
    for name, plan in plans.items():
        copy = tmp / "edited.sqlite3"
        shutil.copy(source, copy)
        conn = raw(copy)
        extra: tuple[str, ...] = ()
        if plan is not None:
            changed = plan(conn).rowcount
        else:
            extra = ("--head", head)
            if "deleted" in name:
                for table in ("events", "hands", "seats", "replies", "attempts"):
                    conn.execute(f"DELETE FROM {table} WHERE session_id = ?", [newest])
                changed = conn.execute("DELETE FROM sessions WHERE id = ?", [newest]).rowcount
            else:
                changed = rehash(conn, newest, head)
        conn.close()
        if not changed:
            print(f"  (edit not applicable here: {name})")
            continue
        status, said = verify(copy, *extra)
        caught += status == 1
        if status != 1:
            fault(f"edit not caught: {name} (verify {status})")
        copy.unlink()
    print(f"direct edits: {caught} of {len(plans)} caught by referee verify")


# ---------------------------------------------------------------- main

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", type=int, default=8, help="schemathesis: per operation")
    ap.add_argument("--hands", type=int, default=5000, help="the long import killed")
    ap.add_argument("--skip", nargs="*", default=[],
                    choices=["schemathesis", "hostile", "slow", "kills", "edits"])
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tonk-attack-"))
    database = str(tmp / "attack.sqlite3")
    storage.connect(database).close()
    port = free_port()
    server_log = tmp / "server.txt"
    said = server_log.open("w")
    server = start_server(database, port, stdout=said)
    try:
        tablets = [Tablet(Client("127.0.0.1", port, timeout=120), seed=k) for k in range(2)]
        for t in tablets:
            t.open()
            for _ in range(60):
                t.step()
        sid, token = tablets[0].sid, tablets[0].client.token
        if "schemathesis" not in args.skip:
            schemathesis(port, tablets[1].sid, tablets[1].client.token, args.examples, tmp)
        if "hostile" not in args.skip:
            hostile(port, sid, token, tmp)
        if "slow" not in args.skip:
            slow(port)
        if "edits" not in args.skip:
            tablets[0].client.close()  # its connection was idle long enough to be closed
            tablets[0].step()  # its table the newest, an action its last event
            edits(database, sid, tmp)
        if "kills" not in args.skip:
            kills(database, port, args.hands, tmp)
        status, text = verify(Path(database))
        print(f"referee verify of the whole database: exit {status}")
        if status != 0:
            fault(f"verify: {text[-1000:]}")
    finally:
        server.kill()
        server.wait(10)
        said.close()
        log = server_log.read_text(errors="replace")
        tracebacks = log.count("Traceback")
        print(f"server log: {len(log.splitlines())} lines, {tracebacks} tracebacks")
        if tracebacks:
            fault("traceback in the server's log: " + log[log.index("Traceback"):][:2000])
        shutil.rmtree(tmp, ignore_errors=True)
    print("FAULTS: " + ("none" if not FAULTS else str(len(FAULTS))))
    return 1 if FAULTS else 0


if __name__ == "__main__":
    sys.exit(main())
