"""The rules other tables play (issue 36): ace low or high, two-deep pickup,
lowest wins a catch, nine cards, winner leads, a match to N; each option
and value as rules.md writes it, and each refusal."""

from __future__ import annotations

import copy
from decimal import Decimal

import pytest

from referee.ledger.results import settle_hand
from referee.rules.actions import Action
from referee.rules.errors import RefereeError
from referee.rules.hand import Hand
from referee.rules.options import resolve

from .helpers import error_of, result_of

BASE = {
    "Ann": ["2c", "3d", "Ac", "Ah", "4c"],
    "Ben": ["Ks", "Qs", "Kd", "5s", "5h"],
    "Cy": ["Jh", "Js", "9c", "9d", "7h"],
}
SEATS = ("Ann", "Ben", "Cy")


def hand(rules=None, deal=BASE, upcard="7d", players=SEATS, dealer="Ann", actions=()):
    h = Hand(resolve(rules or "pagat"), players, dealer, deal=deal, upcard=upcard)
    for a in actions:
        h.apply(a)
    return h


def refused(h, action):
    before = copy.deepcopy(h.snapshot())
    with pytest.raises(RefereeError) as info:
        h.apply(action)
    assert h.snapshot() == before  # a refusal changes nothing
    return info.value.code


HIGH = {"ace": "low_or_high"}

# ------------------------------------------------------------------ ace


def test_queen_king_ace_is_a_run_only_with_the_ace_high():
    actions = ["Ben: draw As"]
    assert refused(hand(actions=actions), "Ben: spread Qs Ks As") == "invalid_spread"
    h = hand(HIGH, actions=actions)
    h.apply("Ben: spread Qs Ks As")
    assert h.spreads[0].cards == ["Qs", "Ks", "As"]


def test_the_ace_is_never_at_both_ends():
    deal = {**BASE, "Ben": ["Ks", "Qs", "2s", "5c", "5h"]}
    h = hand(HIGH, deal=deal, actions=["Ben: draw As"])
    assert refused(h, "Ben: spread Ks As 2s") == "invalid_spread"
    assert refused(h, "Ben: spread Qs Ks As 2s") == "invalid_spread"
    h.apply("Ben: spread Qs Ks As")  # either end alone is a run


def test_an_ace_hits_a_jack_queen_king_run_only_with_the_ace_high():
    deal = {**BASE, "Ben": ["Jd", "Qd", "Kd", "5c", "5h"]}
    actions = ["Ben: draw 6c", "Ben: spread Jd Qd Kd", "Ben: discard 6c", "Cy: draw Ad"]
    assert refused(hand(deal=deal, actions=actions), "Cy: hit S1 Ad") == "illegal_hit"
    h = hand(HIGH, deal=deal, actions=actions)
    h.apply("Cy: hit S1 Ad")


def test_an_ace_two_three_run_takes_a_four_but_never_a_king():
    deal = {**BASE, "Ann": ["As", "2s", "3s", "Ah", "9h"], "Ben": ["4s", "Ks", "Kd", "5c", "5h"]}
    h = hand(HIGH, deal=deal, dealer="Cy",
             actions=["Ann: draw 6c", "Ann: spread As 2s 3s", "Ann: discard 6c",
                      "Ben: draw 7c"])
    assert refused(h, "Ben: hit S1 Ks") == "illegal_hit"  # K-A-2-3: both ends
    h.apply("Ben: hit S1 4s")
    assert h.count("Ann") == 1 + 9  # the ace still counts 1


def test_forty_card_deck_jack_queen_king_ace():
    deal = {"Ann": ["2c", "3d", "As", "Ah", "4s"], "Ben": ["Jh", "Qh", "Kh", "5c", "5h"],
            "Cy": ["Qc", "Qs", "Js", "6d", "7c"]}
    rules = {"deck": 40, **HIGH}
    h = hand(rules, deal=deal, upcard="5d", actions=["Ben: draw Ac"])
    assert refused(h, "Ben: spread Jh Qh Kh Ac") == "invalid_spread"  # one suit
    h = hand(rules, deal={**deal, "Ann": ["2c", "3d", "As", "Ac", "4s"]}, upcard="5d",
             actions=["Ben: draw Ah"])
    h.apply("Ben: spread Jh Qh Kh Ah")


def test_the_refusal_says_the_ace_is_low_or_high():
    err = error_of({"format": "tonk-log/1", "stake": 1, "rules": HIGH,
                    "players": list(SEATS), "hands": [{
                        "dealer": "Ann", "deal": BASE, "upcard": "7d",
                        "actions": ["Ben: draw As", "Ben: spread Ks As 5s"]}]})
    assert err.code == "invalid_spread" and "low or high" in err.message


# ------------------------------------------------------------------ pickup depth

