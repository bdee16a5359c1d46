"""``referee replay --json``'s text: a result document, readable but written
by json's C encoder: one line per top-level field, and one per item of a list
(a hand, a transfer). ``indent=2`` falls back on the pure-Python encoder,
which took longer than replaying the hands."""

from __future__ import annotations

import json
import json.encoder

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

encode = json.JSONEncoder(ensure_ascii=False).encode

# The C encoder behind ``encode``, made once: ``encode`` makes a new one for
# every call, which cost more than the hand it wrote. Without the circular
# check (``markers``: None): a result is plain data, built by the ledger.
# (typeshed leaves out this name of the module: asked for by getattr, None
# where the C accelerator is missing, as the module itself sets it.)
_c_encoder = getattr(json.encoder, "c_make_encoder", None)
_encode_item = None if _c_encoder is None else _c_encoder(
    None, None, json.encoder.encode_basestring, None, ": ", ", ", False, False, True)


def item_line(item: object) -> str:
    """One list item as it is written: indented, on its own line."""
    if _encode_item is None:  # pragma: no cover - CPython always has the C encoder
        return "    " + encode(item)
    return "    " + "".join(_encode_item(item, 0))


class EncodedItems(str):
    """A list's items already written by ``item_line`` and joined by ",\\n"
    (so the two-core replay can write each half's hands where it was replayed)."""


def result_json_text(doc: dict[str, Any]) -> str:
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
