"""Where a running-balance chart draws its lines and what its axis marks,
for every such chart: the season's page (``web.club_pages.chart_svg``) and
paper (``reports.season``) and the settlement paper
(``reports.settlement``), the papers through ``reports.common.running_chart``.
Players who stand alike at a point are drawn apart, so that a reader sees as
many lines as there are players (newcomer N13: six players at 0 drew one
line on the season's chart; the settlement's chart drew two players who
lost alike all night as one). No drawing library: the page imports it with
every request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal


def apart(lines: Mapping[str, Sequence[object]]) -> dict[str, list[float]]:
    """Each player's place among those who stand alike at each point, centred
    on their shared value (-1, 0, 1 for three; 0 alone): the chart draws
    them that many line widths apart, so that every player's line shows
    where lines would lie on each other. Players keep their order (the
    key's)."""
    out: dict[str, list[float]] = {p: [] for p in lines}
    for i in range(min((len(v) for v in lines.values()), default=0)):
        alike: dict[object, list[str]] = {}
        for p, values in lines.items():
            alike.setdefault(values[i], []).append(p)
        for same in alike.values():
            for k, p in enumerate(same):
                out[p].append(k - (len(same) - 1) / 2)
    return out


def ticks(bottom: Decimal, top: Decimal, most: int = 5) -> list[Decimal]:
    """The amounts an axis from ``bottom`` to ``top`` marks: at most ``most``
    round steps (1, 2 or 5 times a power of ten), from the first at or below
    ``bottom`` to the first at or above ``top``, 0 always among them, two at
    least."""
    bottom, top = min(bottom, Decimal(0)), max(top, Decimal(0))
    span = (top - bottom) or Decimal(1)
    raw = span / (most - 1)
    power = Decimal(1).scaleb(raw.adjusted())
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = (bottom / step).to_integral_value(rounding="ROUND_FLOOR") * step
    last = max((top / step).to_integral_value(rounding="ROUND_CEILING") * step, first + step)
    places = Decimal(1).scaleb(min(0, step.normalize().as_tuple().exponent))
    return [(first + k * step).quantize(places)
            for k in range(int((last - first) / step) + 1)]
