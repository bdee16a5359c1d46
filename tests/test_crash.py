"""Kill the servers (SIGKILL) during a burst of actions from several tablets:
two app servers on one database, killed one after the other; every
acknowledged action must be in the log after a restart, nothing
half-applied, and the hash chain must verify, with every receipt (a
session's head) taken before the kills still in it. On SQLite and on
PostgreSQL."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from referee.devtools.loadgen import Burst, Client, Tablet, free_port, start_server
from referee.replay import replay
from referee.service import storage, trust
from referee.service.table import cache
from referee.service.trust import receipt

from .conftest import BOTH_BACKENDS


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


@pytest.mark.slow
def test_sigkill_mid_burst_loses_no_acknowledged_action(database):
    ports = [free_port(), free_port()]
    servers = [start_server(database, port) for port in ports]
    # Half the tablets on each server; each server killed in its turn.
    tablets = [Tablet(Client("127.0.0.1", ports[k % 2], timeout=5), seed=k) for k in range(6)]
    for t in tablets:
        t.open()
    stop = threading.Event()
    # A tablet whose server is killed under it stops: what it had acknowledged counts.
    writers = Burst(tablets)

    receipts: list[tuple[str, str]] = []  # (session, head) as a phone would keep them
    # The receipts are read from the other server than the one that wrote.
    watchers = [Client("127.0.0.1", ports[1 - k % 2], timeout=5) for k in range(6)]

    def take_receipts() -> None:
        while not stop.is_set():
            for t, watcher in zip(tablets, watchers, strict=True):
                try:
                    status, summary = watcher.request(
                        "GET", f"/api/sessions/{t.sid}",
                        headers={"Authorization": f"Bearer {t.client.token}"})
                except Exception:
                    continue
                if status == 200:
                    receipts.append((t.sid, summary["head"]))
            time.sleep(0.05)

    receiver = threading.Thread(target=take_receipts)
    try:
        writers.start()
        receiver.start()
        for k, server in enumerate(servers):
            # Killed mid-burst once it has taken a fair share (on a busy host
            # a fixed pause could kill it before it took any).
            waited = time.monotonic() + 20
            while (sum(len(t.acked) for t in tablets[k::2]) <= 25
                   and time.monotonic() < waited):
                time.sleep(0.1)
            time.sleep(0.3)
            os.kill(server.pid, signal.SIGKILL)
            server.wait(10)
        writers.stop()
        stop.set()
        receiver.join(10)
        for k in (0, 1):
            assert sum(len(t.acked) for t in tablets[k::2]) > 25, f"server {k} took too little"
        servers = [start_server(database, port) for port in ports]  # on the same database
        for k, t in enumerate(tablets):
            t.client.close()
            reader = Client("127.0.0.1", ports[1 - k % 2], timeout=5)
            reader.token = t.client.token
            status, doc = reader.request("GET", f"/api/sessions/{t.sid}/log")
            assert status == 200
            hands = doc.get("hands", [])
            logged = [(i + 1, j + 1, a) for i, h in enumerate(hands)
                      for j, a in enumerate(h.get("actions", []))]
            acked = set(t.acked)
            assert acked <= set(logged), "an acknowledged action is missing"
            # at most the one in flight at the kill got in without its answer
            assert len(logged) - len(acked) <= 1
            replay(doc, allow_open_last_hand=True)  # nothing half-applied
            status, state = t.client.request("GET", f"/api/sessions/{t.sid}/hands/{len(hands)}")
            assert status == 200 and state["seq"] == len(hands[-1].get("actions", []))
    finally:
        for server in servers:
            server.kill()
            server.wait(10)
    cache.forget()
    db = storage.connect(database)
    assert all(fault is None for fault in storage.chain.verify_all(db).values())
    assert all(not faults for faults in trust.verify_all(db).values())
    assert len(receipts) > 6
    for sid, head in receipts[:: max(1, len(receipts) // 40)] + receipts[-6:]:
        assert trust.verify_session(db, sid) == [], sid
        assert receipt.check(db, head, sid).held, (sid, head)
