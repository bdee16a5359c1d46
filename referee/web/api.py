"""The JSON API: thin views over ``referee.service``, marshmallow schemas for
the bodies, an OpenAPI document generated from them, and one error shape for
every failure: ``{"error": {"code", "message", "hand", "action"}}`` (made by
``referee.web.errors``)."""

from __future__ import annotations

import functools
import json

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Response, current_app, g, request
from marshmallow import RAISE, Schema, fields, validate

from ..language import N_
from ..record.schemas import HandSchema, LogSchema
from ..service import access, hands, pay, seats, sessions, table_events
from . import forms, links
from .bodies import load_fields
from .bodies import read_body as _body
from .club import require_host_key
from .db import get_db
from .errors import ApiError
from .lang import told as _said
from .settle import PayDetailsAnswerSchema, PayDetailsRequestSchema

bp = Blueprint("api", __name__, url_prefix="/api")


# ---------------------------------------------------------------- schemas

class ErrorBodySchema(Schema):
    code = fields.String(required=True, metadata={"description": "stable, for programs"})
    message = fields.String(required=True, metadata={"description": "the sentence to show"})
    hand = fields.Integer(allow_none=True, required=True)
    action = fields.Integer(allow_none=True, required=True)


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema, required=True)


class SessionCreatedSchema(Schema):
    id = fields.String(required=True)
    table_token = fields.String(required=True, metadata={
        "description": "Bearer token for writes (and reads); shown once"})
    audit_token = fields.String(required=True, metadata={
        "description": "Bearer token for reads only; shown once"})


class ActionRequestSchema(Schema):
    class Meta:
        unknown = RAISE

    action = fields.String(required=True, validate=validate.Length(min=1, max=500),
                           metadata={"example": "Ben: draw 4c"})
    client_id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                              metadata={"description": "a fresh key per tap: a retry with "
                                        "the same key gets the first answer"})
    expected_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                                  metadata={"description": "the hand's number of actions "
                                            "when the client last looked"})


class UndoRequestSchema(Schema):
    class Meta:
        unknown = RAISE

    client_id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    expected_seq = fields.Integer(strict=True, validate=validate.Range(min=0))


class SpreadStateSchema(Schema):
    id = fields.String()
    owner = fields.String()
    cards = fields.List(fields.String())


class PlayerStateSchema(Schema):
    name = fields.String()
    cards = fields.Integer()
    known = fields.List(fields.String())
    unknown = fields.Integer()
    count = fields.Integer(allow_none=True)
    waiting = fields.Integer()
    shown = fields.Boolean()


class HandResultSchema(Schema):
    hand = fields.Integer()
    dealer = fields.String()
    outcome = fields.String()
    reason = fields.String(metadata={"description": "a void hand: why it was cancelled"})
    winners = fields.List(fields.String())
    counts = fields.Dict(keys=fields.String(), values=fields.Integer())
    net = fields.Dict(keys=fields.String(), values=fields.String())


class PaymentSchema(Schema):
    from_ = fields.String(data_key="from")
    to = fields.String()
    stakes = fields.String()
    amount = fields.String()
    reason = fields.String()


class HandResultDetailSchema(HandResultSchema):
    story = fields.List(fields.String())
    payments = fields.List(fields.Nested(PaymentSchema))
    multiplier = fields.Integer()
    net_exact = fields.Dict(keys=fields.String(), values=fields.String())


class HandStateSchema(Schema):
    session = fields.String()
    hand = fields.Integer()
    phase = fields.String()
    dealer = fields.String()
    to_act = fields.String(allow_none=True)
    stock = fields.Integer()
    top = fields.String(allow_none=True)
    pile = fields.Integer()
    spreads = fields.List(fields.Nested(SpreadStateSchema))
    players = fields.List(fields.Nested(PlayerStateSchema))
    declared = fields.List(fields.String())
    must_show = fields.List(fields.String())
    complete = fields.Boolean()
    actions = fields.Integer()
    seq = fields.Integer(metadata={"description": "send it back as expected_seq"})
    stake_multiplier = fields.Integer()
    verbs = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                        metadata={"description": "per player who may act, the verbs open"})
    legal = fields.List(fields.String(), metadata={
        "description": "the concrete actions the referee would accept now (in GET "
                       "hands/{n} only: the answers to posts leave it out, listing them "
                       "costs more than logging an action)"})
    result = fields.Nested(HandResultDetailSchema)
    settled_disputes = fields.List(fields.Dict(allow_none=True), metadata={
        "description": "beside each of the hand's disputes, how it was settled (how, by, "
                       "at, undone) or null while it is open"})


class TransferSchema(Schema):
    from_ = fields.String(data_key="from")
    to = fields.String()
    amount = fields.String()


