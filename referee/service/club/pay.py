"""Settling up: each player's payment details, each transfer still owed with
what its payer needs to pay it, and a transfer marked paid.

A table keeps its players' details as events of its own hash chain (kind
``pay_details``, taken by a closed table too: ``table.pay_details``); the
club keeps its people's as events of the club's chain. Both are read by
folding those events (the newest for a name wins; a later name correction
moves it), so what is shown is what the chains say and ``referee verify``
vouches for it with the hashes. A table's own details for a player come
before the club's for the person. They are shown only beside a transfer to
that person, on that table's settlement (its page and its PDF).

The checks and the QR code's and PayPal link's contents are
``service.money.payable``'s.
"""

from __future__ import annotations

import json

from ...rules.errors import RuleViolation
from ...rules.words import N_
from .. import storage
from ..money import payable
from ..storage import Database
from ..table.pay_details import PAY_DETAILS, set_table_details, table_details
from ..table.sessions import session_summary, standings
from ..table.table_events import record_payment
from . import _append, _names, _opened, person, tables

# ---------------------------------------------------------------- the club's details

def set_club_details(db: Database, who: str, change: dict) -> dict:
    """A person's payment details kept by the club (the host), for every table
    where they are to be paid and have given the table none of their own:
    those kept with ``change`` made (``payable.changed``: a field sent
    replaces, one sent as None is removed, one left out stays)."""

    def check():
        if who not in _names(tables(db)) or person(who, storage.club.aliases(db)) != who:
            raise RuleViolation("unknown_player", N_("{who} is not a person of the club"),
                                {"who": repr(who)})
        return {"person": who, **payable.changed(club_details(db).get(who, {}), change)}

    return _append(db, PAY_DETAILS, {}, check)


def set_own_details(db: Database, sid: str, player: str, change: dict, *, club: bool = False,
                    client_id: str | None = None) -> dict:
    """A player's details given from their own phone: for table ``sid``, and
    with ``club`` also kept by the club for the person they are (every table
    where they give none of their own). ``change`` is made to what the table
    shows for them (its own, else the club's: what the form showed), and with
    ``club`` to the club's too."""
    answer = set_table_details(db, sid, player, change, client_id,
                               given=lambda: details_at(db, sid, [player]).get(player, {}))
    if club:
        set_club_details(db, person(player, storage.club.aliases(db)), change)
    return answer


def club_details(db: Database) -> dict[str, dict]:
    """Each person's details as the club's chain says now (a spelling merged
    since counts as the person it was merged into)."""
    spellings = storage.club.aliases(db)
    out: dict[str, dict] = {}
    for ev in storage.club.events(db):
        if ev["kind"] == PAY_DETAILS:
            said = json.loads(ev["payload"])
            out[person(said.pop("person"), spellings)] = said
    return {who: d for who, d in out.items() if d}


def details_at(db: Database, sid: str, names: list[str]) -> dict[str, dict]:
    """The details of ``names`` (players of table ``sid``) as that table shows
    them: its own, else the club's for the person."""
    own = table_details(db, sid)
    missing = [n for n in names if n not in own]
    club = club_details(db) if missing else {}
    spellings = storage.club.aliases(db) if club else {}
    out = {}
    for name in names:
        found = own.get(name) or club.get(person(name, spellings))
        if found:
            out[name] = found
    return out


def offered(db: Database, sid: str, names: list[str]) -> dict[str, dict]:
    """The details to offer again at table ``sid`` (newcomer N14: given at one
    table, typed again at the next): for each of ``names`` who has none there
    (neither the table's own nor the club's for the person), those given to
    the newest other table where the person sat, ``{"details", "table"}``
    (that table's row). Offered, not shown as theirs: a table's host keeps
    details for its own table only (issue 35), so the next table's host, or
    the player's own phone, takes them there with one tap."""
    missing = [n for n in names if n not in details_at(db, sid, names)]
    if not missing:
        return {}
    spellings = storage.club.aliases(db)
    wanted = {person(n, spellings): n for n in missing}
    out: dict[str, dict] = {}
    for row in sorted(tables(db), key=_opened, reverse=True):
        seated = {wanted[who]: name for name in row["everyone"]
                  if (who := person(name, spellings)) in wanted and wanted[who] not in out}
        if row["id"] == sid or not seated:
            continue
        given = table_details(db, row["id"])
        out.update({ours: {"details": given[theirs], "table": row}
                    for ours, theirs in seated.items() if theirs in given})
        if len(out) == len(wanted):
            break
    return out


# ---------------------------------------------------------------- the settlement

def remittance(summary: dict, payer: str) -> str:
    """The text ``payer``'s bank transfer carries: their name, the table and
    the day it opened (``payable.remittance``)."""
    when = summary.get("started") or summary.get("created") or ""
    return payable.remittance(payer, summary.get("table"), when[:10] or None)


def for_the_paper(db: Database, sid: str, owed: list[tuple[str, str]]) -> dict:
    """``render_settlement``'s ``pay_details`` and ``remittance`` for table
    ``sid``: the details of the payees of ``owed`` (each transfer the paper
    lists, as payer and payee: the replay's result is the paper's to build,
    and names them), and each payer's transfer text."""
    summary = session_summary(db, sid)
    return {"pay_details": details_at(db, sid, sorted({to for _, to in owed})),
            "remittance": {payer: remittance(summary, payer) for payer, _ in owed}}


def ways_to_pay(db: Database, sid: str, summary: dict,
                owed: list[tuple[str, str, str]]) -> list[dict | None]:
    """What the payer of each transfer owed at table ``sid`` needs (``owed``:
    its payer, its payee and the amount as the settlement writes it): from
    the payee's details, an EPC QR code's fields, a PayPal.me link, the
    payee's line (None: no details known). ``summary``: the table's (its
    currency, its name and day for the transfer's text)."""
    payees = sorted({to for _, to, _ in owed})
    details = details_at(db, sid, payees) if payees else {}
    return [payable.how_to_pay(details.get(to), amount, summary["currency"],
                               remittance(summary, payer))
            for payer, to, amount in owed]


def settlement(db: Database, sid: str) -> dict:
    """The table's settle-up as the API writes it: each transfer still owed
    (``from``, ``to``, ``amount`` as the settlement writes it), since when
    (the table's closing; None while it is open), and ``pay``: what the payer
    needs (``ways_to_pay``); and the payments made."""
    summary = session_summary(db, sid)
    money = standings(db, sid, newest=0)
    currency = summary["currency"]
    ways = ways_to_pay(db, sid, summary,
                       [(t["from"], t["to"], t["amount"]) for t in money["transfers"]])
    owed = [{**t, "since": summary["closed"], "pay": how}
            for t, how in zip(money["transfers"], ways, strict=True)]
    return {"session": sid, "table": summary["table"], "currency": currency,
            "started": summary["started"], "closed": summary["closed"],
            "owed": owed,
            "payments": list(summary["payments"] or []),
            "players": summary["everyone"]}


def mark_paid(db: Database, sid: str, payer: str, payee: str, amount: str, *,
              note: str | None = None, client_id: str | None = None,
              by: str | None = None) -> dict:
    """A transfer the settlement lists as owed, paid in full: recorded as the
    log's payment (``record_payment``), refused with ``not_owed`` unless the
    settlement owes exactly it now. ``by``: the player whose own phone marks
    it (the payer's word waits for the payee's; the payee's, or the host's,
    confirms a claim of it that waits)."""
    return record_payment(db, sid, payer, payee, amount, note=note, client_id=client_id,
                          owed=True, by=by)
