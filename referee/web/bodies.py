"""A JSON request body read once, the same way by every API blueprint (the
sessions' and the club's)."""

from __future__ import annotations

from flask import request
from marshmallow import Schema, ValidationError

from ..language import N_
from ..record import THE_BODY, check_document, parse_json
from ..service.errors import MalformedInput
from .errors import ApiError


def read_body(schema: Schema | None = None, *, log: bool = False) -> dict:
    """The body as data. ``log``: a ``tonk-log/1`` document, which
    ``record.load_log`` checks for depth and text as it reads it (walking a
    10,000-hand import here as well cost a tenth of the import)."""
    data = None
    if request.is_json:
        # Parsed here, not by request.get_json: its parser lets a deep
        # document's RecursionError through, and keeps lone surrogates.
        try:
            data = parse_json(request.get_data(), THE_BODY)
            if not log:
                check_document(data)
        except MalformedInput as err:
            raise ApiError(400, "bad_request", err.template, err.params) from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", N_("the body must be a JSON object "
                                              "(Content-Type: application/json)"))
    if schema is None:
        return data
    try:
        return schema.load(data)
    except ValidationError as err:
        field, messages = next(iter(err.messages.items()))
        text = messages[0] if isinstance(messages, list) else str(messages)
        # Marshmallow's words (or the log format's) after the field's name.
        raise ApiError(400, "bad_request", N_("{field}: {problem}"),
                       {"field": field, "problem": text}) from None
