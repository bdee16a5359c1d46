"""A payment marked paid at the club, on the table's own pages (newcomer
N11): at a table that carried an earlier table's debts, the table page and
its standings showed the hands' totals and the carried line but not the
payment the club marked, then "To settle up now" with figures nobody could
reconcile from the page. Every line that enters "To settle up now" is now
on the page, the payment named as the settle-up and the papers name it
(who paid whom, how much, when, where it was marked), with the balances
they add up to; and the figures on the page add up."""

from __future__ import annotations

import html
import re
from decimal import Decimal

import pytest

from tests.money_tables import KEY, ledger, open_table, out_by
from tests.reports_fixtures import pdf_text
from tests.test_pay import unlock

#: The page's sentences in each language: the paid sentence, where the club
#: marked it, the balances' line, and the heading of what is still owed.
SAID = {
    "en": {"paid": "{payer} paid {payee} {amount}", "club": "club settlement",
           "here": "recorded at this table",
           "balances": "Balances (brought forward + totals + paid - received): ",
           "now": "To settle up now",
           "pays": r"(?P<payer>.+?) pays (?P<payee>.+?) (?P<amount>\S+)$"},
    "de": {"paid": "{payer} hat {payee} {amount} gezahlt", "club": "Ausgleich über den Verein",
           "here": "an diesem Tisch erfasst",
           "balances": "Salden (Übertrag + Summen + gezahlt − erhalten): ",
           "now": "Jetzt auszugleichen",
           "pays": r"(?P<payer>.+?) zahlt (?P<payee>.+?) (?P<amount>\S+ €)$"},
    "fr": {"paid": "{payer} a payé {amount} à {payee}", "club": "règlement par le club",
           "here": "saisi à cette table",
           "balances": "Soldes (report + totaux + payé − reçu) : ",
           "now": "À régler maintenant",
           "pays": r"(?P<payer>.+?) paie (?P<amount>\S+ €) à (?P<payee>.+?)$"},
}


@pytest.fixture
def client(club_app):
    return club_app.test_client()


def _amount(text: str) -> Decimal:
    """An amount as a page writes it ("-0,50 €", "€4.50", "−1.00 €")."""
    text = text.replace("\u2212", "-")
    number = re.sub(r"[^0-9,.\-]", "", text)
    return Decimal(number.replace(",", ".") if "," in number and "." not in number
                   else number.replace(",", ""))


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _named_amounts(line: str) -> dict[str, Decimal]:
    """"Max -0,50 €, Jürgen 0,50 €": each name's amount."""
    out = {}
    for part in line.split(", "):
        name, _, amount = part.strip().partition(" ")
        out[name] = _amount(amount)
    return out


@pytest.fixture
def night(client):
    """Keller, Tisch 2 carried Tisch 1's debts; the club marked one of Tisch
    2's debts paid; a hand followed."""
    players = ("Max", "Élodie", "Jürgen")
    first = open_table(client, players=players, currency="EUR", stake="0.50",
                       table="Keller, Tisch 1")
    out_by(client, first, "Jürgen")
    second = open_table(client, players=players, currency="EUR", stake="0.50",
                        table="Keller, Tisch 2", brought_forward_from=first["id"],
                        brought_forward_token=first["token"])
    out_by(client, second, "Élodie")
    debt = next(t for t in ledger(client, "EUR")["transfers"]
                if t["session"] == second["id"] and t["from"] == "Max")
    r = client.post("/api/club/transfers", json=debt, headers=KEY)
    assert r.status_code == 201, r.get_json()
    out_by(client, second, "Max")
    unlock(client, second["id"], second["token"])
    return second, debt


