"""The season PDF: each player's numbers over a date range and the chart of
their running balance, session after session (``service.club.season``'s
document, so the page, the API and the paper say the same)."""

from __future__ import annotations

import io

from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from .common import FONT, FONT_BOLD, clip, document, esc, footer, running_chart, styles

# Two-line headings: eleven columns share a portrait page.
COLUMNS = ("Player", "Hands", "Wins", "Drops", "Drops\nwon (rate)", "Caught", "Tonk-\nouts",
           "Deal\nwins", "Average\nshow", "Won", "Lost")


def render_season(season: dict) -> bytes:
    st = styles()
    buf = io.BytesIO()
    span = f"{season['from'] or 'the first table'} to {season['to'] or 'the last'}"
    doc = document(buf, title="Season", subject=f"The club's season, {span}", kind="season")
    width = doc.width
    story = [Paragraph("The season", st["title"]),
             Paragraph(esc(f"{span} · {season['sessions']} session(s) · amounts in "
                           f"{season['currency']} (positive: won)"), st["body"])]
    rows = [list(COLUMNS)]
    for name, p in season["players"].items():
        rate = f"{p['drops_won']} ({p['drop_win_rate']})" if p["drops"] else "0"
        rows.append([clip(name, 32 * mm), p["hands"], sum(p["wins"].values()), p["drops"],
                     rate, p["caught"], p["tonk_outs"], p["deal_wins"],
                     p["average_show"] or "", p["won"], p["lost"]])
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
    story += [Paragraph("Each player", st["h2"]), table]
    wins = [["Player", *(o.replace("_", " ") for o in _endings(season))]]
    for name, p in season["players"].items():
        wins.append([clip(name, 32 * mm), *(p["wins"][o] for o in _endings(season))])
    if len(wins) > 1:
        t = Table(wins, repeatRows=1)
        t.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 8),
                               ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
                               ("ALIGN", (1, 0), (-1, -1), "RIGHT")]))
        story += [Paragraph("Wins by ending", st["h2"]), t]
    if season["running"]:
        story += [Paragraph("Running balance after each session", st["h2"]),
                  _chart(season, width), Spacer(1, 4)]
    h2h = season.get("head_to_head")
    if h2h:
        a, b = h2h["players"]
        story += [Paragraph(esc(f"{a} against {b}"), st["h2"]),
                  Paragraph(esc(f"{h2h['hands']} hand(s) together: {a} won {h2h['wins'][a]} "
                                f"({h2h['net'][a]}), {b} won {h2h['wins'][b]} "
                                f"({h2h['net'][b]})."), st["body"])]
    page = footer(f"Tonk referee · season {span}")
    doc.build(story, onFirstPage=page, onLaterPages=page)
    return buf.getvalue()


def _endings(season: dict) -> list[str]:
    first = next(iter(season["players"].values()), None)
    return list(first["wins"]) if first else []


def _chart(season: dict, width: float) -> Drawing:
    height = 62 * mm
    legend_w = 40 * mm
    running = season["running"]
    people = sorted({p for point in running for p in point["balances"]})
    lines: dict[str, list[tuple[int, float]]] = {p: [] for p in people}
    last = dict.fromkeys(people, 0.0)
    for i, point in enumerate(running, 1):
        for p in people:
            last[p] = float(point["balances"].get(p, last[p]))
            lines[p].append((i, last[p]))
    d, plot = running_chart(lines, width, height, legend_w, "session")
    xa = plot.xValueAxis
    xa.valueMin, xa.valueMax = 1, max(2, len(running))
    xa.valueSteps = list(range(1, len(running) + 1))
    xa.labelTextFormat = lambda v: running[int(v) - 1]["date"][5:] if 1 <= v <= len(
        running) else ""
    return d
