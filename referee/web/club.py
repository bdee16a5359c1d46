"""The club's pages and API: people across tables, the ledger across weeks,
the season's numbers, and their exports.

They show the money of every table, so they need the host key
(``REFEREE_HOST_KEY``): the API as ``X-Host-Key`` (or a bearer token), the
pages once per browser (kept in the signed session cookie). A service run
without a host key keeps them shut: there would be no one to show them to
but everyone.
"""

from __future__ import annotations

import hmac
from datetime import date

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from marshmallow import Schema, fields, validate

from ..language import N_
from ..record.schemas import StrictSchema
from ..rules.errors import RefereeError
from ..rules.numbers import whole
from ..service import access, club, pay
from ..service.payable import FIELDS
from .bodies import read_body
from .db import get_db
from .errors import WRONG_HOST_KEY, ApiError, error_page
from .forms import check_csrf
from .lang import _, message, money
from .reports import paper_turn
from .settle import PayDetailsRequestSchema

api = Blueprint("club_api", __name__, url_prefix="/api/club")
pages = Blueprint("club", __name__, url_prefix="/club")


# ---------------------------------------------------------------- access

def _key() -> str | None:
    return current_app.config.get("REFEREE_HOST_KEY")


def _right(sent: str | None) -> bool:
    key = _key()
    return bool(key and sent and hmac.compare_digest(sent.encode(), key.encode()))


def require_host_key(missing: str) -> None:
    """The API's guard: the host key as ``X-Host-Key`` (or a bearer token),
    every try counted per address as the pages count theirs (``missing``: the
    sentence when none is sent). Nothing to check when the service has no key."""
    key = _key()
    if not key:
        return
    header = request.headers.get("Authorization", "")
    scheme, _sep, token = header.partition(" ")
    sent = request.headers.get("X-Host-Key") or (token.strip() if scheme.lower() == "bearer"
                                                 else None)
    if not sent:
        raise ApiError(401, "unauthorized", missing)
    if not access.host_key(get_db(), key, sent, "api", request.remote_addr or "?"):
        raise ApiError(403, "forbidden", WRONG_HOST_KEY)


@api.before_request
def _api_guard() -> None:
    if not _key():
        raise ApiError(403, "forbidden", N_("the club's pages are shut: this service has no "
                                            "host key (REFEREE_HOST_KEY)"))
    require_host_key(N_("the club's pages need the host key (X-Host-Key header)"))


@pages.before_request
def _page_guard():
    if request.method == "POST":
        check_csrf()
    if request.endpoint == "club.unlock":
        return None
    if not _key():
        return error_page(_("The club is shut"), _("This referee has no host key "
                          "(REFEREE_HOST_KEY), so no one may see every table's money."), 403)
    if not session.get("club"):
        return redirect(url_for("club.unlock", next=request.path))
    return None


@pages.route("/unlock", methods=["GET", "POST"])
def unlock():
    error = None
    if request.method == "POST":
        address = request.remote_addr or "?"
        wait = access.host_key_try(get_db(), "club", address)
        if wait:
            error = _("Too many wrong host keys. Wait {seconds} seconds.", seconds=wait)
        elif _right(request.form.get("host_key")):
            access.host_key_right(get_db(), "club", address)
            session["club"] = True
            target = request.args.get("next", "")
            # Only this blueprint's own pages: nothing else is a place to go.
            ours = (target == "/club" or target.startswith("/club/")) and not any(
                c in target for c in "\\\t\n\r ")
            return redirect(target if ours else url_for("club.ledger_page"))
        else:
            error = _("The host key is wrong: ask the person who runs this referee.")
    return render_template("club_unlock.html", error=error,
                           shut=not _key()), 403 if error else 200


# ---------------------------------------------------------------- reading the query

def _date(name: str) -> date | None:
    text = request.args.get(name) or None
    if text is None:
        return None
    try:
        return date.fromisoformat(text) if len(text) == 10 else _bad(name)
    except ValueError:
        return _bad(name)


