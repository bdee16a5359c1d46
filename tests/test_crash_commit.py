"""Kill an import (SIGKILL) while it is inside its database commit, with a
service writing to the same database beside it: the import is stored whole
or not at all, ``verify`` finds nothing, the service's acknowledged actions
are all kept. SQLite (the commit writes the WAL's frames, its commit frame
last, then syncs) and PostgreSQL (the COMMIT sent to the server).

A first import of the log, not killed, measures how many bytes its COMMIT
writes; each import after it is stopped once a share of them is written,
where it stopped is read off, and only then it is killed
(``devtools.killing``: the test's own wrapper of the referee's connection
tells when the COMMIT starts, no hook in the referee's code).
"""

from __future__ import annotations

import json

import pytest

from referee.devtools.killing import (
    commit_bytes,
    kill_in_commit,
    rows_of,
    sessions_now,
    sessions_settled,
)
from referee.devtools.loadgen import Burst, Client, Tablet, free_port, start_server
from referee.devtools.samplegen import make_session
from referee.replay import replay
from referee.service import storage, trust
from referee.service.table import cache

from .conftest import BOTH_BACKENDS

HANDS = 1200  # above sessions.BESIDE_HANDS: the import's two processes


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


@pytest.mark.slow
def test_sigkill_inside_an_import_commit_keeps_all_or_nothing(database, backend, tmp_path):
    log = tmp_path / "long.json"
    log.write_text(json.dumps(make_session(HANDS, seed=11)))
    port = free_port()
    said = (tmp_path / "server.txt").open("w")
    server = start_server(database, port, stdout=said)
    tablets = [Tablet(Client("127.0.0.1", port, timeout=60), seed=k) for k in range(3)]
    for t in tablets:
        t.open()
    writers = Burst(tablets).start()
    try:
        # The first import commits: how many bytes its COMMIT writes.
        stored, size = commit_bytes(database, str(log))
        whole = rows_of(database, stored)
        assert whole[1] == HANDS
        kills = []
        # At the commit's start (the stop sent as soon as it is told), then
        # a twentieth, half and nineteen twentieths of its bytes in.
        for share in (0.0, 0.05, 0.5, 0.95):
            for _attempt in range(3):  # a stop that came too late is tried again
                before = sessions_now(database)
                kill = kill_in_commit(database, str(log), share, size)
                new = sessions_settled(database) - before
                if new:
                    assert len(new) == 1 and rows_of(database, new.pop()) == whole
                kills.append((share, kill.into, "all" if new else "nothing"))
                if backend == "postgresql" or kill.into < size:
                    break
            else:
                pytest.fail(f"no stop inside the commit at {share}: {kills}")
        if backend == "sqlite":
            # Stopped in the first twentieth of its bytes, the commit had not
            # written its commit frame (the WAL's last; a checkpoint after it
            # would write as much again): nothing of the import can be there.
            assert all(said == "nothing" for _, into, said in kills if into <= size / 20), kills
        writers.stop(60)
        assert writers.acked() > 10, "the service took too little"
        for t in tablets:
            status, doc = t.client.request("GET", f"/api/sessions/{t.sid}/log")
            assert status == 200
            hands = doc.get("hands", [])
            logged = {(i + 1, j + 1, a) for i, h in enumerate(hands)
                      for j, a in enumerate(h.get("actions", []))}
            assert set(t.acked) <= logged, "an acknowledged action is missing"
            replay(doc, allow_open_last_hand=True)
        print(f"{backend}: commit of {size:,} bytes; killed at {kills}")
    finally:
        writers.stop(60)
        server.kill()
        server.wait(10)
        said.close()
    assert "Traceback" not in (tmp_path / "server.txt").read_text()
    assert_whole(database)


def assert_whole(database: str) -> None:
    """What ``referee verify`` checks: every chain, and what is read from it."""
    cache.forget()
    db = storage.connect(database)
    try:
        assert all(fault is None for fault in storage.chain.verify_all(db).values())
        faults = {sid: f for sid, f in trust.verify_all(db).items() if f}
        assert not faults
    finally:
        db.close()