class ResultSchema(Schema):
    format = fields.String(metadata={"example": "tonk-result/1"})
    hands = fields.List(fields.Nested(HandResultSchema))
    totals = fields.Dict(keys=fields.String(), values=fields.String())
    balances = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "with brought-forward balances or payments: what each player is "
                       "owed (negative: owes); transfers then settle these"})
    transfers = fields.List(fields.Nested(TransferSchema))
    closed = fields.String(metadata={"description": "when the host closed the table"})


# ---- the table's own events (log-format.md): one request each

class _EventRequest(Schema):
    class Meta:
        unknown = RAISE

    client_id = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "a fresh key per request: a retry with the same key gets the "
                       "first answer"})


_NAME = {"validate": validate.Length(min=1, max=40), "metadata": {"example": "Ann"}}
_AMOUNT = {"validate": validate.Regexp(r"^\s*[0-9]{1,9}(\.[0-9]{1,6})?\s*$"),
           "metadata": {"example": "0.75", "description": "a decimal greater than 0"}}


class VoidRequestSchema(_EventRequest):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200),
                           metadata={"example": "misdeal"})


class AcceptRequestSchema(_EventRequest):
    player = fields.String(required=True, **_NAME)


class DisputeRequestSchema(_EventRequest):
    by = fields.String(required=True, **_NAME)
    note = fields.String(required=True, validate=validate.Length(min=1, max=500),
                         metadata={"example": "I discarded the 9h, not the 9d"})
    action = fields.Integer(load_default=None, allow_none=True, strict=True,
                            validate=validate.Range(min=1, max=100_000),
                            metadata={"description": "the action's number in the hand, "
                                      "from 1; null: the hand as a whole"})


class StakeRequestSchema(_EventRequest):
    stake = fields.String(required=True, **_AMOUNT)


class LeaveRequestSchema(_EventRequest):
    player = fields.String(required=True, **_NAME)


class SeatRequestSchema(_EventRequest):
    player = fields.String(required=True, **_NAME)


class SettleRequestSchema(_EventRequest):
    how = fields.String(required=True, validate=validate.OneOf(table_events.SETTLE_WAYS),
                        metadata={"description": "corrected: every action from the newest "
                                  "back to the disputed one is undone (on a settled hand "
                                  "only this way); stands: the record is right"})
    by = fields.String(required=True, validate=_NAME["validate"],
                       metadata={"example": "Ann", "description": "who settled it"})


class PaymentRequestSchema(_EventRequest):
    from_ = fields.String(required=True, data_key="from", **_NAME)
    to = fields.String(required=True, **_NAME)
    amount = fields.String(required=True, **_AMOUNT)
    at = fields.String(validate=validate.Length(min=10, max=40), metadata={
        "description": "ISO 8601 with a UTC offset; the service's clock if left out"})
    note = fields.String(validate=validate.Length(min=1, max=500))


class RenameRequestSchema(_EventRequest):
    name = fields.String(required=True, **_NAME, )


class LinkRequestSchema(_EventRequest):
    role = fields.String(required=True, validate=validate.OneOf(["seat", "viewer"]),
                         metadata={"description": "seat (with player) or viewer"})
    player = fields.String(validate=validate.Length(min=1, max=40), metadata={
        "description": "the seat's player (role seat)", "example": "Ann"})


class LinkSchema(Schema):
    role = fields.String(required=True)
    player = fields.String(allow_none=True, required=True)
    token = fields.String(required=True, metadata={
        "description": "Bearer token of the link: the viewer's reads; a seat's also logs "
                       "its player's actions, accepts and disputes its player's hands and "
                       "records payments its player makes or receives (anything else: 403 "
                       "not_your_seat). A new link for the seat replaces it."})
    url = fields.String(required=True, metadata={"description": "the page a phone opens "
                                                 "(its QR code on the table page)"})


class EpcSchema(Schema):
    name = fields.String(required=True)
    iban = fields.String(required=True)
    bic = fields.String(allow_none=True, required=True)
    amount = fields.String(required=True)
    text = fields.String(required=True, metadata={"description": "the remittance text"})


class HowToPaySchema(Schema):
    iban = fields.String(metadata={"description": "grouped by four, to type"})
    holder = fields.String()
    epc = fields.Nested(EpcSchema, allow_none=True, metadata={
        "description": "the EPC QR code's fields: only in EUR, to a SEPA account, for an "
                       "amount in whole cents"})
    paypal = fields.String(metadata={"description": "the PayPal.me link, with the amount "
                                                    "and currency where PayPal takes them"})
    paypal_amount = fields.Boolean(metadata={"description": "whether the link asks for the "
                                                            "amount (else the payer types it)"})
    note = fields.String()


