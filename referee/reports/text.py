"""The replay's text report (``referee replay LOG``, no ``--json``): a
session's hands, totals and money as lines for a person, in the log's
language or the one asked for: the result's sections
(``sections.Sections``) laid out as lines, as the PDF and the pages lay
out the same sections."""

from __future__ import annotations


class _Forms:
    """How the replay's report writes numbers, money and stakes in its
    language: English keeps plain decimals (``1.50``) and the log's own
    stake text, as scripts have always read them; another language its
    locale's forms, money as on the papers (``1,75 €``)."""

    def __init__(self, session, result, lang: str) -> None:
        # Imported here, once a report is asked for (not by `replay --json`,
        # whose start-up never loads babel), and kept: ``num`` is called for
        # every player of every hand.
        from .. import language
        from ..ledger.money import amounts_currency, fmt, parse_stake
        from .words import outcome_words, words

        self.log, self.lang, self.q = session.log, lang, result.quantum
        self.language, self.fmt, self.parse_stake = language, fmt, parse_stake
        self.outcome_words = outcome_words
        self.plain = lang == language.DEFAULT
        self.push_ups = session.rules.scoring == "push_ups"
        self._ = words(lang)
        self.currency = amounts_currency(self.log.get("currency"), session.rules.scoring)
        self.unit = language.unit_name(self.currency, lang)

    def num(self, value, quantum=None) -> str:
        quantum = self.q if quantum is None else quantum
        if self.plain:
            return self.fmt(value, quantum)
        return self.language.amount(value, quantum, self.lang)

    def amount(self, value, quantum=None) -> str:
        language = self.language
        quantum = self.q if quantum is None else quantum
        currency = self.currency
        if not currency:
            return language.quantity(value, self.num(value, quantum), self.unit, self.lang)
        if self.plain:
            return f"{self.num(value, quantum)} {self.unit}"
        return language.money(value.quantize(quantum), currency, self.lang)

    def outcome(self, code: str) -> str:
        return self.outcome_words(code, self.lang)

    def stake_words(self, text: str) -> str:
        """A stake as written ("1 point", not "1 points"); in a language
        other than English, money as the pages write it ("1,00 €", with
        every place it has: "0,125 €")."""
        language = self.language
        value = self.parse_stake(text)
        currency = self.currency
        if not self.plain:
            if currency:
                return language.money(value, currency, self.lang)
            text = language.decimal_text(value, max(0, -value.as_tuple().exponent), self.lang)
        if currency:
            return f"{text} {self.unit}"
        return language.quantity(value, text, self.unit, self.lang)

    def time(self, value: str) -> str:
        """A time as the papers write it in every language ("2026-11-28 22:46
        UTC", "28.11.2026 22:46 UTC"), in the table's time zone: English
        wrote the log's ISO form (newcomer N13)."""
        return self.language.time_text(value, self.lang, self.log.get("started")) or value


def format_report(session, result, lang: str | None = None) -> str:
    """The replay's report for a person, in ``lang`` (else the log's language):
    the result's sections (``sections.Sections``) laid out as lines."""
    from .sections import Sections
    from .words import paper_language

    sec = Sections.replayed(session, result=result)
    said = _Forms(session, result, paper_language(session.log, lang))
    columns = _columns(result, said)  # each hand's outcome said once, for both tables
    lines = _head_lines(sec, said)
    lines += _hand_lines(sec, said, columns)
    lines += _end_lines(sec, said, columns)
    return "\n".join(lines)


def _head_lines(sec, said: _Forms) -> list[str]:
    from .sections import TableRef
    from .words import plurals, scoring_line, table_named

    _, ngettext = said._, plurals(said.lang)  # named for the catalog tool
    title = table_named(TableRef.of(sec.log), said.lang)
    if sec.push_ups:  # its stake multiplies nothing: how it scores instead
        lines = [ngettext("{title}: {n} hand, rules {preset}", "{title}: {n} hands, rules {preset}",
                          len(sec.hands), title=title, preset=sec.preset)
                 + ". " + scoring_line(said.lang)]
    else:
        lines = [ngettext("{title}: {n} hand, rules {preset}, stake {stake}",
                          "{title}: {n} hands, rules {preset}, stake {stake}",
                          len(sec.hands), title=title, preset=sec.preset,
                          stake=said.stake_words(sec.log["stake"]))]
    if "started" in sec.log:
        lines.append(_("Started {time}", time=said.time(sec.started)))
    if sec.final:
        lines.append(_("Closed {time}", time=said.time(sec.closed)))
    return lines



