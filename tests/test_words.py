"""The referee's own words in every language: refusals, shape and service
errors, payment stories. The engine states English templates with named
parameters; the shells say them in the reader's language, the code the same
in every language and the English exactly as it always was."""

from __future__ import annotations

import json
import pickle
import re
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee import language
from referee.cli import main
from referee.devtools import catalogs
from referee.record import load_log, read_log_file
from referee.replay import replay
from referee.rules.cards import message_shown
from referee.rules.errors import MalformedInput, RefereeError, RuleViolation
from referee.rules.options import HouseRules
from referee.rules.table import Table
from referee.rules.words import (
    COUNTED,
    Names,
    Phrases,
    Words,
    params_from_plain,
    params_to_plain,
)
from referee.service.errors import Refused
from referee.service.table import hands
from referee.web.db import get_db

from .samples import cover

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
LOGS = sorted(p for p in SAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def _expected(log: Path) -> dict:
    return json.loads(log.with_suffix(".expected.json").read_text())


REFUSED = [p for p in LOGS if "error" in _expected(p)]
SETTLED = [p for p in LOGS if "error" not in _expected(p)]
OTHERS = [lang for lang in language.LANGUAGES if lang != language.DEFAULT]

with (language.TRANSLATIONS / "messages.pot").open("rb") as _f:
    TEMPLATES = sorted(m.id for m in read_po(_f) if m.id and isinstance(m.id, str))
# A counted sentence's forms are the engine's templates too (rules.words.Np_;
# tests/test_plurals.py: each is a plural entry of the catalogs).
TEMPLATES = sorted({*TEMPLATES, *COUNTED})
_PLACEHOLDER = re.compile(r"\{([a-z_0-9]+)\}")


def _refusal(log: Path) -> RefereeError:
    try:
        replay(read_log_file(str(log)))
    except RefereeError as err:
        return err
    raise AssertionError(f"{log.name} replays without a refusal")


def _templates(words) -> set[str]:
    """Every template in ``words`` and the phrases inside it."""
    if isinstance(words, Words):
        found = {words.template}
        for value in words.params.values():
            found |= _templates(value)
        return found
    if isinstance(words, (Names, Phrases)):
        return set().union(*map(_templates, words)) if words else set()
    return set()


# ------------------------------------------------------------------ the catalogs

def test_the_catalogs_are_complete():
    """Every marked sentence is translated in every language, nothing fuzzy,
    every placeholder kept."""
    assert catalogs.check() == []


@pytest.mark.parametrize("lang", OTHERS)
def test_every_template_says_its_parameters_in_every_language(lang):
    # One test per language over the whole template set (a test per template
    # and language was half of the suite's collected tests); each fault named.
    faults = []
    for template in TEMPLATES:
        names = set(_PLACEHOLDER.findall(template))
        params = {name: f"<{name}>" for name in names}
        said = language.gettext(lang, template, **params)
        english = language.gettext("en", template, **params)
        # A plural may leave out its count.
        faults += [(template, said, name) for name in names - {"n"} if f"<{name}>" not in said]
        # No placeholder left over (a template's own braces, like a JSON example, stay).
        if said.count("{") != english.count("{") or said.count("}") != english.count("}"):
            faults.append((template, said, "braces"))
    assert faults == []


# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("log", REFUSED, ids=lambda p: p.stem)
def test_every_sample_refusal_is_worded_in_every_language(log):
    err = _refusal(log)
    assert err.template in TEMPLATES or not err.params, err.template
    # English is the message as it always was, its cards as the pages write
    # them (newcomer N2); the result format keeps the log's notation.
    assert language.message(err, "en") == message_shown(err)
    assert message_shown(err) == err.message or _NOTATION.search(err.message)
    assert _expected(log)["error"]["code"] == err.code
    for lang in OTHERS:
        said = language.message(err, lang)
        assert said != err.message, (lang, said)
        # No placeholder left unfilled (a message may quote JSON's braces).
        assert not re.search(r"\{\w+\}", said.replace(err.action_text or "", "")), said
    for template in _templates(Words(err.template, **err.params)):
        assert template in TEMPLATES or template == err.template and not err.params, template


def test_an_error_crosses_processes_with_its_words():
    err = _refusal(SAMPLES / "err_card_not_in_hand.json")
    again = pickle.loads(pickle.dumps(err))
    assert (again.code, again.template, again.params, again.message) == \
        (err.code, err.template, err.params, err.message)
    assert language.message(again, "de") == language.message(err, "de")


def test_a_stored_refusal_is_said_again_in_any_language():
    err = _refusal(SAMPLES / "err_duplicate_card.json")
    stored = json.loads(json.dumps(Refused.of(err).to_stored()))
    again = Refused.from_dict(stored)
    assert again.to_dict() == err.to_dict()
    for lang in language.LANGUAGES:
        assert language.message(again, lang) == language.message(err, lang)


_NOTATION = re.compile(r"(?<![\w'])(?:[2-9TJQKA]|10)[cdhs](?![\w'])")


def test_a_refusal_names_its_cards_as_the_pages_do_in_every_language():
    """Newcomer N2: "Q♦ an S1 — Qd passt nicht an S1 (8c 8d 8h)". Every
    sample refusal names its cards as Q♦ in every language, also read back
    from a refusal stored before (its parameters plain text). (A line that
    cannot be read is quoted as it was written.)"""
    carded = [err for err in map(_refusal, REFUSED) if _NOTATION.search(err.message)
              and not isinstance(err, MalformedInput)]
    assert len(carded) > 10
    for err in carded:
        stored = Refused.from_dict(json.loads(json.dumps(Refused.of(err).to_stored())))
        for lang in language.LANGUAGES:
            for said in (language.message(err, lang), language.message(stored, lang)):
                assert not _NOTATION.search(said), (lang, said)
        assert not _NOTATION.search(message_shown(err)), message_shown(err)
    err = next(e for e in carded if e.code == "illegal_hit")
    assert "Q♦" in language.message(RuleViolation(
        err.code, err.template, {**err.params, "card": "Qd"}), "de")


def test_a_refusal_stored_in_english_only_stays_english():
    """Answers stored before refusals kept their template: one message for all."""
    old = {"code": "out_of_turn", "message": "hand 1, action 2 (Ben: drop): it is Ann's turn, "
           "not Ben's", "hand": 1, "action": 2}
    again = Refused.from_dict(old)
    assert again.to_dict() == old
    assert language.message(again, "fr") == old["message"]


@pytest.mark.parametrize("seats", [["Ann", "Ben", "Cy:x"], ["Ann", "Ben", "Аnn"]],
                         ids=["a bad name", "names taken for each other"])
def test_a_refused_seating_is_worded_in_every_language(seats):
    # The seating's refusals carried their sentence as the template itself
    # (a Words, not a catalog's msgid): every language got the English.
    with pytest.raises(RuleViolation) as caught:
        Table(HouseRules(), ["Ann", "Ben"]).start_hand("Ann", players=seats)
    err = caught.value
    assert err.code == "bad_seating" and err.template in TEMPLATES
    assert language.sentence(err, "en") == err.sentence
    for lang in OTHERS:
        said = language.sentence(err, lang)
        assert said != err.sentence and "{" not in said, (lang, said)

def test_parameters_survive_json():
    params = {"player": "Ann", "stakes": Words("{n} stakes", n=Decimal("2.5")),
              "who": Names(["Ann", Words("{player} has {count}", player="Ben", count=3)]),
              "rest": Phrases([Words("; {player} has {count}", player="Cy", count=9)]),
              "count": 7}
    back = params_from_plain(json.loads(json.dumps(params_to_plain(params))))
    assert back == params
    assert language.gettext("de", "{who}: {stakes}", **back) == "Ann und Ben hat 3: 2,5 Einsätze"


# ------------------------------------------------------------------ the command line

def test_replay_in_portuguese_keeps_the_code_and_the_exit_status(capsys):
    log = SAMPLES / "err_out_of_turn.json"
    expected = _expected(log)
    status = main(["replay", str(log), "--lang", "pt"])
    words = capsys.readouterr().err
    assert status == expected["exit_status"]
    assert words.startswith(f"regra violada [{expected['error']['code']}]: mão 2, jogada 3")
    assert "é a vez de Ann, não de Ben" in words
    status = main(["replay", str(log), "--json", "--lang", "pt"])
    out = json.loads(capsys.readouterr().out)["error"]
    assert status == expected["exit_status"]
    assert {k: out[k] for k in ("hand", "action", "code")} == \
        {k: expected["error"][k] for k in ("hand", "action", "code")}
    assert out["message"] == "mão 2, jogada 3 (Ben compra 9♦): é a vez de Ann, não de Ben"


def test_replay_speaks_the_logs_language_unless_told(tmp_path, capsys):
    doc = json.loads((SAMPLES / "err_out_of_turn.json").read_text())
    doc["language"] = "de"
    path = tmp_path / "de.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == ("Regel verletzt [out_of_turn]: Hand 2, Zug 3 "
                                       "(Ben zieht 9♦): Ann ist an der Reihe, nicht Ben\n")
    assert main(["replay", str(path), "--lang", "en"]) == 1
    assert "it is Ann's turn, not Ben's" in capsys.readouterr().err
    # A log refused for its shape is still read for its language.
    doc["hands"][0]["dealer"] = 7
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.startswith("fehlerhaftes Protokoll [malformed_log]: ")


