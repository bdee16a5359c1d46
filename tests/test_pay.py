"""Settling up: payment details checked and kept in the chains, each transfer
with what its payer needs (an EPC QR code read back from the PDF, a PayPal.me
link), marked paid by the host, shown to the table's own devices only, the
refusals in four languages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from referee import language
from referee.rules.errors import MalformedInput
from referee.service import storage
from referee.service.money import payable
from referee.service.table import cache
from tests.test_api import assert_error, bearer
from tests.test_tablet import token as csrf_token
from tests.test_trust import raw, verify

BASIC = Path(__file__).resolve().parents[1] / "sample_logs" / "pagat_basic.json"
# pagat_basic settles as "Ben pays Ann 0.75" and "Ben pays Cy 0.25".
ANN_IBAN = "DE89 3704 0044 0532 0130 00"
CY_IBAN = "NL91ABNA0417164300"


def open_table(client, currency="EUR", table="Kitchen table", lang=None):
    log = json.loads(BASIC.read_text())
    log["currency"], log["table"] = currency, table
    if lang:
        log["language"] = lang
    # One sample night, as many tables as a test asks for: copies, asked for.
    made = client.post("/api/sessions", json={**log, "copy": True}).get_json()
    return made["id"], made["table_token"], made["audit_token"]


def put(client, sid, token, name, body, **headers):
    return client.put(f"/api/sessions/{sid}/players/{name}/pay", json=body,
                      headers={**bearer(token), **headers})


def unlock(client, sid, token) -> str:
    """This test client unlocks the table (an import has no PIN: its token
    unlocks it); returns the page's CSRF token for the forms."""
    csrf = csrf_token(client, f"/s/{sid}/unlock")
    r = client.post(f"/s/{sid}/unlock", data={"csrf_token": csrf, "pin": token})
    assert r.status_code == 303, r.data[:300]
    return csrf


def settlement(client, sid, token):
    r = client.get(f"/api/sessions/{sid}/settlement", headers=bearer(token))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def owed(doc, payer, payee):
    return next(t for t in doc["owed"] if (t["from"], t["to"]) == (payer, payee))


# ------------------------------------------------------------------ details, checked

@pytest.mark.parametrize("text, compact", [
    ("DE89 3704 0044 0532 0130 00", "DE89370400440532013000"),
    ("de89370400440532013000", "DE89370400440532013000"),
    ("NL91ABNA0417164300", "NL91ABNA0417164300"),
    ("FR14 2004 1010 0505 0001 3M02 606", "FR1420041010050500013M02606"),
    ("PT50 0002 0123 1234 5678 9015 4", "PT50000201231234567890154"),
    ("GB82 WEST 1234 5698 7654 32", "GB82WEST12345698765432"),
    ("BR18 0036 0305 0000 1000 9795 493C 1", "BR1800360305000010009795493C1"),
])
def test_good_ibans_are_kept_compact(text, compact):
    assert payable.check_iban(text) == compact


@pytest.mark.parametrize("text, code", [
    ("DE89 3704 0044 0532 0130 01", "iban_checksum"),   # the last digit mistyped
    ("DE98 3704 0044 0532 0130 00", "iban_checksum"),   # two check digits swapped
    ("NL19ABNA0417164300", "iban_checksum"),
    ("XX89 3704 0044 0532 0130 00", "iban_country"),
    ("DE89 3704 0044 0532 0130 0", "iban_format"),      # a German IBAN has 22 characters
    ("NL91 1234 0417 1643 00", "iban_format"),           # the Dutch bank code is letters
    ("1234", "iban_format"),
])
def test_bad_ibans_are_refused_naming_the_field(text, code):
    with pytest.raises(MalformedInput) as err:
        payable.check_iban(text)
    assert err.value.code == code
    assert err.value.sentence.startswith("IBAN: ")


@pytest.mark.parametrize("doc, code, field", [
    ({"iban": ANN_IBAN}, "holder_needed", "holder"),
    ({"holder": "Ann"}, "holder_without_iban", "holder"),
    ({"iban": ANN_IBAN, "holder": "A\nB"}, "bad_pay_line", "holder"),
    ({"iban": ANN_IBAN, "holder": "x" * 71}, "bad_pay_line", "holder"),
    ({"paypal": "ann albers"}, "bad_paypal", "paypal"),
    ({"paypal": "paypal.me/"}, "bad_paypal", "paypal"),
    ({"note": " "}, "bad_pay_line", "note"),
    ({"note": "x" * 141}, "bad_pay_line", "note"),
    ({"bank": "x"}, "unknown_field", "bank"),
])
def test_bad_details_are_refused_naming_the_field(doc, code, field):
    with pytest.raises(MalformedInput) as err:
        payable.check_details(doc)
    assert err.value.code == code
    # Named as the form labels it (the key only for a field no form has).
    assert err.value.sentence.startswith(f"{payable.FIELD_WORDS.get(field, field)}: ")


def test_details_as_kept():
    assert payable.check_details({"iban": " nl91abna0417164300 ", "holder": " Cy Cohen ",
                                  "paypal": "https://www.paypal.me/CyCohen/", "note": "cash"}) \
        == {"iban": "NL91ABNA0417164300", "holder": "Cy Cohen", "paypal": "CyCohen",
            "note": "cash"}
    assert payable.check_details({}) == {}
    assert payable.check_details({"note": None}) == {}


# ------------------------------------------------------------------ what the payer needs

ANN = {"iban": "DE89370400440532013000", "holder": "Ann Albers", "paypal": "annalbers"}


@pytest.mark.parametrize("amount, currency, link", [
    ("12.50", "EUR", "https://paypal.me/annalbers/12.50EUR"),
    ("12.5", "eur", "https://paypal.me/annalbers/12.50EUR"),
    ("3", "USD", "https://paypal.me/annalbers/3.00USD"),
    ("1500", "JPY", "https://paypal.me/annalbers/1500JPY"),
    ("0.125", "EUR", "https://paypal.me/annalbers"),     # PayPal has no tenth of a cent
    ("1500.5", "JPY", "https://paypal.me/annalbers"),    # nor yen below one
    ("2.00", "XOF", "https://paypal.me/annalbers"),      # a currency PayPal does not ask in
    ("2.00", "chips", "https://paypal.me/annalbers"),    # not a currency PayPal knows
])
def test_paypal_links_ask_for_the_amount_only_when_they_can(amount, currency, link):
    assert payable.paypal_link(ANN, amount, currency) == link
    how = payable.how_to_pay(ANN, amount, currency, "Tonk")
    assert how["paypal"] == link and how["paypal_amount"] == (link != "https://paypal.me/"
                                                                      "annalbers")


