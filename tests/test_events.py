"""The table's own events (log-format.md, "The table's own events"): each
field read, written back and replayed as specified, and one test per refusal,
each naming the hand (and the action where there is one) with its code."""

import copy
import json
from decimal import Decimal
from pathlib import Path

import pytest

from referee.cli import main
from referee.record import dump_log, load_log, parse_log_text, write_log
from referee.record.reading import _plain_log
from referee.record.schemas import LOG
from referee.replay import replay
from referee.rules.errors import MalformedInput, RefereeError, RuleViolation
from referee.rules.events import void_hand
from referee.rules.hand import OVER, Hand
from referee.rules.options import resolve
from referee.rules.table import Table

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
BASE = json.loads((SAMPLES / "pagat_basic.json").read_text())
H1, H2, H3, H4 = BASE["hands"]


def session(*hands, **top) -> dict:
    doc = copy.deepcopy(BASE)
    doc["hands"] = [copy.deepcopy(h) for h in hands]
    doc.update(top)
    return doc


def hand(h: dict, actions: int | None = None, **extra) -> dict:
    h = copy.deepcopy(h)
    if actions is not None:
        h["actions"] = h["actions"][:actions]
    h.update(extra)
    return h


def error(doc: dict) -> RefereeError:
    try:
        replay(load_log(doc))
    except RefereeError as err:
        return err
    raise AssertionError("the log was accepted")


def result(doc: dict) -> dict:
    return replay(load_log(doc)).result().to_json()


def where(err: RefereeError) -> tuple:
    return err.code, err.hand, err.action, err.exit_status


# ---------------------------------------------------------------- fields


def test_a_log_without_the_new_fields_reads_and_replays_as_before():
    doc = session(H1, H2, H3, H4)
    out = result(doc)
    assert "balances" not in out and "closed" not in out
    assert all("reason" not in h for h in out["hands"])


@pytest.mark.parametrize("language", ["en", "de", "fr", "pt"])
def test_language(language):
    doc = session(H1, language=language)
    assert load_log(doc)["language"] == language
    assert result(doc) == result(session(H1))


def test_started_and_closed_take_any_utc_offset_and_closed_is_copied():
    doc = session(H1, started="2026-11-21T20:00:00+01:00", closed="2026-11-21T23:59:59Z")
    assert result(doc)["closed"] == "2026-11-21T23:59:59Z"


def test_void_hand_pays_nothing_and_its_dealer_deals_again():
    doc = session(hand(H1, 5, void="card exposed in the deal"), H1, H2)
    out = result(doc)
    assert out["hands"][0] == {"hand": 1, "dealer": "Ann", "outcome": "void",
                               "reason": "card exposed in the deal", "winners": [],
                               "counts": {}, "net": {"Ann": "0.00", "Ben": "0.00", "Cy": "0.00"}}
    assert [h["dealer"] for h in out["hands"]] == ["Ann", "Ann", "Ben"]
    assert out["totals"] == result(session(H1, H2))["totals"]


def test_a_log_may_end_with_a_void_hand():
    out = result(session(H1, hand(H2, 3, void="misdeal")))
    assert out["hands"][-1]["outcome"] == "void"


def test_after_a_void_hand_whose_dealer_left_the_next_seat_deals():
    rules = resolve("pagat")
    table = Table(rules, ["Ann", "Ben", "Cy", "Dee"])
    table.start_hand("Ann")
    table.hands[-1].phase = OVER  # settled
    void_hand(table.start_hand("Ben"))
    # Ben got up: the deal stays where it was, so Cy (next on Ben's left) deals.
    with pytest.raises(RuleViolation) as err:
        table.start_hand("Dee", players=["Ann", "Cy", "Dee"])
    assert err.value.code == "wrong_dealer"
    assert table.start_hand("Cy", players=["Ann", "Cy", "Dee"]).dealer == "Cy"


def test_a_void_hand_takes_no_more_actions():
    hand_ = Hand(resolve("pagat"), ["Ann", "Ben", "Cy"], "Ann")
    void_hand(hand_)
    assert not hand_.is_complete and hand_.legal_actions() == [] and hand_.verbs() == {}
    with pytest.raises(RuleViolation) as err:
        hand_.apply("Ben: draw")
    assert err.value.code == "hand_over"


def test_hand_stake_holds_for_that_hand_only_times_its_multiplier():
    out = result(session(H1, hand(H2, stake="0.50"), hand(H3, stake=1, stake_multiplier=3), H4))
    plain = result(session(H1, H2, H3, H4))
    assert out["hands"][0] == plain["hands"][0] and out["hands"][3] == plain["hands"][3]
    assert out["hands"][1]["net"] == {"Ann": "-1.00", "Ben": "-1.00", "Cy": "2.00"}
    assert out["hands"][2]["net"] == {"Ann": "6.00", "Ben": "-3.00", "Cy": "-3.00"}


