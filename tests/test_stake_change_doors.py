"""Changing a live table's stake, at every door that can (stake46): the
manage page's form and the API's ``…/stake`` (no command changes a live
table's stake). A push-up table has no stake, so a change is refused there,
and the page offers none. A table in whole cents asked for 0.123 is refused
by the coin (its amounts' places cannot carry it, so no confirmation is
offered that could not help). A stake that is none is named by its field at
both doors, in the same words, and changes nothing (docs/decisions.md)."""

from __future__ import annotations

import html
import re

import pytest

from tests.test_api import assert_error, bearer
from tests.test_tablet import token

OPENING = {"format": "tonk-log/1", "table": "Odd", "stake": "1", "currency": "EUR",
           "rules": "pagat", "players": ["Ann", "Ben"]}
PUSH_UPS = {**OPENING, "rules": {"preset": "pagat", "scoring": "push_ups"}}
LANGS = ("en", "de", "fr", "pt")

NO_STAKE = {
    "en": "this table is scored in push-ups, which no stake multiplies",
    "de": "dieser Tisch zählt Hochtreiben, das kein Einsatz vervielfacht",
    "fr": "cette table compte en push-ups, qu'aucune mise ne multiplie",
    "pt": "esta mesa conta em push-ups, que nenhuma aposta multiplica",
}
COIN = {
    "en": "a stake of 0.123 EUR is finer than its smallest coin (0.01) and needs more",
    "de": "ein Einsatz von 0,123 EUR ist feiner als seine kleinste Münze (0,01) und braucht",
    "fr": "une mise de 0,123 EUR est plus fine que sa plus petite pièce (0,01) et demande",
    "pt": "uma aposta de 0,123 EUR é mais fina do que a sua moeda mais pequena (0,01) e",
}


def _open(client, doc: dict, lang: str = "en") -> tuple[str, dict]:
    made = client.post("/api/sessions", json={**doc, "language": lang}).get_json()
    sid = made["id"]
    r = client.post(f"/s/{sid}/unlock", data={"csrf_token": token(client, f"/s/{sid}/unlock"),
                                              "pin": made["table_token"]})
    assert r.status_code == 303
    return sid, {**bearer(made["table_token"]), "Accept-Language": lang}


def _api(client, sid: str, key: dict, stake: str, confirmed: bool = False):
    tail = "?finer_stake=true" if confirmed else ""
    return client.post(f"/api/sessions/{sid}/stake{tail}", json={"stake": stake}, headers=key)


def _form(client, sid: str, stake: str, **extra) -> tuple[int, str]:
    """The manage form posted (the status), and the page it leads back to."""
    manage = f"/s/{sid}/manage"
    page = client.get(manage).get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    r = client.post(f"{manage}/stake", data={"csrf_token": csrf, "stake": stake, **extra})
    return r.status_code, html.unescape(client.get(manage).get_data(as_text=True))


def _seq(app, sid: str) -> int:
    """The newest event of the table: a refusal appends none."""
    from referee.service import storage
    from referee.web.db import get_db

    with app.app_context():
        return storage.events.newest_seq(get_db(), sid)


def _unchanged(client, app, sid: str, key: dict, seq: int) -> None:
    state = client.get(f"/api/sessions/{sid}", headers=key).get_json()
    assert state["next_stake"] == state["stake_now"] == "1", state
    assert _seq(app, sid) == seq


@pytest.mark.parametrize("lang", LANGS)
def test_a_push_up_table_has_no_stake_to_change(client, app, lang):
    sid, key = _open(client, PUSH_UPS, lang)
    page = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    assert "/manage/stake" not in page and 'name="stake"' not in page  # not offered
    before = _seq(app, sid)
    for stake in ("2", "0.5", "abc"):  # the table has no stake, whatever is typed
        said = assert_error(_api(client, sid, key, stake), 422, "stake_push_ups")["message"]
        assert said.startswith(NO_STAKE[lang]), said
        assert assert_error(_api(client, sid, key, stake, confirmed=True), 422,
                            "stake_push_ups")["message"] == said
        # A page drawn before, or a post made by hand: refused the same way.
        status, page = _form(client, sid, stake)
        assert status == 303 and said[1:] in page and "stake_push_ups" in page, page[:2000]
        _unchanged(client, app, sid, key, before)


