"""How a paper says its sentences in its language: without the PDF machinery,
so the command line's text reports and the reference page use it too."""

from __future__ import annotations

from .. import language
from ..language import N_, decimal_text, money_text, time_text  # noqa: F401

# A paper's numbers, money and times: the language's one statement of them.
from ..rules.ending import OUTCOME_WORDS  # noqa: F401 - the outcomes' names, stated there
from ..rules.words import CLUB_SETTLEMENT, LEFT_THE_TABLE, TABLE_WITH, VOID_REASONS, Names


def outcome_words(outcome: str, lang: str) -> str:
    """A hand's outcome as the paper names it in ``lang``."""
    return language.gettext(lang, OUTCOME_WORDS[outcome]) if outcome in OUTCOME_WORDS \
        else outcome


#: What the catch schemes' words mean (the reference page and the sheet).
BEATERS = N_("A beater is a non-dropper whose count is equal to or lower than the "
             "dropper's; the lowest are the non-droppers with the lowest count.")


def words(lang: str):
    """The papers' ``_``: an English sentence in ``lang``, its ``{name}``
    placeholders filled in (named ``_`` where it is used, so the catalog tool
    finds the sentences)."""
    lang = language.choose(lang)

    def translate(template: str, /, **params: object) -> str:
        return language.gettext(lang, template, **params)

    return translate


def plurals(lang: str):
    """The papers' ``ngettext`` (named so where it is used, for the catalog
    tool): the singular or plural sentence in ``lang`` for ``n``."""
    lang = language.choose(lang)

    def translate(singular: str, plural: str, n: object, /, **params: object) -> str:
        return language.ngettext(lang, singular, plural, n, **params)

    return translate


def match_words(match: dict, lang: str) -> str:
    """Where a match to a score stands (the result's ``match``), said the
    same way on every page and paper: over, after which hand, who won; or
    the score it goes to."""
    _ = words(lang)
    if match["over"]:
        return _("Match over after hand {hand}: {winners} won the match to {to} (the lowest "
                 "score).", hand=match["after_hand"], winners=", ".join(match["winners"]),
                 to=match["to"])
    return _("A match to {to}: it ends after the hand in which a score reaches {to}; the "
             "lowest score wins.", to=match["to"])


#: Push-up scores are compared, not paid: the one sentence of it where a
#: table with stakes says who pays whom (the settlement's pages and papers).
COMPARED = N_("Push-up scores are compared, not paid: lowest is best ({players}).")


#: How a push-up table scores, said where a table with stakes says its stake
#: (the pages' stake line, the papers' "Stake" row, the text report's head,
#: the house-rules sheet): its stake multiplies nothing, so it is never said.
PUSH_UPS_SCORING = N_("push-ups (no money; the lowest score is best)")
SCORING = N_("Scoring")


def scoring_words(lang: str) -> str:
    """The phrase that says a push-up table's scoring (a paper's "Scoring" row)."""
    return language.gettext(lang, PUSH_UPS_SCORING)


def scoring_line(lang: str) -> str:
    """"Scoring: push-ups (...)": the line a push-up table has for a stake line."""
    return language.gettext(lang, N_("{label}: {text}"), label=language.gettext(lang, SCORING),
                            text=scoring_words(lang))


def compared_words(best: list[str], lang: str) -> str:
    """Push-up scores are not paid, and who is best (``sections.best``)."""
    return language.gettext(lang, COMPARED, players=", ".join(best))


def pays_words(payer: str, payee: str, amount: str, lang: str) -> str:
    """Who pays whom how much ("Ann pays Ben 1.50 €"): the one sentence of
    a transfer on every page and paper (the names and the amount as the
    caller writes them: marked up, escaped)."""
    return language.gettext(lang, PAYS, payer=payer, payee=payee, amount=amount)


def paid_words(payer: str, payee: str, amount: str, lang: str) -> str:
    """A payment made ("Ann paid Ben 1.50 €"), as ``pays_words`` writes one owed."""
    return language.gettext(lang, PAID, payer=payer, payee=payee, amount=amount)


