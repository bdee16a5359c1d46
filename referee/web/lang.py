"""Which language a page or an API answer is in, and the page's words in it.

A reader's own choice comes first (``?lang=`` sets it, the ``lang`` cookie
remembers it); then the table's language, for pages of a session
(``use_table_language``); then the device's ``Accept-Language``; then
English. Flask-Babel asks ``select`` once a request, and every view,
template and error handler reads the answer with ``current``.

Templates mark their words with Flask-Babel's ``_()`` (``%(name)s``
placeholders); the views with ``_`` and ``ngettext`` below (``{name}``
placeholders, as ``referee.language`` and the engine's templates use).
Numbers, money and dates go through the ``num``, ``money`` and ``day``
filters, in the reader's locale; form values and data attributes keep the
plain machine form.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache
from urllib.parse import urlencode

from flask import current_app, g, has_request_context, request
from flask_babel import Babel, get_locale, refresh
from jinja2 import pass_eval_context
from markupsafe import Markup

from .. import language
from ..ledger.money import MAX_AMOUNT, POSITIVE_DECIMAL, STAKE_EXAMPLE, fmt
from ..record.events import AMOUNT_EXAMPLE
from ..record.schemas import FIELD_PROBLEM
from ..rules.cards import pretty
from ..rules.errors import MalformedInput, RefereeError
from ..rules.numbers import decimal
from ..rules.words import Names, Words

COOKIE = "lang"
#: A chosen language is remembered for a year.
COOKIE_AGE = 365 * 24 * 3600


def select() -> str:
    asked = request.args.get(COOKIE)
    if asked in language.LANGUAGES:
        return asked
    remembered = request.cookies.get(COOKIE)
    if remembered in language.LANGUAGES:
        return remembered
    table = g.get("table_language")
    if table in language.LANGUAGES:
        return table
    return request.accept_languages.best_match(language.LANGUAGES) or language.DEFAULT


def paper_language() -> str | None:
    """The language a page's links to the table's papers ask for (``?lang=``):
    the reader's own pick (this page's ``?lang=``, or the one the device
    remembers) when it is not the table's; None: the table's own, the paper's
    default. A paper's address names its language, so the same link gives
    the same bytes on every device (issue 35)."""
    if not has_request_context():
        return None
    pick = request.args.get(COOKIE) or request.cookies.get(COOKIE)
    if pick not in language.LANGUAGES or pick == g.get("table_language"):
        return None
    return pick


def current() -> str:
    """The reader's language (English outside a request). Asked once a
    request and kept (``g.reader_lang``): a table's page asks it for each of its
    sentences and amounts, and Flask-Babel's answer costs a dozen look-ups of
    the request's context (a fifth of the page's CPU)."""
    try:
        return g.reader_lang
    except AttributeError:  # not asked yet this request
        if not has_request_context():
            return language.DEFAULT
        lang = g.reader_lang = language.choose(str(get_locale()))
        return lang
    except RuntimeError:  # outside an application's context
        return language.DEFAULT


def use_table_language(table_language: str | None) -> None:
    """A session's page: the table's language is the default of its readers
    (their own pick still wins). Flask-Babel keeps the language it chose for
    the request, so it is asked again."""
    g.table_language = table_language
    refresh()
    g.pop("reader_lang", None)


def _(template: str, /, **params: object) -> str:
    """``template`` (English, ``{name}`` placeholders) in the reader's language."""
    return language.gettext(current(), template, **params)


def ngettext(singular: str, plural: str, n: int, /, **params: object) -> str:
    return language.ngettext(current(), singular, plural, n, **params)


def say(words) -> str:
    """The engine's ``Words`` (or plain text) in the reader's language."""
    return language.say(words, current())


def message(err) -> str:
    """A refusal's whole message (where, then why) in the reader's language."""
    return language.message(err, current())


def sentence(err) -> str:
    """A refusal's reason alone, for a page that already says where."""
    return language.sentence(err, current())


# ---------------------------------------------------------------- numbers

