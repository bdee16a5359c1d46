"""Quick logging: a show given as a count, a hand told by its ending.

The strongest check is the property: any played hand, told by its ending
instead, pays exactly the same under every preset, mixed freely with played
hands in one session. Each refusal of the spec's section has its own test.
"""

import copy
import io
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.devtools.simulate import Dealer
from referee.record import dump_log, load_log
from referee.replay import replay
from referee.rules.ending import DEAL_WIN, DROP, OUT, STOCK_OUT, THROWN_IN, TONK_OUT
from referee.rules.hand import Hand
from referee.rules.options import PRESETS, resolve
from referee.rules.told import FACTS, facts_needed

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def ending_of(hand: Hand) -> dict:
    """What a table would tell of a played, complete hand: how it ended, who,
    the counts, and every fact (the rules that do not use one ignore it)."""
    e = hand.ending
    counts = {q: c for q, c in hand.counts().items() if c is not None}
    if e.kind in (DEAL_WIN, THROWN_IN):
        told = {"how": "deal_win",
                "declares": {c.player: list(hand.held[c.player]) for c in hand.claims}}
        if hand.rules.scoring == "push_ups":
            told["counts"] = counts
        return told
    if e.kind in (TONK_OUT, OUT):
        told = {"how": e.kind.value, "by": e.player}
        if e.kind == TONK_OUT:
            first = hand.turns[e.player] == 1
            turn = hand.this_turn
            told.update(first_turn=first, by_hits=turn.spreads == 0,
                        hit_a_spread=hand.has_hit[e.player],
                        two_spreads=first and turn.spreads >= 2 and turn.hits == 0)
        if hand.rules.scoring == "push_ups":
            told["counts"] = {q: c for q, c in counts.items() if q != e.player}
        return told
    told = {"how": e.kind.value, "counts": counts}
    if e.player is not None:
        told["by"] = e.player
    assert e.kind in (DROP, STOCK_OUT)
    return told


def played_session(preset: str, seed: int, hands: int = 4) -> tuple[dict, list[Hand]]:
    rules = resolve(preset)
    rng = random.Random(seed)
    players = PLAYERS[: rng.randint(2, min(4, rules.max_players))]
    dealer = Dealer(rules, players, rng, rig=0.3, eager=rng.choice((0.0, 0.05, 0.7)))
    setups, played = [], []
    for _ in range(hands):
        setup, hand = dealer.play_hand()
        if not hand.is_complete:
            break
        setups.append(setup)
        played.append(hand)
    log = {"format": "tonk-log/1", "stake": "0.25", "currency": "EUR", "rules": preset,
           "players": players, "hands": setups}
    return log, played


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), told_mask=st.integers(0, 15))
@example(seed=825, told_mask=15)  # chicago: Ben drops holding only a joker, a count of 0
def test_a_hand_told_by_its_ending_pays_as_played(preset, seed, told_mask):
    log, played = played_session(preset, seed)
    # A session whose first hand ran past the dealer's limit has nothing to
    # tell: not an example (hypothesis fails the test if none is left).
    assume(played)
    mixed = copy.deepcopy(log)
    for i, (setup, hand) in enumerate(zip(mixed["hands"], played, strict=True)):
        if told_mask >> i & 1:
            extra = {k: setup[k] for k in ("stake_multiplier",) if k in setup}
            mixed["hands"][i] = {"dealer": setup["dealer"], **extra, "ending": ending_of(hand)}
    want = replay(load_log(log)).result()
    got = replay(load_log(json.loads(json.dumps(mixed)))).result()
    for a, b, setup in zip(want.hands, got.hands, mixed["hands"], strict=True):
        assert (b.outcome, b.winners, b.net) == (a.outcome, a.winners, a.net), setup
        assert b.told == ("ending" in setup)
        assert sum(b.net.values()) == 0 or preset == "push_ups"  # scores, not money
    assert got.totals == want.totals
    assert got.transfers == want.transfers
    assert dump_log(load_log(mixed)) == mixed


def _log(hands, rules="pagat", players=("Ann", "Ben", "Cy"), **extra) -> dict:
    return {"format": "tonk-log/1", "stake": "1", "rules": rules, "players": list(players),
            "hands": hands, **extra}


def _replay(tmp_path, log, *args) -> tuple[int, dict]:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    status = main(["replay", str(path), "--json", *args])
    return status, path