TWO_DEEP = {"pickup_depth": 2}
# Ben discards 5h onto the upcard 7d: Cy may take the 5h, or the 7d under it.
PILE = ["Ben: draw 6c", "Ben: discard 5h"]


def test_the_second_card_of_the_pile_may_be_taken_and_the_top_stays():
    h = hand(TWO_DEEP, actions=PILE)
    h.apply("Cy: take 7d")
    assert h.held["Cy"][-1] == "7d" and h.pile == ["5h"]
    assert h.this_turn.taken == "7d"


def test_the_top_is_still_taken_as_ever():
    h = hand(TWO_DEEP, actions=PILE)
    h.apply("Cy: take")
    assert h.held["Cy"][-1] == "5h" and h.pile == ["7d"]
    h = hand(TWO_DEEP, actions=PILE)
    h.apply("Cy: take 5h")
    assert h.pile == ["7d"]


def test_without_two_deep_the_second_card_is_refused():
    assert refused(hand(actions=PILE), "Cy: take 7d") == "take_mismatch"


def test_a_card_that_is_neither_of_the_top_two_is_refused_naming_both():
    h = hand(TWO_DEEP, actions=PILE)
    with pytest.raises(RefereeError) as info:
        h.apply("Cy: take 9h")
    assert info.value.code == "take_mismatch"
    assert "5h" in info.value.message and "7d" in info.value.message


def test_one_card_in_the_pile_is_the_top():
    h = hand(TWO_DEEP)
    assert refused(h, "Ben: take 9h") == "take_mismatch"
    h.apply("Ben: take 7d")


def test_an_unknown_second_card_may_be_named():
    deal = {**BASE, "Ben": ["??"] * 5}
    h = hand(TWO_DEEP, deal=deal, upcard=None, actions=["Ben: draw", "Ben: discard 8c"])
    h.apply("Cy: take 6d")  # the upcard was not known: it was the 6d
    assert h.pile == ["8c"] and "6d" in h.held["Cy"]
    h = hand(TWO_DEEP, deal=deal, upcard=None, actions=["Ben: draw", "Ben: discard 8c"])
    assert refused(h, "Cy: take 9c") == "duplicate_card"  # Cy was dealt it


def test_take_must_meld_binds_the_second_card():
    rules = {**TWO_DEEP, "take_must_meld": True}
    deal = {**BASE, "Cy": ["7c", "7s", "9c", "9d", "Jh"]}
    h = hand(rules, deal=deal, actions=PILE + ["Cy: take 7d"])
    assert refused(h, "Cy: discard Jh") == "take_not_melded"
    h.apply("Cy: spread 7c 7s 7d")
    h.apply("Cy: discard Jh")


def test_the_second_card_is_offered_when_it_can_be_taken():
    h = hand(TWO_DEEP, actions=PILE)
    assert Action("Cy", "take", ("7d",)) in h.legal_actions()
    assert Action("Cy", "take") in h.legal_actions()
    assert not any(a.cards for a in hand(actions=PILE).legal_actions() if a.verb == "take")
    assert h.snapshot()["second"] == "7d"
    assert "second" not in hand(actions=PILE).snapshot()
    # Under take_must_meld only a card that could be used is offered.
    rules = {**TWO_DEEP, "take_must_meld": True}
    usable = hand(rules, deal={**BASE, "Cy": ["7c", "7s", "9c", "9d", "Jh"]}, actions=PILE)
    assert Action("Cy", "take", ("7d",)) in usable.legal_actions()
    assert Action("Cy", "take", ("7d",)) not in hand(rules, actions=PILE).legal_actions()


# ------------------------------------------------------------------ nine cards

def test_nine_cards_each_and_the_deck_decides_how_many_play():
    deal = {"Ann": ["2c", "3d", "As", "Ah", "4s", "5c", "6c", "7c", "8c"],
            "Ben": ["Ks", "Qs", "Kd", "5s", "5h", "6s", "6h", "7s", "8s"],
            "Cy": ["Jh", "Js", "9c", "9d", "7h", "Th", "Tc", "Td", "Ts"]}
    h = hand({"hand_size": 9}, deal=deal)
    assert h.card_count("Ann") == 9 and h.stock == 52 - 27 - 1
    assert resolve({"hand_size": 9}).max_players == 5
    assert resolve({"hand_size": 9, "upcard": False}).max_players == 5
    with pytest.raises(RefereeError) as info:
        hand({"hand_size": 9}, deal=BASE)
    assert info.value.code == "bad_deal"
    log = {"format": "tonk-log/1", "stake": 1, "rules": {"hand_size": 9},
           "players": ["A", "B", "C", "D", "E", "F"], "hands": []}
    assert error_of(log).code == "too_many_players"