class OwedSchema(Schema):
    from_ = fields.String(data_key="from", required=True)
    to = fields.String(required=True)
    amount = fields.String(required=True, metadata={"description": "as the settlement "
                                                                   "writes it"})
    since = fields.String(allow_none=True, required=True, metadata={
        "description": "when the table closed (null: it is still open)"})
    pay = fields.Nested(HowToPaySchema, allow_none=True, required=True, metadata={
        "description": "what the payer needs, from the payee's details (null: none known)"})


class SettlementSchema(Schema):
    session = fields.String(required=True)
    table = fields.String(allow_none=True, required=True)
    currency = fields.String(allow_none=True, required=True)
    started = fields.String(allow_none=True, required=True)
    closed = fields.String(allow_none=True, required=True)
    remittance = fields.String(required=True)
    owed = fields.List(fields.Nested(OwedSchema), required=True)
    payments = fields.List(fields.Dict(), required=True)
    players = fields.List(fields.String(), required=True)


class PaidRequestSchema(_EventRequest):
    from_ = fields.String(required=True, data_key="from", **_NAME)
    to = fields.String(required=True, **_NAME)
    amount = fields.String(required=True, **_AMOUNT)


class EventAnswerSchema(Schema):
    """The event as recorded: its kind, its hand, and what it says (each kind
    its own fields)."""

    event = fields.String(required=True, metadata={
        "description": "void, accept, dispute, stake, leave, seat, settle, payment, close, "
                       "rename; unlink (a link revoked)"})
    hand = fields.Integer(allow_none=True, required=True)
    reason = fields.String(metadata={"description": "void: why the hand was cancelled"})
    void = fields.String(metadata={"description": "leave: the hand voided as the player left"})
    player = fields.String(allow_none=True, metadata={
        "description": "accept, leave, seat: who; unlink: the seat's player (null: the "
                       "viewer link)"})
    role = fields.String(metadata={"description": "unlink: seat or viewer"})
    seats = fields.List(fields.String(), metadata={"description": "leave, seat: the next "
                                                   "hand's seats"})
    dispute = fields.Integer(metadata={"description": "settle: the dispute's place in the "
                                       "hand's list, from 0"})
    how = fields.String(metadata={"description": "settle: corrected or stands"})
    undone = fields.List(fields.String(), metadata={"description": "settle, corrected: the "
                                                    "actions undone, newest first"})
    action = fields.Integer(allow_none=True, metadata={"description": "dispute: the action"})
    by = fields.String(metadata={"description": "dispute: who objects"})
    note = fields.String(metadata={"description": "dispute, payment: the note"})
    stake = fields.String(metadata={"description": "stake: the new stake"})
    from_hand = fields.Integer(metadata={"description": "stake, seat: the first hand it "
                                         "applies to"})
    from_ = fields.String(data_key="from", metadata={"description": "payment: who paid"})
    to = fields.String(metadata={"description": "payment: who was paid"})
    amount = fields.String(metadata={"description": "payment: how much"})
    at = fields.String(metadata={"description": "payment: when"})
    closed = fields.String(metadata={"description": "close: when"})
    old = fields.String(metadata={"description": "rename: the name as it was"})
    new = fields.String(metadata={"description": "rename: the name from now on"})


class HandSetupSchema(HandSchema):
    class Meta(HandSchema.Meta):
        exclude = ("actions",)

    expected_seq = fields.Integer(strict=True, validate=validate.Range(min=0), metadata={
        "description": "the table's newest event when the client last looked (its `seq`): "
                       "refused with 409 if something was logged since"})


class _ExpectedSeq(Schema):
    expected_seq = fields.Integer(strict=True, validate=validate.Range(min=0))


_ACTION = ActionRequestSchema()
_EXPECTED_SEQ = _ExpectedSeq()
_UNDO = UndoRequestSchema()
_CREATED = SessionCreatedSchema()
# Hands per answer of the standings: by default as many as a 10-hand night
# has, so that a long night's answer costs what a short one's does (100 at
# 10,000 hands took 2.5x the time of 20); ask for up to 100 with ``limit``.
STANDINGS_PAGE, STANDINGS_MAX = 20, 100
_VOID = VoidRequestSchema()
_ACCEPT = AcceptRequestSchema()
_DISPUTE = DisputeRequestSchema()
_STAKE = StakeRequestSchema()
_LEAVE = LeaveRequestSchema()
_PAYMENT = PaymentRequestSchema()
_SEAT = SeatRequestSchema()
_SETTLE = SettleRequestSchema()
_CLOSE = _EventRequest()
_RENAME = RenameRequestSchema()
_LINK = LinkRequestSchema()
_PAY_DETAILS = PayDetailsRequestSchema()
_PAID = PaidRequestSchema()


# ---------------------------------------------------------------- requests

