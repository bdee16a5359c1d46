"""Each standard ending and its payments (preset pagat, stake 1 point)."""

from decimal import Decimal

from referee.ledger.results import settle_hand
from referee.rules.cards import RANKS, SUITS
from referee.rules.hand import Hand
from referee.rules.options import resolve

from .helpers import error_of, hand_result, one_hand_log, result_of

DEAL = {
    "Ann": ["2c", "3d", "As", "Ah", "4s"],  # 11
    "Ben": ["Ks", "Kh", "Kd", "5s", "5h"],  # 40
    "Cy": ["Jh", "Js", "9c", "9d", "7h"],  # 45
}
LOW_ANN = {**DEAL, "Ann": ["2c", "3d", "As", "Ah", "2s"]}  # 9
BEN_TO_10 = ["Ben: draw 6c", "Ben: spread Ks Kh Kd", "Ben: discard 6c",
             "Cy: draw 8h", "Cy: discard Jh"]


def test_drop_won_pays_one_from_each():
    h = hand_result(BEN_TO_10 + ["Ann: drop", "Ann: show 2c 3d As Ah 2s", "Ben: show 5s 5h",
                                 "Cy: show Js 9c 9d 7h 8h"], deal=LOW_ANN)
    assert h["outcome"] == "drop_won"
    assert h["winners"] == ["Ann"]
    assert h["counts"] == {"Ann": 9, "Ben": 10, "Cy": 43}
    assert h["net"] == {"Ann": "2", "Ben": "-1", "Cy": "-1"}


def test_caught_dropper_pays_double_and_lowest_collects():
    h = hand_result(BEN_TO_10 + ["Ann: drop", "Ann: show 2c 3d As Ah 4s", "Ben: show 5s 5h",
                                 "Cy: show Js 9c 9d 7h 8h"], deal=DEAL)
    assert h["outcome"] == "caught"
    assert h["net"] == {"Ann": "-3", "Ben": "4", "Cy": "-1"}


def test_caught_on_a_tie_goes_against_the_dropper():
    deal = {**DEAL, "Ann": ["2c", "3d", "As", "Ah", "3s"]}  # 10, Ben will hold 10
    h = hand_result(BEN_TO_10 + ["Ann: drop", "Ann: show 2c 3d As Ah 3s", "Ben: show 5s 5h",
                                 "Cy: show Js 9c 9d 7h 8h"], deal=deal)
    assert h["outcome"] == "caught"
    assert h["net"] == {"Ann": "-3", "Ben": "4", "Cy": "-1"}


def test_caught_with_two_lowest_tied():
    # Ann drops with 12; Ben and Cy both hold 10: each is paid 2 by Ann, and
    # each collects 1 from every player not among the lowest (only Ann).
    deal = {"Ann": ["2c", "3d", "As", "Ah", "5c"],
            "Ben": ["Ks", "Kh", "Kd", "5s", "5h"],
            "Cy": ["Qs", "Qh", "Qd", "4h", "6d"]}
    actions = ["Ben: draw 6c", "Ben: spread Ks Kh Kd", "Ben: discard 6c",
               "Cy: draw 8h", "Cy: spread Qs Qh Qd", "Cy: discard 8h",
               "Ann: drop", "Ann: show 2c 3d As Ah 5c", "Ben: show 5s 5h", "Cy: show 4h 6d"]
    h = hand_result(actions, deal=deal)
    assert h["outcome"] == "caught"
    assert h["winners"] == ["Ben", "Cy"]
    assert h["net"] == {"Ann": "-6", "Ben": "3", "Cy": "3"}


def test_tonk_out_pays_two_from_each():
    h = hand_result(["Ben: draw 5d", "Ben: spread Ks Kh Kd", "Ben: spread 5s 5h 5d"], deal=DEAL)
    assert h["outcome"] == "tonk_out"
    assert h["winners"] == ["Ben"]
    assert h["net"] == {"Ann": "-2", "Ben": "4", "Cy": "-2"}
    assert h["counts"] == {"Ann": 11, "Ben": 0, "Cy": 45}


