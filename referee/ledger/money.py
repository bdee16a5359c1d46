"""Exact money: stakes are Decimals, amounts are written to a fixed quantum."""

from __future__ import annotations

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


def quantum_for(stake: Decimal, currency: str | None) -> Decimal:
    """Amounts are written with the stake's decimals, and at least cents when
    the session plays for money."""
    places = max(-stake.normalize().as_tuple().exponent, 0)
    if currency:
        places = max(places, 2)
    return Decimal(1).scaleb(-places)


def fmt(amount: Decimal, quantum: Decimal) -> str:
    q = amount.quantize(quantum)
    if q == 0:
        q = abs(q)
    return format(q, "f")
