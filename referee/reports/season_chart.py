"""What the season's running-balance chart says beside its lines, for the
page's (inline SVG, ``web.club_pages.chart_svg``) and the paper's
(``reports.season``) alike: each player's balance after each session and
each session's label (where alike players' lines go and the amounts the axis
marks: ``reports.chart_lines``, every running chart's). No drawing library:
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
