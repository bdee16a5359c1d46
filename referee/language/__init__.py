"""The languages the referee speaks, and the one place a sentence is put into one.

The engine and the ledger say what happened in codes and English sentence
templates with named parameters (``"it is {turn}'s turn, not {player}'s"``);
they never translate. Every shell (the tablet, the API, the command line, the
papers) turns a template into the reader's language here, from the gettext
catalogs in ``referee/translations`` (``LANG/LC_MESSAGES/messages.po``,
compiled to ``.mo``; ``python -m referee.devtools.catalogs`` extracts,
updates and compiles them). The game's own words follow ``docs/glossary.md``.

English is the source language: its catalog is empty and a template is its
own English sentence.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, date, datetime
from decimal import Decimal, localcontext
from functools import cache
from pathlib import Path

from babel import Locale, dates, numbers
from babel.support import NullTranslations, Translations

from ..ledger.money import STAKE_PLACES, unsigned
from ..rules.cards import shown
from ..rules.numbers import is_whole, whole

# N_ is the engine's marker, re-exported for the shells' own sentences.
from ..rules.words import (  # noqa: F401
    COUNTED,
    LANGUAGES,
    N_,
    REFEREE_NOTES,
    LoggedAction,
    Moment,
    Names,
    Np_,
    Phrases,
    Words,
    count_size,
    from_plain,
)

DEFAULT = LANGUAGES[0]

#: Each language's name in itself, for the switch.
NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "pt": "Português"}

#: The Babel locale whose number, money and date forms each language uses.
LOCALES = {"en": "en_US", "de": "de_DE", "fr": "fr_FR", "pt": "pt_PT"}

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"


def choose(*candidates: str | None) -> str:
    """The first candidate that is a language we speak (``"de-AT"`` counts as
    ``de``), else English."""
    for candidate in candidates:
        if not candidate:
            continue
        lang = str(candidate).strip().lower().replace("_", "-").split("-")[0]
        if lang in LANGUAGES:
            return lang
    return DEFAULT


@cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (an empty one for English)."""
    lang = choose(lang)
    if lang == DEFAULT:
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS), [lang], domain="messages")


def gettext(lang: str, template: str, /, **params: object) -> str:
    """``template`` in ``lang``, with its named ``params`` filled in: a
    ``Words`` parameter is put into ``lang`` too, ``Names`` are joined with
    its "and", a ``Decimal`` is written in its number form (in English as the
    engine writes it, the words the result format and the tests read), cards
    (``rules.words.CARD_PARAMS``) as the pages write them (``Q♦``)."""
    lang = choose(lang)
    counted = COUNTED.get(template)
    if counted is not None and counted.count in params:
        # A counted sentence (``rules.words.Np_``), said with the language's
        # plural rule, not English's pick.
        text = translations(lang).ngettext(counted.singular, counted.plural,
                                           plural_count(lang, params[counted.count]))
    else:
        text = translations(lang).gettext(template)
    return fill(lang, text, _in(lang, params)) if params else text


def ngettext(lang: str, singular: str, plural: str, n: object, /, **params: object) -> str:
    """The singular or plural ``template`` in ``lang`` for ``n`` (also given to
    the template as ``{n}``)."""
    lang = choose(lang)
    text = translations(lang).ngettext(singular, plural, plural_count(lang, n))
    return fill(lang, text, {"n": n, **_in(lang, params)})


def plural_count(lang: str, n: object) -> int:
    """The whole number that picks ``lang``'s singular or plural sentence for
    ``n``: a catalog's Plural-Forms reads whole numbers only, and of a
    fraction each language has its own rule (CLDR's, as babel has it): French
    says "0,5 point" and "1,5 point", German "0,5 Punkte". A negative amount
    agrees as its size does ("-1 point"). What is no finite number is many
    (a sentence is said whatever its count holds)."""
    size = count_size(n)
    if size is None:
        return 2
    if size == size.to_integral_value():
        return int(size)
    return 1 if locale(lang).plural_form(size) == "one" else 2


# ---------------------------------------------------------------- elision

