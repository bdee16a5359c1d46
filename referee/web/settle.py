"""The settle-up page: who still owes whom, each transfer with what its payer
needs to pay it from a phone (an EPC QR code for a banking app, a PayPal.me
link with the amount, the payee's own line), a tap to mark it paid, the
players' payment details, and the settlement PDF.

Thin views over ``referee.service.club.pay``; the table's devices only, as for
every page of the table: the host's tablet (the PIN) marks any transfer paid
and keeps anyone's details; a seat's phone marks paid what its player pays
or is paid and keeps its own player's details; the viewer link (sent to the
players from here, with the Web Share API or copied) reads.
"""

from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, render_template, request, url_for
from markupsafe import Markup
from marshmallow import Schema, fields, validate
from segno.helpers import make_epc_qr

from ..ledger.money import fmt
from ..record.schemas import StrictSchema
from ..reports.words import A_PAYMENT, CLAIMED, PAID, PAYMENT, payment_state
from ..rules.words import N_
from ..service.access import seats
from ..service.club import pay
from ..service.money.payable import from_form, iban_masked, iban_text
from ..service.table import table_events
from . import again, forms, links
from .db import get_db
from .errors import error_page
from .lang import _, current, day, money, paper_language, typed_decimal, typed_money
from .tablet.blueprint import (
    confirm_event,
    form_client_id,
    page_access,
    post_event,
    seat_may,
    table_sections,
    table_summary,
    unlocked,
)

bp = Blueprint("settle", __name__)

#: A payment confirmed or taken back, named by who paid whom how much (its
#: number in the record told a player nothing: newcomer N11).
CONFIRMED = N_("The payment of {amount} from {payer} to {payee} is confirmed")
TAKEN_BACK = N_("The payment of {amount} from {payer} to {payee} is taken back")
# ... and so named where either is refused
CONFIRMING = N_("confirming the payment of {amount} from {payer} to {payee}")
TAKING_BACK = N_("taking back the payment of {amount} from {payer} to {payee}")


#: How a payment details request changes what is given (newcomer44 P3: a
#: PayPal name sent alone erased the IBAN), said in the API's description.
PAY_CHANGE = ("a field sent replaces it; a field sent as null removes that way to be paid (the "
              "IBAN with its holder's name); a field left out stays as given")


class PayDetailsRequestSchema(StrictSchema):
    """A change to a player's (or a person's) payment details (``PAY_CHANGE``)."""

    client_id = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "a fresh key per request (a table's): a retry gets the first answer"})
    club = fields.Boolean(load_default=False, metadata={
        "description": "a table's, from the player's own seat token: keep them for the club "
                       "too (every table where they give none of their own)"})
    iban = fields.String(allow_none=True, metadata={
        "example": "DE89 3704 0044 0532 0130 00",
        "description": "checked: the country's length and format, the mod-97 check digits "
                       "(iban_country, iban_format, iban_checksum); needs a holder (sent, or given "
                       "before)"})
    holder = fields.String(allow_none=True, metadata={
        "example": "Ben Becker", "description": "the account holder's name, 1-70 characters, "
                                                "one line; only with an IBAN"})
    paypal = fields.String(allow_none=True, metadata={
        "example": "benbecker", "description": "a PayPal.me name (or its paypal.me link)"})
    note = fields.String(allow_none=True, metadata={
        "example": "cash only", "description": "a free line, 1-140 characters"})


class PayDetailsAnswerSchema(Schema):
    event = fields.Raw(required=True, metadata={
        "description": "a table's: \"pay_details\"; the club's: the club event's id"})
    kind = fields.String(metadata={"description": "the club's: \"pay_details\""})
    hand = fields.Integer(allow_none=True, metadata={"description": "a table's: null"})
    player = fields.String(metadata={"description": "the table's player"})
    person = fields.String(metadata={"description": "the club's person"})
    iban = fields.String(metadata={"description": "compact, as kept"})
    holder = fields.String()
    paypal = fields.String()
    note = fields.String()


def epc_svg(epc: dict, label: str) -> Markup:
    """The EPC QR code as inline SVG (sharp at any zoom, no image request)."""
    code = make_epc_qr(name=epc["name"], iban=epc["iban"], amount=epc["amount"],
                       text=epc["text"], bic=epc["bic"])
    return Markup(code.svg_inline(scale=4, border=3, title=label, svgclass="epc",
                                  omitsize=True))


def _share_url(session_id: str) -> str | None:
    """The address players are sent: this page by the table's viewer link
    (read only: every page and paper of the table), None until the host has
    made one. Never a seat's link: that would hand over the seat."""
    held = seats.links(get_db(), session_id).get((seats.VIEWER, None))
    token = seats.shown_token(current_app.config["SECRET_KEY"], session_id, held) \
        if held else None
    return links.external_url("settle.shared", session_id=session_id, token=token) \
        if token else None


def _mine(who: seats.Access, *players: str) -> bool:
    """Whether this device may act for one of ``players`` (the host: for all)."""
    return who.writes or (who.role == seats.SEAT and who.player in players)