@pytest.mark.parametrize("lang", LANGS)
def test_a_table_in_cents_refuses_a_finer_stake_by_its_coin(client, app, lang):
    """0.123 at a table playing 1 EUR: its amounts are in cents, so no
    confirmation makes it play for 0.123; the coin says why, and the form
    offers no box that could not help (it did, then refused it again)."""
    sid, key = _open(client, OPENING, lang)
    before = _seq(app, sid)
    said = assert_error(_api(client, sid, key, "0.123"), 400, "stake_places")["message"]
    assert said.startswith(COIN[lang]), said
    confirmed = assert_error(_api(client, sid, key, "0.123", confirmed=True), 400,
                             "stake_places")["message"]
    assert confirmed == said
    typed = "0.123" if lang == "en" else "0,123"
    status, page = _form(client, sid, typed)
    assert status == 303 and said[1:] in page, page[:3000]
    assert 'name="finer_stake"' not in page
    assert re.search(r'name="stake"[^>]*value="0[.,]123"', page)  # kept as typed
    status, page = _form(client, sid, typed, finer_stake="1")  # the box, sent anyway
    assert status == 303 and said[1:] in page
    _unchanged(client, app, sid, key, before)
    # where the coin is whole and the amounts have the places, it is asked
    sid, key = _open(client, {**OPENING, "stake": "100", "currency": "JPY"}, lang)
    assert_error(_api(client, sid, key, "0.5"), 400, "stake_finer_than_coin")
    status, page = _form(client, sid, "0.5" if lang == "en" else "0,5")
    assert 'name="finer_stake"' in page


BAD = {
    "1e400": 'at most 1000000, not "1e400"',
    "-3": 'a decimal greater than 0, like 0.25, not "-3"',
    "abc": 'a decimal greater than 0, like 0.25, not "abc"',
    "0,50": 'a decimal greater than 0, like 0.25, not "0,50"',
}


@pytest.mark.parametrize("typed", sorted(BAD))
def test_a_stake_that_is_none_is_named_by_its_field_at_both_doors(client, app, typed):
    """The API said marshmallow's "stake: String does not match expected
    pattern." where the form said what a stake is; now both say the
    service's words after the field's name, and 1e400 is not written out in
    the form's line in 400 digits."""
    sid, key = _open(client, OPENING)
    before = _seq(app, sid)
    error = assert_error(_api(client, sid, key, typed), 400, "malformed")
    assert error["message"] == f"stake: {BAD[typed]}", error
    status, page = _form(client, sid, typed)
    # the form's field takes digits alone: 1e400 is no plain decimal there (forms46)
    said = 'a decimal greater than 0, like 0.25, not "1e400"' if typed == "1e400" else BAD[typed]
    assert status == 303 and f"New stake: {said}." in page, page[:3000]
    assert "000,000,000,000" not in page
    _unchanged(client, app, sid, key, before)


def test_a_german_page_reads_its_own_comma(client):
    """"0,50" is the German way to write half a euro: taken at the German
    form, refused at the API (JSON's numbers have a point), in German."""
    sid, key = _open(client, OPENING, "de")
    said = assert_error(_api(client, sid, key, "0,50"), 400, "malformed")["message"]
    assert said.startswith("stake: ") and "0,50" in said and "greater than" not in said, said
    status, _page = _form(client, sid, "0,50")
    state = client.get(f"/api/sessions/{sid}", headers=key).get_json()
    assert status == 303 and state["next_stake"] == "0.50", state