def _decimal(value) -> Decimal | None:
    try:
        return Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None


class _Column:
    """``money`` given no currency at all: the bare number, in a column whose
    heading names the unit ("total (EUR)", "total (points)")."""


COLUMN = _Column()


def money(value, currency: str | None | _Column = COLUMN) -> str:
    """An amount as the reader writes money (``1.234,50 €``), or points as
    points (``2 points``: ``currency`` None, the table's own); ``|money``
    alone, the bare number of a column. Text that is not a number is shown
    as it came."""
    if value is None:
        return ""
    if isinstance(currency, _Column):
        return _money_text(str(value), None, current(), column=True)
    return _money_text(str(value), _currency(currency), current())


def typed_money(text: str | None, currency: str | None) -> str | None:
    """An amount typed in a form (as ``typed_decimal`` reads it) as money, or
    None when it is no plain amount greater than 0, or larger than any
    amount may be: a refused form names it without one (its refusal quotes
    it as typed; "the new stake €0.00" named a stake that is none, and
    1e400 was written out in 400 digits)."""
    typed = language.read_decimal(text or "", current())
    value = _decimal(typed)
    return money(typed, currency) if value is not None and language.plain_decimal(typed) \
        and 0 < value <= MAX_AMOUNT else None


def _currency(key: str | None) -> str | None:
    """A table's currency, or the club's key of the tables played for points
    (``service.club.POINTS``), as money is written: None for points."""
    from ..service.club import POINTS

    return None if not key or key == POINTS else key


def in_points(currency: str | None) -> bool:
    """Whether a table's amounts are points (no currency): its sentences are
    their own, for the words around "points" may change with it ("in
    Punkten", not "in Punkte")."""
    return _currency(currency) is None


def unit_name(currency: str | None) -> str:
    """What a table's amounts are counted in, as a heading names it: its
    currency, else points in the reader's language ("total (Punkte)")."""
    return language.unit_name(_currency(currency), current())


def num(value) -> str:
    """A plain number (a count, a stake in points) in the reader's form."""
    if value is None:
        return ""
    return _number_text(str(value), current())


# A page writes the same few amounts again and again (a stake, its shares),
# each costing babel a pattern and a locale's symbols; written once each. The
# key is the value's text, which is all either reads (Decimal("1.0") and
# Decimal("1.00") are equal but written apart).
@lru_cache(maxsize=4096)
def _money_text(text: str, currency: str | None, lang: str, column: bool = False) -> str:
    """``text`` as money in ``currency`` (points said as points), or, for a
    column whose heading names the unit, the bare number."""
    amount = _decimal(text) if text != "" else None
    if amount is None:
        return text
    if column:
        return language.money(amount, None, lang)
    return language.in_unit(amount, currency, lang)


@lru_cache(maxsize=4096)
def _number_text(text: str, lang: str) -> str:
    amount = _decimal(text) if text != "" else None
    if amount is None:
        return text
    return language.number(amount, lang)


def figure(value) -> str:
    """A figure of the season (an average) to its places, as its paper
    writes it: one column says each with as many ("32,60", "42,67")."""
    from ..reports.season import _number

    return _number(value, current())


#: The characters a form's decimal field takes (its ``maxlength``), and the
#: most of a typed value a refusal quotes: more than any stake or amount is
#: written with in any language (``1.000.000.000.000,0000`` is 22), and a
#: refusal's line fits a tablet's width.
DECIMAL_WIDTH = 24


#: A form's decimal fields, by the key a refusal names them by: the example
#: a refusal gives, and its code (the service's for the same field).
DECIMAL_FIELDS = {"stake": (STAKE_EXAMPLE, "malformed"),
                  "payment_amount": (AMOUNT_EXAMPLE, "payment_amount")}