# ------------------------------------------------------------------ payment stories

STORY_WORDS = {
    "drop_won": "tombe avec",  # no participle to agree with the player (newcomer N20)
    "caught": "se fait donc attraper (règle de capture",
    "tonk_out": "tonk, chaque autre joueur paie",
    "out": "sortie, chaque autre joueur paie",
    "stock_out": "La pioche est épuisée",
    "deal_win": "a reçu",
}


# The settled samples that between them have every feature (tests/samples.py):
# a story's sentences follow from the outcomes, options and events a log has.
@pytest.mark.parametrize("log", sorted(cover(tuple(SETTLED))), ids=lambda p: p.stem)
def test_every_payment_story_is_said_in_every_language(log):
    session = replay(load_log(json.loads(log.read_text())))
    for h in session.result().hands:
        if h.settlement is None:
            continue
        words = h.settlement.words
        # English is the story as it always was.
        assert [language.say(w, "en") for w in words] == h.settlement.story
        for w in words:
            assert _templates(w) <= set(TEMPLATES), _templates(w) - set(TEMPLATES)
            for lang in OTHERS:
                said = language.say(w, lang)
                assert "{" not in said and said != str(w), said


@pytest.mark.parametrize("outcome", sorted(STORY_WORDS))
def test_the_payment_story_in_french(outcome):
    log = next(p for p in SETTLED
               if any(h["outcome"] == outcome for h in _expected(p).get("hands", [])))
    session = replay(load_log(json.loads(log.read_text())))
    hand = next(h for h in session.result().hands if h.outcome == outcome)
    story = " ".join(language.say(w, "fr") for w in hand.settlement.words)
    assert STORY_WORDS[outcome] in story, story


