"""The replay's text report (``referee replay LOG``, no ``--json``): a
session's hands, totals and money as lines for a person, in the log's
language or the one asked for."""

from __future__ import annotations

from ..rules.words import LANGUAGES


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
        from ..ledger.money import fmt, parse_stake
        from .words import outcome_words, words

        self.log, self.lang, self.q = session.log, lang, result.quantum
        self.language, self.fmt, self.parse_stake = language, fmt, parse_stake
        self.outcome_words = outcome_words
        self.plain = lang == language.DEFAULT
        self.push_ups = session.rules.scoring == "push_ups"
        self._ = _ = words(lang)
        self.unit = self.log.get("currency") or (
            _("push-ups") if self.push_ups else language.gettext(lang, language.POINTS))

    def num(self, value, quantum=None) -> str:
        quantum = self.q if quantum is None else quantum
        if self.plain:
            return self.fmt(value, quantum)
        return self.language.amount(value, quantum, self.lang)

    def amount(self, value, quantum=None) -> str:
        language = self.language
        quantum = self.q if quantum is None else quantum
        currency = self.log.get("currency")
        if not currency:
            return language.quantity(value, self.num(value, quantum), self.unit, self.lang)
        if self.plain:
            return f"{self.num(value, quantum)} {self.unit}"
        return language.money(value.quantize(quantum), currency, self.lang)

    def outcome(self, code: str) -> str:
        return self.outcome_words(code, self.lang)

    def stake_words(self, text: str) -> str:
        """A stake as written ("1 point", not "1 points")."""
        language = self.language
        value = self.parse_stake(text)
        if not self.plain:
            text = language.decimal_text(value, max(0, -value.as_tuple().exponent), self.lang)
        if self.log.get("currency"):
            return f"{text} {self.unit}"
        return language.quantity(value, text, self.unit, self.lang)

    def time(self, value: str) -> str:
        """English keeps the log's own time (scripts read it); a person's language its form."""
        return value if self.plain else self.language.time_text(value, self.lang)


def format_report(session, result, lang: str | None = None) -> str:
    """The replay's report for a person, in ``lang`` (else the log's language)."""
    from .words import paper_language

    said = _Forms(session, result, paper_language(session.log, lang))
    columns = _columns(result, said)  # each hand's outcome said once, for both tables
    lines = _head_lines(session, result, said)
    lines += _hand_lines(session, result, said, columns)
    lines += _end_lines(session, result, said, columns)
    return "\n".join(lines)


def _head_lines(session, result, said: _Forms) -> list[str]:
    from .words import plurals

    log, _, ngettext = session.log, said._, plurals(said.lang)  # named for the catalog tool
    title = log.get("table") or _("Tonk session")
    lines = [ngettext("{title}: {n} hand, rules {preset}, stake {stake}",
                      "{title}: {n} hands, rules {preset}, stake {stake}",
                      len(result.hands), title=title, preset=session.rules.preset,
                      stake=said.stake_words(log["stake"]))]
    if "started" in log:
        lines.append(_("Started {time}", time=said.time(log["started"])))
    if "closed" in log:
        lines.append(_("Closed {time}", time=said.time(log["closed"])))
    return lines


def _columns(result, said: _Forms) -> tuple[int, int, int, list[str]]:
    """The table's widths (players' columns, outcome, hand) and each hand's outcome."""
    _ = said._
    width = max(8, *(len(p) for p in result.players))
    outcomes = [said.outcome(h.outcome) for h in result.hands]
    return (width, max(10, len(_("outcome")), *(len(o) for o in outcomes)),
            max(4, len(_("hand"))), outcomes)


