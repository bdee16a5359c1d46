"""What a newcomer typed into the tablet's forms on a German host tablet
(newcomer46 N3-N9, forms46): a currency that names none, a refusal that
named no field, an amount in exponent form spelled out in 400 digits, a
table id with a capital, a pasted PayPal.me link, and a paper's link that
named no language."""

from __future__ import annotations

import html
import re

import pytest

from referee.service.errors import RefereeError
from referee.service.money.payable import check_paypal
from tests.test_stake_change_doors import OPENING, _open, _seq
from tests.test_tablet import PIN, token

LANGS = ("de", "fr", "pt")


def _notices(page: str) -> list[str]:
    text = html.unescape(page)
    return [re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", "", n)).strip() for n in
            re.findall(r'class="[^"]*(?:error|flash)[^"]*"[^>]*>(.*?)</(?:p|div|li)>', text, re.S)]


def _new_table(client, lang: str, **typed) -> tuple[int, str]:
    """The new-table form posted on a page in ``lang`` (the status), and the
    page it leads to."""
    client.set_cookie("lang", lang)
    data = {"csrf_token": token(client), "stake": "1", "currency": "EUR", "preset": "pagat",
            "pin": PIN, "pin2": PIN, "player1": "Max", "player2": "Élodie", "language": "de",
            **typed}
    r = client.post("/new", data=data)
    if "Location" not in r.headers:  # the form drawn again at once (a 403)
        return r.status_code, r.get_data(as_text=True)
    return r.status_code, client.get(r.headers["Location"]).get_data(as_text=True)


def _label(field: str, lang: str) -> str:
    """A field's label as a refusal begins with it ("Mise par unité\u00a0: ")."""
    from referee.language import gettext

    label = gettext(lang, "Stake per unit" if field == "stake" else "Currency")
    return gettext(lang, "{field}: {problem}", field=label, problem="")


@pytest.mark.parametrize("lang", LANGS)
def test_a_currency_that_names_none_is_refused_by_its_field(client, lang):
    status, page = _new_table(client, lang, currency="€€€€")
    said = _notices(page)
    assert status == 303 and any(n.startswith(_label("currency", lang)) and "EUR" in n
                                 and "€€€€" in n for n in said), said
    # what the referee reads as a code still opens the table in it
    for typed in ("Euro", "EURO", "€", "eur"):
        status, page = _new_table(client, lang, currency=typed)
        assert re.search("1,00[\\s\u00a0\u202f]€", html.unescape(page)) and "€€" not in page, \
            typed


@pytest.mark.parametrize("lang", LANGS)
def test_a_stake_finer_than_the_coin_is_named_by_its_field(client, lang):
    status, page = _new_table(client, lang, stake="0,001")
    said = [n for n in _notices(page) if "0,001" in n]
    assert said and said[0].startswith(_label("stake", lang)), _notices(page)


#: Each refusal of the new-table form, and the label it must begin with.
REFUSED = [({"player2": ""}, "Players"), ({"pin": "12", "pin2": "12"}, "PIN"),
           ({"pin2": "9999"}, "PIN again"), ({"language": "xx"}, "The table's language"),
           ({"preset": "nope"}, "Preset"), ({"stake": "0,001"}, "Stake per unit"),
           ({"stake": "1e400"}, "Stake per unit"), ({"currency": "chips"}, "Currency"),
           ({"carry_from": "abc"}, "Carry what is still owed at"),
           ({"player2": "Max"}, "Players")]


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_of_the_new_table_form_begins_with_its_label(client, lang):
    from referee.language import gettext

    for typed, label in REFUSED:
        status, page = _new_table(client, lang, **typed)
        said = [n for n in _notices(page) if n]
        start = gettext(lang, "{field}: {problem}", field=gettext(lang, label), problem="")
        assert said and said[0].startswith(start[:1].upper() + start[1:]), (typed, said)
    status, page = _new_table(client, lang, opt_hand_size="99")
    assert _notices(page)[0].endswith(gettext(lang, "cannot be {value}: expected {expected}",
                                              value="99", expected="5, 7, 9")), _notices(page)


