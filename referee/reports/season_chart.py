"""What the season's running-balance chart says beside its lines, for the
page's (inline SVG, ``web.club_pages.chart_svg``) and the paper's
(``reports.season``) alike: each session's label, where players who stand
alike are drawn apart, and the amounts its axis marks. No drawing library:
the page imports it with every request.

Newcomer N13: an evening of three tables read "11/29 11/29 11/29", six
players at 0 drew one line, and the page's axis marked no amount.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal

from .. import language


def balances(running: Sequence[Mapping], *, from_zero: bool = False,
             ) -> dict[str, list[Decimal]]:
    """Each player's balance after each session (``from_zero``: and 0 before
    the first), by name; one who has not played yet stands where they last
    stood (0 before their first session)."""
    people = sorted({p for point in running for p in point["balances"]})
    out: dict[str, list[Decimal]] = {p: [Decimal(0)] for p in people}
    for point in running:
        for p in people:
            out[p].append(Decimal(point["balances"].get(p, out[p][-1])))
    return out if from_zero else {p: line[1:] for p, line in out.items()}


def session_labels(running: Sequence[Mapping], lang: str) -> list[str]:
    """Each session's label under the chart: its day in the reader's form,
    and on a second line the hour its table opened (on the table's clock)
    where the season has more than one session that day."""
    days = Counter(point["date"] for point in running)
    out = []
    for point in running:
        label = language.short_day(point["date"], lang)
        if days[point["date"]] > 1 and point.get("started"):
            try:
                label += "\n" + language.short_time(point["started"], lang)
            except ValueError:  # an older log's free text: the day alone
                pass
        out.append(label)
    return out


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
