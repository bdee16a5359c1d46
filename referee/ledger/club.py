"""The club's money and numbers over many sessions, from plain data.

The service gathers each session (names already read as the club's people,
one currency at a time); everything here is arithmetic over it.

Balances use the spec's sign (``balances.py``): a session adds each player's
totals, plus what they paid, less what they received; positive means the
club owes them. Amounts brought forward from another session of the club
are that session's debts carried on, already counted where they were played,
so they are left out (``carried``); amounts brought forward from outside
(an imported table whose earlier nights are not in the service) count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from ..rules.words import N_
from .money import places_written, unsigned
from .settlement import Transfer, settle_up

# Outcomes whose end counts are the players' shows (a drop is answered by
# everyone showing; a stock-out compares counts the same way).
SHOW_OUTCOMES = ("drop_won", "caught", "stock_out")
OUTCOMES = ("deal_win", "thrown_in", "tonk_out", "out", "drop_won", "caught", "stock_out",
            "dead")
ZERO = Decimal(0)


@dataclass(frozen=True)
class HandLine:
    outcome: str
    winners: tuple[str, ...]
    net: Mapping[str, Decimal]  # every seated player
    counts: Mapping[str, int] = field(default_factory=dict)
    dropper: str | None = None
    number: int = 0  # the hand's number in its session
    # Who paid whom in it, and how much: what one player won from another.
    payments: Sequence[tuple[str, str, Decimal]] = ()


@dataclass(frozen=True)
class ClubSession:
    id: str
    date: str  # ISO date the table opened
    players: Sequence[str]
    hands: Sequence[HandLine]
    payments: Sequence[tuple[str, str, Decimal]] = ()
    brought_forward: Mapping[str, Decimal] = field(default_factory=dict)
    # Its brought_forward came from a session of the club that did not mark
    # it carried on (tables carried before issue 33): counted there, not here.
    carried: bool = False
    # What it carried on to later tables (counted there now, not here).
    carried_forward: Mapping[str, Decimal] = field(default_factory=dict)
    # What the table itself says each player stands at, and still owes whom:
    # the club says the same of that table's money (None: worked out here).
    balance: Mapping[str, Decimal] | None = None
    owed: Sequence[tuple[str, str, Decimal]] = ()
    closed: str | None = None  # when the table closed (ISO), if it has
    # A match to a score (match_to) that is over: its winners. A match counts
    # as one, however many hands it took.
    match_winners: tuple[str, ...] | None = None
    # When it opened, as a UTC moment written so that it sorts as text: the
    # order of one day's tables (their ids are random).
    opened: str = ""
    table: str | None = None  # its name, as the host gave it
    # When it opened as written (the table's own clock): the hour a chart
    # tells one day's tables apart by.
    started: str | None = None


def session_money(s: ClubSession) -> dict[str, Decimal]:
    """What the session adds to each player's club balance."""
    if s.balance is not None:
        out = dict(s.balance)
        if s.carried:
            for p, v in s.brought_forward.items():
                out[p] = out.get(p, ZERO) - v
        return out
    out = {p: ZERO for p in s.players}
    if not s.carried:
        for p, v in s.brought_forward.items():
            out[p] = out.get(p, ZERO) + v
    for h in s.hands:
        for p, v in h.net.items():
            out[p] = out.get(p, ZERO) + v
    for payer, payee, amount in s.payments:
        out[payer] = out.get(payer, ZERO) + amount
        out[payee] = out.get(payee, ZERO) - amount
    for p, v in s.carried_forward.items():
        out[p] = out.get(p, ZERO) - v
    return out


def session_debts(s: ClubSession) -> list[Transfer]:
    """Who still owes whom at this table: what the table says (``owed``), or
    where the club counts its money otherwise (a carry not marked at its
    source; payments kept by the club alone), the fewest transfers that
    clear what it adds to the club's balances."""
    if s.balance is not None and not s.carried:
        return [Transfer(payer, payee, amount) for payer, payee, amount in s.owed]
    money = session_money(s)
    return settle_up(money, [*s.players, *sorted(p for p in money if p not in s.players)])


def club_debts(sessions: Iterable[ClubSession]) -> list[tuple[ClubSession, Transfer]]:
    """Every debt still owed, each at the one table where it is owed (its
    page, papers and export say the same), tables in date order. A debt is
    paid where it is owed: the club does not net across tables, so that a
    table and the club never give two answers to who pays whom."""
    return [(s, t) for s in sorted(sessions, key=lambda s: (s.date, s.id))
            for t in session_debts(s)]


def club_balances(sessions: Iterable[ClubSession]) -> dict[str, Decimal]:
    """Each person's balance over every session, by name; sums to zero."""
    out: dict[str, Decimal] = {}
    for s in sessions:
        for p, v in session_money(s).items():
            out[p] = out.get(p, ZERO) + v
    return dict(sorted(out.items()))


def club_transfers(balances: Mapping[str, Decimal]) -> list[Transfer]:
    """The fewest transfers that clear the balances (names break ties)."""
    return settle_up(balances, sorted(balances))