EXPONENTS = ("1e400", "1E3", "inf", "NaN", "-Infinity", "1,5e3")


@pytest.mark.parametrize("typed", EXPONENTS)
def test_a_stake_in_exponent_form_is_no_plain_decimal_on_the_new_table_form(client, typed):
    status, page = _new_table(client, "de", stake=typed)
    said = _notices(page)
    assert f"Einsatz je Einheit: eine Dezimalzahl größer als 0, etwa 0,25, nicht „{typed}“" \
        in said, said


def _post(client, path: str, back: str, **data) -> str:
    client.post(path, data={"csrf_token": token(client, back), **data})
    return html.unescape(client.get(back).get_data(as_text=True))


@pytest.mark.parametrize("typed", EXPONENTS)
def test_an_amount_in_exponent_form_is_refused_alike_at_every_form(client, app, typed):
    """The manage page's stake and payment, the settle page's mark: each
    refuses it as no plain decimal, by its field's label in the page's
    language, and writes no number longer than the field."""
    sid, _key = _open(client, OPENING, "de")
    client.set_cookie("lang", "de")
    before = _seq(app, sid)
    manage, settle = f"/s/{sid}/manage", f"/s/{sid}/settle"
    page = _post(client, f"{manage}/stake", manage, stake=typed)
    assert f"Neuer Einsatz: eine Dezimalzahl größer als 0, etwa 0,25, nicht „{typed}“" in page
    for path, back in ((f"{manage}/payment", manage), (f"{settle}/paid", settle)):
        page = _post(client, path, back, **{"from": "Ann", "to": "Ben", "amount": typed})
        assert f"Betrag: eine Dezimalzahl größer als 0, etwa 0,75, nicht „{typed}“" in page, \
            _notices(page)
        assert "Payment:" not in page and "000.000.000.000.000" not in page
    assert _seq(app, sid) == before


def test_a_long_amount_is_quoted_no_longer_than_its_field(client, app):
    sid, _key = _open(client, OPENING, "de")
    client.set_cookie("lang", "de")
    manage = f"/s/{sid}/manage"
    assert 'maxlength="24"' in client.get(manage).get_data(as_text=True)
    page = _post(client, f"{manage}/payment", manage, **{"from": "Ann", "to": "Ben",
                                                          "amount": "9" * 400})
    assert "9" * 24 not in page and "Betrag: " in page
    # a plain amount too large for the table is named by the form's label
    page = _post(client, f"{manage}/payment", manage, **{"from": "Ann", "to": "Ben",
                                                          "amount": "99999999999999"})
    said = [n for n in _notices(page) if "99.999.999.999.999" in n or "99999999999999" in n]
    assert said and "Betrag: " in said[0] and "Payment" not in said[0], _notices(page)


def test_an_id_typed_in_capitals_opens_its_table(client):
    sid, _key = _open(client, OPENING, "de")
    while sid == sid.upper():  # an id of digits alone has no capitals to type
        sid, _key = _open(client, OPENING, "de")
    home = client.get("/").get_data(as_text=True)
    field = re.search(r'<input[^>]*name="session_id"[^>]*>', home).group(0)
    for attribute in ('autocapitalize="off"', 'autocomplete="off"', 'spellcheck="false"'):
        assert attribute in field, field
    r = client.post("/open", data={"csrf_token": token(client, "/"),
                                   "session_id": f" {sid.upper()} "})
    assert r.headers["Location"].endswith(f"/s/{sid}")
    r = client.get(f"/s/{sid.upper()}/unlock?next=x")
    assert r.status_code == 301 and r.headers["Location"].endswith(f"/s/{sid}/unlock?next=x")
    # a post keeps its method and body on the way
    r = client.post(f"/s/{sid.upper()}/unlock",
                    data={"csrf_token": token(client, "/"), "pin": "1"})
    assert r.status_code == 308 and r.headers["Location"].endswith(f"/s/{sid}/unlock")
    # no id of the right shape: no table, not a redirect
    assert client.get("/s/NOT-AN-ID/unlock").status_code != 301


