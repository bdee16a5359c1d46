"""The two-process replay of long logs answers exactly as the sequential one:
the same result, or the same first error (in either half, or at the seam)."""

import json
import random
from pathlib import Path

import pytest

from referee import replay_split
from referee.replay import replay
from referee.replay_split import replay_json_text
from referee.result_json import hand_line, item_line, result_json_text
from referee.rules.errors import RefereeError
from referee.simulate import random_session


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
        assert min(count, 40) // 2 <= len(bounds) <= min(count, 40)


NAMES = ['Zoë "Z" O\'Brien', "Jürgen\\Łukasz", "José ☃", "小明", "Ann"]


@pytest.mark.parametrize("seed", range(4))
def test_hand_lines_are_what_the_json_encoder_writes(seed):
    """Each half writes its hands' lines itself (result_json.hand_line): the
    same text as the JSON encoder, whatever the names."""
    log = random_session(seed, hands=6, players=NAMES[: 2 + seed % 3])
    log["stake"] = ["0.25", "1", "0.125", "3"][seed]
    for hand in log["hands"][::2]:
        hand["stake_multiplier"] = 3
    session = replay(log)
    result = session.result()
    for hand in result.hands:
        assert hand_line(hand, result.quantum) == item_line(hand.to_json(result.quantum))
    assert outcome(split, log) == outcome(sequential, log)


@pytest.mark.parametrize("segments", [2, 32])
def test_players_who_join_are_seated_in_every_segment(monkeypatch, segments):
    monkeypatch.setattr(replay_split, "SEGMENTS", segments)
    path = Path(__file__).resolve().parents[1] / "sample_logs" / "opt_player_joins.json"
    log = json.loads(path.read_text())
    assert outcome(split, log) == outcome(sequential, log)