@bp.get("/s/<session_id>/settle")
@unlocked
def page(session_id: str):
    # A refused payment details form: drawn again with what was typed (an IBAN
    # with one wrong digit was to be typed again whole).
    typed, _error = again.taken()
    # The result's sections (the settlement PDF's too), from the stored totals.
    sec = table_sections(session_id, disputes=True)
    who = g.access
    owed = [(t, fmt(t.amount, sec.transfer_quantum)) for t in sec.transfers]
    ways = pay.ways_to_pay(get_db(), session_id, g.summary,
                           [(t.payer, t.payee, amount) for t, amount in owed])
    owed = [(t, amount, how) for (t, amount), how in zip(owed, ways, strict=True)]
    if who.role == seats.SEAT:  # a player's phone: what they pay, then what they get, first
        owed.sort(key=lambda o: (o[0].payer != who.player, o[0].payee != who.player))
    # Points are paid with no payment details (newcomer N16).
    details_for = [p for p in sec.players if _mine(who, p)] if sec.currency else []
    offered = _offered(session_id, sec, owed, details_for)
    return render_template(
        "settle.html", summary=g.summary, session_id=session_id, sec=sec, owed=owed,
        epc_svg=epc_svg, iban_text=iban_text,
        client_id=forms.new_client_id(),
        pdf=url_for("reports.settlement_pdf", sid=session_id, lang=paper_language()),
        may_mark=lambda t: _mine(who, t.payer, t.payee),
        details_for=details_for,
        offered={n: o for n, o in offered.items() if n in details_for},
        given_elsewhere={n: o["table"] for n, o in offered.items()},
        given=pay.details_at(get_db(), session_id, details_for) if details_for else {},
        iban_masked=iban_masked,
        may_confirm=lambda p: p.pending and (who.writes or who.player == p.payee),
        may_undo=lambda p: _may_undo(who, p),
        host=who.writes, share_url=_share_url(session_id), typed=typed or {},
        waiting_for=_waiting(sec))


def _offered(session_id: str, sec, owed: list, details_for: list[str]) -> dict:
    """The details given at another table by each payee of ``owed`` who has
    none here, and by each player this device keeps details for
    (``pay.offered``; none for points: they are paid with no details). Only
    the latter's are offered on the page (a table's host or the player's own
    phone takes them over); of the others a device says only where they were
    given (newcomer45 P8: a seat's phone said "has given no payment details
    yet: ask them" where the tablet said they were given at the next table)."""
    names = sorted({*(t.payee for t, _a, how in owed if how is None), *details_for})
    return pay.offered(get_db(), session_id, names) if names and sec.currency else {}


def _may_undo(who: seats.Access, p) -> bool:
    """Whether this device may take payment ``p`` back: the host any, a
    player's phone a claim still waiting that names its player."""
    return not p.undone and (who.writes or (p.pending and _mine(who, p.payer, p.payee)))


def _waiting(sec):
    """A transfer its payer marked paid from their own phone still waits for
    the payee's word: the number of that claim (None: none waits), for its
    card to say so, with the payee's (the host's) confirm in place of a
    second "Mark paid" (newcomer N6)."""
    payments = sec.money.payments if sec.money else []
    waiting = {(p.payer, p.payee, p.amount): k for k, p in enumerate(payments, 1) if p.pending}
    return lambda t: waiting.get((t.payer, t.payee, t.amount))


@bp.get("/s/<session_id>/settle/by/<token>")
def shared(session_id: str, token: str):
    """The settle-up page sent to the players (the viewer link): this browser
    joins the table as a viewer, unless it is at the table already (the
    host's tablet, a seat's phone keep what they are)."""
    table_summary(session_id)
    found = seats.token_access(get_db(), session_id, token)
    if found is None or found.role != seats.VIEWER:
        return error_page(_("Locked"), _("This link is not in force: it was revoked or "
                                         "replaced by a new one. Ask the host for a new one."),
                          403)
    if page_access(session_id) is None:
        forms.keep_link(session_id, token)
    return redirect(url_for("settle.page", session_id=session_id), 303)


@bp.post("/s/<session_id>/settle/paid")
@unlocked
@seat_may
def paid(session_id: str):
    f = request.form
    payer, payee, amount = f.get("from", ""), f.get("to", ""), f.get("amount", "")
    # The amount the page's form carries, read as a typed one: a form posted
    # by hand with 1e400 was written out in 400 digits in its refusal.
    said = typed_money(amount, g.summary.get("currency"))
    # The payer's own word moves nothing till the payee's confirms it: the
    # flash says so, not that it was paid (newcomer N6).
    done = _(CLAIMED, payer=payer, payee=payee, amount=said) if _by() == payer \
        else _(PAID, payer=payer, payee=payee, amount=said)
    return post_event(session_id, url_for("settle.page", session_id=session_id), done,
                      _(PAYMENT, payer=payer, payee=payee, amount=said) if said
                      else _(A_PAYMENT, payer=payer, payee=payee),
                      lambda db: pay.mark_paid(db, session_id, payer, payee,
                                               typed_decimal(amount, "payment_amount"),
                                               client_id=form_client_id(), by=_by()),
                      for_whom=(payer, payee))