def test_one_quantum_for_the_session_from_every_hand_stake():
    out = result(session(H1, hand(H2, stake="0.125")))
    assert out["hands"][0]["net"]["Ann"] == "-0.250"
    assert out["totals"] == {"Ann": "-0.500", "Ben": "0.250", "Cy": "0.250"}


def test_accepted_and_disputes_change_no_result():
    doc = session(hand(H1, accepted=["Ben", "Ann"],
                       disputes=[{"action": 7, "by": "Cy", "note": "too quick"},
                                 {"action": None, "by": "Ann", "note": "deck not cut"}]), H2)
    assert result(doc) == result(session(H1, H2))


def test_accepted_on_a_declared_deal_win():
    doc = json.loads((SAMPLES / "pagat_deal_wins.json").read_text())
    doc["hands"][0]["accepted"] = [doc["hands"][0]["dealer"]]
    assert result(doc)["hands"][0]["outcome"] in ("deal_win", "thrown_in")


def test_balances_are_brought_forward_plus_totals_plus_paid_less_received():
    doc = session(H1, H2, H3, H4, brought_forward={"Ann": "-3.50", "Cy": "3.50"},
                  payments=[{"from": "Ben", "to": "Ann", "amount": "0.75", "note": "cash"}])
    out = result(doc)
    # totals: Ann 0.75, Ben -1.00, Cy 0.25
    assert out["balances"] == {"Ann": "-3.50", "Ben": "-0.25", "Cy": "3.75"}
    assert out["transfers"] == [{"from": "Ann", "to": "Cy", "amount": "3.50"},
                                {"from": "Ben", "to": "Cy", "amount": "0.25"}]


def test_a_loser_who_pays_what_they_lost_stands_at_zero():
    doc = session(H1, H2, H3, H4, payments=[{"from": "Ben", "to": "Ann", "amount": "0.75"},
                                            {"from": "Ben", "to": "Cy", "amount": "0.25"}])
    out = result(doc)
    assert out["balances"] == {"Ann": "0.00", "Ben": "0.00", "Cy": "0.00"}
    assert out["transfers"] == []


def test_balances_present_with_empty_fields_and_finer_when_an_amount_needs_it():
    assert result(session(H1, payments=[]))["balances"] == result(session(H1))["totals"]
    out = result(session(H1, brought_forward={"Ann": "0.005", "Cy": "-0.005"}))
    assert out["totals"]["Ann"] == "-0.25"
    assert out["balances"] == {"Ann": "-0.245", "Ben": "0.500", "Cy": "-0.255"}


def test_balances_list_players_who_joined_in_seat_order_of_first_appearance():
    doc = json.loads((SAMPLES / "opt_player_joins.json").read_text())
    joined = [q for h in doc["hands"] for q in h.get("players", []) if q not in doc["players"]]
    doc["payments"] = [{"from": joined[0], "to": doc["players"][0], "amount": "1"}]
    out = result(doc)
    assert list(out["balances"]) == list(out["totals"])
    assert joined[0] in out["balances"]


def test_round_trip_of_every_field():
    doc = session(
        hand(H1, stake="0.50", accepted=["Ann"],
             disputes=[{"action": None, "by": "Cy", "note": "n"}]),
        hand(H2, 2, void="misdeal"),
        language="pt", started="2026-11-21T20:00:00Z", closed="2026-11-21T23:00:00Z",
        brought_forward={"Ann": "1", "Ben": -1},
        payments=[{"from": "Ann", "to": "Ben", "amount": 2, "at": "2026-11-21T22:00:00-03:00",
                   "note": "cash"}])
    assert dump_log(load_log(doc)) == doc
    assert parse_log_text(write_log(load_log(doc))) == load_log(doc)
    assert _plain_log(doc) == LOG.load(doc)


# The fast path and the schema read every variant of the event fields alike.
EVENT_VALUES = {
    "language": ["en", "pt", "es", "", None, 1],
    "started": ["2026-11-21T20:00:00Z", "2026-11-21T20:00:00", "2026-11-21", "x", 5],
    "closed": ["2026-11-21T20:00:00+05:30", "2026-11-21 20:00:00Z", None],
    "brought_forward": [{}, {"Ann": "1", "Ben": "-1"}, {"Ann": "x"}, {"Ann": True}, [], "1"],
    "payments": [[], [{"from": "Ann", "to": "Ben", "amount": "1"}],
                 [{"from": "Ann", "to": "Ben"}], [{"from": "Ann", "to": 3, "amount": "1"}],
                 [{"from": "Ann", "to": "Ben", "amount": "1", "at": "noon"}],
                 [{"from": "Ann", "to": "Ben", "amount": "1", "note": ""}],
                 [{"from": "Ann", "to": "Ben", "amount": "1", "x": 1}], {}, [3]],
}
HAND_VALUES = {
    "stake": ["0.5", 2, 0, -1, "x", True, None],
    "void": ["misdeal", "", "x" * 200, "x" * 201, 3],
    "accepted": [[], ["Ann"], [3], "Ann"],
    "disputes": [[], [{"action": 1, "by": "Ann", "note": "n"}],
                 [{"action": None, "by": "Ann", "note": "n"}],
                 [{"action": "1", "by": "Ann", "note": "n"}],
                 [{"action": True, "by": "Ann", "note": "n"}],
                 [{"action": 1, "by": "Ann"}], [{"action": 1, "by": "Ann", "note": "n", "x": 1}],
                 [{"action": 1, "by": "Ann", "note": "n" * 501}], {}],
}


