"""Sentences the engine states without speaking any language yet.

The engine and the ledger never translate (``referee.language`` does, in the
shells). Where they say something to a person they state an English
*template* with named parameters, marked with ``N_`` so that the catalog tool
finds it (Babel extracts by the keyword's name, so this no-op marker serves as
well as ``referee.language.N_`` without the core importing the shell), and
keep the parameters as plain values:

- text (names, cards, option names) and ints, shown as they are;
- ``Decimal`` numbers (stakes), shown in the reader's number form;
- ``Words``: a phrase of its own (``Words(N_("{n} stakes"), n=2)``), put into
  the same language as the sentence around it;
- ``Names``: a list of names (or phrases), joined with the language's "and";
- ``Phrases``: phrases said one after the other;
- ``Moment``, ``LoggedAction``: a time, an action's log line, each said in
  the reader's form.

``str()`` of any of them is the English sentence, exactly as the referee has
always written it (results, stored replies and tests read those words).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

#: The languages a sentence can be said in (the log's ``language``), in the
#: order the language switch shows them; the first is the default. Here, not in
#: ``referee.language``, so that reading a log or starting a replay need not
#: import Babel.
LANGUAGES = ("en", "de", "fr", "pt")


def N_(template: str) -> str:  # noqa: N802 - gettext's name for a marker
    """Mark ``template`` for the catalogs; it is translated where it is read."""
    return template


class Counted:
    """A sentence that says a count (``{n} stake``, ``{n} stakes``): its two
    English forms and the parameter that counts. The engine picks the English
    form (``pick``), so its words and what is stored stay the English
    sentence; ``referee.language`` says either form with the reader's plural
    rule (French "0 mise", "1 mise"), as gettext's ``ngettext`` does."""

    __slots__ = ("singular", "plural", "count")

    def __init__(self, singular: str, plural: str, count: str) -> None:
        self.singular, self.plural, self.count = singular, plural, count

    def pick(self, n: object) -> str:
        """The English form for ``n``."""
        return self.singular if plural_count(n) == 1 else self.plural

    def words(self, **params: object) -> Words:
        """The sentence for ``params[count]``, with its parameters."""
        return Words(self.pick(params[self.count]), **params)


#: Each counted sentence's English forms, to the ``Counted`` it is a form of:
#: a stored sentence (its template as it was picked) is said with the plural
#: rule too.
COUNTED: dict[str, Counted] = {}


def Np_(singular: str, plural: str, count: str = "n") -> Counted:  # noqa: N802 - a marker
    """Mark a counted sentence's two forms for the catalogs (a plural entry,
    as ``ngettext``'s; ``count``: the parameter that counts) and know them."""
    counted = Counted(singular, plural, count)
    COUNTED[singular] = COUNTED[plural] = counted
    return counted


def count_size(n: object) -> Decimal | None:
    """The size of ``n`` as a sentence's count agrees with it (-1 point, like
    1 point), or None for what is no finite number (said as many)."""
    try:
        value = abs(Decimal(str(n)))
    except ArithmeticError:
        return None
    return value if value.is_finite() else None


def plural_count(n: object) -> int:
    """The whole number English's plural rule is asked about for ``n`` (the
    English form a ``Counted`` picks): its size; an amount that is not whole
    is many (0.5 stakes). Each language's own rule, fractions too, is
    ``language.plural_count``'s."""
    size = count_size(n)
    if size is None or size != size.to_integral_value():
        return 2
    return int(size)