def test_out_by_discard_pays_one_from_each():
    deal = {**DEAL, "Ben": ["6s", "7s", "8s", "9s", "9h"]}
    h = hand_result(["Ben: draw Ts", "Ben: spread 6s 7s 8s 9s Ts", "Ben: discard 9h"], deal=deal)
    assert h["outcome"] == "out"
    assert h["net"] == {"Ann": "-1", "Ben": "2", "Cy": "-1"}


def test_deal_win_pays_two_from_each():
    deal = {**DEAL, "Ben": ["Ks", "Kh", "Kd", "Qs", "9h"]}
    h = hand_result(["Ben: declare Ks Kh Kd Qs 9h"], deal=deal)
    assert h["outcome"] == "deal_win"
    assert h["winners"] == ["Ben"]
    assert h["net"] == {"Ann": "-2", "Ben": "4", "Cy": "-2"}


def test_two_deal_wins_throw_the_hand_in():
    deal = {**DEAL, "Ben": ["Ks", "Kh", "Kd", "Qs", "9h"], "Cy": ["Qh", "Qd", "Jc", "Jd", "Tc"]}
    h = hand_result(["Cy: declare Qh Qd Jc Jd Tc", "Ben: declare Ks Kh Kd Qs 9h"], deal=deal)
    assert h["outcome"] == "thrown_in"
    assert h["winners"] == []
    assert set(h["net"].values()) == {"0"}


def stock_out_actions(deal, upcard, order, last_counts_cards):
    """Two-player hands that run the stock down: each turn draws an unknown
    card and discards a named one, then the next draw ends the play."""
    used = {c for cards in deal.values() for c in cards} | {upcard} | set(last_counts_cards)
    free = [r + s for r in RANKS for s in SUITS if r + s not in used]
    actions, turn = [], 0
    stock = 52 - 2 * 5 - 1
    for _ in range(stock):
        p = order[turn % 2]
        actions += [f"{p}: draw", f"{p}: discard {free.pop()}"]
        turn += 1
    actions.append(f"{order[turn % 2]}: draw")
    return actions, free


def test_stock_out_lowest_collects_and_ties_share():
    deal = {"Ann": ["??"] * 5, "Ben": ["??"] * 5}
    actions, _ = stock_out_actions(deal, "7d", ["Ben", "Ann"], ["2c", "3c", "4c", "5c", "6c",
                                                               "2d", "3d", "4d", "5d", "6d"])
    # The stock had 41 cards; 41 were drawn and discarded: every card is accounted for
    # except the ten each player ends with.
    log = one_hand_log(actions + ["Ann: show 2c 3c 4c 5c 6c", "Ben: show 2d 3d 4d 5d 6d"],
                       deal=deal, players=["Ann", "Ben"], dealer="Ann")
    h = result_of(log)["hands"][0]
    assert h["outcome"] == "stock_out"
    assert h["counts"] == {"Ann": 20, "Ben": 20}
    assert h["winners"] == []  # a tie shared between everyone: nobody is paid
    assert h["net"] == {"Ann": "0", "Ben": "0"}


def test_stock_out_single_lowest():
    deal = {"Ann": ["??"] * 5, "Ben": ["??"] * 5}
    ann, ben = ["2c", "3c", "4c", "5c", "6c"], ["2d", "3d", "4d", "5d", "7d"]
    actions, _ = stock_out_actions(deal, "Ks", ["Ben", "Ann"], ann + ben)
    log = one_hand_log(actions + [f"Ann: show {' '.join(ann)}", f"Ben: show {' '.join(ben)}"],
                       deal=deal, players=["Ann", "Ben"], dealer="Ann", upcard="Ks")
    h = result_of(log)["hands"][0]
    assert h["outcome"] == "stock_out"
    assert h["net"] == {"Ann": "1", "Ben": "-1"}


