"""The marshmallow schemas of session logs (``tonk-log/1``): they check a
document's shape (fields, types, formats) and word what is wrong with it.

Imported only when needed (``referee.record.reading`` reads plain logs without them):
marshmallow takes about 70 ms to import, a tenth of a long replay.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    pre_load,
    validate,
    validates_schema,
)

from ..ledger.money import MAX_AMOUNT, MAX_MULTIPLIER, MAX_STAKE, STAKE_PLACES
from ..ledger.side_bets import KINDS as SIDE_BET_KINDS
from ..rules.errors import MalformedInput
from ..rules.events import SETTLE_WAYS
from ..rules.options import MAX_PLAYERS, MOST_DEALT, PRESETS
from ..rules.table import CURRENCY, TABLE_NAME, check_name, check_names_apart, odd_text
from ..rules.told import FACTS, HOWS
from ..rules.words import N_, Words
from .document import check_document
from .events import (
    HAND_CHECKS,
    HAND_FIELDS,
    SESSION_CHECKS,
    SESSION_FIELDS,
    UNKNOWN_FIELD,
    Unreadable,
)
from .reading import FORMAT, plain_hands

# ------------------------------------------------- the OpenAPI document's types
# Derived from the same bounds the fields check (referee.ledger.money, the
# rules' deck), so the API's description can never be looser than the server.

_STAKE_DIGITS = len(str(int(MAX_STAKE))) - 1  # 1,000,000: up to 999,999 written out
# As parse_stake reads a stake: trailing zeros are the same money ("0.50" is
# 0.5), so only the places up to the last digit that is not 0 count; blanks
# around it are dropped. (A stake written with an exponent, "1e2", which
# Decimal reads too, is left out: no table writes money so.)
_STAKE_PLACES = rf"[0-9]{{0,{STAKE_PLACES}}}0*"
STAKE_OPENAPI = {"oneOf": [
    {"type": "string", "example": "0.25",
     "pattern": rf"^\s*0*([1-9][0-9]{{0,{_STAKE_DIGITS - 1}}}(\.{_STAKE_PLACES})?|"
                rf"{int(MAX_STAKE)}(\.0*)?|"
                rf"\.[0-9]{{0,{STAKE_PLACES - 1}}}[1-9]0*)\s*$"},
    {"type": "integer", "minimum": 1, "maximum": int(MAX_STAKE)},
]}
AMOUNT_OPENAPI = {"type": "string", "example": "-3.50",
                  "pattern": rf"^-?[0-9]{{1,{len(str(int(MAX_AMOUNT))) - 1}}}"
                             rf"(\.[0-9]{{1,{STAKE_PLACES}}})?$"}
_NAME_CHAR = r"[^:\x00-\x1f\x7f-\x9f]"
_NAME_EDGE = r"[^:\x00-\x1f\x7f-\x9f\s]"
NAME_OPENAPI = {"type": "string", "minLength": 1, "maxLength": 40,
                "pattern": rf"^{_NAME_EDGE}({_NAME_CHAR}*{_NAME_EDGE})?$"}
CARD_OPENAPI = {"type": "string", "example": "Ks",
                "pattern": r"^(([A2-9TJQKatjqk]|10)[cdhsCDHS]|[Xx][1-4]|\?\?)$"}
TIME_OPENAPI = {"type": "string", "format": "date-time", "example": "2026-11-21T20:00:00Z"}
NOTE_OPENAPI = {"type": "string", "minLength": 1, "maxLength": 500}
RULES_OPENAPI = {"oneOf": [
    {"type": "string", "enum": list(PRESETS)},
    {"type": "object", "maxProperties": 64,
     "properties": {"preset": {"type": "string", "enum": list(PRESETS)}},
     "additionalProperties": {"oneOf": [
         {"type": "boolean"}, {"type": "string", "maxLength": 40},
         {"type": "number", "minimum": -1000, "maximum": 1000},
         {"type": "array", "maxItems": 20,
          "items": {"oneOf": [{"type": "string", "maxLength": 40},
                              {"type": "integer", "minimum": -1000, "maximum": 1000}]}}]}},
]}
DEAL_OPENAPI = {"type": "object", "maxProperties": MAX_PLAYERS,
                "additionalProperties": {"type": "array", "maxItems": MOST_DEALT,
                                         "items": CARD_OPENAPI}}
ACTIONS_OPENAPI = {"type": "array", "items": {"type": "string", "minLength": 1,
                                              "maxLength": 500}}
MARK_OPENAPI = {"type": "object", "required": ["by", "at"], "additionalProperties": False,
                "properties": {"by": {**NAME_OPENAPI, "nullable": True}, "at": TIME_OPENAPI}}
# How the table settled a dispute (record.events._settled says what each key means).
SETTLED_OPENAPI = {"type": "object", "required": ["how", "by"], "additionalProperties": False,
                   "properties": {"how": {"type": "string", "enum": list(SETTLE_WAYS)},
                                  "by": NAME_OPENAPI, "at": TIME_OPENAPI,
                                  "action": {"type": "integer", "minimum": 1},
                                  "undone": {**ACTIONS_OPENAPI, "minItems": 1}}}
EVENTS_OPENAPI: dict[str, dict[str, Any]] = {
    "language": {"type": "string", "enum": ["en", "de", "fr", "pt"]},
    "started": TIME_OPENAPI,
    "closed": TIME_OPENAPI,
    "brought_forward": {"type": "object", "maxProperties": MAX_PLAYERS,
                        "additionalProperties": AMOUNT_OPENAPI},
    "brought_from": {"type": "object", "required": ["id"], "additionalProperties": False,
                     "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 100},
                                    "table": {"type": "string", "minLength": 1,
                                              "maxLength": 200}}},
    "payments": {"type": "array", "items": {
        "type": "object", "required": ["from", "to", "amount"], "additionalProperties": False,
        "properties": {"from": NAME_OPENAPI, "to": NAME_OPENAPI, "amount": AMOUNT_OPENAPI,
                       "at": TIME_OPENAPI, "note": NOTE_OPENAPI, "by": NAME_OPENAPI,
                       "pending": {"type": "boolean", "enum": [True]},
                       "confirmed": MARK_OPENAPI, "undone": MARK_OPENAPI}}},
    "carried_forward": {"type": "array", "items": {
        "type": "object", "required": ["to", "balances"], "additionalProperties": False,
        "properties": {"to": {"type": "string", "minLength": 1, "maxLength": 100},
                       "balances": {"type": "object", "maxProperties": MAX_PLAYERS,
                                    "additionalProperties": AMOUNT_OPENAPI},
                       "at": TIME_OPENAPI,
                       "table": {"type": "string", "minLength": 1, "maxLength": 200}}}},
    "stake": STAKE_OPENAPI,
    "void": {"type": "string", "minLength": 1, "maxLength": 200},
    "accepted": {"type": "array", "maxItems": MAX_PLAYERS, "items": NAME_OPENAPI},
    "disputes": {"type": "array", "items": {
        "type": "object", "required": ["action", "by", "note"], "additionalProperties": False,
        "properties": {"action": {"type": "integer", "minimum": 1, "nullable": True},
                       "by": NAME_OPENAPI, "note": NOTE_OPENAPI,
                       "settled": SETTLED_OPENAPI}}},
}


ENDING_OPENAPI = {
    "type": "object", "required": ["how"], "additionalProperties": False,
    "properties": {
        "how": {"type": "string", "enum": list(HOWS)},
        "by": NAME_OPENAPI,
        "counts": {"type": "object", "maxProperties": MAX_PLAYERS,
                   "additionalProperties": {"type": "integer", "minimum": 0}},
        "declares": {"type": "object", "maxProperties": MAX_PLAYERS,
                     "additionalProperties": {"type": "array", "maxItems": MOST_DEALT,
                                              "items": CARD_OPENAPI}},
        **{fact: {"type": "boolean"} for fact in FACTS},
    },
}


def _typed(openapi: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with ``openapi`` as the field's metadata (apispec copies it)."""
    return {**kwargs, "metadata": {**openapi, **kwargs.get("metadata", {})}}


