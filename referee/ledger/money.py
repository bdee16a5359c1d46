"""Exact money: stakes are Decimals, amounts are written to a fixed quantum."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal, InvalidOperation


def parse_stake(value: object) -> Decimal:
    """A session's base stake (decimal string or number, greater than 0)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Decimal)):
        raise ValueError(f"stake must be a decimal number like \"0.25\", not {value!r}")
    try:
        d = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError(f"stake must be a decimal number like \"0.25\", not {value!r}") from None
    if not d.is_finite() or d <= 0:
        raise ValueError(f"stake must be greater than 0, not {value!r}")
    return d


def _places(d: Decimal) -> int:
    return max(-d.normalize().as_tuple().exponent, 0)


def quantum_for(stake: Decimal, currency: str | None, amounts: Iterable[Decimal] = ()) -> Decimal:
    """Amounts are written with the decimals that stake x payment needs (so a
    half-stake payment at 0.25 is 0.125, not rounded), and at least cents when
    the session plays for money. ``amounts``: the payments the rules can make,
    in stakes."""
    places = _places(stake) + max((_places(a) for a in amounts), default=0)
    if currency:
        places = max(places, 2)
    return Decimal(1).scaleb(-places)


# Hands' nets take few distinct values: each is written once, then looked up,
# by its text (a Decimal's hash costs more than writing it), in a table for
# each quantum's text (0.01 and 0.010 are equal but write differently).
_WRITTEN: dict[str, dict[str, str]] = {}


def written_amounts(quantum: Decimal) -> dict[str, str]:
    """The amounts written to ``quantum`` so far, by ``str(amount)``: a
    look-up there is ``fmt`` without a call, for a caller writing many."""
    try:
        return _WRITTEN[str(quantum)]
    except KeyError:
        return _WRITTEN.setdefault(str(quantum), {})


def fmt(amount: Decimal, quantum: Decimal) -> str:
    """``amount`` written to ``quantum`` (``-0`` as ``0``)."""
    written = written_amounts(quantum)
    key = str(amount)
    try:
        return written[key]
    except KeyError:
        pass
    q = amount.quantize(quantum)
    if q == 0:
        q = abs(q)
    text = format(q, "f")
    if len(written) < 10_000:
        written[key] = text
    return text
