"""The JSON API's bodies: what each request takes and each answer gives, as
marshmallow schemas. The views load requests with them (``web/api.py``) and
the OpenAPI document is generated from them (``web/openapi.py``)."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ..language import N_
from ..ledger.side_bets import KINDS as SIDE_BET_KINDS
from ..record.events import HAND_FIELDS
from ..record.kinds import TABLE_EVENTS, EventKind
from ..record.schemas import (
    ENDING_OPENAPI,
    RULES_OPENAPI,
    STAKE_OPENAPI,
    HandSchema,
    LogSchema,
    StrictSchema,
)
from ..rules.words import Words
from ..service.table import disputes

# Hands per answer of the standings: by default as many as a 10-hand night
# has, so that a long night's answer costs what a short one's does (100 at
# 10,000 hands took 2.5x the time of 20); ask for up to 100 with ``limit``.
STANDINGS_PAGE, STANDINGS_MAX = 20, 100


class ErrorBodySchema(Schema):
    code = fields.String(required=True, metadata={"description": "stable, for programs"})
    message = fields.String(required=True, metadata={"description": "the sentence to show"})
    hand = fields.Integer(allow_none=True, required=True)
    action = fields.Integer(allow_none=True, required=True)
    field = fields.String(metadata={
        "description": "the field at fault, as a path from 0 (players.1: the second seat), "
                       "inside the hand when hand is given; only when the refusal names one"})


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema, required=True)


class SessionCreatedSchema(Schema):
    id = fields.String(required=True)
    table_token = fields.String(required=True, metadata={
        "description": "Bearer token for writes (and reads); shown once"})
    audit_token = fields.String(required=True, metadata={
        "description": "Bearer token for reads only; shown once"})


class CarryFromSchema(StrictSchema):
    """What ``POST /api/sessions`` reads beside the log: the earlier table
    whose unpaid debts the new one carries (``money.carrying``), and whether
    a log whose night is stored already is stored again (``table.once``).
    The view takes these off the body and the log's own schema reads the
    rest."""

    copy = fields.Boolean(metadata={
        "description": "true: store the log even if its night is stored already (else "
                       "refused, 409 already_stored: its hands and debts would count twice)"})

    brought_forward_from = fields.String(allow_none=True, metadata={
        "description": "an earlier table's id: what it still owes among this table's "
                       "players is carried in as brought_forward, and marked moved there"})
    brought_forward_token = fields.String(allow_none=True, metadata={
        "description": "the earlier table's table or audit token (only with "
                       "brought_forward_from)"})

    @validates_schema
    def _token_with_its_table(self, data: dict, **kwargs: object) -> None:
        # A token alone carries nothing: were it ignored, the new table would
        # open without the debts its host meant to bring (a forgotten field
        # read as "carry nothing"), so it is refused and nothing is stored.
        if data.get("brought_forward_token") is not None \
                and data.get("brought_forward_from") is None:
            raise ValidationError([Words(N_("given without brought_forward_from, the earlier "
                                            "table it opens: name that table, or leave "
                                            "the token out"))],
                                  "brought_forward_token")


class SessionRequestSchema(LogSchema, CarryFromSchema):
    """The body of ``POST /api/sessions`` as documented: a tonk-log/1
    document (with hands: an import; without: a new table), and what
    ``CarryFromSchema`` reads; the two schemas that load it, joined."""


class ActionRequestSchema(StrictSchema):
    action = fields.String(required=True, validate=validate.Length(min=1, max=500),
                           metadata={"example": "Ben: draw 4c"})
    client_id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                              metadata={"description": "a fresh key per tap: a retry with "
                                        "the same key gets the first answer"})
    expected_seq = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                                  metadata={"description": "the hand's number of actions "
                                            "when the client last looked"})


class UndoRequestSchema(StrictSchema):
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
    told = fields.Boolean(metadata={"description": "true: the hand was told by its ending "
                                    "(quick logging), not logged action by action"})
    winners = fields.List(fields.String())
    counts = fields.Dict(keys=fields.String(), values=fields.Integer())
    net = fields.Dict(keys=fields.String(), values=fields.String())


class PaymentSchema(Schema):
    from_ = fields.String(data_key="from")
    to = fields.String()
    stakes = fields.String()
    amount = fields.String()
    reason = fields.String()


class SideBetOutcomeSchema(Schema):
    kind = fields.String(validate=validate.OneOf(SIDE_BET_KINDS))
    suit = fields.String(allow_none=True)
    stake = fields.String()
    players = fields.List(fields.String())
    winner = fields.String(allow_none=True, metadata={"description": "null: nobody in the "
                                                      "bet won it (its pot carries over)"})
    why = fields.String()


class HandResultDetailSchema(HandResultSchema):
    story = fields.List(fields.String())
    payments = fields.List(fields.Nested(PaymentSchema))
    multiplier = fields.Integer()
    net_exact = fields.Dict(keys=fields.String(), values=fields.String())
    side_bets = fields.List(fields.Nested(SideBetOutcomeSchema), metadata={
        "description": "how each of the hand's side bets came out"})


class WarningSchema(Schema):
    code = fields.String(metadata={"description": "carried_on: the table's debts were "
                                   "carried on to a later table (its id: table)"})
    message = fields.String(metadata={"description": "the sentence the tablet shows, in the "
                                      "reader's language"})
    table = fields.String(metadata={"description": "the later table's id"})
    at = fields.String(allow_none=True, metadata={"description": "when the debts went"})


class HandStateSchema(Schema):
    session = fields.String()
    hand = fields.Integer()
    phase = fields.String()
    dealer = fields.String()
    to_act = fields.String(allow_none=True)
    stock = fields.Integer()
    top = fields.String(allow_none=True)
    second = fields.String(allow_none=True, metadata={
        "description": "under pickup_depth 2 only: the card below the top of the discard "
                       "pile, which a take may name instead of the top"})
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
    warning = fields.Nested(WarningSchema, metadata={
        "description": "in the answer to a new hand only: what the tablet says before "
                       "one (the hand is logged all the same)"})
    settled_disputes = fields.List(fields.Dict(allow_none=True), metadata={
        "description": "beside each of the hand's disputes, how it was settled (how, by, "
                       "at, undone) or null while it is open"})


class TransferSchema(Schema):
    from_ = fields.String(data_key="from")
    to = fields.String()
    amount = fields.String()


class MatchSchema(Schema):
    to = fields.Integer(metadata={"description": "the score that ends the match"})
    scores = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "the push-up scores (the totals)"})
    over = fields.Boolean(metadata={"description": "some score has reached to"})
    after_hand = fields.Integer(allow_none=True, metadata={
        "description": "the hand after which it ended (null while it has not)"})
    winners = fields.List(fields.String(), allow_none=True, metadata={
        "description": "the lowest score, ties sharing (null while it is not over)"})


class ResultSchema(Schema):
    format = fields.String(metadata={"example": "tonk-result/1"})
    hands = fields.List(fields.Nested(HandResultSchema))
    totals = fields.Dict(keys=fields.String(), values=fields.String())
    balances = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "with balances brought forward or carried on, or payments: what "
                       "each player is owed (negative: owes); transfers then settle these"})
    transfers = fields.List(fields.Nested(TransferSchema))
    match = fields.Nested(MatchSchema, metadata={
        "description": "with the rules' match_to only: where the match stands"})
    closed = fields.String(metadata={"description": "when the host closed the table"})


class PaymentMarkSchema(Schema):
    """Who confirmed a payment or took it back, and when."""

    by = fields.String(allow_none=True, required=True, metadata={
        "description": "the player, or null for the table"})
    at = fields.String(required=True)


class PaymentMadeSchema(Schema):
    """Money handed over at the table, as the log keeps it."""

    from_ = fields.String(data_key="from", required=True)
    to = fields.String(required=True)
    amount = fields.String(required=True)
    at = fields.String()
    note = fields.String()
    pending = fields.Boolean(metadata={"description": "recorded by its payer's own seat: "
                                       "counted once the payee confirms it"})
    confirmed = fields.Nested(PaymentMarkSchema)
    undone = fields.Nested(PaymentMarkSchema, metadata={
        "description": "taken back: no longer counted"})


_MONEY_BY_PLAYER = {"keys": fields.String(), "values": fields.String()}
# What the table's amounts are in (ledger.money.amounts_currency), as the
# pages and the papers write them.
_UNIT = {"description": "the currency the table's amounts are in; null: points (a table "
                        "without a currency, and every push-up table: its scores are points, "
                        "never money, whatever currency its log names)"}


class CarriedSchema(Schema):
    """Debts carried on to a later table, as the log keeps them."""

    to = fields.String(required=True, metadata={"description": "the later table's id"})
    balances = fields.Dict(required=True, metadata={
        "description": "the balances that went there (its brought_forward): they are "
                       "left out of this table's balances"}, **_MONEY_BY_PLAYER)
    at = fields.String()
    table = fields.String(metadata={"description": "the later table's name, when it has one"})


_CARRIED_ON = {"allow_none": True, "required": True, "metadata": {
    "description": "the debts carried on to later tables (null: none)"}}


class CurrentHandSchema(Schema):
    hand = fields.Integer(required=True)
    phase = fields.String(required=True)
    to_act = fields.String(allow_none=True, required=True)
    complete = fields.Boolean(required=True)
    seq = fields.Integer(required=True, metadata={"description": "the hand's actions: send "
                                                  "it back as expected_seq"})
    dealer = fields.String(required=True)
    players = fields.List(fields.String(), required=True)


class SessionSummarySchema(Schema):
    id = fields.String(required=True)
    created = fields.String(required=True)
    table = fields.String(allow_none=True, required=True)
    copy_of = fields.String(allow_none=True, required=True, metadata={
        "description": "the table this one is a copy of, imported on purpose (copy: true); "
                       "null: no copy"})
    started = fields.String(allow_none=True, required=True)
    closed = fields.String(allow_none=True, required=True)
    language = fields.String(required=True)
    stake = fields.Raw(required=True, metadata={**STAKE_OPENAPI, "description":
                                                "the stake the table opened with"})
    stake_now = fields.String(required=True, metadata={
        "description": "the stake of the hand in play (else of the next hand)"})
    stake_since = fields.Integer(allow_none=True, required=True, metadata={
        "description": "the hand stake_now holds from (null: since the table opened)"})
    stake_next = fields.String(allow_none=True, required=True, metadata={
        "description": "a stake changed from the next hand on"})
    next_stake = fields.Raw(required=True, metadata=STAKE_OPENAPI)
    next_seats = fields.List(fields.String(), allow_none=True, required=True)
    brought_forward = fields.Dict(allow_none=True, required=True, **_MONEY_BY_PLAYER)
    carried_forward = fields.List(fields.Nested(CarriedSchema), **_CARRIED_ON)
    payments = fields.List(fields.Nested(PaymentMadeSchema), allow_none=True, required=True)
    currency = fields.String(allow_none=True, required=True, metadata=_UNIT)
    rules_source = fields.Raw(required=True, metadata={
        **RULES_OPENAPI, "description": "the rules as the log gave them"})
    rules = fields.Dict(required=True, metadata={"description": "every option's value"})
    players = fields.List(fields.String(), required=True)
    seated = fields.List(fields.String(), required=True, metadata={
        "description": "who the next hand is dealt to"})
    everyone = fields.List(fields.String(), required=True, metadata={
        "description": "everyone who has sat at the table, in order of arrival"})
    hands = fields.Integer(required=True)
    current = fields.Nested(CurrentHandSchema, allow_none=True, required=True)
    next_dealer = fields.String(allow_none=True, required=True)
    match = fields.Nested(MatchSchema, allow_none=True, required=True, metadata={
        "description": "under match_to: where the match stands (the result's match); "
                       "null without a match"})
    has_pin = fields.Boolean(required=True)
    seq = fields.Integer(required=True, metadata={"description": "the table's newest event"})
    head = fields.String(allow_none=True, required=True, metadata={
        "description": "the newest event's hash"})
    totals = fields.Dict(required=True, **_MONEY_BY_PLAYER)
    balances = fields.Dict(allow_none=True, required=True, **_MONEY_BY_PLAYER)
    transfers = fields.List(fields.Nested(TransferSchema), required=True)


class StandingLineSchema(HandResultSchema):
    totals = fields.Dict(metadata={"description": "each player's total after the hand"},
                         **_MONEY_BY_PLAYER)


class StandingsSchema(Schema):
    players = fields.List(fields.String(), required=True)
    hands = fields.List(fields.Nested(StandingLineSchema), required=True)
    totals = fields.Dict(required=True, **_MONEY_BY_PLAYER)
    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    push_ups = fields.Boolean(required=True)
    currency = fields.String(allow_none=True, required=True, metadata=_UNIT)
    result = fields.Nested(ResultSchema, required=True, metadata={
        "description": "tonk-result/1 of the hands listed"})
    balances = fields.Dict(allow_none=True, required=True, **_MONEY_BY_PLAYER)
    closed = fields.String(allow_none=True, required=True)
    brought_forward = fields.Dict(allow_none=True, required=True, **_MONEY_BY_PLAYER)
    carried_forward = fields.List(fields.Nested(CarriedSchema), **_CARRIED_ON)
    payments = fields.List(fields.Nested(PaymentMadeSchema), allow_none=True, required=True)
    match = fields.Nested(MatchSchema, allow_none=True, required=True, metadata={
        "description": "under match_to: where the match stands; null without a match"})
    settled = fields.Integer(required=True, metadata={"description": "settled hands in all"})
    offset = fields.Integer(required=True, metadata={"description": "settled hands before "
                                                     "the first listed"})


# ---- the table's own events (log-format.md): one request each

class EventRequestSchema(StrictSchema):
    client_id = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "a fresh key per request: a retry with the same key gets the "
                       "first answer"})


_NAME = {"validate": validate.Length(min=1, max=40), "metadata": {"example": "Ann"}}
_AMOUNT = {"validate": validate.Regexp(r"^\s*[0-9]{1,9}(\.[0-9]{1,6})?\s*$"),
           "metadata": {"example": "0.75", "description": "a decimal greater than 0"}}


class VoidRequestSchema(EventRequestSchema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200),
                           metadata={"example": "misdeal"})


class AcceptRequestSchema(EventRequestSchema):
    player = fields.String(required=True, **_NAME)


class DisputeRequestSchema(EventRequestSchema):
    by = fields.String(required=True, **_NAME)
    note = fields.String(required=True, validate=validate.Length(min=1, max=500),
                         metadata={"example": "I discarded the 9h, not the 9d"})
    action = fields.Integer(load_default=None, allow_none=True, strict=True,
                            validate=validate.Range(min=1, max=100_000),
                            metadata={"description": "the action's number in the hand, "
                                      "from 1; null: the hand as a whole"})


class StakeRequestSchema(EventRequestSchema):
    # Read by the service, which words a stake that is none as the tablet's
    # form does ("stake: a decimal greater than 0, like 0.25, not "0,50"",
    # stake46), not as a pattern's failure; the length only bounds the quote.
    stake = fields.String(required=True, validate=validate.Length(min=1, max=200),
                          metadata=_AMOUNT["metadata"])


class LeaveRequestSchema(EventRequestSchema):
    player = fields.String(required=True, **_NAME)


class SeatRequestSchema(EventRequestSchema):
    player = fields.String(required=True, **_NAME)


class SettleRequestSchema(EventRequestSchema):
    how = fields.String(required=True, validate=validate.OneOf(disputes.SETTLE_WAYS),
                        metadata={"description": "corrected: every action from the newest "
                                  "back to the disputed one is undone (on a settled hand "
                                  "only this way); stands: the record is right"})
    by = fields.String(required=True, validate=_NAME["validate"],
                       metadata={"example": "Ann", "description": "who settled it"})
    instead = fields.String(validate=validate.Length(min=1, max=500), metadata={
        "example": "Ben: draw 3s",
        "description": "corrected: the disputed action as it really was, logged in its "
                       "place; the later actions are then logged again after it, in order, "
                       "up to the first the rules no longer allow (the answer's stopped)"})
    expected_seq = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "how many actions the hand had when the correction was shown: "
                       "stale_seq if another was logged since"})


class PaymentRequestSchema(EventRequestSchema):
    from_ = fields.String(required=True, data_key="from", **_NAME)
    to = fields.String(required=True, **_NAME)
    amount = fields.String(required=True, **_AMOUNT)
    at = fields.String(validate=validate.Length(min=10, max=40), metadata={
        "description": "ISO 8601 with a UTC offset; the service's clock if left out"})
    note = fields.String(validate=validate.Length(min=1, max=500))


class RenameRequestSchema(EventRequestSchema):
    name = fields.String(required=True, **_NAME, )


class LinkRequestSchema(EventRequestSchema):
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
    text = fields.String(required=True, metadata={
        "description": "the transfer's text: its payer, the table, the day it opened"})


class HowToPaySchema(Schema):
    iban = fields.String(metadata={"description": "grouped by four, to type"})
    holder = fields.String()
    reference = fields.String(metadata={"description": "the transfer's text, to type it "
                                                       "(the code's text): its payer, the "
                                                       "table and the day it opened"})
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
    owed = fields.List(fields.Nested(OwedSchema), required=True)
    payments = fields.List(fields.Dict(), required=True)
    players = fields.List(fields.String(), required=True)


class PaidRequestSchema(EventRequestSchema):
    from_ = fields.String(required=True, data_key="from", **_NAME)
    to = fields.String(required=True, **_NAME)
    amount = fields.String(required=True, **_AMOUNT)


_ANSWERED = [*map(str, TABLE_EVENTS), str(EventKind.UNLINK)]


class EventAnswerSchema(Schema):
    """The event as recorded: its kind, its hand, and what it says (each kind
    its own fields)."""

    event = fields.String(required=True, validate=validate.OneOf(_ANSWERED), metadata={
        "description": "the table's own event; unlink: a link revoked"})
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
    instead = fields.String(metadata={"description": "settle, corrected with an action: "
                                      "the action logged in the disputed one's place"})
    again = fields.List(fields.String(), metadata={
        "description": "settle, corrected with an action: the later actions logged again "
                       "after it, in order"})
    left = fields.List(fields.String(), metadata={
        "description": "settle, corrected with an action: the later actions not logged "
                       "again, from the first the rules no longer allow"})
    stopped = fields.Dict(metadata={"description": "settle, corrected with an action: why "
                                    "the first of left is no longer allowed (an error)"})
    action = fields.Integer(allow_none=True, metadata={
        "description": "dispute: the action; settle, corrected with an action: the number "
                       "of the action corrected"})
    by = fields.String(allow_none=True, metadata={
        "description": "dispute: who objects; payment: whose own phone recorded it; "
                       "payment_confirm, payment_undo: whose phone (null: the host)"})
    note = fields.String(metadata={"description": "dispute, payment: the note"})
    stake = fields.String(metadata={"description": "stake: the new stake"})
    from_hand = fields.Integer(metadata={"description": "stake, seat: the first hand it "
                                         "applies to"})
    payment = fields.Integer(metadata={"description": "payment_confirm, payment_undo: the "
                                       "payment's number, from 1"})
    pending = fields.Boolean(metadata={"description": "payment: recorded by its payer's own "
                                       "phone, it waits for the payee (or the host) to confirm "
                                       "it and moves nothing till then"})
    from_ = fields.String(data_key="from", metadata={"description": "payment: who paid"})
    to = fields.String(metadata={"description": "payment: who was paid"})
    amount = fields.String(metadata={"description": "payment: how much"})
    at = fields.String(metadata={"description": "payment: when"})
    closed = fields.String(metadata={"description": "close: when"})
    old = fields.String(metadata={"description": "rename: the name as it was"})
    new = fields.String(metadata={"description": "rename: the name from now on"})


class HandRequestSchema(EventRequestSchema):
    """The fields of ``POST hands`` that belong to the request, not the hand."""

    expected_seq = fields.Integer(strict=True, validate=validate.Range(min=0), metadata={
        "description": "the table's newest event when the client last looked (its `seq`): "
                       "refused with 409 if something was logged since"})


class HandSetupSchema(HandSchema, HandRequestSchema):
    """What ``POST hands`` takes: a hand of the log without its actions and
    without the table's own events (``record.schemas.HAND_SETUP``, which reads
    it, leaves out the same), with the request's own fields (the
    Idempotency-Key header may stand for ``client_id``)."""

    class Meta(HandSchema.Meta):
        exclude = ("actions", *HAND_FIELDS)


class SettlesSchema(StrictSchema):
    """The dispute a told hand's correction settles, and who settles it."""

    dispute = fields.Integer(required=True, strict=True,
                             validate=validate.Range(min=1, max=100_000), metadata={
                                 "description": "the dispute's number in the hand's list, "
                                                "from 1 (as disputes/{k}/settle names it)"})
    by = fields.String(required=True, validate=_NAME["validate"],
                       metadata={"example": "Ann", "description": "who settled it"})


class TellAgainRequestSchema(HandRequestSchema):
    """What ``POST hands/{n}/tell-again`` takes: a told hand's new ending
    (read by the rules, as a told hand's ``ending`` in ``POST hands``; its
    dealer, seats and stake stay), the request's own fields, and the dispute
    the correction settles, if any (``service.retell``)."""

    ending = fields.Dict(required=True, metadata={
        **ENDING_OPENAPI, "description": "how the hand really ended, in the place of how "
                                         "it was told"})
    settles = fields.Nested(SettlesSchema, metadata={
        "description": "a dispute of the hand that this correction settles (corrected), "
                       "in the same write"})
    leaves_open = fields.Boolean(metadata={
        "description": "true: the hand's open disputes stay open (without settles, a "
                       "correction of a hand with an open dispute is refused: "
                       "dispute_open)"})
