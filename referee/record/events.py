"""The table's own events in a session log (``log-format.md``, "The table's
own events"): what their values must look like, and what the session-level
ones must mean.

The shape checks are shared by the plain-log fast path (``referee.record.reading``) and
the marshmallow schemas (``referee.log_schema``), so both read a log alike;
a value that fails one is ``malformed`` (exit 2). The meaning of the session's
money (who pays whom, what is carried in) is checked once the log is read,
with the codes of ``docs/decisions.md``. What a hand's events mean (a void,
an acceptance, a dispute) is judged by the rules engine
(``referee.rules.events``), against the hand as played.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from decimal import Decimal

from ..ledger.money import POSITIVE_DECIMAL, STAKE_EXAMPLE, amount_fault, parse_stake
from ..rules.errors import MalformedInput
from ..rules.events import SETTLE_WAYS, on_undone
from ..rules.numbers import decimal
from ..rules.table import TABLE_NAME, odd_text
from ..rules.words import LANGUAGES, N_, Words

#: A payment's amount as an example, in the reader's number form where it is said.
AMOUNT_EXAMPLE = Decimal("0.75")

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

#: Session-level fields; ``started`` is older, but is now held to the same format.
SESSION_FIELDS = ("language", "started", "closed", "brought_forward", "brought_from",
                  "payments", "carried_forward")
#: Hand-level fields.
HAND_FIELDS = ("stake", "void", "accepted", "disputes")

UNKNOWN_FIELD = N_("is not a field of the log format")

_PAYMENT_KEYS = frozenset(("from", "to", "amount", "at", "note", "by", "pending", "confirmed",
                           "undone"))
_CARRY_KEYS = ("to", "balances", "at", "table")
_DISPUTE_KEYS = ("action", "by", "note")
_DISPUTE_ALLOWED = frozenset((*_DISPUTE_KEYS, "settled"))
_SETTLED_KEYS = frozenset(("how", "by", "at", "action", "undone"))


_NAME = N_("must be a player's name")
_NOTE = Words(N_("a note"))


class Unreadable(ValueError):
    """A value of an event field that cannot be read; ``path`` leads into it
    (list indexes and keys), for the schema to name the field."""

    def __init__(self, text: str | Words, *path: object) -> None:
        text = text if isinstance(text, Words) else Words(text)
        super().__init__(str(text))
        self.text = text
        self.path = path

    def messages(self) -> list[Words] | dict[object, Any]:
        """The error as marshmallow nests its messages."""
        out: list[Words] | dict[object, Any] = [self.text]
        for step in reversed(self.path):
            out = {step: out}
        return out


def _text(value: object, low: int, high: int, what: Words, *path: object) -> None:
    if type(value) is not str:
        raise Unreadable(Words(N_("{what} must be text"), what=what), *path)
    if not low <= len(value) <= high:
        raise Unreadable(Words(N_("{what} has {low} to {high} characters, not {length}"),
                               what=what, low=low, high=high, length=len(value)), *path)
    why = odd_text(value, what)  # as a name is checked: nothing hidden, NFC, not blank
    if why:
        raise Unreadable(why, *path)


def _time(value: object, *path: object) -> None:
    """ISO 8601, date and time, with a UTC offset (``Z`` or ``+01:00``): a
    time without one could be anybody's evening."""
    if type(value) is not str:
        raise Unreadable(N_("must be a time like \"2026-11-21T20:00:00Z\""), *path)
    from datetime import UTC, datetime  # only logs that carry times pay for the import

    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        when = None
    if when is None or "T" not in value.upper() or when.tzinfo is None:
        raise Unreadable(Words(N_("must be an ISO 8601 time with a UTC offset, like "
                                  "\"2026-11-21T20:00:00Z\", not {value}"), value=repr(value)),
                         *path)
    # The papers print a time in UTC: an instant before year 1 or after 9999
    # there (0001-01-01T00:00:00+23:59) has no date to print, so the log is
    # refused here, where it is read, not by each paper.
    try:
        when.astimezone(UTC)
    except OverflowError:
        raise Unreadable(Words(N_("must be a time between the years 1 and 9999 in UTC, not "
                                  "{value}"), value=repr(value)), *path) from None