#: Where a payment was marked paid, beside it on every page and paper: the
#: club's mark is named by its note (``rules.words.CLUB_SETTLEMENT``), any
#: other by this: a carried table's page showed a payment the club marked
#: no differently from one of its own (newcomer N11).
RECORDED_HERE = N_("recorded at this table")


def payment_where(payment, lang: str) -> str:
    """Where a payment was marked paid (``sections.Payment``): at the club,
    or at this table."""
    return language.gettext(lang, CLUB_SETTLEMENT if payment.club else RECORDED_HERE)


def payment_extras(payment, when: str | None, lang: str) -> list[str]:
    """What a paper says beside a payment's sentence, in order: when
    (``when``, as the paper writes times), where it was marked, the note a
    person wrote (the club's is its where), and why it moves nothing."""
    extra = [when] if when else []
    extra.append(payment_where(payment, lang))
    if payment.note and not payment.club:
        extra.append(language.note_words(payment.note, lang))
    state = payment_state(payment, lang)
    return extra + [state] if state else extra


def payment_state(payment, lang: str) -> str | None:
    """Why a payment the record lists moves nothing (``sections.Payment``):
    taken back, or waiting for its payee to confirm; None: it counts."""
    _ = words(lang)
    if payment.undone:
        return _("taken back")
    if payment.pending:
        return _("waiting for {payee} to confirm: it settles nothing yet",
                 payee=payment.payee)
    return None


#: A table without a name, as people know it: who sat at it, when it opened.
TABLE_WITH_OPENED = N_("Table with {players}, opened {when}")
TABLE_OPENED = N_("Table opened {when}")


def table_named(table, lang: str) -> str:
    """A table as a person knows it (``sections.TableRef``), the one way
    every page, paper, command and payment names one (newcomer N10): its
    name; else who sat at it and when it opened ("Table with Ann and Ben,
    opened 2026-11-28 22:38 UTC"), in the reader's language; its id only
    where nothing else is known of it (an old carry read alone). A copy of a
    night stored already says so (newcomer45 P4: the club listed each debt
    twice under one name)."""
    named = _table_named(table, lang)
    return language.gettext(lang, TABLE_COPY, table=named) if table.copy_of else named


#: A table imported as a copy of a night stored already, wherever it is named.
TABLE_COPY = N_("{table} (copy)")


def _table_named(table, lang: str) -> str:
    if table.name:
        return table.name
    when = language.time_text(table.opened, lang, table.opened)
    players = Names(table.players)
    if players and when:
        return language.gettext(lang, TABLE_WITH_OPENED, players=players, when=when)
    if players:
        return language.gettext(lang, TABLE_WITH, players=players)
    if when:
        return language.gettext(lang, TABLE_OPENED, when=when)
    return language.gettext(lang, N_("Table {id}"), id=table.id or "?")


#: Debts carried between tables, on every page and paper: the earlier table
#: they came from, the later one they went to (by name), and the balances.
BROUGHT_FROM = N_("Brought forward from {table}: {amounts}")
CARRIED_TO = N_("Carried on to {table}: {amounts}")
#: An open table whose debts were carried on to a later one, on its page and
#: before a new hand there: a hand logged here stays owed here, and a host
#: with two tablets logged the night's next hand at the wrong one.
WENT_ON = N_("The debts owed here were carried on to {table} at {when}. If the night goes "
             "on there, log the next hand there: a hand logged here is owed at this table, "
             "not at {table}.")

