"""A long import served beside other people's requests drops none of them
(issue 34, item 1). An import of 1,000 hands or more replays its hands in a
second process; forked from a request's thread, that child held every
socket and the server's epoll set while it ran: 60-73% of concurrent
requests were closed with no answer, each logging ``BlockingIOError``.

``referee serve`` in a process of its own, several clients asking in a
loop (a connection each request, and one kept alive) while long imports
run: every request is answered, in full, and nothing is logged as an
error."""

from __future__ import annotations

import http.client
import json
import os
import socket
import threading
import time

import pytest

from referee.devtools.loadgen import free_port, start_server
from referee.devtools.simulate import random_session
from referee.service import beside
from referee.service.table.sessions import BESIDE_HANDS

pytestmark = pytest.mark.slow

CLIENTS = 4
IMPORTS = 2


def sockets_held() -> list[str]:
    """The sockets the calling process holds (its descriptors' targets)."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(("socket:", "anon_inode:[eventpoll]")):
            held.append(target)
    return held


def test_beside_threads_the_second_process_holds_none_of_this_ones_sockets():
    """In a process running threads (a server) the second process comes from
    the fork server: it holds none of this process's sockets or epoll sets."""
    import select

    listening = socket.create_server(("127.0.0.1", 0))
    poll = select.epoll()
    poll.register(listening.fileno(), select.EPOLLIN)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        mine = set(sockets_held())
        assert mine
        theirs = set(beside.start(sockets_held)())
        assert not mine & theirs, mine & theirs
    finally:
        stop.set()
        thread.join()
        poll.close()
        listening.close()


def _ask(port: int, conn: http.client.HTTPConnection | None, path: str, token: str):
    """One GET; the connection to use next (None: a new one), or raises."""
    own = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    own.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    answer = own.getresponse()
    body = answer.read()
    if answer.status != 200:
        raise AssertionError(f"{path}: {answer.status}")
    json.loads(body)  # cut mid-body: not JSON
    if conn is None:
        own.close()
    return conn


def test_a_long_import_drops_no_other_request(tmp_path):
    log = random_session(34, hands=BESIDE_HANDS)
    # one long log imported IMPORTS times: copies, asked for (else already_stored)
    body = json.dumps({**log, "copy": True}).encode()
    port = free_port()
    out = tmp_path / "serve.log"
    with out.open("wb") as sink:
        server = start_server(tmp_path / "r.sqlite3", port, stdout=sink)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/api/sessions", body=json.dumps(
            {"stake": "1", "rules": "pagat", "players": ["Ann", "Ben"]}),
            headers={"Content-Type": "application/json"})
        made = json.loads(conn.getresponse().read())
        path = f"/api/sessions/{made['id']}"
        stop = threading.Event()
        asked, failed = [0], []

        def client(keep: bool) -> None:
            alive = http.client.HTTPConnection("127.0.0.1", port, timeout=30) if keep else None
            while not stop.is_set():
                try:
                    alive = _ask(port, alive, "/api/openapi.json" if keep else path,
                                 made["audit_token"])
                    asked[0] += 1
                except (OSError, http.client.HTTPException, AssertionError, ValueError) as err:
                    failed.append(repr(err))
                    if keep:
                        alive = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        threads = [threading.Thread(target=client, args=(i == 0,)) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        try:
            for _ in range(IMPORTS):
                conn.request("POST", "/api/sessions", body=body,
                             headers={"Content-Type": "application/json"})
                answer = conn.getresponse()
                assert answer.status == 201, answer.read()[:300]
                answer.read()
            time.sleep(0.5)
        finally:
            stop.set()
            for t in threads:
                t.join(60)
        conn.close()
    finally:
        server.terminate()
        server.wait(30)
    said = out.read_text(errors="replace")
    assert asked[0] > 20
    assert failed == [], f"{len(failed)} of {asked[0] + len(failed)} dropped: {failed[:5]}"
    assert "BlockingIOError" not in said and "Traceback" not in said, said[-2000:]
