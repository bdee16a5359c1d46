"""A JSON request body read once, the same way by every API blueprint (the
sessions' and the club's)."""

from __future__ import annotations

from flask import g, request
from marshmallow import Schema, ValidationError

from ..language import DEFAULT, N_
from ..record import THE_BODY, check_document, parse_json
from ..record.schemas import field_problem, first_error, said
from ..rules.words import Words
from ..service.errors import MalformedInput
from ..service.table.writes import REQUEST, Request
from ..speed import collector
from .errors import ApiError
from .lang import current


def read_body(schema: Schema | None = None, *, log: bool = False) -> dict:
    """The body as data. ``log``: a ``tonk-log/1`` document, which
    ``record.load_log`` checks for depth and text as it reads it (walking a
    10,000-hand import here as well cost a tenth of the import)."""
    data = None
    # A request with no body at all is read as JSON too: "the request has no
    # body", whatever its Content-Type says (newcomer 46).
    if request.is_json or not request.get_data().strip():
        # Parsed here, not by request.get_json: its parser lets a deep
        # document's RecursionError through, and keeps lone surrogates.
        try:
            # A long log is a million small objects: decoded with the
            # collector paused, as the import then works (speed.collector).
            with collector.paused():
                data = parse_json(request.get_data(), THE_BODY)
            if not log:
                check_document(data)
        except MalformedInput as err:
            raise ApiError(400, "bad_request", err.template, err.params) from None
    if not isinstance(data, dict):
        if request.is_json:  # JSON, read: its header was right (newcomer 45's P7)
            raise ApiError(400, "bad_request", N_("the body must be a JSON object, not "
                                                  "{what}"), {"what": Words(_KINDS[type(data)])})
        raise ApiError(400, "bad_request", N_("the body must be a JSON object "
                                              "(Content-Type: application/json)"))
    if schema is None:
        return data
    return load_fields(schema, data)


# What JSON a body may be, beside an object (a bool is true or false).
_KINDS = {str: N_("a string"), list: N_("a list"), int: N_("a number"), float: N_("a number"),
          bool: N_("true or false"), type(None): N_("null")}


def with_key(data: dict) -> dict:
    """``data`` with the ``Idempotency-Key`` header as its ``client_id``: either
    may be sent, or both when they are equal (``client_id_mismatch``: they
    differ, and which one to honour is not for the service to guess)."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return data
    given = data.get("client_id")
    if given is not None and given != key:
        raise ApiError(400, "client_id_mismatch", N_("the Idempotency-Key header and the "
                                                     "body's client_id differ: send one of "
                                                     "them, or the same in both"))
    return {**data, "client_id": key}


def load_fields(schema: Schema, data: dict) -> dict:
    """``data`` read by ``schema``; an ``ApiError`` names the field at fault."""
    try:
        return schema.load(data)
    except ValidationError as err:
        path, message = first_error(err.messages)
        # Marshmallow's words (or the log format's) after the field's name,
        # in another language as a log's refusal says them (record.schemas.said);
        # the English answer keeps marshmallow's own sentence ("Not a valid
        # integer."), which clients of the API may read.
        english = current() == DEFAULT and isinstance(message, str)
        problem = message if english else said(message)
        raise ApiError(400, "bad_request", *field_problem(path, problem)) from None


# What identifies a request beside its client_id: neither the id itself (in
# the body or the Idempotency-Key header) nor the form's CSRF token.
_NOT_ASKED = ("client_id", "csrf_token")


def note_request() -> None:
    """Before a write: what it asks (``service.writes.REQUEST``), so that a
    client_id sent again with another body is refused, naming the first
    request's kind, instead of silently given the first answer."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE") or request.url_rule is None:
        return
    asked: object = None
    if request.is_json:
        try:
            asked = parse_json(request.get_data(), THE_BODY)
        except MalformedInput:
            return  # refused as unreadable by the view itself
    elif request.form:
        asked = {k: request.form.getlist(k) for k in sorted(request.form)}
    if isinstance(asked, dict):
        asked = {k: v for k, v in asked.items() if k not in _NOT_ASKED}
    kind = f"{request.method} {request.url_rule.rule}"
    g.request_token = REQUEST.set(Request.make(kind, [request.view_args, asked]))


def forget_request(_exc: BaseException | None = None) -> None:
    token = g.pop("request_token", None)
    if token is not None:
        try:
            REQUEST.reset(token)
        except ValueError:  # another context's: nothing of this request is left in it
            pass
