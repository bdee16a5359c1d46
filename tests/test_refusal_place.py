"""A refusal's place ("hand 3, action 5 (Ben: discard 9c)") and sentence are
said the same way by every reader of it: the result format and the stored
answers (``RefereeError.message``), the pages and the API
(``language.message``), a stored answer said again, the command line
(``commands.errors.fail``) and verify's words (``service.trust``), in every
language. Each case below is one refusal, with and without its hand, action
and action's text, and with a sentence that names its own hand; its expected
words are written out, so a second way of saying the place that drifts
from the first fails here."""

from __future__ import annotations

import json

import pytest

from referee import language
from referee.commands.errors import fail
from referee.rules.errors import RefereeError
from referee.rules.words import N_
from referee.service import storage, trust
from referee.service.errors import Refused

from .test_trust import played

TURN = N_("it is {turn}'s turn, not {player}'s")
HOLD = N_("{player} does not hold {card} (their hand is {held})")
NAMED = N_("hand {n} has no dispute {number}")
OVER = N_("this hand is over: hand {hands} has started")

# (case, template, params, hand, action, action's text,
#  the result format's English (the log's notation), then as each language reads it)
# French sets the place's colon apart by a no-break space, as it does every colon.
CASES = [
    ("hand, action and its text", HOLD, {"player": "Ben", "card": "9c", "held": "7d Qs"},
     3, 5, "Ben: discard 9c",
     "hand 3, action 5 (Ben: discard 9c): Ben does not hold 9c (their hand is 7d Qs)",
     {"en": "hand 3, action 5 (Ben: discard 9♣): Ben does not hold 9♣ (their hand is 7♦ Q♠)",
      "de": "Hand 3, Zug 5 (Ben wirft 9♣ ab): Ben hat 9♣ nicht (die Hand ist 7♦ Q♠)",
      "fr": "main 3, action 5 (Ben se défausse de 9♣) : Ben n'a pas 9♣ (sa main est 7♦ Q♠)",
      "pt": "mão 3, jogada 5 (Ben descarta 9♣): Ben não tem 9♣ (a mão é 7♦ Q♠)"}),
    ("hand and action", TURN, {"turn": "Ann", "player": "Ben"}, 3, 5, None,
     "hand 3, action 5: it is Ann's turn, not Ben's",
     {"en": "hand 3, action 5: it is Ann's turn, not Ben's",
      "de": "Hand 3, Zug 5: Ann ist an der Reihe, nicht Ben",
      "fr": "main 3, action 5 : c'est le tour d'Ann, pas de Ben",
      "pt": "mão 3, jogada 5: é a vez de Ann, não de Ben"}),
    ("hand and the action's text", TURN, {"turn": "Ann", "player": "Ben"}, 3, None,
     "Ben: drop",
     "hand 3 (Ben: drop): it is Ann's turn, not Ben's",
     {"en": "hand 3 (Ben: drop): it is Ann's turn, not Ben's",
      "de": "Hand 3 (Ben legt hin): Ann ist an der Reihe, nicht Ben",
      "fr": "main 3 (Ben tombe) : c'est le tour d'Ann, pas de Ben",
      "pt": "mão 3 (Ben cai): é a vez de Ann, não de Ben"}),
    ("action and its text", TURN, {"turn": "Ann", "player": "Ben"}, None, 5, "Ben: drop",
     "action 5 (Ben: drop): it is Ann's turn, not Ben's",
     {"en": "action 5 (Ben: drop): it is Ann's turn, not Ben's",
      "de": "Zug 5 (Ben legt hin): Ann ist an der Reihe, nicht Ben",
      "fr": "action 5 (Ben tombe) : c'est le tour d'Ann, pas de Ben",
      "pt": "jogada 5 (Ben cai): é a vez de Ann, não de Ben"}),
    ("hand", OVER, {"hands": 4}, 3, None, None,
     "hand 3: this hand is over: hand 4 has started",
     {"en": "hand 3: this hand is over: hand 4 has started",
      "de": "Hand 3: diese Hand ist vorbei: Hand 4 hat begonnen",
      "fr": "main 3 : cette main est finie\xa0: la main 4 a commencé",
      "pt": "mão 3: esta mão terminou: a mão 4 começou"}),
    ("action", TURN, {"turn": "Ann", "player": "Ben"}, None, 5, None,
     "action 5: it is Ann's turn, not Ben's",
     {"en": "action 5: it is Ann's turn, not Ben's",
      "de": "Zug 5: Ann ist an der Reihe, nicht Ben",
      "fr": "action 5 : c'est le tour d'Ann, pas de Ben",
      "pt": "jogada 5: é a vez de Ann, não de Ben"}),
    ("the action's text", HOLD, {"player": "Ben", "card": "Th", "held": "7d"}, None, None,
     "Ben: hit S1 Th",
     "(Ben: hit S1 Th): Ben does not hold Th (their hand is 7d)",
     {"en": "(Ben: hit S1 10♥): Ben does not hold 10♥ (their hand is 7♦)",
      "de": "(Ben legt 10♥ an S1 an): Ben hat 10♥ nicht (die Hand ist 7♦)",
      "fr": "(Ben ajoute 10♥ à S1) : Ben n'a pas 10♥ (sa main est 7♦)",
      "pt": "(Ben acerta em S1 com 10♥): Ben não tem 10♥ (a mão é 7♦)"}),
    ("no place", TURN, {"turn": "Ann", "player": "Ben"}, None, None, None,
     "it is Ann's turn, not Ben's",
     {"en": "it is Ann's turn, not Ben's",
      "de": "Ann ist an der Reihe, nicht Ben",
      "fr": "c'est le tour d'Ann, pas de Ben",
      "pt": "é a vez de Ann, não de Ben"}),
    ("a sentence naming its hand", NAMED, {"n": 3, "number": 2}, 3, None, None,
     "hand 3 has no dispute 2",
     {"en": "hand 3 has no dispute 2",
      "de": "Hand 3 hat keinen Einspruch 2",
      "fr": "la main 3 n'a pas de contestation 2",
      "pt": "a mão 3 não tem contestação 2"}),
    ("a sentence naming its hand, an action and its text", NAMED, {"n": 3, "number": 2},
     3, 4, "Ben: hit S1",
     "action 4 (Ben: hit S1): hand 3 has no dispute 2",
     {"en": "action 4 (Ben: hit S1): hand 3 has no dispute 2",
      "de": "Zug 4 (Ben legt an S1 an): Hand 3 hat keinen Einspruch 2",
      "fr": "action 4 (Ben ajoute à S1) : la main 3 n'a pas de contestation 2",
      "pt": "jogada 4 (Ben acerta em S1): a mão 3 não tem contestação 2"}),
    ("a sentence naming another hand", NAMED, {"n": 2, "number": 1}, 3, 4, None,
     "hand 3, action 4: hand 2 has no dispute 1",
     {"en": "hand 3, action 4: hand 2 has no dispute 1",
      "de": "Hand 3, Zug 4: Hand 2 hat keinen Einspruch 1",
      "fr": "main 3, action 4 : la main 2 n'a pas de contestation 1",
      "pt": "mão 3, jogada 4: a mão 2 não tem contestação 1"}),
]
IDS = [case[0] for case in CASES]