def _variants():
    for key, values in EVENT_VALUES.items():
        for value in values:
            yield session(H1, **{key: value})
    for key, values in HAND_VALUES.items():
        for value in values:
            yield session(H1, hand(H2, **{key: value}))


@pytest.mark.parametrize("doc", list(_variants()), ids=lambda d: json.dumps(d)[-60:])
def test_fast_path_reads_event_fields_as_the_schema(doc):
    plain = _plain_log(doc)
    errors = LOG.validate(doc)
    if plain is None:
        assert errors, "the fast path refused a log the schema reads"
        with pytest.raises(MalformedInput) as err:
            load_log(doc)
        assert err.value.code in ("malformed", "malformed_log")
    else:
        assert errors == {}
        assert plain == LOG.load(doc)


# ---------------------------------------------------------------- refusals


def test_void_after_end():
    err = error(session(H1, hand(H2, void="misdeal")))
    assert where(err) == ("void_after_end", 2, None, 1)


def test_void_after_end_with_shows_still_to_come():
    err = error(session(hand(H1, 9, void="Cy left")))
    assert where(err) == ("void_after_end", 1, None, 1)


def test_void_after_a_declared_deal_win():
    doc = json.loads((SAMPLES / "pagat_deal_wins.json").read_text())
    doc["hands"][0]["void"] = "misdeal"
    assert where(error(doc)) == ("void_after_end", 1, None, 1)


def test_a_faulty_action_is_reported_before_the_void():
    doc = session(hand(H1, actions=0, void="misdeal") | {"actions": ["Cy: draw"]}, H1)
    assert where(error(doc)) == ("out_of_turn", 1, 1, 1)


def test_void_hand_dealer_must_deal_again():
    err = error(session(hand(H1, 2, void="misdeal"), H2))
    assert where(err) == ("wrong_dealer", 2, None, 1)


def test_accept_in_play():
    assert where(error(session(H1, hand(H2, 4, accepted=["Ann"]), H3))) == (
        "accept_in_play", 2, None, 1)


def test_accept_with_shows_missing():
    assert where(error(session(hand(H1, 9, accepted=["Ben"])))) == ("accept_in_play", 1, None, 1)


def test_accept_a_void_hand():
    err = error(session(hand(H1, 2, void="misdeal", accepted=["Ann"]), H1))
    assert where(err) == ("accept_in_play", 1, None, 1)


def test_accept_not_seated():
    assert where(error(session(H1, hand(H2, accepted=["Ann", "Dee"])))) == (
        "accept_not_seated", 2, None, 1)


def test_accept_twice():
    assert where(error(session(hand(H1, accepted=["Ben", "Cy", "Ben"])))) == (
        "accept_twice", 1, None, 1)


@pytest.mark.parametrize("number", [0, -1, 10, 99])
def test_dispute_no_action(number):
    doc = session(H1, hand(H2, disputes=[{"action": number, "by": "Ann", "note": "n"}]))
    assert where(error(doc)) == ("dispute_no_action", 2, None, 1)


def test_dispute_not_seated_names_the_disputed_action():
    doc = session(H1, hand(H2, disputes=[{"action": 3, "by": "Dee", "note": "n"}]))
    err = error(doc)
    assert where(err) == ("dispute_not_seated", 2, 3, 1)
    assert "Ann: take Js" in err.message
    doc = session(H1, hand(H2, disputes=[{"action": None, "by": "Dee", "note": "n"}]))
    assert where(error(doc)) == ("dispute_not_seated", 2, None, 1)


def test_closed_in_play():
    err = error(session(H1, hand(H2, 4), closed="2026-11-21T23:00:00Z"))
    assert where(err) == ("closed_in_play", 2, None, 1)
    # Without `closed`, the same log is only unfinished.
    assert error(session(H1, hand(H2, 4))).code == "hand_unfinished"


def _malformed(doc: dict) -> tuple:
    with pytest.raises(MalformedInput) as err:
        load_log(doc)
    return where(err.value)