def test_money_is_exact_at_the_session_stake():
    log = one_hand_log(BEN_TO_10 + ["Ann: drop", "Ann: show 2c 3d As Ah 4s", "Ben: show 5s 5h",
                                    "Cy: show Js 9c 9d 7h 8h"], deal=DEAL, stake="0.10",
                       currency="USD")
    res = result_of(log)
    assert res["hands"][0]["net"] == {"Ann": "-0.30", "Ben": "0.40", "Cy": "-0.10"}
    assert res["transfers"] == [{"from": "Ann", "to": "Ben", "amount": "0.30"},
                                {"from": "Cy", "to": "Ben", "amount": "0.10"}]


def test_stake_multiplier_doubles_the_hand():
    log = one_hand_log(["Ben: draw 5d", "Ben: spread Ks Kh Kd", "Ben: spread 5s 5h 5d"],
                       deal=DEAL, extra={"stake_multiplier": 2})
    assert result_of(log)["hands"][0]["net"] == {"Ann": "-4", "Ben": "8", "Cy": "-4"}


def test_partly_logged_table_is_refereed_from_public_actions():
    deal = {"Ann": ["??"] * 5, "Ben": ["??"] * 5, "Cy": ["??"] * 5}
    actions = ["Ben: draw", "Ben: spread Ks Kh Kd", "Ben: discard 6c",
               "Cy: take", "Cy: discard Jh",
               "Ann: drop", "Ann: show 2c 3d As Ah 4s", "Ben: show 5s 5h",
               "Cy: show Js 9c 9d 7h 6c"]
    h = hand_result(actions, deal=deal)
    assert h["outcome"] == "caught"
    assert h["counts"] == {"Ann": 11, "Ben": 10, "Cy": 41}


def test_partly_logged_table_catches_a_card_seen_twice():
    deal = {"Ann": ["??"] * 5, "Ben": ["??"] * 5, "Cy": ["??"] * 5}
    err = error_of(one_hand_log(["Ben: draw", "Ben: discard 6c", "Cy: draw", "Cy: discard 6c"],
                                deal=deal))
    assert (err.code, err.hand, err.action) == ("duplicate_card", 1, 4)


def test_fractional_payments_are_written_exactly():
    log = one_hand_log(["Ben: draw 5d", "Ben: spread Ks Kh Kd", "Ben: spread 5s 5h 5d"],
                       deal=DEAL, stake="0.25", currency="USD",
                       rules={"preset": "pagat", "tonk_out_pays": 1.5})
    res = result_of(log)
    assert res["hands"][0]["net"] == {"Ann": "-0.375", "Ben": "0.750", "Cy": "-0.375"}
    assert res["transfers"] == [{"from": "Ann", "to": "Ben", "amount": "0.375"},
                                {"from": "Cy", "to": "Ben", "amount": "0.375"}]


def test_hands_shown_after_the_ending_are_settled_by_their_counts():
    """A partly logged push-up hand: the losers' hands are unknown when Ann
    tonks out and only shown afterwards; the ending takes their counts."""
    rules = resolve({"preset": "pagat", "scoring": "push_ups"})
    hand = Hand(rules, ("Ann", "Ben", "Cy"), "Cy")
    for text in ("Ann: draw 4c", "Ann: spread 4c 5c 6c", "Ann: spread 7h 7d 7s"):
        hand.apply(text)
    assert hand.ending.counts == {"Ann": 0, "Ben": None, "Cy": None}
    hand.apply("Ben: show Kd Qd Jd 2s 3s")
    hand.apply("Cy: show Ac 2c 3h 9d 8d")
    assert hand.ending.counts == hand.counts() == {"Ann": 0, "Ben": 35, "Cy": 23}
    result = settle_hand(hand, Decimal(1))
    assert result.counts == {"Ann": 0, "Ben": 35, "Cy": 23}
    assert result.net == {"Ann": 0, "Ben": 70, "Cy": 46}  # a double win: twice the counts