@pytest.mark.parametrize("amount, currency, wanted", [
    ("12.50", "EUR", True), ("0.01", "EUR", True), ("999999999.99", "EUR", True),
    ("12.50", "USD", False), ("12.50", None, False), ("12.505", "EUR", False),
    ("1000000000", "EUR", False),
])
def test_an_epc_code_only_for_euros_in_whole_cents(amount, currency, wanted):
    epc = payable.epc(ANN, amount, currency, "Tonk Kitchen table 2026-11-21")
    assert (epc is not None) == wanted
    if wanted:
        assert epc == {"name": "Ann Albers", "iban": "DE89370400440532013000",
                       "amount": amount, "text": "Tonk Kitchen table 2026-11-21", "bic": None}


def test_no_epc_code_outside_the_sepa_zone_and_a_bic_outside_the_eea():
    brazil = {"iban": "BR1800360305000010009795493C1", "holder": "Bia"}
    assert payable.epc(brazil, "5", "EUR", "Tonk") is None
    assert payable.how_to_pay(brazil, "5", "EUR", "Tonk")["iban"].startswith("BR18 0036")
    uk = payable.epc({"iban": "GB33BUKB20201555555555", "holder": "Bo"}, "5", "EUR", "Tonk")
    assert uk is None or (uk["bic"] and len(uk["bic"]) in (8, 11))


# ------------------------------------------------------------------ the API