def test_payment_to_self():
    doc = session(H1, payments=[{"from": "Ben", "to": "Ben", "amount": "1"}])
    assert _malformed(doc) == ("payment_to_self", None, None, 2)


@pytest.mark.parametrize("amount", ["0", "-1", 0, -0.5, "lots", "NaN", "Infinity", True, [1]])
def test_payment_amount(amount):
    doc = session(H1, payments=[{"from": "Ann", "to": "Ben", "amount": amount}])
    assert _malformed(doc) == ("payment_amount", None, None, 2)


def test_unknown_player_in_payments_and_brought_forward():
    doc = session(H1, payments=[{"from": "Dee", "to": "Ben", "amount": "1"}])
    assert _malformed(doc) == ("unknown_player", None, None, 2)
    doc = session(H1, brought_forward={"Ann": "-1", "Zed": "1"})
    assert _malformed(doc) == ("unknown_player", None, None, 2)


def test_a_player_seated_only_by_a_hand_is_a_player_of_the_session():
    doc = json.loads((SAMPLES / "opt_player_joins.json").read_text())
    joined = [q for h in doc["hands"] for q in h.get("players", []) if q not in doc["players"]]
    doc["brought_forward"] = {joined[0]: "2", doc["players"][0]: "-2"}
    assert load_log(doc)["brought_forward"]


def test_brought_forward_sum():
    doc = session(H1, brought_forward={"Ann": "-3.50", "Ben": "3.00"})
    assert _malformed(doc) == ("brought_forward_sum", None, None, 2)


@pytest.mark.parametrize("top", [
    {"language": "es"}, {"started": "2026-11-21T20:00:00"}, {"closed": "tonight"},
    {"brought_forward": {"Ann": "x"}},
    {"payments": [{"from": "Ann", "to": "Ben", "amount": "1", "note": "n" * 501}]},
    {"payments": [{"from": "Ann", "to": "Ben", "amount": "1", "at": "22:00"}]},
])
def test_malformed_session_fields(top):
    assert _malformed(session(H1, **top)) == ("malformed", None, None, 2)


@pytest.mark.parametrize("extra", [
    {"void": ""}, {"void": "x" * 201}, {"stake": "0"}, {"stake": "-0.25"}, {"stake": "x"},
    {"disputes": [{"action": 1, "by": "Ann", "note": ""}]},
    {"disputes": [{"action": 1, "by": "Ann", "note": "n" * 501}]},
    {"accepted": "Ann"},
])
def test_malformed_hand_fields_name_the_hand(extra):
    assert _malformed(session(H1, hand(H2, **extra))) == ("malformed", 2, None, 2)


def test_unknown_fields_inside_events_stay_malformed_logs():
    doc = session(H1, payments=[{"from": "Ann", "to": "Ben", "amount": "1", "memo": "x"}])
    assert _malformed(doc) == ("malformed_log", None, None, 2)


# ---------------------------------------------------------------- the report


def test_readable_report_shows_the_events(tmp_path, capsys):
    doc = session(hand(H1, 5, void="card exposed in the deal"), H1, hand(H2, stake="0.50"),
                  started="2026-11-21T20:00:00Z", closed="2026-11-21T23:59:00Z",
                  brought_forward={"Ann": "-3.50", "Cy": "3.50"},
                  payments=[{"from": "Ann", "to": "Cy", "amount": "2", "note": "cash"}])
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    for words in ["void: card exposed in the deal", "stake 0.50", "Brought forward",
                  "Ann paid Cy 2.00", "cash", "Balances", "Still owed",
                  "Started 2026-11-21 20:00 UTC", "Closed 2026-11-21 23:59 UTC"]:
        assert words in text, (words, text)


def test_decimal_balances_sum_to_zero_exactly():
    doc = session(H1, H2, brought_forward={"Ann": "0.1", "Ben": "0.2", "Cy": "-0.3"})
    session_ = replay(load_log(doc))
    assert sum(session_.result().balances.values()) == Decimal(0)


def test_balances_keep_the_places_an_amount_is_written_with_in_points():
    doc = session(H1, brought_forward={"Ann": "-3.50", "Cy": "3.50"}, stake="1")
    del doc["currency"]
    out = result(doc)
    assert out["totals"] == {"Ann": "-1", "Ben": "2", "Cy": "-1"}
    assert out["balances"] == {"Ann": "-4.50", "Ben": "2.00", "Cy": "2.50"}


def test_the_fast_path_knows_every_event_field():
    from referee.record import events as log_events
    from referee.record import reading as log

    assert log._HAND_EVENTS == log_events.HAND_FIELDS == tuple(log_events.HAND_CHECKS)
    assert log._SESSION_EVENTS == log_events.SESSION_FIELDS == tuple(log_events.SESSION_CHECKS)
