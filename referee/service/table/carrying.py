"""A table's unpaid debts carried into a new table (``brought_forward_from``):
once, in its own currency, and marked moved at the table they leave, so that
each debt is owed in one place (issue 33).

The earlier table records a ``carry`` event (its ``carried_forward``) in the
same request that opens the new one with those balances as its
``brought_forward``; the club then counts them at the new table.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from ...record import load_log
from ...record.events import session_players
from ...replay.sequential import open_session
from ...rules.errors import RuleViolation
from ...rules.table import mistaken
from ...rules.words import N_
from .. import access, storage
from ..errors import MalformedInput
from ..kinds import EventKind
from ..storage import Database
from . import once
from .cache import Live
from .ids import new_session_id
from .live_state import session_row, table_named
from .sessions import SessionInfo, get_log, import_log, opening, refuse_unprintable, standings
from .table_events import fold_money, header_change, write_event

ZERO = Decimal(0)


def open_carrying(db: Database, doc: dict, earlier: str, token: str | None,
                  pin: str | None = None, *, copy: bool | None = False) -> SessionInfo:
    """A new table (a header: it opens now), or an import (a log with hands,
    which writes its own ``brought_forward``; ``copy``: as ``import_log``'s),
    carrying ``earlier``'s unpaid debts among its players; ``token``: one of
    ``earlier``'s (table, audit)."""
    access.authorize(db, earlier, token, write=False)
    return open_carried(db, doc, earlier, pin, copy=copy)


def open_carried(db: Database, doc: dict, earlier: str, pin: str | None = None, *,
                 copy: bool | None = False) -> SessionInfo:
    """``open_carrying`` once the caller may read ``earlier``: its token was
    given, or the tablet opening the new table unlocked it with its PIN."""
    if "hands" not in doc:
        if "brought_forward" in doc:
            raise MalformedInput("malformed", N_("brought_forward is given twice: as "
                                                 "balances and as brought_forward_from"))
        doc = opening(doc)
        copy = None  # a table opening now is no night stored already, nor a copy
    return carry_into(db, doc, pin, earlier, copy=copy)


def carry_into(db: Database, doc: dict, pin: str | None, earlier: str, *,
               copy: bool | None = False) -> SessionInfo:
    """``doc`` stored as a new table that carries ``earlier``'s debts (``carry``).
    The document is checked first, so that a table that cannot open (or is
    stored already: ``once``) carries nothing away; an import's own
    ``brought_forward`` must be what is carried."""
    check = {k: v for k, v in doc.items() if k != "brought_forward"}
    checked = load_log(check)
    open_session(checked)  # its faults before anything is carried
    refuse_unprintable(checked)
    if copy is False:
        once.refuse_stored(db, load_log(doc), get_log)
    sid = new_session_id()
    given = doc.get("brought_forward") if "hands" in doc else None
    plan: dict[str, list[dict]] = {}
    carried = carry(db, earlier, sid, session_players(check), doc.get("currency"), given, plan,
                    name=doc.get("table"))
    doc = {**doc, "brought_forward": given if given is not None else carried}
    if not doc["brought_forward"] and given is None:
        del doc["brought_forward"]
    elif doc["brought_forward"]:
        # which table they came from, by name: a paper of this log alone says
        # "brought forward from Kitchen table", as the table's pages do
        name = session_row(db, earlier)["table_name"]
        doc["brought_from"] = {"id": earlier, **({"table": name} if name else {})}
    info = import_log(db, doc, pin, brought_forward_from=earlier, sid=sid, copy=copy)
    return replace(info, carried=tuple(plan.get("carried", ())),
                   left=tuple(plan.get("left", ())))


def linked(db: Database, sid: str, header: dict) -> tuple[str | None, dict[str, dict]]:
    """The tables table ``sid``'s debts came from and went to, for its pages
    and papers to name (a player knows a table by its name, not its id): the
    earlier table its ``brought_forward`` was carried from (None: none, or
    typed in), and the stored row of each (and of every table its
    ``carried_forward`` went to: name, players, when opened) by id. Nothing
    is read for a table whose money is linked to no other."""
    earlier = storage.sessions.brought_forward_from(db, sid) \
        if header.get("brought_forward") else None
    ids = list(dict.fromkeys([*([earlier] if earlier else []),
                              *(c["to"] for c in header.get("carried_forward") or ())]))
    return earlier, {r["id"]: r for r in storage.sessions.named(db, ids)}


def went_on(db: Database, sid: str) -> tuple[dict, dict | None, str | None] | None:
    """Where open table ``sid``'s night went on (newcomer 44, P6): the newest
    carry of its debts (``to``, ``at``, its ``table`` name), the later
    table's stored row (None: not stored here) and when ``sid`` opened (its
    times' zone). None: nothing was carried on, or the table is closed. What
    its pages and new-hand forms say, and the API's answer to a new hand."""
    header = session_row(db, sid)["header"]
    carries = header.get("carried_forward")
    if not carries or header.get("closed"):
        return None
    newest = carries[-1]
    rows = storage.sessions.named(db, [newest["to"]])
    return newest, rows[0] if rows else None, header.get("started")


def carryable(db: Database, sid: str, players: list[str]) -> dict[str, Decimal]:
    """What table ``sid`` still owes, as a table of ``players`` would carry it
    in: the fewest transfers that settle its balances, kept where both payer
    and payee sit there (a debt to or from someone absent stays owed here).
    Sums to zero."""
    return _balances(_split(db, sid, players)[0], players)


def _split(db: Database, sid: str, players: list[str]) -> tuple[list[dict], list[dict]]:
    """Table ``sid``'s still-owed transfers: those a table of ``players``
    carries (payer and payee both sit there), and those left owed at ``sid``."""
    carried: list[dict] = []
    left: list[dict] = []
    for t in standings(db, sid, newest=0)["transfers"]:
        (carried if t["from"] in players and t["to"] in players else left).append(t)
    return carried, left


def _balances(transfers: list[dict], players: list[str]) -> dict[str, Decimal]:
    out: dict[str, Decimal] = {}
    for t in transfers:
        amount = Decimal(t["amount"])
        out[t["from"]] = out.get(t["from"], ZERO) - amount
        out[t["to"]] = out.get(t["to"], ZERO) + amount
    return {p: out[p] for p in players if p in out}


def check_names(db: Database, sid: str, players: list[str], left: list[dict]) -> None:
    """Refused (``carry_name``): a debt left owed at table ``sid`` that would
    be carried were a name seated here written as it is there: a name a
    person could take for theirs but for its accents ("Jurgen" typed for
    "Jürgen", newcomer N3; ``rules.table.mistaken``). Carrying around it
    moved nothing, and said nothing. A name of that table itself is another
    of its players, not a misspelling."""
    row = session_row(db, sid)
    others = [p for p in players if p not in row["everyone"]]

    def here(name: str) -> str | None:
        return name if name in players else mistaken(name, others, marks=False)

    for t in left:
        names = (t["from"], t["to"])
        seated = [here(name) for name in names]
        if None in seated:
            continue  # one of them sits here under no name at all
        name, typed = next((a, b) for a, b in zip(names, seated, strict=True) if a != b)
        raise RuleViolation("carry_name", N_(
            "{seated} sits here, but at {table} the name is {name} ({payer} pays "
            "{payee}): write it as it is there to carry that debt, or carry nothing"),
            {"seated": typed, "name": name,
             "table": table_named(row),
             "payer": t["from"], "payee": t["to"]})


def carry(db: Database, sid: str, to: str, players: list[str], currency: str | None,
          given: dict | None = None, plan: dict | None = None, *,
          name: str | None = None) -> dict[str, str]:
    """Table ``sid``'s debts among ``players`` carried on to the new table
    ``to`` (in ``currency``), once: they leave this table's balances (its
    ``carried_forward``, a ``carry`` event) as they enter ``to``'s
    ``brought_forward``, so that each debt is owed in one place. Returns the
    brought-forward balances. Refused: another currency (``carry_currency``:
    an amount is never converted), nothing left to carry at a table that
    carried its debts already (``carried_already``), and, for an import that
    writes its own ``given`` balances, any others (``carry_mismatch``), and a
    debt left behind for a name written differently here (``carry_name``).
    ``plan``, if given, gets the transfers ``carried`` and those ``left``
    owed at ``sid``, for the host to be told."""
    theirs = session_row(db, sid)["currency"]
    if (theirs or None) != (currency or None):
        raise RuleViolation("carry_currency", N_("table {session} is played in {theirs}, this "
                                                 "one in {ours}: a balance is carried only "
                                                 "in its own currency"),
                            {"session": sid, "theirs": theirs or "points",
                             "ours": currency or "points"})

    def check(live: Live):
        moved, left = _split(db, sid, players)
        check_names(db, sid, players, left)
        if plan is not None:
            plan.update(carried=moved, left=left)
        owed = _balances(moved, players)
        if given is not None and {p: Decimal(str(v).strip()) for p, v in given.items()
                                  if Decimal(str(v).strip())} != owed:
            raise RuleViolation("carry_mismatch", N_("brought_forward is not what table "
                                                     "{session} owes among these players "
                                                     "now: {owed}"),
                                {"session": sid, "owed": ", ".join(
                                    f"{p} {v}" for p, v in owed.items()) or "-"})
        if not owed:
            if session_row(db, sid)["header"].get("carried_forward"):
                raise RuleViolation("carried_already", N_("table {session}'s debts among "
                                                          "these players were carried on "
                                                          "already: they are owed there"),
                                    {"session": sid})
            raise _NothingToCarry
        said = {"to": to, "balances": {p: str(v) for p, v in owed.items()},
                "at": storage.now_seconds()}
        if name:  # what a paper made from this table's log calls the later one
            said["table"] = name
        return None, said, *header_change(live, lambda h: fold_money(h, EventKind.CARRY,
                                                                      said))

    try:
        return dict(write_event(db, sid, EventKind.CARRY, None, check, closed_too=True)["balances"])
    except _NothingToCarry:
        return {}


class _NothingToCarry(Exception):
    """A settled table carries nothing: no event."""


