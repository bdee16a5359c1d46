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
import math

import orjson

from ..rules.errors import MalformedInput
from ..rules.words import N_, Words
from .document import MAX_DEPTH, check_document
from .reading import FORMAT, _plain_log, setup_of

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FORMAT", "MAX_DEPTH", "MAX_LOG_BYTES", "check_document", "dump_log",
           "load_hand_setup", "load_log", "parse_json", "parse_log_text", "read_file",
           "read_log", "read_log_file", "setup_of", "write_log"]


def load_log(doc: Any) -> dict:
    """Check a decoded ``tonk-log/1`` document's shape; returns it as data."""
    return read_log(doc)[0]


def read_log(doc: Any) -> tuple[dict, bool]:
    """``load_log``'s answer, and whether the log was read plainly: every
    field and hand it keeps is the document's own, as written."""
    if not isinstance(doc, dict):
        raise MalformedInput("malformed_log", N_("a session log is a JSON object"))
    if "head" in doc or "chain" in doc:
        # An export's receipt (referee.record.chain): for `referee verify LOG`,
        # not part of the play.
        doc = {k: v for k, v in doc.items() if k not in ("head", "chain")}
    log = _plain_log(doc)
    plain = log is not None
    if log is not None and isinstance(log.get("rules"), dict):
        check_document(log["rules"], ["rules"])  # the one field of a plain log of any depth
    if log is None:
        # The hands are walked one at a time as the schema reads them, up to
        # the first at fault (schemas.HandsField): a million of them is not
        # walked before the first is refused.
        hands = doc.get("hands")
        check_document({k: v for k, v in doc.items() if k != "hands"}
                       if type(hands) is list else doc)
        from .schemas import load_checked

        log = load_checked(doc)
        _check_told_hands(log)  # a plain log has no told hands
    if "brought_forward" in log or "payments" in log or "carried_forward" in log:
        from .events import check_session_money

        check_session_money(log)
    return log, plain


def _check_told_hands(log: dict) -> None:
    """Hands told by their ending (quick logging), read here so that a
    malformed one is refused before any hand is replayed."""
    hands = log.get("hands") or ()
    if not any("ending" in hand for hand in hands):
        return
    from ..rules.told import check_told_hand

    for i, hand in enumerate(hands, 1):
        if "ending" in hand:
            try:
                check_told_hand(hand)
            except MalformedInput as err:
                raise err.at(hand=i) from None


def load_hand_setup(doc: Any) -> dict:
    """A hand's setup (``dealer``, ``deal``, ``upcard``, ``players``, ...),
    as the API takes it to start a hand."""
    if not isinstance(doc, dict):
        raise MalformedInput("malformed_log", N_("a hand is a JSON object"))
    from .schemas import load_hand_setup as load

    return load(doc)


THE_LOG = Words(N_("the log"))
THE_BODY = Words(N_("the body"))
# A text of nothing but blanks, said as such with what to send instead: the
# decoder's "cut short at line 1, column 1" told a client who sent no body,
# or a file that was never written, to look for a missing end (newcomer 46).
_EMPTY = {THE_LOG.template: N_("the log is empty: a log is a JSON object, like {example}"),
          THE_BODY.template: N_("the request has no body: send a JSON object, with the "
                                "header Content-Type: application/json")}
_JSON_BLANKS = b" \t\n\r"


_MISSING = object()
# Every digit as "0", every other byte as ".": a run of 20 digits is then a
# plain substring search. A regular expression for the same run took 44 ms of
# a 10,000-hand replay's 700 (it tries a match at every byte); this takes 2.
_DIGITS_ONLY = bytes(0x30 if 0x30 <= b <= 0x39 else 0x2E for b in range(256))
_LONG_RUN = b"0" * 20


def _long_number(raw: bytes) -> bool:
    """Whether ``raw`` holds a run of 20 digits (a number orjson would read
    as a float; a string's digits are counted too, which only costs time)."""
    return _LONG_RUN in raw.translate(_DIGITS_ONLY)


class WrittenNumber(float):
    """A JSON number no double holds (``1e400``), or JavaScript's
    ``Infinity`` and ``NaN`` that ``json`` reads: the float read (an
    infinity), written as it was sent, so that a refusal quotes what was
    typed ("at most 1000000, not "1e400""), never an "inf" nobody typed."""

    text: str

    def __new__(cls, text: str) -> WrittenNumber:
        number = super().__new__(cls, text)
        number.text = text
        return number

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


def _number(text: str) -> float:
    number = float(text)
    return number if math.isfinite(number) else WrittenNumber(text)


def parse_json(text: str | bytes, what: Words = THE_LOG) -> Any:
    """JSON text as data, or ``MalformedInput``; text escaping a surrogate is
    walked for a lone one (only then: a long log's every string is not).
    orjson reads a 10,000-hand import in under half of ``json.loads``'s time;
    what it refuses (NaN, a lone surrogate, depth, another encoding) goes to
    ``json.loads``, whose answer or error stands, and so does text with a run
    of 20 digits (orjson makes an integer past 64 bits a float)."""
    doc = _MISSING
    raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if not raw.strip(_JSON_BLANKS):
        raise MalformedInput("malformed_log", _EMPTY[what.template],
                             {"example": '{"format": "tonk-log/1", ...}'})
    if not _long_number(raw):
        try:
            doc = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    try:
        if doc is _MISSING:
            doc = json.loads(text, parse_float=_number, parse_constant=_number)
    except (ValueError, UnicodeDecodeError) as err:
        from .json_text import not_json  # where it breaks, said (newcomer 45's P7)

        raise not_json(err, what) from None
    except RecursionError:
        raise MalformedInput("malformed_log", N_("{what} is nested more than {depth} deep"),
                                              {"what": what, "depth": MAX_DEPTH}) from None
    if b"\\ud" in raw or b"\\uD" in raw:
        check_document(doc)
    return doc


def parse_log_text(text: str | bytes) -> dict:
    return load_log(parse_json(text))


#: The longest log file the command line reads: a 200,000-hand log is about
#: 175 MB; a file past this (or a device that never ends, /dev/zero) is
#: refused once this much has been read, not read until memory runs out.
MAX_LOG_BYTES = 256 * 1024 * 1024


def read_file(path: str) -> bytes:
    """A log file's bytes, at most ``MAX_LOG_BYTES`` of them; else ``MalformedInput``."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_LOG_BYTES + 1)
    except OSError as err:
        raise MalformedInput("malformed_log", N_("cannot read {path}: {error}"),
                                              {"path": path, "error": err.strerror}) from None
    if len(text) > MAX_LOG_BYTES:
        raise MalformedInput("log_too_large", N_("{path} is longer than {most} MB, the most "
                                                 "a log may be"),
                             {"path": path, "most": MAX_LOG_BYTES // (1024 * 1024)})
    return text


def read_log_file(path: str) -> dict:
    return parse_log_text(read_file(path))


def dump_log(log: dict) -> dict:
    """The document for ``log`` (data from ``load_log`` or built by the service)."""
    from .schemas import LOG

    return LOG.dump(log)


def write_log(log: dict) -> str:
    return json.dumps(dump_log(log), indent=2, ensure_ascii=False) + "\n"