def test_put_details_then_the_settlement_carries_them(client):
    sid, token, audit = open_table(client)
    r = put(client, sid, token, "Ann", {"iban": ANN_IBAN, "holder": "Ann Albers",
                                        "paypal": "annalbers", "client_id": "p1"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == {"event": "pay_details", "hand": None, "player": "Ann",
                            "iban": "DE89370400440532013000", "holder": "Ann Albers",
                            "paypal": "annalbers"}
    assert put(client, sid, token, "Ann", {"iban": ANN_IBAN, "holder": "Ann Albers",
                                           "paypal": "annalbers", "client_id": "p1"}
               ).get_json() == r.get_json()  # a retry: the first answer
    doc = settlement(client, sid, audit)
    ann = owed(doc, "Ben", "Ann")
    assert ann["amount"] == "0.75" and ann["since"] is None
    assert ann["pay"] == {
        "iban": "DE89 3704 0044 0532 0130 00", "holder": "Ann Albers",
        "reference": "Ben: Tonk Kitchen table 2026-11-21",
        "epc": {"name": "Ann Albers", "iban": "DE89370400440532013000", "amount": "0.75",
                "text": "Ben: Tonk Kitchen table 2026-11-21", "bic": None},
        "paypal": "https://paypal.me/annalbers/0.75EUR", "paypal_amount": True}
    assert owed(doc, "Ben", "Cy")["pay"] is None
    # A field left out stays (newcomer44 P3); each sent as null goes.
    put(client, sid, token, "Ann", {"note": "cash only"})
    assert owed(settlement(client, sid, audit), "Ben", "Ann")["pay"]["epc"]
    put(client, sid, token, "Ann", {"iban": None, "paypal": None, "note": None})
    assert owed(settlement(client, sid, audit), "Ben", "Ann")["pay"] is None


def test_no_epc_code_at_a_dollar_table(client):
    sid, token, _ = open_table(client, currency="USD")
    put(client, sid, token, "Ann", {"iban": ANN_IBAN, "holder": "Ann Albers"})
    pay = owed(settlement(client, sid, token), "Ben", "Ann")["pay"]
    assert pay["epc"] is None and pay["iban"] == "DE89 3704 0044 0532 0130 00"


REFUSALS = [
    ({"iban": "DE89 3704 0044 0532 0130 01", "holder": "Ann"}, "iban_checksum", {
        "en": "the check digits", "de": "Prüfziffern", "fr": "clé de contrôle",
        "pt": "dígitos de controlo"}),
    ({"paypal": "a b"}, "bad_paypal", {
        "en": "PayPal.me name", "de": "PayPal.me-Name", "fr": "nom PayPal.me",
        "pt": "nome PayPal.me"}),
    ({"iban": ANN_IBAN}, "holder_needed", {
        "en": "holder goes with", "de": "Kontoinhabers", "fr": "titulaire", "pt": "titular"}),
]


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
@pytest.mark.parametrize("body, code, words", REFUSALS, ids=[c for _, c, _ in REFUSALS])
def test_refusals_name_the_field_in_four_languages(client, body, code, words, lang):
    sid, token, audit = open_table(client)
    before = storage.chain.final_hash(storage.connect(client.application.config["DATABASE"]), sid)
    err = assert_error(put(client, sid, token, "Ann", body, **{"Accept-Language": lang}),
                       400, code)
    field = "paypal" if code == "bad_paypal" else "iban" if code.startswith("iban") \
        else "holder"
    # The field as the form labels it, in the reader's words ("IBAN", not "iban").
    label = language.gettext(lang, payable.FIELD_WORDS[field])
    assert re.match(rf"{re.escape(label)}\s?: ", err["message"]) and \
        words[lang] in err["message"], err
    assert storage.chain.final_hash(storage.connect(client.application.config["DATABASE"]),
                                    sid) == before  # nothing kept


def test_details_need_the_tables_own_token(client):
    sid, token, audit = open_table(client)
    other_sid, other_token, _ = open_table(client, table="Other table")
    assert_error(put(client, sid, audit, "Ann", {"note": "x"}), 403, "forbidden")
    assert_error(put(client, sid, other_token, "Ann", {"note": "x"}), 401, "unauthorized")
    assert_error(put(client, sid, token, "Zed", {"note": "x"}), 400, "unknown_player")
    put(client, sid, token, "Ann", {"iban": ANN_IBAN, "holder": "Ann Albers"})
    r = client.get(f"/api/sessions/{sid}/settlement", headers=bearer(other_token))
    assert_error(r, 401, "unauthorized")
    # The other table (Ann plays there too) never sees what Ann gave this one.
    assert all(t["pay"] is None for t in settlement(client, other_sid, other_token)["owed"])


def test_details_are_shown_only_beside_a_payment_to_that_player(client):
    sid, token, _ = open_table(client)
    put(client, sid, token, "Ben", {"iban": CY_IBAN, "holder": "Ben Becker",
                                    "note": "ben-only-line"})
    assert "NL91" not in json.dumps(settlement(client, sid, token))  # Ben only pays
    unlock(client, sid, token)
    page = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "Ben pays Ann" in page
    # Only the details form says what Ben gave (to the devices that may change
    # it; the IBAN masked: newcomer44 P3); the transfers' cards say nothing.
    form = re.search(r'<section class="panel" aria-labelledby="h-details">.*?</section>',
                     page, re.S).group(0)
    assert "Ben: IBAN NL91 … 4300 · Ben Becker" in words(form) and CY_IBAN not in form
    page = page.replace(form, "")
    assert "NL91" not in page and "ben-only-line" not in page and "Ben Becker" not in page
    pdf = client.get(f"/reports/{sid}/settlement.pdf").data
    from tests.reports_fixtures import pdf_text

    assert "Ben pays Ann" in pdf_text(pdf)
    assert "NL91" not in pdf_text(pdf) and "ben-only-line" not in pdf_text(pdf)


def test_the_clubs_details_when_the_table_has_none(client, app):
    sid, token, _ = open_table(client)
    app.config["REFEREE_HOST_KEY"] = "k"
    host = {"X-Host-Key": "k"}
    r = client.put("/api/club/people/Cy/pay", json={"iban": CY_IBAN, "holder": "Cy Cohen"},
                   headers=host)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["kind"] == "pay_details" and r.get_json()["person"] == "Cy"
    assert owed(settlement(client, sid, token), "Ben", "Cy")["pay"]["epc"]["iban"] == CY_IBAN
    # The table's own come first: the club's IBAN taken away here, a line added.
    put(client, sid, token, "Cy", {"iban": None, "note": "cash tonight"})
    assert owed(settlement(client, sid, token), "Ben", "Cy")["pay"] == {"note": "cash tonight"}
    assert_error(client.put("/api/club/people/Zed/pay", json={"note": "x"}, headers=host),
                 422, "unknown_player")
    assert_error(client.put("/api/club/people/Cy/pay", json={"iban": "NL19ABNA0417164300",
                                                             "holder": "Cy"}, headers=host),
                 400, "iban_checksum")
    assert_error(client.put("/api/club/people/Cy/pay", json={"note": "x"}), 401)
    # Not among the club's changes (who is whom), and the club's chain verifies.
    page_app = client.application
    with page_app.test_request_context():
        from referee.service import club

        assert all(ev["kind"] != "pay_details" for ev in club.club_history(
            storage.connect(page_app.config["DATABASE"])))
    assert verify(app) == 0


# ------------------------------------------------------------------ marking paid

def test_marked_paid_by_the_host_from_the_page(client):
    sid, token, _ = open_table(client)
    csrf = unlock(client, sid, token)
    page = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert 'data-from="Ben" data-to="Ann" data-amount="0.75"' in page
    r = client.post(f"/s/{sid}/settle/paid", data={"from": "Ben", "to": "Ann",
                                                   "amount": "0.75", "client_id": "m1",
                                                   "csrf_token": csrf})
    assert r.status_code == 303
    doc = settlement(client, sid, token)
    assert [(t["from"], t["to"]) for t in doc["owed"]] == [("Ben", "Cy")]
    assert doc["payments"][-1]["from"] == "Ben" and doc["payments"][-1]["amount"] == "0.75"
    log = client.get(f"/api/sessions/{sid}/log", headers=bearer(token)).get_json()
    assert log["payments"][-1] == doc["payments"][-1]  # the log's own payment
    # Marked a second time (another phone, a stale page): refused, nothing recorded.
    client.post(f"/s/{sid}/settle/paid", data={"from": "Ben", "to": "Ann", "amount": "0.75",
                                               "client_id": "m2", "csrf_token": csrf})
    assert len(settlement(client, sid, token)["payments"]) == 1
    page = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "does not owe" in page


def test_marked_paid_through_the_api_after_the_table_closed(client):
    sid, token, audit = open_table(client)
    assert client.post(f"/api/sessions/{sid}/close", json={},
                       headers=bearer(token)).status_code == 201
    doc = settlement(client, sid, audit)
    assert owed(doc, "Ben", "Ann")["since"] == doc["closed"]
    body = {"from": "Ben", "to": "Cy", "amount": "0.25", "client_id": "c1"}
    r = client.post(f"/api/sessions/{sid}/paid", json=body, headers=bearer(token))
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["event"] == "payment"
    assert client.post(f"/api/sessions/{sid}/paid", json=body,
                       headers=bearer(token)).get_json() == r.get_json()  # a retry
    assert_error(client.post(f"/api/sessions/{sid}/paid", json={**body, "client_id": "c2"},
                             headers=bearer(token)), 422, "not_owed")
    assert_error(client.post(f"/api/sessions/{sid}/paid", json={**body, "amount": "0.20",
                                                               "to": "Ann", "client_id": "c3"},
                             headers=bearer(token)), 422, "not_owed")
    assert_error(client.post(f"/api/sessions/{sid}/paid", json={**body, "client_id": "c4"},
                             headers=bearer(audit)), 403)
    assert [t["to"] for t in settlement(client, sid, audit)["owed"]] == ["Ann"]
    # A closed table still takes its players' details; nothing else.
    assert put(client, sid, token, "Ann", {"note": "cash"}).status_code == 200
    assert_error(client.post(f"/api/sessions/{sid}/stake", json={"stake": "1"},
                             headers=bearer(token)), 409, "table_closed")


def test_the_chain_vouches_for_the_details(client, app):
    sid, token, _ = open_table(client)
    put(client, sid, token, "Ann", {"iban": ANN_IBAN, "holder": "Ann Albers"})
    assert verify(app) == 0
    conn = raw(app)
    payload = json.dumps({"player": "Ann", "iban": "DE02120300000000202051",
                          "holder": "Mallory"})
    conn.execute("UPDATE events SET payload = ? WHERE session_id = ? AND kind = 'pay_details'",
                 [payload, sid])
    cache.forget()
    assert verify(app) == 1  # someone's IBAN swapped in the database: the chain says so


def test_a_renamed_player_keeps_their_details(client):
    sid, token, _ = open_table(client)
    put(client, sid, token, "Ann", {"note": "cash"})
    r = client.post(f"/api/sessions/{sid}/players/Ann", json={"name": "Anne"},
                    headers=bearer(token))
    assert r.status_code == 201, r.get_json()
    assert owed(settlement(client, sid, token), "Ben", "Anne")["pay"] == {"note": "cash"}


# ------------------------------------------------------------------ the PDF, read back

def epc_fields(text: str) -> dict:
    lines = text.split("\n")
    assert lines[:2] == ["BCD", "002"] and lines[3] == "SCT", lines
    return {"bic": lines[4], "name": lines[5], "iban": lines[6], "amount": lines[7],
            "text": lines[10] if len(lines) > 10 else ""}


def read_codes(png: Path) -> list[str]:
    import zxingcpp
    from PIL import Image

    return [r.text for r in zxingcpp.read_barcodes(Image.open(png).convert("L"))]


def settlement_codes(client, sid: str, token: str, tmp_path: Path) -> tuple[bytes, list[dict]]:
    """The settlement PDF and the EPC codes its first page shows, read back
    from the page drawn at 150 dpi."""
    r = client.get(f"/reports/{sid}/settlement.pdf?token={token}")
    assert r.status_code == 200
    (tmp_path / "s.pdf").write_bytes(r.data)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", "1", "-l", "1",
                    str(tmp_path / "s.pdf"), str(tmp_path / "p")], check=True)
    codes = [epc_fields(t) for t in read_codes(next(tmp_path.glob("p*.png")))
             if t.startswith("BCD")]
    return r.data, codes


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler-utils (pdftoppm) missing")
@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_the_pdfs_epc_code_reads_back_to_the_settlement(client, tmp_path, lang):
    sid, token, _ = open_table(client, lang=lang)
    put(client, sid, token, "Ann", {"iban": ANN_IBAN, "holder": "Ann Albers",
                                    "paypal": "annalbers"})
    put(client, sid, token, "Cy", {"iban": CY_IBAN, "holder": "Cy Cohen"})
    pdf, codes = settlement_codes(client, sid, token, tmp_path)
    want = {(t["to"], Decimal(t["amount"])) for t in settlement(client, sid, token)["owed"]}
    got = {({"DE89370400440532013000": "Ann", CY_IBAN: "Cy"}[c["iban"]],
            Decimal(c["amount"].removeprefix("EUR"))) for c in codes}
    assert got == want == {("Ann", Decimal("0.75")), ("Cy", Decimal("0.25"))}
    assert {c["name"] for c in codes} == {"Ann Albers", "Cy Cohen"}
    assert all(c["text"] == "Ben: Tonk Kitchen table 2026-11-21" and c["bic"] == ""
               for c in codes)
    from tests.reports_fixtures import pdf_text

    assert "https://paypal.me/annalbers/0.75EUR" in pdf_text(pdf)