def typed_decimal(text: str | None, field: str) -> str:
    """A decimal typed in a form in the reader's form (``1,00`` on a German
    page), as the service reads it (``1.00``); the page's pattern says the same
    (``decimal_pattern``). The one reader of every amount typed in a form
    (a stake, a payment): the field takes digits and one decimal sign, so a
    number in another form (``1e400``, ``inf``, ``NaN``), or longer than the
    field, is refused here as no plain decimal, named by its ``field`` (the
    form's label of it, ``errors.on_form``) and its example: ``1e400`` was
    read as a number of 400 digits and written out in the refusal."""
    typed = (text or "").strip()
    read = language.read_decimal(typed, current())
    if len(typed) > DECIMAL_WIDTH or (decimal(read) is not None
                                      and not language.plain_decimal(read)):
        shown = typed if len(typed) <= DECIMAL_WIDTH else typed[:DECIMAL_WIDTH - 1] + "\u2026"
        example, code = DECIMAL_FIELDS[field]
        raise MalformedInput(code, FIELD_PROBLEM, {"field": field, "problem": Words(
            POSITIVE_DECIMAL, example=example, value=shown)})
    return read


def decimal_pattern() -> str:
    """The browser's pattern of a decimal field on this page."""
    return language.decimal_pattern(current())


def decimal_example() -> str:
    """A stake as the reader writes one: the new table's first value, and the
    example its hint gives. A call, not ``0.25|num`` in a template: Jinja
    folds a constant's filter when it compiles, outside any request, into
    the English "0.25"."""
    return num("0.25")


def decimal_hint() -> str:
    """What a decimal field takes, said beside it and as its pattern's title
    (a stake's: the new table's and the manage page's)."""
    return _("a decimal, like {example}", example=decimal_example())


def day(value) -> str:
    """A date (or the date of a timestamp) in the reader's form."""
    if not value:
        return ""
    try:
        return language.day(value, current())
    except (TypeError, ValueError):
        return str(value)


def clock(value) -> str:
    """A time (an event's) as the papers write it, in the reader's form and
    the table's time zone (its ``started``'s offset)."""
    from ..reports.words import time_text

    return time_text(value, current(), (g.get("summary") or {}).get("started")) or ""


def outcome(code: str | None) -> str:
    """How a hand ended, in words (the engine's English name, translated by
    the catalogs where they have it)."""
    if not code:
        return ""
    from ..reports.settlement import OUTCOME_WORDS

    return _(OUTCOME_WORDS.get(code, code.replace("_", " ")))


# ---------------------------------------------------------------- actions

def action_words(text: str, stock_empty: bool = False) -> str:
    """A logged action as a sentence in the reader's language: ``Ben: hit S1
    7c`` -> ``Ben hits S1 with 7♣`` (the log line itself stays as logged);
    ``stock_empty``: tapped with the stock empty (a draw then ends the play)."""
    return language.action_sentence(text, current(), stock_empty=stock_empty)


def note(text: str) -> str:
    """A dispute's note in the reader's language (``language.note_words``)."""
    return language.note_words(text, current())


def ruling(step) -> str:
    """An audit step's ruling in the reader's language: a refusal judged
    again from its code and parameters (``Step.error``), else its stored
    message (a correction's "undo of ...")."""
    if getattr(step, "error", None) is not None:
        return language.message(step.error, current())
    return undo_words(step.message)


def ruled_by(step) -> str:
    """A refusal's small print (an audit step's, a ``RefereeError``'s): the
    rule it names, or in words that the input could not be read."""
    err = step if isinstance(step, RefereeError) else getattr(step, "error", None)
    return language.ruled_by(err, current(), getattr(step, "code", None))


def undo_words(text: str | None) -> str:
    """An audit step's message (a correction's "undo of ...") in the reader's language."""
    return language.undo_words(text, current())


def logged(text: str, stock_empty: bool = False) -> Markup:
    """A log line as a page shows it: as logged, cards as symbols (the
    notation disputes and audits refer to); in a language other than English,
    the sentence it says in that language, the notation on hover only (its
    verbs are English: a German line followed by "Dev: draw" read as a slip)."""
    line = pretty(text)
    if current() == language.DEFAULT and not (stock_empty and " draw" in text):
        return Markup("{}").format(line)
    return Markup('<span title="{}">{}</span>').format(line, action_words(text, stock_empty))


