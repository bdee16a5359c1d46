"""One test (at least) for every house-rule option of rules.md."""

from decimal import Decimal

import pytest

from referee.ledger.payments import settle_ending
from referee.ledger.results import settle_hand
from referee.rules.actions import Action
from referee.rules.catches import CATCH_SCHEMES
from referee.rules.ending import DROP, STOCK_OUT, Ending
from referee.rules.errors import RefereeError, RulesError
from referee.rules.hand import EXTRA_DISCARD, OVER, START, Hand
from referee.rules.options import OPTION_ALLOWED, OPTION_NAMES, PRESETS, VALUE_WORDS, resolve

from .helpers import error_of, result_of

BASE = {
    "Ann": ["2c", "3d", "As", "Ah", "4s"],  # 11
    "Ben": ["Ks", "Kh", "Kd", "5s", "5h"],  # 40
    "Cy": ["Jh", "Js", "9c", "9d", "7h"],  # 45
}
SEATS = ("Ann", "Ben", "Cy")


def hand(rules=None, deal=BASE, upcard="7d", players=SEATS, dealer="Ann", actions=()):
    house = resolve(rules if isinstance(rules, (str, dict)) else {"preset": "pagat"})
    h = Hand(house, players, dealer, deal=deal, upcard=upcard if house.upcard else None)
    for a in actions:
        h.apply(a)
    return h


def refused(h, action):
    with pytest.raises(RefereeError) as info:
        h.apply(action)
    return info.value.code


def nets(h, stake="1"):
    return {q: format(v.normalize(), "f") for q, v in settle_hand(h, Decimal(stake)).net.items()}


# ------------------------------------------------------------------ deck and deal

DEAL_40 = {"Ann": ["2c", "3d", "As", "Ah", "4s"], "Ben": ["6h", "7h", "Jh", "Kd", "5h"],
           "Cy": ["Qc", "Qs", "Js", "6d", "7c"]}


def test_deck_40_has_no_eights_nines_tens_and_seven_meets_jack():
    h = hand({"deck": 40}, deal=DEAL_40, upcard="5d")
    assert h.stock == 40 - 15 - 1
    assert refused(h, "Ben: draw 9s") == "card_not_in_deck"
    h.apply("Ben: draw Qh")
    h.apply("Ben: spread 6h 7h Jh Qh")  # 7 next to J
    assert refused(hand(deal=DEAL_40, upcard="5d", actions=["Ben: draw Qh"]),
                   "Ben: spread 6h 7h Jh Qh") == "invalid_spread"


def test_jokers_added_dead_by_default_counting_zero():
    deal = {**BASE, "Ben": ["Ks", "Kh", "Kd", "X1", "5h"]}
    h = hand({"jokers": 2}, deal=deal)
    assert h.count("Ben") == 35
    assert h.stock == 54 - 15 - 1
    h.apply("Ben: draw 6h")
    assert refused(h, "Ben: spread 5h 6h X1") == "invalid_spread"
    assert refused(hand({"jokers": 2}, deal=BASE), "Ben: draw X3") == "card_not_in_deck"


def test_jokers_wild_complete_a_run():
    deal = {**BASE, "Ben": ["Ks", "Kh", "Kd", "X1", "5h"]}
    h = hand({"jokers": 2, "jokers_wild": True}, deal=deal, actions=["Ben: draw 6h"])
    h.apply("Ben: spread 5h 6h X1")
    assert refused(h, "Ben: spread Ks Kh X2") in ("card_not_in_hand",)


def test_deuces_wild_complete_a_book_and_count_face_value():
    deal = {**BASE, "Ben": ["Ks", "Kh", "Qd", "5s", "2h"]}
    h = hand({"deuces_wild": True}, deal=deal, actions=["Ben: draw 6c"])
    assert h.count("Ben") == 10 + 10 + 10 + 5 + 2 + 6
    h.apply("Ben: spread Ks Kh 2h")
    assert refused(hand(deal=deal, actions=["Ben: draw 6c"]), "Ben: spread Ks Kh 2h") == \
        "invalid_spread"


def test_court_values_11_12_13_count_and_forbid_total_claims():
    deal = {**BASE, "Ben": ["Ks", "Qh", "9h", "9s", "7c"]}  # 13+12+9+9+7 = 50
    h = hand({"court_values": "11-12-13"}, deal=deal)
    assert h.count("Ben") == 50
    assert refused(h, "Ben: declare Ks Qh 9h 9s 7c") == "false_declaration"
    assert hand(deal=deal).count("Ben") == 45