def _result(tmp_path, capsys, log) -> tuple[int, dict]:
    status, _ = _replay(tmp_path, log)
    return status, json.loads(capsys.readouterr().out)


DROP_ENDING = {"how": "drop", "by": "Ben", "counts": {"Ann": 20, "Ben": 9, "Cy": 30}}


def test_told_hands_mix_with_played_ones_in_rotation_stakes_and_money(tmp_path, capsys):
    log = _log([
        {"dealer": "Ann", "ending": DROP_ENDING, "accepted": ["Ann", "Ben"]},
        {"dealer": "Ben", "actions": [], "void": "misdeal"},
        {"dealer": "Ben", "stake": "2", "stake_multiplier": 2,
         "ending": {"how": "tonk_out", "by": "Cy"},
         "disputes": [{"action": None, "by": "Ann", "note": "I saw a discard"}]},
        {"dealer": "Cy", "actions": ["Ann: drop", "Ann: show =12", "Ben: show =7",
                                     "Cy: show =40"]},
    ], currency="USD", payments=[{"from": "Ann", "to": "Cy", "amount": "1"}])
    status, out = _result(tmp_path, capsys, log)
    assert status == 0, out
    hands = out["hands"]
    assert [h["outcome"] for h in hands] == ["drop_won", "void", "tonk_out", "caught"]
    assert [h.get("told") for h in hands] == [True, None, True, None]
    assert hands[0]["counts"] == {"Ann": 20, "Ben": 9, "Cy": 30}
    assert hands[2]["counts"] == {}
    assert hands[2]["net"] == {"Ann": "-8.00", "Ben": "-8.00", "Cy": "16.00"}
    assert hands[3]["counts"] == {"Ann": 12, "Ben": 7, "Cy": 40}
    # the hand's own stake (2, doubled) holds for it alone
    assert out["totals"] == {"Ann": "-12.00", "Ben": "-2.00", "Cy": "14.00"}
    assert out["balances"] == {"Ann": "-11.00", "Ben": "-2.00", "Cy": "13.00"}
    assert list(out["hands"][0]) == ["hand", "dealer", "outcome", "told", "winners", "counts",
                                     "net"]


@pytest.mark.parametrize("how,extra,outcome,net", [
    ("tonk_out", {"by": "Ann"}, "tonk_out", {"Ann": "4", "Ben": "-2", "Cy": "-2"}),
    ("out", {"by": "Ann"}, "out", {"Ann": "2", "Ben": "-1", "Cy": "-1"}),
    ("drop", {"by": "Ann", "counts": {"Ann": 10, "Ben": 10, "Cy": 30}}, "caught",
     {"Ann": "-3", "Ben": "4", "Cy": "-1"}),
    ("stock_out", {"counts": {"Ann": 3, "Ben": 10, "Cy": 30}}, "stock_out",
     {"Ann": "2", "Ben": "-1", "Cy": "-1"}),
    ("deal_win", {"declares": {"Ben": ["Ks", "Kh", "Kd", "Kc", "Qs"]}}, "deal_win",
     {"Ann": "-2", "Ben": "4", "Cy": "-2"}),
])
def test_every_how(tmp_path, capsys, how, extra, outcome, net):
    status, out = _result(tmp_path, capsys, _log([{"dealer": "Cy", "ending": {"how": how,
                                                                              **extra}}]))
    assert status == 0, out
    hand = out["hands"][0]
    assert (hand["outcome"], hand["told"]) == (outcome, True)
    assert hand["net"] == net
    assert sum(int(v) for v in hand["net"].values()) == 0


@pytest.mark.parametrize("rules,facts,pays", [
    ({"preset": "chicago"}, {"first_turn": True, "hit_a_spread": False}, 2),
    ({"preset": "chicago"}, {"first_turn": False, "hit_a_spread": False}, 1),
    ({"preset": "chicago"}, {"first_turn": True, "hit_a_spread": True}, 1),
    ({"preset": "newark"}, {"first_turn": True, "two_spreads": True}, 4),
    ({"preset": "newark"}, {"first_turn": True, "two_spreads": False}, 2),
    ({"preset": "pagat", "tonk_out_by_hits_pays": 1}, {"by_hits": True}, 1),
    ({"preset": "pagat", "tonk_out_by_hits_pays": 1}, {"by_hits": False}, 2),
    ("pagat", {"first_turn": False, "by_hits": True}, 2),  # facts the rules do not use
])
def test_a_tonk_out_pays_by_the_facts_the_rules_use(tmp_path, capsys, rules, facts, pays):
    ending = {"how": "tonk_out", "by": "Ann", **facts}
    status, out = _result(tmp_path, capsys, _log([{"dealer": "Cy", "ending": ending}], rules))
    assert status == 0, out
    assert out["hands"][0]["net"]["Ben"] == str(-pays)


