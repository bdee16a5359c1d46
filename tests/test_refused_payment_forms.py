"""A refused form comes back as it was typed (payform46, recheck N5, N6):
the manage page's payment with its payer and payee as picked (a host who
retyped only the amount recorded it the wrong way round), and the new-table
form's seat whose name the papers cannot print named by its seat."""

from __future__ import annotations

import html
import re

import pytest

from tests.test_api import assert_error
from tests.test_stake_change_doors import OPENING, _open, _seq
from tests.test_tablet import PIN, token

THREE = {**OPENING, "players": ["Ann", "Ben", "Cy"]}


def _selected(page: str, name: str) -> list[str]:
    """The options selected in the form's select ``name``."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, page[:2000]
    return re.findall(r"<option selected>([^<]*)</option>", select.group(1))


def _payment_form(page: str) -> str:
    form = re.search(r'<form[^>]*id="payment-form".*?</form>', page, re.S)
    assert form, page[:2000]
    return form.group(0)


@pytest.mark.parametrize("amount", ["1e400", "abc", "99999999999999"])
def test_a_refused_payment_comes_back_as_typed(client, app, amount):
    sid, _key = _open(client, THREE, "de")
    client.set_cookie("lang", "de")
    manage = f"/s/{sid}/manage"
    form = _payment_form(client.get(manage).get_data(as_text=True))
    assert (_selected(form, "from"), _selected(form, "to")) == (["Ann"], ["Ben"])  # the default
    before = _seq(app, sid)
    r = client.post(f"{manage}/payment", data={"csrf_token": token(client, manage),
                                               "from": "Cy", "to": "Ann", "amount": amount})
    assert r.status_code == 303 and r.headers["Location"].endswith(manage)
    page = html.unescape(client.get(manage).get_data(as_text=True))
    assert "Betrag: " in page  # the refusal, with the form as typed
    form = _payment_form(page)
    assert (_selected(form, "from"), _selected(form, "to")) == (["Cy"], ["Ann"])
    assert f'value="{amount}"' in form
    assert _seq(app, sid) == before
    # taken once: the page drawn again later shows the form as it starts
    form = _payment_form(client.get(manage).get_data(as_text=True))
    assert (_selected(form, "from"), _selected(form, "to")) == (["Ann"], ["Ben"])
    assert 'id="pay-amount" value=""' in form


def test_a_refused_stake_leaves_the_payment_form_as_it_starts(client):
    sid, _key = _open(client, THREE, "en")
    manage = f"/s/{sid}/manage"
    client.post(f"{manage}/stake", data={"csrf_token": token(client, manage), "stake": "abc"})
    page = client.get(manage).get_data(as_text=True)
    assert 'value="abc"' in page
    form = _payment_form(page)
    assert (_selected(form, "from"), _selected(form, "to")) == (["Ann"], ["Ben"])


def test_the_settle_pages_and_the_clubs_payment_forms_carry_nothing_typed(client):
    """Their marks are buttons carrying a debt as the page shows it (hidden
    fields): a refusal draws them again from the debts, nothing is lost."""
    sid, _key = _open(client, THREE, "en")
    for path in (f"/s/{sid}/settle", "/club"):
        page = client.get(path).get_data(as_text=True)
        for form in re.findall(r'<form[^>]*class="(?:mark-paid|inline)".*?</form>', page, re.S):
            inputs = re.findall(r"<input[^>]*>", form)
            assert all('type="hidden"' in i for i in inputs), form


def test_a_seat_name_the_papers_cannot_print_is_refused_by_its_seat(client):
    data = {"csrf_token": token(client), "stake": "1", "currency": "EUR", "preset": "pagat",
            "pin": PIN, "pin2": PIN, "player1": "Ann", "player2": "Ben", "player3": "Zoë 王"}
    r = client.post("/new", data=data)
    assert r.status_code == 303 and "/s/" not in r.headers["Location"]
    page = html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    assert ("Seat 3: the papers cannot print 王 (U+738B) in Zoë 王: choose a name with "
            "letters they can print") in page, page[:3000]
    assert 'value="Zoë 王"' in page  # kept as typed


def test_the_api_names_the_seat_too(client):
    header = {"format": "tonk-log/1", "stake": "1", "rules": "pagat",
              "players": ["Ann", "Ben", "Zoë 王"]}
    err = assert_error(client.post("/api/sessions", json=header), 400, "bad_name")
    assert err["field"] == "players.2" and "seat 3" in err["message"], err
