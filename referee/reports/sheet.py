"""The house-rules sheet: one page a table prints and keeps beside the cards.

It names the preset, says in plain words every option that differs from the
standard game, lists what each ending pays in stakes and in money at the
table's stake ("a tonk out pays 2 stakes: 1,00 € from each other player"),
and carries a QR code of the table's page. It is in the table's language and,
like every paper, the same bytes for the same table and language.
"""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Table, TableStyle

from .. import language
from ..ledger.money import parse_stake
from ..replay import open_session
from ..rules.catches import CATCH_SCHEMES
from ..rules.words import Words
from .common import (
    BEATERS,
    cash,
    claim_words,
    currency_of,
    document,
    esc,
    paper_language,
    qr_drawing,
    register_fonts,
    rules_in_words,
    stakes_words,
    styles,
    unit_of,
    words,
)
from .sections import TableRef
from .words import option_value, plurals, scoring_line, table_named


def stake_in_force(log: dict, stored: dict | None = None) -> tuple[Decimal, int | None]:
    """The stake the table plays at now, and since which hand when the table
    changed it: a stored table's as its pages say it (``stored``:
    ``service.sessions.stake_in_force``, which knows a change made after the
    last hand), else a log's (its last hand's, which carries a changed stake)."""
    if stored is not None:
        if stored.get("stake_next") is not None:  # the sheet is for the hands to come
            return parse_stake(stored["stake_next"]), stored.get("stake_next_from")
        return parse_stake(stored["stake_now"]), stored["stake_since"]
    hands = log.get("hands") or []
    base = str(log["stake"])
    now = str(hands[-1].get("stake", base)) if hands else base
    since = None
    for i in range(len(hands), 0, -1):
        if str(hands[i - 1].get("stake", base)) != now:
            break
        since = i
    return parse_stake(now), (since if since and since > 1 else None)


def payment_rows(log: dict, lang: str, stake: Decimal | None = None
                 ) -> list[tuple[str, str, str]]:
    """(ending, what it pays in stakes, the same at the stake in force) for
    every way a hand ends under the log's rules."""
    _ = words(lang)
    session = open_session(log)
    rules = session.rules
    stake = stake_in_force(log)[0] if stake is None else stake
    push_ups = rules.scoring == "push_ups"
    currency = currency_of(log, rules)
    unit = unit_of(log, rules, lang)
    quantum = session.quantum

    def stakes(n: Decimal) -> str:
        if push_ups:  # what an ending would pay says only whether its win is double
            return _("double win") if n >= 2 else _("single win")
        return stakes_words(n, lang)

    def from_each(n: Decimal) -> str:
        if push_ups:
            return _("every loser's score goes up by twice their count") if n >= 2 else \
                _("every loser's score goes up by their count")
        return _("{amount} from each other player",
                 amount=cash(n * stake, quantum, currency, unit, lang))

    rows = []
    for claim in rules.deal_wins:
        ending = claim_words(claim.when, claim.timing, lang)
        rows.append((ending, stakes(claim.pays), from_each(claim.pays)))
    rows.append((_("Tonk out"), stakes(rules.tonk_out_pays), from_each(rules.tonk_out_pays)))
    if rules.tonk_out_by_hits_pays is not None:
        rows.append((_("Tonk out by hits alone"), stakes(rules.tonk_out_by_hits_pays),
                     from_each(rules.tonk_out_by_hits_pays)))
    if rules.first_turn_two_spreads_pays is not None:
        rows.append((_("Out with two spreads in one's first turn"),
                     stakes(rules.first_turn_two_spreads_pays),
                     from_each(rules.first_turn_two_spreads_pays)))
    rows.append((_("Out (last card discarded)"), stakes(rules.out_pays),
                 from_each(rules.out_pays)))
    rows.append((_("Drop won"), stakes(rules.drop_pays), from_each(rules.drop_pays)))
    scheme = CATCH_SCHEMES[rules.caught]
    one = "" if push_ups else _("1 stake is {amount}",
                                 amount=cash(stake, quantum, currency, unit, lang))
    caught, cost = language.say(scheme.said(), lang), one
    if scheme.amount is not None:  # the option it pays, in words, and what that is here
        option = getattr(rules, scheme.amount)
        if isinstance(option, Decimal):
            n, said = option, (option_value(scheme.amount, option, lang) if push_ups
                               else stakes_words(option, lang))
        else:  # "2n": twice the number of players at this table
            n = rules.caught_amount(len(log["players"]))
            said = _("{stakes} ({value})", stakes=stakes_words(n, lang),
                     value=option_value(scheme.amount, option, lang))
        caught = language.say(scheme.said(said), lang)
        if not push_ups:
            cost = _("{stakes} = {amount}", stakes=stakes_words(n, lang),
                     amount=cash(n * stake, quantum, currency, unit, lang))
            cost = language.say(Words(scheme.each or "{amount}", amount=cost), lang)
            if n != option:
                ngettext = plurals(lang)
                cost += " " + ngettext("({n} player)", "({n} players)", len(log["players"]))
    rows.append((_("Caught"), caught, cost))
    if rules.stock_out == "dead":
        rows.append((_("Stock out"), _("the hand is dead: no payments"), ""))
    else:
        rows.append((_("Stock out"), stakes(rules.stock_out_pays),
                     _("to the lowest count:") + " " + from_each(rules.stock_out_pays)))
    return rows


