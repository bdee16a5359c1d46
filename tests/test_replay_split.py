"""The two-process replay of long logs answers exactly as the sequential one:
the same result, or the same first error (in either half, or at the seam)."""

import json
import random
from pathlib import Path

import pytest

from referee.devtools.simulate import random_session
from referee.record.result_text import result_json_text
from referee.replay import replay
from referee.replay import two_cores as replay_split
from referee.replay.two_cores import replay_json_text
from referee.rules.errors import RefereeError
from tests.event_logs import with_events


@pytest.fixture(autouse=True)
def split_small_logs(monkeypatch):
    monkeypatch.setattr(replay_split, "MIN_HANDS", 2)
    monkeypatch.setattr(replay_split.os, "cpu_count", lambda: 2)


def outcome(fn, log):
    try:
        return "ok", fn(log)
    except RefereeError as err:
        return "error", err.to_dict()


def sequential(log):
    return result_json_text(replay(log).result().to_json())


def split(log):
    assert replay_split.can_split(log)
    return replay_json_text(log)


@pytest.mark.parametrize("seed", range(6))
def test_same_result_as_sequential(seed):
    log = random_session(seed, rules=["pagat", "waiting", "chicago"][seed % 3], hands=7)
    assert outcome(split, log) == outcome(sequential, log)


def broken_logs(seed):
    rng = random.Random(seed)
    log = random_session(seed, hands=6)
    hands = log["hands"]
    k = rng.randrange(len(hands))
    variants = []
    bad = json.loads(json.dumps(log))  # an action out of turn somewhere
    actions = bad["hands"][k]["actions"]
    i = rng.randrange(len(actions))
    actions[i] = "Nobody: draw"
    variants.append(bad)
    bad = json.loads(json.dumps(log))  # a wrong dealer
    if k:
        bad["hands"][k]["dealer"] = bad["hands"][k - 1]["dealer"]
        variants.append(bad)
    bad = json.loads(json.dumps(log))  # a hand left unfinished before the next starts
    bad["hands"][k]["actions"] = bad["hands"][k]["actions"][:1]
    variants.append(bad)
    bad = json.loads(json.dumps(log))  # two faults: the earlier one wins
    bad["hands"][-1]["actions"][0] = "Nobody: draw"
    bad["hands"][0]["actions"][-1] = "Ann: fly"
    variants.append(bad)
    return variants


@pytest.mark.parametrize("seed", range(8))
def test_same_first_error_as_sequential(seed):
    for log in broken_logs(seed):
        seq = outcome(sequential, log)
        assert seq[0] == "error"
        assert outcome(split, log) == seq


def test_side_bets_and_short_logs_are_replayed_in_one_piece(monkeypatch):
    log = random_session(3, hands=4)
    log["hands"][0]["side_bets"] = [{"kind": "first_spread", "stake": "1",
                                     "players": log["players"][:2]}]
    assert not replay_split.can_split(log)
    monkeypatch.setattr(replay_split, "MIN_HANDS", 2000)
    assert not replay_split.can_split(random_session(3, hands=4))


@pytest.mark.parametrize("segments", [1, 2, 3, 32])
def test_any_number_of_segments_gives_the_sequential_answer(monkeypatch, segments):
    monkeypatch.setattr(replay_split, "SEGMENTS", segments)
    for seed in range(3):
        for log in [random_session(seed, hands=9), *broken_logs(seed)]:
            assert outcome(split, log) == outcome(sequential, log)


def test_segments_cover_every_hand_once_in_order():
    hands = random_session(5, hands=40)["hands"]
    for count in (1, 2, 7, 32, 100):
        bounds = replay_split._segments(hands, count)
        assert bounds[0][0] == 0 and bounds[-1][1] == 40
        assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False))
        assert all(start < end for start, end in bounds)
        assert len(bounds) <= min(count, 40)