# ------------------------------------------------------------------ the club: owed since

def test_the_club_says_since_when_each_debtor_owes():
    from referee.ledger.club import ClubSession, HandLine, owing_since

    def night(day, nets, payments=()):
        net = {p: Decimal(v) for p, v in nets.items()}
        return ClubSession(id=day, date=day, players=list(net),
                           hands=[HandLine("out", (), net)], payments=payments)

    sessions = [night("2026-11-02", {"Ann": "-3", "Ben": "3", "Cy": "0"}),
                night("2026-11-09", {"Ann": "-1", "Ben": "-2", "Cy": "3"}),
                # Ann pays what she owes: she is clear from here, until she loses again.
                night("2026-11-16", {"Ann": "0", "Ben": "0", "Cy": "0"},
                      [("Ann", "Ben", Decimal(1)), ("Ann", "Cy", Decimal(3))]),
                night("2026-11-23", {"Ann": "-1", "Ben": "0", "Cy": "1"})]
    assert owing_since(sessions) == {"Ann": "2026-11-23"}
    assert owing_since(sessions[:2]) == {"Ann": "2026-11-02"}
    assert owing_since(sessions[:3]) == {}


# ------------------------------------------------------------------ seats and the viewer

def link(client, sid, token, role, player=None) -> dict:
    body = {"role": role, **({"player": player} if player else {})}
    r = client.post(f"/api/sessions/{sid}/links", json=body, headers=bearer(token))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_a_seat_keeps_its_own_details_and_marks_its_own_transfers(client):
    sid, token, _ = open_table(client)
    ann, ben, cy = (link(client, sid, token, "seat", p)["token"] for p in ("Ann", "Ben", "Cy"))
    viewer = link(client, sid, token, "viewer")["token"]
    assert put(client, sid, ann, "Ann", {"paypal": "annalbers"}).status_code == 200
    assert_error(put(client, sid, ann, "Cy", {"note": "x"}), 403, "not_your_seat")
    assert_error(put(client, sid, viewer, "Ann", {"note": "x"}), 403, "not_your_seat")
    doc = settlement(client, sid, viewer)  # the viewer reads the settle-up
    assert owed(doc, "Ben", "Ann")["pay"]["paypal"] == "https://paypal.me/annalbers/0.75EUR"

    def paid(seat, payer, payee, amount, cid):
        return client.post(f"/api/sessions/{sid}/paid", headers=bearer(seat), json={
            "from": payer, "to": payee, "amount": amount, "client_id": cid})

    assert_error(paid(cy, "Ben", "Ann", "0.75", "x1"), 403, "not_your_seat")  # not Cy's
    assert_error(paid(viewer, "Ben", "Ann", "0.75", "x2"), 403, "not_your_seat")
    assert paid(ann, "Ben", "Ann", "0.75", "x3").status_code == 201  # the payee says so
    assert paid(ben, "Ben", "Cy", "0.25", "x4").status_code == 201  # the payer says so:
    # it waits for the payee's word (issue 33), which marking it paid gives
    assert [(t["from"], t["to"]) for t in settlement(client, sid, viewer)["owed"]] == \
        [("Ben", "Cy")]
    assert paid(cy, "Ben", "Cy", "0.25", "x5").status_code == 201
    assert settlement(client, sid, viewer)["owed"] == []
    assert [p["to"] for p in settlement(client, sid, token)["payments"]] == ["Ann", "Cy"]


