"""A refused form says what was refused and why, and never the sentence its
success would have said (the newcomer's night, F10, F11, F21, F33): "Nicht
erfasst: Die Zahlungsdaten von Ben sind gespeichert — Iban: ..." read as
refused and done at once, named the field by its key, wrote a German stake
"0.125", and emptied the form of the IBAN typed."""

from __future__ import annotations

import re
from html import unescape

import pytest

from referee import language
from referee.service.errors import Closed
from referee.service.table import hands
from referee.web.db import get_db
from tests.test_tablet import create, flashes, form_value, hand_page, start, token
from tests.test_tablet_quick import confirm, pick

FOUR = ("Ann", "Ben", "Cy", "Dee")
WRONG_IBAN = "DE89 3704 0044 0532 0130 01"  # the last digit mistyped


def _errors(page: str) -> list[str]:
    return [unescape(text).strip() for kind, text in flashes(page) if kind == "error"]


def _posted(client, sid: str, tail: str, page: str, **fields):
    return client.post(f"/s/{sid}{tail}", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": f"c-{tail}", **fields})


def _after(client, r) -> str:
    return client.get(r.headers["Location"]).get_data(as_text=True) if r.status_code == 303 \
        else r.get_data(as_text=True)


def test_a_refused_iban_names_the_details_and_keeps_what_was_typed(client):
    sid = create(client, FOUR, currency="EUR", language="de")
    settle = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    r = _posted(client, sid, "/settle/details", settle, player="Ben", iban=WRONG_IBAN,
                holder="Ben Becker")
    page = _after(client, r)
    said = _errors(page)
    assert said and said[0].startswith("Nicht gespeichert: die Zahlungsdaten von Ben \u2014 "
                                       "IBAN: "), said
    assert "sind gespeichert" not in said[0]
    # The form again, with what was typed: one wrong digit is fixed, not all retyped.
    assert r.status_code == 303
    assert f'value="{WRONG_IBAN}"' in page and 'value="Ben Becker"' in page
    assert "<option selected>Ben</option>" in page


def test_a_refused_stake_is_named_with_the_readers_decimal(client):
    sid = create(client, FOUR, currency="EUR", language="de")
    manage = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    said = _errors(_after(client, _posted(client, sid, "/manage/stake", manage,
                                          stake="0,125")))
    assert said and said[0].startswith("Nicht gespeichert: der neue Einsatz 0,125"), said
    assert "0.125" not in said[0] and "ab der nächsten Hand" not in said[0]


def test_a_seat_refused_while_a_hand_is_in_play_does_not_say_it_was_taken(client):
    sid = create(client, ("Ann", "Ben", "Cy"), language="de")
    assert start(client, sid).status_code == 303
    manage = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    said = _errors(_after(client, _posted(client, sid, "/manage/seat", manage,
                                          player="Dee")))
    assert said and said[0].startswith("Nicht gespeichert: ein Platz für Dee \u2014 "), said
    assert "spielt ab der nächsten Hand mit" not in said[0]


def test_every_refused_form_says_not_saved_once_in_english(client):
    sid = create(client, FOUR)
    manage = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    r = _posted(client, sid, "/manage/payment", manage, **{"from": "Ann", "to": "Ann",
                                                             "amount": "1.00"})
    said = _errors(_after(client, r))
    assert said and said[0].startswith("Not saved: the payment of $1.00 from Ann to Ann "
                                       "\u2014 "), said
    assert " paid " not in said[0]


def test_everyone_accepts_a_hand_in_german_not_a_round(client):
    sid = create(client, FOUR, language="de")
    assert confirm(client, sid, pick(client, sid, "out:1")).status_code == 303
    r = client.post(f"/s/{sid}/hands/1/accept-all", data={
        "csrf_token": token(client, f"/s/{sid}/hands/1"), "sure": "1"})
    page = _after(client, r)
    assert any("Ergebnis von Hand 1" in unescape(text) for kind, text in flashes(page)), \
        flashes(page)
    assert "Runde" not in page


@pytest.mark.parametrize("typed, said", [
    ({"player1": "Anna", "player2": "anna"}, "Spieler: anna und Anna"),
    ({"player1": "", "player2": "Ben", "player3": "An:na"}, "Platz 3: der Name eines Spielers"),
    ({"player1": "Anna", "player2": "Ben", "stake": "0"}, "Einsatz je Einheit: eine Dezimalzahl"),
])
def test_the_new_table_form_names_its_fields_as_it_labels_them(client, typed, said):
    data = {"csrf_token": token(client), "stake": "0.25", "currency": "EUR", "preset": "pagat",
            "pin": "4321", "pin2": "4321", "table": "T", **typed}
    r = client.post("/new?lang=de", data=data)
    page = unescape(_after(client, r))
    assert said in page, page[:3000]
    assert not re.search(r"\b(players|stake)(\.\d+)?: ", page)


def _closed_table(client) -> str:
    sid = create(client, FOUR, currency="EUR", language="de")
    assert confirm(client, sid, pick(client, sid, "out:1")).status_code == 303
    manage = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    r = _posted(client, sid, "/manage/close", manage, sure="1", confirm="1")  # unaccepted: N14
    assert r.status_code == 303 and not _errors(_after(client, r))
    return sid


def test_a_closed_tables_start_and_quick_pages_say_it_is_closed_without_a_form(client):
    sid = _closed_table(client)
    for tail in ("/hands/new?hand=2", "/hands/quick?hand=2", "/hands/quick?pick=out:1&hand=2"):
        r = client.get(f"/s/{sid}{tail}")
        assert r.status_code == 303 and r.headers["Location"] == f"/s/{sid}", tail
        said = _errors(_after(client, r))
        assert said and said[0].startswith("Der Tisch wurde am "), said
        assert "T" not in said[0].split("am ", 1)[1][:12], said  # no raw ISO time


def test_a_closed_tables_refusal_writes_its_time_in_the_readers_form(client):
    sid = _closed_table(client)
    with client.application.app_context(), pytest.raises(Closed) as err:
        hands.start_hand(get_db(), sid, {"dealer": "Ann"})
    for lang, form in (("de", r"\d\d\.\d\d\.\d{4} \d\d:\d\d UTC"),
                       ("en", r"\d{4}-\d\d-\d\d \d\d:\d\d UTC")):
        said = language.message(err.value, lang)
        assert re.search(form, said) and not re.search(r"\d\dT\d\d:", said), said


def test_a_stale_quick_hand_url_on_the_device_that_logged_it_says_it_is_logged(client):
    sid = create(client, FOUR, language="de")
    assert confirm(client, sid, pick(client, sid, "out:1", hand="1")).status_code == 303
    r = client.get(f"/s/{sid}/hands/quick", query_string={"hand": "1", "pick": "drop:2"})
    said = _errors(_after(client, r))
    assert said and said[0].startswith("Hand 1 ist schon erfasst"), said
    assert "anderen Gerät" not in said[0]


def test_one_impossible_count_at_a_drops_confirm_keeps_the_other_counts(client):
    """Newcomer F8, then N10: Ben drops and every count is typed on the
    confirm page; one is impossible. The counts typed after it were lost
    (F8); then the drop and the good counts were logged and the one refused
    (N10: half the tap). Now nothing is logged and the confirm page's pad
    comes again with every count as typed, and the page says which was not."""
    sid = create(client, ("Ann", "Ben", "Cy"))
    assert start(client, sid).status_code == 303
    page = hand_page(client, sid)
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "d1",
            "expected_seq": "0", "act": "1:drop"}
    client.post(f"/s/{sid}/hands/1/act", data=data)
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1", "count0": "20",
                                                     "count1": "5", "count2": "30"})
    page = _after(client, r)
    assert not [t for kind, t in flashes(page) if kind == "ok"]
    said = _errors(page)
    assert said and said[0].startswith("Not logged: Ben: show =5 \u2014 "), said
    assert 'name="count0" value="20"' in page and 'name="count2" value="30"' in page
    history = unescape(hand_page(client, sid))
    assert "Ben drops" not in history and "Cy shows a count of 30" not in history