def decimal_of(value: object) -> Decimal | None:
    """A decimal string or number as a finite Decimal; None if it is not one."""
    if isinstance(value, Decimal):
        return None
    d = decimal(value)
    return d if d is not None and d.is_finite() else None


def check_language(value: object) -> None:
    if value not in LANGUAGES or type(value) is not str:
        raise Unreadable(Words(N_("must be one of {languages}, not {value}"),
                               languages=", ".join(LANGUAGES), value=repr(value)))


def check_time(value: object) -> None:
    _time(value)


def check_brought_forward(value: object) -> None:
    if type(value) is not dict:
        raise Unreadable(N_('must be an object of player: amount, like {"Ann": "-3.50"}'))
    for name, amount in value.items():
        d = decimal_of(amount)
        if d is None:
            raise Unreadable(Words(N_('must be a decimal amount like "-3.50", not {amount}'),
                                   amount=repr(amount)), name)
        fault = amount_fault(d)
        if fault:
            raise Unreadable(fault, name)


def _records(value: object, like: str, each: str, allowed: Collection[str],
             required: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The items of a list of records (payments, disputes), each an object
    with only ``allowed`` keys and every ``required`` one, as ``(i, item)``."""
    if type(value) is not list:
        raise Unreadable(like)
    for i, item in enumerate(value):
        if type(item) is not dict:
            raise Unreadable(each, i)
        for key in item:
            if key not in allowed:
                raise Unreadable(UNKNOWN_FIELD, i, key)
        for key in required:
            if key not in item:
                raise Unreadable(N_("missing data for required field"), i, key)
        yield i, item


def check_payments(value: object) -> None:
    for i, payment in _records(
            value, N_('must be a list of payments like {"from": "Ann", "to": "Ben", '
                      '"amount": "0.75"}'), N_("a payment is an object with from, to and amount"),
            _PAYMENT_KEYS, ("from", "to", "amount")):
        for key in ("from", "to"):
            if type(payment[key]) is not str:
                raise Unreadable(_NAME, i, key)
        # The amount's value is judged with the session (payment_amount); its
        # size here, with the shape: beyond the bounds nothing can settle it.
        d = decimal_of(payment["amount"])
        fault = None if d is None else amount_fault(d)
        if fault:
            raise Unreadable(fault, i, "amount")
        if "at" in payment:
            _time(payment["at"], i, "at")
        if "note" in payment:
            _text(payment["note"], 1, 500, _NOTE, i, "note")
        if "by" in payment and type(payment["by"]) is not str:
            raise Unreadable(_NAME, i, "by")
        if "pending" in payment and payment["pending"] is not True:
            raise Unreadable(N_("is true while the payee (or the host) has not confirmed it; "
                                "otherwise left out"), i, "pending")
        for key in ("confirmed", "undone"):
            if key in payment:
                _mark(payment[key], i, key)


def _mark(value: object, i: int, key: str) -> None:
    """A payment's ``confirmed`` or ``undone``: ``{"by": a name or null (the
    host), "at": a time}``."""
    if type(value) is not dict or set(value) != {"by", "at"}:
        raise Unreadable(N_('must be an object like {"by": "Ben", "at": '
                            '"2026-11-21T23:50:00Z"} ("by" null: the host)'), i, key)
    if value["by"] is not None and type(value["by"]) is not str:
        raise Unreadable(_NAME, i, key, "by")
    _time(value["at"], i, key, "at")


def check_brought_from(value: object) -> None:
    """The table ``brought_forward`` came from, as the referee that carried
    it knew it: ``{"id": "<session>", "table": "Kitchen table"}`` (``table``
    when it has a name), so that a paper of the log alone names it."""
    if type(value) is not dict or "id" not in value:
        raise Unreadable(N_('must be an object like {"id": "<session>", "table": "Kitchen '
                            'table"}'))
    for key in value:
        if key not in ("id", "table"):
            raise Unreadable(UNKNOWN_FIELD, key)
    _text(value["id"], 1, 100, Words(N_("a session's id")), "id")
    if "table" in value:
        _text(value["table"], 1, 200, TABLE_NAME, "table")


def check_carried_forward(value: object) -> None:
    for i, carry in _records(
            value, N_('must be a list of carries like {"to": "<session>", "balances": '
                      '{"Ann": "-2.00", "Ben": "2.00"}}'),
            N_("a carry is an object with to and balances"), _CARRY_KEYS, ("to", "balances")):
        _text(carry["to"], 1, 100, Words(N_("a session's id")), i, "to")
        if "table" in carry:  # the later table's name, as its papers name it (import44)
            _text(carry["table"], 1, 200, TABLE_NAME, i, "table")
        try:
            check_brought_forward(carry["balances"])
        except Unreadable as err:
            raise Unreadable(err.text, i, "balances", *err.path) from None
        if "at" in carry:
            _time(carry["at"], i, "at")


def check_hand_stake(value: object) -> None:
    d = decimal_of(value)
    if d is None or d <= 0:
        raise Unreadable(Words(POSITIVE_DECIMAL, example=STAKE_EXAMPLE, value=str(value)))
    try:
        parse_stake(value)
    except ValueError as err:
        raise Unreadable(err.args[0]) from None


def check_void(value: object) -> None:
    _text(value, 1, 200, Words(N_("the reason for a void")))


def check_accepted(value: object) -> None:
    if type(value) is not list:
        raise Unreadable(N_("must be a list of players' names"))
    for i, name in enumerate(value):
        if type(name) is not str:
            raise Unreadable(_NAME, i)


def check_disputes(value: object) -> None:
    for i, dispute in _records(
            value, N_('must be a list of disputes like {"action": 7, "by": "Cy", "note": "..."}'),
            N_("a dispute is an object with action, by and note"), _DISPUTE_ALLOWED,
            _DISPUTE_KEYS):
        action = dispute["action"]
        if action is not None and type(action) is not int:
            raise Unreadable(N_("must be an action's number, or null for the whole hand"),
                             i, "action")
        if type(dispute["by"]) is not str:
            raise Unreadable(_NAME, i, "by")
        _text(dispute["note"], 1, 500, _NOTE, i, "note")
        if "settled" in dispute:
            _settled(dispute["settled"], action, i)


_SETTLED_LIKE = N_('must be how the table settled it, like {"how": "stands", "by": "Ann", '
                   '"at": "2026-11-21T23:50:00Z"} (a correction: "how": "corrected", with '
                   '"action", the number it named, and "undone", the actions taken back, '
                   'newest first)')


def _settled(value: object, action: object, i: int) -> None:
    """A dispute's ``settled`` (docs/decisions.md, "N2"): ``how`` (stands or
    corrected), ``by`` who settled it, ``at`` (optional) when; a correction
    may say ``action``, the number the dispute named, and ``undone``, the
    actions taken back (newest first, the disputed one last): together, and
    only on a dispute that names no action now (its action is undone)."""
    if type(value) is not dict or not _SETTLED_KEYS.issuperset(value) \
            or value.get("how") not in SETTLE_WAYS or type(value.get("by")) is not str:
        raise Unreadable(_SETTLED_LIKE, i, "settled")
    if "at" in value:
        _time(value["at"], i, "settled", "at")
    if ("action" in value or "undone" in value) and not _corrected_back(value, action):
        raise Unreadable(_SETTLED_LIKE, i, "settled")


def _corrected_back(value: dict[str, Any], action: object) -> bool:
    """A settlement's ``action`` and ``undone`` are readable: a correction's,
    of a dispute that names no action now."""
    number, undone = value.get("action"), value.get("undone")
    return value["how"] == "corrected" and action is None \
        and type(number) is int and number >= 1 \
        and type(undone) is list and bool(undone) and _all_text(undone)


def _all_text(items: list[object]) -> bool:
    return all(type(a) is str for a in items)


def note_as_kept(dispute: dict[str, Any]) -> str:
    """A dispute's note as the table's own pages and papers keep it: a log's
    corrected dispute (``settled.action``) with the line naming the undone
    action before it, as the service writes it (``on_undone``), so that a
    paper from the log says what the table's paper says."""
    done, note = dispute.get("settled") or {}, str(dispute["note"])
    if "action" in done:
        return on_undone(done["action"], done["undone"][-1]) + note
    return note