def join(client, sid, token) -> str:
    """This test client opens a seat's or the viewer's link; the CSRF token."""
    assert client.get(f"/s/{sid}/join/{token}").status_code == 303
    return csrf_token(client, f"/s/{sid}/settle")


def test_the_settle_page_from_a_seats_phone_and_the_viewer_link(app):
    sid, token, _ = open_table(app.test_client())
    host = app.test_client()
    unlock(host, sid, token)
    ann = link(host, sid, token, "seat", "Ann")["token"]
    put(host, sid, token, "Ann", {"iban": ANN_IBAN, "holder": "Ann Albers"})
    page = host.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert 'id="share-url"' not in page and "#invite" in page  # no viewer link yet
    viewer = link(host, sid, token, "viewer")["token"]
    page = host.get(f"/s/{sid}/settle").get_data(as_text=True)
    shared = re.search(r'id="share-url" value="([^"]+)"', page).group(1)
    assert shared.endswith(f"/s/{sid}/settle/by/{viewer}")
    assert page.count('class="mark-paid"') == 2 and 'id="details-form"' in page

    # Ann's phone: she marks paid what Ben pays her, not what Ben pays Cy,
    # and gives her own details only.
    phone = app.test_client()
    csrf = join(phone, sid, ann)
    page = phone.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert page.count('class="mark-paid"') == 1 and 'data-to="Ann"' in page
    assert re.findall(r'<select name="player" id="pay-player"[^>]*>(.*?)</select>', page) == [
        "<option>Ann</option>"]
    r = phone.post(f"/s/{sid}/settle/paid", data={"from": "Ben", "to": "Cy", "amount": "0.25",
                                                  "csrf_token": csrf, "client_id": "p1"})
    assert r.status_code == 303 and len(settlement(host, sid, token)["payments"]) == 0
    phone.post(f"/s/{sid}/settle/details", data={"player": "Cy", "note": "x",
                                                 "csrf_token": csrf, "client_id": "p2"})
    assert owed(settlement(host, sid, token), "Ben", "Cy")["pay"] is None
    phone.post(f"/s/{sid}/settle/paid", data={"from": "Ben", "to": "Ann", "amount": "0.75",
                                              "csrf_token": csrf, "client_id": "p3"})
    assert [t["to"] for t in settlement(host, sid, token)["owed"]] == ["Cy"]

    # A player's phone opens the shared link: the page, its QR codes and the
    # PDF, and nothing to post.
    friend = app.test_client()
    r = friend.get(shared.removeprefix("http://localhost"))
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/s/{sid}/settle")
    page = friend.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "Ben pays Cy" in page and 'class="mark-paid"' not in page
    assert 'id="details-form"' not in page
    pdf = friend.get(f"/reports/{sid}/settlement.pdf")
    assert pdf.status_code == 200 and pdf.data[:4] == b"%PDF"
    r = friend.post(f"/s/{sid}/settle/paid", follow_redirects=True, data={
        "from": "Ben", "to": "Cy", "amount": "0.25", "csrf_token": csrf_token(friend),
        "client_id": "v1"})
    assert "This link only shows the table" in r.get_data(as_text=True)
    assert len(settlement(host, sid, token)["payments"]) == 1
    # A seat's phone that opens the shared link stays Ann's seat.
    phone.get(f"/s/{sid}/settle/by/{viewer}")
    assert 'id="details-form"' in phone.get(f"/s/{sid}/settle").get_data(as_text=True)
    # Another table's viewer link opens nothing here.
    other_sid, other_token, _ = open_table(app.test_client(), table="Other")
    other_viewer = link(app.test_client(), other_sid, other_token, "viewer")["token"]
    stranger = app.test_client()
    assert stranger.get(f"/s/{sid}/settle/by/{other_viewer}").status_code == 403
    r = stranger.get(f"/s/{sid}/settle")
    assert r.status_code == 302 and "/unlock" in r.headers["Location"]
    assert stranger.get(f"/reports/{sid}/settlement.pdf").status_code in (302, 303)


