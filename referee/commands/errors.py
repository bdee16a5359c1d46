"""The command line's one mapping from errors to exit statuses and words.

Every ``referee`` command that meets a ``RefereeError`` (the engine's, or the
service's domain errors) ends here: the same sentence as the tablet and the
API, after a word for its kind and its code; exit status 1 for a rule broken
(or a session that is not there), 2 for input that cannot be read.
"""

from __future__ import annotations

import json
import sys

from ..service.errors import Locked, MalformedInput, NotFound, RefereeError, RulesError

# The first match wins: subclasses before their bases.
KINDS: tuple[tuple[type[RefereeError], str], ...] = (
    (NotFound, "not found"),
    (Locked, "locked"),
    (RulesError, "unknown rules"),
    (MalformedInput, "malformed log"),
    (RefereeError, "rule broken"),
)


def kind_of(err: RefereeError) -> str:
    return next(kind for cls, kind in KINDS if isinstance(err, cls))


def fail(err: RefereeError, *, as_json: bool = False) -> int:
    """Say what went wrong (on stdout as JSON with ``as_json``, else on stderr);
    returns the command's exit status."""
    if as_json:
        sys.stdout.write(json.dumps({"error": err.to_dict()}, indent=2, ensure_ascii=False)
                         + "\n")
    else:
        print(f"{kind_of(err)} [{err.code}]: {err.message}", file=sys.stderr)
    return 2 if err.exit_status == 2 else 1