@pytest.mark.parametrize("option,value", [
    (o, v) for fact, options in FACTS.items() for o in options
    for v in ([True] if o.startswith("tonk_out_double") else [1 if "by_hits" in o else 4])])
def test_each_needed_fact_is_asked_for(tmp_path, capsys, option, value):
    rules = resolve({"preset": "pagat", option: value})
    needed = facts_needed(rules)
    assert needed and all(option in FACTS[f] or f not in needed for f in FACTS)
    for missing in needed:
        facts = {f: False for f in needed if f != missing}
        ending = {"how": "tonk_out", "by": "Ann", **facts}
        status, out = _result(tmp_path, capsys, _log(
            [{"dealer": "Cy", "ending": ending}], {"preset": "pagat", option: value}))
        assert status == 1
        assert out["error"]["code"] == "ending_incomplete"
        assert (out["error"]["hand"], out["error"]["action"]) == (1, None)
        assert missing in out["error"]["message"]


def _refused(tmp_path, capsys, log, code, status=1, hand=1, action=None):
    got, out = _result(tmp_path, capsys, log)
    assert got == status, out
    err = out["error"]
    assert (err["code"], err["hand"], err["action"]) == (code, hand, action), err["message"]
    return err["message"]


def test_an_impossible_count_show(tmp_path, capsys):
    # Ben holds 5 unknown cards: 6 (A A A A 2: a deck has four aces) to 50 in a
    # 52-card deck with no jokers; the refusal states that range.
    log = _log([{"dealer": "Cy", "actions": ["Ann: drop", "Ann: show =12", "Ben: show =5",
                                             "Cy: show =40"]}])
    assert "6 to 50" in _refused(tmp_path, capsys, log, "impossible_count", action=3)
    log["hands"][0]["actions"][2] = "Ben: show =6"
    status, out = _result(tmp_path, capsys, log)
    assert status == 0 and out["hands"][0]["counts"]["Ben"] == 6, out


def test_a_count_show_knows_the_cards_it_has_seen(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "deal": {"Ann": ["Ks", "Kh", "2d", "3c", "4c"]},
                 "actions": ["Ann: drop", "Ann: show =30"]}])
    assert "29" in _refused(tmp_path, capsys, log, "impossible_count", action=2)
    log["hands"][0]["actions"] = ["Ann: drop", "Ann: show =29", "Ben: show =6", "Cy: show =50"]
    status, out = _result(tmp_path, capsys, log)
    assert status == 0 and out["hands"][0]["counts"] == {"Ann": 29, "Ben": 6, "Cy": 50}


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
@pytest.mark.parametrize("actions,count", [
    (["Ann: drop", "Ann: show =30"], "29"),
    (["Ann: draw 7h", "Ann: spread 4h 5h 6h 7h", "Ann: discard 3c", "Ben: draw",
      "Ben: discard 9d", "Cy: draw", "Cy: discard 9s", "Ann: drop", "Ann: show =9"], "10"),
])
def test_a_known_hands_refusal_says_its_one_count(tmp_path, capsys, lang, actions, count):
    """P11 (newcomer45): every card known, the refusal said "contam de 16 a
    16"; a range of one number is said as that count, in every language (five
    cards, and one: a sentence of its own)."""
    deal = ["Ks", "4h", "5h", "6h", "3c"] if len(actions) > 2 else ["Ks", "Kh", "2d", "3c", "4c"]
    log = _log([{"dealer": "Cy", "deal": {"Ann": deal}, "actions": actions}],
               {"preset": "pagat", "deal_wins": []})
    _replay(tmp_path, log, "--lang", lang)
    error = json.loads(capsys.readouterr().out)["error"]
    said = error["message"].split(":", 1)[1]  # after the place, which quotes the action
    assert error["code"] == "impossible_count", error
    assert said.count(count) == 1 and actions[-1][-1] in said, said