def said(record: dict) -> Markup:
    """An action of a hand's history (``service.table.history``'s record: its
    fields, a take's card resolved) as ``logged`` shows a line: the notation
    in English, the sentence in the others with the line as logged on hover."""
    from ..service.table.history import as_action

    action = as_action(record)
    line = pretty(str(action))
    # A draw from the empty stock in words in every language: its line reads
    # as a draw of a card.
    if current() == language.DEFAULT and not record.get("stock_empty"):
        return Markup("{}").format(line)
    return Markup('<span title="{}">{}</span>').format(pretty(record["line"]), said_words(record))


def said_words(record: dict) -> str:
    """An action of a hand's history as a sentence in the reader's language."""
    from ..service.table.history import as_action

    return language.action_said(as_action(record), current(),
                                stock_empty=bool(record.get("stock_empty")))


# One whole sentence for each verb: word order and the verb's form differ by
# language. N_ marks them for the catalogs; ``_`` translates them when read.

# ---------------------------------------------------------------- the switch

def switch_links() -> list[dict]:
    """The language switch: each language with the address of this page in
    it (a page drawn by a form's post links to the page it came from,
    ``g.lang_back``)."""
    here = current()
    path = g.get("lang_back") or request.path
    args = [(k, v) for k, v in request.args.items(multi=True) if k != COOKIE] \
        if request.method == "GET" and not g.get("lang_back") else []
    return [{"code": code, "name": language.NAMES[code], "current": code == here,
             "href": path + "?" + urlencode([*args, (COOKIE, code)])}
            for code in language.LANGUAGES]


def _remember(response):
    """``?lang=`` on a page is the reader's pick: kept in the cookie, so
    every later page (and the table's own language) yields to it. Only on a
    page the reader browses: a paper's ``?lang=`` (a French paper handed to
    a French player from a German tablet) names that paper's language
    alone, and switched the whole device to French; nor on a redirect (to
    the PIN page before a paper), nor on the API's answers."""
    asked = request.args.get(COOKIE)
    if asked in language.LANGUAGES and response.mimetype == "text/html" \
            and not 300 <= response.status_code < 400 and not request.path.startswith("/api/") \
            and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=COOKIE_AGE, samesite="Lax",
                            httponly=True, secure=request.is_secure)
    return response


def _scoring() -> str:
    """A push-up table's scoring, where a table with stakes says its stake
    (``reports.words.scoring_line``, as the papers say it)."""
    from ..reports.words import scoring_line

    return scoring_line(current())


@pass_eval_context
def _page_gettext(eval_ctx, template: str, /, **params: object) -> str:
    """A page's ``_``: the sentence in the reader's language, its
    placeholders filled with the values escaped (a Markup value, a macro's
    output, as it is)."""
    lang = current()
    text = _page_words(lang, template, eval_ctx.autoescape)
    return language.fill(lang, text, params) if params else text


@lru_cache(maxsize=4096)
def _page_words(lang: str, template: str, autoescape: bool) -> str:
    """A page's sentence in ``lang``, as Markup where the page escapes:
    looked up once (a table's page says some eighty of them, the same
    ones on every reading)."""
    text = language.translations(lang).gettext(template)
    return Markup(text) if autoescape else text


@pass_eval_context
def _page_ngettext(eval_ctx, singular: str, plural: str, num: object, /,
                   **params: object) -> str:
    """A page's ``ngettext``: as ``_``, the count given as ``num`` too; any
    amount counts as ``language.plural_count`` says (-1 point, French 0,5 point)."""
    lang = current()
    text = language.translations(lang).ngettext(singular, plural,
                                                language.plural_count(lang, num))
    if eval_ctx.autoescape:
        text = Markup(text)
    return language.fill(lang, text, {"num": num, **params})


@pass_eval_context
def _pays(eval_ctx, payer: str, payee: str, amount: str) -> str:
    """Who pays whom how much on a page: the papers' one sentence of it
    (``reports.words.PAYS``), its values escaped as ``_`` escapes them."""
    from ..reports.words import PAYS

    return _page_gettext(eval_ctx, PAYS, payer=payer, payee=payee, amount=amount)