@pytest.mark.parametrize("lang", sorted(SAID))
@pytest.mark.parametrize("tail", ["", "/standings"])
def test_the_club_s_payment_is_on_the_table_page_and_the_figures_add_up(client, night, lang,
                                                                       tail):
    table, debt = night
    said = SAID[lang]
    page = client.get(f"/s/{table['id']}{tail}?lang={lang}").get_data(as_text=True)
    made = _text(page[page.index('id="payments-made"'):].split("</ul>")[0])
    settle = client.get(f"/s/{table['id']}/settle?lang={lang}").get_data(as_text=True)
    # the payment as the settle-up page says it, word for word (its buttons aside):
    # who paid whom how much, when, and that the club marked it
    [line] = [_text(li.split("<form")[0]) for li in
              re.findall(r'<li class="payment[^"]*"[^>]*>(.*?)</li>', settle, re.S)]
    paid = said["paid"].format(payer="Max", payee=debt["to"],
                               amount=(debt["amount"].replace(".", ",") + " €" if lang != "en"
                                       else "€" + debt["amount"]))
    assert line.startswith(paid) and line.endswith(f" · {said['club']}")
    assert line in made and said["here"] not in made
    # the figures on the page: totals, brought forward, payments, balances
    totals = {p: _amount(_text(v)) for p, v in re.findall(
        r'<th class="num" data-player="([^"]+)"[^>]*>(.*?)</th>', page)}
    brought = _named_amounts(_text(page.split('id="brought-forward">')[1].split("</p>")[0])
                             .split(": ", 1)[1])
    balances = _named_amounts(_text(page.split('id="balances">')[1].split("</p>")[0])
                              [len(said["balances"]):])
    assert _text(page.split('id="balances">')[1].split("</p>")[0]).startswith(said["balances"])
    moved = dict.fromkeys(totals, Decimal(0))
    moved["Max"] += Decimal(debt["amount"])
    moved[debt["to"]] -= Decimal(debt["amount"])
    for p in totals:
        assert totals[p] + brought.get(p, Decimal(0)) + moved[p] == balances[p], p
    # ... and "To settle up now" settles exactly those balances
    owed = page.split(f">{said['now']}</h")[1].split("</ul>")[0]
    transfers = re.findall(r"<li>(.*?)</li>", owed, re.S)
    assert transfers
    for line in transfers:
        said_line = re.match(said["pays"], _text(line))
        payer, payee, amount = said_line["payer"], said_line["payee"], said_line["amount"]
        balances[payer] += _amount(amount)
        balances[payee] -= _amount(amount)
    assert set(balances.values()) == {Decimal(0)}



@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_settlement_paper_names_the_club_s_payment_as_the_page_does(client, night, lang):
    """The table's settlement PDF lists the payment with the same sentence
    and the same where as its pages."""
    table, debt = night
    said = SAID[lang]
    r = client.get(f"/reports/{table['id']}/settlement.pdf?token={table['token']}&lang={lang}")
    assert r.status_code == 200
    paper = pdf_text(r.data)
    paid = said["paid"].format(payer="Max", payee=debt["to"],
                               amount=(debt["amount"].replace(".", ",") + " €" if lang != "en"
                                       else "€" + debt["amount"]))
    assert re.search(re.escape(paid) + r" \([^)]*, " + re.escape(said["club"]) + r"\)", paper), \
        paper
    assert said["here"] not in paper


@pytest.mark.parametrize("lang", sorted(SAID))
def test_a_payment_recorded_at_the_table_says_so(client, night, lang):
    """Beside the club's, a payment the table's host recorded says it was
    recorded at this table, on the pages and the paper."""
    table, _ = night
    r = client.post(f"/api/sessions/{table['id']}/payments",
                    json={"from": "Jürgen", "to": "Max", "amount": "0.20"},
                    headers={"Authorization": f"Bearer {table['token']}"})
    assert r.status_code == 201, r.get_json()
    said = SAID[lang]
    for tail in ("", "/standings", "/settle"):
        page = client.get(f"/s/{table['id']}{tail}?lang={lang}").get_data(as_text=True)
        lines = [_text(li.split("<form")[0]) for li in
                 re.findall(r'<li class="payment[^"]*"[^>]*>(.*?)</li>', page, re.S)]
        [club] = [line for line in lines if line.startswith("Max")]
        [ours] = [line for line in lines if line.startswith("Jürgen")]
        assert club.endswith(f" · {said['club']}") and ours.endswith(f" · {said['here']}"), tail
    r = client.get(f"/reports/{table['id']}/settlement.pdf?token={table['token']}&lang={lang}")
    assert said["here"] in pdf_text(r.data)