class Words:
    """A sentence (or a phrase of one) as an English template and its parameters."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return english(self.template, self.params)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Words({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and (self.template, self.params) == (
            other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)

    def __bool__(self) -> bool:
        return bool(self.template)


class Names(tuple[object, ...]):
    """Names said as a list: ``A, B and C`` in English."""

    __slots__ = ()

    def __str__(self) -> str:
        return join_names(self, "and")

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Phrases(tuple[object, ...]):
    """Phrases said one after another (``Words`` that carry their own
    punctuation, like ``"; {player} has {count}"``)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "".join(map(str, self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Moment(str):
    """A time as ISO 8601 ("2026-11-28T19:42:42Z"), said in the reader's form
    ("28.11.2026 19:42 UTC") where a sentence is put into a language: a
    refusal quoted a closed table's time as stored."""

    __slots__ = ()


class LoggedAction(str):
    """An action as the log writes it ("Ben: discard 9c"), in a refusal's
    place: ``str()`` is the line as logged (the result format's words); where
    a sentence is put into a language, the action as a person reads it there
    (``referee.language.action_words``)."""

    __slots__ = ()


def join_names(items: Iterable[object], conjunction: str) -> str:
    said = [str(item) for item in items]
    if len(said) <= 1:
        return "".join(said)
    return ", ".join(said[:-1]) + f" {conjunction} " + said[-1]


def english(template: str, params: Mapping[str, object]) -> str:
    """``template`` with ``params`` filled in, in English. A template without
    parameters is its own sentence (it may hold braces of its own)."""
    return template.format(**params) if params else template


#: The parameters that name cards, in the log's notation (``Qd``, ``8c 8d
#: 8h``). Wherever a sentence is put into words for a person (``rules.cards.shown``), they
#: read as the pages write cards (``Q♦``, ``8♣ 8♦ 8♥``), in every language;
#: ``str()`` keeps the notation, the words of the result format
#: (log-format.md: "9c does not extend S2 (5c 6c 7c)"). By name, so that a
#: refusal stored before still reads so (newcomer N2).
CARD_PARAMS = frozenset({"card", "cards", "top", "second", "held", "known"})



# ---------------------------------------------------- stored as plain JSON
# A refusal is stored (a retry is answered with its first words) and read
# back in whichever language the retry asks for: its parameters are written
# as JSON with the kind of each value that is not plain text or a number.

def to_plain(words: Words) -> dict[str, object]:
    """``words`` as plain JSON (``from_plain`` reads it back)."""
    return {"words": words.template, "params": params_to_plain(words.params)}


def from_plain(plain: Mapping[str, Any]) -> Words:
    return Words(plain["words"], **params_from_plain(plain.get("params") or {}))


def params_to_plain(params: Mapping[str, object]) -> dict[str, object]:
    return {str(name): _to_plain(value) for name, value in params.items()}


def params_from_plain(plain: Mapping[str, object]) -> dict[str, object]:
    return {name: _from_plain(value) for name, value in plain.items()}


def _to_plain(value: object) -> object:
    if isinstance(value, Words):
        return to_plain(value)
    if isinstance(value, Names):
        return {"names": [_to_plain(name) for name in value]}
    if isinstance(value, Phrases):
        return {"phrases": [_to_plain(phrase) for phrase in value]}
    if isinstance(value, Decimal):
        return {"decimal": str(value)}
    if isinstance(value, Moment):
        return {"moment": str(value)}
    if isinstance(value, (str, int, float)) or value is None:
        return value
    return str(value)


def _from_plain(value: object) -> object:
    if isinstance(value, dict):
        if "words" in value:
            return from_plain(value)
        if "names" in value:
            return Names(map(_from_plain, value["names"]))
        if "phrases" in value:
            return Phrases(map(_from_plain, value["phrases"]))
        if "decimal" in value:
            return Decimal(value["decimal"])
        if "moment" in value:
            return Moment(value["moment"])
    return value


#: Why a hand was voided, where the referee or the form writes the reason
#: rather than a person: the log keeps these English words (the format's
#: ``void`` is free text), and every page and paper says them in its reader's
#: language. A reason a person typed is shown as typed.
LEFT_THE_TABLE = N_("{player} left the table")
#: A table without a name, by who sat at it (``reports.words.table_named``;
#: a refusal of the service names one so too)
TABLE_WITH = N_("Table with {players}")
VOID_REASONS = (N_("misdeal"), N_("voided at the table"))
#: A payment's note where the referee writes it (the club settling a table's
#: debt): the log keeps the English, every reader reads it in their language.
CLUB_SETTLEMENT = N_("club settlement")
REFEREE_NOTES = (CLUB_SETTLEMENT,)
