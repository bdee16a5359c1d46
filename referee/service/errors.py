"""The service's domain errors, and the engine's, in one place.

A service function raises one of these; each interface (the JSON API, the
tablet, the command line) maps it to its own status in one handler, and
shows ``message``: the code, the hand and action, and the sentence, the same
words everywhere. Nothing here knows about HTTP.
"""

from __future__ import annotations

import math
import time

from ..rules.errors import (
    IllegalAction,
    MalformedInput,
    NoSuchHand,
    RefereeError,
    RulesError,
    RuleViolation,
)
from ..rules.words import Phrases, params_from_plain, params_to_plain

__all__ = [
    "AlreadyStored", "Ambiguous", "ClientIdReused", "Closed", "IllegalAction", "Locked",
    "MalformedInput", "NoSuchHand", "NotFound", "NotYourSeat", "ReadOnly", "RefereeError",
    "Refused", "RuleViolation", "RulesError", "StaleSeq", "TooManyTries",
]


class Ambiguous(MalformedInput):
    """More than one thing answers what was asked: the caller must say which
    (``several_currencies``). Exit status 2, as a missing argument's."""


class NotFound(RefereeError):
    """No such session or hand."""


class Closed(RefereeError):
    """The host has closed the table: it takes no more hands, actions, corrections
    or events (``table_closed``); its settlement is final."""


class AlreadyStored(RefereeError):
    """An import of a night stored already (``already_stored``): stored
    again, its hands and debts would count twice (``table.once``)."""


class ClientIdReused(RefereeError):
    """A client_id sent again for another request than the one it first
    answered (``client_id_reused``): the first answer says nothing of this one."""


class StaleSeq(RefereeError):
    """The client's ``expected_seq`` is not the hand's number of actions."""


class Locked(RefereeError):
    """The request has no credential for this session, or a wrong one."""


class TooManyTries(Locked):
    """Too many wrong PINs or tokens for this session: no try is checked
    until ``until`` (epoch seconds)."""

    def __init__(self, code: str, template: str, params: dict | None = None, *,
                 until: float) -> None:
        super().__init__(code, template, params)
        self.until = until

    def retry_after(self) -> int:
        """Whole seconds until a try is taken again (an answer's Retry-After)."""
        return max(1, math.ceil(self.until - time.time()))

    def __reduce__(self):
        return (_too_many, (self.code, self.template, self.params, self.until))


def _too_many(code: str, template: str, params: dict, until: float) -> TooManyTries:
    return TooManyTries(code, template, params, until=until)


class ReadOnly(Locked):
    """The credential may read the session but not write to it (the audit token)."""


class NotYourSeat(ReadOnly):
    """A seat's or the viewer's link asked for what only the host, or another
    player's seat, may do (``not_your_seat``)."""


class Refused(RuleViolation):
    """A refusal told again, in its first words, to a retry of the same request
    (its ``client_id``): the rules may have moved on since, the answer may not.

    Stored with its template and parameters, so a retry reads it in its own
    language; an answer stored before that (English only) keeps its one
    ``message`` in every language."""

    def __init__(self, code: str, template: str, params: dict | None = None, *,
                 hand: int | None = None, action: int | None = None,
                 action_text: str | None = None, message: str | None = None) -> None:
        super().__init__(code, template, params, hand=hand, action=action,
                         action_text=action_text)
        self._message = message

    @property
    def message_words(self) -> Phrases:
        # Stored in English only, ``message`` says where already (and the action).
        return super().message_words if self._message is None else Phrases([self._message])

    @property
    def worded(self) -> bool:
        """Whether the refusal can be said again in another language."""
        return self._message is None

    def to_stored(self) -> dict:
        """``to_dict`` and what it takes to word the refusal again."""
        if not self.worded:
            return self.to_dict()
        return {**self.to_dict(), "template": self.template,
                "params": params_to_plain(self.params), "action_text": self.action_text}

    @classmethod
    def of(cls, err: RefereeError) -> Refused:
        return cls(err.code, err.template, err.params, hand=err.hand, action=err.action,
                   action_text=err.action_text)

    @classmethod
    def from_dict(cls, error: dict) -> Refused:
        if "template" in error:
            return cls(error["code"], error["template"], params_from_plain(error["params"]),
                       hand=error["hand"], action=error["action"],
                       action_text=error.get("action_text"))
        # ``message`` already says where (and the action's text): kept as it is.
        return cls(error["code"], error["message"], hand=error["hand"],
                   action=error["action"], message=error["message"])