def test_hand_size_7():
    deal = {"Ann": ["2c", "3d", "As", "Ah", "4s", "4c", "4d"],
            "Ben": ["Ks", "Kh", "Kd", "5s", "5h", "6s", "6h"],
            "Cy": ["Jh", "Js", "9c", "9d", "7h", "8h", "8s"]}
    h = hand({"hand_size": 7}, deal=deal)
    assert h.card_count("Ann") == 7 and h.stock == 52 - 21 - 1
    with pytest.raises(RefereeError) as info:
        hand({"hand_size": 7}, deal=BASE)
    assert info.value.code == "bad_deal"


def test_no_upcard_first_player_must_draw():
    h = hand({"upcard": False})
    assert h.top is None and h.stock == 52 - 15
    assert refused(h, "Ben: take") == "empty_discard_pile"
    with pytest.raises(RefereeError) as info:
        Hand(resolve({"upcard": False}), SEATS, "Ann", deal=BASE, upcard="7d")
    assert info.value.code == "bad_upcard"


def two_hands(rules, second_dealer):
    first = {"dealer": "Ann", "deal": BASE, "upcard": "7d",
             "actions": ["Ben: draw 5d", "Ben: spread Ks Kh Kd", "Ben: spread 5s 5h 5d"]}
    return {"format": "tonk-log/1", "stake": "1", "rules": rules, "players": list(SEATS),
            "hands": [first, {"dealer": second_dealer, "actions": ["Ann: drop" if
                                                                   second_dealer == "Cy" else
                                                                   "Cy: drop"]}]}


def test_dealer_rotation_left_and_free():
    assert error_of(two_hands("pagat", "Cy")).code == "wrong_dealer"
    log = two_hands({"preset": "pagat", "dealer_rotation": "free"}, "Cy")
    log["hands"][1]["actions"] += ["Ann: show", "Ben: show", "Cy: show"]
    err = error_of(log)  # the shows are empty: proves the hand was accepted and played
    assert err.code == "wrong_show"


# ------------------------------------------------------------------ spreads and the turn

KING_BOOK = ["Ben: draw 6c", "Ben: spread Ks Kh Kd", "Ben: discard 6c", "Cy: draw Kc"]


def test_book_extendable():
    h = hand(actions=KING_BOOK)
    h.apply("Cy: hit S1 Kc")
    h = hand({"book_extendable": False}, actions=KING_BOOK)
    assert refused(h, "Cy: hit S1 Kc") == "illegal_hit"


RUN_DEAL = {"Ann": ["2c", "3d", "Ac", "Ah", "4h"], "Ben": ["3s", "4s", "5s", "6s", "7s"],
            "Cy": ["Jh", "Js", "9c", "9d", "7h"]}
BY_HITS = ["Ben: draw Kh", "Ben: spread 3s 4s 5s", "Ben: discard Kh", "Cy: draw 8c",
           "Cy: discard 8c", "Ann: draw 8d", "Ann: discard 8d", "Ben: draw 2s",
           "Ben: hit S1 6s", "Ben: hit S1 7s", "Ben: hit S1 2s"]


def test_max_hits_per_turn():
    h = hand({"max_hits_per_turn": 1}, deal=RUN_DEAL, actions=BY_HITS[:9])
    assert refused(h, "Ben: hit S1 7s") == "hit_limit"


def test_hit_replaces_discard():
    h = hand({"hit_replaces_discard": True}, deal=RUN_DEAL, actions=BY_HITS[:9])
    assert h.to_act == "Cy" and h.phase == START
    assert refused(h, "Ben: hit S1 7s") == "out_of_turn"
    h.apply("Cy: draw 8s")


def test_take_must_meld():
    h = hand({"take_must_meld": True}, actions=["Ben: take"])
    assert refused(h, "Ben: discard 5s") == "take_not_melded"
    assert refused(h, "Ben: discard 7d") == "take_not_melded"
    deal = {**BASE, "Ben": ["Ks", "Kh", "Kd", "7s", "7c"]}
    h = hand({"take_must_meld": True}, deal=deal, actions=["Ben: take", "Ben: spread 7s 7c 7d"])
    h.apply("Ben: discard Ks")


ACES = {**BASE, "Ann": ["2c", "3d", "4c", "5d", "4s"], "Ben": ["As", "Ad", "Ac", "5s", "5h"]}


def test_must_spread_always_and_except_aces():
    h = hand({"must_spread": "always"}, actions=["Ben: draw 6c"])
    assert refused(h, "Ben: discard 6c") == "held_spread"
    h = hand({"must_spread": "always"}, deal=ACES, actions=["Ben: draw 6c"])
    assert refused(h, "Ben: discard 6c") == "held_spread"
    h = hand({"must_spread": "except_aces"}, deal=ACES, actions=["Ben: draw 6c"])
    h.apply("Ben: discard 6c")
    h = hand({"must_spread": "except_aces"}, actions=["Ben: draw 6c"])
    assert refused(h, "Ben: discard 6c") == "held_spread"