def examples(log: dict, lang: str) -> list[str]:
    """What the rules other tables play (issue 36) mean at this table, each
    example worked out by the engine itself: which runs the ace makes, who
    deals after a winner (the table's own seats), what a caught drop pays,
    when the match ends."""
    from ..ledger.payments import settle_ending
    from ..rules.cards import card_label
    from ..rules.ending import DROP, Ending
    from ..rules.spreads import is_run
    from ..rules.table import Table
    from .words import match_words

    _ = words(lang)
    rules, out = open_session(log).rules, []

    def said(cards: str) -> str:
        return " ".join(card_label(c) for c in cards.split())

    if rules.ace == "low_or_high":
        deck = rules.deck_info
        runs = [c for c in ("Qh Kh Ah", "Ah 2h 3h") if is_run(c.split(), deck)]
        not_runs = [c for c in ("Kh Ah 2h", "Qh Kh Ah 2h") if not is_run(c.split(), deck)]
        out.append(_("The ace low or high: {runs} are runs; {not_runs} are not.",
                     runs=", ".join(map(said, runs)), not_runs=", ".join(map(said, not_runs))))
    if rules.pickup_depth == 2:
        out.append(_("Two-deep pickup: with {top} on top of {second}, a player may take "
                     "either instead of drawing; the other card stays where it was.",
                     top=said("5h"), second=said("7d")))
    seats = log["players"]
    if rules.dealer_rotation == "winner_leads":
        winner = seats[-1]
        table = Table.resume(rules, seats, started=1, last_seats=seats, last_dealer=seats[0],
                             last_winners=[winner])
        out.append(_("The winner leads: if {winner} wins a hand, {dealer} deals the next one "
                     "and {winner} plays first.", winner=winner,
                     dealer=table.expected_dealer(seats)))
    if rules.caught == "lowest_wins" and len(seats) >= 3:
        counts = dict.fromkeys(seats, 20)
        counts.update({seats[0]: 9, seats[1]: 7, seats[2]: 9})
        ending = Ending(DROP, tuple(seats), seats[-1], player=seats[0], counts=counts)
        story = " ".join(language.say(w, lang) for w in settle_ending(ending, rules).words)
        out.append(_("For example: {story}", story=story))
    if rules.match_to is not None:
        out.append(match_words({"to": rules.match_to, "over": False}, lang))
    return out


def render_sheet(log: dict, *, lang: str | None = None, url: str | None = None,
                 stake: dict | None = None) -> bytes:
    """The one-page house-rules sheet of the table of ``log`` in ``lang``
    (else the log's language); ``url``, the table's page, is printed and
    drawn as a QR code; ``stake``, a stored table's stake in force
    (``service.sessions.stake_in_force``)."""
    register_fonts()
    lang = paper_language(log, lang)
    _ = words(lang)
    st = styles()
    session = open_session(log)
    rules = session.rules
    table_name = table_named(TableRef.of(log), lang)
    unit = unit_of(log, rules, lang)
    push_ups = rules.scoring == "push_ups"
    currency = currency_of(log, rules)
    buf = io.BytesIO()
    doc = document(buf, title=_("House rules: {table}", table=table_name),
                   subject=_("The house rules of {table}", table=table_name), kind="sheet")
    width = doc.width
    story: list = [Paragraph(_("House rules: {table}", table=esc(table_name)), st["title"])]
    now, since = stake_in_force(log, stake)
    stake = cash(now, session.quantum, currency, unit, lang)
    if push_ups:
        stake_line = scoring_line(lang) + "."
    else:
        stake_line = _("Stake: {stake} (the amount 1 stake stands for).", stake=esc(stake))
        if since:
            stake_line += " " + _("The table changed it: this stake holds from hand {n} on.",
                                  n=since)
    story.append(Paragraph(stake_line, st["body"]))
    intro, lines = rules_in_words(rules, lang)
    story.append(Paragraph(esc(intro), st["body"]))
    for line in lines:
        story.append(Paragraph(line, st["bullet"], bulletText="•"))
    for line in examples(log, lang):
        story.append(Paragraph(esc(line), st["bullet"], bulletText="•"))

    story.append(Paragraph(_("What each ending scores") if push_ups else
                           _("What each ending pays"), st["h2"]))
    head = [Paragraph(_("Ending"), st["head"]),
            Paragraph(_("Win") if push_ups else _("Pays"), st["head"]),
            Paragraph(_("At this table"), st["head"])]
    data = [head] + [[Paragraph(esc(a), st["cell"]), Paragraph(esc(b), st["cell"]),
                      Paragraph(esc(c), st["cell"])] for a, b, c in payment_rows(log, lang, now)]
    t = Table(data, colWidths=[width * 0.3, width * 0.4, width * 0.3], hAlign="LEFT",
              repeatRows=1)
    t.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#F2F2F2")]),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]))
    story.append(t)
    story.append(Paragraph(esc(language.gettext(lang, BEATERS)), st["small"]))
    if url:
        qr = qr_drawing(url, cell=0.7 * mm)
        text = Paragraph(_("The table's page, with the standings and every hand: {url}",
                           url=f"<font size=7>{esc(url)}</font>"), st["small"])
        story.append(Table([[qr, text]], colWidths=[qr.width + 4 * mm, None], hAlign="LEFT",
                           style=[("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    doc.build(story)
    return buf.getvalue()
