"""What an option of the house rules may be: its allowed values as data.

Each option's allowed values are written once, as one of these kinds
(``Choice``, ``WholeNumber``, ``Limit``, ``Amount``, ``ClaimList`` of
``DealWin`` claims) in the option's field (``options.HouseRules``): the check
that refuses a bad value, the words of ``referee rules`` and of the reference
page, the tablet's control and the property tests' option mixes are all read
from them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import cached_property

from .cards import Deck
from .errors import RulesError
from .numbers import decimal
from .words import N_, Phrases, Words

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


_WHEN = re.compile(r"^(total|low):([0-9]{1,3})$")  # ASCII digits: \d takes any script's


@dataclass(frozen=True)
class DealWin:
    """One deal-win claim: when a dealt hand wins outright and what it pays."""

    when: str  # "total:N", "low:N" or "five_faces"
    pays: Decimal
    timing: str | None = None  # None, or "first_turn" (Chicago's "49 in turn")

    # Cached: every hand checks its dealt hands against every claim.
    @cached_property
    def kind(self) -> str:
        return self.when.split(":")[0]

    @cached_property
    def number(self) -> int | None:
        return int(self.when.split(":")[1]) if ":" in self.when else None

    def holds(self, cards: Sequence[str], deck: Deck, hand_size: int,
              count: int | None = None) -> bool:
        """Whether the dealt ``cards`` make this claim; ``count``, if given, is
        their count (a hand checks every claim against one count)."""
        kind = self.kind
        if kind == "five_faces":
            return hand_size == 5 and len(cards) == 5 and all(c[0] in "JQK" for c in cards)
        if count is None:
            count = deck.count(cards)
        number = self.number
        assert number is not None  # "total:N" and "low:N" name their N
        if kind == "total":
            # With J/Q/K at 11-12-13 a total would come too easily: not allowed.
            return not deck.court_high and count == number
        return count <= number

    def claimed(self) -> Words:
        """What the claim is, in words ("a dealt hand of exactly 50")."""
        what = {
            "total": N_("a dealt hand of exactly {n}"),
            "low": N_("a dealt hand of {n} or fewer"),
            "five_faces": N_("five face cards dealt"),
        }[self.kind]
        return Words(what, n=self.number)

    def describe(self) -> Words:
        template = N_("{what} (claimed at the start of one's first turn) pays {pays}") \
            if self.timing else N_("{what} pays {pays}")
        return Words(template, what=self.claimed(), pays=Decimal(_fmt(self.pays)))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"when": self.when, "pays": json_number(self.pays)}
        if self.timing:
            out["timing"] = self.timing
        return out


def _fmt(d: Decimal) -> str:
    return format(d.normalize(), "f")


def json_number(d: Decimal) -> int | float:
    return int(d) if d == d.to_integral_value() else float(d)


def to_json_value(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Decimal):
        return json_number(value)
    if isinstance(value, tuple):
        return [v.to_json() for v in value]
    return value


_POSITIVE = Words(N_("a number greater than 0"))

#: The most stakes a rule may pay and its decimal places (as a stake's):
#: beyond them a table's money stops being money (a tonk out paying 10^30
#: stakes overflowed the settlement's decimal context, 1e308 every paper's).
MOST_PAYS = Decimal(100)
PAYS_PLACES = 4


#: An option's value out of its range (a form names the option by its label
#: and says the rest: ``BAD_VALUE``).
BAD_OPTION = N_("option {option} cannot be {value}: expected {expected}")
BAD_VALUE = N_("cannot be {value}: expected {expected}")


def _bad(option: str, value: Any, expected: Words | str) -> RulesError:
    return RulesError(
        "bad_option_value",
        BAD_OPTION,
        {"option": option, "value": json.dumps(value), "expected": expected},
    )


@dataclass(frozen=True)
class Choice:
    """One of a fixed list of values (the default first); names are an enum's members."""

    values: tuple[Any, ...]

    def check(self, name: str, value: Any) -> Any:
        for allowed in self.values:
            # bool is an int in Python: 1 must not pass for true.
            same_kind = isinstance(value, str) if isinstance(allowed, str) else \
                type(value) is type(allowed)
            if same_kind and value == allowed:
                return allowed
        raise _bad(name, value, self.describe())

    def describe(self) -> str:
        return ", ".join(json.dumps(v) for v in self.values)

    @property
    def choices(self) -> list[Any]:
        return [to_json_value(v) for v in self.values]

    @property
    def standard(self) -> list[Any]:
        return self.choices


@dataclass(frozen=True)
class WholeNumber:
    """A whole number from ``lo`` to ``hi``; ``usual``: the values tables play."""

    lo: int
    hi: int
    usual: tuple[int, ...] = ()

    def check(self, name: str, value: Any) -> int:
        if type(value) is not int or not self.lo <= value <= self.hi:
            raise _bad(name, value, Words(N_("a whole number from {lo} to {hi}"),
                                          lo=self.lo, hi=self.hi))
        return value

    def describe(self) -> Words:
        if self.usual:
            return Words(N_("{lo} to {hi} (standard values {usual})"), lo=self.lo, hi=self.hi,
                         usual=", ".join(map(str, self.usual)))
        return Words(N_("{lo} to {hi}"), lo=self.lo, hi=self.hi)

    @property
    def choices(self) -> list[int]:
        return list(range(self.lo, self.hi + 1))

    @property
    def standard(self) -> list[int]:
        return list(self.usual) or self.choices