class StakeField(fields.Field[str | int | float]):
    """A decimal string or number, kept as the log wrote it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**_typed(STAKE_OPENAPI, kwargs))

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> str | int | float:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ValidationError(N_('must be a decimal string or number, like "0.25"'))
        from ..ledger.money import parse_stake

        try:
            parse_stake(value)
        except ValueError as err:
            raise ValidationError([err.args[0]]) from None
        return value

    def _serialize(self, value: str | int | float | None, attr: str | None, obj: Any, **kwargs: Any
                   ) -> Any:
        return value


class RulesField(fields.Field[str | dict[str, Any]]):
    """A preset name or an object of options (checked by the rules engine)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**_typed(RULES_OPENAPI, kwargs))

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> str | dict[str, Any]:
        if not isinstance(value, (str, dict)):
            raise ValidationError(N_('must be a preset name or an object like '
                                     '{"preset": "pagat"}'))
        return value

    def _serialize(self, value: str | dict[str, Any] | None, attr: str | None, obj: Any,
                   **kwargs: Any) -> Any:
        return value


class NameField(fields.String):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**_typed(NAME_OPENAPI, kwargs))

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> str:
        name = super()._deserialize(value, attr, data, **kwargs)
        why = check_name(name)
        if why:
            raise ValidationError([why])
        return name