def _hand_lines(session, result, said: _Forms, columns) -> list[str]:
    from .. import language
    from ..ledger.money import parse_stake
    from ..rules.told import TOLD
    from .words import story_in

    _, lang, players = said._, said.lang, result.players
    width, ow, hw, outcomes = columns
    hand, dealer, outcome_head = _("hand"), _("dealer"), _("outcome")
    lines = ["", f"{hand:>{hw}}  {dealer:<{width}}  {outcome_head:<{ow}}  " +
             "  ".join(f"{p:>{width}}" for p in players)]
    setups = session.log.get("hands", [])
    indent = " " * (hw + 2)
    for h, words_out in zip(result.hands, outcomes, strict=True):
        nets = "  ".join(f"{said.num(h.net[p]) if p in h.net else '':>{width}}"
                         for p in players)
        lines.append(f"{h.number:>{hw}}  {h.dealer:<{width}}  {words_out:<{ow}}  {nets}")
        setup = setups[h.number - 1] if h.number <= len(setups) else {}
        if h.reason is not None:
            lines.append(indent + _("void: {reason} (nobody pays; the deal does not pass)",
                                    reason=h.reason))
            continue
        if h.told:
            lines.append(indent + language.gettext(lang, TOLD))
        if "stake" in setup and parse_stake(setup["stake"]) != session.stake:
            lines.append(indent + _("stake {stake} for this hand",
                                    stake=said.stake_words(setup["stake"])))
        lines += [indent + sentence for sentence in story_in(h.settlement, lang)]
        # the side bets' pots are in the hand's nets: say where they went
        lines += [indent + language.say(words_said, lang) for words_said in h.side_bets]
    return lines


def _end_lines(session, result, said: _Forms, columns) -> list[str]:
    _, players = said._, result.players
    width, ow, hw, _outcomes = columns
    totals = _("totals")
    lines = ["", f"{'':>{hw}}  {totals:<{width}}  {'':<{ow}}  " +
             "  ".join(f"{said.num(result.totals[p]):>{width}}" for p in players), ""]
    if result.balances is not None:
        lines += _money_lines(session.log, result, said.amount, said.num, _, said.lang)
        lines.append("")
    if result.transfers:
        lines.append(_("Still owed:") if result.balances is not None else _("To settle up:"))
        for t in result.transfers:
            owed = said.amount(t.amount, said.q if result.balances is None
                               else result.balance_quantum)
            lines.append("  " + _("{payer} pays {payee} {amount}", payer=t.payer,
                                  payee=t.payee, amount=owed))
    elif session.rules.scoring == "push_ups":
        low = min(result.totals.values(), default=0)
        best = [p for p in players if result.totals[p] == low]
        lines.append(_("Push-up scores: lowest is best ({players}).", players=", ".join(best)))
    else:
        lines.append(_("Nobody owes anything."))
    match = result.match()
    if match is not None:
        from .words import match_words

        lines.append(match_words(match, said.lang))
    return lines


def _money_lines(log: dict, result, amount, num, _, lang: str) -> list[str]:
    """Brought forward, the payments made at the table, and the balances."""
    bq = result.balance_quantum
    lines = []
    carried = result.money.brought_forward
    if carried:
        lines.append(_("Brought forward: {amounts}", amounts=", ".join(
            f"{p} {num(carried[p], bq)}" for p in result.players if p in carried)))
    from decimal import Decimal

    from .words import time_text

    for doc in log.get("payments", []):
        extra = [doc["at"] if lang == LANGUAGES[0] else time_text(doc["at"], lang)] \
            if "at" in doc else []
        extra += [doc["note"]] if "note" in doc else []
        if "undone" in doc:
            extra.append(_("taken back"))
        elif doc.get("pending"):
            extra.append(_("waiting for {payee} to confirm: it settles nothing yet",
                           payee=doc["to"]))
        lines.append(_("Paid: {payer} pays {payee} {amount}", payer=doc["from"],
                       payee=doc["to"], amount=amount(Decimal(str(doc["amount"]).strip()), bq))
                     + (f" ({', '.join(extra)})" if extra else ""))
    for carry in log.get("carried_forward", []):
        lines.append(_("Carried on to table {session}: {amounts}", session=carry["to"],
                       amounts=", ".join(f"{p} {num(Decimal(str(v)), bq)}"
                                         for p, v in carry["balances"].items())))
    lines.append(_("Balances (brought forward + totals + paid - received): {amounts}",
                   amounts=", ".join(f"{p} {num(v, bq)}" for p, v in result.balances.items())))
    return lines
