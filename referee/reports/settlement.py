"""The settlement PDF: the paper a table signs and keeps at the end of a session.

Summary first (rules, totals, who pays whom, the chart, signatures, the
session hash), then every hand in a long table whose header repeats on each
page. Rendering is reproducible byte for byte (reportlab's invariant mode),
so a printed settlement can be checked against a fresh render.
"""

from __future__ import annotations

import io
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
from ..ledger.money import unsigned
from ..replay import Session
from ..rules.told import TOLD
from ..service.payable import how_to_pay
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
    open_disputes,
    open_disputes_line,
    stake_changes,
    void_and_stake_notes,
)
from .words import OUTCOME_WORDS, match_words, outcome_words  # noqa: F401 - the web reads them here
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
    remittance: str | None = None,
) -> bytes:
    """The settlement PDF of a replayed session, as bytes, in ``lang`` (else
    the log's language, else English).

    ``final_hash`` is the last event hash of the stored session's chain;
    without it (a session settled from a log file) the PDF prints the log's
    SHA-256 instead and says so. ``settled``: how each hand's disputes were
    settled, by the dispute's place in the hand's list (the stored session's
    settle events; a log alone does not carry them, so its disputes read open).

    ``pay_details``: the payees' payment details (``referee.service.pay``);
    each transfer to one of them then carries what its payer needs: an EPC
    QR code, a PayPal.me link, the payee's line, with ``remittance`` as the
    transfer's text.
    """
    register_fonts()
    st = styles()
    log = session.log
    lang = paper_language(log, lang)
    _ = words(lang)
    result = session.result()
    q = result.quantum
    unit = unit_of(log, session.rules, lang)
    currency = log.get("currency") if session.rules.scoring != "push_ups" else None
    push_ups = session.rules.scoring == "push_ups"
    players = list(result.players)
    table_name = table or log.get("table") or _("Tonk table")
    when = date or _when(log.get("started"), lang, log.get("started")) or _(
        "date not recorded")
    final = "closed" in log

    hash_label, hash_in_text, hash_value = hash_line(log, final_hash, lang)
    pagesize = A4
    usable = pagesize[0] - 2 * MARGIN
    if player_column(usable, len(players), lang) < MIN_PLAYER_COLUMN:
        pagesize = landscape(A4)

    buf = io.BytesIO()
    doc = document(buf, title=_("Tonk settlement: {table}, {date}", table=table_name,
                                date=when),
                   subject=_("Settlement of {hands} hands between {players}",
                             hands=len(result.hands), players=", ".join(players)),
                   kind="settlement", pagesize=pagesize)
    width = doc.width
    story: list = []
    title = (_("Settlement: {table} (final)", table=esc(table_name)) if final
             else _("Settlement: {table} (provisional)", table=esc(table_name)))
    story.append(Paragraph(title, st["title"]))

    stake_text = stake_amount(log["stake"], unit, currency, lang)
    info = [
        [_("Table"), table_name],
        *([] if log.get("started") and not date else [[_("Date"), when]]),
        *night_rows(log, lang),
        [_("Players"), ", ".join(players)],
        [_("Stake"), stake_text + ("" if not push_ups else " " + _("(scores, lowest is best)"))
         + stake_changes(log, unit, currency, lang)],
        [_("Hands"), hands_count(result, lang)],
        [hash_label, hash_value],
    ]
    story.append(_info_table(info, width))
    if still_open := open_disputes(log, settled or {}):
        story.append(open_disputes_line(still_open, lang))

    story.append(Paragraph(_("Rules"), st["h2"]))
    intro, lines = rules_in_words(session.rules, lang)
    story.append(Paragraph(esc(intro), st["body"]))
    for line in lines:
        story.append(Paragraph(line, st["bullet"], bulletText="•"))

    story.append(Paragraph(_("Final totals") if not push_ups else _("Final scores"), st["h2"]))
    story += _match_line(result, lang, st)
    story.append(_totals_table(result, players, q, unit, width, lang))

    if result.balances is not None:
        story.extend(_money_section(log, result, players, unit, currency, width, lang))
    story.append(Paragraph(_("Settling up") if result.balances is None else _("Still owed"),
                           st["h2"]))
    if result.balances is not None:
        tq = result.balance_quantum
        story.append(Paragraph(_("The fewest payments that clear the balances above."),
                               st["small"]))
    else:
        tq = q
    if result.transfers:
        for t in result.transfers:
            line = Paragraph(
                _("{payer} pays {payee} {amount}", payer=f"<b>{esc(t.payer)}</b>",
                  payee=f"<b>{esc(t.payee)}</b>",
                  amount=esc(cash(t.amount, tq, currency, unit, lang))),
                st["bullet"], bulletText="•")
            how = None if push_ups or not pay_details else how_to_pay(
                pay_details.get(t.payee), str(t.amount.quantize(tq)), currency,
                remittance or "")
            story.append(line if how is None else KeepTogether(
                [line, _how_to_pay(how, t, width, lang)]))
    elif push_ups:
        low = min(result.totals.values(), default=Decimal(0))
        best = [p for p in players if result.totals[p] == low]
        story.append(Paragraph(_("Push-up scores are compared, not paid: lowest is best "
                                 "({players}).", players=esc(", ".join(best))), st["body"]))
    else:
        story.append(Paragraph(_("Nobody owes anything."), st["body"]))

    if result.hands:
        story.append(CondPageBreak(80 * mm))
        story.append(Paragraph(_("Running totals") if not push_ups else _("Running scores"),
                               st["h2"]))
        story.append(_chart(result, players, width, unit, lang))

    still_open = disputes_section(story, log, settled or {}, lang)
    story.extend(comings_and_goings(log, lang, moves or {}))

    signed = [
        Paragraph(_("Signatures"), st["h2"]),
        *([open_disputes_line(still_open, lang)] if still_open else []),
        Paragraph(_("We agree that the totals and payments above settle this session, "
                    "identified by its {what} {hash}….", what=esc(hash_in_text),
                    hash=hash_value[:16])
                  + ("" if final else " " + _("<b>Provisional</b>: the table was still open "
                                              "when this was printed; hands or payments may "
                                              "follow.")),
                  st["body"]),
        _signatures(players, width, lang),
    ]
    if not final_hash:
        signed.append(Paragraph(_("Settled from a log file, not a stored session: there is "
                                  "no event chain, so the fingerprint of the log identifies "
                                  "what was settled."), st["small"]))
    story.append(KeepTogether(signed))

    if result.hands:
        story.append(PageBreak())
        story.append(Paragraph(_("Hand by hand"), st["h2"]))
        story.append(Paragraph(
            _("Each player's column gives the hand's net for that player, and in brackets "
              "the count left in their hand at the end (where it is known)."), st["small"]))
        disputed = frozenset(i for i, h in enumerate(log.get("hands", ()), 1)
                             if h.get("disputes"))
        if disputed:
            story.append(Paragraph(_("* a disputed hand: see Disputes."), st["small"]))
        if any(h.told for h in result.hands):
            story.append(Paragraph(TOLD_MARK + " " + _(TOLD), st["small"]))
        story.append(hands_table(result, players, q, width, lang, disputed))
        story.extend(void_and_stake_notes(log, result, unit, currency, lang))

    page = footer(f"{table_name} · {when} · {hash_in_text} {hash_value[:16]}…", lang)
    story += receipt(final_hash, lang)
    doc.build(story, onFirstPage=page, onLaterPages=page)
    return buf.getvalue()


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
        if how["epc"]:
            lines.append(_("Reference: {text}", text=esc(how["epc"]["text"])))
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


