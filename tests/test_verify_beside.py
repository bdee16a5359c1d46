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


def test_a_clean_session_has_its_results_checked_in_segments_by_both(app, client,
                                                                      monkeypatch):
    # Issue 37 (verify against its floor): the results' replay and compare are
    # taken in segments by whichever process is free, and a session whose
    # every segment holds is not checked again in order.
    in_order = []
    check = trust._result_faults
    monkeypatch.setattr(trust, "_result_faults",
                        lambda *a: in_order.append(1) or check(*a))
    g = played(client, hands=4)
    db = storage.connect(app.config["DATABASE"])
    assert len(trust._segment_bounds(5)) == 5  # a hand a segment: every edge tested
    assert trust.verify_session(db, g.sid) == []
    assert in_order == []


@pytest.mark.parametrize("hand", [1, 2, 3, 4])
@pytest.mark.parametrize("column,edit", [
    ("running", "replace(running, '\"totals\":{', '\"totals\":{\"Zed\":\"1\",')"),
    ("result", "replace(result, '\"dealer\":', '\"dealer\":\"Zed\",\"x\":')"),
    ("seats", "'[\"Ann\"]'"),
])
def test_an_edit_in_a_segment_is_said_as_in_one_process(app, client, monkeypatch, hand,
                                                         column, edit):
    # A segment starts from the stored running row of the hand before it: an
    # edit there, or anywhere, is told by the check in order, the same words
    # as in one process (and no more: the hand after it is not named too).
    g = played(client, hands=4)
    db = storage.connect(app.config["DATABASE"])
    conn = raw(app)
    before = conn.execute(f"SELECT {column} FROM hands WHERE n = ?", (hand,)).fetchone()
    conn.execute(f"UPDATE hands SET {column} = {edit} WHERE session_id = ? AND n = ?",
                 (g.sid, hand))
    assert conn.execute(f"SELECT {column} FROM hands WHERE n = ?", (hand,)).fetchone() != before
    two = list(map(str, trust.verify_session(db, g.sid)))
    monkeypatch.setattr(trust, "BESIDE_EVENTS", 10**9)
    one = list(map(str, trust.verify_session(db, g.sid)))
    assert two == one and one and all(f.startswith(f"hand {hand}'s") for f in one)
