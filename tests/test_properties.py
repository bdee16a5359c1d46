"""Invariants over random legal games, under every preset: a dealer with a
real deck, players choosing among the referee's own legal_actions()."""

import copy
import json
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.devtools.simulate import Dealer, random_session
from referee.record import dump_log, load_log, parse_log_text, write_log
from referee.replay import replay
from referee.rules.hand import Hand
from referee.rules.options import OPTION_ALLOWED, PRESETS, resolve
from tests.event_logs import with_events

PRESET_NAMES = sorted(PRESETS)
# Every preset gets its own random games (a sampled preset could miss one).
RANDOM_GAMES = settings(max_examples=8, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("preset", PRESET_NAMES)
@RANDOM_GAMES
@given(seed=st.integers(0, 2**32 - 1))
def test_cards_are_conserved_and_offers_accepted(seed, preset):
    rules = resolve(preset)
    rng = random.Random(seed)
    players = ["Ann", "Ben", "Cy", "Dee"][: rng.randint(2, 4)]
    dealer = Dealer(rules, players, rng)
    size = rules.deck_info.size
    for _ in range(2):
        setup, live = dealer.play_hand()
        hand = Hand(rules, players, setup["dealer"], deal=setup["deal"],
                    upcard=setup.get("upcard"), number=live.number)
        for text in setup["actions"]:
            assert hand.card_total() == size
            offered = hand.legal_actions()
            # Every offered action is accepted (tried on a copy).
            for action in rng.sample(offered, min(len(offered), 4)):
                trial = copy.deepcopy(hand)
                trial.apply(action)
                assert trial.card_total() == size
            hand.apply(text)
        assert hand.card_total() == size
        assert hand.is_complete
        # The ending's counts stay current (the ledger settles from them).
        assert hand.ending.counts == hand.counts()
        # A replay of the logged actions equals the live state.
        assert hand.snapshot() == live.snapshot()


@pytest.mark.parametrize("preset", PRESET_NAMES)
@RANDOM_GAMES
@given(seed=st.integers(0, 2**32 - 1))
def test_payments_sum_to_zero_and_replay_of_written_log_agrees(seed, preset):
    log = random_session(seed, rules=preset, hands=3)
    session = replay(log)
    result = session.result()
    if session.rules.scoring == "stakes":
        for h in result.hands:
            assert sum(h.net.values()) == 0
            assert sum(p.stakes for p in h.settlement.payments if p.payer) >= 0
        paid = {p: Decimal(0) for p in result.players}
        for t in result.transfers:
            paid[t.payer] -= t.amount
            paid[t.payee] += t.amount
        assert paid == result.totals
        assert len(result.transfers) <= max(0, sum(1 for v in result.totals.values() if v) - 1)
    else:
        for h in result.hands:
            assert all(v >= 0 for v in h.net.values())
            assert all(h.net[w] == 0 for w in h.winners)
    # Write the log, read it back, replay it: the same result, hand for hand.
    text = json.dumps(dump_log(log))
    again = replay(parse_log_text(text))
    assert again.result().to_json() == result.to_json()
    for live, replayed in zip(session.table.hands, again.table.hands, strict=True):
        assert live.snapshot() == replayed.snapshot()


# Each option's usual values, from the options' own data (deal_wins has none:
# the presets' claim lists are the ones drawn).
OPTION_CHOICES = {name: allowed.standard for name, allowed in OPTION_ALLOWED.items()
                  if allowed.standard}
def _playable(rules: dict) -> dict:
    """A match to a score is for push-ups only (else the rules are malformed)."""
    if rules.get("match_to") is not None:
        rules["scoring"] = "push_ups"
    return rules


mixed_rules = st.fixed_dictionaries(
    {"preset": st.sampled_from(PRESET_NAMES)},
    optional={k: st.sampled_from(v) for k, v in OPTION_CHOICES.items()},
).map(_playable)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=mixed_rules)
def test_random_option_mixes_never_leave_a_player_stuck(seed, rules):
    """Whatever the mix of options, a player choosing only offered actions can
    always finish the hand; and the invariants hold."""
    log = random_session(seed, rules=rules, hands=2)
    session = replay(log)
    result = session.result()
    if session.rules.scoring == "stakes":
        assert all(sum(h.net.values()) == 0 for h in result.hands)
    for hand in session.table.hands:  # the ledger settles from the ending's counts
        assert hand.ending.counts == hand.counts()
    again = replay(parse_log_text(json.dumps(dump_log(log))))
    assert again.result().to_json() == result.to_json()


@pytest.mark.parametrize("preset", PRESET_NAMES)
@RANDOM_GAMES
@given(seed=st.integers(0, 2**32 - 1))
def test_sessions_with_voids_stakes_and_payments_still_balance(seed, preset):
    """Random voids, stake changes and payments: every hand still sums to
    zero, a void hand pays nobody, and the balances are brought forward +
    totals + paid - received (the spec's sign), settled by the transfers."""
    log = with_events(random_session(seed, rules=preset, hands=4), seed)
    session = replay(load_log(log))
    result = session.result()
    voids = [h for h in result.hands if h.outcome == "void"]
    assert len(voids) == sum(1 for h in log["hands"] if "void" in h)
    assert all(set(v.net.values()) == {0} and not v.winners and not v.counts for v in voids)
    assert len(result.hands) == len(log["hands"])
    stakes = session.rules.scoring == "stakes"
    if stakes:
        assert all(sum(h.net.values()) == 0 for h in result.hands)
    expected = {q: Decimal(log["brought_forward"].get(q, 0)) + result.totals[q]
                for q in result.players}
    for p in log["payments"]:
        expected[p["from"]] += Decimal(p["amount"])
        expected[p["to"]] -= Decimal(p["amount"])
    assert result.balances == expected
    assert sum(result.balances.values()) == (0 if stakes else sum(result.totals.values()))
    if stakes:
        owed = dict(result.balances)
        for t in result.transfers:
            owed[t.payer] += t.amount
            owed[t.payee] -= t.amount
        assert set(owed.values()) <= {0}
    # Written and read back, the same result.
    again = replay(parse_log_text(write_log(load_log(log))))
    assert again.result().to_json() == result.to_json()