class TextListField(fields.Field[list[str]]):
    """A list of strings, checked in one pass: a log holds hundreds of
    thousands of action strings, and marshmallow's per-item fields would make
    reading the log slower than replaying it."""

    def __init__(self, what: Words, **kwargs: Any) -> None:
        super().__init__(**_typed(ACTIONS_OPENAPI, kwargs))
        self.what = what

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> list[str]:
        if type(value) is not list:
            raise ValidationError([Words(N_("must be a list of {what}"), what=self.what)])
        for i, item in enumerate(value):
            if type(item) is not str:
                raise ValidationError({i: [Words(N_("not a valid string ({what})"),
                                                 what=self.what)]})
        return value

    def _serialize(self, value: list[str] | None, attr: str | None, obj: Any, **kwargs: Any
                   ) -> Any:
        return value


class DealField(fields.Field[dict[str, list[str]]]):
    """``{player: [cards]}``; the cards are read by the rules engine."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**_typed(DEAL_OPENAPI, kwargs))

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> dict[str, list[str]]:
        if type(value) is not dict:
            raise ValidationError(N_("must be an object of player: list of cards"))
        for player, cards in value.items():
            if type(cards) is not list or any(type(c) is not str for c in cards):
                raise ValidationError({player: [N_('must be a list of cards like "Ks"')]})
        return value

    def _serialize(self, value: dict[str, list[str]] | None, attr: str | None, obj: Any,
                   **kwargs: Any) -> Any:
        return value


class EventField(fields.Field[object]):
    """A field of the table's own events, checked as the plain-log reader
    checks it (``referee.record.events``) and kept as the log wrote it."""

    def __init__(self, check: Callable[[object], None], **kwargs: Any) -> None:
        name = next(k for k, v in {**SESSION_CHECKS, **HAND_CHECKS}.items() if v is check)
        super().__init__(**_typed(EVENTS_OPENAPI[name], kwargs))
        self.check = check

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> object:
        try:
            self.check(value)
        except Unreadable as err:
            raise ValidationError(err.messages()) from None
        return value

    def _serialize(self, value: object | None, attr: str | None, obj: Any, **kwargs: Any
                   ) -> Any:
        return value


class FirstFaultList(fields.List[Any]):
    """A list read item by item up to its first fault, which is the one the
    referee names: marshmallow's list reads every item and words every fault,
    which made a million wrong items cost 27 s before the refusal. A list
    longer than its ``most`` is refused before any item is read."""

    def __init__(self, *args: Any, most: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.most = most

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> list[Any]:
        if type(value) is not list:
            raise self.make_error("invalid")
        if self.most is not None and len(value) > self.most:
            raise ValidationError([Words(N_("at most {most} items, not {length}"),
                                         most=self.most, length=len(value))])
        return [self._item(i, item, **kwargs) for i, item in enumerate(value)]

    def _item(self, i: int, item: Any, **kwargs: Any) -> Any:
        try:
            return self.inner.deserialize(item, **kwargs)
        except ValidationError as error:
            raise ValidationError({i: error.messages}) from None


class StrictSchema(Schema):
    """A schema that refuses unknown fields, naming the first: marshmallow
    words an error for each (a body of 100,000 unknown keys took 0.4-1 s of
    CPU to refuse, 15 s on a loaded host, where parsing it takes 0.14 s)."""

    class Meta:
        unknown = RAISE

    @pre_load
    def _first_unknown(self, data: Any, **kwargs: Any) -> Any:
        if isinstance(data, dict):
            known = self._known_keys()
            if not known.issuperset(data):  # the common case costs one set operation
                key = next(k for k in data if k not in known)
                raise ValidationError({key: [self.error_messages["unknown"]]})
        return data

    def _known_keys(self) -> frozenset[str]:
        known = getattr(self, "_known", None)
        if known is None:
            known = self._known = frozenset(
                f.data_key if f.data_key is not None else name
                for name, f in self.load_fields.items())
        return known


class SideBetSchema(StrictSchema):
    kind = fields.String(required=True, validate=validate.OneOf(SIDE_BET_KINDS))
    suit = fields.String(validate=validate.OneOf(["c", "d", "h", "s"]))
    stake = StakeField(required=True)
    players = FirstFaultList(fields.String(metadata=NAME_OPENAPI), required=True,
                             most=MAX_PLAYERS, validate=validate.Length(min=2, max=MAX_PLAYERS))

    @validates_schema
    def _suit(self, data: Mapping[str, Any], **kwargs: Any) -> None:
        if data.get("kind") == "suit_high" and "suit" not in data:
            raise ValidationError(N_("a suit_high bet names its suit"), "suit")


class HandSchema(StrictSchema):
    class Meta(StrictSchema.Meta):
        ordered = True

    dealer = fields.String(required=True, metadata=NAME_OPENAPI)
    players = FirstFaultList(NameField(), most=MAX_PLAYERS,
                             validate=validate.Length(min=2, max=MAX_PLAYERS),
                             metadata={"uniqueItems": True})
    deal = DealField()
    upcard = fields.String(metadata=CARD_OPENAPI)
    stake = EventField(HAND_CHECKS["stake"])
    stake_multiplier = fields.Integer(strict=True,
                                      validate=validate.Range(min=1, max=MAX_MULTIPLIER))
    side_bets = FirstFaultList(fields.Nested(SideBetSchema))
    actions = TextListField(Words(N_('actions like "Ben: draw 4c"')))
    # A hand told by its ending (quick logging): its shape is read by the
    # rules (referee.rules.told), which state what each ending needs.
    ending = fields.Dict(metadata=ENDING_OPENAPI)
    void = EventField(HAND_CHECKS["void"])
    accepted = EventField(HAND_CHECKS["accepted"])
    disputes = EventField(HAND_CHECKS["disputes"])


class HandsField(FirstFaultList):
    """The hands: plain ones read directly, the rest (side bets, seats, a
    stake multiplier, anything malformed) by HandSchema; if any hand is not
    plain the schema reads them all, up to the first fault, each walked for
    depth and text first (``record.check_document``, which ``load_log`` left
    to this field)."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> list[Any]:
        if type(value) is list:
            hands = plain_hands(value)
            if hands is not None:
                return hands
        return super()._deserialize(value, attr, data, **kwargs)

    def _item(self, i: int, item: Any, **kwargs: Any) -> Any:
        check_document(item, ["hands", i + 1])
        return super()._item(i, item, **kwargs)


