"""Every tampering test of test_trust again, with the chain walked in a
second process beside the other checks (``trust.BESIDE_EVENTS``: a long
session's way, here from the first event): the same sessions fail, with the
chain's fault reported first, and untouched ones pass."""

from __future__ import annotations

import pytest

from referee.service import beside, storage, trust

from .test_trust import *  # noqa: F403 - the same tests, collected here too
from .test_trust import played, raw


@pytest.fixture(autouse=True)
def walk_beside(monkeypatch):
    monkeypatch.setattr(trust, "BESIDE_EVENTS", 0)


def test_a_broken_chain_is_the_fault_reported(app, client, monkeypatch):
    started = []
    start = beside.start
    monkeypatch.setattr(beside, "start", lambda job: started.append(1) or start(job))
    g = played(client)
    db = storage.connect(app.config["DATABASE"])
    assert trust.verify_session(db, g.sid) == []
    assert started == [1]
    conn = raw(app)
    # A payload no check could read (it is not JSON): the chain's fault
    # comes back, not the other checks' crash.
    conn.execute("UPDATE events SET payload = 'x' WHERE kind = 'hand_start' AND hand = 1")
    faults = trust.verify_session(db, g.sid)
    assert len(faults) == 1 and "its hash does not match its contents" in faults[0]
