"""The settlement paper's hand table: every hand of the night, a row each,
its header repeated on each page. Drawn a page at a time as plain text
(``_PagedRows``, ``_RowsBlock``): reportlab's Table took most of a
10,000-hand PDF's time."""

from __future__ import annotations

from decimal import Decimal
from functools import cache

from reportlab.lib import colors
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from .common import FONT, amount, clip, esc, styles, words
from .words import OUTCOME_WORDS, outcome_words

ROW_HEIGHT = 11


# Below this many points per player column the hand table goes landscape.
MIN_PLAYER_COLUMN = 52


def _wrapped_height(para: Paragraph, width: float) -> float:
    return para.wrap(width - 6, 1000)[1] + 5


# hand number, dealer, outcome, and the least the winners column may have
_FIXED = (31, 62, 50)


@cache
def _fixed(lang: str) -> tuple[float, float, float]:
    """The fixed columns in ``lang``: the outcome column as wide as its
    longest outcome name there ("automatischer Gewinn")."""
    widest = max(pdfmetrics.stringWidth(outcome_words(o, lang), FONT, _RowsBlock.SIZE)
                 for o in OUTCOME_WORDS)
    return _FIXED[0], _FIXED[1], max(_FIXED[2], widest + 7)


_MIN_WINNERS = 78


def player_column(width: float, players: int, lang: str) -> float:
    return min(64.0, (width - sum(_fixed(lang)) - _MIN_WINNERS) / max(players, 1))


# The mark of a hand told by its ending (quick logging) in the hand table.
TOLD_MARK = "\u2020"


def hands_table(result, players: list[str], q, width: float, lang: str,
                disputed: frozenset[int] = frozenset()) -> Flowable:
    _ = words(lang)
    st = styles()
    col_w = player_column(width, len(players), lang)
    winners_w = width - sum(_fixed(lang)) - col_w * len(players)
    cw = list(_fixed(lang)) + [winners_w] + [col_w] * len(players)
    header = [Paragraph(h, st["head"]) for h in (_("Hand"), _("Dealer"), _("Outcome"),
                                                  _("Winners"))]
    header += [Paragraph(esc(p), st["head_right"]) for p in players]
    rows = [header]
    pad = 6
    # A night's nets take few values: each is written in the language's form once.
    nets: dict[Decimal, str] = {}
    for h in result.hands:
        # A void hand has no winner: its reason is in the notes below the table.
        winners = ", ".join(h.winners) if h.winners else "–"
        row = [
            f"{h.number}{'*' if h.number in disputed else ''}{TOLD_MARK if h.told else ''}",
            clip(h.dealer, cw[1] - pad),
            clip(outcome_words(h.outcome, lang), cw[2] - pad),
            clip(winners, cw[3] - pad),
        ]
        for p in players:
            if p not in h.net:
                row.append("")
                continue
            count = h.counts.get(p)
            net = h.net[p]
            text = nets.get(net)
            if text is None:
                text = nets[net] = amount(net, q, lang)
            cell = text + (f" ({count})" if count is not None else "")
            row.append(clip(cell, col_w - pad))
        rows.append(row)
    # Fixed widths and heights spare reportlab measuring every cell: a
    # thousand-hand table renders in a fraction of the time.
    header_h = max(_wrapped_height(header[i], cw[i]) for i in range(len(header)))
    return _PagedRows(rows[0], rows[1:], lambda part, odd: _hands_part(
        [rows[0], *part], cw, header_h, odd), header_h)


class _PagedRows(Flowable):
    """The hands table one page at a time: each split makes a table of the
    rows that fit and keeps the rest as row indices. One reportlab Table of
    10,000 rows is split page after page into a new table of every row
    left, which made the 10,000-hand PDF take 7 s."""

    def __init__(self, header, rows, make, header_h: float, start: int = 0) -> None:
        super().__init__()
        self.header, self.rows, self.make = header, rows, make
        self.header_h, self.start = header_h, start
        self.hAlign = "LEFT"

    def _height(self, count: int) -> float:
        return self.header_h + ROW_HEIGHT * count

    def wrap(self, avail_width, avail_height):
        self._table = None
        self.width, self.height = avail_width, self._height(len(self.rows) - self.start)
        return self.width, self.height

    def split(self, avail_width, avail_height):
        fit = int((avail_height - self.header_h) // ROW_HEIGHT)
        if fit < 1:
            return []
        end = self.start + fit
        return [self.make(self.rows[self.start:end], self.start % 2),
                _PagedRows(self.header, self.rows, self.make, self.header_h, end)]

    def draw(self):
        table = self.make(self.rows[self.start:], self.start % 2)
        table.wrapOn(self.canv, self.width, self.height)
        table.drawOn(self.canv, 0, 0)


def _hands_part(rows: list, cw: list[float], header_h: float, odd: int) -> Flowable:
    """The hands table's header and ``rows``; ``odd``: the first row is an
    odd one of the whole table (the shading goes on across pages)."""
    header = Table([rows[0]], colWidths=cw, rowHeights=[header_h], hAlign="LEFT")
    header.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
    ]))
    return _RowsBlock(header, rows[1:], cw, header_h, odd)


class _RowsBlock(Flowable):
    """A page of the hands table: the header as a one-row table, the rows
    written as plain text in one text object, right-aligned from the fifth
    column on (and the hand number), shaded every other row. Drawn by
    reportlab's Table, each of 70,000 cells made its own text object: two
    thirds of the 10,000-hand PDF's time."""

    SHADE = colors.HexColor("#F2F2F2")
    SIZE = 7.5

    def __init__(self, header: Table, rows: list, cw: list[float], header_h: float,
                 odd: int) -> None:
        super().__init__()
        self.header, self.rows, self.cw, self.header_h, self.odd = header, rows, cw, header_h, odd
        self.hAlign = "LEFT"

    def wrap(self, avail_width, avail_height):
        self.width = sum(self.cw)
        self.height = self.header_h + ROW_HEIGHT * len(self.rows)
        return self.width, self.height

    def draw(self):
        canv = self.canv
        body = ROW_HEIGHT * len(self.rows)
        self.header.wrapOn(canv, self.width, self.header_h)
        self.header.drawOn(canv, 0, body)
        canv.setFillColor(self.SHADE)
        for i in range(len(self.rows)):
            if (i + self.odd) % 2:
                canv.rect(0, body - (i + 1) * ROW_HEIGHT, self.width, ROW_HEIGHT,
                          stroke=0, fill=1)
        canv.setFillColor(colors.black)
        lefts, x = [], 0.0
        for w in self.cw:
            lefts.append(x)
            x += w
        text = canv.beginText()
        text.setFont(FONT, self.SIZE)
        width = pdfmetrics.stringWidth
        # The baseline where the table's MIDDLE alignment with 2 points of
        # bottom padding put it.
        rise = (ROW_HEIGHT + 2 - self.SIZE) / 2 + 0.2 * self.SIZE
        for i, row in enumerate(self.rows):
            y = body - (i + 1) * ROW_HEIGHT + rise
            for c, cell in enumerate(row):
                if not cell:
                    continue
                if c == 0 or c >= 4:
                    at = lefts[c] + self.cw[c] - 3 - width(cell, FONT, self.SIZE)
                else:
                    at = lefts[c] + 3
                text.setTextOrigin(at, y)
                text.textOut(cell)
        canv.drawText(text)