SESSION_CHECKS = {
    "language": check_language,
    "started": check_time,
    "closed": check_time,
    "brought_forward": check_brought_forward,
    "brought_from": check_brought_from,
    "payments": check_payments,
    "carried_forward": check_carried_forward,
}
HAND_CHECKS = {
    "stake": check_hand_stake,
    "void": check_void,
    "accepted": check_accepted,
    "disputes": check_disputes,
}


def session_players(log: dict[str, Any]) -> list[str]:
    """Everyone of the session: the top-level players, then anyone a hand seats."""
    players = list(log["players"])
    for hand in log.get("hands") or ():
        for name in hand.get("players") or ():
            if name not in players:
                players.append(name)
    return players


#: The session-level fields that carry money besides the hands: a log with
#: any of them has ``balances`` in its result.
MONEY_FIELDS = ("brought_forward", "payments", "carried_forward")


def has_money(log: dict[str, Any]) -> bool:
    return "brought_forward" in log or "payments" in log or "carried_forward" in log


def _carried(carried: dict[str, Any], players: set[str], field: str) -> None:
    for name in carried:
        if name not in players:
            if field == "brought_forward":
                raise MalformedInput("unknown_player", N_("brought_forward names {name}, who "
                                                          "is not a player of this session"),
                                                       {"name": name})
            raise MalformedInput("unknown_player", N_("carried_forward names {name}, who is "
                                                      "not a player of this session"),
                                                   {"name": name})
    # The shape is checked (check_brought_forward): every amount is a decimal.
    total = sum((d for d in map(decimal_of, carried.values()) if d is not None), Decimal(0))
    if total != 0:
        raise MalformedInput("brought_forward_sum", N_("the balances brought forward must sum "
                                                       "to zero (what one owes another is "
                                                       "owed to them), but sum to {total}"),
                                                    {"total": total})


