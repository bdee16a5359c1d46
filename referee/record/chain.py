"""An exported log's receipt, checked offline (``referee verify LOG``)."""

from __future__ import annotations


class LogChainError(Exception):
    """The log's events do not hash to its head, or its play is not theirs."""


def verify_log(doc: dict) -> str:
    raise LogChainError("this log carries no head (exports do not carry one yet)")
