"""A session's result as its papers and pages show it, built once as data:
the text report (``referee replay``), the settlement PDF and the pages
each lay these sections out in their own way and in their own language,
and none works a fact out again (as python-chess's PGN visitors read one
game). No words and no layout here: amounts stay ``Decimal`` with the
quantum they are written to, names as the log gives them.

The sections, in the order the papers give them: the table's facts (name,
preset, stake and where it changed), the hands (the ledger's
``HandResult`` rows, with each hand's own stake and whether it is
disputed), the totals, the money beside the hands (brought forward,
payments, carries, balances), what is still owed (who pays whom how much),
the push-up scores' best, the match, and the disputes with how each was
settled.
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from ..ledger.money import amounts_currency, parse_stake
from ..record.events import note_as_kept
from ..rules.words import CLUB_SETTLEMENT


class Payment:
    """A payment the log records, as listed (taken back or waiting too:
    the record keeps them, and the papers say so)."""

    __slots__ = ("payer", "payee", "amount", "at", "note", "undone", "pending", "claimed",
                 "by", "confirmed", "club")

    def __init__(self, doc: dict) -> None:
        self.payer, self.payee = doc["from"], doc["to"]
        self.amount = Decimal(str(doc["amount"]).strip())
        self.at, self.note = doc.get("at"), doc.get("note")
        self.undone = "undone" in doc
        # recorded on its payer's word alone (``pending``: still waiting for the payee's)
        self.claimed = bool(doc.get("pending"))
        self.pending = self.claimed and not self.undone
        self.by, self.confirmed = doc.get("by"), doc.get("confirmed")  # whose word, whose yes
        # marked paid at the club (``service.club.mark_paid``), not at this table
        self.club = self.note == CLUB_SETTLEMENT


class TableRef(NamedTuple):
    """A table as its reader knows it (``words.table_title`` names it): its
    id, its name, who sat at it and when it opened, each where known (a log
    read alone knows of a table its debts were carried to only what the
    carry says)."""

    id: str | None
    name: str | None = None
    players: tuple[str, ...] = ()
    opened: str | None = None
    #: Imported as a copy of a night stored already (newcomer45 P4): the id
    #: of the table it copies (None: no copy).
    copy_of: str | None = None

    @classmethod
    def of(cls, doc: dict) -> TableRef:
        """A table as a page, a paper or the club has it at hand: a session's
        summary or stored row, or a log (``table`` or ``table_name``;
        ``everyone`` or ``players``; ``started``, else when it was stored)."""
        header = doc.get("header") or {}
        return cls(doc.get("id"), doc.get("table") or doc.get("table_name"),
                   tuple(doc.get("everyone") or doc.get("players") or ()),
                   doc.get("started") or header.get("started") or doc.get("created"),
                   doc.get("copy_of"))


class Linked:
    """The tables a session's money is linked to, as its reader knows them:
    ``brought_from`` the earlier table whose debts its ``brought_forward``
    are (None: not known, or typed in), ``tables`` what is known of each
    (a stored session's row: ``TableRef.of``) by id."""

    __slots__ = ("brought_from", "tables")

    def __init__(self, brought_from: str | None = None,
                 tables: dict[str, dict] | None = None) -> None:
        self.brought_from, self.tables = brought_from, tables or {}

    def ref(self, sid: str, opened: str | None = None, name: str | None = None) -> TableRef:
        """Table ``sid``, as known; else its id, ``opened`` (a carry's
        moment: the later table opened in the same request) and ``name``
        (the carry's ``table``: a log read alone names it as the table did)."""
        row = self.tables.get(sid)
        return TableRef.of(row) if row else TableRef(sid, name=name, opened=opened)


class MoneySection:
    """Brought forward (and from which table), the payments made at the
    table, what was carried on to later tables (to which), and what each
    player stands at (the balance): every amount to the balances' quantum
    ``quantum``."""

    __slots__ = ("quantum", "brought_forward", "brought_from", "carried_out", "payments",
                 "carries", "paid", "received", "balances", "terms")

    def __init__(self, log: dict, result, linked: Linked | None = None) -> None:
        money = result.money
        linked = linked or Linked()
        self.quantum = result.balance_quantum
        self.brought_forward = money.brought_forward
        said = log.get("brought_from") or {}  # a log read alone: as it names it
        earlier = linked.brought_from or said.get("id")
        self.brought_from = (linked.ref(earlier, name=said.get("table"))
                             if self.brought_forward and earlier else None)
        self.carried_out = money.carried_forward  # summed: owed at the later tables now
        self.payments = [Payment(doc) for doc in log.get("payments") or ()]
        # each carry: the table it went to, and the balances it took there
        self.carries = [(linked.ref(carry["to"], carry.get("at"), carry.get("table")),
                         {p: Decimal(str(v)) for p, v in carry["balances"].items()})
                        for carry in log.get("carried_forward") or ()]
        self.paid = dict.fromkeys(result.players, Decimal(0))
        self.received = dict.fromkeys(result.players, Decimal(0))
        for payer, payee, amount in money.payments:  # those that count
            self.paid[payer] += amount
            self.received[payee] += amount
        self.balances = result.balances
        # The terms a balance is made of here besides the hands and payments:
        # (anything brought forward, anything carried on): the paper's
        # columns and its sentences (``words.BALANCE_IS``) say those alone.
        self.terms = (bool(self.brought_forward), bool(self.carries))


class Dispute:
    """A dispute of a hand and how it was settled (None: still open)."""

    __slots__ = ("hand", "action", "by", "note", "settled")

    def __init__(self, hand: int, doc: dict, settled: dict | None) -> None:
        # As the table's own paper says it: a log's settled dispute (from an
        # export, or imported) says how in its ``settled``, beside its note
        # as the player wrote it; the service keeps the settling event.
        self.hand, self.by, self.note = hand, doc["by"], note_as_kept(doc)
        self.action = doc.get("action")  # None: the whole hand
        self.settled = settled if settled is not None else doc.get("settled")


class Sections:
    """The result's sections of one session (see the module), from either of
    its two sources: a replay of its log (``replayed``: the papers, the text
    report) or the service's stored running totals (``stored``: the pages,
    which must not replay the night on every read). Both give the same
    facts: the result's totals, balances, transfers and match come from
    ``ledger.results.settle_session`` either way (over the hands' nets, or
    over the running totals, their exact sums), and everything else from
    the log's header, its hands' disputes and how each was settled.

    ``log``: the log (a stored session: its header, no hands); ``result``:
    the replay's ``SessionResult`` or the service's ``RunningResult`` (its
    ``hands`` None: the pages read the hands a page at a time);
    ``disputed``: each hand carrying disputes, with them, in order (None:
    not read);
    ``settled``: how each was settled, by hand and place; ``linked``: the
    tables its debts came from and went to, named (None: ids alone)."""

    def __init__(self, log: dict, rules, result, disputed=(),
                 settled: dict[int, dict[int, dict]] | None = None,
                 linked: Linked | None = None) -> None:
        self.log, self.result = log, result
        self.players = list(result.players)
        self.table = log.get("table")
        self.preset = rules.preset
        self.push_ups = rules.scoring == "push_ups"
        # The currency its amounts are in (None: points; push-up scores too).
        self.currency = amounts_currency(log.get("currency"), rules.scoring)
        self.stake = str(log["stake"])
        self.started, self.closed = log.get("started"), log.get("closed")
        self.final = "closed" in log  # the table was closed: its settlement is final
        self.quantum = result.quantum
        self.hands = result.hands
        self.totals = result.totals
        self.own_stakes = own_stakes(log, parse_stake(log["stake"]))
        self.money = MoneySection(log, result, linked) if result.balances is not None else None
        # Still owed: what settles the balances where there are any, else the totals.
        self.transfers = result.transfers
        self.transfer_quantum = self.quantum if self.money is None else self.money.quantum
        self.match = result.match()
        settled = settled or {}
        # None: not read (a stored session's page that shows none)
        self.disputes = None if disputed is None else [
            Dispute(n, d, settled.get(n, {}).get(k))
            for n, ds in disputed for k, d in enumerate(ds)]

    @classmethod
    def replayed(cls, session, settled: dict[int, dict[int, dict]] | None = None,
                 result=None, linked: Linked | None = None) -> Sections:
        """A replayed session's sections. ``result``: the session's result,
        where the caller has it already (settling a long night's hands
        again costs as much as the report)."""
        log = session.log
        return cls(log, session.rules, result if result is not None else session.result(),
                   ((n, h["disputes"]) for n, h in enumerate(log.get("hands", ()), 1)
                    if h.get("disputes")), settled, linked)

    @classmethod
    def stored(cls, result, disputed=None, settled: dict[int, dict[int, dict]] | None = None,
               linked: Linked | None = None) -> Sections:
        """A stored session's sections from the service's ``RunningResult``
        (``service.table.sessions.running_result``): no hand is read, and
        the disputes only where the caller read them (``disputed``, with
        ``settled``: a page that shows them)."""
        return cls(result.header, result.rules, result, disputed, settled, linked)

    @property
    def best(self) -> list[str]:
        """Push-up scores: the players with the lowest (the best)."""
        low = min(self.totals.values(), default=Decimal(0))
        return [p for p in self.players if self.totals[p] == low]

    @property
    def unsettled(self) -> list[Dispute]:
        """The disputes still open, in order of hands."""
        return [d for d in self.disputes if d.settled is None]

    @property
    def open_disputes(self) -> list[int]:
        """The hand of each dispute still open (one entry per dispute)."""
        return [d.hand for d in self.unsettled]

    @property
    def open_by_hand(self) -> dict[int, int]:
        """Each hand with disputes still open, and how many, in order of hands."""
        out: dict[int, int] = {}
        for n in self.open_disputes:
            out[n] = out.get(n, 0) + 1
        return out

    @property
    def disputed(self) -> frozenset[int]:
        return frozenset(d.hand for d in self.disputes)

    def stake_runs(self) -> list[tuple[int, int, str]]:
        """The hands at another stake than the session's, in runs of hands
        one after another at the same stake: (first, last, stake)."""
        runs: list[list] = []
        for n, stake in self.own_stakes.items():
            if runs and runs[-1][1] == n - 1 and runs[-1][2] == stake:
                runs[-1][1] = n
            else:
                runs.append([n, n, stake])
        return [tuple(run) for run in runs]

    def stake_changes(self) -> list[tuple[int, str]]:
        """Where the stake in force changed from one hand to the next: (hand, stake)."""
        changes, current = [], self.stake
        for n in range(1, len(self.log.get("hands", ())) + 1):
            stake = self.own_stakes.get(n, self.stake)
            if stake != current:
                changes.append((n, stake))
                current = stake
        return changes


def own_stakes(log: dict, stake: Decimal) -> dict[int, str]:
    """Each hand whose stake is not the session's, by number: its stake as
    the log writes it."""
    return {n: str(h["stake"]) for n, h in enumerate(log.get("hands", ()), 1)
            if "stake" in h and parse_stake(h["stake"]) != stake}