def test_a_count_with_jokers_and_court_values(tmp_path, capsys):
    # Five cards with two jokers (0) count at least 0 0 A A A = 3; with courts
    # 11-12-13 at most K K K K Q = 64 (each card once).
    rules = {"preset": "pagat", "jokers": 2, "court_values": "11-12-13", "deal_wins": []}
    log = _log([{"dealer": "Cy", "actions": ["Ann: drop", "Ann: show =3", "Ben: show =64",
                                             "Cy: show =65"]}], rules)
    assert "3 to 64" in _refused(tmp_path, capsys, log, "impossible_count", action=4)
    log["hands"][0]["actions"][1] = "Ann: show =2"
    _refused(tmp_path, capsys, log, "impossible_count", action=2)


def test_a_count_that_is_not_a_number_cannot_be_read(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "actions": ["Ann: drop", "Ann: show =twelve"]}])
    _refused(tmp_path, capsys, log, "bad_action", status=2, action=2)


def test_must_spread_is_not_judged_on_a_count(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "actions": ["Ann: draw", "Ann: discard 9c", "Ben: drop",
                                             "Ben: show =12", "Cy: show =15",
                                             "Ann: show =20"]}],
               {"preset": "pagat", "must_spread": "always"})
    status, out = _result(tmp_path, capsys, log)
    assert status == 0, out


@pytest.mark.parametrize("counts,by", [
    ({"Ann": 51, "Ben": 3, "Cy": 3}, "Ben"),
    ({"Ann": -1, "Ben": 3, "Cy": 3}, "Ben"),
    ({"Ann": 10, "Ben": 0, "Cy": 3}, "Ben"),  # the dropper holds cards
])
def test_an_impossible_told_count(tmp_path, capsys, counts, by):
    log = _log([{"dealer": "Cy", "ending": {"how": "drop", "by": by, "counts": counts}}])
    _refused(tmp_path, capsys, log, "impossible_count")


def test_a_boobed_dropper_may_count_zero(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "ending": {"how": "drop", "by": "Ben",
                                            "counts": {"Ann": 10, "Ben": 0, "Cy": 3}}}],
               "rushville")
    status, out = _result(tmp_path, capsys, log)
    assert status == 0 and out["hands"][0]["outcome"] == "drop_won", out


def test_push_ups_need_every_losers_count(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "ending": {"how": "tonk_out", "by": "Ann",
                                            "counts": {"Ben": 12}}}], "push_ups")
    assert "Cy" in _refused(tmp_path, capsys, log, "ending_incomplete")
    log["hands"][0]["ending"]["counts"]["Cy"] = 7
    status, out = _result(tmp_path, capsys, log)
    assert status == 0, out
    # a tonk out paying 2 is a double win: the losers go up twice their counts
    assert out["hands"][0]["net"] == {"Ann": "0", "Ben": "24", "Cy": "14"}


def test_side_bets_need_a_played_hand(tmp_path, capsys):
    bet = {"kind": "first_spread", "stake": "1", "players": ["Ann", "Ben"]}
    log = _log([{"dealer": "Cy", "side_bets": [bet], "ending": DROP_ENDING}])
    _refused(tmp_path, capsys, log, "side_bets_need_play")


def test_a_told_hand_cannot_be_void(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "ending": DROP_ENDING, "void": "misdeal"}])
    _refused(tmp_path, capsys, log, "void_after_end")


def test_a_dispute_of_a_told_hand_names_no_action(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "ending": DROP_ENDING,
                 "disputes": [{"action": 1, "by": "Ann", "note": "no"}]}])
    _refused(tmp_path, capsys, log, "dispute_no_action")


def test_a_false_declaration(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "ending": {"how": "deal_win",
                                            "declares": {"Ann": ["Ks", "Kh", "Kd", "2c", "Qs"]}}}])
    _refused(tmp_path, capsys, log, "false_declaration")


@pytest.mark.parametrize("conflict,tie,outcome,paid", [
    ("void", "void", "thrown_in", []),
    ("all_paid", "void", "deal_win", ["Ann", "Ben"]),
    ("best", "void", "deal_win", ["Ben"]),
])
def test_deal_win_conflicts(tmp_path, capsys, conflict, tie, outcome, paid):
    rules = {"preset": "pagat", "deal_win_conflict": conflict, "deal_win_tie": tie,
             "deal_wins": [{"when": "total:50", "pays": 2}, {"when": "total:49", "pays": 2}]}
    declares = {"Ann": ["Ks", "Kh", "Kd", "Kc", "9s"], "Ben": ["Qs", "Qh", "Qd", "Qc", "Js"]}
    log = _log([{"dealer": "Cy", "ending": {"how": "deal_win", "declares": declares}}], rules)
    status, out = _result(tmp_path, capsys, log)
    assert status == 0, out
    assert (out["hands"][0]["outcome"], out["hands"][0]["winners"]) == (outcome, paid)