class LogSchema(StrictSchema):
    class Meta(StrictSchema.Meta):
        ordered = True

    format = fields.String(required=True, validate=validate.Equal(FORMAT))
    table = fields.String(validate=validate.Length(min=1, max=200))
    language = EventField(SESSION_CHECKS["language"])
    started = EventField(SESSION_CHECKS["started"])
    closed = EventField(SESSION_CHECKS["closed"])
    currency = fields.String(allow_none=True, validate=validate.Length(min=1, max=16))
    stake = StakeField(required=True)
    rules = RulesField(required=True)
    players = FirstFaultList(NameField(), required=True, most=MAX_PLAYERS,
                             validate=validate.Length(min=2, max=MAX_PLAYERS),
                             metadata={"uniqueItems": True})
    brought_forward = EventField(SESSION_CHECKS["brought_forward"])
    brought_from = EventField(SESSION_CHECKS["brought_from"])
    hands = HandsField(fields.Nested(HandSchema))
    payments = EventField(SESSION_CHECKS["payments"])
    carried_forward = EventField(SESSION_CHECKS["carried_forward"])

    @validates_schema
    def _unique_players(self, data: Mapping[str, Any], **kwargs: Any) -> None:
        players = data.get("players") or []
        if len(set(players)) != len(players):
            raise ValidationError(N_("player names must be unique within the session"),
                                  "players")
        why = check_names_apart(players)
        if why:
            raise ValidationError([why], "players")

    @validates_schema
    def _readable_text(self, data: Mapping[str, Any], **kwargs: Any) -> None:
        for field, what in (("table", TABLE_NAME), ("currency", CURRENCY)):
            if isinstance(data.get(field), str) and (why := odd_text(data[field], what)):
                raise ValidationError([why], field)


