"""An option's name and value as a reader reads them (issue 35, the
newcomer's French and Portuguese night): the table's header said
'caught = "double_to_beaters"', a confirmation "attrapé (double_to_beaters)"
and every paper "hand_size : 7". Each name and each value a player reads
comes from the one statement of options (``rules.options``) in the reader's
language; a paper keeps the code name in italics beside its words."""

from __future__ import annotations

import re

import pytest
from markupsafe import Markup

from referee import language
from referee.ledger.payments import settle_ending
from referee.reports.common import rules_in_words
from referee.reports.sheet import render_sheet
from referee.reports.words import option_label, option_value
from referee.rules.catches import CATCH_SCHEMES
from referee.rules.ending import DROP, Ending
from referee.rules.options import OPTION_ALLOWED, OPTION_LABELS, OPTION_NAMES, VALUE_WORDS, resolve
from tests.reports_fixtures import pdf_text
from tests.test_tablet import create

CHANGED = {"preset": "pagat", "hand_size": 7, "caught": "double_to_beaters"}
OTHERS = ("de", "fr", "pt")


def test_every_option_and_every_named_value_has_its_words():
    assert set(OPTION_LABELS) == set(OPTION_NAMES)
    named = {(name, str(v)) for name in OPTION_NAMES
             for v in (OPTION_ALLOWED[name].choices or ()) if isinstance(v, str)}
    named |= {("caught_pays", w) for w in OPTION_ALLOWED["caught_pays"].words}
    said = {(name, v) for name, values in VALUE_WORDS.items() for v in values}
    assert named <= said
    assert set(VALUE_WORDS["caught"]) == set(CATCH_SCHEMES)


@pytest.mark.parametrize("lang", OTHERS)
def test_no_option_name_or_value_is_read_as_written_in_another_language(lang):
    for name in OPTION_NAMES:
        assert option_label(name, lang) == language.gettext(lang, OPTION_LABELS[name])
        for value, words in VALUE_WORDS.get(name, {}).items():
            said = option_value(name, value, lang)
            assert said == language.gettext(lang, words)
            assert said != value  # the standard scheme too: "pagat" names a site (P16)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_papers_rules_lines_say_the_option_in_words_beside_its_name(lang):
    _intro, lines = rules_in_words(resolve(CHANGED), lang)
    text = " ".join(lines)
    assert "double_to_beaters" not in text
    assert option_value("caught", "double_to_beaters", lang) in text
    assert language.sentence_case(option_label("hand_size", lang)) + " (<i>hand_size</i>)" in text


def test_the_sheet_in_french_names_no_value_as_the_log_writes_it():
    log = {"format": "tonk-log/1", "stake": "0.5", "currency": "EUR", "rules": CHANGED,
           "players": ["Ann", "Ben", "Cy"], "language": "fr", "hands": []}
    text = pdf_text(render_sheet(log))
    assert "double_to_beaters" not in text and "double à ceux à égalité ou plus bas" in text
    assert "Cartes par main (hand_size)" in text


def test_the_tables_header_says_its_changed_rules_in_the_readers_words(client):
    sid = create(client, language="fr", opt_hand_size="7", opt_caught='"double_to_beaters"')
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    assert "double_to_beaters" not in page.split("<main")[0] + page.split("</h1>")[0]
    header = re.search(r"règles\W.*?</", page, re.S).group(0)
    assert "cartes par main\xa0: 7" in header
    assert "caught\xa0: double à ceux à égalité ou plus bas" not in header
    assert "attrapé\xa0: double à ceux à égalité ou plus bas" in header


def _form(client, lang: str) -> str:
    from tests.test_languages_web import visible

    return visible(client.get(f"/new?lang={lang}").get_data(as_text=True))


@pytest.mark.parametrize("lang", OTHERS)
def test_the_new_table_form_says_every_label_value_and_placeholder_in_words(client, lang):
    page = client.get(f"/new?lang={lang}").get_data(as_text=True)
    text = _form(client, lang)
    for name in OPTION_NAMES:
        assert f'for="opt_{name}">{str(Markup.escape(option_label(name, lang)))}</label>' in page
    # no JSON notation in what the reader reads: neither values nor placeholders
    assert not re.search(r"\b(null|true|false)\b", text)
    assert "null" not in " ".join(re.findall(r'placeholder="([^"]*)"', page))
    assert "jokers wild" not in text and "tonk out pays" not in text
    assert "double_to_beaters" not in text and "hand_size" not in text


def test_the_form_reads_back_the_none_it_shows(client):
    client.get("/new?lang=fr")  # the reader reads the form in French, and posts it
    sid = create(client, language="fr", opt_max_hits_per_turn="aucun",
                 opt_tonk_out_by_hits_pays="Aucun")
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    assert "au plus par tour\xa0: aucun" in page


@pytest.mark.parametrize("lang, said", [("fr", "règlement par le club"),
                                        ("pt", "acerto de contas pelo clube"),
                                        ("en", "club settlement")])
def test_the_clubs_payment_note_is_read_in_the_readers_language(lang, said):
    """The club writes "club settlement" as a payment's note in the log; the
    pages and papers showed it in English to every reader."""
    from referee.rules.words import CLUB_SETTLEMENT

    assert language.note_words(CLUB_SETTLEMENT, lang) == said
    assert language.note_words("paid in cash", lang) == "paid in cash"  # a person's words


# newcomer44 P16: "(catch scheme pagat)", "(Fangregel pay_lowest)", the rules'
# list "(standard: pagat)": a story and a paper say the scheme in words.
LANGS = ["en", "de", "fr", "pt"]
FOUR = ("Ann", "Ben", "Cy", "Dee")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", sorted(CATCH_SCHEMES))
def test_a_catch_is_told_with_its_schemes_words(lang, scheme):
    ending = Ending(DROP, FOUR, "Dee", player="Ann", counts={"Ann": 9, "Ben": 7, "Cy": 9,
                                                              "Dee": 20})
    said = " ".join(language.say(w, lang) for w in settle_ending(ending, resolve(
        {"caught": scheme})).words)
    assert scheme not in said and "pagat" not in said, said


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_list_says_the_standard_catch_in_words(lang):
    _intro, lines = rules_in_words(resolve("washington"), lang)
    caught = next(line for line in lines if "<i>caught</i>" in line)
    assert "pagat" not in caught.replace("<i>caught</i>", ""), caught


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_no_explanation_names_a_value_as_the_log_writes_it(lang):
    """An option's explanation (the papers' rules list, the sheet, the
    reference) says a value in its words, never as the log writes it
    (recheck44: "the pay_beaters and pay_lowest catch schemes")."""
    from referee.rules.options import OPTION_DOCS

    written = {value for words in VALUE_WORDS.values() for value in words if "_" in value}
    for name, doc in OPTION_DOCS.items():
        said = language.gettext(lang, doc)
        assert not [v for v in written if re.search(rf"\b{v}\b", said)], (name, said)