#: The short words a language joins to a next word that starts with a vowel
#: sound, and how it writes them joined: French "de" and "que" before a name
#: ("Téléphone d'Ömer", "chacun d'Ömer et Anna", "dès qu'Anna montre").
#: Stated once for every sentence with a value in it (``fill``): the pages',
#: the papers', the API's, and the scripts' (``elision``).
ELISIONS = {"fr": {"de": "d'", "que": "qu'"}}
#: A value starting with a vowel sound, read without its accents and in lower
#: case: a vowel ("Ömer", "Élodie", "Œdipe"); an h, taken as mute (Hélène,
#: Hugo: a name's h cannot be told mute or aspirated); a y before a consonant
#: (Yves; Yann and Yasmine start with a consonant's sound). A digit does not
#: elide ("de 8♣", "de 11").
VOWEL_SOUND = r"^(?:[aeiouæœø]|h|y(?![aeiouy]))"
# One of those words, as a word (not the end of "cède"), before a placeholder.
_ELIDED = r"""(?<![^\s(«"'’])({words}) \{{(\w+)\}}"""


def _elided_before(lang: str) -> str | None:
    words = ELISIONS.get(lang)
    return _ELIDED.format(words="|".join(words)) if words else None


@cache
def _elisions(lang: str, text: str) -> tuple[tuple[str, str], ...]:
    """The (word, placeholder) pairs of ``text`` that may elide in ``lang``."""
    before = _elided_before(lang)
    return tuple(re.findall(before, text, re.I)) if before else ()


def _sounds_vowel(value: object) -> bool:
    head = re.sub(r"^(?:<[^>]*>)+", "", str(value))[:2]  # a value in markup: its text
    bare = "".join(c for c in unicodedata.normalize("NFD", head) if not unicodedata.combining(c))
    return re.match(VOWEL_SOUND, bare.lower()) is not None


def fill(lang: str, text: str, params: dict) -> str:
    """``text.format(**params)``, the language's short words joined to a value
    that starts with a vowel sound (``ELISIONS``). ``text`` may be Markup (a
    page's sentence): it stays Markup, its values escaped by its ``format``."""
    if lang in ELISIONS:
        for word, name in _elisions(lang, str(text)):
            if name in params and _sounds_vowel(params[name]):
                short = ELISIONS[lang][word.lower()]
                if word[0].isupper():
                    short = short[0].upper() + short[1:]
                text = type(text)(str(text).replace(f"{word} {{{name}}}", f"{short}{{{name}}}"))
    return text.format(**params)


def elision(lang: str) -> dict | None:
    """``ELISIONS`` of ``lang`` for a page's script (static/taps.js fills its
    sentences as ``fill`` does): the words and their joined forms, the
    pattern that finds them before a placeholder and the vowel sound."""
    before = _elided_before(choose(lang))
    return {"short": ELISIONS[choose(lang)], "before": before, "vowel": VOWEL_SOUND} \
        if before else None


def say(words: Words | Names | Phrases | str, lang: str) -> str:
    """A sentence of the engine (``referee.rules.words.Words``) in ``lang``;
    plain text is shown as it is."""
    if isinstance(words, (Words, Names, Phrases)):
        return str(_value(choose(lang), words))
    return str(words)


def story(result: dict, lang: str) -> list[str]:
    """A stored hand result's payment story in ``lang`` (a result stored
    before the story kept its words is told in its English)."""
    if "story_words" not in result or lang == DEFAULT:
        return list(result.get("story", ()))
    return [sentence_case(say(from_plain(words), lang)) for words in result["story_words"]]


def sentence_case(text: str) -> str:
    """A sentence that starts with a capital, as every language writes one: a
    sentence whose first words are a phrase of the engine ("{why}: out, ...")
    starts lowercase in German ("die letzte Karte von Ben ...")."""
    return text[:1].upper() + text[1:]


def sentence(err, lang: str) -> str:
    """A ``RefereeError``'s sentence in ``lang`` (without where it happened)."""
    if not getattr(err, "worded", True):  # a refusal stored in English only
        return err.sentence
    return gettext(lang, err.template, **err.params)


#: A refusal's small print: the rule a player cites in a dispute, by its
#: code, the same in every language ("rule illegal_hit").
RULE = N_("rule {code}")
#: The small print of input that cannot be read (a ``MalformedInput``: a note
#: of 600 characters, an action with no verb): no rule of the game refuses
#: it, and its code named as one read "(règle malformed)" (newcomer 46).
NO_RULE = N_("input refused")


