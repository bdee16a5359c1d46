"""How a transfer is paid: a person's payment details, checked, and what the
payer needs for one "Ann pays Ben 12.50": an EPC QR code's fields (the SEPA
credit transfer a euro-area banking app reads), a PayPal.me link with the
amount, or the payee's own line ("cash only", a phone number).

Plain data in and out, no storage (the service keeps the details,
``service.pay``); here rather than in the pure ledger for ``schwifty``,
which knows each country's IBAN. The pages and the PDF draw the QR code
(``segno.helpers.make_epc_qr``) from ``epc``'s fields.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping
from decimal import Decimal, InvalidOperation

from schwifty import IBAN
from schwifty.exceptions import InvalidChecksumDigits, InvalidCountryCode, SchwiftyException

from ...rules.errors import MalformedInput
from ...rules.words import N_, Words

FIELDS = ("iban", "holder", "paypal", "note")
"""A person's payment details: any of these (none: nothing is known)."""

WAYS = ("iban", "paypal", "note")
"""The ways to be paid, each removed on its own (the holder's name goes with its IBAN)."""

#: Each field as the form labels it: a refusal names the field so ("IBAN: the
#: check digits ..."), not by its key ("iban: ", "Iban: " once capitalised).
FIELD_WORDS = {"iban": N_("IBAN"), "holder": N_("Account holder's name"),
               "paypal": N_("PayPal.me name"), "note": N_("Note")}

HOLDER_MAX = 70  # the EPC code's longest beneficiary name
NOTE_MAX = 140
PAYPAL = re.compile(r"[A-Za-z0-9]{1,20}")  # a PayPal.me name, as paypal.me/<name>
# The link pasted instead of the name: https://, www. and a trailing slash
# or the amount it asked for (paypal.me/name/12.50EUR), a query, are the link's, not
# the name's; another address is no PayPal.me link.
_PAYPAL_URL = re.compile(r"(?:https?://)?(?:www\.)?paypal\.me/([^/?#]*)"
                         r"(?:/(?:[0-9]+(?:[.,][0-9]*)?[A-Za-z]{0,3})?)?/?(?:[?#].*)?",
                         re.IGNORECASE)

# The currencies a PayPal.me link can ask for (PayPal's list); those without
# cents take whole amounts only.
PAYPAL_CURRENCIES = frozenset(
    "AUD BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF ILS JPY MXN MYR NOK NZD PHP PLN SEK SGD THB "
    "TWD USD".split())
PAYPAL_WHOLE = frozenset({"HUF", "JPY", "TWD"})

# The European Economic Area: an EPC code (version 002) may leave out the
# payee's BIC only for an account there; for the rest of the SEPA zone
# (Switzerland, the United Kingdom, ...) it needs the bank's BIC.
EEA = frozenset(
    "AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI "
    "SK".split())
EPC_MIN, EPC_MAX = Decimal("0.01"), Decimal("999999999.99")
REMITTANCE_MAX = 140


def _bad(code: str, template: str, field: str, **params) -> MalformedInput:
    said = Words(FIELD_WORDS[field]) if field in FIELD_WORDS else field
    return MalformedInput(code, template, {"field": said, **params})


