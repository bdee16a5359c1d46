"""What is offered (rules/offers.py) is what verify accepts: the verbs open
are those whose action, with its cards still to pick, verify accepts (or
one of whose listed actions it accepts); the legal actions are the listed
actions it accepts. Nothing here states legality a second time."""

import pytest

from referee.rules.actions import Action
from referee.rules.errors import RefereeError
from referee.rules.legality import TO_PICK, can, verify
from referee.rules.offers import offers

from .test_options import BASE, BY_HITS, RUN_DEAL, hand

UNKNOWN_DEAL = {q: ["??"] * 5 for q in BASE}


def _code(h, action) -> str | None:
    try:
        verify(h, action)
    except RefereeError as err:
        return err.code
    return None


def _to_pick(player: str, verb: str) -> Action:
    return Action(player, verb, TO_PICK, 1 if verb == "hit" else None)


def test_a_verb_is_open_exactly_when_verify_accepts_it_with_its_cards_to_pick():
    h = hand(deal=UNKNOWN_DEAL, actions=["Ben: draw", "Ben: spread Ks Kh Kd"])
    for q in h.players:
        for verb in ("spread", "hit", "discard"):
            assert (verb in h.verbs().get(q, ())) == can(h, _to_pick(q, verb)), (q, verb)
    assert h.verbs() == {"Ben": ["spread", "hit", "discard"]}
    # The referee cannot list cards it does not know: nothing to play is listed.
    assert h.legal_actions() == []
    # Out of turn, the refusal is verify's, whatever cards would be picked.
    assert _code(h, _to_pick("Cy", "discard")) == "out_of_turn"


def test_a_verb_closed_by_a_limit_is_closed_by_verify_s_own_refusal():
    h = hand({"max_hits_per_turn": 1}, deal=RUN_DEAL, actions=BY_HITS[:8])
    assert "hit" in h.verbs()["Ben"]
    h.apply(BY_HITS[8])
    assert "hit" not in h.verbs()["Ben"]
    assert _code(h, _to_pick("Ben", "hit")) == "hit_limit"
    with pytest.raises(RefereeError) as info:
        h.apply("Ben: hit S1 7s")  # the tap's refusal: the same code
    assert info.value.code == "hit_limit"


def test_an_action_with_cards_to_pick_is_judged_up_to_its_cards():
    h = hand()
    # Before the draw: the turn's start is verify's to judge, cards or not.
    assert _code(h, _to_pick("Ben", "spread")) == "must_draw_first"
    h.apply("Ben: draw 8c")
    # Ben's known hand holds one spread: it is listed; the verb is open for any pick.
    assert [str(a) for a in h.legal_actions() if a.verb == "spread"] == ["Ben: spread Ks Kh Kd"]
    assert can(h, _to_pick("Ben", "spread"))
    # No spread on the table: a hit is refused for any pick, as for a listed card.
    assert _code(h, _to_pick("Ben", "hit")) == _code(h, Action("Ben", "hit", ("8c",), 1)) \
        == "no_such_spread"


def test_the_legal_actions_are_the_listed_offers_verify_accepts():
    h = hand(actions=["Ben: draw 8c"])
    listed = [a for offer in offers(h) for a in offer.listed]
    assert h.legal_actions() == [a for a in listed if can(h, a)]
    assert len(h.legal_actions()) < len(listed)  # the generator proposes, verify decides


def test_a_logged_action_without_cards_is_not_one_with_its_cards_to_pick():
    h = hand(actions=["Ben: drop"])
    assert h.verbs() == {q: ["show"] for q in h.players}
    assert can(h, _to_pick("Ann", "show"))
    assert _code(h, Action("Ann", "show", ())) == "wrong_show"
