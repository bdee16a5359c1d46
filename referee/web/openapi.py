"""The JSON API's OpenAPI document, generated from the request and answer
schemas (``web/api_schemas.py``); served at ``/api/openapi.json``. A test
compares its paths with the app's routes."""

from __future__ import annotations

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from ..record.schemas import LogSchema
from . import club_api
from .api_schemas import (
    STANDINGS_MAX,
    STANDINGS_PAGE,
    AcceptRequestSchema,
    ActionRequestSchema,
    DisputeRequestSchema,
    ErrorSchema,
    EventAnswerSchema,
    EventRequestSchema,
    HandSetupSchema,
    HandStateSchema,
    LeaveRequestSchema,
    LinkRequestSchema,
    LinkSchema,
    PaidRequestSchema,
    PaymentRequestSchema,
    RenameRequestSchema,
    ResultSchema,
    SeatRequestSchema,
    SessionCreatedSchema,
    SessionRequestSchema,
    SessionSummarySchema,
    SettlementSchema,
    SettleRequestSchema,
    StakeRequestSchema,
    StandingsSchema,
    TellAgainRequestSchema,
    UndoRequestSchema,
    VoidRequestSchema,
)
from .settle import PAY_CHANGE, PayDetailsAnswerSchema, PayDetailsRequestSchema


def _finer_stake(description: str) -> dict:
    """The host's confirmation of a stake finer than a coin (the tablet's box)."""
    return {"name": "finer_stake", "in": "query", "required": False,
            "description": description, "schema": {"type": "boolean"}}


def _errors(*codes: int) -> dict:
    words = {400: "malformed request or document", 401: "missing or wrong token",
             403: "the token may not do this (the audit or viewer token for a write; a "
                  "seat's token for what is not its own player's: not_your_seat)",
             404: "no such session or hand",
             409: "expected_seq is stale, the table is closed, or the client_id (or "
                  "Idempotency-Key) first answered another request: client_id_reused",
             413: "body too large",
             429: "wait (Retry-After): too many wrong host keys from this address, too "
                  "many tables opened from it without the key, or (an action) too many "
                  "refused from this token",
             422: "the rules refuse it (code and sentence from the referee)"}
    return {str(c): {"description": words[c], "content": {
        "application/json": {"schema": "Error"}}} for c in codes}


