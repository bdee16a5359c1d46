"""``referee verify`` on a database a running server is writing: a cron job
checking a live service must find nothing wrong with it. Verify reads each
database in one snapshot (docs/decisions.md, issue 25); read in separate
queries, an action stored between them looked like an edit ("hand 1's newest
event ... is not the chain's", "the stored answer ... answers no event of the
chain"). On SQLite and on PostgreSQL; in one process and with the chain
checked in a second one (``trust.BESIDE_EVENTS``)."""

from __future__ import annotations

import time

import pytest

from referee.devtools.loadgen import Burst, Client, Tablet, free_port, start_server
from referee.service import storage, trust
from referee.service.table import cache

from .conftest import BOTH_BACKENDS


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


@pytest.mark.slow
@pytest.mark.parametrize("beside", [False, True], ids=["one-process", "two-processes"])
def test_verify_while_a_server_writes_finds_no_fault(database, beside, monkeypatch):
    if beside:
        monkeypatch.setattr(trust, "BESIDE_EVENTS", 0)
    port = free_port()
    server = start_server(database, port)
    tablets = [Tablet(Client("127.0.0.1", port, timeout=10), seed=k) for k in range(2)]
    writers = Burst(tablets)
    try:
        for t in tablets:
            t.open()
        writers.start()
        db = storage.connect(database)
        found: dict = {}
        # Verifies for 4 s at least, and until three of them ran while the
        # writers wrote (a writer that stopped tests nothing): on a loaded
        # host one verify can take seconds, and 4 s alone could see fewer.
        least, most = time.monotonic() + 4, time.monotonic() + 120
        overlapped = 0
        while not found and not writers.errors and time.monotonic() < most and \
                (time.monotonic() < least or overlapped < 3):
            acked = writers.acked()
            found = {sid: faults for sid, faults in trust.verify_all(db).items() if faults}
            found.update({t.sid: faults for t in tablets
                          if (faults := trust.verify_session(db, t.sid))})
            overlapped += writers.acked() > acked
        assert not found, {sid: [str(f) for f in faults] for sid, faults in found.items()}
        assert not writers.errors, writers.errors
        assert overlapped >= 3, "the writers did not write during the verifies"
    finally:
        writers.stop()
        server.kill()
        server.wait(10)
        cache.forget()
