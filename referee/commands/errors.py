"""The command line's one mapping from errors to exit statuses and words.

Every ``referee`` command that meets a ``RefereeError`` (the engine's, or the
service's domain errors) ends here: the same sentence as the tablet and the
API, after a word for its kind and its code; exit status 1 for a rule broken
(or a session that is not there), 2 for input that cannot be read. The words
are in the language asked for (``--lang``, else the log's own, else English);
the code is the same in every language.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..rules.cards import message_shown
from ..rules.numbers import whole
from ..rules.words import N_
from ..service.errors import (
    AlreadyStored,
    Ambiguous,
    Locked,
    MalformedInput,
    NoSuchHand,
    NotFound,
    RefereeError,
    RulesError,
)

# The first match wins: subclasses before their bases.
KINDS: tuple[tuple[type[RefereeError], str], ...] = (
    (NotFound, N_("not found")),
    (Locked, N_("locked")),
    (AlreadyStored, N_("already stored")),
    (RulesError, N_("unknown rules")),
    (NoSuchHand, N_("no such hand")),  # the argument is wrong, not the log
    (Ambiguous, N_("ambiguous")),
    (MalformedInput, N_("malformed log")),
    (RefereeError, N_("rule broken")),
)


def kind_of(err: RefereeError) -> str:
    return next(kind for cls, kind in KINDS if isinstance(err, cls))


def fail(err: RefereeError, *, as_json: bool = False, lang: str | None = None) -> int:
    """Say what went wrong (on stdout as JSON with ``as_json``, else on stderr),
    in ``lang`` (English if None); returns the command's exit status."""
    # The result format's words (log-format.md) on stdout; a person reads the
    # cards on stderr as the pages write them.
    kind, message = kind_of(err), err.message if as_json else message_shown(err)
    if lang and lang != "en":  # babel is imported only to speak another language
        from .. import language

        kind, message = language.gettext(lang, kind), language.message(err, lang)
    if as_json:
        sys.stdout.write(json.dumps({"error": {**err.to_dict(), "message": message}},
                                    indent=2, ensure_ascii=False) + "\n")
    else:
        print(f"{kind} [{err.code}]: {message}", file=sys.stderr)
    return 2 if err.exit_status == 2 else 1


def log_language(doc: object, path: str) -> str | None:
    """The table's language of a log that was refused, as written (``doc``:
    the log's document, if it could be decoded), if it names one we speak."""
    from ..rules.words import LANGUAGES

    if doc is None:
        from ..record import read_file

        try:
            doc = json.loads(read_file(path))
        except (RefereeError, ValueError, RecursionError):
            return None
    named = doc.get("language") if isinstance(doc, dict) else None
    return named if named in LANGUAGES else None


def whole_argument(text: str) -> int:
    """A command's whole-number argument (``--hand``, ``--port``): ASCII
    digits only, as everywhere else; argparse says what was wrong (exit 2)."""
    number = whole(text)
    if number is None:
        raise argparse.ArgumentTypeError(f"a whole number in digits 0-9, not {text!r}")
    return number
