"""A decoded JSON document checked before anything reads it as a log: no
deeper than the referee reads, and no text that cannot be printed. Its own
module so that the schemas (imported by the package's front door) can use it
without importing the front door back."""

from __future__ import annotations

from ..rules.errors import MalformedInput
from ..rules.words import N_

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any


# The deepest JSON the referee reads: a log is 5 levels deep; the slack is for
# the rules' objects. Deeper documents are refused before anything recurses.
MAX_DEPTH = 32


def _where(path: list) -> str:
    return ".".join(str(p) for p in path) or "the document"


def check_document(doc: Any, path: list | None = None) -> None:
    """Refuse a decoded document nested deeper than ``MAX_DEPTH`` or holding
    text that is not valid Unicode (a lone surrogate, which JSON can escape
    but nothing can print), naming where. Walked first without paths (a
    tenth of the time: a million-item list took 1.3 s with a path for each),
    then, only for a document at fault, again to say where."""
    if _sound(doc, len(path or ())):
        return
    _name_the_fault(doc, path)


def _sound(doc: Any, depth: int) -> bool:
    """No value deeper than ``MAX_DEPTH`` and no text with a lone surrogate."""
    if depth > MAX_DEPTH:
        return False
    stack = [(doc, depth)]
    while stack:
        value, depth = stack.pop()
        kind = type(value)
        if kind is str:
            if not value.isascii():
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:
                    return False
            continue
        if kind is dict:
            items = list(value.values())
            for key in value:
                if type(key) is str and not key.isascii():
                    stack.append((key, depth))
        elif kind is list:
            items = value
        else:
            continue
        if not items:
            continue
        if depth >= MAX_DEPTH:
            return False
        for item in items:
            kind = type(item)
            if ((kind is dict or kind is list) and item) or (kind is str and not item.isascii()):
                stack.append((item, depth + 1))
    return True


def _name_the_fault(doc: Any, path: list | None) -> None:
    stack: list[tuple[Any, list]] = [(doc, path or [])]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise MalformedInput("malformed_log", N_("{where}...: the document is nested more "
                                                     "than {depth} deep"),
                                                  {"where": _where(path[:3]), "depth": MAX_DEPTH})
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise MalformedInput("malformed_log", N_("{where}: the text is not valid "
                                                         "Unicode (a lone surrogate)"),
                                                      {"where": _where(path)}) from None
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, path))
                stack.append((item, [*path, key]))
        elif isinstance(value, list):
            stack.extend((item, [*path, i + 1]) for i, item in enumerate(value))