@pytest.mark.parametrize("link", ["https://paypal.me/elodiem", "paypal.me/elodiem",
                                  "www.paypal.me/elodiem/", "https://www.paypal.me/elodiem/10EUR",
                                  "http://paypal.me/elodiem/12.50", "elodiem",
                                  "https://paypal.me/elodiem?country.x=DE"])
def test_a_pasted_paypal_me_link_keeps_its_name(link):
    assert check_paypal(link) == "elodiem"


@pytest.mark.parametrize("typed", ["https://paypal.me/elodie-m", "https://example.org/elodiem",
                                   "https://evil.example/paypal.me/elodiem", "paypal.me/",
                                   "paypal.me/elodiem/pay/now"])
def test_anything_else_is_no_paypal_me_name(typed):
    with pytest.raises(RefereeError) as err:
        check_paypal(typed)
    assert err.value.code == "bad_paypal"


def test_a_paypal_me_link_is_kept_from_the_settle_page(client):
    sid, _key = _open(client, OPENING, "de")
    settle = f"/s/{sid}/settle"
    _post(client, f"{settle}/details", settle, player="Ann",
          paypal="https://www.paypal.me/AnnM/5EUR")
    assert "Ann: PayPal AnnM<" in client.get(settle).get_data(as_text=True)


def test_every_link_to_a_paper_names_the_readers_language(client):
    """A phone that remembers Portuguese at a German table: each page's link
    to a paper says ?lang=pt, for the paper's address alone names its
    language (docs/decisions.md, issue 15)."""
    sid, _key = _open(client, OPENING, "de")
    client.set_cookie("lang", "pt")
    pages = [f"/s/{sid}", f"/s/{sid}/settle"]
    seen = 0
    for path in pages:
        page = html.unescape(client.get(path).get_data(as_text=True))
        links = re.findall(r'href="([^"]*\.pdf[^"]*)"', page)
        for link in links:
            assert "lang=pt" in link, (path, link)
            seen += 1
    assert seen == 2
    # and the paper at that address is Portuguese, the same on every device
    bare = client.get(f"/reports/{sid}/settlement.pdf").data
    asked = client.get(f"/reports/{sid}/settlement.pdf?lang=pt").data
    assert bare != asked


def test_the_club_season_paper_link_names_the_readers_language(client, app):
    _open(client, OPENING, "de")
    app.config["REFEREE_HOST_KEY"] = "club-key"
    with client.session_transaction() as s:
        s["club"] = True
    client.set_cookie("lang", "pt")
    page = html.unescape(client.get("/club/season").get_data(as_text=True))
    links = re.findall(r'href="([^"]*season\.pdf[^"]*)"', page)
    assert links and all("lang=pt" in link for link in links), links


def test_every_phone_page_links_its_papers_in_the_phones_language(app, client):
    """The host's tablet, a seat's phone and the viewer link (a TV) that
    remember Portuguese: every link to a paper on their pages names it."""
    from tests.test_api import Game
    from tests.test_phones import _host, _joined, _link

    g = Game(client)
    g.start()
    g.finish_hand()
    seen = 0
    for who in (_host(app, g), _joined(app, _link(g, "seat", "Ann")),
                _joined(app, _link(g, "viewer"))):
        who.set_cookie("lang", "pt")
        for path in ("", "/settle", "/hands/1", "/tv"):
            page = html.unescape(who.get(f"/s/{g.sid}{path}").get_data(as_text=True))
            for link in re.findall(r'href="([^"]*\.pdf[^"]*)"', page):
                assert "lang=pt" in link, (path, link)
                seen += 1
    assert seen >= 6
