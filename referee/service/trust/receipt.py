"""A receipt's head (``referee verify --head``, with or without
``--session``) checked against the file, and the answer said as far as the
file can tell (newcomer 45's P1).

A head in no chain of the file cannot tell a typo, or another database's
head, from a chain cut or written again: the answer says it is not here and
what to check, and claims a rewrite only where the file itself still names
the head (an event linked to it, the anchor of the database's end) while no
event holds it. A head of another session is said to be that session's.
Each answer but "held" is "not verified" (docs/decisions.md, verify45).
"""

from __future__ import annotations

from typing import NamedTuple

from ...rules.words import N_, Words
from .. import storage
from ..storage import Database

HELD_BY_SESSION = N_("the session's chain still holds the head {head}")
HELD = N_("the database still holds the head {head}")
OTHER_SESSIONS = N_("the head {head} is session {other}'s, not this one's: check the table it "
                    "came from")
GONE = N_("the head {head} was in this database and is gone: events were removed or "
          "rewritten since it was taken")
NOWHERE = N_("no session here has the head {head}: check its digits and the table it came "
             "from")


class Answer(NamedTuple):
    held: bool
    words: Words


def check(db: Database, head: str, sid: str | None = None) -> Answer:
    """Whether the session ``sid``'s chain (else the database) holds
    ``head`` (64 hex digits, or its first ones as a paper prints them), and
    the sentence that says so or says why not."""
    holders = storage.chain.holders(db, head)
    if any(sid is None or owner == sid for owner, _ in holders):
        return Answer(True, Words(HELD if sid is None else HELD_BY_SESSION, head=head))
    if len(holders) == 1:
        return Answer(False, Words(OTHER_SESSIONS, head=holders[0][1], other=holders[0][0]))
    if storage.chain.still_named(db, head):
        return Answer(False, Words(GONE, head=head))
    return Answer(False, Words(NOWHERE, head=head))