@pass_eval_context
def _paid(eval_ctx, payer: str, payee: str, amount: str) -> str:
    """A payment made, on a page (``reports.words.PAID``)."""
    from ..reports.words import PAID

    return _page_gettext(eval_ctx, PAID, payer=payer, payee=payee, amount=amount)


def _payment_where(payment) -> str:
    """Where a payment was marked paid, on a page: at the club or at this
    table (``reports.words.payment_where``, as the papers say it)."""
    from ..reports.words import payment_where

    return payment_where(payment, current())


@pass_eval_context
def _balances_are(eval_ctx, terms: tuple[bool, bool], amounts: str) -> str:
    """What each player stands at and what that is made of, on a page, with
    the terms the table has (``reports.words.BALANCES_ARE``, the text
    report's line): the hands' totals, the debts carried and the payments
    above it add up to it, and the transfers below it settle it."""
    from ..reports.words import BALANCES_ARE

    return _page_gettext(eval_ctx, BALANCES_ARE[tuple(terms)], amounts=amounts)


def _compared(best: list[str]) -> str:
    """Push-up scores are compared, not paid, on a page
    (``reports.words.compared_words``, as the papers say it)."""
    from ..reports.words import compared_words

    return compared_words(best, current())


@pass_eval_context
def _carried(eval_ctx, table, amounts: str, *, came: bool) -> str:
    """Debts carried between tables, on a page: the papers' sentences of
    them (``reports.words.BROUGHT_FROM``, ``CARRIED_TO``), the other table
    by its name (``reports.sections.TableRef``)."""
    from ..reports.words import BROUGHT_FROM, CARRIED_TO, table_named

    return _page_gettext(eval_ctx, BROUGHT_FROM if came else CARRIED_TO,
                         table=table_named(table, current()), amounts=amounts)


def table_title(table) -> str:
    """A table as a person knows it, on a page (``reports.words.table_named``):
    ``table`` a ``TableRef``, or what a page has at hand of one (its summary,
    a stored row, a log)."""
    from ..reports.sections import TableRef
    from ..reports.words import table_named

    return table_named(table if isinstance(table, TableRef) else TableRef.of(table), current())


@pass_eval_context
def _owed_at(eval_ctx, transfer: dict, tables: dict | None = None) -> str:
    """Where and since when a debt of the club's ledger is owed, on a page
    (``reports.words.owed_at``)."""
    from ..reports.words import owed_at

    template, params = owed_at(transfer, current(), tables)
    return _page_gettext(eval_ctx, template, **params)


def offline_words() -> Markup:
    """The offline queue's words in the reader's language, as the JSON
    ``static/offline.js`` reads (``templates/_offline_words.html``). They are
    the same on every page in a language, so each app renders them once a
    language: some sixty sentences, a tenth of a table page's CPU when said
    on every request (issue 37). A speed trick, registered in ``speed``."""
    kept = current_app.extensions.setdefault("tonk_offline_words", {})
    lang = current()
    try:
        return kept[lang]
    except KeyError:
        words = current_app.jinja_env.get_template("_offline_words.html").render()
        kept[lang] = Markup(words.strip())
        return kept[lang]