@dataclass(frozen=True)
class Limit:
    """null (no limit) or a whole number of at least 1."""

    usual: tuple[int | None, ...] = (None, 1)

    def check(self, name: str, value: Any) -> int | None:
        if value is None:
            return None
        if type(value) is not int or value < 1:
            raise _bad(name, value, Words(N_("null or a whole number of at least 1")))
        return value

    def describe(self) -> Words:
        return Words(N_("null, 1 or more"))

    def said(self) -> Words:
        """The values as a reader types them on a form: no limit is "none"
        in the reader's words (``describe`` writes JSON's ``null``)."""
        return Words(N_("none, 1 or more"))

    choices = None

    @property
    def standard(self) -> list[Any]:
        return list(self.usual)


@dataclass(frozen=True)
class Amount:
    """Stakes: a number greater than 0; ``optional``: or null; ``words``:
    or one of these texts (``"2n"``)."""

    usual: tuple[Any, ...]
    optional: bool = False
    words: tuple[str, ...] = ()

    def check(self, name: str, value: Any) -> Decimal | str | None:
        if value is None and self.optional:
            return None
        if isinstance(value, str) and value in self.words:
            return value
        return self.stakes(name, value)

    def stakes(self, name: str, value: Any) -> Decimal:
        """``value`` as a number of stakes, the words and null aside."""
        if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
            raise _bad(name, value, _POSITIVE)
        d = decimal(value)
        if d is None or not d.is_finite() or d <= 0:
            raise _bad(name, value, _POSITIVE)
        exponent = d.normalize().as_tuple().exponent  # an int: d is finite
        if d > MOST_PAYS or isinstance(exponent, int) and -exponent > PAYS_PLACES:
            raise _bad(name, value, Words(N_("a number greater than 0 and at most {most}, "
                                             "with at most {places} decimal places"),
                                          most=MOST_PAYS, places=PAYS_PLACES))
        return d

    def describe(self) -> Words | Phrases:
        # "null" and the texts are JSON values, the same in every language
        number = Words(N_("null, a number > 0, at most {most}") if self.optional
                       else N_("a number > 0, at most {most}"), most=MOST_PAYS)
        return Phrases([number, *(", " + json.dumps(w) for w in self.words)])

    def said(self) -> Words | Phrases:
        """The values as a reader types them on a form: none in the reader's
        words, a text as it is typed (``2n``)."""
        number = Words(N_("none, a number > 0, at most {most}") if self.optional
                       else N_("a number > 0, at most {most}"), most=MOST_PAYS)
        return Phrases([number, *(", " + w for w in self.words)])

    choices = None

    @property
    def standard(self) -> list[Any]:
        return list(self.usual)


@dataclass(frozen=True)
class ClaimList:
    """The deal-win claims: a list of ``{"when", "pays", "timing"?}``."""

    def check(self, name: str, value: Any) -> tuple[DealWin, ...]:
        if not isinstance(value, list):
            raise _bad(name, value, Words(N_('a list of claims like {"when": "total:49", '
                                              '"pays": 2}')))
        claims = []
        for i, claim in enumerate(value, 1):
            where = f"{name}[{i}]"
            if not isinstance(claim, dict):
                raise _bad(where, claim, Words(N_('an object like {"when": "total:49", '
                                                   '"pays": 2}')))
            unknown = sorted(set(claim) - {"when", "pays", "timing"})
            if unknown:
                raise RulesError("unknown_option",
                                 N_("{where} has unknown field(s) {options}; a claim has "
                                    "when, pays and optionally timing"),
                                 {"where": where, "options": ', '.join(unknown)})
            when = claim.get("when")
            if not isinstance(when, str) or not (when == "five_faces" or _WHEN.match(when)):
                raise _bad(f"{where}.when", when, Words(N_('"total:N", "low:N" or "five_faces"')))
            if "pays" not in claim:
                raise RulesError("bad_option_value", N_("{where} needs pays (the stakes it "
                                                        "wins)"), {"where": where})
            pays = _CLAIM_PAYS.stakes(f"{where}.pays", claim["pays"])
            timing = claim.get("timing")
            if timing not in (None, "first_turn"):
                raise _bad(f"{where}.timing", timing, Words(N_('"first_turn" or nothing')))
            claims.append(DealWin(when, pays, timing))
        return tuple(claims)

    def describe(self) -> Words:
        return Words(N_("a list of {fields}"), fields='{"when", "pays", "timing"?}')

    choices = None
    standard = None  # the presets' lists are the ones to try


_CLAIM_PAYS = Amount(usual=(2,))