def _bad(name: str):
    raise ApiError(400, "bad_request", N_("{field}: a date as YYYY-MM-DD"), {"field": name})


def _currency() -> str | None:
    text = request.args.get("currency") or None
    if text is not None and not 1 <= len(text) <= 16:
        raise ApiError(400, "bad_request", N_("currency: 1 to 16 characters"))
    return text


def _name(key: str) -> str | None:
    text = request.args.get(key) or None
    if text is not None and len(text) > 40:
        raise ApiError(400, "bad_request", N_("{field}: a name of 1 to 40 characters"),
                       {"field": key})
    return text


# ---------------------------------------------------------------- API

class ClubTransferSchema(Schema):
    from_ = fields.String(data_key="from", required=True)
    to = fields.String(required=True)
    amount = fields.String(required=True)
    session = fields.String(allow_none=True, metadata={
        "description": "the table where it is owed (what its page, papers and export say "
                       "too); null: payments the club kept itself before issue 33"})
    since = fields.String(allow_none=True, metadata={
        "description": "the day that table closed (else the day it opened)"})


class LedgerSchema(Schema):
    currency = fields.String(required=True)
    balances = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                           metadata={"description": "positive: the club owes them"})
    transfers = fields.List(fields.Nested(ClubTransferSchema), required=True)


class PlayerSeasonSchema(Schema):
    hands = fields.Integer(required=True)
    wins = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                       metadata={"description": "hands won, by ending"})
    drops = fields.Integer(required=True)
    drops_won = fields.Integer(required=True)
    drop_win_rate = fields.String(allow_none=True, required=True)
    caught = fields.Integer(required=True)
    tonk_outs = fields.Integer(required=True)
    deal_wins = fields.Integer(required=True)
    average_show = fields.String(allow_none=True, required=True)
    won = fields.String(required=True)
    lost = fields.String(required=True)
    matches = fields.Integer(required=True, metadata={
        "description": "matches to a score (match_to) played to the end: each counts once"})
    matches_won = fields.Integer(required=True, metadata={
        "description": "of them, won (players tied for lowest share the win)"})


class RunningSchema(Schema):
    date = fields.String(required=True)
    balances = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class HeadToHeadSchema(Schema):
    players = fields.List(fields.String(), required=True)
    hands = fields.Integer(required=True)
    wins = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    net = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class SeasonSchema(Schema):
    currency = fields.String(required=True)
    from_ = fields.String(data_key="from", allow_none=True, required=True)
    to = fields.String(allow_none=True, required=True)
    sessions = fields.Integer(required=True)
    players = fields.Dict(keys=fields.String(), values=fields.Nested(PlayerSeasonSchema),
                          required=True)
    running = fields.List(fields.Nested(RunningSchema), required=True)
    head_to_head = fields.Nested(HeadToHeadSchema)


class MarkPaidSchema(StrictSchema):
    from_ = fields.String(data_key="from", required=True, validate=validate.Length(1, 40))
    to = fields.String(required=True, validate=validate.Length(1, 40))
    amount = fields.String(required=True,
                           validate=validate.Regexp(r"^\s*[0-9]{1,9}(\.[0-9]{1,6})?\s*$"))
    currency = fields.String(validate=validate.Length(1, 16))
    since = fields.String(allow_none=True, validate=validate.Length(max=40), metadata={
        "description": "ignored: a transfer of the ledger may be posted back as it is"})
    session = fields.String(allow_none=True, validate=validate.Length(1, 100), metadata={
        "description": "the table where the debt is owed (the ledger's transfer names it); "
                       "left out: the oldest table that owes exactly it"})


class PaidSchema(Schema):
    session = fields.String(required=True, metadata={
        "description": "the table the payment was recorded at: the one where the debt is "
                       "owed"})
    from_ = fields.String(data_key="from", required=True)
    to = fields.String(required=True)
    amount = fields.String(required=True)
    currency = fields.String(required=True)


class MergeSchema(StrictSchema):
    spelling = fields.String(required=True, validate=validate.Length(1, 40), metadata={
        "description": "a name as it sits in some session"})
    into = fields.String(required=True, validate=validate.Length(1, 40), metadata={
        "description": "the person it is from now on"})