LOG = LogSchema()
# A hand started through the API does not carry the table's own events: each
# has its own request (void, accept, dispute; the stake from the next hand
# on), so that each is one event in the chain, checked when it happens.
HAND_SETUP = HandSchema(exclude=("actions", *HAND_FIELDS))



# Marshmallow's messages that a log or a request body can meet, in the words
# the referee writes every field's problem in (a small first letter, no full
# stop: "format: must be equal to tonk-log/1", "stake: not a valid string"):
# the one list for the log's refusals and the API's bodies (``said``), so that
# the reader's language has each (newcomer 45's P6). tests/test_marshmallow_words
# derives the messages the schemas' fields and validators can give from
# marshmallow itself and checks that each is here and translated, and that
# nothing else is.
UNKNOWN_FIELD_SAID = N_("unknown field")
MARSHMALLOW = (
    N_("missing data for required field"), N_("field may not be null"),
    N_("invalid value"), UNKNOWN_FIELD_SAID, N_("invalid input type"), N_("invalid type"),
    N_("not a valid string"), N_("not a valid utf-8 string"), N_("not a valid integer"),
    N_("number too large"), N_("not a valid boolean"), N_("not a valid list"),
    N_("not a valid mapping type"),
    N_("must be equal to {other}"), N_("must be one of: {choices}"),
    N_("length must be between {min} and {max}"), N_("shorter than minimum length {min}"),
    N_("longer than maximum length {max}"), N_("length must be {equal}"),
    N_("must be greater than or equal to {min} and less than or equal to {max}"),
    N_("must be greater than or equal to {min}"), N_("must be less than or equal to {max}"),
    N_("string does not match expected pattern"),
)
# Each template as a pattern: its text as written, each ``{name}`` a value.
_PATTERNS = [(re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(t)) + r"\Z"), t)
             for t in MARSHMALLOW]


