"""One table of a hand's action form (tests/form_cases.json) read by the
service (``forms.tap_actions``) and by the tablet's script
(``static/taps.js``, in Chromium), so that the two cannot drift: the same
fields give the same log lines, or the same mistake; each line is said in
every language by the script as the service says it
(``language.action_words``). And the turn goes on as the pages are told
(``rules.phases.turn_after``): the offline preview asks, it does not guess."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from referee import language
from referee.devtools.simulate import Dealer
from referee.rules.actions import parse_action
from referee.rules.cards import UNKNOWN
from referee.rules.options import resolve
from referee.rules.phases import PLAY, START, turn_after
from referee.service.table.history import record
from referee.web import forms
from referee.web.tablet.hand import deck_labels

from .test_browser_tablet import ARGS, CHROMIUM

TABLE = json.loads((Path(__file__).with_name("form_cases.json")).read_text("utf-8"))
SCRIPT = Path(forms.__file__).with_name("static") / "taps.js"
LEGAL = [parse_action(t) for t in TABLE["legal"]]


def _form(fields: dict) -> MultiDict:
    return MultiDict([(k, x) for k, v in fields.items()
                      for x in (v if isinstance(v, list) else [v])])


def _python(app, fields: dict) -> dict:
    with app.test_request_context():
        try:
            actions = forms.tap_actions(_form(fields), TABLE["players"], LEGAL)
        except forms.FormError as err:
            return {"refusal": err.code}
    return {"lines": [str(a) for a in actions]}


@pytest.mark.parametrize("case", TABLE["cases"], ids=lambda c: json.dumps(c["form"]))
def test_the_service_reads_each_form_as_the_table_says(app, case):
    want = {"lines": case["lines"]} if "lines" in case else {"refusal": case["refusal"]}
    assert _python(app, case["form"]) == want


def _page(lang: str) -> dict:
    """What a hand's page hands its script (templates/hand.html's data)."""
    return {"players": TABLE["players"],
            "known": [record(a) for a in LEGAL if a.verb in ("show", "declare")],
            "cards": dict(deck_labels(resolve({"preset": "pagat", "jokers": 2}).deck_info)),
            "unknown": UNKNOWN, "templates": language.action_templates(lang),
            "elision": language.elision(lang)}


def _in_the_script(js: str, arg):
    """What ``js`` (a function of ``arg``) returns in Chromium on a blank page
    with static/taps.js loaded."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.set_content("<!doctype html><html><head></head><body></body></html>")
            page.add_script_tag(content=SCRIPT.read_text("utf-8"))
            return page.evaluate(js, arg)
        finally:
            browser.close()


_RUN = """([cases, pages]) => cases.map((fields) => {
  const form = {get: (k) => (Array.isArray(fields[k]) ? fields[k][0] : fields[k]) ?? null,
                getAll: (k) => (k in fields ? [].concat(fields[k]) : [])};
  const tapped = window.TonkTaps.tapOf(form, pages.en);
  if (tapped.refusal) return {refusal: tapped.refusal};
  return {lines: tapped.actions.map((a) => a.line || window.TonkTaps.lineOf(a)),
          said: Object.fromEntries(Object.entries(pages).map(([lang, page]) =>
            [lang, tapped.actions.map((a) => window.TonkTaps.sayAction(a, page))]))};
})"""


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")
def test_the_tablets_script_reads_and_says_each_form_as_the_service_does(app):
    pages = {lang: _page(lang) for lang in language.LANGUAGES}
    got = _in_the_script(_RUN, [[c["form"] for c in TABLE["cases"]], pages])
    for case, js in zip(TABLE["cases"], got, strict=True):
        python = _python(app, case["form"])
        assert {k: v for k, v in js.items() if k != "said"} == python, case
        for lang in language.LANGUAGES if "lines" in python else ():
            said = [language.action_words(t, lang) for t in python["lines"]]
            assert js["said"][lang] == said, (case, lang)


@pytest.mark.parametrize("hit_passes", [False, True])
def test_the_turn_goes_on_as_the_pages_are_told(hit_passes):
    """Every action of the player to act that leaves the play going leaves the
    turn where ``turn_after`` says: still theirs (``play``) or the next
    seat's to start (``pass``)."""
    rules = resolve({"preset": "pagat", "hit_replaces_discard": hit_passes})
    after = turn_after(rules.hit_replaces_discard)
    seen = set()
    for seed in range(12):
        dealer = Dealer(rules, ["Ann", "Ben", "Cy", "Dev"], random.Random(seed))
        deck = sorted(rules.deck_info.cards)
        random.Random(seed).shuffle(deck)
        deal = {p: [deck.pop() for _ in range(rules.hand_size)] for p in dealer.players}
        hand = dealer.table.start_hand("Ann", deal=deal, upcard=deck.pop())
        while not hand.is_complete:
            before, phase = hand.to_act, hand.phase
            action = dealer.choose(hand, deck)
            hand.apply(action)
            if phase not in (START, PLAY) or action.player != before or \
                    action.verb not in after or hand.phase not in (START, PLAY):
                continue
            seen.add((action.verb, after[action.verb]))
            players = hand.players
            if after[action.verb] == "play":
                assert (hand.to_act, hand.phase) == (before, PLAY), action
            else:
                nxt = players[(players.index(before) + 1) % len(players)]
                assert (hand.to_act, hand.phase) == (nxt, START), action
    assert {verb for verb, _ in seen} >= {"draw", "discard", "hit"}


# Sentences with a name or a card where French joins "de" and "que" to a
# vowel's sound (newcomer 43's N7: "Téléphone de Ömer"), and the values put in.
ELIDED = ["{name}'s phone", "Waiting for {name}.", "{player} discards {cards}",
          "waiting for {players} to show"]
VALUES = ["Ömer", "Anna", "Zoë", "Hélène", "Yves", "Yann", "Œdipe", "Ève", "ulla", "8♣",
          "A♠", "<b>Ina</b>"]


def test_french_joins_de_and_que_to_a_vowel_s_sound():
    fr = {v: language.gettext("fr", "{name}'s phone", name=v) for v in VALUES}
    assert fr["Ömer"] == "Téléphone d'Ömer" and fr["Zoë"] == "Téléphone de Zoë"
    assert [v for v in VALUES if "d'" in fr[v]] == [
        "Ömer", "Anna", "Hélène", "Yves", "Œdipe", "Ève", "ulla", "A♠", "<b>Ina</b>"]
    assert language.gettext("fr", "Waiting for {name}.", name="Ömer") == "En attente d'Ömer."
    assert language.gettext("fr", "waiting for {players} to show", players="Anna") == \
        "attend qu'Anna montrent leurs cartes"
    assert language.gettext("de", "{name}'s phone", name="Ömer") == "Telefon von Ömer"
    assert language.elision("de") is None


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")
def test_the_tablets_script_joins_words_as_the_service_does():
    """static/taps.js's ``fill`` (the offline queue's sentences) makes the
    elisions ``language.fill`` makes, from ``language.elision``'s statement."""
    cases = [(lang, template, value) for lang in language.LANGUAGES for template in ELIDED
             for value in VALUES]
    said = [[language.translations(lang).gettext(t), language.elision(lang), value]
            for lang, t, value in cases]
    got = _in_the_script("""(said) => said.map(([t, elision, v]) => window.TonkTaps.fill(
        t, {name: v, player: v, cards: v, players: v}, elision))""", said)
    for (lang, template, value), js in zip(cases, got, strict=True):
        want = language.gettext(lang, template, name=value, player=value, cards=value,
                                players=value)
        assert js == want, (lang, template, value)