def ruled_by(err, lang: str, code: str | None = None, mark=str) -> str:
    """What a refusal's small print names: the rule (``code``, else the
    error's; ``mark`` draws it, a paper's bold), or for input that cannot be
    read (``err`` a ``MalformedInput``) that it breaks none, in words."""
    from ..rules.errors import MalformedInput

    if isinstance(err, MalformedInput):
        return gettext(lang, NO_RULE)
    return gettext(lang, RULE, code=mark(code or err.code))


def message(err, lang: str) -> str:
    """A ``RefereeError``'s ``message`` in ``lang``: where, then the sentence
    (``RefereeError.message_words``; in English ``err.message`` with its
    cards as read, ``rules.cards.message_shown``)."""
    return say(err.message_words, lang)


def _in(lang: str, params: dict) -> dict:
    return {name: _value(lang, value) for name, value in shown(params).items()}


def _value(lang: str, value: object) -> object:
    if isinstance(value, Words):
        return gettext(lang, value.template, **value.params)
    if isinstance(value, Names):
        items = [str(_value(lang, item)) for item in value]
        if len(items) <= 1:
            return "".join(items)
        return gettext(lang, N_("{names} and {last}"), names=", ".join(items[:-1]),
                       last=items[-1])
    if isinstance(value, Phrases):
        return "".join(str(_value(lang, item)) for item in value)
    if isinstance(value, Decimal) and lang != DEFAULT:
        return number(value, lang)
    if isinstance(value, Moment):
        return time_text(value.replace("Z", "+00:00"), lang) or str(value)
    if isinstance(value, LoggedAction):
        # The log line with its cards as read in English, a sentence in the others.
        return action_words(value, lang)
    return value


@cache
def locale(lang: str) -> Locale:
    return Locale.parse(LOCALES[choose(lang)])


def currency_code(typed: str, lang: str) -> str:
    """The currency a host typed, as its ISO code where it names one: the
    code in any case ("eur"), its symbol ("€", "$", "£", "US$") or its name
    in any case, singular or plural ("Euro", "EURO", "euros", "US dollars"),
    as ``lang``, else English, else another language of the service writes
    it, where that names one code. A table opened in "€" or "Euro" was a
    currency of its own beside "EUR": the club could not add them, nor a
    debt be carried between them, nor a bank code be drawn. Anything else
    (chips, beers) is kept as typed: a log may play in any currency it
    names."""
    from babel.numbers import list_currencies

    if typed.upper() in list_currencies():
        return typed.upper()
    said = " ".join(typed.casefold().split())
    for each in dict.fromkeys((lang, DEFAULT, *LANGUAGES)):
        for named in (_currency_symbols(each).get(typed), _currency_names(each).get(said)):
            if named and len(named) == 1:
                return next(iter(named))
    return typed


def is_currency_code(code: str) -> bool:
    """Whether ``code`` is an ISO 4217 code (as ``currency_code`` gives one)."""
    from babel.numbers import list_currencies

    return code in list_currencies()


@cache
def _currency_symbols(lang: str) -> dict[str, frozenset[str]]:
    """Each symbol ``lang`` writes a currency with, and the ISO codes it names."""
    from babel.numbers import list_currencies

    codes = list_currencies()
    out: dict[str, set[str]] = {}
    for code, symbol in locale(lang).currency_symbols.items():
        if code in codes:
            out.setdefault(symbol, set()).add(code)
    return {symbol: frozenset(named) for symbol, named in out.items()}


@cache
def _currency_names(lang: str) -> dict[str, frozenset[str]]:
    """Each name ``lang`` gives a currency (its display name, one and many of
    it), in small letters, and the ISO codes it names."""
    from babel.numbers import get_currency_name, list_currencies

    here = locale(lang)
    out: dict[str, set[str]] = {}
    for code in list_currencies() & set(here.currencies):
        for name in {here.currencies[code], *(get_currency_name(code, n, here) for n in (1, 2))}:
            out.setdefault(" ".join(name.casefold().split()), set()).add(code)
    return {name: frozenset(named) for name, named in out.items()}


