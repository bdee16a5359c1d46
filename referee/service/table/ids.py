"""A session's id: what one looks like, stated where ids are made and read
by the same rule, so that a command can tell an id from a file's name
(``referee settle ID``) as the service makes it. Light on purpose (the
standard library alone): the command line imports it before anything else."""

from __future__ import annotations

import re
import secrets

_BYTES = 6  # 12 hex digits: 2**48 ids, ample for one club's tables, short to type
SESSION_ID = re.compile(f"[0-9a-f]{{{2 * _BYTES}}}")


def new_session_id() -> str:
    """A fresh session id: ``SESSION_ID``'s shape, random."""
    return secrets.token_hex(_BYTES)


def is_session_id(text: str) -> bool:
    """``text`` has the shape of an id the service makes (it may name no table)."""
    return SESSION_ID.fullmatch(text) is not None