SLAP = ["Ben: draw 6c", "Ben: spread Ks Kh Kd", "Ben: discard 6c", "Cy: draw Kc",
        "Cy: discard Kc"]


def test_slapping_by_another_player_earns_an_extra_discard():
    assert refused(hand(actions=SLAP), "Ben: slap S1") == "slap_not_allowed"
    h = hand({"slapping": "on"}, actions=SLAP)
    h.apply("Ben: slap S1")
    assert h.spreads[0].cards[-1] == "Kc"
    assert h.phase == EXTRA_DISCARD and h.to_act == "Ben"
    assert refused(h, "Ann: draw 8c") == "out_of_turn"
    h.apply("Ben: discard 5s")
    assert h.to_act == "Ann" and h.phase == START and h.card_count("Ben") == 1


def test_slapping_own_discard_no_extra_discard_and_too_late_after_draw():
    h = hand({"slapping": "on"}, actions=SLAP)
    h.apply("Cy: slap S1")
    assert h.to_act == "Ann" and h.phase == START
    h = hand({"slapping": "on"}, actions=SLAP + ["Ann: draw 8c"])
    assert refused(h, "Ben: slap S1") == "slap_too_late"
    h = hand({"slapping": "on"}, actions=SLAP[:3] + ["Cy: draw 8c", "Cy: discard 8c"])
    assert refused(h, "Ann: slap S1") == "illegal_slap"


def test_slapping_next_player_and_priority():
    h = hand({"slapping": "on"}, actions=SLAP)
    h.apply("Ann: slap S1")
    assert h.phase == EXTRA_DISCARD and h.to_act == "Ann"
    h.apply("Ann: discard 2c")
    assert h.to_act == "Ann" and h.phase == START
    h.apply("Ann: draw 8c")
    h = hand({"slapping": "next_player_priority"}, actions=SLAP)
    h.apply("Ann: slap S1")
    assert h.phase == START and h.to_act == "Ann"


# ------------------------------------------------------------------ waiting

FILLER = ["8c", "8d", "8h", "8s", "Tc", "Td", "Th", "Ts", "Qc", "Qd", "Qh", "Qs", "6d", "6h"]


def rounds(n, players=("Cy", "Ann", "Ben"), cards=None):
    cards = list(cards or FILLER)
    out = []
    for i in range(n):
        p = players[i % len(players)]
        c = cards.pop(0)
        out += [f"{p}: draw {c}", f"{p}: discard {c}"]
    return out


def test_spread_wait():
    fresh = iter(FILLER)

    def turn(p):
        card = next(fresh)
        return [f"{p}: draw {card}", f"{p}: discard {card}"]

    h = hand({"spread_wait": 3}, actions=["Ben: draw 6c", "Ben: spread Ks Kh Kd",
                                          "Ben: discard 6c"])
    assert h.waiting("Ben") == 3
    # The next three of Ben's turns start without the right to drop; the fourth may.
    for _ in range(3):
        for a in turn("Cy") + turn("Ann"):
            h.apply(a)
        assert refused(h, "Ben: drop") == "drop_while_waiting"
        for a in turn("Ben"):
            h.apply(a)
    for a in turn("Cy") + turn("Ann"):
        h.apply(a)
    assert h.waiting("Ben") == 0
    h.apply("Ben: drop")


def test_hit_wait_and_self_hit_wait():
    h = hand({"hit_wait": 1}, actions=KING_BOOK + ["Cy: hit S1 Kc", "Cy: discard Jh",
                                                   "Ann: draw 8c", "Ann: discard 8c"])
    assert h.waiting("Ben") == 1
    assert refused(h, "Ben: drop") == "drop_while_waiting"
    h = hand({"self_hit_wait": 1}, actions=["Ben: draw Kc", "Ben: spread Ks Kh Kd",
                                            "Ben: hit S1 Kc", "Ben: discard 5s"])
    assert h.waiting("Ben") == 1
    h = hand(actions=["Ben: draw Kc", "Ben: spread Ks Kh Kd", "Ben: hit S1 Kc",
                      "Ben: discard 5s"])
    assert h.waiting("Ben") == 0


RUN_FOR_TWO_HITS = {"Ann": ["2c", "3d", "As", "Ah", "4c"], "Ben": ["5s", "6s", "7s", "Kd", "Kh"],
                    "Cy": ["Jh", "Js", "9c", "9d", "8s"]}