def _refusal(case) -> RefereeError:
    _name, template, params, hand, action, text, _message, _said = case
    return RefereeError("some_code", template, params, hand=hand, action=action,
                        action_text=text)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_result_format_says_a_refusal_as_it_always_has(case, capsys):
    err, message = _refusal(case), case[6]
    assert err.message == str(err) == err.to_dict()["message"] == message
    stored = Refused.from_dict(json.loads(json.dumps(Refused.of(err).to_stored())))
    assert stored.message == message
    fail(err, as_json=True)
    assert json.loads(capsys.readouterr().out)["error"]["message"] == message


@pytest.mark.parametrize("lang", language.LANGUAGES)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_pages_the_api_and_the_command_line_say_a_refusal_alike(case, lang, capsys):
    err, said = _refusal(case), case[7][lang]
    assert language.message(err, lang) == said
    stored = Refused.from_dict(json.loads(json.dumps(Refused.of(err).to_stored())))
    assert language.message(stored, lang) == said
    fail(err, lang=lang)
    assert capsys.readouterr().err.rstrip("\n").endswith(f"[some_code]: {said}")


def test_verify_says_a_log_that_does_not_replay_as_the_pages_say_its_refusal(
        app, client, monkeypatch):
    """Verify's words for a chain whose log a replay refuses: its refusal as
    every other reader says it, in every language."""
    g = played(client, hands=1, undo=False)
    db = storage.connect(app.config["DATABASE"])
    for case in CASES:
        err = _refusal(case)

        def refuse(*_args, _err=err, **_kw):
            raise _err
        monkeypatch.setattr(trust, "replay", refuse)
        faults = trust.verify_session(db, g.sid)
        assert len(faults) == 1, [str(f) for f in faults]
        assert str(faults[0]) == f"the chain's log does not replay: {case[6]}"
        for lang in language.LANGUAGES:
            assert language.say(faults[0], lang) == language.gettext(
                lang, N_("the chain's log does not replay: {error}"), error=case[7][lang]), \
                (case[0], lang)
