"""The JSON API: thin views over ``referee.service``, marshmallow schemas for
the bodies, an OpenAPI document generated from them, and one error shape for
every failure: ``{"error": {"code", "message", "hand", "action"}}``, with
``field`` when it names one of the body's fields (made by
``referee.web.errors``)."""

from __future__ import annotations

import functools
import json
from html import escape

from flask import Blueprint, Response, current_app, g, request

from ..language import N_
from ..rules.words import Words
from ..service.access import seats
from ..service.club import pay
from ..service.money import payable
from ..service.table import (
    action,
    carrying,
    disputes,
    hands,
    retell,
    seat_links,
    sessions,
    sight,
    table_events,
)
from . import carried, forms, links, refusals
from .api_schemas import (
    STANDINGS_MAX,
    STANDINGS_PAGE,
    AcceptRequestSchema,
    ActionRequestSchema,
    CarryFromSchema,
    DisputeRequestSchema,
    EventRequestSchema,
    HandRequestSchema,
    LeaveRequestSchema,
    LinkRequestSchema,
    PaidRequestSchema,
    PaymentRequestSchema,
    RenameRequestSchema,
    SeatRequestSchema,
    SessionCreatedSchema,
    SettleRequestSchema,
    StakeRequestSchema,
    TellAgainRequestSchema,
    UndoRequestSchema,
    VoidRequestSchema,
)
from .bodies import load_fields, with_key
from .bodies import read_body as _read_body
from .club_api import require_host_key
from .db import get_db
from .errors import ApiError
from .lang import told as _said
from .openapi import build_spec
from .openings import count_opening
from .settle import PayDetailsRequestSchema

bp = Blueprint("api", __name__, url_prefix="/api")

_ACTION = ActionRequestSchema()
_HAND_REQUEST = HandRequestSchema()
_UNDO = UndoRequestSchema()
_TELL_AGAIN = TellAgainRequestSchema()
_CREATED = SessionCreatedSchema()
_CARRY_FROM = CarryFromSchema()
_VOID = VoidRequestSchema()
_ACCEPT = AcceptRequestSchema()
_DISPUTE = DisputeRequestSchema()
_STAKE = StakeRequestSchema()
_LEAVE = LeaveRequestSchema()
_PAYMENT = PaymentRequestSchema()
_SEAT = SeatRequestSchema()
_SETTLE = SettleRequestSchema()
_CLOSE = EventRequestSchema()
_RENAME = RenameRequestSchema()
_LINK = LinkRequestSchema()
_PAY_DETAILS = PayDetailsRequestSchema()
_PAID = PaidRequestSchema()

# ---------------------------------------------------------------- requests

def _body(schema=None, *, log: bool = False) -> dict:
    """A write's body, its client_id also taken from the ``Idempotency-Key``
    header (``bodies.with_key``)."""
    if log:
        return _read_body(log=True)
    data = with_key(_read_body())
    return data if schema is None else load_fields(schema, data)

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
    count_opening()
    doc = _body(log=True)  # a log or a header: load_log checks it (import_log)
    carry = load_fields(_CARRY_FROM, {k: doc.pop(k) for k in _CARRY_FROM.fields if k in doc})
    if not doc.get("hands") and not _finer_confirmed():
        # A table opening; an import (with hands) is a record kept as handed over.
        payable.check_opening_stake(doc)
    earlier, token = carry.get("brought_forward_from"), carry.get("brought_forward_token")
    copy = bool(carry.get("copy"))
    if earlier is not None:
        # An import's brought_forward is written out (and must be what is
        # carried); a new table's is carried in. Either way the earlier table
        # marks its debts moved: the club counts them once, where they are owed.
        info = carrying.open_carrying(get_db(), doc, earlier, token, copy=copy)
    elif "hands" in doc:
        info = sessions.import_log(get_db(), doc, copy=copy)
    else:
        info = sessions.create_session(get_db(), doc)
    return _CREATED.dump(info), 201


@bp.get("/sessions/<sid>")
@token_required(write=False)
def session_summary(sid: str):
    db = get_db()
    return {**sessions.session_summary(db, sid), **sessions.money_summary(db, sid)}


@bp.get("/sessions/<sid>/log")
@token_required(write=False)
def session_log(sid: str):
    sight.check_sees_all(g.access)  # every deal and draw is in it
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
    limit = _whole("limit", STANDINGS_PAGE)
    if limit > STANDINGS_MAX:  # as the document says: refused, not quietly cut
        raise ApiError(400, "bad_request", N_("{field}: {problem}"), {
            "field": "limit",
            "problem": Words(N_("Must be less than or equal to {max}."), max=STANDINGS_MAX)})
    if "offset" in request.args:
        offset = min(_whole("offset", 0), 2**62)
        return sessions.standings(get_db(), sid, offset=offset, limit=limit)
    return sessions.standings(get_db(), sid, newest=limit)


@bp.post("/sessions/<sid>/hands")
@token_required(write=True)
def start_hand(sid: str):
    setup = _body()
    # The request's own fields, read as the document describes them; the rest
    # is the hand, which the service reads (record.schemas.HAND_SETUP).
    own = load_fields(_HAND_REQUEST, {k: setup.pop(k) for k in _HAND_REQUEST.fields
                                      if k in setup})
    client_id = own.get("client_id")
    state = _said(hands.start_hand(get_db(), sid, setup, client_id, own.get("expected_seq")))
    # Taken, as the tablet takes it, but said as the tablet says it first.
    went_on = carried.warning(get_db(), sid)
    return ({**state, "warning": went_on} if went_on else state), 201