def test_stakes_and_names_in_the_readers_forms():
    w = Words("{payer} pays {stakes} to each of {payees}.", payer="Ann",
              stakes=Words("{n} stakes", n=Decimal("1.5")), payees=Names(["Ben", "Cy", "Di"]))
    assert str(w) == "Ann pays 1.5 stakes to each of Ben, Cy and Di."
    assert language.say(w, "de") == "Ann zahlt 1,5 Einsätze an jeden von Ben, Cy und Di."
    # French counts 1,5 as one (words46: "1,5 mise"), the engine's stakes too
    assert language.say(w, "fr") == "Ann paie 1,5 mise à chacun de Ben, Cy et Di."
    assert language.say(w, "pt") == "Ann paga 1,5 apostas a cada um de Ben, Cy e Di."


# ------------------------------------------------------------------ the API

def _game(client):
    from tests.test_api import Game

    g = Game(client)
    state = g.start()
    return g, next(p for p in ("Ann", "Ben", "Cy") if p != state["to_act"]), state["to_act"]


def test_a_refusal_through_the_api_in_german(client):
    g, wrong, to_act = _game(client)
    english = g.post(f"{wrong}: drop", client_id="x").get_json()["error"]
    r = g.client.post(g.url(f"/hands/{g.n}/actions"),
                      json={"action": f"{wrong}: drop", "client_id": "y", "expected_seq": 0},
                      headers={"Authorization": f"Bearer {g.table}", "Accept-Language": "de"})
    assert r.status_code == 422
    german = r.get_json()["error"]
    assert german["code"] == english["code"] == "out_of_turn"
    assert (german["hand"], german["action"]) == (english["hand"], english["action"])
    assert german["message"] == f"Hand 1, Zug 1 ({wrong} legt hin): {to_act} ist an der Reihe, " \
                                f"nicht {wrong}"