# ---------------------------------------------------------------- auth

def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def token_required(*, write: bool, seats_too: bool = False, tablet: bool = False):
    """The guard of every view of one session: its table token (or, to read,
    its audit token, a seat's or the viewer's link) as a bearer token; with
    ``seats_too`` a seat's token may write too, and the view checks for whom
    (``seats.check_seat``). An unknown session is a 404 first. ``g.access``:
    the token's role and seat. ``tablet``: the tablet's page may come instead
    with the browser's own unlock of the table (the PIN, or the seat link it
    joined by, in its session cookie) and its CSRF token in a header: the
    offline queue sends its kept taps so, with no secret of its own in the
    page (``forms.csrf_header_ok``)."""

    def wrap(view):
        @functools.wraps(view)
        def guarded(sid: str, **kwargs):
            bearer = _bearer()
            if tablet and bearer is None and forms.csrf_header_ok():
                g.access = seats.Access(seats.HOST) if forms.is_unlocked(sid) else \
                    seats.authorize(get_db(), sid, forms.link_token(sid), write=write,
                                    seats=seats_too)
            else:
                g.access = seats.authorize(get_db(), sid, bearer, write=write,
                                           seats=seats_too)
            return view(sid, **kwargs)
        return guarded
    return wrap


def _host_key() -> None:
    require_host_key(N_("creating a session needs the host key (X-Host-Key header)"))


# ---------------------------------------------------------------- views

def _created(state: dict) -> Response:
    # json.dumps, not jsonify: the answer's text as the service stored it for
    # a retry (unsorted keys), the same bytes the first time and the next.
    return Response(json.dumps(_said(state)), 201, mimetype="application/json")


@bp.post("/sessions")
def create_session():
    _host_key()
    doc = _body(log=True)  # a log or a header: load_log checks it (import_log)
    earlier = doc.pop("brought_forward_from", None)
    token = doc.pop("brought_forward_token", None)
    if earlier is not None and not (isinstance(earlier, str) and
                                    isinstance(token, (str, type(None)))):
        raise ApiError(400, "bad_request", N_("brought_forward_from is a session's id, "
                                              "brought_forward_token its table or audit "
                                              "token"))
    if "hands" in doc:
        # An import's brought_forward is written out; brought_forward_from only
        # says which stored session it came from (the club counts it there).
        if earlier is not None:
            access.authorize(get_db(), earlier, token, write=False)
        info = sessions.import_log(get_db(), doc, brought_forward_from=earlier)
    else:
        info = sessions.create_session(get_db(), doc, brought_forward_from=earlier,
                                       brought_forward_token=token)
    return _CREATED.dump(info), 201


@bp.get("/sessions/<sid>")
@token_required(write=False)
def session_summary(sid: str):
    db = get_db()
    return {**sessions.session_summary(db, sid), **sessions.money_summary(db, sid)}


@bp.get("/sessions/<sid>/log")
@token_required(write=False)
def session_log(sid: str):
    return sessions.get_log(get_db(), sid)


@bp.get("/sessions/<sid>/result")
@token_required(write=False)
def session_result(sid: str):
    # The text ``referee replay --json`` writes for the exported log, byte for
    # byte (kept up to date by the service: a long night's is a megabyte).
    return Response(sessions.result_text(get_db(), sid), 200, mimetype="application/json")


def _whole(name: str, default: int) -> int:
    """The query's ``name``, a whole number from 0 given at most once: a
    guessed value (``null``, twice) is refused, not read as the default."""
    given = request.args.getlist(name)
    if not given:
        return default
    if len(given) > 1:
        raise ApiError(400, "bad_request", N_("{name} is given more than once"), {"name": name})
    if not given[0].isdigit() or not given[0].isascii():
        raise ApiError(400, "bad_request", N_("{name} must be a whole number from 0, not "
                                              "{value}"), {"name": name, "value": repr(given[0])})
    digits = given[0].lstrip("0") or "0"
    return int(digits) if len(digits) <= 19 else 2**62  # past any page there is


@bp.get("/sessions/<sid>/standings")
@token_required(write=False)
def session_standings(sid: str):
    # A page of hands, the newest by default: the answer stays the same size
    # however long the night (``settled`` and ``offset`` lead to the others).
    limit = min(_whole("limit", STANDINGS_PAGE), STANDINGS_MAX)
    if "offset" in request.args:
        offset = min(_whole("offset", 0), 2**62)
        return sessions.standings(get_db(), sid, offset=offset, limit=limit)
    return sessions.standings(get_db(), sid, newest=limit)