def _stake_field(page: str) -> str:
    return re.search(r'<input type="text" name="stake"[^>]*>', page).group(0)


def test_the_manage_pages_stake_field_has_the_new_table_forms_hint_and_a_title(client):
    """Newcomer F9: "eins" or "1.000,50" in the manage page's new stake got only
    the browser's "Please match the requested format."."""
    sid = create(client, FOUR, currency="EUR", language="de")
    hint = "eine Dezimalzahl, etwa 0,25"
    for page in (client.get(f"/s/{sid}/manage").get_data(as_text=True),
                 client.get("/new?lang=de").get_data(as_text=True)):
        field = unescape(_stake_field(page))
        assert f'title="{hint}"' in field and "pattern=" in field, field
        assert hint in unescape(page.split('name="stake"')[0].rsplit("<label", 1)[1])


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_a_refusal_names_its_hand_once(lang):
    """A sentence that names its hand ("hand 3 has no dispute 2") is not
    preceded by the place's own "hand 3:"; one about another hand keeps it."""
    from referee.rules.errors import RefereeError
    from referee.rules.words import N_

    named = RefereeError("no_dispute", N_("hand {n} has no dispute {number}"),
                         {"n": 3, "number": 2}, hand=3, action=4)
    hand_word = language.gettext(lang, N_("hand {hand}"), hand=3)
    said = language.message(named, lang)
    assert said.count(hand_word) == 1, said
    assert said.startswith(language.gettext(lang, N_("action {action}"), action=4)), said
    assert str(named) == "action 4: hand 3 has no dispute 2"
    other = RefereeError("hand_over", N_("this hand is over: hand {hands} has started"),
                         {"hands": 4}, hand=3)
    assert language.message(other, lang).startswith(
        language.gettext(lang, N_("{place}: {sentence}"), place=hand_word, sentence=""))


