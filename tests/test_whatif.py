"""What-if: the same actions settled under other rules, compared per player."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from referee.cli import main
from referee.reports.whatif import format_whatif, parse_rules, what_if
from referee.rules.errors import MalformedInput
from referee.rules.options import resolve
from tests.reports_fixtures import session_log

D = Decimal


def test_double_to_all_changes_only_the_caught_hand():
    # Hand 1 (Jürgen caught): pagat gives José -2, Jürgen -6, Zoë +4, Łukasz +4
    # stakes; double_to_all makes Jürgen pay 2 to each: +2, -6, +2, +2.
    w = what_if(session_log(), '{"caught": "double_to_all"}')
    assert w.error is None
    h1, h2 = w.hands
    assert h1.difference(list(h1.old.players)) == {
        "José": D("1.00"), "Jürgen": D("0.00"), "Zoë": D("-0.50"), "Łukasz": D("-0.50")}
    assert h1.new.net["José"] == D("0.50")
    assert not h2.changed
    assert w.total_difference() == {
        "José": D("1.00"), "Jürgen": D("0"), "Zoë": D("-0.50"), "Łukasz": D("-0.50")}
    assert w.totals("new") == {"José": D("0.25"), "Jürgen": D("-1.75"), "Zoë": D("1.25"),
                               "Łukasz": D("0.25")}
    doc = w.to_json()
    assert doc["totals"]["difference"] == {"José": "1.00", "Jürgen": "0.00",
                                           "Zoë": "-0.50", "Łukasz": "-0.50"}
    assert doc["rules"]["new"]["differences"] == {"caught": "double_to_all"}
    assert {"from": "Jürgen", "to": "Zoë", "amount": "1.25"} in doc["transfers"]["new"]


def test_one_hand_only():
    w = what_if(session_log(), {"caught": "pay_lowest", "caught_pays": "2n"}, hand=1)
    assert [h.number for h in w.hands] == [1]
    # pay_lowest 2n (n = 4): Jürgen pays 8 stakes to each of Zoë and Łukasz.
    assert w.hands[0].new.net == {"José": D("0"), "Jürgen": D("-4.00"), "Zoë": D("2.00"),
                                  "Łukasz": D("2.00")}
    assert w.total_difference()["Jürgen"] == D("-2.50")
    assert "transfers" not in w.to_json()


def test_a_log_illegal_under_the_other_rules_is_reported():
    w = what_if(session_log(), "baton_rouge")
    assert w.error is not None and w.error.code == "card_not_in_deck"
    assert "not in this 40-card deck" in w.error.message
    text = format_whatif(w)
    assert "not legal under these rules" in text and "card_not_in_deck" in text
    assert w.to_json()["error"]["code"] == "card_not_in_deck"


def test_options_change_on_top_of_the_sessions_rules_unless_a_preset_is_named():
    current = resolve({"preset": "pagat", "out_pays": 2})
    merged = resolve(parse_rules('{"caught": "double_to_all"}', current))
    assert merged.out_pays == 2 and merged.caught == "double_to_all"
    fresh = resolve(parse_rules('{"preset": "pagat", "caught": "double_to_all"}', current))
    assert fresh.out_pays == 1
    assert parse_rules("chicago", current) == "chicago"
    with pytest.raises(MalformedInput):
        parse_rules("{not json", current)


def test_same_rules_change_nothing():
    w = what_if(session_log(), "pagat")
    assert all(not h.changed for h in w.hands)
    assert set(w.total_difference().values()) == {D(0)}
    assert "(no change)" in format_whatif(w)


def test_push_up_scoring_is_flagged_as_other_units():
    w = what_if(session_log(), "push_ups")
    assert w.error is None
    assert "different units" in format_whatif(w)


def _log_file(tmp_path) -> str:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(session_log(), ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_cli_whatif(tmp_path, capsys):
    log = _log_file(tmp_path)
    assert main(["whatif", log, "--rules", '{"caught": "double_to_all"}', "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "tonk-whatif/1"
    assert doc["hands"][0]["difference"]["José"] == "1.00"
    assert main(["whatif", log, "--rules", "double_to_all_typo"]) == 2
    assert "unknown preset" in capsys.readouterr().err
    assert main(["whatif", log, "--rules", "baton_rouge", "--hand", "1"]) == 1
    assert "40-card deck" in capsys.readouterr().out
    assert main(["whatif", log, "--rules", "pagat", "--hand", "7"]) == 2


# ------------------------------------------------------------------ issue 36

SAMPLES = __import__("pathlib").Path(__file__).resolve().parents[1] / "sample_logs"


def _sample(name: str) -> dict:
    return json.loads((SAMPLES / f"{name}.json").read_text())


def test_lowest_wins_settles_a_catch_again_as_a_drop_won_by_the_lowest():
    # Cy drops with 13 and Ann has 11: under pagat Cy pays Ann 2 and Ann
    # collects 1 from Cy and Ben (+4); under lowest_wins Ann only collects 1 each.
    log = _sample("opt_caught_lowest_wins")
    log["rules"] = "pagat"
    w = what_if(log, '{"caught": "lowest_wins"}')
    assert w.error is None
    assert w.hands[0].old.net == {"Ann": D(4), "Ben": D(-1), "Cy": D(-3)}
    assert w.hands[0].new.net == {"Ann": D(2), "Ben": D(-1), "Cy": D(-1)}
    assert w.total_difference() == {"Ann": D(-2), "Ben": D(0), "Cy": D(2)}


def test_the_ace_changed_where_the_log_allows():
    # Played with Q-K-A: under ace low the spread is refused, and said so.
    w = what_if(_sample("opt_ace_low_or_high_queen_king_ace"), '{"ace": "low"}')
    assert w.error is not None and w.error.code == "invalid_spread"
    assert (w.error.hand, w.error.action) == (1, 2)
    # A game with the ace low only is the same game with it low or high.
    w = what_if(session_log(), '{"ace": "low_or_high"}')
    assert w.error is None and not any(h.changed for h in w.hands)


def test_a_match_or_winner_leads_asked_of_a_session_that_did_not_play_so():
    log = _sample("opt_match_to_not_over")
    w = what_if(log, '{"match_to": 20}')
    assert w.error is not None and w.error.code == "match_over" and w.error.hand == 2
    w = what_if(_sample("opt_dealer_rotation_winner_leads"), '{"dealer_rotation": "left"}')
    assert w.error is not None and w.error.code == "wrong_dealer"
