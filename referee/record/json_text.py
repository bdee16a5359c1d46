"""Why a text is not JSON, said where it breaks and in words the catalogs
carry (newcomer 45's P7): the decoder's own sentence ("Expecting ','
delimiter: line 1 column 41 (char 40)") was English in every language, and
a body cut short did not say so.
"""

from __future__ import annotations

import json

from ..rules.errors import MalformedInput
from ..rules.words import N_, Words

# What CPython's JSON decoder says (the start of ``JSONDecodeError.msg``), as
# the referee says it.
_PROBLEMS = {
    "Expecting value": N_("a value is missing"),
    "Expecting property name enclosed in double quotes": N_("a name in double quotes is "
                                                            "missing"),
    "Expecting ':' delimiter": N_("a ':' is missing"),
    "Expecting ',' delimiter": N_("a ',' is missing"),
    "Unterminated string starting at": N_("a string that opens here is never closed"),
    "Invalid control character at": N_("a control character stands inside a string"),
    "Invalid \\uXXXX escape": N_("a \\u escape is not four hex digits"),
    "Invalid \\escape": N_("a \\ escape is not one JSON knows"),
    "Extra data": N_("more text follows the JSON value"),
}
# A problem met where the text ends: the text was cut short.
_AT_THE_END = {"Expecting value", "Expecting property name enclosed in double quotes",
               "Expecting ':' delimiter", "Expecting ',' delimiter"}

NOT_JSON = N_("{what} is not valid JSON: {error}")  # another encoding: the decoder's words
BREAKS = N_("{what} is not valid JSON: {problem} (line {line}, column {column})")
CUT = N_("{what} is not valid JSON: it ends before the JSON does, at line {line}, column "
         "{column}: it was cut short")


def not_json(err: ValueError, what: Words) -> MalformedInput:
    """The refusal of a text the decoder could not read (``err``)."""
    if isinstance(err, json.JSONDecodeError):
        known = next((k for k in _PROBLEMS if err.msg.startswith(k)), None)
        if known is not None:
            if known in _AT_THE_END and not err.doc[err.pos:].strip():
                return MalformedInput("malformed_log", CUT, {"what": what, "line": err.lineno,
                                                             "column": err.colno})
            return MalformedInput("malformed_log", BREAKS, {
                "what": what, "problem": Words(_PROBLEMS[known]), "line": err.lineno,
                "column": err.colno})
    return MalformedInput("malformed_log", NOT_JSON, {"what": what, "error": str(err)})