def test_segments_shorten_towards_the_end():
    """Each segment is about a quarter of the work left (never less than the
    shortest allowed): the process that ends last waits for a short one."""
    hands = random_session(6, hands=400)["hands"]
    costs = [replay_split.HAND_COST + len(h["actions"]) for h in hands]
    total = sum(costs)
    for count in (8, 32, 128):
        bounds = replay_split._segments(hands, count)
        least = total / count
        left = total
        for start, end in bounds[:-1]:
            work = sum(costs[start:end])
            goal = max(least, left / replay_split.SHARE_LEFT)
            assert goal <= work < goal + max(costs[start:end])
            left -= work
        assert sum(costs[bounds[-1][0]:]) < 2 * least + max(costs)
        assert bounds[0][1] - bounds[0][0] > bounds[-1][1] - bounds[-1][0]


NAMES = ['Zoë "Z" O\'Brien', "Jürgen\\Łukasz", "José ☃", "小明", "Ann"]


@pytest.mark.parametrize("seed", range(4))
def test_each_halfs_hand_lines_are_the_sequential_replays(seed):
    """Each half writes its hands' lines itself: the same text as the
    sequential replay's, whatever the names and stakes."""
    log = random_session(seed, hands=6, players=NAMES[: 2 + seed % 3])
    log["stake"] = ["0.25", "1", "0.125", "3"][seed]
    for hand in log["hands"][::2]:
        hand["stake_multiplier"] = 3
    assert outcome(split, log) == outcome(sequential, log)


@pytest.mark.parametrize("segments", [2, 32])
def test_players_who_join_are_seated_in_every_segment(monkeypatch, segments):
    monkeypatch.setattr(replay_split, "SEGMENTS", segments)
    path = Path(__file__).resolve().parents[1] / "sample_logs" / "opt_player_joins.json"
    log = json.loads(path.read_text())
    assert outcome(split, log) == outcome(sequential, log)


def event_logs(seed):
    """Logs with void hands (at every kind of seam once cut into segments),
    hand stakes, money brought forward and paid, and a closed session; and
    broken ones: a void after the end, the deal passed after a void, a
    closed session left in play."""
    log = with_events(random_session(seed, rules=["pagat", "waiting", "chicago"][seed % 3],
                                     hands=8), seed, voids=0.5, stakes=0.4)
    log["closed"] = "2026-11-21T23:59:00Z"
    yield log
    rng = random.Random(seed)
    hands = log["hands"]
    voids = [i for i, h in enumerate(hands) if "void" in h]
    played = [i for i, h in enumerate(hands) if "void" not in h]
    bad = json.loads(json.dumps(log))  # a void on a hand whose play has ended
    bad["hands"][rng.choice(played)]["void"] = "misdeal"
    yield bad
    later = [i for i in voids if i + 1 < len(hands)]
    if later:  # after a void the deal passed anyway
        k = rng.choice(later) + 1
        bad = json.loads(json.dumps(log))
        seats = bad["hands"][k].get("players") or log["players"]
        bad["hands"][k]["dealer"] = next(q for q in seats if q != bad["hands"][k]["dealer"])
        yield bad
    bad = json.loads(json.dumps(log))  # closed while the last hand is in play
    bad["hands"][-1].pop("void", None)
    bad["hands"][-1]["actions"] = bad["hands"][-1]["actions"][:1]
    yield bad


@pytest.mark.parametrize("segments", [1, 2, 3, 32])
def test_logs_with_table_events_give_the_sequential_answer(monkeypatch, segments):
    monkeypatch.setattr(replay_split, "SEGMENTS", segments)
    logs = [log for seed in range(6) for log in event_logs(seed)]
    kinds = same_answers(split, sequential, logs)
    assert {"ok", "void_after_end", "closed_in_play"} <= kinds


def same_answers(fn, sequential_fn, logs) -> set[str]:
    """Each log answered by ``fn`` as by ``sequential_fn``; the answers met
    (an error's code, or "ok")."""
    kinds = set()
    for log in logs:
        seq = outcome(sequential_fn, log)
        kinds.add(seq[1]["code"] if seq[0] == "error" else "ok")
        assert outcome(fn, log) == seq
    return kinds


