"""Counts agree with their words in every language: "1 session checked",
"-1 point", "wait 1 second", each said with the language's plural rule
(babel's plural forms of its catalog: French "0 mise", "1 point").

The catalogs are scanned so that a number said before a plural noun in a
plain sentence (``_()``/``N_()`` without its plural) does not come back; the
few sentences whose number is never 1 are listed with the reason."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from babel.messages.pofile import read_po

from referee import language
from referee.language import TRANSLATIONS
from referee.rules.words import COUNTED, Words, from_plain, plural_count, to_plain

# A placeholder, then (after a word such as "decimal") a noun in the plural;
# not a name's ("{player} disputes": a verb).
NOUNS = ("actions", "bets", "cards", "characters", "days", "debts", "digits", "disputes",
         "events", "faults", "hands", "hours", "items", "minutes", "payments", "places",
         "players", "points", "seconds", "sessions", "stakes", "tables", "times")
NAMED = "player|name|payer|payee|dealer|winner"
COUNT_BEFORE_NOUN = re.compile(r"\{(?!(?:" + NAMED + r")\})\w+\} "
                               r"(?:(?:decimal|earlier|later|more|other) )?"
                               r"(?:" + "|".join(NOUNS) + r")\b")

#: The plain sentences that say a number before a plural noun and are right
#: to: the number is never 1 (the test below checks each reason that is a
#: constant).
NEVER_ONE = {
    "{n} players cannot be dealt {size} cards each from a {deck}-card deck":
        "said for more players than a deck deals (at least 6); a hand is 5, 7 or 9 cards",
    "players: at most {most} players can be dealt {size} cards each from a {deck}-card "
    "deck, not {players}":
        "a deck deals at least 5 players; a hand is 5, 7 or 9 cards",
    "{player} cannot sit down: at most {most} players can be dealt at this table":
        "a deck deals at least 5 players",
    "it was told with {old} cards a hand, and these rules deal {new}":
        "a hand is 5, 7 or 9 cards",
    "an amount has at most {places} decimal places, not {amount}":
        "places is STAKE_PLACES, 4",
    'at most {places} decimal places, not "{value}"': "places is STAKE_PLACES, 4",
    "a number greater than 0 and at most {most}, with at most {places} decimal places":
        "places is PAYS_PLACES, 4",
    "at most {most} items, not {length}": "most is MAX_PLAYERS (11)",
    "{lo} to {hi} cards": "a range: its upper end is more than one (0 to 1 cards)",
    "{what} has {low} to {high} characters, not {length}": "a range (1 to 40 characters)",
    "{field}: one line of 1 to {longest} characters": "a range from 1 (1 to 200 characters)",
}


def _catalogs():
    yield "messages.pot", TRANSLATIONS / "messages.pot"
    for lang in language.LANGUAGES[1:]:
        yield lang, TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


@pytest.mark.parametrize("name,path", list(_catalogs()), ids=lambda v: str(v)[-20:])
def test_no_number_before_a_plural_noun_is_said_without_its_plural(name, path):
    with path.open("rb") as f:
        plain = [m.id for m in read_po(f) if m.id and isinstance(m.id, str)]
    said = [msgid for msgid in plain
            if COUNT_BEFORE_NOUN.search(msgid) and msgid not in NEVER_ONE]
    assert not said, f"{name}: say these with ngettext (or Np_ in the engine): {said}"


def test_the_exceptions_are_still_sentences_and_their_reasons_hold():
    from referee.ledger.money import STAKE_PLACES
    from referee.rules.allowed import PAYS_PLACES
    from referee.rules.options import MAX_PLAYERS, OPTION_ALLOWED, HouseRules

    with (TRANSLATIONS / "messages.pot").open("rb") as f:
        plain = {m.id for m in read_po(f) if isinstance(m.id, str)}
    assert set(NEVER_ONE) <= plain, set(NEVER_ONE) - plain  # a stale exception goes
    sizes = OPTION_ALLOWED["hand_size"].values
    assert min(sizes) > 1 and STAKE_PLACES > 1 and PAYS_PLACES > 1 and MAX_PLAYERS > 1
    assert all(HouseRules(hand_size=size).max_players >= 5 for size in sizes)


def test_every_counted_sentence_is_a_plural_entry_of_the_catalogs():
    """``Np_``'s forms are found by the catalog tool as one plural entry (a
    missing keyword would leave them out, and the reader English)."""
    import importlib

    for module in ("commands.service", "record.chain", "replay.audit", "reports.whatif",
                   "rules.actions", "rules.catches", "rules.hand", "rules.legality",
                   "service.access", "service.table.writes", "web.refusals"):
        importlib.import_module(f"referee.{module}")
    with (TRANSLATIONS / "messages.pot").open("rb") as f:
        plural = {m.id for m in read_po(f) if isinstance(m.id, tuple)}
    pairs = {(c.singular, c.plural) for c in COUNTED.values()}
    assert len(pairs) >= 18 and pairs <= plural, pairs - plural


def test_englishs_pick_is_asked_the_size_of_a_whole_amount():
    assert [plural_count(n) for n in (1, -1, 0, 2, -2, "1.00", Decimal("-1"), "7")] == \
        [1, 1, 0, 2, 2, 1, 1, 7]
    # English: a fraction is many; what is no number is said all the same
    assert plural_count(Decimal("0.5")) == 2 and plural_count("x") == 2
    assert [language.plural_count("en", n) for n in ("x", "Infinity", "-1")] == [2, 2, 1]


def test_the_engines_fractions_follow_the_readers_rule():
    from referee.rules.catches import plural

    said = {lang: language.say(plural(Decimal("0.5")), lang) for lang in ("en", "fr", "de")}
    assert said == {"en": "0.5 stakes", "fr": "0,5 mise", "de": "0,5 Einsätze"}


# ------------------------------------------------------------------ points

@pytest.mark.parametrize("lang,minus_one,one,zero,two", [
    ("en", "-1 point", "1 point", "0 points", "2 points"),
    ("de", "-1 Punkt", "1 Punkt", "0 Punkte", "2 Punkte"),
    ("fr", "-1 point", "1 point", "0 point", "2 points"),
    ("pt", "-1 ponto", "1 ponto", "0 pontos", "2 pontos"),
])
def test_points_agree_with_their_number(lang, minus_one, one, zero, two):
    said = [language.in_unit(Decimal(n), None, lang) for n in (-1, 1, 0, 2)]
    assert said == [minus_one, one, zero, two]


def test_a_push_up_tables_scores_agree_on_the_pages(app):
    page = app.jinja_env.from_string(
        '{% from "_macros.html" import stake_words %}{{ stake_words(v, none) }}|'
        '{{ v|money(none) }}|{{ ngettext("{n} stake", "{n} stakes", v, n=v|num) }}')
    said = {}
    for lang in ("en", "de"):
        with app.test_request_context(f"/?lang={lang}"):
            app.preprocess_request()
            said[lang] = [page.render(v=v) for v in ("-1", "1", "2")]
    assert said["en"] == ["-1 point|-1 point|-1 stake", "1 point|1 point|1 stake",
                          "2 points|2 points|2 stakes"]
    assert said["de"] == ["-1 Punkt|-1 Punkt|-1 Einsatz", "1 Punkt|1 Punkt|1 Einsatz",
                          "2 Punkte|2 Punkte|2 Einsätze"]


# ------------------------------------------------------------------ the engine's counts

def test_a_counted_sentence_follows_the_readers_rule_not_englishs():
    from referee.rules.catches import plural

    assert [str(plural(Decimal(n))) for n in (1, 2)] == ["1 stake", "2 stakes"]
    assert [language.say(plural(Decimal(n)), "de") for n in (1, 2)] == \
        ["1 Einsatz", "2 Einsätze"]
    # a sentence stored with English's pick ("0 stakes") is said in French's
    # rule, where 0 is singular; stored words keep their English template
    stored = from_plain(to_plain(Words("{n} stakes", n=Decimal(0))))
    assert language.say(stored, "fr") == "0 mise"
    assert language.say(stored, "en") == "0 stakes"
    assert {"{n} stake", "{n} stakes"} <= set(COUNTED)


def _refused(action: str):
    from referee.rules.actions import parse_action
    from referee.rules.errors import RefereeError

    with pytest.raises(RefereeError) as caught:
        parse_action(action)
    return caught.value


@pytest.mark.parametrize("lang,said", [
    ("en", "declare takes at least 1 card, in 'Ben: declare'"),
    ("pt", "pelo menos 1 carta"),
])
def test_a_declare_without_cards_asks_for_at_least_one_card(lang, said):
    refused = _refused("Ben: declare")
    assert said in language.gettext(lang, refused.template, **refused.params)


@pytest.mark.parametrize("lang,one,two", [
    ("en", "Too many refused actions: wait 1 second.",
     "Too many refused actions: wait 2 seconds."),
    ("de", "Zu viele abgelehnte Aktionen: warte 1 Sekunde.",
     "Zu viele abgelehnte Aktionen: warte 2 Sekunden."),
])
def test_a_wait_of_one_second_is_one_second(lang, one, two):
    from referee.web.refusals import WAIT

    assert [language.gettext(lang, WAIT.pick(n), seconds=n) for n in (1, 2)] == [one, two]


@pytest.mark.parametrize("lang,one,two", [
    ("en", "the hand has 1 action, not 2", "the hand has 2 actions, not 3"),
    ("fr", "la main a 1 action, pas 2",
     "la main a 2 actions, pas 3"),
])
def test_a_stale_tablet_is_told_the_hands_actions_counted(lang, one, two):
    from referee.service.errors import StaleSeq
    from referee.service.table.writes import check_seq

    said = []
    for seq in (1, 2):
        with pytest.raises(StaleSeq) as caught:
            check_seq(1, seq, seq + 1)
        said.append(language.gettext(lang, caught.value.template, **caught.value.params))
    assert said[0].startswith(one) and said[1].startswith(two), said


@pytest.mark.parametrize("lang,one,two", [
    ("en", "Dealt exactly 1 point", "Dealt exactly 2 points"),
    ("de", "Genau 1 Punkt bekommen", "Genau 2 Punkte bekommen"),
])
def test_a_deal_claims_points_agree(lang, one, two):
    from referee.reports.words import claim_words

    assert [claim_words(f"total:{n}", None, lang) for n in (1, 2)] == [one, two]


# ------------------------------------------------------------------ referee verify

@pytest.mark.parametrize("lang,said", [
    ("en", ["1 session checked, 0 with a fault", "2 sessions checked, 1 with a fault"]),
    ("fr", ["1 session vérifiée, 0 avec une anomalie",
            "2 sessions vérifiées, 1 avec une anomalie"]),
    ("de", ["1 Sitzung geprüft, 0 mit Fehlern", "2 Sitzungen geprüft, 1 mit einem Fehler"]),
])
def test_verify_counts_the_sessions_it_checked(lang, said, capsys):
    from referee.commands.service import _say_sessions

    assert _say_sessions({"a": []}, {}, lang) == 0
    assert _say_sessions({"a": [], "b": ["its head differs"]}, {}, lang) == 1
    out = capsys.readouterr().out.splitlines()
    assert [out[0], out[-1]] == said, out