def _by() -> str | None:
    """The player whose own phone this is (None: the host's tablet)."""
    return g.access.player if g.access.role == seats.SEAT else None


def _own() -> tuple[str, ...]:
    """A seat's phone passes the page's guard for its own player: the service
    then says whether the payment is theirs to confirm or take back (``by``);
    before, every seat was refused here, the payee waiting for it too."""
    return (g.access.player,) if g.access.role == seats.SEAT and g.access.player else ()


def _number(given=None) -> int:
    """The payment a form names, from 1 (0: none it could name)."""
    text = (request.form if given is None else given).get("payment", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 9 else 0


@bp.post("/s/<session_id>/settle/confirm")
@unlocked
@seat_may
def confirm(session_id: str):
    """A payment its payer recorded, confirmed by the payee's phone or the host."""
    k = _number()
    named = _named(session_id, k)
    return post_event(session_id, url_for("settle.page", session_id=session_id),
                      _(CONFIRMED, **named) if named else
                      _("Payment {number} is confirmed", number=k),
                      _(CONFIRMING, **named) if named else
                      _("confirming payment {number}", number=k),
                      lambda db: table_events.confirm_payment(db, session_id, k, by=_by(),
                                                              client_id=form_client_id()),
                      for_whom=_own())


@bp.post("/s/<session_id>/settle/undo")
@unlocked
@seat_may
def undo(session_id: str):
    """A payment taken back (kept in the record, marked): the host's for any, a
    player's phone for a claim still waiting that names them; on a second tap,
    on a page of its own that names the payment (``undo_confirm``), as a hand
    voided or a table closed is (newcomer N11)."""
    if not request.form.get("confirm"):
        return again.to("settle.undo_confirm", request.form)
    k = _number()
    named = _named(session_id, k)
    return post_event(session_id, url_for("settle.page", session_id=session_id),
                      _(TAKEN_BACK, **named) if named else
                      _("Payment {number} is taken back", number=k),
                      _(TAKING_BACK, **named) if named else
                      _("taking back payment {number}", number=k),
                      lambda db: table_events.undo_payment(db, session_id, k, by=_by(),
                                                           client_id=form_client_id()),
                      for_whom=_own())


@bp.get("/s/<session_id>/settle/undo")
@unlocked
def undo_confirm(session_id: str):
    """Take back this payment? Who paid whom how much and when, and what that
    changes (the settle-up page when this device may not take it back: taken
    back meanwhile, confirmed since, or no such payment)."""
    k = _number(request.args)
    sec = table_sections(session_id)
    payments = sec.money.payments if sec.money else []
    back = url_for("settle.page", session_id=session_id)
    if not 1 <= k <= len(payments) or not _may_undo(g.access, payments[k - 1]):
        return redirect(back, 303)
    p = payments[k - 1]
    named = _words(p, sec.currency)
    lines = [_(PAID, **named) + (f" · {day(p.at)} {p.at[11:16]}" if p.at else "")]
    state = payment_state(p, current())
    if state:
        lines.append(state)
    return confirm_event(
        session_id, _("Take back the payment of {amount} from {payer} to {payee}?", **named),
        _("It stays in the record, marked taken back: from then on it settles nothing, and "
          "what it paid is owed again."),
        url_for("settle.undo", session_id=session_id), {"payment": str(k)},
        _("Yes, take it back"), lines, back=f"{back}#payment-{k}")


def _named(session_id: str, k: int) -> dict[str, str] | None:
    """Payment ``k`` (from 1) of the table, as its sentences name it (who
    paid whom how much), or None: there is none."""
    sec = table_sections(session_id)
    payments = sec.money.payments if sec.money else []
    return _words(payments[k - 1], sec.currency) if 1 <= k <= len(payments) else None


def _words(p, currency: str | None) -> dict[str, str]:
    return {"payer": p.payer, "payee": p.payee, "amount": money(p.amount, currency)}


@bp.post("/s/<session_id>/settle/details")
@unlocked
@seat_may
def details(session_id: str):
    f = request.form
    player = f.get("player", "")
    doc = from_form(f, f.getlist("remove"))
    # For the club too: only from the player's own phone (the club's host
    # keeps them with the host key, on the club's pages).
    club = bool(f.get("club")) and g.access.role == seats.SEAT
    return post_event(session_id, url_for("settle.page", session_id=session_id),
                      _("{player}'s payment details are kept", player=player),
                      _("{player}'s payment details", player=player),
                      lambda db: pay.set_own_details(db, session_id, player, doc, club=club,
                                                     client_id=form_client_id()),
                      for_whom=(player,),
                      again=lambda _err: again.refuse(
                          url_for("settle.page", session_id=session_id), "", f))