def test_a_card_declared_twice(tmp_path, capsys):
    declares = {"Ann": ["Ks", "Kh", "Kd", "Kc", "9s"], "Ben": ["Ks", "Qh", "Qd", "Qc", "Js"]}
    log = _log([{"dealer": "Cy", "ending": {"how": "deal_win", "declares": declares}}],
               {"preset": "pagat", "deal_win_conflict": "all_paid"})
    _refused(tmp_path, capsys, log, "duplicate_card")


def test_names_in_the_ending_are_seated(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "ending": {"how": "out", "by": "Zed"}}])
    _refused(tmp_path, capsys, log, "not_seated")


def test_the_dealer_is_checked_and_the_deal_passes(tmp_path, capsys):
    log = _log([{"dealer": "Cy", "ending": DROP_ENDING},
                {"dealer": "Cy", "ending": DROP_ENDING}])
    _refused(tmp_path, capsys, log, "wrong_dealer", hand=2)


@pytest.mark.parametrize("hand,code", [
    ({"dealer": "Cy", "ending": DROP_ENDING, "actions": []}, "malformed"),
    ({"dealer": "Cy", "ending": DROP_ENDING, "deal": {}}, "malformed"),
    ({"dealer": "Cy", "ending": DROP_ENDING, "upcard": "2c"}, "malformed"),
    ({"dealer": "Cy", "ending": {"how": "knock", "by": "Ann"}}, "malformed"),
    ({"dealer": "Cy", "ending": {"how": "out"}}, "malformed"),
    ({"dealer": "Cy", "ending": {"how": "drop", "by": "Ann"}}, "malformed"),
    ({"dealer": "Cy", "ending": {"how": "drop", "by": "Ann", "counts": {"Ann": 3}}},
     "malformed"),
    ({"dealer": "Cy", "ending": {"how": "deal_win"}}, "malformed"),
    ({"dealer": "Cy", "ending": {"how": "out", "by": "Ann", "first_turn": "yes"}},
     "malformed"),
    ({"dealer": "Cy", "ending": {"how": "drop", "by": "Ann", "counts": {"Ann": 2.5}}},
     "malformed"),
    ({"dealer": "Cy", "ending": {"how": "out", "by": "Ann", "colour": 1}}, "malformed_log"),
    ({"dealer": "Cy", "ending": "drop"}, "malformed_log"),
])
def test_a_malformed_ending(tmp_path, capsys, hand, code):
    _refused(tmp_path, capsys, _log([hand]), code, status=2)


@pytest.mark.parametrize("lang", ["de", "fr", "pt"])
def test_refusals_in_every_language(tmp_path, capsys, lang):
    logs = [
        _log([{"dealer": "Cy", "ending": {"how": "tonk_out", "by": "Ann"}}], "chicago"),
        _log([{"dealer": "Cy", "actions": ["Ann: drop", "Ann: show =99"]}]),
        _log([{"dealer": "Cy", "ending": {"how": "out"}}]),
    ]
    for log in logs:
        _replay(tmp_path, log)
        english = json.loads(capsys.readouterr().out)["error"]["message"]
        _replay(tmp_path, log, "--lang", lang)
        said = json.loads(capsys.readouterr().out)["error"]["message"]
        assert said != english


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
@pytest.mark.parametrize("ending", [
    {"how": "stock_out"}, {"how": "tonk_out"}, {"how": "deal_win"},
    {"how": "drop", "by": "Ann"}, {"how": "stock_out", "counts": {"Ann": 3, "Ben": 9}},
    {"how": "drop", "by": "Ann", "counts": {"Ann": 3}}])
def test_a_told_refusal_names_the_ending_in_the_readers_words(tmp_path, capsys, lang, ending):
    """Issue 35 leftovers: a told hand's refusal said the log's code
    ("une fin par stock_out demande counts"); it says the ending's name in
    the reader's language, as the pages name outcomes."""
    from referee import language
    from referee.rules.ending import ENDING_WORDS

    _replay(tmp_path, _log([{"dealer": "Cy", "ending": ending}]), "--lang", lang)
    said = json.loads(capsys.readouterr().out)["error"]["message"]
    how = ending["how"]
    assert language.gettext(lang, ENDING_WORDS[how]) in said, said
    assert "_" not in how or how not in said, said