#: What a balance is made of, said with the terms the table has and no
#: others, keyed (anything brought forward from an earlier table, anything
#: carried on to a later one): the PDF's note under its balances (whose
#: columns are those terms) and the text report's line. Debts carried away
#: are their own term, never "brought forward" with the sign turned.
BALANCE_IS = {
    (True, False): N_("A balance is what the player is owed (negative: owes): "
                      "brought forward, plus the hands, plus what they paid, less "
                      "what they received."),
    (True, True): N_("A balance is what the player is owed (negative: owes): "
                     "brought forward, plus the hands, plus what they paid, less "
                     "what they received, less what was carried on to a later table."),
    (False, True): N_("A balance is what the player is owed (negative: owes): "
                      "the hands, plus what they paid, less what they received, less "
                      "what was carried on to a later table."),
    (False, False): N_("A balance is what the player is owed (negative: owes): "
                       "the hands, plus what they paid, less what they received."),
}
BALANCES_ARE = {
    (True, False): N_("Balances (brought forward + totals + paid - received): {amounts}"),
    (True, True): N_("Balances (brought forward + totals + paid - received - carried on): "
                     "{amounts}"),
    (False, True): N_("Balances (totals + paid - received - carried on): {amounts}"),
    (False, False): N_("Balances (totals + paid - received): {amounts}"),
}


#: A transfer: who pays whom how much; and a payment made.
PAYS = N_("{payer} pays {payee} {amount}")
PAID = N_("{payer} paid {payee} {amount}")
#: A payment its payer's own phone marked paid: it waits for the payee's word.
CLAIMED = N_("{payer} says they paid {payee} {amount}: waiting for {payee} to confirm it, "
             "it settles nothing till then")
#: The same payment named, not said as done (a refused form names it so).
PAYMENT = N_("the payment of {amount} from {payer} to {payee}")
#: The same, its amount not one (refused, and quoted as typed by its refusal).
A_PAYMENT = N_("a payment from {payer} to {payee}")


#: Where a debt of the club's ledger is owed, and since when: the club nets
#: nothing across tables, so one pair may owe at two tables at once (the
#: club page and ``referee ledger`` say it alike).
OWED_AT = N_("at {table}, owed since {when}")
OWED_SINCE = N_("owed since {when}")


def owed_at(transfer: dict, lang: str, tables: dict | None = None) -> tuple[str, dict[str, str]]:
    """A ledger transfer's table and day (``service.club.ledger``): the
    sentence and its values, for the reader's ``_`` to fill in; the table
    named as everywhere (``table_named``) from its stored row in ``tables``
    (by id: ``club.tables``), else from what the transfer says."""
    from .sections import TableRef

    when = language.day(transfer["since"], lang) if transfer.get("since") else ""
    sid = transfer.get("session")
    if sid is None:  # the club's own payments: no table
        return OWED_SINCE, {"when": when}
    row = (tables or {}).get(sid)
    ref = TableRef.of(row) if row else TableRef(sid, transfer.get("table"))
    return OWED_AT, {"table": table_named(ref, lang), "when": when}


def paper_language(log: dict, asked: str | None = None) -> str:
    """The language of a table's paper: the one asked for, else the log's
    ``language``, else English. Every way of choosing it ends here, so the
    same table's paper is the same bytes however its language was chosen."""
    return language.choose(asked, log.get("language"))


def claim_words(when: str, timing: str | None, lang: str) -> str:
    """A deal-win claim (``total:49``, ``low:13``, ``five_faces``) in words."""
    _, ngettext = words(lang), plurals(lang)
    kind, _sep, number = when.partition(":")
    if kind == "total":
        text = ngettext("Dealt exactly {n} point", "Dealt exactly {n} points", number)
    elif kind == "low":
        text = ngettext("Dealt {n} point or fewer", "Dealt {n} points or fewer", number)
    elif kind == "five_faces":
        text = _("Dealt five face cards")
    else:
        text = when
    if timing == "first_turn":
        text += " " + _("(claimed at one's first turn)")
    elif timing:
        text += f" ({timing.replace('_', ' ')})"
    return text


def stakes_words(n, lang: str) -> str:
    """``n`` stakes in words: "1 stake", "2 stakes" ("2 Einsätze")."""
    ngettext = plurals(lang)
    n = n.normalize() if hasattr(n, "normalize") else n
    return ngettext("{count} stake", "{count} stakes", n, count=language.number(n, lang))