# A refused value of a table's form (newcomer45 P5): "Non enregistré : la
# nouvelle mise de 0,00 € — Stake : ... comme "0.50", pas '0'." named the field
# by the log's key, in English, wrote the example as English and the refused
# stake as money. Now: the field's label, the reader's decimal and quotes.
_FORM_SAID = {
    "en": ('New stake: a decimal greater than 0, like 0.25, not "0"',
           'Amount: a decimal greater than 0, like 0.75, not "0"',
           'Stake per unit: a decimal greater than 0, like 0.25, not "0"'),
    "de": ("Neuer Einsatz: eine Dezimalzahl größer als 0, etwa 0,25, nicht „0“",
           "Betrag: eine Dezimalzahl größer als 0, etwa 0,75, nicht „0“",
           "Einsatz je Einheit: eine Dezimalzahl größer als 0, etwa 0,25, nicht „0“"),
    "fr": ("Nouvelle mise\u00a0: un nombre décimal supérieur à 0, comme 0,25, pas «\u00a00\u00a0»",
           "Montant\u00a0: un nombre décimal supérieur à 0, comme 0,75, pas «\u00a00\u00a0»",
           "Mise par unité\u00a0: un nombre décimal supérieur à 0, comme 0,25, "
           "pas «\u00a00\u00a0»"),
    "pt": ("Nova aposta: um número decimal maior que 0, como 0,25, não «0»",
           "Valor: um número decimal maior que 0, como 0,75, não «0»",
           "Aposta por unidade: um número decimal maior que 0, como 0,25, não «0»"),
}


@pytest.mark.parametrize("lang", sorted(_FORM_SAID))
def test_a_refused_form_value_names_its_label_and_the_readers_example(client, lang):
    stake, amount, opening = _FORM_SAID[lang]
    sid = create(client, FOUR, currency="EUR", language=lang)
    manage = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    said = _errors(_after(client, _posted(client, sid, "/manage/stake", manage, stake="0")))
    assert said and said[0].endswith(" \u2014 " + stake + "."), said
    assert "0,00" not in said[0] and "0.00" not in said[0]  # 0 is no stake to write as money
    said = _errors(_after(client, _posted(client, sid, "/manage/payment", manage, **{
        "from": "Ann", "to": "Ben", "amount": "0"})))
    assert said and said[0].endswith(" \u2014 " + amount + "."), said
    r = client.post(f"/new?lang={lang}", data={
        "csrf_token": token(client), "stake": "0", "currency": "EUR", "preset": "pagat",
        "pin": "4321", "pin2": "4321", "table": "T", "player1": "Ann", "player2": "Ben"})
    assert opening in unescape(_after(client, r))