@bp.post("/sessions/<sid>/hands")
@token_required(write=True)
def start_hand(sid: str):
    setup = _body()
    client_id = request.headers.get("Idempotency-Key") or setup.pop("client_id", None)
    expected = load_fields(_EXPECTED_SEQ, {"expected_seq": setup.pop("expected_seq")}) \
        if "expected_seq" in setup else {}
    return _said(hands.start_hand(get_db(), sid, setup, client_id,
                                  expected.get("expected_seq"))), 201


@bp.get("/sessions/<sid>/hands/<int:n>")
@token_required(write=False)
def hand_state(sid: str, n: int):
    return _said(table_events.with_settlements(get_db(), sid, n,
                                               hands.hand_state(get_db(), sid, n)))


@bp.post("/sessions/<sid>/hands/<int:n>/actions")
@token_required(write=True, seats_too=True, tablet=True)
def post_action(sid: str, n: int):
    body = _body(_ACTION)
    seats.check_seat(g.access, seats.actor_of(body["action"]))
    return _created(hands.post_action(get_db(), sid, n, body["action"], body["client_id"],
                                      body["expected_seq"]))


@bp.post("/sessions/<sid>/hands/<int:n>/undo")
@token_required(write=True)
def undo(sid: str, n: int):
    body = _body(_UNDO)
    return _created(hands.undo(get_db(), sid, n, body["client_id"],
                               body.get("expected_seq")))


@bp.post("/sessions/<sid>/hands/<int:n>/void")
@token_required(write=True)
def void_hand(sid: str, n: int):
    body = _body(_VOID)
    return _created(table_events.void(get_db(), sid, n, body["reason"], body.get("client_id")))


@bp.post("/sessions/<sid>/hands/<int:n>/accept")
@token_required(write=True, seats_too=True)
def accept_result(sid: str, n: int):
    body = _body(_ACCEPT)
    seats.check_seat(g.access, body["player"])
    return _created(table_events.accept(get_db(), sid, n, body["player"],
                                        body.get("client_id")))


@bp.post("/sessions/<sid>/hands/<int:n>/disputes")
@token_required(write=True, seats_too=True)
def dispute(sid: str, n: int):
    body = _body(_DISPUTE)
    seats.check_seat(g.access, body["by"])
    return _created(table_events.dispute(get_db(), sid, n, body["by"], body["note"],
                                         body["action"], body.get("client_id")))


@bp.post("/sessions/<sid>/stake")
@token_required(write=True)
def change_stake(sid: str):
    body = _body(_STAKE)
    return _created(table_events.change_stake(get_db(), sid, body["stake"],
                                              body.get("client_id")))


@bp.post("/sessions/<sid>/leave")
@token_required(write=True)
def leave(sid: str):
    body = _body(_LEAVE)
    return _created(table_events.leave(get_db(), sid, body["player"], body.get("client_id")))


@bp.post("/sessions/<sid>/seat")
@token_required(write=True)
def seat(sid: str):
    body = _body(_SEAT)
    return _created(table_events.seat(get_db(), sid, body["player"], body.get("client_id")))


@bp.post("/sessions/<sid>/hands/<int:n>/disputes/<int:k>/settle")
@token_required(write=True)
def settle_dispute(sid: str, n: int, k: int):
    body = _body(_SETTLE)
    return _created(table_events.settle_dispute(get_db(), sid, n, k - 1, body["how"],
                                                body["by"], body.get("client_id")))


@bp.post("/sessions/<sid>/payments")
@token_required(write=True, seats_too=True)
def record_payment(sid: str):
    body = _body(_PAYMENT)
    seats.check_seat(g.access, body["from_"], body["to"])
    return _created(table_events.record_payment(
        get_db(), sid, body["from_"], body["to"], body["amount"], at=body.get("at"),
        note=body.get("note"), client_id=body.get("client_id")))


@bp.post("/sessions/<sid>/close")
@token_required(write=True)
def close(sid: str):
    body = _body(_CLOSE)
    return _created(table_events.close(get_db(), sid, body.get("client_id")))


@bp.post("/sessions/<sid>/players/<name>")
@token_required(write=True)
def rename(sid: str, name: str):
    body = _body(_RENAME)
    return _created(table_events.rename(get_db(), sid, name, body["name"],
                                        body.get("client_id")))


@bp.post("/sessions/<sid>/links")
@token_required(write=True)
def issue_link(sid: str):
    body = _body(_LINK)
    player = body.get("player") if body["role"] == seats.SEAT else None
    token = seats.issue(get_db(), sid, body["role"], player,
                        current_app.config["SECRET_KEY"], body.get("client_id"))
    return {"role": body["role"], "player": player, "token": token,
            "url": links.external_url("tablet.join", session_id=sid, token=token)}, 201