# ------------------------------------------------------------------ lowest wins

def test_a_caught_drop_pays_the_lowest_as_a_drop_won():
    actions = ["Ben: draw 2d", "Ben: discard Ks", "Cy: drop"]
    deal = {"Ann": ["2c", "3d", "As", "Ah", "4s"], "Ben": ["Ks", "Qs", "Kd", "5s", "5h"],
            "Cy": ["3h", "3s", "Ac", "2h", "4h"]}
    h = hand({"caught": "lowest_wins"}, deal=deal, actions=actions)
    h.apply("Cy: show 3h 3s Ac 2h 4h")
    h.apply("Ann: show 2c 3d As Ah 4s")
    h.apply("Ben: show Qs Kd 5s 5h 2d")
    s = settle_hand(h, Decimal(1))
    assert s.outcome == "caught" and s.winners == ["Ann"]
    assert s.net == {"Ann": 2, "Ben": -1, "Cy": -1}
    rules = resolve({"caught": "lowest_wins", "drop_pays": 2})
    h2 = Hand(rules, SEATS, "Ann", deal=deal, upcard="7d")
    for a in h.actions:
        h2.apply(a)
    assert settle_hand(h2, Decimal(1)).net == {"Ann": 4, "Ben": -2, "Cy": -2}


# ------------------------------------------------------------------ winner leads

def told(dealer, how, **ending):
    return {"dealer": dealer, "ending": {"how": how, **ending}}


def session(rules, *hands, players=SEATS):
    return {"format": "tonk-log/1", "stake": "1", "rules": rules, "players": list(players),
            "hands": list(hands)}


LEADS = {"dealer_rotation": "winner_leads"}


def test_the_winner_plays_first_so_the_seat_at_their_right_deals():
    first = told("Ann", "tonk_out", by="Cy")
    assert [h["dealer"] for h in result_of(session(
        LEADS, first, told("Ben", "out", by="Ann"), told("Cy", "out", by="Ann")))["hands"]] \
        == ["Ann", "Ben", "Cy"]
    err = error_of(session(LEADS, first, told("Cy", "out", by="Ann")))
    assert (err.code, err.hand, err.action) == ("wrong_dealer", 2, None)
    assert "Cy won hand 1" in err.message and "Ben deals" in err.message
    # Ann deals and wins: Cy, at her right, deals next (under left: Ben).
    own = told("Ann", "tonk_out", by="Ann")
    result_of(session(LEADS, own, told("Cy", "out", by="Ann")))
    assert error_of(session(LEADS, own, told("Ben", "out", by="Ann"))).code == "wrong_dealer"
    assert error_of(session("pagat", own, told("Cy", "out", by="Ann"))).code == "wrong_dealer"


def test_several_winners_the_one_nearest_the_last_dealers_left_leads():
    counts = {"Ann": 5, "Ben": 9, "Cy": 5}  # Ann and Cy share the stock out
    first = told("Ben", "stock_out", counts=counts)  # from Ben's left: Cy, then Ann
    result_of(session(LEADS, first, told("Ben", "out", by="Ann")))  # Cy leads: Ben deals
    assert error_of(session(LEADS, first, told("Cy", "out", by="Ann"))).code == "wrong_dealer"


def test_a_hand_with_no_winner_is_dealt_again_by_the_same_dealer():
    rules = {**LEADS, "stock_out": "dead"}
    first = told("Ben", "stock_out", counts={"Ann": 5, "Ben": 9, "Cy": 5})
    result_of(session(rules, first, told("Ben", "out", by="Ann")))
    err = error_of(session(rules, first, told("Cy", "out", by="Ann")))
    assert err.code == "wrong_dealer" and "no winner" in err.message
    void = {"dealer": "Ben", "actions": [], "void": "misdeal"}
    result_of(session(LEADS, void, told("Ben", "out", by="Ann")))


def test_a_winner_who_left_leads_nobody_and_the_deal_passes_left():
    four = ("Ann", "Ben", "Cy", "Dee")
    first = told("Ann", "tonk_out", by="Cy")
    gone = {**told("Ben", "out", by="Ann"), "players": ["Ann", "Ben", "Dee"]}
    result_of(session(LEADS, first, gone, players=four))
    stays = {**told("Ben", "out", by="Ann")}
    result_of(session(LEADS, first, stays, players=four))  # Cy leads: Ben at Cy's right


def test_the_first_hands_dealer_is_free():
    result_of(session(LEADS, told("Cy", "out", by="Ann")))


# ------------------------------------------------------------------ a match to N

MATCH = {"preset": "push_ups", "match_to": 30}
DROP_1 = told("Ann", "drop", by="Ben", counts={"Ann": 12, "Ben": 3, "Cy": 20})
DROP_2 = told("Ben", "drop", by="Cy", counts={"Ann": 9, "Ben": 7, "Cy": 2})