@cache
def _pattern(text: str) -> numbers.NumberPattern:
    """A number pattern (``#,##0.00``) parsed once: babel parses one given as
    text again on every call, and a table's page writes dozens of amounts
    (a tenth of its CPU)."""
    return numbers.parse_pattern(text)


def number(value: Decimal | int | float, lang: str) -> str:
    """A plain number in the language's form (``1.234,5`` in German)."""
    if not isinstance(value, Decimal):
        return numbers.format_decimal(value, locale=locale(lang), decimal_quantization=False)
    wide = _width(value)
    if wide > LONGEST_NUMBER:
        return str(value)
    with localcontext() as ctx:
        ctx.prec = max(ctx.prec, wide + 16)  # and the pattern's places (at most 3)
        return numbers.format_decimal(value, locale=locale(lang), decimal_quantization=False)


def _width(value: Decimal) -> int:
    """The digits babel's rounding of ``value`` needs. It rounds in the
    current context: an amount longer than its 28 digits (a refusal quoting a
    log's 3,000-digit payment, a stake of 1e400 typed into the tablet's form,
    whose confirmation is written before the stake is refused) raised
    InvalidOperation, a 500."""
    sign, digits, exponent = value.as_tuple()
    return len(digits) + (abs(exponent) if isinstance(exponent, int) else 0)


#: Digits beyond which a number is written as it came (only a refusal quotes
#: such a number; grouping 10,000 digits is not worth its time).
LONGEST_NUMBER = 10_000


def money(amount: Decimal, currency: str | None, lang: str) -> str:
    """An amount of money in the language's form (``1.234,50 €`` in German);
    without a currency (points), the number with the places it is given
    (``1``, not ``1.00``: whole points, as the papers write them; newcomer
    N17). A currency that is not an ISO code (chips) follows the number,
    with two decimals. Never rounded: a share of a stake can have more than
    two decimals."""
    wide = _width(amount)
    with localcontext() as ctx:
        ctx.prec = max(ctx.prec, wide + 16)  # and the pattern's places (at most 3)
        if wide > LONGEST_NUMBER:
            plain = str(amount)
        elif not currency:
            return decimal_text(amount, max(0, -amount.as_tuple().exponent), lang)
        elif numbers.is_currency(currency.upper()):
            return numbers.format_currency(amount, currency.upper(), locale=locale(lang),
                                           decimal_quantization=False)
        else:
            plain = numbers.format_decimal(amount, format=_pattern("#,##0.00"),
                                           locale=locale(lang), decimal_quantization=False)
    return f"{plain} {currency}" if currency else plain


def decimal_sign(lang: str) -> str:
    """The sign between the whole and the fraction in ``lang`` (``,`` in German)."""
    return numbers.get_decimal_symbol(locale(lang))


def decimal_pattern(lang: str) -> str:
    """The browser's pattern for a decimal typed in ``lang``: digits, then one
    decimal sign and digits. The point is read in every language (a phone's
    keypad may offer only it); no grouping signs (a stake is small, and
    ``1.000`` must not be read as a thousand in one language and one in another)."""
    signs = "".join(sorted({".", decimal_sign(lang)}))
    # The places the service takes (trailing zeros are the same money), so the
    # browser says "too many places" before the form is sent, as the service would.
    return f"[0-9]+([{signs}][0-9]{{1,{STAKE_PLACES}}}0*)?"


def read_decimal(text: str, lang: str) -> str:
    """A decimal typed in ``lang`` (``1,00`` in German) as the service reads it
    (``1.00``); anything else as typed, for the service to refuse in words."""
    text = (text or "").strip()
    sign = decimal_sign(lang)
    if sign != "." and text.count(sign) == 1 and "." not in text:
        return text.replace(sign, ".")
    return text


def plain_decimal(text: str) -> bool:
    """Whether ``text`` (as ``read_decimal`` gives it) is a decimal as a form's
    field takes one: ASCII digits with at most one decimal point, a sign
    before them; not ``1e400``, ``inf`` nor ``NaN``, which ``Decimal`` reads."""
    return _PLAIN.fullmatch(text) is not None


_PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def decimal_text(value, places: int, lang: str) -> str:
    """A decimal with exactly ``places`` places in ``lang``'s form
    (``number`` drops trailing zeros, which money must keep)."""
    pattern = _pattern("#,##0" + ("." + "0" * places if places else ""))
    return numbers.format_decimal(value, format=pattern, locale=locale(lang))


def amount(value: Decimal, quantum: Decimal, lang: str) -> str:
    """A number written to ``quantum``'s places in ``lang``'s form
    (``-1.234,50`` in German); ``-0`` as ``0``: a column of money. (The
    result's text, which scripts read, writes amounts as plain decimals in
    every language: ``ledger.money.fmt``.)"""
    q = unsigned(Decimal(value).quantize(quantum))
    return decimal_text(q, max(0, -quantum.as_tuple().exponent), lang)


def currency_amount(value: Decimal, quantum: Decimal, currency: str, lang: str) -> str:
    """Money in a sentence on a paper, written to ``quantum``'s places in the
    locale's form with its currency (``1,50 €``); ``-0`` as ``0``."""
    q = unsigned(Decimal(value).quantize(quantum))
    return numbers.format_currency(q, currency, locale=locale(lang), decimal_quantization=False)


POINTS = N_("points")


def unit_name(currency: str | None, lang: str) -> str:
    """What a table's amounts are counted in, named: its currency (as
    ``ledger.money.amounts_currency`` gives it), else points in ``lang``. The
    one name of the unit: pages, papers and the text report all say it so."""
    return currency or gettext(lang, POINTS)


def quantity(value: Decimal, text: str, unit: str, lang: str) -> str:
    """A number of a unit in a sentence: ``text`` (the number as written) and
    ``unit``; points agree with their number as each language says it ("1
    Punkt", "-1 point", French "0,5 point" but German "0,5 Punkte")."""
    if unit == unit_name(None, lang):
        # one point is a whole one on every writer ("1 point", not "1.00 point")
        return translations(lang).ngettext("{amount} point", "{amount} points",
                                           plural_count(lang, value)).format(
                                               amount="1" if value == 1 else text)
    return f"{text} {unit}"


def in_unit(amount: Decimal, currency: str | None, lang: str) -> str:
    """An amount in its table's unit: money with its currency (``1,50 €``), or
    points said as points (``1 point``, ``2 Punkte``): a table played for
    points says "points" where one played for money says its currency
    (newcomer N17). ``money`` without a currency is the bare number, for a
    column whose heading names the unit."""
    written = money(amount, currency, lang)
    if currency or _width(amount) > LONGEST_NUMBER:
        return written
    return quantity(amount, written, unit_name(None, lang), lang)


def money_text(value: object, currency: str | None, lang: str) -> str:
    """An amount the service wrote as a decimal string, in ``lang``'s form
    with its places kept (``-1.234,50`` in German). English keeps the plain
    decimal, as the club's text always printed it; the currency is named in
    the heading."""
    from decimal import InvalidOperation

    if lang == DEFAULT or value is None:
        return str(value)
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    return decimal_text(d, max(0, -d.as_tuple().exponent), lang)


def zone_of(value: str | None):
    """The UTC offset of an ISO 8601 time (a table's ``started``: its time
    zone, docs/decisions.md), or None."""
    try:
        t = datetime.fromisoformat(value) if value else None
    except ValueError:
        return None
    return t.tzinfo if t is not None else None


def time_text(value: str | None, lang: str = DEFAULT, zone: str | None = None) -> str | None:
    """An ISO 8601 time as people read it on a paper: "2026-11-21 20:00 UTC" (the date
    in the language's form: "21.11.2026 20:00 UTC"); in the table's time zone
    when ``zone`` (its ``started``) has an offset: "21.11.2026 21:00 UTC+1"."""
    if not value:
        return None
    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        return value  # an older log's free text, as written
    if t.tzinfo is None:
        return value
    t = t.astimezone(zone_of(zone) or UTC)
    offset = t.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset else 0
    label = "UTC" if not minutes else "UTC{}{}{}".format(
        "+" if minutes > 0 else "-", abs(minutes) // 60,
        f":{abs(minutes) % 60:02d}" if minutes % 60 else "")
    if lang == DEFAULT:
        return t.strftime(f"%Y-%m-%d %H:%M {label}")
    return f"{day(t, lang)} {t:%H:%M} {label}"