def in_date_order(s: ClubSession) -> tuple[str, str, str]:
    """The order the club's sessions were played in: by day, then by the
    moment each opened."""
    return s.date, s.opened, s.id


def running_balances(sessions: Sequence[ClubSession],
                     ) -> list[tuple[ClubSession, dict[str, Decimal]]]:
    """After each session, in date order, everyone's balance so far: the
    season chart's points, each with its session."""
    so_far: dict[str, Decimal] = {}
    points = []
    for s in sorted(sessions, key=in_date_order):
        for p, v in session_money(s).items():
            so_far[p] = so_far.get(p, ZERO) + v
        points.append((s, dict(so_far)))
    return points


def owing_since(sessions: Sequence[ClubSession]) -> dict[str, str]:
    """Each person who owes the club now, and since when: the date of the
    session after which their balance has stayed below zero."""
    since: dict[str, str] = {}
    for s, point in running_balances(sessions):
        for p, v in point.items():
            if v >= ZERO:
                since.pop(p, None)
            else:
                since.setdefault(p, s.date)
    return since


#: What ``Stats.average_show`` is, as every page and paper heads its column.
AVERAGE_SHOW = N_("Average count per hand shown")


@dataclass
class Stats:
    hands: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {o: 0 for o in OUTCOMES})
    drops: int = 0
    drops_won: int = 0
    caught: int = 0
    tonk_outs: int = 0
    deal_wins: int = 0
    shows: int = 0
    show_total: int = 0
    won: Decimal = ZERO
    lost: Decimal = ZERO  # negative or zero
    matches: int = 0  # matches to a score played to the end
    matches_won: int = 0  # of them, won (ties for lowest share the win)

    @property
    def average_show(self) -> Decimal | None:
        """The player's count averaged over the hands they showed (a drop's
        showdown, the stock running out): ``SHOW_OUTCOMES``."""
        if not self.shows:
            return None
        return (Decimal(self.show_total) / self.shows).quantize(Decimal("0.01"))

    @property
    def drop_win_rate(self) -> Decimal | None:
        if not self.drops:
            return None
        return (Decimal(self.drops_won) / self.drops).quantize(Decimal("0.01"))


def _count(stats: Stats, h: HandLine, p: str) -> None:
    stats.hands += 1
    if p in h.winners:
        stats.wins[h.outcome] = stats.wins.get(h.outcome, 0) + 1
        if h.outcome == "tonk_out":
            stats.tonk_outs += 1
        elif h.outcome == "deal_win":
            stats.deal_wins += 1
    if h.dropper == p:
        stats.drops += 1
        if h.outcome == "drop_won":
            stats.drops_won += 1
        elif h.outcome == "caught":
            stats.caught += 1
    if h.outcome in SHOW_OUTCOMES and p in h.counts:
        stats.shows += 1
        stats.show_total += h.counts[p]
    v = h.net[p]
    if v > 0:
        stats.won += v
    elif v < 0:
        stats.lost += v


def played(h: HandLine) -> bool:
    return h.outcome != "void"


def season_stats(sessions: Iterable[ClubSession]) -> dict[str, Stats]:
    """Each person's numbers over the sessions' hands (void hands were not
    played: they count for nothing)."""
    out: dict[str, Stats] = {}
    for s in sessions:
        for h in s.hands:
            if not played(h):
                continue
            for p in h.net:
                _count(out.setdefault(p, Stats()), h, p)
        if s.match_winners is not None:  # one match, one result, whatever its hands
            for p in s.players:
                stats = out.setdefault(p, Stats())
                stats.matches += 1
                stats.matches_won += p in s.match_winners
    return dict(sorted(out.items()))


@dataclass
class HeadToHead:
    hands: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    # What each won from the other (the hands' payments between the two), and
    # so each one's net against the other: not their nets over the whole table.
    won_from: dict[str, Decimal] = field(default_factory=dict)
    net: dict[str, Decimal] = field(default_factory=dict)


def head_to_head(sessions: Iterable[ClubSession], a: str, b: str) -> HeadToHead:
    """The hands both played: how many, each one's wins, what each won from
    the other, and each one's net against the other."""
    out = HeadToHead(wins={a: 0, b: 0}, won_from={a: ZERO, b: ZERO})
    for s in sessions:
        for h in s.hands:
            if not played(h) or a not in h.net or b not in h.net:
                continue
            out.hands += 1
            for p in (a, b):
                if p in h.winners:
                    out.wins[p] += 1
            for payer, payee, amount in h.payments:
                if {payer, payee} == {a, b}:
                    out.won_from[payee] += amount
    out.net = {a: out.won_from[a] - out.won_from[b], b: out.won_from[b] - out.won_from[a]}
    return out


def plain(amount: Decimal, places: int) -> str:
    """A decimal as a spreadsheet reads it: no exponent, no grouping, ``places``
    decimals."""
    return f"{unsigned(amount.quantize(Decimal(1).scaleb(-places))):f}"


def places_of(amounts: Iterable[Decimal], least: int = 0) -> int:
    """The decimal places that write every amount exactly (at least ``least``)."""
    return max([least, *(places_written(a.normalize()) for a in amounts if a)])