def test_the_result_says_where_the_match_stands():
    doc = result_of(session(MATCH, DROP_1))
    assert doc["match"] == {"to": 30, "scores": {"Ann": "12", "Ben": "0", "Cy": "20"},
                            "over": False, "after_hand": None, "winners": None}
    doc = result_of(session(MATCH, DROP_1, DROP_2))
    assert doc["match"] == {"to": 30, "scores": {"Ann": "21", "Ben": "7", "Cy": "20"},
                            "over": False, "after_hand": None, "winners": None}
    third = told("Cy", "drop", by="Ann", counts={"Ann": 1, "Ben": 30, "Cy": 5})
    doc = result_of(session(MATCH, DROP_1, DROP_2, third))
    assert doc["match"] == {"to": 30, "scores": {"Ann": "21", "Ben": "37", "Cy": "25"},
                            "over": True, "after_hand": 3, "winners": ["Ann"]}
    assert "match" not in result_of(session("push_ups", DROP_1))


def test_players_tied_for_lowest_share_the_match():
    rules = {"preset": "push_ups", "match_to": 21}
    doc = result_of(session(rules, DROP_1, told("Ben", "drop", by="Cy",
                                                  counts={"Ann": 9, "Ben": 20, "Cy": 2})))
    assert doc["match"]["over"] and doc["match"]["winners"] == ["Ben", "Cy"]
    assert doc["match"]["scores"] == {"Ann": "21", "Ben": "20", "Cy": "20"}


def test_a_hand_after_the_match_is_refused():
    rules = {"preset": "push_ups", "match_to": 20}
    for after in (DROP_2, {"dealer": "Ben", "actions": [], "void": "misdeal"},
                  {"dealer": "Ben", "actions": ["Cy: drop"]}):
        err = error_of(session(rules, DROP_1, after))
        assert (err.code, err.hand, err.action, err.exit_status) == ("match_over", 2, None, 1)
        assert "Ben" in err.message


def test_a_match_reached_exactly_is_over():
    doc = result_of(session({"preset": "push_ups", "match_to": 12}, DROP_1))
    assert doc["match"]["over"] and doc["match"]["after_hand"] == 1


def test_a_match_needs_push_ups():
    err = error_of(session({"preset": "pagat", "match_to": 100}, DROP_1))
    assert (err.code, err.exit_status, err.hand) == ("bad_option_value", 2, None)


def test_a_void_hand_does_not_end_a_match_and_is_dealt_again():
    rules = {"preset": "push_ups", "match_to": 25, **LEADS}
    void = {"dealer": "Ann", "actions": [], "void": "misdeal"}
    third = told("Ann", "drop", by="Cy", counts={"Ann": 14, "Ben": 7, "Cy": 2})
    # Ben won hand 1 (the drop): Ann at his right deals; a void hand is dealt again.
    doc = result_of(session(rules, DROP_1, void, third))
    assert doc["match"]["after_hand"] == 3 and doc["match"]["winners"] == ["Ben"]


# ------------------------------------------------------------------ off changes nothing

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from referee.devtools.simulate import random_session  # noqa: E402
from referee.replay import replay  # noqa: E402
from referee.rules.options import PRESETS  # noqa: E402

NEW_AT_DEFAULT = {"ace": "low", "pickup_depth": 1, "match_to": None}
GAMES = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _with(log, **options):
    doc = copy.deepcopy(log)
    rules = doc["rules"]
    doc["rules"] = {**({"preset": rules} if isinstance(rules, str) else rules), **options}
    return doc


def _played(log):
    session = replay(log)
    return session.result().to_json(), [h.snapshot() for h in session.table.hands]


@GAMES
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(sorted(PRESETS)))
def test_the_new_options_written_at_their_defaults_change_nothing(seed, preset):
    # No preset plays them: the defaults are the rules as they were.
    assert {k: resolve(preset).to_json()[k] for k in NEW_AT_DEFAULT} == NEW_AT_DEFAULT
    log = random_session(seed, rules=preset, hands=3)
    assert _played(_with(log, **NEW_AT_DEFAULT)) == _played(log)


@GAMES
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(sorted(PRESETS)))
def test_ace_high_and_two_deep_change_nothing_for_a_game_that_uses_neither(seed, preset):
    """Each only allows more: a game played without them replays under them
    to the same result, hand for hand (the snapshot names the second card)."""
    log = random_session(seed, rules=preset, hands=3)
    result, hands = _played(log)
    wider, wider_hands = _played(_with(log, ace="low_or_high", pickup_depth=2))
    assert wider == result
    assert [{k: v for k, v in h.items() if k != "second"} for h in wider_hands] == hands