TWO_HITS = ["Ben: draw 2h", "Ben: spread 5s 6s 7s", "Ben: discard 2h", "Cy: draw 4s",
            "Cy: hit S1 8s", "Cy: hit S1 4s", "Cy: discard Jh"]


def test_hit_wait_once_per_round():
    h = hand({"hit_wait": 1}, deal=RUN_FOR_TWO_HITS, actions=TWO_HITS)
    assert h.waiting("Ben") == 2
    h = hand({"hit_wait": 1, "hit_wait_once_per_round": True}, deal=RUN_FOR_TWO_HITS,
             actions=TWO_HITS)
    assert h.waiting("Ben") == 1


def test_hit_blocks_going_out():
    deal = {**RUN_FOR_TWO_HITS, "Ben": ["5s", "6s", "7s", "Kd", "Kh"]}
    actions = ["Ben: draw 2h", "Ben: spread 5s 6s 7s", "Ben: discard 2h", "Cy: draw 3h",
               "Cy: hit S1 8s", "Cy: discard 3h", "Ann: draw 8h", "Ann: discard 8h",
               "Ben: draw Kc"]
    h = hand({"hit_blocks_going_out": True}, deal=deal, actions=actions)
    assert refused(h, "Ben: spread Kd Kh Kc") == "going_out_blocked"
    h = hand(deal=deal, actions=actions)
    h.apply("Ben: spread Kd Kh Kc")
    assert h.ending.kind == "tonk_out"


# ------------------------------------------------------------------ deal wins

LOW = {**BASE, "Ben": ["Ks", "Kh", "Kd", "Qs", "Qh"]}  # Ann 11, Ben 50


def test_deal_wins_low_claim_and_what_it_pays():
    h = hand({"deal_wins": [{"when": "low:13", "pays": 3}]},
             actions=["Ann: declare 2c 3d As Ah 4s"])
    assert nets(h) == {"Ann": "6", "Ben": "-3", "Cy": "-3"}
    h = hand({"deal_wins": []})
    assert refused(h, "Ann: declare 2c 3d As Ah 4s") == "false_declaration"


def test_deal_wins_five_faces():
    deal = {**BASE, "Ben": ["Ks", "Kh", "Qd", "Qs", "Jc"]}
    h = hand("rushville", deal=deal, actions=["Ben: declare Ks Kh Qd Qs Jc"])
    assert nets(h) == {"Ann": "-2", "Ben": "4", "Cy": "-2"}


def test_deal_win_conflict_void_all_paid_best():
    both = ["Ann: declare 2c 3d As Ah 4s", "Ben: declare Ks Kh Kd Qs Qh"]
    claims = [{"when": "total:50", "pays": 2}, {"when": "low:13", "pays": 2}]
    h = hand({"deal_wins": claims}, deal=LOW, actions=both)
    assert h.ending.kind == "thrown_in" and set(nets(h).values()) == {"0"}
    h = hand({"deal_wins": claims, "deal_win_conflict": "all_paid"}, deal=LOW, actions=both)
    assert nets(h) == {"Ann": "2", "Ben": "2", "Cy": "-4"}
    h = hand({"deal_wins": claims, "deal_win_conflict": "best"}, deal=LOW, actions=both)
    assert nets(h) == {"Ann": "-2", "Ben": "4", "Cy": "-2"}
    h = hand("dc", deal=LOW, actions=both)  # low:11 is listed first there: it beats 50
    assert nets(h) == {"Ann": "4", "Ben": "-2", "Cy": "-2"}


def test_deal_win_tie_nearest_left_of_dealer():
    deal = {**BASE, "Ben": ["Ks", "Kh", "Kd", "Qs", "9h"], "Cy": ["Qh", "Qd", "Jc", "Jd", "9s"]}
    both = ["Cy: declare Qh Qd Jc Jd 9s", "Ben: declare Ks Kh Kd Qs 9h"]
    h = hand({"deal_win_conflict": "best"}, deal=deal, actions=both)
    assert h.ending.kind == "thrown_in"
    h = hand("newark", deal=deal, actions=both)
    assert nets(h) == {"Ann": "-2", "Ben": "4", "Cy": "-2"}


def test_deal_win_declare_must_or_may():
    deal = {**BASE, "Ben": ["Ks", "Kh", "Kd", "Qs", "9h"]}
    assert refused(hand(deal=deal), "Ben: draw 6c") == "undeclared_deal_win"
    hand({"deal_win_declare": "may"}, deal=deal).apply("Ben: draw 6c")


