"""``referee replay --json``'s text: a result document, readable but written
by json's C encoder: one line per top-level field, and one per item of a list
(a hand, a transfer). ``indent=2`` falls back on the pure-Python encoder,
which took longer than replaying the hands."""

from __future__ import annotations

import json
import json.encoder
from decimal import Decimal
from functools import lru_cache

from ..ledger.money import written
from ..ledger.results import HandResult

encode = json.JSONEncoder(ensure_ascii=False).encode

# The C encoder behind ``encode``, made once: ``encode`` makes a new one for
# every call, which cost more than the hand it wrote. Without the circular
# check (``markers``: None): a result is plain data, built by the ledger.
_c_encoder = json.encoder.c_make_encoder
_encode_item = None if _c_encoder is None else _c_encoder(
    None, None, json.encoder.encode_basestring, None, ": ", ", ", False, False, True)


def item_line(item: object) -> str:
    """One list item as it is written: indented, on its own line."""
    if _encode_item is None:  # pragma: no cover - CPython always has the C encoder
        return "    " + encode(item)
    return "    " + "".join(_encode_item(item, 0))


# A session's names (and outcomes) are encoded once each; the bound keeps a
# long-lived server's cache small.
_string = lru_cache(maxsize=10_000)(json.encoder.encode_basestring)


def hand_line(hand: HandResult, quantum: Decimal) -> str:
    """``item_line(hand.to_json(quantum))``, written directly: a third of
    the JSON encoder's time, for the thousands of hands of a long replay."""
    q = str(quantum)
    counts = ", ".join([f"{_string(p)}: {c}" for p, c in hand.counts.items()])
    net = ", ".join([f'{_string(p)}: "{written(str(v), q)}"' for p, v in hand.net.items()])
    winners = ", ".join([_string(p) for p in hand.winners])
    outcome = _string(hand.outcome.value)
    if hand.reason is not None:  # a void hand: its reason follows its outcome
        outcome += f', "reason": {_string(hand.reason)}'
    elif hand.told:  # as does the mark of a hand told by its ending
        outcome += ', "told": true'
    return (f'    {{"hand": {hand.number}, "dealer": {_string(hand.dealer)}, '
            f'"outcome": {outcome}, "winners": [{winners}], '
            f'"counts": {{{counts}}}, "net": {{{net}}}}}')


class EncodedItems(str):
    """A list's items already written by ``item_line`` and joined by ",\\n"
    (so the two-core replay can write each half's hands where it was replayed)."""


def result_json_text(doc: dict) -> str:
    fields = []
    for key, value in doc.items():
        head = "  " + encode(key) + ": "
        if isinstance(value, EncodedItems):
            fields.append(f"{head}[\n{value}\n  ]" if value else head + "[]")
        elif isinstance(value, list) and value:
            items = ",\n".join(map(item_line, value))
            fields.append(f"{head}[\n{items}\n  ]")
        else:
            fields.append(head + encode(value))
    return "{\n" + ",\n".join(fields) + "\n}\n"