def _line(value: object, field: str, longest: int) -> str:
    """A one-line text of 1 to ``longest`` characters: a line break in a
    holder's name would break the EPC code's lines."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > longest or \
            any(unicodedata.category(c).startswith("C") for c in value):
        raise _bad("bad_pay_line", N_("{field}: one line of 1 to {longest} characters"),
                   field, longest=longest)
    return value.strip()


def check_iban(text: object) -> str:
    """The IBAN in its compact form (``DE89370400440532013000``): its country's
    length and format and its mod-97 check digits, else ``iban_country``,
    ``iban_format`` or ``iban_checksum``."""
    if not isinstance(text, str) or not 5 <= len(text) <= 50:
        raise _bad("iban_format", N_("{field}: an IBAN is 15 to 34 letters and digits, "
                                     "starting with its country's code"), "iban")
    try:
        return str(IBAN(text).compact)
    except InvalidCountryCode:
        raise _bad("iban_country", N_("{field}: {iban} does not start with the code of a "
                                      "country that has IBANs"),
                   "iban", iban=text.strip()) from None
    except InvalidChecksumDigits:
        raise _bad("iban_checksum", N_("{field}: the check digits of {iban} are wrong: a "
                                       "character is mistyped or two are swapped"),
                   "iban", iban=text.strip()) from None
    except SchwiftyException:
        raise _bad("iban_format", N_("{field}: {iban} is not written as an IBAN of its "
                                     "country (its length, or a letter where a digit goes)"),
                   "iban", iban=text.strip()) from None


def check_paypal(text: object) -> str:
    """A PayPal.me name, also when pasted as its link."""
    name = text.strip() if isinstance(text, str) else None
    link = _PAYPAL_URL.fullmatch(name or "")
    if link:
        name = link.group(1)
    if not name or not PAYPAL.fullmatch(name):
        raise _bad("bad_paypal", N_("{field}: a PayPal.me name is 1 to 20 letters and digits "
                                    "(as in paypal.me/name)"), "paypal")
    return name


def check_details(doc: dict) -> dict:
    """A person's payment details as kept: any of ``FIELDS`` (an empty
    document clears them); an IBAN needs its holder's name, and a holder's
    name goes with an IBAN. Raises ``MalformedInput`` naming the field."""
    unknown = sorted(set(doc) - set(FIELDS))
    if unknown:
        raise _bad("unknown_field", N_("{field}: not a payment detail (iban, holder, paypal, "
                                       "note)"), unknown[0])
    out: dict = {}
    given = {k: v for k, v in doc.items() if v is not None}
    if "iban" in given:
        out["iban"] = check_iban(given["iban"])
        if "holder" not in given:
            raise _bad("holder_needed", N_("{field}: the name of the account's holder goes "
                                           "with an IBAN"), "holder")
    if "holder" in given:
        if "iban" not in given:
            raise _bad("holder_without_iban", N_("{field}: a holder's name goes with an "
                                                 "IBAN"), "holder")
        out["holder"] = _line(given["holder"], "holder", HOLDER_MAX)
    if "paypal" in given:
        out["paypal"] = check_paypal(given["paypal"])
    if "note" in given:
        out["note"] = _line(given["note"], "note", NOTE_MAX)
    return out


def changed(given: dict, change: dict) -> dict:
    """The details after ``change`` to those ``given`` (newcomer44 P3: adding
    a PayPal name erased the IBAN): a field in ``change`` replaces, a field
    sent as None removes that way to be paid (the IBAN with its holder's
    name), a field left out stays. Checked as ``check_details`` checks."""
    unknown = sorted(set(change) - set(FIELDS))
    if unknown:
        return check_details(change)  # refused, naming the field
    out = dict(given)
    for field, value in change.items():
        if value is not None:
            out[field] = value
        elif field == "iban":
            out.pop("holder", None)
    return check_details({k: v for k, v in out.items() if change.get(k, v) is not None})


def from_form(typed: Mapping[str, str], removed: Collection[str]) -> dict:
    """A form's change (``changed``): each field typed; each way to be paid
    in ``removed`` (its "Remove" button) and not typed again as None; a field
    left empty is left out, so what was given stays."""
    change: dict = {k: None for k in WAYS if k in removed}
    change.update({k: typed[k] for k in FIELDS if (typed.get(k) or "").strip()})
    return change


def iban_masked(iban: str) -> str:
    """An IBAN as a form shows what is given ("DE89 … 3000"): enough to know
    which account, not to pay into it (the full IBAN is shown beside a
    transfer to its holder)."""
    return f"{iban[:4]} … {iban[-4:]}"


def iban_text(iban: str) -> str:
    """An IBAN as people read it: groups of four."""
    return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))


def coin(currency: str | None) -> Decimal | None:
    """The smallest coin of ``currency`` (0.01 for EUR, 1 for JPY, 0.001 for
    BHD: babel's ISO 4217 digits); None where amounts are free: points, or a
    currency ISO 4217 does not know ("chips")."""
    code = iso_currency(currency)
    if code is None:
        return None
    from babel.numbers import get_currency_precision, is_currency  # only payments need it

    if not is_currency(code):
        return None
    return Decimal(1).scaleb(-get_currency_precision(code))


#: A stake finer than its currency's smallest coin (newcomer44 P9: 0.123 EUR
#: for 0.12, then "Dev pays Ann €0.615"), said where a table opens and where
#: a table in whole coins changes its stake (the host confirms it either way).
FINER_STAKE = N_("a stake of {stake} {currency} is finer than its smallest coin ({coin}): hands "
                 "would then pay amounts that no coin pays and no bank code carries; choose a "
                 "stake in whole coins, or confirm that the table plays for {stake}")

#: The refusal's code: what the host may confirm (the tablet's box, the API's
#: ``?finer_stake=true``, ``referee import --finer-stake``).
FINER_STAKE_CODE = "stake_finer_than_coin"


def finer_than_coin(stake: Decimal, currency: str | None) -> Decimal | None:
    """The smallest coin of ``currency`` where ``stake`` is not a whole number
    of it (None: it is, or amounts are free: points, a currency ISO 4217 does
    not know)."""
    smallest = coin(currency)
    if smallest is None:
        return None
    try:
        return smallest if stake % smallest else None
    except InvalidOperation:
        # Too many digits to divide (1e400): refused as too large where it
        # is checked, never a coin's question.
        return None


def check_stake_coin(stake: Decimal, currency: str | None) -> None:
    """Refuses (``stake_finer_than_coin``) a stake finer than its currency's
    smallest coin, which the host has not confirmed: the caller asks only
    where it was not (docs/decisions.md, paydetails44)."""
    smallest = finer_than_coin(stake, currency)
    if smallest is not None:
        raise MalformedInput(FINER_STAKE_CODE, FINER_STAKE,
                             {"stake": stake, "currency": currency, "coin": smallest})


def check_opening_stake(doc: dict) -> None:
    """A table opening (a log with no hands yet) for a stake finer than its
    currency's smallest coin, not confirmed by its host: refused
    (``check_stake_coin``). A stake that is no number is left to the log's
    own check, which names it."""
    try:
        stake = Decimal(str(doc.get("stake", "1")).strip())
    except InvalidOperation:
        return
    if stake.is_finite() and stake > 0:
        check_stake_coin(stake, doc.get("currency"))


def _amount(written: str) -> Decimal | None:
    try:
        value = Decimal(str(written).strip())
    except InvalidOperation:
        return None
    return value if value.is_finite() and value > 0 else None


def iso_currency(currency: str | None) -> str | None:
    """The ISO 4217 code a session's currency is written as, if it is one."""
    code = (currency or "").strip().upper()
    return code if re.fullmatch(r"[A-Z]{3}", code) else None


def epc(details: dict, amount: str, currency: str | None, remittance: str) -> dict | None:
    """The EPC code's fields (``segno.helpers.make_epc_qr``'s arguments: name,
    iban, amount, text, bic) for paying ``amount`` (as the settlement writes
    it) to the holder of the IBAN in ``details``: only in euros, to an
    account of the SEPA zone, for an amount in whole cents within the code's
    range (else None: the code would ask for another amount or currency, or
    no bank would read it)."""
    if iso_currency(currency) != "EUR" or "iban" not in details:
        return None
    value = _amount(amount)
    if value is None or not EPC_MIN <= value <= EPC_MAX or value != value.quantize(
            Decimal("0.01")):
        return None
    iban = IBAN(details["iban"])
    if not iban.in_sepa_zone:
        return None
    bic = None
    if iban.country_code not in EEA:
        try:
            bic = str(iban.bic) if iban.bic else None
        except SchwiftyException:
            bic = None
        if not bic:
            return None
    return {"name": details["holder"], "iban": details["iban"], "amount": str(amount).strip(),
            "text": remittance[:REMITTANCE_MAX].rstrip(), "bic": bic}


def paypal_link(details: dict, amount: str, currency: str | None) -> str | None:
    """The payee's PayPal.me link asking for ``amount`` in ``currency``; the
    bare link (the payer types the amount) where PayPal cannot ask for it."""
    if "paypal" not in details:
        return None
    base = f"https://paypal.me/{details['paypal']}"
    code = iso_currency(currency)
    value = _amount(amount)
    if code not in PAYPAL_CURRENCIES or value is None:
        return base
    if code in PAYPAL_WHOLE:
        if value != value.to_integral_value():
            return base
        written = str(value.quantize(Decimal(1)))
    else:
        if value != value.quantize(Decimal("0.01")):
            return base
        written = f"{value.quantize(Decimal('0.01'))}"
    return f"{base}/{written}{code}"


def remittance(payer: str, table: str | None, day: str | None) -> str:
    """A transfer's text on both bank statements: who pays, then the game,
    the table and the day ("Ben: Tonk Kitchen table 2026-11-21"), so that a
    payee paid by two players of one table tells the two transfers apart
    (newcomer N15: each read "Tonk Kitchen table 2026-11-21"). The payer
    comes first and whole (a name is at most 40 characters and has no ':'),
    where a banking app that shows only a text's start still shows it; the
    words are no language's, as a bank statement is read by whoever holds
    the account. A long table name is cut so that the day still fits the EPC
    code's 140 characters."""
    head, tail = f"{payer}: Tonk", f" {day}" if day else ""
    name = (table or "")[:max(REMITTANCE_MAX - len(head) - len(tail) - 1, 0)].strip()
    return f"{head} {name}{tail}" if name else head + tail


def how_to_pay(details: dict | None, amount: str, currency: str | None,
               text: str) -> dict | None:
    """What the payer of ``amount`` needs, from the payee's ``details``:
    ``epc`` (the QR code's fields, or None), ``iban``/``holder`` and
    ``reference`` (``text``, the transfer's own: ``remittance``; to type
    them), ``paypal`` (a link; ``paypal_amount``: whether it asks for the
    amount) and ``note``; None when nothing is known, and at a table played
    for points (no ``currency``): points are a score, not money, paid with
    no link, code or account (newcomer N16)."""
    if not details or not currency:
        return None
    out: dict = {}
    if "iban" in details:
        out["iban"] = iban_text(details["iban"])
        out["holder"] = details["holder"]
        out["reference"] = text[:REMITTANCE_MAX].rstrip()  # to type it, as the code carries it
        out["epc"] = epc(details, amount, currency, text)
    if "paypal" in details:
        out["paypal"] = paypal_link(details, amount, currency)
        out["paypal_amount"] = out["paypal"] != paypal_link(details, "", None)
    if "note" in details:
        out["note"] = details["note"]
    return out
