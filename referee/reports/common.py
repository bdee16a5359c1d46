"""What the PDFs share: the embedded font, paragraph styles, page furniture,
and the plain-words description of a session's rules."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import SimpleDocTemplate

from .. import language
from ..language import amount  # noqa: F401 - a paper's numbers, used through here
from ..ledger.money import amounts_currency
from ..rules import glyphs
from ..rules.errors import MalformedInput
from ..rules.options import OPTION_DOCS, PRESET_SOURCES, HouseRules
from ..rules.words import N_
from .words import (  # noqa: F401 - the papers' words, used through here
    BEATERS,
    claim_words,
    option_label,
    option_value,
    paper_language,
    plurals,
    stakes_words,
    words,
)

FONT_DIR = Path(glyphs.FONT_DIR)
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"

# Distinguishable on paper and on screen, also for the colour-blind (Okabe-Ito first).
# The chart's colours (Okabe-Ito's, safe for colour-blind readers), in the
# order that keeps the first five furthest apart: the vermillion and the
# orange, or the two blues, were side by side and read as one colour.
PALETTE = [
    colors.HexColor(c) for c in (
        "#0072B2", "#D55E00", "#009E73", "#000000", "#CC79A7", "#E69F00", "#56B4E9",
        "#7F7F7F", "#8C564B", "#F0E442",
    )
]
#: Dash patterns: the second five colours are each near one of the first
#: five, so their lines are dashed; past the palette, other dashes. No two
#: players' lines look alike.
DASHES = (None, [4, 2], [1, 2], [6, 2, 1, 2], [8, 3])


def line_style(i: int) -> tuple:
    """The colour and the dash pattern of the ``i``-th player's line."""
    return PALETTE[i % len(PALETTE)], DASHES[(i // 5) % len(DASHES)]


class PaperFont(TTFont):
    """A paper's font, which prints a character it has no glyph for as its
    code ("[U+738B]", ``glyphs.code``), measured and drawn alike, never as
    an empty box: a name kept before the papers' rule
    (``rules.table.check_printable``), a note, a table's name. Every word a
    paper prints is measured and drawn through these two."""

    def stringWidth(self, text, size, encoding="utf8"):  # noqa: N802 - reportlab's name
        return super().stringWidth(self.stand_ins(text), size, encoding)

    def splitString(self, text, doc, encoding="utf-8"):  # noqa: N802 - reportlab's name
        return super().splitString(self.stand_ins(text), doc, encoding)

    def stand_ins(self, text):
        if isinstance(text, bytes) or text.isascii():
            return text
        has = self.face.charToGlyph
        if all(ord(c) in has or c.isspace() for c in text):
            return text
        return "".join(c if ord(c) in has or c.isspace() else f"[{glyphs.code(c)}]"
                       for c in text)


@cache
def register_fonts() -> None:
    """Embed DejaVu Sans: the standard 14 PDF fonts cannot print Ł or most
    names beyond Latin-1."""
    from reportlab.lib.fonts import addMapping

    for name, file in zip((FONT, FONT_BOLD), glyphs.FONTS, strict=True):
        pdfmetrics.registerFont(PaperFont(name, str(FONT_DIR / file)))
    # Paragraph markup (<b>) looks fonts up through this mapping.
    addMapping(FONT, 0, 0, FONT)
    addMapping(FONT, 1, 0, FONT_BOLD)
    addMapping(FONT, 0, 1, FONT)
    addMapping(FONT, 1, 1, FONT_BOLD)


@cache
def styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    base = ParagraphStyle("body", fontName=FONT, bulletFontName=FONT, fontSize=9.5, leading=12.5,
                          alignment=TA_LEFT,
                          spaceAfter=3)
    return {
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.5, leading=9, spaceAfter=0),
        "head": ParagraphStyle("head", parent=base, fontName=FONT_BOLD, fontSize=7.5,
                               leading=9, spaceAfter=0),
        "head_right": ParagraphStyle("head_right", parent=base, fontName=FONT_BOLD,
                                     fontSize=7.5, leading=9, spaceAfter=0, alignment=TA_RIGHT),
        "title": ParagraphStyle("title", parent=base, fontName=FONT_BOLD, fontSize=17,
                                leading=21, spaceAfter=8),
        "h2": ParagraphStyle("h2", parent=base, fontName=FONT_BOLD, fontSize=12, leading=15,
                             spaceBefore=10, spaceAfter=4),
        "bullet": ParagraphStyle("bullet", parent=base, leftIndent=12, bulletIndent=2,
                                 spaceAfter=2),
        "mono": ParagraphStyle("mono", parent=base, fontSize=8, leading=10),
    }


def esc(text: object) -> str:
    """Text for Paragraph markup: names may contain < or &."""
    return escape(str(text))


def clip(text: str, width: float, font: str = FONT, size: float = 7.5) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` points, so a long
    name cannot spill into the next table cell."""
    register_fonts()  # measured in the paper's own font: a chart may be drawn first
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


#: The padding each side of a cell in a table of figures (``column_widths``).
CELL_PAD = 3


def column_widths(head: list[str], body: list[list[str]], width: float, *,
                  first_most: float = 34 * mm, size: float = 7.5) -> list[float] | None:
    """Widths for a table whose heading cells wrap between words: each column
    as wide as its longest heading word and its widest value (and the cell's
    padding, ``CELL_PAD`` a side), the first (the names) at most ``first_most``;
    what is left over shared out. None when they cannot fit ``width``: the
    caller turns the page or splits the table."""
    need = []
    for i, text in enumerate(head):
        word = max((pdfmetrics.stringWidth(w, FONT_BOLD, size) for w in text.split()),
                   default=0)
        value = max((pdfmetrics.stringWidth(str(row[i]), FONT, size + 0.5) for row in body),
                    default=0)
        need.append(max(word, value) + 2 * CELL_PAD + 1)
    need[0] = min(need[0], first_most)
    if sum(need) > width:
        return None
    extra = (width - sum(need)) / len(need)
    return [w + extra for w in need]


def currency_of(log: dict, rules: HouseRules) -> str | None:
    """The currency the log's amounts are in (None: points)."""
    return amounts_currency(log.get("currency"), rules.scoring)


def unit_of(log: dict, rules: HouseRules, lang: str = language.DEFAULT) -> str:
    """The unit the log's amounts are in, named in ``lang``, as every page says it."""
    return language.unit_name(currency_of(log, rules), lang)


def cash(value: Decimal, quantum: Decimal, currency: str | None, unit: str, lang: str) -> str:
    """An amount in a sentence: money in the locale's form (``1,50 €``), or
    the number and its unit (points)."""
    if currency:
        return language.currency_amount(value, quantum, currency, lang)
    return language.quantity(value, amount(value, quantum, lang), unit, lang)


def stake_amount(stake: object, unit: str, currency: str | None, lang: str) -> str:
    """A stake as the log gives it, in the language's form."""
    value = Decimal(str(stake))
    places = max(0, -value.as_tuple().exponent)
    quantum = Decimal(1).scaleb(-places)
    return cash(value, quantum, currency, unit, lang)

MARGIN = 15 * mm


def document(buf, *, title: str, subject: str, kind: str, pagesize=A4) -> SimpleDocTemplate:
    """A page template with the PDF metadata set and reportlab's invariant mode
    on, so the same session always renders to the same bytes."""
    return SimpleDocTemplate(
        buf, pagesize=pagesize, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
        bottomMargin=MARGIN, title=title, author="Tonk referee", subject=subject,
        creator=f"referee.reports.{kind}", keywords=["tonk", kind], invariant=1,
        initialFontName=FONT,
    )


def hash_line(log: dict, final_hash: str | None, lang: str = language.DEFAULT, *,
              settled: bool = False) -> tuple[str, str, str]:
    """What identifies the session: its event chain's final hash when stored
    (``settled``: a closed table's settlement, the head it became final at,
    ``SETTLED_RECEIPT``), else a fingerprint of the log file. (label, the
    label inside a sentence, the value)."""
    _ = words(lang)
    if final_hash and settled:
        return _("Event hash when final"), _("event hash when final"), final_hash
    if final_hash:
        return _("Final event hash"), _("final event hash"), final_hash
    return (_("Log fingerprint (SHA-256)"), _("log fingerprint (SHA-256)"),
            log_fingerprint(log))


def qr_drawing(text, cell: float = 0.9 * mm, border: int = 2):
    """``text`` (or a ``segno`` code made already) as a QR code drawn in vector
    squares (sharp at any print size)."""
    import segno
    from reportlab.graphics.shapes import Drawing, Rect

    try:
        matrix = (segno.make_qr(text, error="m") if isinstance(text, str) else text).matrix
    except segno.DataOverflowError:  # a command's --url: said, not a traceback
        raise MalformedInput("bad_url", N_("{url}... is too long for a QR code"),
                             {"url": text[:40]}) from None
    size = (len(matrix) + 2 * border) * cell
    qr = Drawing(size, size)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                qr.add(Rect((x + border) * cell, size - (y + border + 1) * cell, cell, cell,
                            fillColor=colors.black, strokeColor=None, strokeWidth=0))
    return qr


#: A closed table's settlement names the head at which it became final
#: (``record.chain.settled_head``), not the newest event's.
SETTLED_RECEIPT = N_("<b>Receipt.</b> The head of this session's record when this settlement "
                     "became final: the hash of the newest event it reads (the close, or a "
                     "later one that changes it, such as a payment marked paid): {head}. "
                     "Events after it that change nothing here (seat and viewer links given "
                     "or revoked) leave it as it is: every copy of this paper names the same "
                     "head. Keep it (photograph the code); {command} shows later whether the "
                     "record still holds it, unchanged.")


def receipt(head: str | None, lang: str = language.DEFAULT, *, settled: bool = False) -> list:
    """The stored session's receipt at the end of a paper: its head (the hash
    of its newest event; ``settled``: a closed table's settlement, the head
    it became final at) written out and as a QR code, so a phone can keep it
    and ``referee verify --head`` can check the record against it later.
    Nothing for a log settled from a file (it has no chain)."""
    if not head:
        return []
    from reportlab.platypus import KeepTogether, Paragraph, Table

    _ = words(lang)
    qr = qr_drawing(head)
    st = styles()
    text = Paragraph(_(SETTLED_RECEIPT if settled else
                       N_("<b>Receipt.</b> The head of this session's record, the hash of its "
                          "newest event: {head}. Keep it (photograph the code); {command} "
                          "shows later whether the record still holds it, unchanged."),
                       head=f"<font size=7>{head}</font>",
                       command="<i>referee verify --session ID --head HASH</i>"), st["small"])
    return [KeepTogether([Table([[qr, text]], colWidths=[qr.width + 4 * mm, None],
                                style=[("VALIGN", (0, 0), (-1, -1), "MIDDLE")])])]


def log_fingerprint(log: dict) -> str:
    """SHA-256 of the log in a canonical JSON form: what identifies a session
    settled from a file, where there is no event chain."""
    data = json.dumps(log, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()


def rules_in_words(rules: HouseRules, lang: str = language.DEFAULT) -> tuple[str, list[str]]:
    """A sentence naming the preset, and one line per option that differs from
    the standard game: what the option means, this table's value, the standard."""
    _ = words(lang)
    source = PRESET_SOURCES.get(rules.preset, "")
    if source:
        intro = _("Preset {preset} ({source}).", preset=rules.preset,
                  source=language.gettext(lang, source))
    else:
        intro = _("Preset {preset}.", preset=rules.preset)
    diffs = rules.differences()
    if not diffs:
        intro += " " + _("Every option is as in the standard game.")
    else:
        intro += " " + _("These options differ from the standard game:")
    lines = [
        _("{meaning} {option}: {value} (standard: {standard})",
          meaning=esc(language.gettext(lang, OPTION_DOCS[name])),
          # the option's code name kept beside its words: the log's, the
          # spec's and `referee rules`' name, so a dispute can trace the rule
          option=f"{esc(language.sentence_case(option_label(name, lang)))} (<i>{name}</i>)",
          value=f"<b>{esc(option_value(name, mine, lang))}</b>",
          standard=esc(option_value(name, std, lang)))
        for name, mine, std in diffs
    ]
    return intro, lines


def footer(text: str, lang: str = language.DEFAULT):
    """A page callback writing ``text`` and the page number at the foot."""
    _ = words(lang)

    def draw(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillColor(colors.grey)
        canvas.drawString(doc.leftMargin, 20, text)
        canvas.drawRightString(doc.pagesize[0] - doc.rightMargin, 20,
                               _("page {n}", n=doc.page))
        canvas.restoreState()

    return draw


#: How far apart, in points, the lines of players who stand alike at a point
#: are drawn (``chart_lines.apart``): a line is 1.4 pt wide, so each shows.
LINES_APART = 2


def running_chart(lines: Mapping[str, Sequence[tuple[float, Decimal]]], width: float,
                  height: float, legend_w: float, x_title: str, lang: str, *,
                  room: float = 0):
    """A running-balance chart: one line a player in the palette's colours
    (dashed past it), a grid, the x axis titled, a legend on the right;
    ``room`` more points under the plot (for labels of two lines). Each
    line's points are (x, the player's balance there), every line with its
    points at the same x's. The y axis marks round amounts
    (``chart_lines.ticks``) in ``lang``'s form, and players who stand alike
    at a point are drawn ``LINES_APART`` apart around their balance
    (``chart_lines.apart``): two players alike all night drew one line.
    Returns the drawing and its plot, whose x axis the caller sets (hands or
    sessions)."""
    from reportlab.graphics.charts.legends import Auto, LineLegend
    from reportlab.graphics.charts.lineplots import LinePlot
    from reportlab.graphics.shapes import Drawing, String

    from .chart_lines import apart, ticks

    names = list(lines)
    d = Drawing(width, height)
    plot = LinePlot()
    plot.x, plot.y = 40, 28 + room
    plot.width = width - legend_w - plot.x - 10
    plot.height = height - plot.y - 10
    every = [v for p in names for _, v in lines[p]] or [Decimal(0)]
    marks = ticks(min(every), max(every))
    ya = plot.yValueAxis
    ya.valueMin, ya.valueMax = float(marks[0]), float(marks[-1])
    ya.valueSteps = [float(m) for m in marks]
    places = max(0, -marks[0].as_tuple().exponent)
    ya.labelTextFormat = lambda v: language.decimal_text(Decimal(str(v)), places, lang)
    per_point = float(marks[-1] - marks[0]) / plot.height
    shift = apart({p: [v for _, v in lines[p]] for p in names})
    plot.data = [[(x, float(v) + LINES_APART * per_point * s)
                  for (x, v), s in zip(lines[p], shift[p], strict=True)] for p in names]
    for i in range(len(names)):
        plot.lines[i].strokeColor, dash = line_style(i)
        plot.lines[i].strokeWidth = 1.4
        if dash:
            plot.lines[i].strokeDashArray = dash
    plot.joinedLines = 1
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = FONT
        axis.labels.fontSize = 7
    plot.yValueAxis.visibleGrid = 1
    plot.yValueAxis.gridStrokeColor = colors.HexColor("#DDDDDD")
    plot.yValueAxis.gridStrokeWidth = 0.4
    d.add(plot)
    d.add(String(plot.x + plot.width / 2, 4, x_title, fontName=FONT, fontSize=7,
                 textAnchor="middle"))
    legend = LineLegend()  # the lines' own colour and dashes
    legend.x = plot.x + plot.width + 12
    legend.y = plot.y + plot.height
    legend.alignment = "right"
    legend.fontName = FONT
    legend.fontSize = 8
    legend.dx = 16
    legend.dy = 3
    legend.deltay = 11
    legend.columnMaximum = 14
    legend.strokeWidth = 1.4
    for i, p in enumerate(names):
        plot.lines[i].name = clip(p, legend_w - 24, FONT, 8)
    legend.colorNamePairs = Auto(obj=plot)  # each swatch drawn as its line is
    d.add(legend)
    return d, plot
