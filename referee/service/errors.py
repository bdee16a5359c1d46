"""The service's domain errors, and the engine's, in one place.

A service function raises one of these; each interface (the JSON API, the
tablet, the command line) maps it to its own status in one handler, and
shows ``message``: the code, the hand and action, and the sentence, the same
words everywhere. Nothing here knows about HTTP.
"""

from __future__ import annotations

from ..rules.errors import IllegalAction, MalformedInput, RefereeError, RulesError, RuleViolation

__all__ = [
    "Closed", "IllegalAction", "Locked", "MalformedInput", "NotFound", "ReadOnly", "RefereeError",
    "Refused", "RuleViolation", "RulesError", "StaleSeq", "TooManyTries",
]


class NotFound(RefereeError):
    """No such session or hand."""


class Closed(RefereeError):
    """The host has closed the table: it takes no more hands, actions, corrections
    or events (``table_closed``); its settlement is final."""


class StaleSeq(RefereeError):
    """The client's ``expected_seq`` is not the hand's number of actions."""


class Locked(RefereeError):
    """The request has no credential for this session, or a wrong one."""


class TooManyTries(Locked):
    """Too many wrong PINs or tokens for this session: no try is checked
    until ``until`` (epoch seconds)."""

    def __init__(self, code: str, message: str, *, until: float) -> None:
        super().__init__(code, message)
        self.until = until

    def __reduce__(self):
        return (_too_many, (self.code, self.message, self.until))


def _too_many(code: str, message: str, until: float) -> TooManyTries:
    return TooManyTries(code, message, until=until)


class ReadOnly(Locked):
    """The credential may read the session but not write to it (the audit token)."""


class Refused(RuleViolation):
    """A refusal told again, in its first words, to a retry of the same request
    (its ``client_id``): the rules may have moved on since, the answer may not."""

    def __init__(self, code: str, message: str, *, hand: int | None = None,
                 action: int | None = None, action_text: str | None = None) -> None:
        # ``message`` already says where (and ``action_text``): kept as it is.
        super().__init__(code, message, hand=hand, action=action)
        self._message = message

    @property
    def message(self) -> str:
        return self._message

    @classmethod
    def from_dict(cls, error: dict) -> Refused:
        return cls(error["code"], error["message"], hand=error["hand"],
                   action=error["action"])
