"""Every message marshmallow can give for the referee's schemas is said in
the reader's language, through both doors: a log's refusal (``referee
replay``) and an API request body's. The messages are derived from
marshmallow itself (the error_messages of each field class the schemas use,
their validators' and the schemas' own), not listed by hand, so a field type
or validator added to a schema cannot slip through in English: its message
must join ``record.schemas.MARSHMALLOW`` and the catalogs."""

from __future__ import annotations

import importlib
import json
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from marshmallow import Schema, ValidationError, fields
from marshmallow.validate import Validator

from referee import language
from referee.cli import main
from referee.record.events import UNKNOWN_FIELD
from referee.record.schemas import MARSHMALLOW, UNKNOWN_FIELD_SAID, said
from referee.rules.words import Words

from .test_api import Game, bearer

SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "dc_low_deal.json"
OTHERS = ["de", "fr", "pt"]
# Every module that declares schemas a log or a request body is read by.
SCHEMA_MODULES = ["referee.record.schemas", "referee.web.api_schemas", "referee.web.club_api",
                  "referee.web.settle"]
# A value for each placeholder marshmallow fills in its messages.
SAMPLES = {"min": 1, "max": 40, "equal": 2, "other": "tonk-log/1", "choices": "c, d, h, s",
           "labels": "c, d, h, s", "input": "x"}


def _schemas() -> Iterator[type[Schema]]:
    for name in SCHEMA_MODULES:
        importlib.import_module(name)
    todo = [Schema]
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__.startswith("referee."):
            yield cls


def _fields(field: fields.Field) -> Iterator[fields.Field]:
    yield field
    inner = [getattr(field, name, None) for name in ("inner", "key_field", "value_field")]
    for f in [*inner, *getattr(field, "tuple_fields", ())]:
        if isinstance(f, fields.Field):
            yield from _fields(f)


def _validator_messages(validator: object) -> list[str]:
    if not isinstance(validator, Validator):
        return []  # the referee's own check: it words its refusals itself
    said = getattr(validator, "error", None)
    messages = [said] if said else [getattr(validator, name) for name in (
        "message_min", "message_max", "message_all", "message_equal") if hasattr(validator, name)]
    assert messages, f"{validator!r}: which messages does it give?"
    return messages


def _filled(message: str) -> str:
    names = [name for _, name, _, _ in string.Formatter().parse(message) if name]
    missing = set(names) - set(SAMPLES)
    assert not missing, f"{message!r}: give SAMPLES a value for {missing}"
    return message.format(**SAMPLES)


def marshmallow_messages() -> set[str]:
    """Each message marshmallow can raise for the referee's schemas, as it
    writes it (placeholders filled)."""
    found: set[str] = set()
    for cls in _schemas():
        schema = cls()
        found |= set(schema.error_messages.values())
        for top in schema.fields.values():
            for field in _fields(top):
                found |= set(field.error_messages.values())
                for validator in field.validators:
                    found |= set(_validator_messages(validator))
    return {_filled(m) for m in found}


MESSAGES = sorted(marshmallow_messages())


def test_the_messages_are_derived_from_marshmallow():
    # a few the schemas surely meet, to show the derivation reaches them
    assert {"Missing data for required field.", "Unknown field.", "Not a valid integer.",
            "Length must be between 1 and 40."} <= set(MESSAGES)


def test_the_one_list_holds_only_what_marshmallow_can_say():
    met = {said(message).template for message in MESSAGES}
    assert set(MARSHMALLOW) <= met, set(MARSHMALLOW) - met


@pytest.mark.parametrize("message", MESSAGES)
def test_each_message_is_in_the_one_list_and_translated(message):
    words = said(message)
    assert words.template in MARSHMALLOW, f"{message!r}: add it to record.schemas.MARSHMALLOW"
    for lang in OTHERS:
        assert language.translations(lang).gettext(words.template) != words.template, \
            (lang, words.template)


def _raising(message: str):
    def _deserialize(self, value, attr, data, **kwargs):
        raise ValidationError(message)
    return _deserialize


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_a_logs_refusal_says_each_in_the_language(tmp_path, capsys, monkeypatch, lang):
    doc = json.loads(SAMPLE.read_text())
    # A format the plain reader refuses, so the schema words why; its first
    # field, a String, is refused with each message in turn.
    doc["format"] = "tonk-log/2"
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    for message in MESSAGES:
        monkeypatch.setattr(fields.String, "_deserialize", _raising(message))
        assert main(["replay", str(path), "--lang", lang]) != 0
        err = capsys.readouterr().err
        problem = said(message)
        if problem.template == UNKNOWN_FIELD_SAID:  # in a log, the log format's words
            problem = Words(UNKNOWN_FIELD)
        assert language.gettext(lang, "{field}: {problem}", field="format",
                                problem=problem) in err, (message, err)
        if lang != "en":
            assert message.rstrip(".") not in err, err


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_an_api_bodys_refusal_says_each_in_the_language(client, monkeypatch, lang):
    g = Game(client)
    for message in MESSAGES:
        monkeypatch.setattr(fields.String, "_deserialize", _raising(message))
        answer = client.post(g.url("/hands/1/void"), json={"reason": "misdeal"},
                             headers={**bearer(g.table), "Accept-Language": lang})
        assert answer.status_code == 400, answer.get_json()
        error = answer.get_json()["error"]
        assert error["code"] == "bad_request"
        if lang == "en":  # marshmallow's own sentence, as API clients have read it
            assert error["message"] == f"reason: {message}"
        else:
            assert error["message"] == language.gettext(
                lang, "{field}: {problem}", field="reason", problem=said(message)), message
            assert message.rstrip(".") not in error["message"]
