"""Taking a payment back from the settle-up page (newcomer N11): one tap took
it back with no question, and the answer named the payment by its number in
the record ("Zahlung 3 ist zurückgenommen"). It now asks first, on a page of
its own, as voiding a hand or closing the table does, and both the question
and the answer say who paid whom how much (and when)."""

from __future__ import annotations

import re

import pytest

from tests.test_tablet import create, token

ASKED = {"en": ("Take back the payment of $1.00 from Ben to Cy?",
                "The payment of $1.00 from Ben to Cy is taken back"),
         "de": ("Die Zahlung von 1,00 $ von Ben an Cy zurücknehmen?",
                "Die Zahlung von 1,00 $ von Ben an Cy ist zurückgenommen"),
         "fr": ("Annuler le paiement de 1,00 $US de Ben à Cy ?",
                "Le paiement de 1,00 $US de Ben à Cy est annulé"),
         "pt": ("Anular o pagamento de 1,00 US$ de Ben a Cy?",
                "O pagamento de 1,00 US$ de Ben a Cy foi anulado")}


def _paid(client) -> str:
    """A table where the host recorded two payments, Ben's to Cy the second."""
    sid = create(client)
    for k, (payer, payee) in enumerate((("Ann", "Cy"), ("Ben", "Cy"))):
        r = client.post(f"/s/{sid}/manage/payment",
                        data={"csrf_token": token(client, f"/s/{sid}/manage"), "from": payer,
                              "to": payee, "amount": "1", "client_id": f"pay-{k}"})
        assert r.status_code == 303
    return sid


def _payments(client, sid) -> str:
    return client.get(f"/s/{sid}/settle").get_data(as_text=True)


def _flash(html: str) -> str:
    found = re.search(r'class="flash flash-ok"[^>]*>(.*?)</', html, re.S)
    return _spaced(found.group(1).strip()) if found else ""


def _spaced(html: str) -> str:
    """The page with its no-break spaces (between an amount and its sign) as spaces."""
    return html.replace("\xa0", " ").replace("\u202f", " ")


@pytest.mark.parametrize("lang", sorted(ASKED))
def test_taking_a_payment_back_asks_first_and_names_it(client, lang):
    sid = _paid(client)
    client.get(f"/s/{sid}?lang={lang}")
    page = _payments(client, sid)
    assert page.count("settle/undo") == 2
    r = client.post(f"/s/{sid}/settle/undo", data={"csrf_token": token(client, f"/s/{sid}/settle"),
                                                   "payment": "2", "client_id": "back-1"})
    # the first tap takes nothing back: it asks, on a page of its own
    assert r.status_code == 303 and "/settle/undo?" in r.headers["Location"]
    assert "undone" not in _payments(client, sid)
    asked = client.get(r.headers["Location"]).get_data(as_text=True)
    question, done = ASKED[lang]
    assert f"<h1>{question}</h1>" in _spaced(asked)
    assert 'name="payment" value="2"' in asked and 'name="confirm" value="1"' in asked
    if lang == "en":  # and when it was recorded
        assert re.search(r'<li>Ben paid Cy \$1\.00 · \w{3} \d+, \d{4} \d\d:\d\d</li>', asked)
    r = client.post(f"/s/{sid}/settle/undo", data={
        "csrf_token": token(client, f"/s/{sid}/settle"), "payment": "2", "confirm": "1",
        "client_id": "back-1"}, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert _flash(html) == f"\u2713 {done}."
    assert not re.search(r"\b2\b", _flash(html).replace(done, ""))
    # the one named, not the first: Ann's payment to Cy still counts
    assert html.count('class="payment undone"') == 1
    assert re.search(r'class="payment undone" id="payment-2"', html)


def test_the_question_is_not_asked_of_a_payment_taken_back_already(client):
    sid = _paid(client)
    csrf = token(client, f"/s/{sid}/settle")
    r = client.post(f"/s/{sid}/settle/undo", data={"csrf_token": csrf, "payment": "1",
                                                   "confirm": "1", "client_id": "back-2"})
    assert r.status_code == 303
    for k in ("1", "3", "x"):  # taken back meanwhile, none such, nonsense
        r = client.get(f"/s/{sid}/settle/undo?payment={k}")
        assert r.status_code == 303 and r.headers["Location"].endswith(f"/s/{sid}/settle")