class NicknameSchema(StrictSchema):
    person = fields.String(required=True, validate=validate.Length(1, 40))
    nickname = fields.String(required=True, allow_none=True, validate=validate.Length(1, 40),
                             metadata={"description": "null takes it away"})


class UndoSchema(StrictSchema):
    event = fields.Integer(required=True, strict=True, metadata={
        "description": "the merge's or nickname's event (its answer's event)"})


class ClubEventSchema(Schema):
    event = fields.Integer(required=True, metadata={"description": "the club event's id"})
    kind = fields.String(required=True, validate=validate.OneOf(club.WHO_IS_WHO))
    spelling = fields.String()
    into = fields.String()
    person = fields.String()
    nickname = fields.String(allow_none=True)
    undoes = fields.Integer()


class PersonSchema(Schema):
    name = fields.String(required=True)
    nickname = fields.String(required=True, allow_none=True)
    spellings = fields.List(fields.String(), required=True, metadata={
        "description": "the other spellings merged into this person"})
    sessions = fields.Integer(required=True)


class PeopleSchema(Schema):
    people = fields.List(fields.Nested(PersonSchema), required=True)


@api.get("/people")
def people():
    return {"people": club.people(get_db())}


@api.post("/merges")
def merge_spellings():
    doc = read_body(MergeSchema())
    return club.merge(get_db(), doc["spelling"], doc["into"]), 201


@api.post("/nicknames")
def set_nickname():
    doc = read_body(NicknameSchema())
    return club.nickname(get_db(), doc["person"], doc["nickname"]), 201


@api.post("/undo")
def undo_event():
    doc = read_body(UndoSchema())
    return club.undo(get_db(), doc["event"]), 201


@api.get("/ledger")
def ledger():
    return club.ledger(get_db(), _currency())


@api.get("/season")
def season():
    return club.season(get_db(), _currency(), _date("from"), _date("to"), _name("a"),
                       _name("b"))


@api.post("/transfers")
def mark_paid():
    doc = read_body(MarkPaidSchema())
    return club.mark_paid(get_db(), doc["from_"], doc["to"], doc["amount"],
                          doc.get("currency"), doc.get("session")), 201


@api.put("/people/<name>/pay")
def pay_details(name: str):
    doc = read_body(PayDetailsRequestSchema(exclude=("client_id", "club")))
    return pay.set_club_details(get_db(), name, doc)


