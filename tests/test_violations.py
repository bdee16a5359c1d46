"""Every kind of illegal action is refused with its code, hand and action,
and a refused action leaves the hand exactly as it was."""

import copy

import pytest

from referee.rules.errors import RefereeError
from referee.rules.hand import Hand
from referee.rules.options import resolve

from .helpers import error_of, hand_error, one_hand_log

DEAL = {
    "Ann": ["2c", "3d", "As", "Ah", "4s"],
    "Ben": ["Ks", "Kh", "Kd", "5s", "5h"],
    "Cy": ["Jh", "Js", "9c", "9d", "7h"],
}
ONE_SPREAD = ["Ben: draw 6c", "Ben: spread Ks Kh Kd", "Ben: discard 6c"]

NO_UPCARD = {"preset": "pagat", "upcard": False}

CASES = [
    # (name, actions, deal, code, action number[, rules: pagat unless given])
    ("out of turn", ["Cy: draw 8c"], DEAL, "out_of_turn", 1),
    ("dealer plays first", ["Ann: draw 8c"], DEAL, "out_of_turn", 1),
    ("card seen twice: the upcard drawn", ["Ben: draw 7d"], DEAL, "duplicate_card", 1),
    ("card seen twice: another's card", ["Ben: draw 2c"], DEAL, "duplicate_card", 1),
    ("invalid spread", ["Ben: draw 6c", "Ben: spread Ks Kh 5s"], DEAL, "invalid_spread", 2),
    ("run with the ace high", ["Ben: draw Qs", "Ben: spread Qs Ks As"],
     {**DEAL, "Ann": ["2c", "3d", "Ac", "Ah", "4s"], "Ben": ["Ks", "As", "Kd", "5s", "5h"]},
     "invalid_spread", 2),
    ("invalid hit", ONE_SPREAD + ["Cy: draw 8h", "Cy: hit S1 8h"], DEAL, "illegal_hit", 5),
    ("hit on a spread that does not exist", ["Ben: draw 6c", "Ben: hit S1 6c"], DEAL,
     "no_such_spread", 2),
    ("drop after drawing", ["Ben: draw 6c", "Ben: drop"], DEAL, "drop_after_draw", 2),
    ("draw twice", ["Ben: draw 6c", "Ben: draw 6d"], DEAL, "already_drew", 2),
    ("discard before drawing", ["Ben: discard Ks"], DEAL, "must_draw_first", 1),
    ("card not in a fully known hand", ["Ben: draw 6c", "Ben: discard 2h"], DEAL,
     "card_not_in_hand", 2),
    ("take the wrong card", ["Ben: take 8c"], DEAL, "take_mismatch", 1),
    ("false declaration", ["Ann: declare 2c 3d As Ah 4s"], DEAL, "false_declaration", 1),
    ("declaration that is not the dealt hand", ["Ann: declare 2c 3d As Ah 5s"], DEAL,
     "wrong_show", 1),
    ("declaring after play started", ["Ben: draw 6c", "Ben: discard 6c",
                                      "Cy: declare Jh Js 9c 9d 7h"], DEAL, "declare_too_late", 3),
    ("wrong show: too few cards", ONE_SPREAD + ["Cy: draw 8h", "Cy: discard 8h", "Ann: drop",
                                                 "Ann: show 2c 3d As Ah"], DEAL, "wrong_show", 7),
    ("wrong show: a known card left out", ONE_SPREAD + ["Cy: draw 8h", "Cy: discard 8h",
                                                         "Ann: drop", "Ann: show 2c 3d As Ah 6h"],
     DEAL, "wrong_show", 7),
    ("show before the play ends", ["Ben: show Ks Kh Kd 5s 5h"], DEAL, "show_too_early", 1),
    ("show twice", ONE_SPREAD + ["Cy: draw 8h", "Cy: discard 8h", "Ann: drop",
                                 "Ann: show 2c 3d As Ah 4s", "Ann: show 2c 3d As Ah 4s"],
     DEAL, "already_shown", 8),
    ("action after the hand ended", ["Ben: draw 5d", "Ben: spread Ks Kh Kd",
                                     "Ben: spread 5s 5h 5d", "Cy: draw 8h"], DEAL, "hand_over", 4),
    ("playing on after a drop", ONE_SPREAD + ["Cy: draw 8h", "Cy: discard 8h", "Ann: drop",
                                              "Ben: draw 8s"], DEAL, "hand_over", 7),
    ("undeclared deal win", ["Ben: draw 6c"],
     {**DEAL, "Ben": ["Ks", "Kh", "Kd", "Qs", "9h"]}, "undeclared_deal_win", 1),
    ("take from an empty pile", ["Ben: take"], DEAL, "empty_discard_pile", 1, NO_UPCARD),
    ("not seated", ["Dee: draw"], DEAL, "not_seated", 1),
    ("a card named twice", ["Ben: draw 6c", "Ben: spread Ks Ks Kd"], DEAL, "duplicate_card", 2),
    ("slap without slapping rules", ONE_SPREAD + ["Cy: slap S1"], DEAL, "slap_not_allowed", 4),
]