def test_a_void_hand_at_a_seam_keeps_the_deal(monkeypatch):
    """A segment that starts just after a void hand expects its dealer again."""
    monkeypatch.setattr(replay_split, "SEGMENTS", 32)
    log = random_session(1, hands=6)
    hands = log["hands"]
    void = json.loads(json.dumps(hands[3]))
    void["actions"], void["void"] = [], "misdeal"
    hands.insert(3, void)
    seq = outcome(sequential, log)
    assert seq[0] == "ok" and '"outcome": "void"' in seq[1]
    assert outcome(split, log) == seq
    hands[4]["dealer"] = hands[5]["dealer"]  # the deal passed: refused, in either replay
    seq = outcome(sequential, log)
    assert seq[0] == "error" and seq[1]["code"] == "wrong_dealer" and seq[1]["hand"] == 5
    assert outcome(split, log) == seq


@pytest.mark.parametrize("segments", [2, 3, 32])
def test_seats_a_log_changes_wrongly_are_the_sequential_error(monkeypatch, segments):
    """A hand seating players without its dealer: the segment after it is
    resumed from what the log claims (a dealer not seated), which the table
    cannot resume from; the first fault is still the sequential replay's
    (wrong_dealer), not a crash of either process."""
    monkeypatch.setattr(replay_split, "SEGMENTS", segments)
    log = random_session(2, hands=12, players=["Ann", "Ben", "Cy"])
    k = 6
    dealer = log["hands"][k]["dealer"]
    log["hands"][k]["players"] = [p for p in log["players"] if p != dealer]
    seq = outcome(sequential, log)
    assert seq[0] == "error" and seq[1]["code"] == "wrong_dealer"
    assert outcome(split, log) == seq


def from_document(doc):
    """``referee replay --json``'s way: the document read while the second
    process already replays it."""
    return replay_split.replay_document_json_text(doc)


def sequential_document(doc):
    from referee.record import load_log

    return sequential(load_log(doc))


def documents(seed):
    """Documents the second process starts on before they are read: plain
    logs, broken ones, logs the schema reads (not plain), logs the reading
    refuses, an export's receipt, rules that follow results."""
    log = random_session(seed, rules=["pagat", "waiting", "chicago"][seed % 3], hands=9)
    yield log
    yield from broken_logs(seed)
    yield {**log, "head": "x" * 64, "chain": []}  # an export's receipt: read, then dropped
    schema = json.loads(json.dumps(log))  # a hand the fast reading leaves to the schema
    schema["hands"][4]["players"] = log["players"]
    yield schema
    bad = json.loads(json.dumps(log))  # refused by the reading, at hand 6
    bad["hands"][5]["deal"] = {log["players"][0]: [1, 2, 3]}
    yield bad
    bad = json.loads(json.dumps(log))  # refused by the reading: the log's own fields
    bad["stake"] = "lots"
    yield bad
    yield {**log, "rules": "no such preset"}  # the table cannot open
    # Hands that follow the results before them: replayed in one piece.
    yield random_session(seed, rules={"preset": "pagat", "dealer_rotation": "winner_leads"},
                         hands=9)
    bad = json.loads(json.dumps(log))  # a hand that is not an object: not split early
    bad["hands"][2] = "hand three"
    yield bad


@pytest.mark.parametrize("segments", [1, 3, 32])
def test_a_document_replayed_while_it_is_read_gives_the_sequential_answer(monkeypatch,
                                                                         segments):
    monkeypatch.setattr(replay_split, "SEGMENTS", segments)
    codes = same_answers(from_document, sequential_document,
                         [doc for seed in range(3) for doc in documents(seed)])
    assert {"ok", "not_seated", "wrong_dealer", "hand_unfinished", "malformed_log",
            "unknown_preset"} <= codes, codes


def test_the_second_process_is_stopped_when_the_log_is_refused(monkeypatch):
    """A log the reading refuses: the second process, started before, is
    stopped and waited for (no process left behind)."""
    import os

    forked = []
    real_fork = os.fork

    def fork():
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(replay_split.os, "fork", fork)
    log = random_session(1, hands=9)
    log["stake"] = "lots"
    assert outcome(from_document, log)[0] == "error"
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # already waited for