def _k(description: str) -> dict:
    return {"name": "k", "in": "path", "required": True, "description": description,
            "schema": {"type": "integer", "minimum": 1}}


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
                         ("SessionRequest", SessionRequestSchema),
                         ("SessionSummary", SessionSummarySchema),
                         ("Standings", StandingsSchema),
                         ("HandSetup", HandSetupSchema), ("VoidRequest", VoidRequestSchema),
                         ("TellAgainRequest", TellAgainRequestSchema),
                         ("AcceptRequest", AcceptRequestSchema),
                         ("DisputeRequest", DisputeRequestSchema),
                         ("StakeRequest", StakeRequestSchema),
                         ("LeaveRequest", LeaveRequestSchema),
                         ("SeatRequest", SeatRequestSchema),
                         ("SettleRequest", SettleRequestSchema),
                         ("PaymentRequest", PaymentRequestSchema),
                         ("CloseRequest", EventRequestSchema),
                         ("RenameRequest", RenameRequestSchema),
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
        "summary": "Create a session from a tonk-log/1 document (with hands: an import), "
                   "carrying an earlier table's debts if brought_forward_from names it",
        "security": [{"host": []}, {}], "requestBody": body("SessionRequest"),
        "parameters": [_finer_stake("a table opening (no hands) for a stake finer than its "
                                    "currency's smallest coin is refused "
                                    "(stake_finer_than_coin) unless this is true: the host "
                                    "confirms it; an import (with hands) is kept as given")],
        "responses": {**_ok(201, "SessionCreated", "created"), **_errors(400, 401, 403, 409,
                                                                        413, 422)}}})
    spec.path("/api/sessions/{sid}", parameters=[sid], operations={"get": {
        "summary": "The session's summary", "security": auth,
        "responses": {**_ok(200, "SessionSummary", "summary"), **_errors(401, 404)}}})
    spec.path("/api/sessions/{sid}/log", parameters=[sid], operations={"get": {
        "summary": "The tonk-log/1 document", "security": auth,
        "responses": {**_ok(200, "Log", "the log"), **_errors(401, 403, 404)}}})
    spec.path("/api/sessions/{sid}/result", parameters=[sid], operations={"get": {
        "summary": "tonk-result/1 of the complete hands", "security": auth,
        "responses": {**_ok(200, "Result", "the result"), **_errors(401, 404)}}})
    spec.path("/api/sessions/{sid}/standings", parameters=[sid], operations={"get": {
        "summary": f"Running totals hand by hand: a page of settled hands (limit: "
                   f"{STANDINGS_PAGE} unless given, at most {STANDINGS_MAX}), the newest "
                   f"unless offset is given (settled: how many in all)",
        "security": auth,
        "parameters": [
            {"name": "offset", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 0}},
            {"name": "limit", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 0, "maximum": STANDINGS_MAX}}],
        "responses": {**_ok(200, "Standings", "standings"), **_errors(400, 401, 404)}}})
    spec.path("/api/sessions/{sid}/hands", parameters=[sid], operations={"post": {
        "summary": "Start the next hand (a tonk-log/1 hand without actions), or log a whole "
                   "hand told by its ending (`ending` instead of `deal` and `upcard`: one "
                   "event, settled at once)",
        "security": auth, "requestBody": body("HandSetup"),
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
                               **_errors(400, 401, 403, 404, 409, 422, 429)}}})
    spec.path("/api/sessions/{sid}/hands/{n}/undo", parameters=[sid, n], operations={
        "post": {"summary": "Undo the last action (a correction; the original stays in "
                 "the history)", "security": auth, "requestBody": body("UndoRequest"),
                 "responses": {**_ok(201, "HandState", "the state without it"),
                               **_errors(400, 401, 403, 404, 409, 422)}}})
    spec.path("/api/sessions/{sid}/hands/{n}/tell-again", parameters=[sid, n], operations={
        "post": {"summary": "Correct a hand told by its ending: tell it again with the ending "
                 "it really had (its dealer, seats and stake stay), while it is the newest "
                 "hand, nobody has accepted it and the table is open (not_told: a played "
                 "hand; its actions are undone instead). The chain keeps a correction and "
                 "both tellings; with settles, a dispute of the hand is settled by it "
                 "(while one is open, a telling without settles needs leaves_open: "
                 "dispute_open)",
                 "security": auth, "requestBody": body("TellAgainRequest"),
                 "responses": {**_ok(201, "HandState", "told again: the hand's new state "
                                     "and result (a retry with the same client_id gets "
                                     "this again)"),
                               **_errors(400, 401, 403, 404, 409, 422)}}})
    events = [
        ("/hands/{n}/void", [sid, n], "VoidRequest", "Void the hand in play (a misdeal...): "
         "it pays nothing and the same dealer deals again"),
        ("/hands/{n}/accept", [sid, n], "AcceptRequest", "A player accepts the hand's result "
         "(on their own device, or the host for them)"),
        ("/hands/{n}/disputes", [sid, n], "DisputeRequest", "Dispute an action (or the whole "
         "hand): a note for the record"),
        ("/stake", [sid, _finer_stake("a table in whole coins changing to a stake finer than "
                                      "its currency's smallest coin is refused "
                                      "(stake_finer_than_coin), as an opening is, unless this "
                                      "is true: the host confirms it; one its amounts' "
                                      "places cannot carry is refused all the same "
                                      "(stake_places)")],
         "StakeRequest", "Change the stake from the next hand on (refused at a table scored "
         "in push-ups, which has no stake: stake_push_ups)"),
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
        ("/payments", [sid], "PaymentRequest", "Record money handed over at the table (the "
         "payer's own seat token: pending until the payee or the host confirms it; a seat's "
         "word is capped at what is owed: more_than_owed; amount_coin: not whole coins of the "
         "currency)"),
        ("/payments/{k}/confirm", [sid, _k("the payment's number in the log's payments, "
                                           "from 1")], "CloseRequest",
         "Confirm a payment its payer recorded (the payee's seat token or the table token): "
         "from now on it moves the money"),
        ("/payments/{k}/undo", [sid, _k("the payment's number in the log's payments, from "
                                        "1")], "CloseRequest",
         "Take a payment back: it stays in the record, marked undone, and moves nothing (the "
         "table token; a seat token only a claim still waiting that names its player)"),
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
                f"{PAY_CHANGE}; taken by a closed table too (the table token, or that "
                "player's seat token)",
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
    club_api.document(spec, _errors, _ok)
    return _host_keyed(_idempotent(spec.to_dict()))


_KEY = {"name": "Idempotency-Key", "in": "header", "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": 100},
        "description": "the request's client_id (the body's, if both are sent, must be the "
                       "same: else 400 client_id_mismatch)"}


def _host_keyed(doc: dict) -> dict:
    """Every request the host key guards (a new table, the club's API) may
    be told to wait: 429, as the guard answers it."""
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if (path.startswith("/api/club/") or (path, method) == ("/api/sessions", "post")) \
                    and isinstance(op, dict) and "responses" in op:
                waiting = _errors(429)["429"]
                waiting["content"]["application/json"]["schema"] = {
                    "$ref": "#/components/schemas/Error"}  # made after apispec resolved them
                op["responses"].setdefault("429", waiting)
    return doc


def _idempotent(doc: dict) -> dict:
    """Every write of a table that takes a client_id takes it as the
    ``Idempotency-Key`` header too, and answers 409 when that id first
    answered another request (``client_id_reused``)."""
    for path, item in doc["paths"].items():
        if not path.startswith("/api/sessions/{sid}"):
            continue
        for method in ("post", "put"):
            op = item.get(method)
            if op is None:
                continue
            params = op.setdefault("parameters", [])
            if not any(p.get("name") == _KEY["name"] for p in params):
                params.append(dict(_KEY))
            if "409" not in op["responses"]:
                conflict = _errors(409)["409"]
                conflict["content"]["application/json"]["schema"] = {
                    "$ref": "#/components/schemas/Error"}  # made after apispec resolved them
                op["responses"]["409"] = conflict
    return doc
