"""The settlement PDF: the paper a table signs and keeps at the end of a session.

Summary first (rules, totals, who pays whom, the chart, signatures, the
session hash), then every hand in a long table whose header repeats on each
page. Rendering is reproducible byte for byte (reportlab's invariant mode),
so a printed settlement can be checked against a fresh render.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from decimal import Decimal

from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    PageBreak,
    Paragraph,
    Table,
    TableStyle,
)

from .. import language
from ..record.chain import PRINTED_HEAD
from ..replay import Session
from ..rules.told import TOLD
from ..service.money.payable import how_to_pay
from .common import (
    FONT,
    MARGIN,
    amount,
    cash,
    document,
    esc,
    footer,
    hash_line,
    paper_language,
    plurals,
    qr_drawing,
    receipt,
    register_fonts,
    rules_in_words,
    running_chart,
    stake_amount,
    styles,
    unit_of,
    words,
)
from .hands_table import MIN_PLAYER_COLUMN, TOLD_MARK, hands_table, player_column
from .night_events import (
    comings_and_goings,
    disputes_section,
    hands_count,
    night_rows,
    open_disputes_line,
    void_and_stake_notes,
)
from .sections import Sections, TableRef
from .words import (  # noqa: F401 - the web reads OUTCOME_WORDS and outcome_words here
    BALANCE_IS,
    BROUGHT_FROM,
    CARRIED_TO,
    OUTCOME_WORDS,
    SCORING,
    compared_words,
    match_words,
    outcome_words,
    paid_words,
    payment_extras,
    pays_words,
    scoring_words,
    table_named,
)
from .words import time_text as _when


def render_settlement(
    session: Session,
    *,
    final_hash: str | None = None,
    date: str | None = None,
    table: str | None = None,
    lang: str | None = None,
    settled: dict[int, dict[int, dict]] | None = None,
    moves: dict[tuple[str, str], list[str]] | None = None,
    pay_details: dict[str, dict] | None = None,
    remittance: Mapping[str, str] | None = None,
    sections: Sections | None = None,
) -> bytes:
    """The settlement PDF of a replayed session, as bytes, in ``lang`` (else
    the log's language, else English).

    ``final_hash`` is the last event hash of the stored session's chain;
    without it (a session settled from a log file) the PDF prints the log's
    SHA-256 instead and says so. ``settled``: how each hand's disputes were
    settled, by the dispute's place in the hand's list (the stored session's
    settle events; a log alone does not carry them, so its disputes read open).

    ``pay_details``: the payees' payment details (``referee.service.club.pay``);
    each transfer to one of them then carries what its payer needs: an EPC
    QR code, a PayPal.me link, the payee's line, with ``remittance[payer]``
    as the transfer's text (``service.club.pay.remittance``).

    ``sections``: the session's result sections, where the caller built them
    already (``Sections.replayed(session, settled)``: the payees its
    ``pay_details`` were read for are its transfers' payees).
    """
    register_fonts()
    sec = sections if sections is not None else Sections.replayed(session, settled)
    buf = io.BytesIO()
    paper = _Paper(sec, session.rules, paper_language(sec.log, lang), buf,
                   final_hash=final_hash, date=date, table=table)
    story = [*paper.head(), *paper.rules(), *paper.totals(), *paper.money(),
             *paper.owed(pay_details, remittance), *paper.chart(),
             *disputes_section(sec, paper.lang),
             *comings_and_goings(sec.log, paper.lang, moves or {}),
             paper.signatures(), *paper.hand_by_hand(),
             *receipt(final_hash, paper.lang, settled=sec.final)]
    page = footer(f"{paper.table_name} · {paper.when} · {paper.hash_in_text} "
                  f"{paper.hash_value[:PRINTED_HEAD]}…", paper.lang)
    paper.doc.build(story, onFirstPage=page, onLaterPages=page)
    return buf.getvalue()


class _Paper:
    """The settlement's sections laid out on paper, one method a section,
    each a list of flowables in the paper's language."""

    def __init__(self, sec: Sections, rules, lang: str, buf, *, final_hash: str | None,
                 date: str | None, table: str | None) -> None:
        self.sec, self.house, self.lang, self.date = sec, rules, lang, date
        self.final_hash = final_hash
        self._ = _ = words(lang)
        self.st = styles()
        log = sec.log
        self.unit = unit_of(log, rules, lang)
        self.currency = sec.currency
        self.table_name = table or table_named(TableRef.of(log), lang)
        self.when = date or _when(sec.started, lang, sec.started) or _("date not recorded")
        self.hash_label, self.hash_in_text, self.hash_value = hash_line(
            log, final_hash, lang, settled=sec.final)
        pagesize = A4
        ngettext = plurals(lang)
        if player_column(pagesize[0] - 2 * MARGIN, len(sec.players), lang) < MIN_PLAYER_COLUMN:
            pagesize = landscape(A4)
        self.doc = document(buf, title=_("Tonk settlement: {table}, {date}",
                                         table=self.table_name, date=self.when),
                            subject=ngettext("Settlement of {n} hand between {players}",
                                             "Settlement of {n} hands between {players}",
                                             len(sec.hands), players=", ".join(sec.players)),
                            kind="settlement", pagesize=pagesize)
        self.width = self.doc.width

    def cash(self, value: Decimal, quantum: Decimal) -> str:
        return cash(value, quantum, self.currency, self.unit, self.lang)

    def stake(self, stake: str) -> str:
        return stake_amount(stake, self.unit, self.currency, self.lang)

    def head(self) -> list:
        """The title and the table's facts (and a word on disputes still open)."""
        sec, _, lang = self.sec, self._, self.lang
        title = (_("Settlement: {table} (final)", table=esc(self.table_name)) if sec.final
                 else _("Settlement: {table} (provisional)", table=esc(self.table_name)))
        changes = [_("from hand {n}: {stake}", n=n, stake=self.stake(s))
                   for n, s in sec.stake_changes()]
        # A push-up table's stake multiplies nothing: its row says how it scores.
        stake_row = [_(SCORING), scoring_words(lang)] if sec.push_ups else \
            [_("Stake"), self.stake(sec.stake) + "".join("; " + c for c in changes)]
        info = [
            [_("Table"), self.table_name],
            *([] if sec.started and not self.date else [[_("Date"), self.when]]),
            *night_rows(sec.log, lang),
            [_("Players"), ", ".join(sec.players)],
            stake_row,
            [_("Hands"), hands_count(sec, lang)],
            [self.hash_label, self.hash_value],
        ]
        out = [Paragraph(title, self.st["title"]), _info_table(info, self.width)]
        if sec.open_disputes:
            out.append(open_disputes_line(sec.open_disputes, lang))
        return out

    def rules(self) -> list:
        st = self.st
        intro, lines = rules_in_words(self.house, self.lang)
        return [Paragraph(self._("Rules"), st["h2"]), Paragraph(esc(intro), st["body"]),
                *(Paragraph(line, st["bullet"], bulletText="•") for line in lines)]

    def totals(self) -> list:
        sec, _ = self.sec, self._
        out = [Paragraph(_("Final totals") if not sec.push_ups else _("Final scores"),
                         self.st["h2"])]
        if sec.match is not None:
            out.append(Paragraph(f"<b>{esc(match_words(sec.match, self.lang))}</b>",
                                 self.st["body"]))
        out.append(_totals_table(sec, self.unit, self.width, self.lang))
        return out

    def money(self) -> list:
        """Balances brought forward, payments made at the table, and what each
        player stands at: brought forward + hands + paid - received."""
        money = self.sec.money
        if money is None:
            return []
        _, st = self._, self.st
        out: list = []
        if money.payments:
            out.append(Paragraph(_("Payments made"), st["h2"]))
            out += [self._payment(given, money.quantum) for given in money.payments]
        out += [Paragraph(line, st["body"]) for line in self._carried_lines(money)]
        # One block: a row of the balances alone on the next page read as
        # another table.
        out.append(KeepTogether([
            Paragraph(_("Balances"), st["h2"]),
            _balances_table(self.sec, self.width, self.lang),
            Paragraph(_(BALANCE_IS[money.terms]), st["small"])]))
        return out

    def _carried_lines(self, money) -> list[str]:
        """Where the debts brought forward came from, and where those carried
        on went, each table by its name (as the pages say them)."""
        lang = self.lang

        def line(sentence: str, table, amounts: dict) -> str:
            return language.gettext(lang, sentence, table=f"<b>{esc(table_named(table, lang))}</b>",
                                    amounts=esc(", ".join(f"{p} {self.cash(v, money.quantum)}"
                                                          for p, v in amounts.items())))

        out = [line(BROUGHT_FROM, money.brought_from, money.brought_forward)] \
            if money.brought_from is not None else []
        return out + [line(CARRIED_TO, to, amounts) for to, amounts in money.carries]

    def _payment(self, given, quantum: Decimal) -> Paragraph:
        lang = self.lang
        # when, where it was marked, its note, and why it moves nothing (kept
        # on the paper, as in the record), as every page and paper says them
        when = _when(given.at, lang, self.sec.started) if given.at else None
        tail = f" ({esc(', '.join(payment_extras(given, when, lang)))})"
        return Paragraph(paid_words(f"<b>{esc(given.payer)}</b>", f"<b>{esc(given.payee)}</b>",
                                    esc(self.cash(given.amount, quantum)), lang) + tail,
                         self.st["bullet"], bulletText="•")

    def owed(self, pay_details: dict[str, dict] | None,
             remittance: Mapping[str, str] | None) -> list:
        """Who pays whom how much (with how to pay it, where the payee gave
        details), or why nobody does."""
        sec, _, st = self.sec, self._, self.st
        out = [Paragraph(_("Settling up") if sec.money is None else _("Still owed"), st["h2"])]
        if sec.money is not None:
            out.append(Paragraph(_("The fewest payments that clear the balances above."),
                                 st["small"]))
        for t in sec.transfers:
            line = Paragraph(pays_words(f"<b>{esc(t.payer)}</b>", f"<b>{esc(t.payee)}</b>",
                                        esc(self.cash(t.amount, sec.transfer_quantum)),
                                        self.lang), st["bullet"], bulletText="•")
            how = None if sec.push_ups or not pay_details else how_to_pay(
                pay_details.get(t.payee), str(t.amount.quantize(sec.transfer_quantum)),
                self.currency, (remittance or {}).get(t.payer, ""))
            out.append(line if how is None else KeepTogether(
                [line, _how_to_pay(how, t, self.width, self.lang)]))
        if sec.transfers:
            return out
        if sec.push_ups:
            out.append(Paragraph(esc(compared_words(sec.best, self.lang)), st["body"]))
        else:
            out.append(Paragraph(_("Nobody owes anything."), st["body"]))
        return out

    def chart(self) -> list:
        sec, _ = self.sec, self._
        if not sec.hands:
            return []
        return [CondPageBreak(80 * mm),
                Paragraph(_("Running totals") if not sec.push_ups else _("Running scores"),
                          self.st["h2"]),
                _chart(sec, self.width, self.unit, self.lang)]

    def signatures(self) -> KeepTogether:
        _, st, still_open = self._, self.st, self.sec.open_disputes
        signed = [
            Paragraph(_("Signatures"), st["h2"]),
            *([open_disputes_line(still_open, self.lang)] if still_open else []),
            Paragraph(_("We agree that the totals and payments above settle this session, "
                        "identified by its {what} {hash}….", what=esc(self.hash_in_text),
                        hash=self.hash_value[:PRINTED_HEAD])
                      + ("" if self.sec.final else " " + _(
                          "<b>Provisional</b>: the table was still open when this was "
                          "printed; hands or payments may follow.")),
                      st["body"]),
            _signatures(self.sec.players, self.width, self.lang),
        ]
        if not self.final_hash:
            signed.append(Paragraph(_("Settled from a log file, not a stored session: there "
                                      "is no event chain, so the fingerprint of the log "
                                      "identifies what was settled.") + " " + _(
                "The table's own paper names the night by the hash of its newest event: a log "
                "exported with {command} carries it, and its paper names the night so too.",
                command="<i>referee export ID --chain</i>"), st["small"]))
        return KeepTogether(signed)

    def hand_by_hand(self) -> list:
        sec, _, st = self.sec, self._, self.st
        if not sec.hands:
            return []
        out = [PageBreak(), Paragraph(_("Hand by hand"), st["h2"]),
               Paragraph(_("Each player's column gives the hand's net for that player, and in "
                           "brackets the count left in their hand at the end (where it is "
                           "known)."), st["small"])]
        if sec.disputes:
            out.append(Paragraph(_("* a disputed hand: see Disputes."), st["small"]))
        if any(h.told for h in sec.hands):
            out.append(Paragraph(TOLD_MARK + " " + _(TOLD), st["small"]))
        out.append(hands_table(sec.result, sec.players, sec.quantum, self.width, self.lang,
                               sec.disputed))
        out += void_and_stake_notes(sec, self.stake, self.lang)
        return out


# ---------------------------------------------------------------- paying a transfer

def _how_to_pay(how: dict, t, width: float, lang: str) -> Table:
    """Under "Ann pays Ben 12.50": the EPC QR code a banking app scans, and
    the lines to type or tap (IBAN and holder, the PayPal.me link, Ben's
    own line)."""
    from segno.helpers import make_epc_qr

    _ = words(lang)
    st = styles()
    lines = []
    if "iban" in how:
        lines.append(_("IBAN {iban}, {holder}", iban=f"<font name='Courier'>"
                       f"{esc(how['iban'])}</font>", holder=esc(how["holder"])))
        lines.append(_("Reference: {text}", text=esc(how["reference"])))
    if "paypal" in how:
        link = esc(how["paypal"])
        lines.append(f"PayPal: <link href='{link}' color='blue'><u>{link}</u></link>")
    if "note" in how:
        lines.append(_("{name} says: {note}", name=esc(t.payee), note=esc(how["note"])))
    text = [Paragraph(line, st["small"]) for line in lines]
    if how.get("epc"):
        epc = how["epc"]
        qr = qr_drawing(make_epc_qr(name=epc["name"], iban=epc["iban"], amount=epc["amount"],
                                    text=epc["text"], bic=epc["bic"]), cell=0.6 * mm)
        text.append(Paragraph(_("Scan the code with a banking app: the amount and the "
                                "text are filled in."), st["small"]))
        cells, widths = [[qr, text]], [qr.width + 3 * mm, None]
    else:
        cells, widths = [[text]], [None]
    return Table(cells, colWidths=widths, hAlign="LEFT", style=[
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (0, 0), 12)])


def _balances_table(sec: Sections, width: float, lang: str) -> Table:
    _ = words(lang)
    st = styles()
    money = sec.money
    bq = money.quantum
    brought, carried = money.terms
    zero = Decimal(0)
    # Each term of a balance its own column, shown where the table has it:
    # debts carried on to a later table are not "brought forward" (newcomer
    # 44, P4: Ben's 7.00 owed and moved on read "Brought forward 7.00").
    columns = [(_("Brought forward"), lambda p: money.brought_forward.get(p, zero))] * brought \
        + [(_("Hands"), lambda p: sec.totals[p]), (_("Paid"), lambda p: money.paid[p]),
           (_("Received"), lambda p: money.received[p])] \
        + [(_("Carried on"), lambda p: money.carried_out.get(p, zero))] * carried \
        + [(_("Balance"), lambda p: money.balances[p])]
    head = [_("Player"), *(name for name, _value in columns)]
    data = [[Paragraph(esc(h), st["head"] if i == 0 else st["head_right"])
             for i, h in enumerate(head)]]
    for p in sec.players:
        data.append([Paragraph(esc(p), st["body"]),
                     *(amount(value(p), bq, lang) for _name, value in columns)])
    name_w = min(60 * mm, width * 0.3)
    t = Table(data, colWidths=[name_w] + [min(26 * mm, (width - name_w) / len(columns))]
              * len(columns),
              hAlign="LEFT", repeatRows=1)
    t.setStyle(TableStyle([
        ("FONT", (0, 1), (-1, -1), FONT, 9),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#F2F2F2")]),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]))
    return t


def _info_table(rows: list[list[str]], width: float) -> Table:
    st = styles()
    data = [[Paragraph(esc(k), st["head"]), Paragraph(esc(v), st["body"])] for k, v in rows]
    t = Table(data, colWidths=[32 * mm, width - 32 * mm], hAlign="LEFT")
    t.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
    ]))
    return t


def _totals_table(sec: Sections, unit: str, width: float, lang: str) -> Table:
    _ = words(lang)
    st = styles()
    data = [[Paragraph(_("Player"), st["head"]),
             Paragraph(_("Total ({unit})", unit=esc(unit)), st["head"])]]
    for p in sec.players:
        data.append([Paragraph(esc(p), st["body"]), amount(sec.totals[p], sec.quantum, lang)])
    t = Table(data, colWidths=[min(90 * mm, width * 0.6), 35 * mm], hAlign="LEFT",
              repeatRows=1)
    t.setStyle(TableStyle([
        ("FONT", (0, 1), (-1, -1), FONT, 9.5),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#F2F2F2")]),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]))
    return t


def _signatures(players: list[str], width: float, lang: str) -> Table:
    _ = words(lang)
    st = styles()
    data = [["", Paragraph(_("signature"), st["small"]), "", Paragraph(_("date"), st["small"])]]
    for p in players:
        data.append([Paragraph(esc(p), st["body"]), "", "", ""])
    name_w = min(60 * mm, width * 0.35)
    date_w = 30 * mm
    t = Table(data, colWidths=[name_w, width - name_w - date_w - 8 * mm, 8 * mm, date_w],
              rowHeights=[5 * mm] + [9 * mm] * len(players), hAlign="LEFT")
    t.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("LINEBELOW", (1, 1), (1, -1), 0.5, colors.black),
        ("LINEBELOW", (3, 1), (3, -1), 0.5, colors.black),
    ]))
    return t


def _chart(sec: Sections, width: float, unit: str, lang: str) -> Drawing:
    _ = words(lang)
    players = sec.players
    height = 58 * mm
    legend_w = 42 * mm
    running = dict.fromkeys(players, Decimal(0))
    lines: dict[str, list[tuple[int, Decimal]]] = {p: [(0, Decimal(0))] for p in players}
    hands = sec.hands
    # Over a few hundred hands a line cannot show every step on paper anyway;
    # sampling keeps the drawing (and the render) small. The last hand is kept.
    step = max(1, len(hands) // 400)
    for i, h in enumerate(hands):
        for p, v in h.net.items():
            running[p] += v
        if i % step == 0 or i == len(hands) - 1:
            for p in players:
                lines[p].append((h.number, running[p]))
    d, plot = running_chart(lines, width, height, legend_w, _("hand"), lang)
    xa = plot.xValueAxis
    xa.valueMin = 0
    xa.valueMax = last = max(1, hands[-1].number if hands else 1)
    # Ticks at whole hands only (reportlab's own steps give 0.5, printed "0 0 1").
    tick = next(t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10**9)
                if last / t <= 10)
    xa.valueSteps = list(range(0, last + 1, tick))
    xa.labelTextFormat = lambda v: f"{v:.0f}"
    # Above the axis's top amount, not beside it ("EUR 15" read as one).
    d.add(String(plot.x - 34, plot.y + plot.height + 5, unit, fontName=FONT, fontSize=7))
    return d