def document(spec, errors, ok) -> None:
    """The club's operations in the OpenAPI document (``openapi.build_spec``)."""
    for name, schema in [("ClubLedger", LedgerSchema), ("ClubSeason", SeasonSchema),
                         ("MarkPaid", MarkPaidSchema), ("Paid", PaidSchema),
                         ("Merge", MergeSchema), ("Nickname", NicknameSchema),
                         ("ClubUndo", UndoSchema), ("ClubEvent", ClubEventSchema),
                         ("People", PeopleSchema)]:
        spec.components.schema(name, schema=schema)
    host = [{"host": []}]
    currency = {"name": "currency", "in": "query", "required": False,
                "schema": {"type": "string", "minLength": 1, "maxLength": 16}}
    day = [{"name": n, "in": "query", "required": False,
            "schema": {"type": "string", "format": "date"}} for n in ("from", "to")]
    names = [{"name": n, "in": "query", "required": False,
              "schema": {"type": "string", "minLength": 1, "maxLength": 40}} for n in "ab"]
    spec.path("/api/club/ledger", operations={"get": {
        "summary": "Everyone's balance over every session in one currency, and the "
                   "fewest transfers that clear them", "security": host,
        "parameters": [currency],
        "responses": {**ok(200, "ClubLedger", "the ledger"), **errors(400, 401, 403, 404)}}})
    spec.path("/api/club/season", operations={"get": {
        "summary": "Each player's numbers over a date range (both days included), the "
                   "running balances, and head to head of a and b", "security": host,
        "parameters": [currency, *day, *names],
        "responses": {**ok(200, "ClubSeason", "the season"), **errors(400, 401, 403, 404)}}})
    spec.path("/api/club/people", operations={"get": {
        "summary": "Every person of the club: name, nickname, the spellings merged into "
                   "them and how many sessions they sat in", "security": host,
        "responses": {**ok(200, "People", "the people"), **errors(401, 403)}}})

    def post(path: str, request_schema: str, summary: str) -> None:
        spec.path(path, operations={"post": {
            "summary": summary, "security": host,
            "requestBody": {"required": True,
                            "content": {"application/json": {"schema": request_schema}}},
            "responses": {**ok(201, "ClubEvent", "recorded as a club event"),
                          **errors(400, 401, 403, 413, 422)}}})
    post("/api/club/merges", "Merge", "Two spellings are one person from now on, in every "
         "session (refused for two names that sat at one table: unknown_player, "
         "same_person, same_table)")
    post("/api/club/nicknames", "Nickname", "A person's nickname (null takes it away)")
    post("/api/club/undo", "ClubUndo", "Take back a merge or a nickname (nothing_to_undo "
         "if it is neither, or undone already)")
    spec.path("/api/club/people/{name}/pay", parameters=[{
        "name": "name", "in": "path", "required": True,
        "schema": {"type": "string", "minLength": 1, "maxLength": 40}}], operations={"put": {
        "summary": "A person's payment details kept by the club, shown beside a transfer to "
                   "them at every table where they gave none of their own; replaces any "
                   "before, an empty body clears them", "security": host,
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": "PayDetailsRequest"}}},
        "responses": {**ok(200, "PayDetails", "kept: an event of the club's chain"),
                      **errors(400, 401, 403, 413, 422)}}})
    spec.path("/api/club/transfers", operations={"post": {
        "summary": "A club transfer paid: recorded as a payment at the newest open table "
                   "where both sit", "security": host,
        "requestBody": {"required": True,
                        "content": {"application/json": {"schema": "MarkPaid"}}},
        "responses": {**ok(201, "Paid", "recorded"),
                      **errors(400, 401, 403, 404, 409, 413, 422)}}})


# ---------------------------------------------------------------- pages

def _range() -> tuple[date | None, date | None]:
    try:
        return _date("from"), _date("to")
    except ApiError:
        return None, None


@pages.get("")
def ledger_page():
    db = get_db()
    currency = request.args.get("currency") or None
    led = club.ledger(db, currency)
    return render_template("club_ledger.html", ledger=led, people=club.people(db),
                           currencies=club.currencies(db), history=club.club_history(db))


@pages.post("/paid")
def paid():
    f = request.form
    done = club.mark_paid(get_db(), f.get("from", ""), f.get("to", ""), f.get("amount", ""),
                          f.get("currency") or None, f.get("session") or None)
    flash(_("Recorded: {payer} paid {payee} {amount} at table {table}.",
            payer=done["from"], payee=done["to"],
            amount=money(done["amount"], done["currency"]), table=done["session"]), "ok")
    return redirect(url_for("club.ledger_page", currency=done["currency"]))


@pages.post("/merge")
def merge():
    done = club.merge(get_db(), request.form.get("spelling", ""), request.form.get("into", ""))
    flash(_("{spelling} is {name} from now on (undo below).", spelling=done["spelling"],
            name=done["into"]), "ok")
    return redirect(url_for("club.ledger_page"))


@pages.post("/nickname")
def nickname():
    done = club.nickname(get_db(), request.form.get("person", ""),
                         request.form.get("nickname") or None)
    flash(_("{name}'s nickname is saved.", name=done["person"]), "ok")
    return redirect(url_for("club.player_page", name=done["person"]))


@pages.post("/undo")
def undo():
    event = whole(request.form.get("event", "")) or 0
    club.undo(get_db(), event)
    flash(_("Undone."), "ok")
    return redirect(url_for("club.ledger_page"))