def said(message: str | Words) -> Words:
    """A message of marshmallow's ("Not a valid integer.") as the referee
    writes it, the template it was made from with its values, so that it is
    said in the reader's language; one not in ``MARSHMALLOW``, as written
    (the referee's own, already ``Words``, as they are)."""
    if isinstance(message, Words):
        return message
    text = str(message).rstrip(".")
    text = text[:1].lower() + text[1:]
    for pattern, template in _PATTERNS:
        found = pattern.match(text)
        if found:
            return Words(template, **found.groupdict())
    return Words(text)


def first_error(messages: Any, path: tuple[str | int, ...] = ()
                ) -> tuple[tuple[str | int, ...], str | Words]:
    """The first problem marshmallow found (its ``ValidationError.messages``)
    and the path to its field: the log's refusals and the API's bodies name
    the same one."""
    if isinstance(messages, dict) and messages:
        key = next(iter(messages))
        return first_error(messages[key], path + (key,))
    if isinstance(messages, list) and messages:
        return path, messages[0]
    return path, messages


def _malformed(err: ValidationError, prefix: tuple[str | int, ...] = ()) -> MalformedInput:
    path, message = first_error(err.messages)
    path = prefix + path
    problem = said(message)
    hand = action = None
    # A value of the table's own events that cannot be read is `malformed`
    # (docs/decisions.md); an unknown field stays `malformed_log`, as anywhere.
    event = path[:1] and path[0] in SESSION_FIELDS
    if len(path) >= 2 and path[0] == "hands" and isinstance(path[1], int):
        hand = path[1] + 1
        path = path[2:]
        event = path[:1] and path[0] in HAND_FIELDS
        if len(path) >= 2 and path[0] == "actions" and isinstance(path[1], int):
            action = path[1] + 1
            path = path[2:]
    if problem.template == UNKNOWN_FIELD_SAID:  # a log's own words for it
        problem = Words(UNKNOWN_FIELD)
    code = "malformed" if event and problem.template != UNKNOWN_FIELD else "malformed_log"
    path = tuple(p for p in path if p != "_schema")
    if not path:
        return MalformedInput(code, problem.template, problem.params, hand=hand, action=action)
    return MalformedInput(code, *field_problem(path, problem), hand=hand, action=action)


#: A field's problem, the field named by its path in the document
#: ("stake: ..."); the path is the ``field`` of the API's error body.
FIELD_PROBLEM = N_("{field}: {problem}")
#: A player's, named by the seat too (newcomer46 F8): the path counts from 0,
#: a player counts seats from 1 ("players.1 (seat 2): ...").
SEAT_PROBLEM = N_("{field} (seat {seat}): {problem}")


def field_problem(path: tuple[str | int, ...], problem: object) -> tuple[str, dict[str, Any]]:
    """The template and values of a refusal of the field at ``path`` (a
    log's, or an API body's): ``players.1`` is seat 2."""
    field = ".".join(map(str, path))
    if len(path) == 2 and path[0] == "players" and isinstance(path[1], int):
        return SEAT_PROBLEM, {"field": field, "seat": path[1] + 1, "problem": problem}
    return FIELD_PROBLEM, {"field": field, "problem": problem}


def load_checked(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` read by the schema; a ``MalformedInput`` names its first fault."""
    try:
        log: dict[str, Any] = LOG.load(doc)
        return log
    except ValidationError as err:
        raise _malformed(err) from None


def load_hand_setup(doc: dict[str, Any]) -> dict[str, Any]:
    try:
        setup: dict[str, Any] = HAND_SETUP.load(doc)
        return setup
    except ValidationError as err:
        raise _malformed(err) from None