@bp.post("/sessions/<sid>/links/revoke")
@token_required(write=True)
def revoke_link(sid: str):
    body = _body(_LINK)
    player = body.get("player") if body["role"] == seats.SEAT else None
    return _created(seats.revoke(get_db(), sid, body["role"], player, body.get("client_id")))


@bp.put("/sessions/<sid>/players/<name>/pay")
@token_required(write=True, seats_too=True)
def pay_details(sid: str, name: str):
    body = _body(_PAY_DETAILS)
    seats.check_seat(g.access, name)  # a seat's phone: its own player's details only
    client_id, club = body.pop("client_id", None), body.pop("club")
    if club and g.access.role != seats.SEAT:
        raise ApiError(403, "forbidden", N_("club: only the player's own seat token keeps "
                                            "details for the club here (the host: PUT "
                                            "/api/club/people/<name>/pay)"))
    return pay.set_own_details(get_db(), sid, name, body, club=club, client_id=client_id)


@bp.get("/sessions/<sid>/settlement")
@token_required(write=False)
def settlement(sid: str):
    return pay.settlement(get_db(), sid)


@bp.post("/sessions/<sid>/paid")
@token_required(write=True, seats_too=True)
def mark_paid(sid: str):
    body = _body(_PAID)
    seats.check_seat(g.access, body["from_"], body["to"])  # a seat: the payer or the payee
    return _created(pay.mark_paid(get_db(), sid, body["from_"], body["to"], body["amount"],
                                  client_id=body.get("client_id")))


@bp.get("/openapi.json")
def openapi():
    spec = current_app.extensions.get("referee_openapi")
    if spec is None:
        spec = current_app.extensions["referee_openapi"] = build_spec()
    return spec


# ---------------------------------------------------------------- OpenAPI

def _errors(*codes: int) -> dict:
    words = {400: "malformed request or document", 401: "missing or wrong token",
             403: "the token may not do this (the audit or viewer token for a write; a "
                  "seat's token for what is not its own player's: not_your_seat)",
             404: "no such session or hand",
             409: "expected_seq is stale", 413: "body too large",
             422: "the rules refuse it (code and sentence from the referee)"}
    return {str(c): {"description": words[c], "content": {
        "application/json": {"schema": "Error"}}} for c in codes}


def _ok(status: int, schema: str, description: str) -> dict:
    return {str(status): {"description": description,
                          "content": {"application/json": {"schema": schema}}}}