def option_label(name: str, lang: str) -> str:
    """An option's name as a reader reads it (``hand_size``: "hand size",
    "taille de la main"); a name the rules do not know stays as written."""
    from ..rules.options import OPTION_LABELS

    label = OPTION_LABELS.get(name)
    return language.gettext(lang, label) if label else name


def option_value(name: str, value: object, lang: str) -> str:
    """An option's value as a reader says it: yes/no, none, a number in the
    language's form, each deal win, a name's words (``double_to_beaters``:
    "double to the beaters")."""
    from decimal import Decimal

    from ..rules.options import VALUE_WORDS

    _ = words(lang)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("none")
    if isinstance(value, list):
        if not value:
            return _("none")
        return "; ".join(_("{when}: {stakes}",
                           when=claim_words(claim["when"], claim.get("timing"), lang),
                           stakes=stakes_words(Decimal(str(claim["pays"])), lang))
                         for claim in value)
    if isinstance(value, (int, float, Decimal)):
        return language.number(value, lang)
    said = VALUE_WORDS.get(name, {}).get(str(value))
    return language.gettext(lang, said) if said else str(value)


# The engine's sentences on a paper. The engine states them in English; these
# two are the one place a paper asks for them in its language, so how the
# engine hands over its sentences is known here only.

def story_in(settlement, lang: str) -> list[str]:
    """A hand's payment worked out, sentence by sentence, in ``lang``."""
    return [language.sentence_case(language.say(w, lang)) for w in settlement.words]


def error_in(err, lang: str) -> str:
    """What a ``RefereeError`` says, in ``lang``."""
    return language.message(err, lang)


#: The ledger's payment reasons (``Payment.reason``: a label, and in brackets
#: a code such as the catch scheme or the deal-win claim), by label.
REASONS = {
    "deal win": N_("deal win"),
    "tonk out": N_("tonk out"),
    "out": N_("out"),
    "drop won": N_("drop won"),
    "caught": N_("caught"),
    "lowest count": N_("lowest count"),
    "stock out, lowest count": N_("stock out, lowest count"),
}
#: A deal win's reason with its claim said after it, as "stock out, lowest
#: count" says what it pays for.
DEAL_WIN_CLAIMED = N_("deal win, {claim}")


def reason_in(reason: str, lang: str) -> str:
    """A payment's reason in ``lang``: its label translated, a deal win's claim
    in words after it ("deal win, a dealt hand of exactly 50"). The catch
    scheme the log names in brackets ("caught (pagat)") is not said: it is
    the table's rule for every catch, named once in the hand's story and in
    its house rules, and a name in brackets inside the brackets a payment's
    reason is written in read as broken (the newcomer's night, F6)."""
    from decimal import Decimal

    from ..rules.allowed import DealWin

    label, _sep, detail = reason.partition(" (")
    if label not in REASONS:
        return reason
    text = language.gettext(lang, REASONS[label])
    if label != "deal win" or not detail:
        return text
    try:
        claim = DealWin(detail.removesuffix(")"), Decimal(1)).claimed()
    except (KeyError, ValueError):  # a claim this referee does not know: as logged
        return f"{text}, {detail.removesuffix(')')}"
    return language.gettext(lang, DEAL_WIN_CLAIMED, claim=claim)


def void_reason_in(reason: str, lang: str) -> str:
    """Why a hand was voided, in ``lang``: the reasons the referee and the
    void form write (``rules.words.VOID_REASONS``, ``LEFT_THE_TABLE``)
    translated, a reason a person typed as typed."""
    if reason in VOID_REASONS:
        return language.gettext(lang, reason)
    head, sep, tail = LEFT_THE_TABLE.partition("{player}")
    if sep and reason.startswith(head) and reason.endswith(tail) \
            and len(reason) > len(head) + len(tail):
        return language.gettext(lang, LEFT_THE_TABLE,
                                player=reason[len(head):len(reason) - len(tail)])
    return reason
