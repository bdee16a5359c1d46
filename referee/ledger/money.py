"""Exact money: stakes are Decimals, amounts are written to a fixed quantum."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from functools import lru_cache

from ..rules.numbers import decimal
from ..rules.words import N_, Words

# The bounds of every stake and multiplier, stated once: the log's schema, the
# API's OpenAPI document and docs/decisions.md are derived from them. Beyond
# them amounts stop being money (1e26 overflowed the decimal context of a
# hand's settlement and left the table unable to finish a hand).
MAX_STAKE = Decimal(1_000_000)
STAKE_PLACES = 4
MAX_MULTIPLIER = 100
# Amounts written by the table itself (balances brought forward, payments):
# far beyond any table, and within the 28 digits Decimal keeps exactly.
MAX_AMOUNT = Decimal(10**12)


def amount_fault(d: Decimal) -> Words | None:
    """Why an amount written in a log is out of bounds (None: it is not)."""
    if abs(d) > MAX_AMOUNT:
        return Words(N_("an amount is at most {most} in size, not {amount}"), most=MAX_AMOUNT,
                     amount=d)
    if _places(d) > STAKE_PLACES:
        return Words(N_("an amount has at most {places} decimal places, not {amount}"),
                     places=STAKE_PLACES, amount=d)
    return None


def parse_stake(value: object) -> Decimal:
    """A stake (decimal string or number, greater than 0, at most ``MAX_STAKE``
    with at most ``STAKE_PLACES`` decimal places). A ``ValueError`` says why
    not in its one argument, ``Words``."""
    typed = str(value)
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Decimal)):
        raise ValueError(Words(POSITIVE_DECIMAL, example=STAKE_EXAMPLE, value=typed))
    d = decimal(value)
    if d is None or not d.is_finite() or d <= 0:
        raise ValueError(Words(POSITIVE_DECIMAL, example=STAKE_EXAMPLE, value=typed))
    if d > MAX_STAKE:
        raise ValueError(Words(N_('at most {most}, not "{value}"'), most=MAX_STAKE, value=typed))
    if _places(d) > STAKE_PLACES:
        raise ValueError(Words(N_('at most {places} decimal places, not "{value}"'),
                               places=STAKE_PLACES, value=typed))
    return d


#: What a decimal field of a form or a log takes, after its field's name
#: ("Stake per unit: ..."): the example a ``Decimal``, so that each language
#: writes it as its readers type one ("0,25" in French), as the field's hint
#: does; the value as it was typed, in the language's quotes.
POSITIVE_DECIMAL = N_('a decimal greater than 0, like {example}, not "{value}"')
STAKE_EXAMPLE = Decimal("0.25")


def _places(d: Decimal) -> int:
    return places_written(d.normalize())


def places_written(d: Decimal) -> int:
    """The decimal places ``d`` is written with (3.50: 2, 1E+2: 0)."""
    exponent = d.as_tuple().exponent  # a letter for an infinity or a NaN, which has none
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def quantum_for(stake: Decimal, currency: str | None, amounts: Iterable[Decimal] = ()) -> Decimal:
    """Amounts are written with the decimals that stake x payment needs (so a
    half-stake payment at 0.25 is 0.125, not rounded), and at least cents when
    the session plays for money. ``amounts``: the payments the rules can make,
    in stakes."""
    places = _places(stake) + max((_places(a) for a in amounts), default=0)
    if currency:
        places = max(places, 2)
    return Decimal(1).scaleb(-places)


def amounts_currency(currency: str | None, scoring: str) -> str | None:
    """The currency a table's amounts are in; None: they are points. A table
    without a currency plays for points; a push-up table's amounts are
    scores, which go up by counts (points), never money, whatever currency
    its log names (docs/decisions.md, "Settlement")."""
    return None if scoring == "push_ups" else currency or None


def unsigned(q: Decimal) -> Decimal:
    """``-0`` as ``0``: nothing owed has no sign, in a column of money or a
    sentence (every writer of an amount, plain or in a language, asks here)."""
    return abs(q) if q == 0 else q


def fmt(amount: Decimal, quantum: Decimal) -> str:
    """``amount`` written to ``quantum`` (``-0`` as ``0``)."""
    return written(str(amount), str(quantum))


# Hands' nets take few distinct values: each is written once, then looked up
# by its text (a Decimal's hash costs more than writing it). Keyed by the
# quantum's text too: 0.01 and 0.010 are equal but write differently.
@lru_cache(maxsize=10_000)
def written(amount: str, quantum: str) -> str:
    """``fmt`` of amounts given as text (for a writer that has the texts)."""
    return format(unsigned(Decimal(amount).quantize(Decimal(quantum))), "f")