def test_the_host_keeps_a_persons_details_from_the_clubs_page(client, app):
    sid, token, _ = open_table(client)
    app.config["REFEREE_HOST_KEY"] = "k"
    with client.session_transaction() as s:
        s["club"], s["csrf"] = True, "t"
    r = client.post("/club/people/Cy/pay", data={"csrf_token": "t", "iban": "NL19ABNA0417164300",
                                                 "holder": "Cy"}, follow_redirects=True)
    assert "the check digits of NL19ABNA0417164300 are wrong" in r.get_data(as_text=True)
    assert "None kept" in r.get_data(as_text=True)
    r = client.post("/club/people/Cy/pay", data={"csrf_token": "t", "iban": CY_IBAN,
                                                 "holder": "Cy Cohen", "note": "or cash"},
                    follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "Kept: an IBAN, a line." in page and CY_IBAN not in page  # which, not what
    assert owed(settlement(client, sid, token), "Ben", "Cy")["pay"]["note"] == "or cash"
    # A PayPal name added keeps the rest; "Remove" takes the line away (newcomer44 P3).
    client.post("/club/people/Cy/pay", data={"csrf_token": "t", "paypal": "cycohen"})
    page = client.post("/club/people/Cy/pay", data={"csrf_token": "t", "remove": "note"},
                       follow_redirects=True).get_data(as_text=True)
    assert "Kept: an IBAN, a PayPal.me name." in page
    assert set(owed(settlement(client, sid, token), "Ben", "Cy")["pay"]) == {
        "iban", "holder", "reference", "epc", "paypal", "paypal_amount"}


def test_referee_settle_from_the_database_says_how_to_pay(client, app, tmp_path):
    from referee.cli import main
    from tests.reports_fixtures import pdf_text

    sid, token, _ = open_table(client)
    put(client, sid, token, "Ann", {"paypal": "annalbers", "note": "or cash"})
    cache.forget()
    out = tmp_path / "s.pdf"
    assert main(["settle", "--db", app.config["DATABASE"], sid, "--pdf", str(out)]) == 0
    text = pdf_text(out.read_bytes())
    assert "https://paypal.me/annalbers/0.75EUR" in text and "Ann says: or cash" in text


def test_a_players_phone_lists_their_own_transfers_first(app):
    host = app.test_client()
    sid, token, _ = open_table(host)
    cy = link(host, sid, token, "seat", "Cy")["token"]
    phone = app.test_client()
    join(phone, sid, cy)
    page = phone.get(f"/s/{sid}/settle").get_data(as_text=True)
    cards = re.findall(r'<li class="panel transfer( mine)?" data-from="(\w+)" data-to="(\w+)"',
                       page)
    assert cards == [(" mine", "Ben", "Cy"), ("", "Ben", "Ann")]


def test_a_player_keeps_their_details_for_the_club_from_their_own_phone(app):
    host = app.test_client()
    sid, token, _ = open_table(host)
    later, later_token, _ = open_table(host, table="Next week")
    ann = link(host, sid, token, "seat", "Ann")["token"]
    body = {"paypal": "annalbers", "club": True}
    assert_error(put(host, sid, token, "Ann", body), 403, "forbidden")  # not the table token
    r = put(host, sid, ann, "Ann", body)
    assert r.status_code == 200 and "club" not in r.get_json()
    # Next week's table, where Ann gave nothing: the club's details for her.
    assert owed(settlement(host, later, later_token), "Ben", "Ann")["pay"]["paypal"] == \
        "https://paypal.me/annalbers/0.75EUR"
    # From her phone's form too.
    phone = app.test_client()
    csrf = join(phone, sid, ann)
    assert 'id="pay-club"' in phone.get(f"/s/{sid}/settle").get_data(as_text=True)
    phone.post(f"/s/{sid}/settle/details", data={"player": "Ann", "note": "cash only",
                                                 "club": "1", "csrf_token": csrf})
    assert owed(settlement(host, later, later_token), "Ben", "Ann")["pay"] == {
        "note": "cash only", "paypal": "https://paypal.me/annalbers/0.75EUR",
        "paypal_amount": True}  # a line added; the PayPal name stays (newcomer44 P3)


def test_a_payers_own_mark_paid_says_it_waits_for_the_payee(app):
    """Newcomer N6: Ben's phone marked a transfer paid and read "✓ Ben paid
    Cy", while it waits for Cy's word and the card still offered "Mark paid"."""
    host = app.test_client()
    sid, token, _ = open_table(host)
    ben, cy = (link(host, sid, token, "seat", p)["token"] for p in ("Ben", "Cy"))
    phone = app.test_client()
    csrf = join(phone, sid, ben)
    r = phone.post(f"/s/{sid}/settle/paid", follow_redirects=True, data={
        "from": "Ben", "to": "Cy", "amount": "0.25", "csrf_token": csrf, "client_id": "n6"})
    page = r.get_data(as_text=True)
    assert "Ben paid Cy" not in page.split('<h1>')[0]  # the flash, above the heading
    assert "Ben says they paid Cy €0.25: waiting for Cy to confirm it" in page
    card = re.search(r'<li class="panel transfer mine" data-from="Ben" data-to="Cy".*?</li>',
                     page, re.S).group(0)
    assert "Ben marked it paid: waiting for Cy to confirm" in card
    assert 'class="mark-paid"' not in card and 'class="confirm-paid"' not in card
    # Cy's phone confirms it from the card; then it is paid, by Cy's word.
    payee = app.test_client()
    csrf = join(payee, sid, cy)
    page = payee.get(f"/s/{sid}/settle").get_data(as_text=True)
    number = re.search(r'class="confirm-paid">.*?name="payment" value="(\d+)"', page).group(1)
    r = payee.post(f"/s/{sid}/settle/confirm", follow_redirects=True, data={
        "payment": number, "csrf_token": csrf, "client_id": "n6c"})
    assert 'data-to="Cy"' not in r.get_data(as_text=True)
    assert [t["to"] for t in settlement(host, sid, token)["owed"]] == ["Ann"]


def test_the_host_confirms_in_german_vom_gastgeber(app):
    host = app.test_client()
    sid, token, _ = open_table(host, lang="de")
    ben = link(host, sid, token, "seat", "Ben")["token"]
    phone = app.test_client()
    csrf = join(phone, sid, ben)
    phone.post(f"/s/{sid}/settle/paid", data={"from": "Ben", "to": "Cy", "amount": "0.25",
                                              "csrf_token": csrf, "client_id": "n6d"})
    csrf = unlock(host, sid, token)
    host.post(f"/s/{sid}/settle/confirm?lang=de", follow_redirects=True, data={
        "payment": "1", "csrf_token": csrf, "client_id": "n6e"})
    page = host.get(f"/s/{sid}/settle?lang=de").get_data(as_text=True)
    assert "bestätigt vom Gastgeber" in page and "von dem Gastgeber" not in page


def test_a_points_table_offers_no_way_to_pay_points(client, app):
    """Newcomer N16: a table played for points offered PayPal beside its
    transfers, on the page, the API and the PDF. Points are a score."""
    from tests.reports_fixtures import pdf_text

    log = json.loads(BASIC.read_text())
    log.pop("currency", None)
    made = client.post("/api/sessions", json={**log, "table": "Points"}).get_json()
    sid, token = made["id"], made["table_token"]
    assert put(client, sid, token, "Ann", {"paypal": "annalbers", "iban": ANN_IBAN,
                                           "holder": "Ann Albers"}).status_code == 200
    assert all(t["pay"] is None for t in settlement(client, sid, token)["owed"])
    unlock(client, sid, token)
    page = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "Ben pays Ann" in page
    assert "paypal" not in page.lower() and "epc" not in page and "IBAN" not in page
    assert "payment details" not in page  # nor asks for any
    text = pdf_text(client.get(f"/reports/{sid}/settlement.pdf").data)
    assert "Ben pays Ann" in text and "paypal" not in text.lower() and "IBAN" not in text


def test_a_payees_own_phone_is_asked_for_its_details_as_you(app):
    """Newcomer N14: Ann's own phone read "Ann has given no payment details:
    ask them, or add them below" beside a payment to Ann."""
    host = app.test_client()
    sid, token, _ = open_table(host)
    phone = app.test_client()
    join(phone, sid, link(host, sid, token, "seat", "Ann")["token"])
    card = re.search(r'<li class="panel transfer mine" data-from="Ben" data-to="Ann".*?</li>',
                     phone.get(f"/s/{sid}/settle").get_data(as_text=True), re.S).group(0)
    assert "You have given no payment details: add them below." in card
    assert "Ann has given" not in card


# A points table says "points" where a money table says its currency (N17).
POINT_PAGES = {
    "en": ("Ben pays Ann 3 points", "Ben pays Cy 1 point", "total (points)"),
    "de": ("Ben zahlt Ann 3 Punkte", "Ben zahlt Cy 1 Punkt", "Summe (Punkte)"),
    "fr": ("Ben paie 3 points à Ann", "Ben paie 1 point à Cy", "total (points)"),
    "pt": ("Ben paga 3 pontos a Ann", "Ben paga 1 ponto a Cy", "total (pontos)"),
}


@pytest.mark.parametrize("lang", sorted(POINT_PAGES))
def test_points_are_written_as_the_papers_write_them(client, lang):
    """Newcomer N17: a points table's pages said "Ben pays Ann 1.00" (money's
    two places) where its PDF says "1 point"; then "Ben pays Ann 1", with no
    unit where a money table says its currency."""
    log = json.loads(BASIC.read_text())
    log.pop("currency", None)
    made = client.post("/api/sessions", json={**log, "table": "Points", "stake": "1"}).get_json()
    unlock(client, made["id"], made["table_token"])
    ann, cy, total = POINT_PAGES[lang]
    page = client.get(f"/s/{made['id']}/settle?lang={lang}").get_data(as_text=True)
    owes = re.findall(r'<p class="owes"><strong>(.*?)</strong>', page)
    assert owes == [ann, cy], owes
    for tail in ("", "/standings", "/hands/1"):
        page = client.get(f"/s/{made['id']}{tail}?lang={lang}").get_data(as_text=True)
        assert total in page and ann in page and cy in page, tail


def _card(page: str, payee: str) -> str:
    return re.search(rf'<li class="panel transfer[^"]*" data-from="Ben" data-to="{payee}".*?</li>',
                     page, re.S).group(0)


def test_details_given_at_one_table_are_offered_at_the_next(app):
    """Newcomer N14: the host typed Ann's IBAN at the first table; at the
    next one "Ann has given no payment details: ask them, or add them
    below", to be typed again. They are offered there (the host's and Ann's
    own phone), kept for that table with one tap; never shown as hers
    before the tap (a table's host keeps details for its own table only),
    and never offered to another player's phone."""
    host = app.test_client()
    first, first_token, _ = open_table(host, table="Kitchen table")
    assert put(host, first, first_token, "Ann",
               {"iban": ANN_IBAN, "holder": "Ann Example"}).status_code == 200
    sid, token, _ = open_table(host, table="Back room")
    csrf = unlock(host, sid, token)
    page = host.get(f"/s/{sid}/settle").get_data(as_text=True)
    card = _card(page, "Ann")
    assert "Ann gave payment details at Kitchen table: use them here below" in card
    assert "DE89" not in card  # offered below, not shown as hers here
    offer = re.search(r'<form[^>]*class="offered".*?</form>', page, re.S).group(0)
    assert "Given by Ann at Kitchen table:" in offer and "DE89 3704 0044 0532 0130 00" in offer
    assert "Cy" not in offer  # Cy gave none anywhere: nothing to offer
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', offer))
    assert fields["player"] == "Ann" and fields["iban"] == ANN_IBAN.replace(" ", "")
    phone, other = app.test_client(), app.test_client()
    join(phone, sid, link(host, sid, token, "seat", "Ann")["token"])
    join(other, sid, link(host, sid, token, "seat", "Ben")["token"])
    assert 'class="offered"' in phone.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert 'class="offered"' not in other.get(f"/s/{sid}/settle").get_data(as_text=True)
    r = host.post(f"/s/{sid}/settle/details", data={**fields, "csrf_token": csrf})
    assert r.status_code == 303
    page = host.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "DE89 3704 0044 0532 0130 00" in _card(page, "Ann")  # kept for this table
    assert 'class="offered"' not in page
    assert not pay_club_details(app)  # for this table only: the club keeps none


def test_every_device_says_where_details_were_given(app):
    """Newcomer45 P8: Ann's details given at another table, the host's tablet
    said so while Ben's phone (a seat link) and the viewer link said "Ann has
    given no payment details yet: ask them", which was untrue. Every device
    says where they were given; only the host and Ann's own phone are offered
    the details themselves (a seat sees no other player's details)."""
    host = app.test_client()
    first, first_token, _ = open_table(host, table="Kitchen table")
    assert put(host, first, first_token, "Ann",
               {"iban": ANN_IBAN, "holder": "Ann Example"}).status_code == 200
    sid, token, _ = open_table(host, table="Back room")
    unlock(host, sid, token)
    ben, viewer = app.test_client(), app.test_client()
    join(ben, sid, link(host, sid, token, "seat", "Ben")["token"])
    viewing = link(host, sid, token, "viewer")["token"]
    assert viewer.get(f"/s/{sid}/join/{viewing}").status_code == 303
    for device in (ben, viewer):
        page = device.get(f"/s/{sid}/settle").get_data(as_text=True)
        card = _card(page, "Ann")
        assert ("Ann gave payment details at Kitchen table: the host, or Ann on their own "
                "phone, can use them here.") in card, card
        assert "has given no payment details" not in card
        assert "DE89" not in page and 'class="offered"' not in page
        # Cy gave none anywhere: still asked for.
        assert "Cy has given no payment details yet: ask them." in _card(page, "Cy")


def pay_club_details(app) -> dict:
    from referee.service.club import pay

    with app.app_context():
        from referee.web.db import get_db
        return pay.club_details(get_db())

# ------------------------------------------------------------------ each transfer's own text

def _paid_by_two(client, table="Kitchen table"):
    """Ann tonks out: Ben and Cy each pay her 2 at one table (newcomer N15:
    Zoë's statement read the same text for Ömer's transfer and Anna's)."""
    doc = {"format": "tonk-log/1", "table": table, "stake": "1", "currency": "EUR",
           "rules": "pagat", "players": ["Ann", "Ben", "Cy"],
           "started": "2026-11-21T20:00:00Z",
           "hands": [{"dealer": "Cy", "ending": {"how": "tonk_out", "by": "Ann"}}]}
    made = client.post("/api/sessions", json=doc).get_json()
    sid, token = made["id"], made["table_token"]
    put(client, sid, token, "Ann", {"iban": ANN_IBAN, "holder": "Ann Albers"})
    return sid, token


def test_each_payers_transfer_names_them(client):
    """Two players paying one payee: each transfer's text (the code's and the
    one to type, on the API and on the page) names its payer, the table and
    the day, so that the payee's statement tells the two apart."""
    sid, token = _paid_by_two(client)
    doc = settlement(client, sid, token)
    for payer in ("Ben", "Cy"):
        pay = owed(doc, payer, "Ann")["pay"]
        want = f"{payer}: Tonk Kitchen table 2026-11-21"
        assert pay["epc"]["text"] == pay["reference"] == want, pay
    unlock(client, sid, token)
    page = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    said = re.findall(r'<dd class="reference">([^<]*)</dd>', page)
    assert sorted(said) == ["Ben: Tonk Kitchen table 2026-11-21",
                            "Cy: Tonk Kitchen table 2026-11-21"], said


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler-utils (pdftoppm) missing")
def test_the_pdfs_codes_name_each_payer(client, tmp_path):
    from tests.reports_fixtures import pdf_text

    sid, token = _paid_by_two(client)
    pdf, codes = settlement_codes(client, sid, token, tmp_path)
    assert sorted(c["text"] for c in codes) == ["Ben: Tonk Kitchen table 2026-11-21",
                                                "Cy: Tonk Kitchen table 2026-11-21"], codes
    text = pdf_text(pdf)
    for payer in ("Ben", "Cy"):
        assert f"Reference: {payer}: Tonk Kitchen table 2026-11-21" in text, text


def test_a_long_table_name_leaves_the_payer_and_the_day_whole():
    payer, table = "B" * 40, "Kitchen " * 25  # the longest name; a log's table, 200
    text = payable.remittance(payer, table, "2026-11-21")
    assert len(text) <= payable.REMITTANCE_MAX
    assert text.startswith(f"{payer}: Tonk Kitchen") and text.endswith(" 2026-11-21")
    assert payable.remittance("Ben", None, None) == "Ben: Tonk"


# ------------------------------------------------------------------ a change keeps the rest

def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_adding_a_paypal_name_keeps_the_iban_on_every_door(app):
    """Newcomer44 P3: the form showed nothing of what was given and saving
    cleared its empty fields, so adding a PayPal name erased the IBAN and its
    bank QR code (at every table, with the club box). What is given is shown
    (the IBAN masked), a field left empty keeps it, and one way is removed on
    purpose only."""
    host = app.test_client()
    sid, token, audit = open_table(host)
    csrf = unlock(host, sid, token)
    host.post(f"/s/{sid}/settle/details", data={"player": "Ann", "iban": ANN_IBAN,
                                                "holder": "Ann Beispiel", "csrf_token": csrf})
    form = re.search(r'<section class="panel" aria-labelledby="h-details">.*?</section>',
                     host.get(f"/s/{sid}/settle").get_data(as_text=True), re.S).group(0)
    assert "Ann: IBAN DE89 … 3000 · Ann Beispiel" in words(form) and "0532 0130" not in form
    host.post(f"/s/{sid}/settle/details", data={"player": "Ann", "paypal": "annpays",
                                                "csrf_token": csrf})
    pay = owed(settlement(host, sid, audit), "Ben", "Ann")["pay"]
    assert pay["epc"] and pay["paypal"] == "https://paypal.me/annpays/0.75EUR"
    host.post(f"/s/{sid}/settle/details", data={"player": "Ann", "remove": "iban",
                                                "csrf_token": csrf})
    assert owed(settlement(host, sid, audit), "Ben", "Ann")["pay"] == {
        "paypal": "https://paypal.me/annpays/0.75EUR", "paypal_amount": True}
    # The API: a field left out stays, a field sent as null goes.
    assert put(host, sid, token, "Ann", {"note": "or cash"}).get_json()["paypal"] == "annpays"
    r = put(host, sid, token, "Ann", {"paypal": None})
    assert r.status_code == 200 and "paypal" not in r.get_json()
    assert owed(settlement(host, sid, audit), "Ben", "Ann")["pay"] == {"note": "or cash"}
    assert_error(put(host, sid, token, "Ann", {"holder": "Ann B"}), 400, "holder_without_iban")


def test_a_phone_adding_paypal_for_the_club_keeps_the_clubs_iban(app):
    """P3 on Cleo's phone: her IBAN was the club's; her form showed nothing;
    saving a PayPal name with "also for the club" left the club only that."""
    host = app.test_client()
    sid, token, audit = open_table(host)
    later, later_token, _ = open_table(host, table="Next week")
    ann = link(host, sid, token, "seat", "Ann")["token"]
    assert put(host, sid, ann, "Ann", {"iban": ANN_IBAN, "holder": "Ann Beispiel",
                                       "club": True}).status_code == 200
    phone = app.test_client()
    csrf = join(phone, later, link(host, later, later_token, "seat", "Ann")["token"])
    page = phone.get(f"/s/{later}/settle").get_data(as_text=True)
    # the club's, shown as what is given
    assert "Ann: IBAN DE89 … 3000 · Ann Beispiel" in words(page)
    phone.post(f"/s/{later}/settle/details", data={"player": "Ann", "paypal": "annpays",
                                                   "club": "1", "csrf_token": csrf})
    for table, key in ((later, later_token), (sid, audit)):
        pay = owed(settlement(host, table, key), "Ben", "Ann")["pay"]
        assert pay["epc"], table
    assert pay_club_details(app)["Ann"] == {"iban": ANN_IBAN.replace(" ", ""),
                                            "holder": "Ann Beispiel", "paypal": "annpays"}
