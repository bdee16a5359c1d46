"""The season PDF: each player's numbers over a date range and the chart of
their running balance, session after session (``service.club.season``'s
document, so the page, the API and the paper say the same)."""

from __future__ import annotations

import io

from reportlab.graphics.shapes import Drawing
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from .. import language
from ..language import N_
from .common import (
    FONT,
    FONT_BOLD,
    clip,
    document,
    esc,
    footer,
    plurals,
    running_chart,
    styles,
    words,
)
from .settlement import outcome_words

# Two-line headings: eleven columns share a portrait page.
COLUMNS = (N_("Player"), N_("Hands"), N_("Wins"), N_("Drops"), N_("Drops\nwon (rate)"),
           N_("Caught"), N_("Tonk-\nouts"), N_("Deal\nwins"), N_("Average\nshow"), N_("Won"),
           N_("Lost"))


def _number(value: object, lang: str) -> str:
    """A figure of the season document (a decimal string, or a count) in
    ``lang``'s form, keeping its places."""
    from decimal import Decimal, InvalidOperation

    from .common import amount

    if value is None or value == "":
        return ""
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    return amount(d, Decimal(1).scaleb(min(0, d.as_tuple().exponent)), lang)


def render_season(season: dict, lang: str = language.DEFAULT) -> bytes:
    _ = words(lang)
    ngettext = plurals(lang)
    st = styles()
    buf = io.BytesIO()
    start = language.day(season["from"], lang) if season["from"] else _("the first table")
    end = language.day(season["to"], lang) if season["to"] else _("the last")
    span = _("{start} to {end}", start=start, end=end)
    doc = document(buf, title=_("Season"), subject=_("The club's season, {span}", span=span),
                   kind="season")
    width = doc.width
    story = [Paragraph(_("The season"), st["title"]),
             Paragraph(esc(ngettext("{span} · {n} session · amounts in {currency} (positive: won)",
                                    "{span} · {n} sessions · amounts in {currency} "
                                    "(positive: won)", season["sessions"],
                                    span=span, currency=season["currency"])),
                       st["body"])]
    rows = [[language.gettext(lang, c) for c in COLUMNS]]
    for name, p in season["players"].items():
        rate = (f"{p['drops_won']} ({_number(p['drop_win_rate'], lang)})" if p["drops"]
                else "0")
        rows.append([clip(name, 32 * mm), p["hands"], sum(p["wins"].values()), p["drops"],
                     rate, p["caught"], p["tonk_outs"], p["deal_wins"],
                     _number(p["average_show"], lang), _number(p["won"], lang),
                     _number(p["lost"], lang)])
    rest = (width - 34 * mm - 22 * mm) / (len(COLUMNS) - 2)
    widths = [34 * mm, rest, rest, rest, 22 * mm, *[rest] * (len(COLUMNS) - 5)]
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#F2F2F2")]),
    ]))
    story += [Paragraph(_("Each player"), st["h2"]), table]
    wins = [[_("Player"), *(outcome_words(o, lang) for o in _endings(season))]]
    for name, p in season["players"].items():
        wins.append([clip(name, 32 * mm), *(p["wins"][o] for o in _endings(season))])
    if len(wins) > 1:
        t = Table(wins, repeatRows=1)
        t.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 8),
                               ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
                               ("ALIGN", (1, 0), (-1, -1), "RIGHT")]))
        story += [Paragraph(_("Wins by ending"), st["h2"]), t]
    if season["running"]:
        story += [Paragraph(_("Running balance after each session"), st["h2"]),
                  _chart(season, width, lang), Spacer(1, 4)]
    h2h = season.get("head_to_head")
    if h2h:
        a, b = h2h["players"]
        story += [Paragraph(esc(_("{a} against {b}", a=a, b=b)), st["h2"]),
                  Paragraph(esc(ngettext("{n} hand together.", "{n} hands together.",
                                         h2h["hands"])
                                + " " + _("{first} won {won} from {second} ({wins} hands "
                                          "won).", first=a, second=b, wins=h2h["wins"][a],
                                          won=_number(h2h["won_from"][a], lang))
                                + " " + _("{first} won {won} from {second} ({wins} hands "
                                          "won).", first=b, second=a, wins=h2h["wins"][b],
                                          won=_number(h2h["won_from"][b], lang))),
                            st["body"])]
    page = footer(_("Tonk referee · season {span}", span=span), lang)
    doc.build(story, onFirstPage=page, onLaterPages=page)
    return buf.getvalue()


def _endings(season: dict) -> list[str]:
    first = next(iter(season["players"].values()), None)
    return list(first["wins"]) if first else []


def _chart(season: dict, width: float, lang: str) -> Drawing:
    _ = words(lang)
    height = 62 * mm
    legend_w = 40 * mm
    running = season["running"]
    people = sorted({p for point in running for p in point["balances"]})
    # Each line starts at 0 before the first session, and each session is a
    # dot: a season of one session is a line and a dot, not an empty chart.
    lines: dict[str, list[tuple[int, float]]] = {p: [(0, 0.0)] for p in people}
    last = dict.fromkeys(people, 0.0)
    for i, point in enumerate(running, 1):
        for p in people:
            last[p] = float(point["balances"].get(p, last[p]))
            lines[p].append((i, last[p]))
    d, plot = running_chart(lines, width, height, legend_w, _("session"))
    for i in range(len(people)):
        plot.lines[i].symbol = makeMarker("FilledCircle", size=3.5)
    xa = plot.xValueAxis
    xa.valueMin, xa.valueMax = 0, max(1, len(running))
    xa.valueSteps = list(range(1, len(running) + 1))
    xa.labelTextFormat = lambda v: running[int(v) - 1]["date"][5:] if 1 <= v <= len(
        running) else ""
    return d