def short_day(value: date | datetime | str, lang: str) -> str:
    """A day of the year without its year, in the language's form (``11/21``,
    ``21.11.``, ``21/11``): a chart's dates, where the year is the season's."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if isinstance(value, datetime):
        value = value.date()
    return dates.format_skeleton("dM", value, locale=locale(lang))


def short_time(value: str, lang: str) -> str:
    """The hour a moment written in ISO 8601 reads on its own clock (its
    offset kept, not turned to the reader's), in the language's form
    (``7:02 PM``, ``19:02``): a chart's tables of one day."""
    return dates.format_time(datetime.fromisoformat(value.replace("Z", "+00:00")).time(),
                             format="short", locale=locale(lang))


def day(value: date | datetime | str, lang: str) -> str:
    """A date in the language's medium form (``24.11.2026`` in German)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if isinstance(value, datetime):
        value = value.date()
    return dates.format_date(value, format="medium", locale=locale(lang))


# ---------------------------------------------------------------- actions

_ALONE = {
    "draw": N_("{player} draws"),
    "take": N_("{player} takes"),
    "drop": N_("{player} drops"),
    "show": N_("{player} shows"),
    "declare": N_("{player} declares"),
}
_WITH_CARDS = {
    "draw": N_("{player} draws {cards}"),
    "take": N_("{player} takes {cards}"),
    "spread": N_("{player} spreads {cards}"),
    "discard": N_("{player} discards {cards}"),
    "show": N_("{player} shows {cards}"),
    "declare": N_("{player} declares {cards}"),
}
_WITH_SPREAD = {
    "hit": N_("{player} hits {spread}"),
    "slap": N_("{player} slaps on {spread}"),
}
_WITH_SPREAD_CARDS = {
    "hit": N_("{player} hits {spread} with {cards}"),
    "slap": N_("{player} slaps {cards} on {spread}"),
}


_DRAW_UNSEEN = N_("{player} draws (card not seen)")
# A draw that finds the stock empty draws nothing: it ends the play (the
# rules' "stock empty"), and every page and paper says so (newcomer F1).
_DRAW_EMPTY = N_("{player} draws from the empty stock: the play ends")
_COUNT = N_("{player} shows a count of {count}")
_UNDONE = N_("Undone: {action}")
_ON_UNDONE = N_("[on action {number}, {action}, since undone]")
# How the log's own words say these (rules.events.disputes_after_undo writes
# the note, replay.audit the correction's message): read back into ``lang``.
_LOGGED_ON_UNDONE = re.compile(r"\[on action (\d+), (.+?), since undone\] ?(.*)", re.S)
_LOGGED_UNDO = re.compile(r"undo of (.+)", re.S)


def action_templates(lang: str) -> dict:
    """Every template ``action_sentence`` uses, in ``lang``: for a page's
    script (static/offline.js says a kept tap as the page would)."""
    def each(table: dict) -> dict:
        return {verb: translations(lang).gettext(t) for verb, t in table.items()}

    # ``notation``: the verbs' own language says an action as its line (action_words).
    return {"notation": choose(lang) == DEFAULT,
            "alone": each(_ALONE), "cards": each(_WITH_CARDS), "spread": each(_WITH_SPREAD),
            "spread_cards": each(_WITH_SPREAD_CARDS),
            "unseen": translations(lang).gettext(_DRAW_UNSEEN),
            "count": translations(lang).gettext(_COUNT)}


def action_words(text: str, lang: str, *, stock_empty: bool = False) -> str:
    """A logged action as a person reads it in ``lang`` wherever it is shown
    (a refusal, a kept tap, an undo, a dispute): the log line with its cards
    as read (``Ben: hit S1 7♣``) in English, the verbs' language, and
    ``action_sentence`` in the others; a draw from the empty stock
    (``stock_empty``) in words in every language: its line reads as a draw."""
    from ..rules.cards import pretty

    if choose(lang) == DEFAULT and not (stock_empty and " draw" in text):
        return pretty(text)
    return action_sentence(text, lang, stock_empty=stock_empty)


def undo_words(text: str | None, lang: str) -> str:
    """A correction's message (``undo of Ben: draw 7c``) in ``lang``."""
    m = _LOGGED_UNDO.fullmatch(text or "")
    if not m:
        return gettext(lang, text) if text else ""
    return gettext(lang, _UNDONE, action=action_words(m.group(1), lang))


def note_words(note: str, lang: str) -> str:
    """A dispute's note in ``lang``: the player's words as written, with what
    the referee put before them (the action it was about, since undone)."""
    if note in REFEREE_NOTES:  # a note the referee wrote, not a person
        return gettext(lang, note)
    undone = undone_dispute(note)
    if undone is None:
        return note
    number, line, words = undone
    said = gettext(lang, _ON_UNDONE, number=number, action=action_words(line, lang))
    return f"{said} {words}".rstrip()


def undone_dispute(note: str) -> tuple[int, str, str] | None:
    """A dispute's note that the referee opened with the action it was about,
    since undone (``rules.events.on_undone``): that action's number, its log
    line and the player's own words; None for any other note."""
    m = _LOGGED_ON_UNDONE.fullmatch(note or "")
    return (int(m.group(1)), m.group(2), m.group(3)) if m else None


def empty_draw(player: str, lang: str) -> str:
    """A draw from the empty stock as a sentence in ``lang``: it ended the play."""
    return gettext(lang, _DRAW_EMPTY, player=player)


def action_sentence(text: str, lang: str, *, stock_empty: bool = False) -> str:
    """A logged action as a sentence in ``lang``: ``Ben: hit S1 7c`` -> ``Ben
    hits S1 with 7♣`` (pages and papers alike; the log line stays as logged).
    ``stock_empty``: it was tapped with the stock empty (a draw then ends the
    play)."""
    from ..rules.actions import action_of, parse_action
    from ..rules.cards import pretty
    from ..rules.errors import MalformedInput

    try:
        action = parse_action(text)
    except MalformedInput:
        # A refused line the engine cannot read (a hit without its card) is
        # still said in words as far as it goes: its player, verb and the rest.
        player, _sep, rest = text.rpartition(": ")
        verb, *args = rest.split() or [""]
        spread = whole(args.pop(0)[1:]) if args and args[0][:1] == "S" and \
            is_whole(args[0][1:]) else None
        count = whole(args[0][1:]) if verb == "show" and args and args[0][:1] == "=" else None
        action = action_of(player, verb, () if count is not None else tuple(args), spread, count)
        if not player or verb not in _ALONE | _WITH_CARDS | _WITH_SPREAD:
            return pretty(text)  # as logged, its cards as read
    return action_said(action, lang, stock_empty=stock_empty)


def action_shape(action) -> str:
    """Which sentence says ``action`` (a ``rules.actions.Action``): ``unseen``
    (a draw of a card not seen), ``count`` (a show given as a count), else the
    table of ``action_templates`` its spread and cards choose."""
    from ..rules.cards import UNKNOWN

    if action.verb == "draw" and action.cards in ((), (UNKNOWN,)):
        return "unseen"
    if action.count is not None:
        return "count"
    if action.spread is not None:
        return "spread_cards" if action.cards else "spread"
    return "cards" if action.cards else "alone"


_SHAPES = {"alone": _ALONE, "cards": _WITH_CARDS, "spread": _WITH_SPREAD,
           "spread_cards": _WITH_SPREAD_CARDS}


def action_said(action, lang: str, *, stock_empty: bool = False) -> str:
    """An action (the engine's record) as a sentence in ``lang``: every page,
    paper and script says an action from its fields, never from its line;
    ``stock_empty``: a draw then is from the empty stock (``empty_draw``)."""
    from ..rules.cards import card_label

    if stock_empty and action.verb == "draw":
        return empty_draw(action.player, lang)
    shape = action_shape(action)
    fields = {"player": action.player, "cards": " ".join(map(card_label, action.cards)),
              "spread": f"S{action.spread}" if action.spread is not None else "",
              "count": action.count}
    if shape == "unseen":
        return gettext(lang, _DRAW_UNSEEN, player=action.player)
    if shape == "count":
        return gettext(lang, _COUNT, player=action.player, count=action.count)
    template = _SHAPES[shape].get(action.verb)
    if template is None:  # no sentence for it: the line as logged
        return str(action)
    return gettext(lang, template, **fields)