def _columns(result, said: _Forms) -> tuple[int, int, int, list[str]]:
    """The table's widths (players' columns, outcome, hand) and each hand's outcome."""
    _ = said._
    width = max(8, *(len(p) for p in result.players))
    outcomes = [said.outcome(h.outcome) for h in result.hands]
    return (width, max(10, len(_("outcome")), *(len(o) for o in outcomes)),
            max(4, len(_("hand"))), outcomes)


def _hand_lines(sec, said: _Forms, columns) -> list[str]:
    from .. import language
    from ..rules.told import TOLD
    from .words import story_in, void_reason_in

    _, lang, players = said._, said.lang, sec.players
    width, ow, hw, outcomes = columns
    hand, dealer, outcome_head = _("hand"), _("dealer"), _("outcome")
    lines = ["", f"{hand:>{hw}}  {dealer:<{width}}  {outcome_head:<{ow}}  " +
             "  ".join(f"{p:>{width}}" for p in players)]
    own_stakes = sec.own_stakes
    indent = " " * (hw + 2)
    for h, words_out in zip(sec.hands, outcomes, strict=True):
        nets = "  ".join(f"{said.num(h.net[p]) if p in h.net else '':>{width}}"
                         for p in players)
        lines.append(f"{h.number:>{hw}}  {h.dealer:<{width}}  {words_out:<{ow}}  {nets}")
        if h.reason is not None:
            lines.append(indent + _("void: {reason} (nobody pays; the deal does not pass)",
                                    reason=void_reason_in(h.reason, lang)))
            continue
        if h.told:
            lines.append(indent + language.gettext(lang, TOLD))
        if h.number in own_stakes:
            lines.append(indent + _("stake {stake} for this hand",
                                    stake=said.stake_words(own_stakes[h.number])))
        lines += [indent + sentence for sentence in story_in(h.settlement, lang)]
        # the side bets' pots are in the hand's nets: say where they went
        lines += [indent + language.say(words_said, lang) for words_said in h.side_bets]
    return lines


def _end_lines(sec, said: _Forms, columns) -> list[str]:
    from .words import compared_words, match_words, pays_words

    _, players = said._, sec.players
    width, ow, hw, _outcomes = columns
    totals = _("totals")
    lines = ["", f"{'':>{hw}}  {totals:<{width}}  {'':<{ow}}  " +
             "  ".join(f"{said.num(sec.totals[p]):>{width}}" for p in players), ""]
    if sec.money is not None:
        lines += _money_lines(sec, said)
        lines.append("")
    if sec.transfers:
        lines.append(_("Still owed:") if sec.money is not None else _("To settle up:"))
        lines += ["  " + pays_words(t.payer, t.payee, said.amount(t.amount, sec.transfer_quantum),
                                    said.lang) for t in sec.transfers]
    elif sec.push_ups:
        lines.append(compared_words(sec.best, said.lang))
    else:
        lines.append(_("Nobody owes anything."))
    if sec.match is not None:
        lines.append(match_words(sec.match, said.lang))
    return lines


def _money_lines(sec, said: _Forms) -> list[str]:
    """Brought forward, the payments made at the table, and the balances."""
    from .. import language
    from .words import (
        BALANCES_ARE,
        BROUGHT_FROM,
        CARRIED_TO,
        paid_words,
        payment_extras,
        table_named,
    )

    money = sec.money
    _, lang, bq = said._, said.lang, money.quantum

    def money_of(value) -> str:  # in its currency, as the payments' lines and the paper say it
        return said.amount(value, bq)

    lines = []
    carried = money.brought_forward
    if carried:
        amounts = ", ".join(f"{p} {money_of(carried[p])}" for p in sec.players if p in carried)
        lines.append(_("Brought forward: {amounts}", amounts=amounts)
                     if money.brought_from is None else
                     language.gettext(lang, BROUGHT_FROM, amounts=amounts,
                                      table=table_named(money.brought_from, lang)))
    for given in money.payments:
        when = said.time(given.at) if given.at is not None else None
        tail = f" ({', '.join(payment_extras(given, when, lang))})"
        # The paid sentence, as the PDF says it: "Paid: Chris zahlt Anna"
        # read a past label over a present verb (newcomer N13).
        lines.append(paid_words(given.payer, given.payee, said.amount(given.amount, bq), lang)
                     + tail)
    for to, amounts in money.carries:
        lines.append(language.gettext(lang, CARRIED_TO, table=table_named(to, lang),
                                      amounts=", ".join(f"{p} {money_of(v)}"
                                                        for p, v in amounts.items())))
    lines.append(language.gettext(lang, BALANCES_ARE[money.terms], amounts=", ".join(
        f"{p} {money_of(v)}" for p, v in money.balances.items())))
    return lines
