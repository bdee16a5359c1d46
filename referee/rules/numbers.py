"""Whole numbers as a table writes them: ASCII digits, and no others.

``str.isdigit()`` is true of ``²`` and of ``١`` (Arabic-Indic one), and
``int()`` refuses the first (a ValueError no caller expected: a 500) and
reads the second as 1 (``S١`` taken as spread 1). Every number read from
input (a query argument, a header, an action's text, a log, a form field, a
command's argument) is read here, once, the same way.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import TypeGuard

#: Digits a whole number read from input may have, unless its caller says:
#: an 8-byte signed integer holds every 18-digit number, which every stored
#: number (sequences, hands, counts) fits in.
MOST_DIGITS = 18


def is_whole(text: object, most: int = MOST_DIGITS) -> TypeGuard[str]:
    """Whether ``text`` is 1 to ``most`` ASCII digits, nothing else."""
    return isinstance(text, str) and 0 < len(text) <= most and text.isascii() \
        and text.isdigit()


def whole(text: object, most: int = MOST_DIGITS) -> int | None:
    """The whole number ``text`` writes in 1 to ``most`` ASCII digits; None
    if it is anything else (empty, a sign, a space, another script's digit,
    too long)."""
    return int(text) if is_whole(text, most) else None


def decimal(text: object) -> Decimal | None:
    """A decimal number written in ASCII (``Decimal`` reads ``١٠`` as 10), as
    ``Decimal`` reads it otherwise; None if it cannot be read. Not checked
    for being finite: the callers say what they refuse and why."""
    if isinstance(text, bool) or not isinstance(text, (str, int, float, Decimal)):
        return None
    written = str(text).strip()
    if not written.isascii():
        return None
    try:
        return Decimal(written)
    except (InvalidOperation, ValueError):
        return None
