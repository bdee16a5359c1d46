"""The club's API: people across tables, the ledger across weeks, the
season's numbers (the pages are ``club_pages``).

They show the money of every table, so they need the host key
(``REFEREE_HOST_KEY``): the API as ``X-Host-Key`` (or a bearer token), the
pages once per browser (kept in the signed session cookie). A service run
without a host key keeps them shut: there would be no one to show them to
but everyone.
"""

from __future__ import annotations

from datetime import date

from flask import Blueprint, current_app, request
from marshmallow import Schema, fields, validate

from ..language import N_
from ..ledger.club import AVERAGE_SHOW
from ..record.schemas import StrictSchema
from ..service import access, club
from ..service.club import copies, pay
from .bodies import read_body
from .db import get_db
from .errors import WRONG_HOST_KEY, ApiError
from .settle import PAY_CHANGE, PayDetailsRequestSchema

api = Blueprint("club_api", __name__, url_prefix="/api/club")


# ---------------------------------------------------------------- access

def _key() -> str | None:
    return current_app.config.get("REFEREE_HOST_KEY")


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

# ---------------------------------------------------------------- reading the query

def _date(name: str) -> date | None:
    return club.season_day(name, request.args.get(name))


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
    table = fields.String(allow_none=True, metadata={
        "description": "that table's name (null: it has none, or no table)"})
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
    average_show = fields.String(allow_none=True, required=True, metadata={
        "description": f"{AVERAGE_SHOW}: the player's count averaged over the hands they "
                       "showed (a drop's showdown, the stock running out); null: none"})
    won = fields.String(required=True)
    lost = fields.String(required=True)
    matches = fields.Integer(required=True, metadata={
        "description": "matches to a score (match_to) played to the end: each counts once"})
    matches_won = fields.Integer(required=True, metadata={
        "description": "of them, won (players tied for lowest share the win)"})


class RunningSchema(Schema):
    date = fields.String(required=True)
    table = fields.String(allow_none=True, required=True, metadata={
        "description": "the session's table name (null: it has none)"})
    started = fields.String(allow_none=True, required=True, metadata={
        "description": "when its table opened, as written (its own clock)"})
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
    table = fields.String(allow_none=True, validate=validate.Length(max=200), metadata={
        "description": "ignored, as since is (the table is the one session names)"})
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


class TakeOutSchema(StrictSchema):
    session = fields.String(required=True, validate=validate.Length(1, 100), metadata={
        "description": "the copy's table id (a table whose session answer has a copy_of)"})


class TakenOutSchema(Schema):
    event = fields.Integer(required=True, metadata={"description": "the club event's id"})
    kind = fields.String(required=True, validate=validate.OneOf([club.OUT_OF_BOOKS]))
    session = fields.String(required=True, metadata={"description": "the copy taken out"})
    copy_of = fields.String(required=True, metadata={
        "description": "the night it copies, which the club counts once"})


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


@api.post("/out-of-books")
def take_out():
    doc = read_body(TakeOutSchema())
    return copies.take_out(get_db(), doc["session"]), 201


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
                         ("People", PeopleSchema), ("TakeOut", TakeOutSchema),
                         ("TakenOut", TakenOutSchema)]:
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
    spec.path("/api/club/out-of-books", operations={"post": {
        "summary": "Take a copy (a night imported again on purpose: copy_of) out of the "
                   "club's books: its hands and debts count no more in the ledger, balances "
                   "and season, and the night counts once; for good (refused: no_session, "
                   "not_a_copy, out_already)", "security": host,
        "requestBody": {"required": True,
                        "content": {"application/json": {"schema": "TakeOut"}}},
        "responses": {**ok(201, "TakenOut", "recorded as a club event"),
                      **errors(400, 401, 403, 404, 413, 422)}}})
    spec.path("/api/club/people/{name}/pay", parameters=[{
        "name": "name", "in": "path", "required": True,
        "schema": {"type": "string", "minLength": 1, "maxLength": 40}}], operations={"put": {
        "summary": "A person's payment details kept by the club, shown beside a transfer to "
                   f"them at every table where they gave none of their own; {PAY_CHANGE}",
        "security": host,
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