@bp.get("/sessions/<sid>/hands/<int:n>")
@token_required(write=False)
def hand_state(sid: str, n: int):
    return _said(sight.hand(disputes.with_settlements(get_db(), sid, n,
                                                          hands.hand_state(get_db(), sid, n)),
                            g.access))


@bp.post("/sessions/<sid>/hands/<int:n>/actions")
@token_required(write=True, seats_too=True, tablet=True)
@refusals.limited
def post_action(sid: str, n: int):
    body = _body(_ACTION)
    seats.check_seat(g.access, seats.actor_of(body["action"]))
    return _created(sight.hand(action.log_action(get_db(), sid, n, [body["action"]],
                                                 body["client_id"], body["expected_seq"]
                                                 ).answer(), g.access))


@bp.post("/sessions/<sid>/hands/<int:n>/undo")
@token_required(write=True)
def undo(sid: str, n: int):
    body = _body(_UNDO)
    return _created(hands.undo(get_db(), sid, n, body["client_id"],
                               body.get("expected_seq")))


@bp.post("/sessions/<sid>/hands/<int:n>/tell-again")
@token_required(write=True)
def tell_again(sid: str, n: int):
    # The tablet's correction (tablet.tell_again) by the same service call.
    body = _body(_TELL_AGAIN)
    settles = body.get("settles")
    return _created(retell.tell_again(
        get_db(), sid, n, {"ending": body["ending"]}, body.get("client_id"),
        (settles["dispute"] - 1, settles["by"]) if settles else None,
        expected_seq=body.get("expected_seq"), leaves_open=body.get("leaves_open", False)))


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
                                              body.get("client_id"), finer=_finer_confirmed()))


def _finer_confirmed() -> bool:
    """The host's confirmation of a stake finer than a coin (``?finer_stake=true``):
    the tablet's "Yes, play for this stake" box."""
    return request.args.get("finer_stake") in ("1", "true")


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
    return _created(disputes.settle_dispute(get_db(), sid, n, k - 1, body["how"],
                                            body["by"], body.get("client_id"),
                                            instead=body.get("instead"),
                                            expected_seq=body.get("expected_seq")))


@bp.post("/sessions/<sid>/payments")
@token_required(write=True, seats_too=True)
def record_payment(sid: str):
    body = _body(_PAYMENT)
    seats.check_seat(g.access, body["from_"], body["to"])
    return _created(table_events.record_payment(
        get_db(), sid, body["from_"], body["to"], body["amount"], at=body.get("at"),
        note=body.get("note"), client_id=body.get("client_id"), by=_by()))


def _by() -> str | None:
    """Whose own phone sends a payment's word (None: the host's, or the table
    token): a payer's own word waits for the payee's (issue 33)."""
    return g.access.player if g.access.role == seats.SEAT else None


@bp.post("/sessions/<sid>/payments/<int:k>/confirm")
@token_required(write=True, seats_too=True)
def confirm_payment(sid: str, k: int):
    body = _body(_CLOSE)
    return _created(table_events.confirm_payment(get_db(), sid, k, by=_by(),
                                                 client_id=body.get("client_id")))


@bp.post("/sessions/<sid>/payments/<int:k>/undo")
@token_required(write=True, seats_too=True)
def undo_payment(sid: str, k: int):
    body = _body(_CLOSE)
    return _created(table_events.undo_payment(get_db(), sid, k, by=_by(),
                                              client_id=body.get("client_id")))


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
    token = seat_links.issue(get_db(), sid, body["role"], player,
                        current_app.config["SECRET_KEY"], body.get("client_id"))
    return {"role": body["role"], "player": player, "token": token,
            "url": links.external_url("tablet.join", session_id=sid, token=token)}, 201


@bp.post("/sessions/<sid>/links/revoke")
@token_required(write=True)
def revoke_link(sid: str):
    body = _body(_LINK)
    player = body.get("player") if body["role"] == seats.SEAT else None
    return _created(seat_links.revoke(get_db(), sid, body["role"], player, body.get("client_id")))


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
                                  client_id=body.get("client_id"), by=_by()))


def _spec() -> dict:
    spec = current_app.extensions.get("referee_openapi")
    if spec is None:
        spec = current_app.extensions["referee_openapi"] = build_spec()
    return spec


@bp.get("/openapi.json")
def openapi():
    return _spec()


_METHODS = ("get", "put", "post", "delete")


@bp.get("/docs")
def docs():
    """The OpenAPI document as a page a person reads: each path, its methods
    and summaries, drawn from the same document (no library, nothing from a
    CDN: the room may have no internet)."""
    spec = _spec()
    rows = [(path, m.upper(), op.get("summary") or op.get("description") or "")
            for path, ops in spec["paths"].items() for m in _METHODS if m in ops
            for op in (ops[m],)]
    body = "".join(f"<tr><td><code>{escape(m)}</code></td><td><code>{escape(p)}</code></td>"
                   f"<td>{escape(text)}</td></tr>" for p, m, text in rows)
    page = (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{escape(spec['info']['title'])}</title></head><body>"
            f"<h1>{escape(spec['info']['title'])} {escape(spec['info']['version'])}</h1>"
            f"<p>The whole document: <a href=\"openapi.json\">openapi.json</a></p>"
            f"<table><thead><tr><th>method</th><th>path</th><th>what</th></tr></thead>"
            f"<tbody>{body}</tbody></table></body></html>")
    return Response(page, 200, mimetype="text/html")