def test_the_report_says_a_hand_was_told(tmp_path, capsys):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_log([{"dealer": "Cy", "ending": DROP_ENDING}])))
    assert main(["replay", str(path), "--lang", "de"]) == 0
    assert "Nachgetragen: nur mit ihrem Ausgang erfasst" in capsys.readouterr().out


# ---------------------------------------------------------------- papers and what-if

MIXED = Path(__file__).resolve().parents[1] / "sample_logs" / "told_mixed_night.json"


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_the_settlement_marks_told_hands():
    from referee.reports.settlement import render_settlement

    log = load_log(json.loads(MIXED.read_text()))
    text = _pdf_text(render_settlement(replay(log)))
    assert "† Told by its ending, not logged action by action." in text
    assert re.search(r"^\s*2†", text, re.M) and not re.search(r"^\s*1†", text, re.M)


@pytest.mark.parametrize("lang,words", [("en", "How it ended"), ("de", "Wie sie endete")])
def test_the_audit_of_a_told_hand_explains_it_from_the_ending(lang, words):
    from referee.reports.audit import audit_hand, render_audit

    log = load_log(json.loads(MIXED.read_text()))
    audit = audit_hand(log, 4)
    text = _pdf_text(render_audit(audit, lang=lang))
    assert words in text and "Action by action" not in text
    assert "Ann 3" in text.replace(" ", " ")  # the told counts
    assert audit.result.told and audit.result.settlement.story  # payments in words


def test_what_if_settles_told_hands_again_where_the_facts_allow():
    from referee.reports.whatif import what_if

    log = load_log(json.loads(MIXED.read_text()))
    w = what_if(log, {"caught": "five_to_low", "drop_pays": 1})
    assert not w.unsettled and w.error is None
    w = what_if(log, {"court_values": "11-12-13", "deal_wins": []})
    assert [n for n, _why in w.unsettled] == [4, 6]
    kept = {h.number: h for h in w.hands}
    assert kept[4].new.net == kept[4].old.net
    w = what_if(load_log(_log([{"dealer": "Cy", "ending": {"how": "tonk_out", "by": "Ann"}}])),
                "chicago")
    assert [n for n, _why in w.unsettled] == [1]  # chicago pays by facts not told
    assert "first turn" in str(w.unsettled[0][1])


def test_the_audit_says_a_show_was_a_count():
    from referee.reports.audit import audit_hand, render_audit

    log = load_log(json.loads(MIXED.read_text()))
    counted = next(i for i, h in enumerate(log["hands"], 1)
                   if any(" show =" in a for a in h.get("actions", ())))
    text = " ".join(_pdf_text(render_audit(audit_hand(log, counted), lang="fr")).split())
    assert "Ben montre un compte de 9 montrée par son compte, non par ses cartes" in text


@pytest.mark.parametrize("deck, five", [
    ({"jokers": 0}, (6, 50)),  # A A A A 2; any five tens
    ({"jokers": 2}, (3, 50)),  # two jokers (0) and three aces
    ({"jokers": 4, "court_values": "11-12-13"}, (1, 64)),  # four jokers and an ace; K K K K Q
])
def test_the_count_range_is_that_of_real_cards(deck, five):
    """The least and the most n cards can count are those of n distinct cards
    of the deck: every hand dealt at random lies within, and the bounds are
    those of the hands named above."""
    import random

    from referee.rules.options import resolve
    d = resolve({"preset": "pagat", **deck}).deck_info
    assert d.count_range(5) == five
    rng = random.Random(35)
    cards = sorted(d.cards)
    for _ in range(2000):
        n = rng.randint(1, 7)
        low, high = d.count_range(n)
        assert low <= d.count(rng.sample(cards, n)) <= high


def test_a_dropper_holding_only_jokers_tells_a_count_of_0(tmp_path, capsys):
    # Refused where no card counts 0 (an empty hand drops only under boobed).
    hand = {"dealer": "Ann", "ending": {"how": "drop", "by": "Ben",
                                        "counts": {"Ann": 20, "Ben": 0, "Cy": 30}}}
    status, _ = _replay(tmp_path, _log([hand]))
    assert status != 0 and "count of 0" in capsys.readouterr().out
    status, result = _result(tmp_path, capsys, _log([hand], rules="chicago"))
    assert status == 0 and result["hands"][0]["winners"] == ["Ben"]