def check_session_money(log: dict[str, Any]) -> None:
    """What ``brought_forward``, ``payments`` and ``carried_forward`` mean:
    names of the session, carried balances that sum to zero, payments between
    two players of a positive amount, recorded (``by``) and confirmed by one
    of the two. Read after the log's shape is checked."""
    if not has_money(log):
        return
    players = set(session_players(log))
    _carried(log.get("brought_forward") or {}, players, "brought_forward")
    for carry in log.get("carried_forward") or ():
        _carried(carry["balances"], players, "carried_forward")
    for i, payment in enumerate(log.get("payments") or (), 1):
        payer, payee, amount = payment["from"], payment["to"], payment["amount"]
        if payer == payee:
            raise MalformedInput("payment_to_self", N_("payment {number}: {payer} cannot pay "
                                                       "themselves"),
                                                    {"number": i, "payer": payer})
        d = decimal_of(amount)
        if d is None or d <= 0:
            # The problem apart: a payment form names its field by its label.
            raise MalformedInput("payment_amount", N_("payment {number}'s amount: {problem}"),
                                 {"number": i, "problem": Words(
                                     POSITIVE_DECIMAL, example=AMOUNT_EXAMPLE, value=str(amount))})
        for name in (payer, payee):
            if name not in players:
                raise MalformedInput("unknown_player", N_("payment {number} names {name}, who "
                                                          "is not a player of this session"),
                                                       {"number": i, "name": name})
        confirmer = (payment.get("confirmed") or {}).get("by")
        for name in (payment.get("by"), confirmer):
            if name is not None and name not in (payer, payee):
                raise MalformedInput("payment_by", N_("payment {number}: only {payer} or "
                                                      "{payee} may record or confirm it, not "
                                                      "{name}"),
                                                   {"number": i, "payer": payer, "payee": payee,
                                                    "name": name})
        if payment.get("pending") and ("confirmed" in payment or payment.get("by") != payer):
            raise MalformedInput("payment_pending", N_("payment {number}: only a payment its "
                                                       "payer recorded waits for confirmation, "
                                                       "and a confirmed one waits no more"),
                                                    {"number": i})


def counts(payment: dict[str, Any]) -> bool:
    """Whether a logged payment moves money: not one its payer recorded that
    is still waiting to be confirmed, not one the host took back."""
    return not payment.get("pending") and "undone" not in payment
