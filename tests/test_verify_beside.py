"""Every tampering test of test_trust again, with the chain walked in a
second process beside the other checks (``trust.BESIDE_EVENTS``: a long
session's way, here from the first event): the same sessions fail, with the
chain's fault reported first, and untouched ones pass."""

from __future__ import annotations

import pytest

from referee.service import beside, storage, trust

from .test_trust import *  # noqa: F403 - the same tests, collected here too
from .test_trust import played, raw, swap_two_actions


@pytest.fixture(autouse=True)
def walk_beside(monkeypatch):
    monkeypatch.setattr(trust, "BESIDE_EVENTS", 0)


def test_a_broken_chain_is_the_fault_reported(app, client, monkeypatch):
    started = []
    start = beside.start
    monkeypatch.setattr(beside, "start", lambda *job: started.append(1) or start(*job))
    g = played(client)
    db = storage.connect(app.config["DATABASE"])
    assert trust.verify_session(db, g.sid) == []
    assert started == [1]
    conn = raw(app)
    # A payload no check could read (it is not JSON): the chain's fault
    # comes back, not the other checks' crash.
    conn.execute("UPDATE events SET payload = 'x' WHERE kind = 'hand_start' AND hand = 1")
    faults = trust.verify_session(db, g.sid)
    assert len(faults) == 1 and "its hash does not match its contents" in str(faults[0])


def test_a_rewritten_chain_of_play_that_breaks_a_rule_is_named_both_ways(app, client,
                                                                          monkeypatch):
    g = played(client, undo=False)
    db = storage.connect(app.config["DATABASE"])
    swap_two_actions(app, g.sid)
    two = trust.verify_session(db, g.sid)
    monkeypatch.setattr(trust, "BESIDE_EVENTS", 10**9)
    one = trust.verify_session(db, g.sid)
    assert two == one and len(one) == 1
    assert str(one[0]).startswith("the chain's log does not replay: hand 2")


def test_no_second_process_to_be_had_verifies_in_one(app, client, monkeypatch):
    g = played(client)
    db = storage.connect(app.config["DATABASE"])

    def no_fork():
        raise OSError(12, "Cannot allocate memory")
    monkeypatch.setattr(beside.os, "fork", no_fork)
    assert trust.verify_session(db, g.sid) == []
    raw(app).execute("UPDATE hands SET dealer = 'Zed' WHERE session_id = ? AND n = 1",
                     (g.sid,))
    assert list(map(str, trust.verify_session(db, g.sid))) == [
        "hand 1's stored dealer differs from its chain"]


def test_one_process_works_out_the_actions_in_force_once(app, client, monkeypatch):
    # The event checks and the results' replay read the same actions in
    # force: in one process they are worked out once (issue 37, verify's
    # cost against its floor).
    monkeypatch.setattr(trust, "BESIDE_EVENTS", 10**9)
    walks = []
    walk = trust._live_actions
    monkeypatch.setattr(trust, "_live_actions", lambda events: walks.append(1) or walk(events))
    g = played(client)
    db = storage.connect(app.config["DATABASE"])
    assert trust.verify_session(db, g.sid) == []
    assert walks == [1]