def test_first_turn_claim_chicago():
    deal = {"Ann": ["3c", "3d", "4c", "Ah", "4s"], "Ben": ["Ks", "Kh", "Kd", "Qs", "9h"],
            "Cy": ["Jh", "Js", "9c", "9d", "7h"]}
    h = hand("chicago", deal=deal)
    h.apply("Ben: declare Ks Kh Kd Qs 9h")
    assert h.phase == OVER and nets(h) == {"Ann": "-1", "Ben": "2", "Cy": "-1"}
    # Cy's 49-in-turn is claimed at the start of Cy's first turn, with no spread down.
    deal = {**deal, "Ben": ["5s", "6s", "7s", "Kd", "Kh"], "Cy": ["Ks", "Qh", "Qd", "Qs", "9h"]}
    h = hand("chicago", deal=deal, actions=["Ben: draw 8c", "Ben: discard 8c"])
    h.apply("Cy: declare Ks Qh Qd Qs 9h")
    assert h.ending.kind == "deal_win"
    h = hand("chicago", deal=deal, actions=["Ben: draw 8s", "Ben: spread 5s 6s 7s 8s",
                                            "Ben: discard Kd"])
    assert refused(h, "Cy: declare Ks Qh Qd Qs 9h") == "declare_too_late"


# ------------------------------------------------------------------ going out

TONK_OUT = ["Ben: draw 5d", "Ben: spread Ks Kh Kd", "Ben: spread 5s 5h 5d"]


def test_tonk_out_pays():
    assert nets(hand(actions=TONK_OUT)) == {"Ann": "-2", "Ben": "4", "Cy": "-2"}
    assert nets(hand({"tonk_out_pays": 1}, actions=TONK_OUT)) == \
        {"Ann": "-1", "Ben": "2", "Cy": "-1"}


def test_tonk_out_by_hits_pays():
    assert nets(hand(deal=RUN_DEAL, actions=BY_HITS))["Ben"] == "4"
    h = hand({"tonk_out_by_hits_pays": 1}, deal=RUN_DEAL, actions=BY_HITS)
    assert nets(h)["Ben"] == "2"
    # A spread in the going-out turn: not by hits alone.
    assert nets(hand({"tonk_out_by_hits_pays": 1}, actions=TONK_OUT))["Ben"] == "4"


def test_tonk_out_double_first_turn_only():
    rules = {"tonk_out_double_first_turn_only": True}
    assert nets(hand(rules, actions=TONK_OUT))["Ben"] == "4"
    assert nets(hand(rules, deal=RUN_DEAL, actions=BY_HITS))["Ben"] == "2"


def test_tonk_out_double_lost_by_hitting():
    rules = {"tonk_out_double_lost_by_hitting": True}
    assert nets(hand(rules, actions=TONK_OUT))["Ben"] == "4"
    assert nets(hand(rules, deal=RUN_DEAL, actions=BY_HITS))["Ben"] == "2"


def test_first_turn_two_spreads_pays():
    h = hand({"first_turn_two_spreads_pays": 4}, actions=TONK_OUT)
    assert nets(h) == {"Ann": "-4", "Ben": "8", "Cy": "-4"}
    assert nets(hand({"first_turn_two_spreads_pays": 4}, deal=RUN_DEAL, actions=BY_HITS))[
        "Ben"] == "4"


OUT_DEAL = {**BASE, "Ben": ["6s", "7s", "8s", "9s", "9h"]}
OUT = ["Ben: draw Ts", "Ben: spread 6s 7s 8s 9s Ts", "Ben: discard 9h"]


def test_out_pays():
    assert nets(hand(deal=OUT_DEAL, actions=OUT))["Ben"] == "2"
    assert nets(hand({"out_pays": 2}, deal=OUT_DEAL, actions=OUT))["Ben"] == "4"


def test_boobed_deck_going_out_does_not_end_the_hand():
    unknown = {"Ann": ["??"] * 5, "Ben": ["??"] * 5}
    keep = {"Ks", "Kh", "Kd", "Qs", "Qh", "Qd", "7d"}
    free = [r + s for r in "A23456789TJ" for s in "cdhs" if r + s not in keep]
    actions = []
    for i in range(39):  # 41 stock cards: 2 left, as many as there are players
        p = ("Ann", "Ben")[i % 2]
        actions += [f"{p}: draw", f"{p}: discard {free.pop()}"]
    actions += ["Ben: draw", "Ben: spread Ks Kh Kd", "Ben: spread Qs Qh Qd"]
    rules = {"preset": "rushville"}
    h = hand(rules, deal=unknown, players=("Ann", "Ben"), dealer="Ben", actions=actions)
    assert h.ending is None and h.card_count("Ben") == 0 and h.to_act == "Ann"
    drawn = free.pop()
    h.apply(f"Ann: draw {drawn}")
    h.apply(f"Ann: discard {free.pop()}")
    h.apply("Ben: drop")
    h.apply(f"Ann: show {' '.join(free + [drawn, 'Qc', 'Kc'])}")
    assert h.phase == OVER and settle_hand(h, Decimal(1)).outcome == "drop_won"
    pagat = hand(deal=unknown, players=("Ann", "Ben"), dealer="Ben", actions=actions)
    assert pagat.ending.kind == "tonk_out"