def _money_section(log: dict, result, players: list[str], unit: str, currency: str | None,
                   width: float, lang: str) -> list:
    """Balances brought forward, payments made at the table, and what each
    player stands at: brought forward + hands + paid - received."""
    _ = words(lang)
    st = styles()
    bq = result.balance_quantum
    money = result.money
    out: list = []
    if log.get("payments"):
        out.append(Paragraph(_("Payments made"), st["h2"]))
        for given in log["payments"]:
            payer, payee = given["from"], given["to"]
            paid_amount = Decimal(str(given["amount"]).strip())
            extra = []
            if given.get("at"):
                extra.append(esc(_when(given["at"], lang, log.get("started"))))
            if given.get("note"):
                extra.append(esc(given["note"]))
            if "undone" in given:  # kept on the paper, as in the record: it moves nothing
                extra.append(esc(_("taken back")))
            elif given.get("pending"):
                extra.append(esc(_("waiting for {payee} to confirm: it settles nothing yet",
                                   payee=payee)))
            tail = f" ({', '.join(extra)})" if extra else ""
            out.append(Paragraph(_("{payer} paid {payee} {amount}",
                                   payer=f"<b>{esc(payer)}</b>", payee=f"<b>{esc(payee)}</b>",
                                   amount=esc(cash(paid_amount, bq, currency, unit, lang)))
                                 + tail, st["bullet"], bulletText="•"))
    for carry in log.get("carried_forward") or ():
        out.append(Paragraph(esc(_("Carried on to table {session}: {amounts}",
                                   session=carry["to"], amounts=", ".join(
                                       f"{p} {cash(Decimal(str(v)), bq, currency, unit, lang)}"
                                       for p, v in carry["balances"].items()))),
                             st["body"]))
    out.append(Paragraph(_("Balances"), st["h2"]))
    paid = dict.fromkeys(players, Decimal(0))
    received = dict.fromkeys(players, Decimal(0))
    for payer, payee, paid_amount in money.payments:
        paid[payer] += paid_amount
        received[payee] += paid_amount
    head = [_("Player"), _("Brought forward"), _("Hands"), _("Paid"), _("Received"),
            _("Balance")]
    data = [[Paragraph(esc(h), st["head"] if i == 0 else st["head_right"])
             for i, h in enumerate(head)]]
    for p in players:
        data.append([Paragraph(esc(p), st["body"]),
                     # carried in, less what was carried on to a later table
                     amount(money.brought_forward.get(p, Decimal(0))
                            - money.carried_forward.get(p, Decimal(0)), bq, lang),
                     amount(result.totals[p], bq, lang), amount(paid[p], bq, lang),
                     amount(received[p], bq, lang), amount(result.balances[p], bq, lang)])
    name_w = min(60 * mm, width * 0.3)
    t = Table(data, colWidths=[name_w] + [min(26 * mm, (width - name_w) / 5)] * 5,
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
    out.append(t)
    out.append(Paragraph(_("A balance is what the player is owed (negative: owes): brought "
                           "forward, plus the hands, plus what they paid, less what they "
                           "received."), st["small"]))
    return out


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


def _totals_table(result, players, q, unit, width, lang: str) -> Table:
    _ = words(lang)
    st = styles()
    data = [[Paragraph(_("Player"), st["head"]),
             Paragraph(_("Total ({unit})", unit=esc(unit)), st["head"])]]
    for p in players:
        data.append([Paragraph(esc(p), st["body"]), amount(result.totals[p], q, lang)])
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


def _chart(result, players: list[str], width: float, unit: str, lang: str) -> Drawing:
    _ = words(lang)
    height = 58 * mm
    legend_w = 42 * mm
    running = dict.fromkeys(players, Decimal(0))
    lines: dict[str, list[tuple[int, float]]] = {p: [(0, 0.0)] for p in players}
    hands = result.hands
    # Over a few hundred hands a line cannot show every step on paper anyway;
    # sampling keeps the drawing (and the render) small. The last hand is kept.
    step = max(1, len(hands) // 400)
    for i, h in enumerate(hands):
        for p, v in h.net.items():
            running[p] += v
        if i % step == 0 or i == len(hands) - 1:
            for p in players:
                lines[p].append((h.number, float(running[p])))
    d, plot = running_chart(lines, width, height, legend_w, _("hand"))
    xa, ya = plot.xValueAxis, plot.yValueAxis
    xa.valueMin = 0
    xa.valueMax = last = max(1, hands[-1].number if hands else 1)
    # Ticks at whole hands only (reportlab's own steps give 0.5, printed "0 0 1").
    tick = next(t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10**9)
                if last / t <= 10)
    xa.valueSteps = list(range(0, last + 1, tick))
    xa.labelTextFormat = lambda v: f"{v:.0f}"
    ya.labelTextFormat = lambda v: _axis_number(v, lang)
    d.add(String(plot.x - 34, plot.y + plot.height + 2, unit, fontName=FONT, fontSize=7))
    return d


def _match_line(result, lang: str, st) -> list:
    """A match to a score: whether it is over and who won it (none: no match)."""
    match = result.match()
    if match is None:
        return []
    return [Paragraph(f"<b>{esc(match_words(match, lang))}</b>", st["body"])]


def _axis_number(v: float, lang: str) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return language.number(unsigned(Decimal(text or "0")), lang)


