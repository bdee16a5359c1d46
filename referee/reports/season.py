"""The season PDF: each player's numbers over a date range and the chart of
their running balance, session after session (``service.club.season``'s
document, so the page, the API and the paper say the same)."""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.graphics.shapes import Drawing
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

from .. import language
from ..language import N_
from ..ledger.club import AVERAGE_SHOW
from .common import (
    CELL_PAD,
    FONT,
    MARGIN,
    clip,
    column_widths,
    document,
    esc,
    footer,
    plurals,
    running_chart,
    styles,
    words,
)
from .season_chart import balances, session_labels
from .settlement import outcome_words

# Two-line headings: eleven columns share a portrait page.
COLUMNS = (N_("Player"), N_("Hands"), N_("Wins"), N_("Drops"), N_("Drops\nwon (rate)"),
           N_("Caught"), N_("Tonk-\nouts"), N_("Deal\nwins"), AVERAGE_SHOW, N_("Won"),
           N_("Lost"))


def _number(value: object, lang: str) -> str:
    """A figure of the season document (a decimal string, or a count) in
    ``lang``'s form, keeping its places."""
    from decimal import InvalidOperation

    from .common import amount

    if value is None or value == "":
        return ""
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    return amount(d, Decimal(1).scaleb(min(0, d.as_tuple().exponent)), lang)


def season_span(season: dict, lang: str) -> str:
    """The season's dates as one phrase ("From 02.11.2026 to 16.11.2026"; an
    open end is the first or the last table): a whole sentence each, as a
    language needs its own words around a date and around "the first table"."""
    _ = words(lang)
    start = language.day(season["from"], lang) if season.get("from") else None
    end = language.day(season["to"], lang) if season.get("to") else None
    if start and end:
        return _("From {start} to {end}", start=start, end=end)
    if start:
        return _("From {start} to the last table", start=start)
    if end:
        return _("From the first table to {end}", end=end)
    return _("From the first table to the last")


def _table(head: list[str], body: list[list[object]], widths: list[float]) -> Table:
    """A table of figures: headings that wrap between words, names on the
    left, figures on the right."""
    st = styles()
    cells = [[Paragraph(esc(h), st["head"] if i == 0 else st["head_right"])
              for i, h in enumerate(head)], *body]
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#F2F2F2")]),
    ]))
    return table


def each_player(season: dict, lang: str) -> tuple[list[str], list[list[str]]]:
    """The "Each player" table: its headings (``COLUMNS``) and a row a player,
    every figure in ``lang``'s form and a loss with its sign, as the season
    page writes it. The paper prints it, ``referee season`` says it (it wrote
    "lost 9.00" where the page and the paper write -9.00: newcomer N13)."""
    head = [language.gettext(lang, c).replace("\n", " ") for c in COLUMNS]
    rows = []
    for name, p in season["players"].items():
        rate = (f"{p['drops_won']} ({_number(p['drop_win_rate'], lang)})" if p["drops"]
                else "0")
        rows.append([name, *map(str, (
            p["hands"], sum(p["wins"].values()), p["drops"], rate, p["caught"],
            p["tonk_outs"], p["deal_wins"])), _number(p["average_show"], lang),
            _number(p["won"], lang), _number(p["lost"], lang)])
    return head, rows


def render_season(season: dict, lang: str = language.DEFAULT) -> bytes:
    _ = words(lang)
    ngettext = plurals(lang)
    st = styles()
    buf = io.BytesIO()
    span = season_span(season, lang)
    head, rows = each_player(season, lang)
    rows = [[clip(name, 32 * mm), *cells] for name, *cells in rows]
    wins_head = [_("Player"), *(outcome_words(o, lang) for o in _endings(season))]
    wins = [[clip(name, 32 * mm), *(str(p["wins"][o]) for o in _endings(season))]
            for name, p in season["players"].items()]
    pagesize = _page_size((head, rows), (wins_head, wins))
    doc = document(buf, title=_("Season"), subject=_("The club's season: {span}", span=span),
                   kind="season", pagesize=pagesize)
    width = doc.width
    story = [Paragraph(_("The season"), st["title"]),
             Paragraph(esc(ngettext("{span} · {n} session · amounts in {currency} (positive: won)",
                                    "{span} · {n} sessions · amounts in {currency} "
                                    "(positive: won)", season["sessions"],
                                    span=span, currency=season["currency"])),
                       st["body"])]
    widths = column_widths(head, rows, width) or [width / len(head)] * len(head)
    story += [Paragraph(_("Each player"), st["h2"]), _table(head, rows, widths)]
    if wins:
        widths = column_widths(wins_head, wins, width) or [width / len(wins_head)] * len(
            wins_head)
        story += [Paragraph(_("Wins by ending"), st["h2"]), _table(wins_head, wins, widths)]
    if season["running"]:
        story += [KeepTogether([Paragraph(_("Running balance after each session"), st["h2"]),
                                _chart(season, width, lang)]), Spacer(1, 4)]
    h2h = season.get("head_to_head")
    if h2h:
        a, b = h2h["players"]
        n = h2h["hands"]
        # Whose hands and of how many: "(3 hands won)" read as hands won from
        # the other (newcomer N13).
        said = [ngettext("{n} hand together.", "{n} hands together.", n),
                *(ngettext("{player} won {wins} of the {num} hand and {won} from {other}.",
                           "{player} won {wins} of the {num} hands and {won} from {other}.",
                           n, player=p, other=other, num=n, wins=h2h["wins"][p],
                           won=_number(h2h["won_from"][p], lang))
                  for p, other in ((a, b), (b, a)))]
        story += [Paragraph(esc(_("{a} against {b}", a=a, b=b)), st["h2"]),
                  Paragraph(esc(" ".join(said)), st["body"])]
    page = footer(_("Tonk referee · season · {span}", span=span), lang)
    doc.build(story, onFirstPage=page, onLaterPages=page)
    return buf.getvalue()


def _page_size(*tables: tuple[list, list]) -> tuple[float, float]:
    """Portrait while every column's heading words and figures fit; else the
    page turns (a language with long words, a long name)."""
    for size in (A4, landscape(A4)):
        usable = size[0] - 2 * MARGIN
        if all(column_widths(head, rows, usable) for head, rows in tables):
            return size
    return landscape(A4)


def _endings(season: dict) -> list[str]:
    first = next(iter(season["players"].values()), None)
    return list(first["wins"]) if first else []


def _chart(season: dict, width: float, lang: str) -> Drawing:
    _ = words(lang)
    height = 62 * mm
    legend_w = 40 * mm
    running = season["running"]
    # Each line starts at 0 before the first session, and each session is a
    # dot: a season of one session is a line and a dot, not an empty chart.
    values = balances(running, from_zero=True)
    labels = session_labels(running, lang)
    room = 8 * any("\n" in label for label in labels)  # a label's second line, above the title
    d, plot = running_chart({p: list(enumerate(line)) for p, line in values.items()},
                            width, height, legend_w, _("session"), lang, room=room)
    for i in range(len(values)):
        plot.lines[i].symbol = makeMarker("FilledCircle", size=3.5)
    xa = plot.xValueAxis
    xa.valueMin, xa.valueMax = 0, max(1, len(running))
    xa.valueSteps = list(range(1, len(running) + 1))
    xa.labelTextFormat = lambda v: labels[int(v) - 1] if 1 <= v <= len(running) else ""
    return d