# ------------------------------------------------------------------ dropping and catches

FOUR = ("Ann", "Ben", "Cy", "Dee")


def caught(scheme, counts, caught_pays=None, dealer="Dee"):
    rules = {"caught": scheme}
    if caught_pays is not None:
        rules["caught_pays"] = caught_pays
    ending = Ending(DROP, FOUR, dealer, player="Ann", counts=counts)
    s = settle_ending(ending, resolve(rules))
    return s.outcome, {q: int(v) for q, v in s.net.items()}


SPREAD_COUNTS = {"Ann": 10, "Ben": 9, "Cy": 7, "Dee": 12}  # beaters Ben, Cy; lowest Cy
TIED_LOW = {"Ann": 10, "Ben": 7, "Cy": 7, "Dee": 12}  # beaters and lowest Ben, Cy

# The registry's test table: every catch scheme, Ann dropping and caught.
CATCH_TABLE = [
    ("pagat", None, SPREAD_COUNTS, {"Ann": -5, "Ben": 1, "Cy": 5, "Dee": -1}),
    ("double_to_beaters", None, SPREAD_COUNTS, {"Ann": -4, "Ben": 1, "Cy": 4, "Dee": -1}),
    ("double_to_beaters", None, TIED_LOW, {"Ann": -4, "Ben": 3, "Cy": 3, "Dee": -2}),
    ("low_collects_double", None, SPREAD_COUNTS, {"Ann": -2, "Ben": -1, "Cy": 4, "Dee": -1}),
    ("dropper_pays_table", None, SPREAD_COUNTS, {"Ann": -3, "Ben": 0, "Cy": 3, "Dee": 0}),
    ("single_to_beaters", None, SPREAD_COUNTS, {"Ann": -3, "Ben": 0, "Cy": 4, "Dee": -1}),
    ("double_to_all", None, SPREAD_COUNTS, {"Ann": -6, "Ben": 2, "Cy": 2, "Dee": 2}),
    ("five_to_low", None, SPREAD_COUNTS, {"Ann": -5, "Ben": 0, "Cy": 5, "Dee": 0}),
    ("pay_beaters", 4, SPREAD_COUNTS, {"Ann": -8, "Ben": 4, "Cy": 4, "Dee": 0}),
    ("pay_lowest", "2n", SPREAD_COUNTS, {"Ann": -8, "Ben": 0, "Cy": 8, "Dee": 0}),
    ("lowest_wins", None, SPREAD_COUNTS, {"Ann": -1, "Ben": -1, "Cy": 3, "Dee": -1}),
    ("lowest_wins", None, TIED_LOW, {"Ann": -2, "Ben": 2, "Cy": 2, "Dee": -2}),
]


@pytest.mark.parametrize("scheme,pays,counts,expected", CATCH_TABLE)
def test_every_catch_scheme(scheme, pays, counts, expected):
    assert caught(scheme, counts, pays) == ("caught", expected)


def test_the_catch_table_covers_the_registry_in_the_spec_order():
    assert list(dict.fromkeys(row[0] for row in CATCH_TABLE)) == list(CATCH_SCHEMES)
    assert list(CATCH_SCHEMES)[:2] == ["pagat", "double_to_beaters"]
    assert OPTION_ALLOWED["caught"].choices == list(CATCH_SCHEMES)
    for scheme in CATCH_SCHEMES.values():  # one line each, for the reference page
        assert scheme.description and "\n" not in scheme.description


def test_every_catch_scheme_explains_its_payments():
    for scheme in CATCH_SCHEMES:
        ending = Ending(DROP, FOUR, "Dee", player="Ann", counts=SPREAD_COUNTS)
        s = settle_ending(ending, resolve({"caught": scheme}))
        words = VALUE_WORDS["caught"][scheme]  # the scheme's words, not its value
        assert s.story[0].endswith(f"so Ann is caught (catch scheme: {words}).")
        assert len(s.story) >= 2 and all(line.endswith(".") for line in s.story)


def test_five_to_low_tie_pays_nearest_left_of_dealer():
    counts = {"Ann": 10, "Ben": 7, "Cy": 7, "Dee": 12}
    assert caught("five_to_low", counts, dealer="Ben")[1] == {"Ann": -5, "Ben": 0, "Cy": 5,
                                                               "Dee": 0}
    assert caught("five_to_low", counts, dealer="Dee")[1]["Ben"] == 5