def build_spec() -> dict:
    spec = APISpec(title="Tonk referee", version="1", openapi_version="3.0.3",
                   plugins=[MarshmallowPlugin()],
                   info={"description": "Live-table referee and settlement. Every error "
                         "has the shape {\"error\": {code, message, hand, action}}."})
    spec.components.security_scheme("table", {"type": "http", "scheme": "bearer",
                                              "description": "table token (writes) or "
                                              "audit token (reads); a viewer link's token "
                                              "(reads) or a seat link's token (reads; "
                                              "writes only its own player's actions, "
                                              "accepts, disputes and payments): "
                                              "POST /api/sessions/{sid}/links"})
    spec.components.security_scheme("host", {"type": "apiKey", "in": "header",
                                             "name": "X-Host-Key"})
    for name, schema in [("Error", ErrorSchema), ("SessionCreated", SessionCreatedSchema),
                         ("ActionRequest", ActionRequestSchema), ("UndoRequest",
                         UndoRequestSchema), ("HandState", HandStateSchema),
                         ("Result", ResultSchema), ("Log", LogSchema),
                         ("HandSetup", HandSetupSchema), ("VoidRequest", VoidRequestSchema),
                         ("AcceptRequest", AcceptRequestSchema),
                         ("DisputeRequest", DisputeRequestSchema),
                         ("StakeRequest", StakeRequestSchema),
                         ("LeaveRequest", LeaveRequestSchema),
                         ("SeatRequest", SeatRequestSchema),
                         ("SettleRequest", SettleRequestSchema),
                         ("PaymentRequest", PaymentRequestSchema),
                         ("CloseRequest", _EventRequest), ("RenameRequest", RenameRequestSchema),
                         ("EventAnswer", EventAnswerSchema),
                         ("LinkRequest", LinkRequestSchema), ("Link", LinkSchema),
                         ("PayDetailsRequest", PayDetailsRequestSchema),
                         ("PayDetails", PayDetailsAnswerSchema),
                         ("Settlement", SettlementSchema), ("PaidRequest", PaidRequestSchema)]:
        spec.components.schema(name, schema=schema)
    sid = {"name": "sid", "in": "path", "required": True, "schema": {"type": "string"}}
    n = {"name": "n", "in": "path", "required": True,
         "schema": {"type": "integer", "minimum": 1}}
    auth = [{"table": []}]

    def body(schema: str) -> dict:
        return {"required": True, "content": {"application/json": {"schema": schema}}}

    spec.path("/api/sessions", operations={"post": {
        "summary": "Create a session from a tonk-log/1 document (with hands: an import)",
        "security": [{"host": []}, {}], "requestBody": body("Log"),
        "responses": {**_ok(201, "SessionCreated", "created"), **_errors(400, 401, 403, 413,
                                                                        422)}}})
    spec.path("/api/sessions/{sid}", parameters=[sid], operations={"get": {
        "summary": "The session's summary", "security": auth,
        "responses": {"200": {"description": "summary"}, **_errors(401, 404)}}})
    spec.path("/api/sessions/{sid}/log", parameters=[sid], operations={"get": {
        "summary": "The tonk-log/1 document", "security": auth,
        "responses": {**_ok(200, "Log", "the log"), **_errors(401, 404)}}})
    spec.path("/api/sessions/{sid}/result", parameters=[sid], operations={"get": {
        "summary": "tonk-result/1 of the complete hands", "security": auth,
        "responses": {**_ok(200, "Result", "the result"), **_errors(401, 404)}}})
    spec.path("/api/sessions/{sid}/standings", parameters=[sid], operations={"get": {
        "summary": "Running totals hand by hand: a page of settled hands (limit: 20 "
                   "unless given, at most 100), the newest unless offset is given "
                   "(settled: how many in all)",
        "security": auth,
        "parameters": [
            {"name": "offset", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 0}},
            {"name": "limit", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 0, "maximum": 100}}],
        "responses": {"200": {"description": "standings"}, **_errors(400, 401, 404)}}})
    spec.path("/api/sessions/{sid}/hands", parameters=[sid], operations={"post": {
        "summary": "Start the next hand (a tonk-log/1 hand without actions), or log a whole "
                   "hand told by its ending (`ending` instead of `deal` and `upcard`: one "
                   "event, settled at once)",
        "security": auth, "requestBody": body("HandSetup"),
        "parameters": [{"name": "Idempotency-Key", "in": "header", "required": False,
                        "schema": {"type": "string"}}],
        "responses": {**_ok(201, "HandState", "the new hand"),
                      **_errors(400, 401, 403, 404, 422)}}})
    spec.path("/api/sessions/{sid}/hands/{n}", parameters=[sid, n], operations={"get": {
        "summary": "A hand's state and the legal actions", "security": auth,
        "responses": {**_ok(200, "HandState", "the hand"), **_errors(401, 404)}}})
    spec.path("/api/sessions/{sid}/hands/{n}/actions", parameters=[sid, n], operations={
        "post": {"summary": "Log an action", "security": auth,
                 "requestBody": body("ActionRequest"),
                 "responses": {**_ok(201, "HandState", "accepted: the new state and the "
                                     "verbs open, without 'legal' (a retry with the same "
                                     "client_id gets this again)"),
                               **_errors(400, 401, 403, 404, 409, 422)}}})
    spec.path("/api/sessions/{sid}/hands/{n}/undo", parameters=[sid, n], operations={
        "post": {"summary": "Undo the last action (a correction; the original stays in "
                 "the history)", "security": auth, "requestBody": body("UndoRequest"),
                 "responses": {**_ok(201, "HandState", "the state without it"),
                               **_errors(400, 401, 403, 404, 409, 422)}}})
    events = [
        ("/hands/{n}/void", [sid, n], "VoidRequest", "Void the hand in play (a misdeal...): "
         "it pays nothing and the same dealer deals again"),
        ("/hands/{n}/accept", [sid, n], "AcceptRequest", "A player accepts the hand's result "
         "(on their own device, or the host for them)"),
        ("/hands/{n}/disputes", [sid, n], "DisputeRequest", "Dispute an action (or the whole "
         "hand): a note for the record"),
        ("/stake", [sid], "StakeRequest", "Change the stake from the next hand on"),
        ("/leave", [sid], "LeaveRequest", "A player leaves (the hand in play is void if they "
         "are seated in it; the next hand lists the seats)"),
        ("/seat", [sid], "SeatRequest", "A newcomer (or a player who left) sits down for "
         "the next hand, at the next dealer's right; only between hands"),
        ("/hands/{n}/disputes/{k}/settle", [sid, n, {"name": "k", "in": "path",
                                                     "required": True,
                                                     "schema": {"type": "integer",
                                                                "minimum": 1}}],
         "SettleRequest", "Settle the hand's dispute k (from 1): correct the record back to "
         "the disputed action, or let it stand"),
        ("/payments", [sid], "PaymentRequest", "Record money handed over at the table"),
        ("/close", [sid], "CloseRequest", "Close the table: it takes nothing more, and its "
         "settlement is final"),
        ("/players/{name}", [sid, {"name": "name", "in": "path", "required": True,
                                   "schema": {"type": "string", "minLength": 1,
                                              "maxLength": 40}}],
         "RenameRequest", "Correct a player's name (the export writes it everywhere)"),
    ]
    for tail, params, request_schema, summary in events:
        spec.path(f"/api/sessions/{{sid}}{tail}", parameters=params, operations={"post": {
            "summary": summary, "security": auth, "requestBody": body(request_schema),
            "responses": {**_ok(201, "EventAnswer", "recorded: the event as kept (a retry "
                                "with the same client_id gets this again)"),
                          **_errors(400, 401, 403, 404, 409, 422)}}})
    spec.path("/api/sessions/{sid}/stream", parameters=[sid], operations={"get": {
        "summary": "Server-Sent Events: one event per change of the table (any of its "
                   "tokens, also as ?token=). id: the event's number (the table's seq); "
                   "data: {seq, kind, hand, head, prev}; the first event (kind now) says "
                   "where the table is; Last-Event-ID (or ?last=) sends what was missed; a "
                   "comment line at least every 15 s",
        "security": auth,
        "parameters": [{"name": "Last-Event-ID", "in": "header", "required": False,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "the stream",
                              "content": {"text/event-stream": {}}},
                      "503": {"description": "too many open streams here: ask again "
                              "(Retry-After) or poll GET /api/sessions/{sid}"},
                      **_errors(401, 404)}}})
    spec.path("/api/sessions/{sid}/consistency", parameters=[sid], operations={"get": {
        "summary": "A device's witness: whether the table's event number seq still has "
                   "hash head (false: events deleted or rewritten since); with the "
                   "table's newest seq and head",
        "security": auth,
        "parameters": [
            {"name": "seq", "in": "query", "required": True,
             "schema": {"type": "integer", "minimum": 0}},
            {"name": "head", "in": "query", "required": True,
             "schema": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}],
        "responses": {"200": {"description": "the answer", "content": {
            "application/json": {"schema": {"type": "object", "properties": {
                "consistent": {"type": "boolean"}, "seq": {"type": "integer"},
                "head": {"type": "string", "nullable": True}}}}}},
                      **_errors(400, 401, 404)}}})
    spec.path("/api/sessions/{sid}/links", parameters=[sid], operations={"post": {
        "summary": "A seat's link (role seat, player) or the viewer link (role viewer), with "
                   "its token; replaces that seat's or the viewer's link in force (table "
                   "token only)",
        "security": auth, "requestBody": body("LinkRequest"),
        "responses": {**_ok(201, "Link", "the new link"),
                      **_errors(400, 401, 403, 404, 422)}}})
    spec.path("/api/sessions/{sid}/links/revoke", parameters=[sid], operations={"post": {
        "summary": "Revoke a seat's link or the viewer link: refused from now on (table "
                   "token only)",
        "security": auth, "requestBody": body("LinkRequest"),
        "responses": {**_ok(201, "EventAnswer", "revoked"),
                      **_errors(400, 401, 403, 404, 422)}}})
    player = {"name": "name", "in": "path", "required": True,
              "schema": {"type": "string", "minLength": 1, "maxLength": 40}}
    spec.path("/api/sessions/{sid}/players/{name}/pay", parameters=[sid, player], operations={
        "put": {"summary": "A player's payment details at this table (an IBAN with its "
                "holder, a PayPal.me name, a free line), shown beside each transfer to them; "
                "replaces any before, an empty body clears them; taken by a closed table too "
                "(the table token, or that player's seat token)",
                "security": auth, "requestBody": body("PayDetailsRequest"),
                "responses": {**_ok(200, "PayDetails", "kept: a pay_details event of the "
                                    "table's chain"),
                              **_errors(400, 401, 403, 404, 409, 422)}}})
    spec.path("/api/sessions/{sid}/settlement", parameters=[sid], operations={"get": {
        "summary": "The transfers still owed, each with what its payer needs (an EPC QR "
                   "code's fields, a PayPal.me link, the payee's line), and the payments made",
        "security": auth,
        "responses": {**_ok(200, "Settlement", "the settle-up"), **_errors(401, 404)}}})
    spec.path("/api/sessions/{sid}/paid", parameters=[sid], operations={"post": {
        "summary": "A transfer the settlement owes, marked paid: recorded as a payment "
                   "(not_owed unless the settlement owes exactly it now); taken by a closed "
                   "table too (the table token, or the payer's or the payee's seat token)",
        "security": auth, "requestBody": body("PaidRequest"),
        "responses": {**_ok(201, "EventAnswer", "recorded as a payment"),
                      **_errors(400, 401, 403, 404, 409, 422)}}})
    from . import club

    club.document(spec, _errors, _ok)
    return spec.to_dict()
