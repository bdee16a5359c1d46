"""The log format: ``tonk-log/1`` documents in, ``tonk-result/1`` text out.

``reading`` reads a plain log fast, without marshmallow; ``schemas`` checks
and words everything else (and writes documents back); this front door tries
the first and falls back on the second, so every error is worded by the
schemas exactly as before. ``load_log`` gives back plain data that
``dump_log`` writes back unchanged, so an import followed by an export
returns the same document. ``result_text`` writes ``referee replay --json``.
"""

from __future__ import annotations

import json

from ..rules.errors import MalformedInput
from .reading import FORMAT, _plain_log

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FORMAT", "dump_log", "load_hand_setup", "load_log", "parse_log_text",
           "read_log_file", "write_log"]


def load_log(doc: Any) -> dict:
    """Check a decoded ``tonk-log/1`` document's shape; returns it as data."""
    if not isinstance(doc, dict):
        raise MalformedInput("malformed_log", "a session log is a JSON object")
    log = _plain_log(doc)
    if log is None:
        from .schemas import load_checked

        log = load_checked(doc)
    if "brought_forward" in log or "payments" in log:
        from .events import check_session_money

        check_session_money(log)
    return log


def load_hand_setup(doc: Any) -> dict:
    """A hand's setup (``dealer``, ``deal``, ``upcard``, ``players``, ...),
    as the API takes it to start a hand."""
    if not isinstance(doc, dict):
        raise MalformedInput("malformed_log", "a hand is a JSON object")
    from .schemas import load_hand_setup as load

    return load(doc)


def parse_log_text(text: str | bytes) -> dict:
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise MalformedInput("malformed_log", f"the log is not valid JSON: {err}") from None
    return load_log(doc)


def read_log_file(path: str) -> dict:
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError as err:
        raise MalformedInput("malformed_log", f"cannot read {path}: {err.strerror}") from None
    return parse_log_text(text)


def dump_log(log: dict) -> dict:
    """The document for ``log`` (data from ``load_log`` or built by the service)."""
    from .schemas import LOG

    return LOG.dump(log)


def write_log(log: dict) -> str:
    return json.dumps(dump_log(log), indent=2, ensure_ascii=False) + "\n"