CASES = [(*c, "pagat") if len(c) == 5 else c for c in CASES]


@pytest.mark.parametrize("name,actions,deal,code,number,rules", CASES,
                         ids=[c[0] for c in CASES])
def test_illegal_action_is_refused(name, actions, deal, code, number, rules):
    kw = {"deal": deal, "rules": rules}
    if not resolve(rules).upcard:
        kw["upcard"] = None
    err = hand_error(actions, **kw)
    assert (err.code, err.hand, err.action) == (code, 1, number), err.message
    assert err.message.startswith(f"hand 1, action {number} ({actions[number - 1]}): ")
    assert err.exit_status == 1



@pytest.mark.parametrize("name,actions,deal,code,number,rules", CASES,
                         ids=[c[0] for c in CASES])
def test_refused_action_changes_nothing(name, actions, deal, code, number, rules):
    rules = resolve(rules)
    hand = Hand(rules, ["Ann", "Ben", "Cy"], "Ann", deal=deal,
                upcard=None if not rules.upcard else "7d")
    for text in actions[: number - 1]:
        hand.apply(text)
    before = copy.deepcopy(vars(hand))
    with pytest.raises(RefereeError):
        hand.apply(actions[number - 1])
    assert vars(hand) == before
    assert not hand.can(actions[number - 1])


def test_wrong_dealer():
    log = one_hand_log(["Ben: draw 5d", "Ben: spread Ks Kh Kd", "Ben: spread 5s 5h 5d"],
                       deal=DEAL)
    log["hands"].append({"dealer": "Cy", "actions": []})
    err = error_of(log)
    assert (err.code, err.hand, err.action) == ("wrong_dealer", 2, None)
    assert "Ben deals this hand" in err.message


def test_hand_left_unfinished():
    log = one_hand_log(["Ben: draw 6c"], deal=DEAL)
    err = error_of(log)
    assert (err.code, err.hand) == ("hand_unfinished", 1)
    log["hands"].append({"dealer": "Ben", "actions": []})
    err = error_of(log)
    assert (err.code, err.hand) == ("hand_unfinished", 2)


@pytest.mark.parametrize("text,code", [
    ("Ben draw 4c", "bad_action"),
    ("Ben: fly 4c", "bad_action"),
    ("Ben: draw 4x", "bad_card"),
    ("Ben: hit 4c", "bad_action"),
    ("Ben: spread 4c 5c", "bad_action"),
    ("Ben: discard ??", "bad_action"),
])
def test_unreadable_action_is_malformed(text, code):
    err = hand_error([text], deal=DEAL)
    assert (err.code, err.hand, err.action, err.exit_status) == (code, 1, 1, 2)


def test_bad_deal():
    err = error_of(one_hand_log([], deal={**DEAL, "Ann": ["2c", "3d"]}))
    assert (err.code, err.hand, err.action) == ("bad_deal", 1, None)
    err = error_of(one_hand_log([], deal={**DEAL, "Cy": ["Jh", "Js", "9c", "9d", "2c"]}))
    assert err.code == "bad_deal" and "dealt to Ann" in err.message


def test_refused_hand_start_leaves_the_declared_hand_open():
    from referee.rules.table import Table

    deal = {**DEAL, "Ben": ["Ks", "Kh", "Kd", "Qs", "9h"]}
    table = Table(resolve("pagat"), ["Ann", "Ben", "Cy"])
    first = table.start_hand("Ann", deal=deal, upcard="7d")
    first.apply("Ben: declare Ks Kh Kd Qs 9h")
    before = copy.deepcopy(vars(first))
    with pytest.raises(RefereeError) as info:
        table.start_hand("Cy")
    assert info.value.code == "wrong_dealer"
    assert vars(first) == before and table.started == 1
    table.start_hand("Ben")
    assert first.phase == "over"