def test_caught_pays_number_and_2n():
    assert caught("pay_beaters", SPREAD_COUNTS, 3)[1]["Ann"] == -6
    assert caught("pay_lowest", SPREAD_COUNTS, "2n")[1]["Cy"] == 8
    assert caught("pay_lowest", SPREAD_COUNTS)[1]["Cy"] == 2  # default 2


def test_drop_pays():
    counts = {"Ann": 5, "Ben": 9, "Cy": 7, "Dee": 12}
    ending = Ending(DROP, FOUR, "Dee", player="Ann", counts=counts)
    s = settle_ending(ending, resolve({"drop_pays": 2}))
    assert s.outcome == "drop_won" and s.net["Ann"] == 6


# ------------------------------------------------------------------ stock out

def stock_out(rules, counts):
    s = settle_ending(Ending(STOCK_OUT, FOUR, "Dee", player="Ann", counts=counts),
                      resolve(rules))
    return s.outcome, {q: int(v) for q, v in s.net.items()}


def test_stock_out_options():
    one = {"Ann": 10, "Ben": 9, "Cy": 7, "Dee": 12}
    tie = {"Ann": 10, "Ben": 7, "Cy": 7, "Dee": 12}
    assert stock_out("pagat", one) == ("stock_out", {"Ann": -1, "Ben": -1, "Cy": 3, "Dee": -1})
    assert stock_out({"stock_out_pays": 2}, one)[1]["Cy"] == 6
    assert stock_out({"stock_out": "dead"}, one) == ("dead", dict.fromkeys(FOUR, 0))
    assert stock_out("pagat", tie) == ("stock_out", {"Ann": -2, "Ben": 2, "Cy": 2, "Dee": -2})
    assert stock_out({"stock_out_tie": "dead"}, tie)[0] == "dead"


# ------------------------------------------------------------------ scoring and stakes

def test_push_ups_scoring():
    h = hand("push_ups", actions=TONK_OUT)
    assert h.phase != OVER and h.must_show == {"Ann", "Cy"}
    h.apply("Ann: show 2c 3d As Ah 4s")
    h.apply("Cy: show Jh Js 9c 9d 7h")
    r = settle_hand(h, Decimal("0.25"))
    # A tonk out paying 2 is a double win: losers go up by twice their counts.
    assert {q: int(v) for q, v in r.net.items()} == {"Ann": 22, "Ben": 0, "Cy": 90}


def test_side_bets_pots_carry_over_until_won():
    first = {"dealer": "Ann", "deal": BASE, "upcard": "7d", "actions": TONK_OUT,
             "side_bets": [{"kind": "suit_high", "suit": "c", "stake": "1",
                            "players": ["Ann", "Ben"]},
                           {"kind": "first_spread", "stake": "0.50", "players": ["Ann", "Cy"]}]}
    second_deal = {"Ann": ["Kc", "3d", "As", "Ah", "4s"], "Ben": ["Ks", "Kh", "Kd", "5s", "5h"],
                   "Cy": ["Jh", "Js", "9c", "9d", "7h"]}
    second = {"dealer": "Ben", "deal": second_deal, "upcard": "7d",
              "actions": ["Cy: draw 8h", "Cy: discard 8h", "Ann: drop",
                          "Ann: show Kc 3d As Ah 4s", "Ben: show Ks Kh Kd 5s 5h",
                          "Cy: show Jh Js 9c 9d 7h"],
              "side_bets": [{"kind": "first_spread", "stake": "0.50", "players": ["Ann", "Cy"]},
                            {"kind": "suit_high", "suit": "h", "stake": "1",
                             "players": ["Ann", "Cy"]}]}
    log = {"format": "tonk-log/1", "stake": "1", "currency": "USD", "rules": "pagat",
           "players": list(SEATS), "hands": [first, second]}
    res = result_of(log)
    # Hand 1: Ann's 2c beats Ben's (no club) for the suit-high pot: Ben pays Ann 1.
    # Nobody of Ann and Cy spread: the first-spread pot (1.00) carries over.
    assert res["hands"][0]["net"] == {"Ann": "-1.00", "Ben": "3.00", "Cy": "-2.00"}
    # Hand 2: Cy's Jh is the highest heart: Ann pays Cy 1. Nobody spreads again.
    h2 = res["hands"][1]["net"]
    assert h2["Cy"] == str(Decimal(res["hands"][1]["net"]["Cy"]))
    assert sum(Decimal(v) for v in h2.values()) == 0
    bad = dict(log, hands=[dict(first, side_bets=[{"kind": "suit_high", "suit": "c",
                                                    "stake": "1", "players": ["Ann", "Dee"]}])])
    assert error_of(bad).code == "bad_side_bet"