def test_a_retried_refusal_answers_in_the_retrys_language(client):
    g, wrong, to_act = _game(client)
    first = g.post(f"{wrong}: drop", client_id="same").get_json()["error"]
    assert "turn" in first["message"]
    g.play(1)  # the rules have moved on; the answer to "same" has not
    r = g.client.post(g.url(f"/hands/{g.n}/actions?lang=fr"),
                      json={"action": f"{wrong}: drop", "client_id": "same", "expected_seq": 0},
                      headers={"Authorization": f"Bearer {g.table}"})
    again = r.get_json()["error"]
    assert r.status_code == 422 and again["code"] == first["code"]
    # French joins "de" to a name that starts with a vowel (newcomer 43's N7).
    de = {name: "d'" if name[0] in "AEIOU" else "de " for name in (to_act, wrong)}
    assert again["message"] == f"main 1, action 1 ({wrong} tombe)\u00a0: c'est le tour " \
                               f"{de[to_act]}{to_act}, pas {de[wrong]}{wrong}"


def test_api_errors_before_the_service_in_the_readers_language(client):
    r = client.post("/api/sessions", data="[]", content_type="application/json",
                    headers={"Accept-Language": "pt-BR,pt;q=0.9"})
    body = r.get_json()["error"]
    assert r.status_code == 400 and body["code"] == "bad_request"
    assert body["message"] == "o corpo deve ser um objeto JSON, não uma lista"  # its header right


def test_a_settled_hand_is_told_in_the_readers_language(app, client):
    g, _, _ = _game(client)
    g.finish_hand()
    url = g.url(f"/hands/{g.n}")
    auth = {"Authorization": f"Bearer {g.audit}"}
    english = client.get(url, headers=auth).get_json()["result"]
    french = client.get(url + "?lang=fr", headers=auth).get_json()["result"]
    assert "story_words" not in english and "story_words" not in french
    assert len(french["story"]) == len(english["story"]) > 0
    assert french["story"] != english["story"]
    assert {k: v for k, v in french.items() if k != "story"} == \
        {k: v for k, v in english.items() if k != "story"}
    with app.app_context():
        stored = hands.hand_state(get_db(), g.sid, g.n)["result"]
    assert english["story"] == stored["story"]
    assert french["story"] == language.story(stored, "fr")


def test_a_body_that_is_not_json_in_french(client):
    r = client.post("/api/sessions", data="{", content_type="application/json",
                    headers={"Accept-Language": "fr-CH, fr;q=0.9"})
    body = r.get_json()["error"]
    assert r.status_code == 400 and body["code"] == "bad_request"
    assert body["message"].startswith("le corps de la requête n'est pas du JSON valide\xa0: ")