def init_app(app) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(language.TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", language.DEFAULT)
    Babel(app, locale_selector=select)
    # The pages' sentences have the same {name} placeholders as the code's
    # (one style in the catalogs); escaped as Jinja's own gettext escapes them.
    app.jinja_env.install_gettext_callables(gettext=_page_gettext, ngettext=_page_ngettext,
                                            newstyle=False)
    app.after_request(_remember)
    app.add_template_global(current, "lang")
    app.add_template_global(paper_language, "paper_lang")
    app.add_template_global(_pays, "pays")
    app.add_template_global(_paid, "paid")
    app.add_template_global(_compared, "compared")
    app.add_template_global(_payment_where, "payment_where")
    app.add_template_global(_balances_are, "balances_are")
    app.add_template_global(_scoring, "push_ups_scoring")
    app.add_template_filter(lambda result: language.story(result, current()), "story")
    app.add_template_global(_carried, "carried")
    app.add_template_global(_owed_at, "owed_at")
    app.add_template_global(switch_links, "language_links")
    app.add_template_global(decimal_pattern, "decimal_pattern")
    app.add_template_global(decimal_hint, "decimal_hint")
    app.add_template_global(DECIMAL_WIDTH, "decimal_width")
    app.add_template_global(decimal_example, "decimal_example")
    app.add_template_global(lambda: language.action_templates(current()), "action_templates")
    app.add_template_global(lambda: language.elision(current()), "elision")
    app.add_template_global(offline_words, "offline_words")
    app.add_template_filter(money, "money")
    app.add_template_global(unit_name, "unit_name")
    app.add_template_global(in_points, "in_points")
    app.add_template_global(table_title, "table_title")
    # an amount of the result's sections written to its quantum, for ``money``
    app.add_template_filter(fmt, "written")
    app.add_template_filter(num, "num")
    app.add_template_filter(figure, "figure")
    app.add_template_filter(day, "day")
    app.add_template_filter(clock, "clock")
    app.add_template_filter(action_words, "action_words")
    app.add_template_filter(outcome, "outcome")
    # A cell or a heading starts with a capital in every language, and only
    # its first letter changes (Jinja's capitalize lowered the rest: German's
    # "tote Hand" read "Tote hand"); German's nouns are capitals already.
    app.add_template_filter(language.sentence_case, "capital")
    app.add_template_filter(ruling, "ruling")
    app.add_template_filter(ruled_by, "ruled_by")
    app.add_template_filter(message, "message")
    app.add_template_filter(reason, "reason")
    app.add_template_filter(void_reason, "void_reason")
    app.add_template_filter(match_words, "match_words")
    # A sentence the engine states in English (a preset's source), in the
    # reader's language where the catalogs have it.
    app.add_template_filter(_, "translated")
    app.add_template_filter(logged, "logged")
    app.add_template_filter(said, "said")
    app.add_template_filter(said_words, "said_words")
    app.add_template_filter(note, "note")
    app.add_template_filter(undo_words, "undo_words")
    app.add_template_filter(names, "names")


def names(items) -> str:
    """Names said as a list, joined with the reader's "and" ("Dora and
    Anna win", not "Dora, Anna win")."""
    return say(Names(items))


def match_words(match: dict) -> str:
    """Where a match to a score stands, in the reader's language, as the
    papers say it."""
    from ..reports.words import match_words as said

    return said(match, current())


def reason(text: str) -> str:
    """A payment's reason (``tonk out``, ``caught (pagat)``) in the reader's
    language, as the papers say it."""
    from ..reports.words import reason_in

    return reason_in(text, current())


def option_label(name: str) -> str:
    """A house-rule option's name in the reader's language, as the papers
    say it (``hand_size``: "hand size")."""
    from ..reports.words import option_label as said

    return said(name, current())


def option_value(name: str, value: object) -> str:
    """A house-rule option's value in the reader's language, as the papers
    say it (``"double_to_beaters"``: "double to the beaters", ``true``: "yes")."""
    from ..reports.words import option_value as said

    return said(name, value, current())


def void_reason(text: str) -> str:
    """Why a hand was voided, in the reader's language where the referee or
    the form wrote it, as typed where a person did."""
    from ..reports.words import void_reason_in

    return void_reason_in(text, current())


def told(state: dict) -> dict:
    """A hand's state with its result's payment story in the reader's language
    (``story``); the words it is told from (``story_words``) are the
    service's, not the answer's."""
    result = state.get("result") if isinstance(state, dict) else None
    if not result or "story_words" not in result:
        return state
    story = language.story(result, current())
    result = {k: v for k, v in result.items() if k != "story_words"}
    result["story"] = story
    return {**state, "result": result}
