"""``referee.log`` reads plain logs without marshmallow; it must read them
exactly as the schemas do, and leave everything else to them."""

import copy
import json
from pathlib import Path

import pytest

from referee.record.reading import _HAND_FIELDS, _LOG_FIELDS, _plain_log
from referee.record.schemas import LOG, HandSchema, LogSchema

SAMPLES = sorted(p for p in (Path(__file__).resolve().parents[1] / "sample_logs").glob("*.json")
                 if not p.name.endswith(".expected.json"))


def test_fields_in_the_schemas_order():
    assert _HAND_FIELDS == tuple(HandSchema._declared_fields)
    assert _LOG_FIELDS == tuple(LogSchema._declared_fields)


def variants(doc):
    """The log, and copies with one top-level field changed or removed."""
    yield doc
    changes = [None, "", 7, 2.5, True, [], {}, "x", "1e400", "-1", "0", "0.25", ["Ann"],
               ["Ann", "Ann"], ["Ann", "Ben"], ["Ann", 3], ["Ann", ""], "tonk-log/2"]
    for key in [*_LOG_FIELDS, "extra"]:
        bad = copy.deepcopy(doc)
        bad.pop(key, None)
        yield bad
        for value in changes:
            bad = copy.deepcopy(doc)
            bad[key] = value
            yield bad


@pytest.mark.parametrize("path", SAMPLES[:12], ids=lambda p: p.name)
def test_plain_logs_read_as_the_schema_reads_them(path):
    doc = json.loads(path.read_text())
    assert isinstance(doc, dict)
    fast = 0
    for variant in variants(doc):
        plain = _plain_log(variant)
        if plain is None:
            continue  # the schema reads it (and words its errors)
        fast += 1
        assert LOG.validate(variant) == {}
        loaded = LOG.load(variant)
        assert plain == loaded
        assert list(plain) == list(loaded)
    # The sample itself is plain, so the fast path must have read some variants.
    assert fast > 0


def test_every_sample_log_reads_alike_by_both_validators():
    # The fast path (reading.py) is a second statement of the log's shape
    # beside the schemas: every sample, as it is, read by both. Where the
    # fast path reads a log, the schema finds nothing wrong and reads the
    # same; a log the schema refuses, the fast path leaves to it.
    fast = 0
    for path in SAMPLES:
        doc = json.loads(path.read_text())
        plain = _plain_log(doc) if isinstance(doc, dict) else None
        errors = LOG.validate(doc)
        if plain is None:
            continue
        fast += 1
        assert errors == {}, (path.name, errors)
        loaded = LOG.load(doc)
        assert plain == loaded and list(plain) == list(loaded), path.name
    assert fast > len(SAMPLES) // 2


class Text(str):
    """Text of a subclass of str (the schema reads it as text)."""


@pytest.mark.parametrize("item", [None, 7, 2.5, True, b"Ann: drop", ["Ann: drop"], {}, Text("x")])
def test_an_action_or_card_read_as_the_schema_reads_it(item):
    """Every item of a hand's actions and of its deal is text for the fast
    path, checked without asking each its type (a join): whatever it reads,
    the schema reads alike; whatever is not text, it leaves to the schema."""
    doc = json.loads((SAMPLES[0]).read_text())
    for where in ("actions", "deal"):
        bad = copy.deepcopy(doc)
        hand = bad["hands"][0]
        if where == "actions":
            hand["actions"].append(item)
        else:
            first = next(iter(hand["deal"]))
            hand["deal"][first][0] = item
        plain = _plain_log(bad)
        if isinstance(item, str):
            assert plain is not None and LOG.validate(bad) == {} and plain == LOG.load(bad)
        else:
            assert plain is None