# ------------------------------------------------------------------ the options themselves

def test_every_preset_expands_to_its_options():
    for name, overrides in PRESETS.items():
        rules = resolve(name).to_json()
        assert rules["preset"] == name
        for option, value in overrides.items():
            assert rules[option] == value, (name, option)


def test_overrides_on_top_of_a_preset():
    rules = resolve({"preset": "chicago", "upcard": True})
    assert rules.upcard is True and rules.jokers == 2


@pytest.mark.parametrize("rules,code,words", [
    ({"preset": "pagat", "colour": "red"}, "unknown_option", "colour"),
    ({"preset": "vegas"}, "unknown_preset", "vegas"),
    ({"jokers": 5}, "bad_option_value", "jokers"),
    ({"hand_size": 6}, "bad_option_value", "hand_size"),
    ({"hand_size": 8}, "bad_option_value", "hand_size"),
    ({"ace": "high"}, "bad_option_value", "ace"),
    ({"ace": True}, "bad_option_value", "ace"),
    ({"pickup_depth": 3}, "bad_option_value", "pickup_depth"),
    ({"pickup_depth": 0}, "bad_option_value", "pickup_depth"),
    ({"pickup_depth": "2"}, "bad_option_value", "pickup_depth"),
    ({"preset": "push_ups", "match_to": 0}, "bad_option_value", "match_to"),
    ({"preset": "push_ups", "match_to": 100.5}, "bad_option_value", "match_to"),
    ({"preset": "push_ups", "match_to": "100"}, "bad_option_value", "match_to"),
    ({"preset": "push_ups", "match_to": True}, "bad_option_value", "match_to"),
    ({"match_to": 100}, "bad_option_value", "match_to"),
    ({"preset": "push_ups", "scoring": "stakes", "match_to": 100}, "bad_option_value",
     "match_to"),
    ({"caught": "lowest_win"}, "bad_option_value", "caught"),
    ({"dealer_rotation": "winner"}, "bad_option_value", "dealer_rotation"),
    ({"deck": "52"}, "bad_option_value", "deck"),
    ({"caught": "nobody"}, "bad_option_value", "caught"),
    ({"jokers_wild": 1}, "bad_option_value", "jokers_wild"),
    ({"caught_pays": "3n"}, "bad_option_value", "caught_pays"),
    ({"deal_wins": [{"when": "total:49"}]}, "bad_option_value", "pays"),
    ({"deal_wins": [{"when": "sum:49", "pays": 2}]}, "bad_option_value", "when"),
    ({"deal_wins": [{"when": "low:9", "pays": 2, "bonus": 1}]}, "unknown_option", "bonus"),
    ({"spread_wait": -1}, "bad_option_value", "spread_wait"),
])
def test_unknown_options_and_bad_values_are_named(rules, code, words):
    with pytest.raises(RulesError) as info:
        resolve(rules)
    assert info.value.code == code and words in info.value.message
    assert info.value.exit_status == 2


def test_option_list_matches_rules_md():
    assert len(OPTION_NAMES) == 40


def test_take_must_meld_offers_a_take_only_when_the_card_can_be_used():
    h = hand({"take_must_meld": True})  # Ben cannot use the 7d
    assert "take" not in h.verbs()["Ben"]
    assert Action("Ben", "take") not in h.legal_actions()
    h.apply("Ben: take")  # still a fact the log may record...
    assert refused(h, "Ben: discard 5s") == "take_not_melded"  # ...refused at the turn's end
    deal = {**BASE, "Ben": ["Ks", "Kh", "Kd", "7s", "7c"]}
    assert "take" in hand({"take_must_meld": True}, deal=deal).verbs()["Ben"]


def test_must_spread_at_the_show_only_binds_players_who_ended_a_turn():
    rules = {"must_spread": "always"}
    # Ben drops at the start of his first turn: he never had the chance to lay
    # down the book he was dealt; nor did Cy and Ann, who never played.
    h = hand(rules, actions=["Ben: drop", "Ben: show Ks Kh Kd 5s 5h"])
    h.apply("Cy: show Jh Js 9c 9d 7h")
    # Cy's cards were unknown when Cy's turn ended; the show reveals a book.
    deal = {**BASE, "Cy": ["??"] * 5}
    h = hand(rules, deal=deal, actions=["Ben: draw 6c", "Ben: spread Ks Kh Kd",
                                        "Ben: discard 6c", "Cy: draw", "Cy: discard 2h",
                                        "Ann: drop"])
    assert refused(h, "Cy: show Qc Qd Qh 3c 4c") == "held_spread"