@pages.get("/people/<name>")
def player_page(name: str):
    p = club.player(get_db(), name)
    # Which details the club keeps, not what they are: the numbers are shown
    # only beside a payment to the person.
    words = {"iban": _("an IBAN"), "paypal": _("a PayPal.me name"), "note": _("a line")}
    kept = pay.club_details(get_db()).get(p["name"], {})
    return render_template("club_player.html", p=p,
                           kept=[words[k] for k in words if k in kept])


@pages.post("/people/<name>/pay")
def pay_details_page(name: str):
    doc = {k: request.form[k] for k in FIELDS if request.form.get(k, "").strip()}
    try:
        pay.set_club_details(get_db(), name, doc)
    except RefereeError as err:
        flash(message(err), "error")
    else:
        flash(_("{player}'s payment details are kept", player=name), "ok")
    return redirect(url_for("club.player_page", name=name), 303)


@pages.get("/season")
def season_page():
    start, end = _range()
    a, b = request.args.get("a") or None, request.args.get("b") or None
    data = club.season(get_db(), request.args.get("currency") or None, start, end, a, b)
    return render_template("club_season.html", s=data, chart=chart_svg(data["running"]),
                           a=a or "", b=b or "")


def _download(text: str | bytes, mimetype: str, filename: str) -> Response:
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@pages.get("/hands.csv")
def hands_csv():
    start, end = _range()
    return _download(club.hands_csv(get_db(), request.args.get("currency") or None, start, end),
                     "text/csv", "hands.csv")


@pages.get("/ledger.csv")
def ledger_csv():
    return _download(club.ledger_csv(get_db(), request.args.get("currency") or None),
                     "text/csv", "ledger.csv")


@pages.get("/season.pdf")
def season_pdf():
    from ..reports.season import render_season

    start, end = _range()
    data = club.season(get_db(), request.args.get("currency") or None, start, end,
                       request.args.get("a") or None, request.args.get("b") or None)
    from .lang import current

    # The club's paper has no table, so it is in the reader's language.
    with paper_turn():
        paper = render_season(data, current())
    return _download(paper, "application/pdf", "season.pdf")


COLOURS = ("#1b6ca8", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d",
           "#2c3e50")


def chart_svg(running: list[dict], width: int = 640, height: int = 240) -> str:
    """Each player's balance after each session as lines (inline SVG: no
    script, no image library)."""
    if not running:
        return ""
    from decimal import Decimal

    people = sorted({p for point in running for p in point["balances"]})
    values = [Decimal(v) for point in running for v in point["balances"].values()] or [
        Decimal(0)]
    top, bottom = max(max(values), Decimal(0)), min(min(values), Decimal(0))
    span = (top - bottom) or Decimal(1)
    pad = 30
    n = len(running)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: Decimal) -> float:
        return float(pad + (height - 2 * pad) * (top - v) / span)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'role="img" aria-label="running balance per player" class="season-chart">',
             f'<line x1="{pad}" x2="{width - pad}" y1="{y(Decimal(0)):.1f}" '
             f'y2="{y(Decimal(0)):.1f}" stroke="#999" stroke-dasharray="4 3"/>']
    for k, p in enumerate(people):
        colour = COLOURS[k % len(COLOURS)]
        pts, last = [], Decimal(0)
        for i, point in enumerate(running):
            last = Decimal(point["balances"].get(p, last))
            pts.append(f"{x(i):.1f},{y(last):.1f}")
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                     f'points="{" ".join(pts)}"><title>{_esc(p)}</title></polyline>')
        # A dot at each session: a season of one session draws its points.
        parts.extend(f'<circle cx="{xy.split(",")[0]}" cy="{xy.split(",")[1]}" r="4" '
                     f'fill="{colour}" class="point"/>' for xy in pts)
        parts.append(f'<text x="{width - pad + 2}" y="{y(last):.1f}" font-size="11" '
                     f'fill="{colour}">{_esc(p)}</text>')
    for i, point in enumerate(running):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 8}" font-size="10" '
                     f'text-anchor="middle">{point["date"][5:]}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _esc(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))
