"""The club: the same people across every table of the service, their money
over the weeks and a season's numbers.

A player is the person of the same name in every session. The host merges
two spellings (``merge``: "Bne" is Ben) and gives nicknames; each is an
event in the club's own hash chain (``storage.club.append``), undoable
by a later ``undo`` event, and the ``aliases``/``nicknames`` rows are what
the events in force say (``fold``, which ``referee verify`` runs again).

The arithmetic is ``referee.ledger.club``'s; this module gathers the plain
data, one currency at a time (money of different currencies is never added).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from ...ledger import club as arithmetic
from ...ledger.club import ClubSession, HandLine, plain
from ...ledger.money import amounts_currency
from ...record.events import counts
from ...rules.errors import MalformedInput, RuleViolation
from ...rules.table import NICKNAME as A_NICKNAME
from ...rules.table import check_new_name
from ...rules.words import CLUB_SETTLEMENT, N_, Words
from .. import storage
from ..errors import Ambiguous, NotFound
from ..kinds import WHO_IS_WHO as _WHO_IS_WHO
from ..kinds import ClubKind
from ..storage import Database
from ..table.sessions import get_log, standings
from ..table.table_events import record_payment

POINTS = "points"  # the currency of sessions played for points (no currency)
MERGE, NICKNAME, UNDO, PAYMENT, OUT_OF_BOOKS = map(str, (
    ClubKind.MERGE, ClubKind.NICKNAME, ClubKind.UNDO, ClubKind.PAYMENT, ClubKind.OUT_OF_BOOKS))
WHO_IS_WHO = tuple(map(str, _WHO_IS_WHO))


# ---------------------------------------------------------------- people

def fold(events: Iterable[dict]) -> tuple[dict[str, str], dict[str, str]]:
    """The aliases (spelling -> the person it is) and nicknames that the club's
    events in force say, from the events as stored (payloads as JSON text)."""
    in_force: dict[int, dict] = {}
    for ev in events:
        if ev["kind"] not in WHO_IS_WHO:
            continue  # money (a payment, a person's payment details), not who is whom
        said = json.loads(ev["payload"])
        if ev["kind"] == UNDO:
            in_force.pop(said["undoes"], None)
        else:
            in_force[ev["id"]] = {"kind": ev["kind"], **said}
    spellings: dict[str, str] = {}
    nicks: dict[str, str] = {}
    for said in in_force.values():
        if said["kind"] == MERGE:
            spellings[said["spelling"]] = said["into"]
        elif said["nickname"] is None:
            nicks.pop(said["person"], None)
        else:
            nicks[said["person"]] = said["nickname"]
    return spellings, nicks


def person(name: str, spellings: dict[str, str]) -> str:
    """The person a name is (a merged spelling may have been merged on)."""
    seen = {name}
    while name in spellings and spellings[name] not in seen:
        name = spellings[name]
        seen.add(name)
    return name


def tables(db: Database) -> list[dict]:
    """Every session's row (JSON read), oldest first. A club page reads them
    once and hands them to each function here that goes through the club's
    tables (its currencies, its people, the sessions gathered): each read
    every row again, up to five times a page. Given none, a function reads
    them itself. A table where nothing happened (no hand, no payment, no
    debt brought or carried) is no session: one opened by mistake and left
    counted as a night each of its players sat (newcomer N3). Nor is a copy
    the host took out of the club's books (``copies.take_out``): its night
    counts once, at the table it copies."""
    played = storage.hands.sessions_with_hands(db)
    out = out_of_books(db)
    return [row for row in storage.sessions.all_rows(db) if row["id"] not in out
            and (row["id"] in played or any(row["header"].get(k) for k in (
                "payments", "brought_forward", "carried_forward")))]


def out_of_books(db: Database) -> dict[str, dict]:
    """The copies taken out of the club's books, as the club's chain says:
    each table's id -> its event (``id``, ``created``; no event takes one
    back in)."""
    return {json.loads(ev["payload"])["session"]: ev for ev in storage.club.events(db)
            if ev["kind"] == OUT_OF_BOOKS}


def _given(db: Database, rows: list[dict] | None) -> list[dict]:
    """The tables a caller read (``tables``), else read now."""
    return tables(db) if rows is None else rows


def _names(rows: list[dict]) -> dict[str, set[str]]:
    """Every name as it sits in sessions (``rows``) -> the ids of its sessions."""
    out: dict[str, set[str]] = {}
    for row in rows:
        for name in row["everyone"]:
            out.setdefault(name, set()).add(row["id"])
    return out


def people(db: Database, rows: list[dict] | None = None) -> list[dict]:
    """Every person of the club: their name, nickname, the other spellings
    merged into them, and how many sessions they sat in."""
    spellings = storage.club.aliases(db)
    nicks = storage.club.nicknames(db)
    out: dict[str, dict] = {}
    for name, sids in _names(_given(db, rows)).items():
        who = person(name, spellings)
        entry = out.setdefault(who, {"name": who, "nickname": nicks.get(who),
                                     "spellings": [], "sessions": 0, "_sids": set()})
        if name != who:
            entry["spellings"].append(name)
        entry["_sids"] |= sids
    for entry in out.values():
        entry["sessions"] = len(entry.pop("_sids"))
        entry["spellings"].sort()
    return sorted(out.values(), key=lambda e: e["name"].casefold())


def _append(db: Database, kind: str, payload: dict, check) -> dict:
    """One event of the club's chain: ``check()`` refuses (raises) or may
    return the payload, worked out under the write's lock."""
    with storage.write(db):
        payload = check() or payload
        ev = storage.club.append(db, kind, payload)
        storage.club.set_people(db, *fold(storage.club.events(db)))
    return {"event": ev["id"], "kind": kind, **payload}


def merge(db: Database, spelling: str, into: str) -> dict:
    """``spelling`` is the same person as ``into`` from now on, in every session.
    Refused: a name no session has (``unknown_player``), the same person
    (``same_person``), and two names that sat at one table (``same_table``:
    they are two people, and their money in that session would be one)."""

    def check():
        names = _names(tables(db))
        spellings = storage.club.aliases(db)
        for name in (spelling, into):
            if not isinstance(name, str) or name not in names:
                raise RuleViolation("unknown_player", N_("no session has a player {name}"),
                                                      {"name": repr(name)})
        if person(spelling, spellings) == person(into, spellings):
            raise RuleViolation("same_person", N_("{spelling} is already {into}"),
                                               {"spelling": repr(spelling), "into": repr(into)})
        a = {n for n in names if person(n, spellings) == person(spelling, spellings)}
        b = {n for n in names if person(n, spellings) == person(into, spellings)}
        for x in a:
            for y in b:
                if names[x] & names[y]:
                    raise RuleViolation("same_table", N_("{x} and {y} sat at the same table: "
                                                         "they are two people"),
                                                      {"x": repr(x), "y": repr(y)})

    return _append(db, MERGE, {"spelling": spelling, "into": into}, check)


def nickname(db: Database, who: str, nick: str | None) -> dict:
    """A person's nickname (None takes it away)."""

    def check():
        spellings = storage.club.aliases(db)
        if who not in _names(tables(db)) or person(who, spellings) != who:
            raise RuleViolation("unknown_player", N_("{who} is not a person of the club"),
                                                  {"who": repr(who)})
        if nick is not None and (why := check_new_name(nick, A_NICKNAME)):
            raise MalformedInput("bad_name", why.template, why.params)

    return _append(db, NICKNAME, {"person": who, "nickname": nick}, check)


def undo(db: Database, event: int) -> dict:
    """Takes back a merge or a nickname (``undoes``: its event id)."""

    def check():
        kinds = {ev["id"]: ev["kind"] for ev in storage.club.events(db)}
        undone = {json.loads(ev["payload"])["undoes"] for ev in storage.club.events(db)
                  if ev["kind"] == UNDO}
        if kinds.get(event) not in (MERGE, NICKNAME) or event in undone:
            raise RuleViolation("nothing_to_undo", N_("club event {event} is not a merge or a "
                                                      "nickname in force"), {"event": event})

    return _append(db, UNDO, {"undoes": event}, check)


def club_history(db: Database) -> list[dict]:
    """The club's events, newest first, with whether each is still in force
    (a person's payment details are not among them: they are shown only
    beside a transfer to that person; a copy taken out of the books is)."""
    events = storage.club.events(db)
    undone = {json.loads(ev["payload"])["undoes"] for ev in events if ev["kind"] == UNDO}
    return [{"id": ev["id"], "kind": ev["kind"], "created": ev["created"],
             "undone": ev["id"] in undone, **_with_table(db, ev)}
            for ev in reversed(events) if ev["kind"] in (*WHO_IS_WHO, PAYMENT, OUT_OF_BOOKS)]


def _with_table(db: Database, ev: dict) -> dict:
    """A club event as said, and for a copy taken out of the books the
    stored row of that table (the club's tables no longer list it)."""
    said = json.loads(ev["payload"])
    if ev["kind"] == OUT_OF_BOOKS:
        said["table"] = storage.sessions.row(db, said["session"])
    return said


def verify(db: Database) -> list[Words]:
    """What ``referee verify`` finds wrong with the club's chain or its rows."""
    fault = storage.club.verify_chain(db)
    if fault:
        return [fault]
    kept = storage.anchors.read(db).get(storage.anchors.CLUB_EVENTS)
    if kept != storage.anchors.newest(db, "club_events"):
        # Its last events cut away (with what they wrote): nothing after them tells.
        return [Words(N_("the club's newest event is not the one its last write left (club "
                         "event {event}): events were removed from its end"),
                      event=kept[0] if kept else "?")]
    spellings, nicks = fold(storage.club.events(db))
    faults = []
    if storage.club.aliases(db) != spellings:
        faults.append(Words(N_("the club's merged spellings differ from its chain")))
    if storage.club.nicknames(db) != nicks:
        faults.append(Words(N_("the club's nicknames differ from its chain")))
    return faults


# ---------------------------------------------------------------- sessions

def _when(row: dict) -> str:
    """When the table opened, as written: its log's ``started``, else the
    moment the service stored it."""
    return row["header"].get("started") or row["created"]


def _day(row: dict) -> str:
    return _when(row)[:10]


def _opened(row: dict) -> str:
    """When the table opened, in UTC (``ClubSession.opened``): a log's
    ``started`` may carry any offset."""
    return _utc(_when(row))


def _utc(when: str) -> str:
    try:
        return datetime.fromisoformat(when).astimezone(UTC).isoformat()
    except ValueError:  # a stored moment is ISO 8601: kept as it is written
        return when


def currency_of(row: dict) -> str:
    """What a table's amounts are in, as the club keys it: its currency, or
    ``POINTS`` (no currency, or push-up scores: never money)."""
    return amounts_currency(row["currency"], row["rules_expanded"]["scoring"]) or POINTS


def currencies(rows: list[dict]) -> list[str]:
    """The currencies the club's tables (``rows``) play in, by name."""
    return sorted({currency_of(row) for row in rows})


def usual_currency(rows: list[dict]) -> str | None:
    """The currency most of the club's tables play in (the first by name of
    the most played), where the club's pages open when none is asked for:
    one table opened in another currency made them ask a question with no
    way to answer it. The API and the command line still ask."""
    played = Counter(currency_of(row) for row in rows)
    if not played:
        return None
    return min(played, key=lambda c: (-played[c], c))


def pick_currency(rows: list[dict], currency: str | None) -> str:
    """The currency asked for, or the only one the club's tables (``rows``)
    play in: amounts of two currencies are never added (``several_currencies``)."""
    have = currencies(rows)
    if currency is not None:
        if currency not in have and have:
            raise NotFound("no_currency", N_("no session is played in {currency} (there are: "
                                             "{names})"),
                                          {"currency": repr(currency), "names": ', '.join(have)})
        return currency
    if len(have) > 1:
        raise Ambiguous("several_currencies", N_("sessions are played in {names}: choose "
                                                 "one currency"),
                                              {"names": ', '.join(have)})
    return have[0] if have else POINTS


def _dropper(hand: dict) -> str | None:
    """Who dropped in a hand of the log: a told hand says it in its ending."""
    ending = hand.get("ending")
    if ending is not None:
        return ending.get("by") if ending.get("how") == "drop" else None
    for text in hand.get("actions", ()):
        name, _, rest = text.partition(":")
        if rest.strip() == "drop":
            return name
    return None


def _match_winners(standings: dict, who) -> tuple[str, ...] | None:
    """Who won a table's match, by their club names (None: no match, or not over)."""
    match = standings.get("match")
    return tuple(who(p) for p in match["winners"]) if match and match["over"] else None


def gather(db: Database, rows: list[dict], currency: str, start: date | None = None,
           end: date | None = None) -> list[ClubSession]:
    """The club's sessions (``rows``) in ``currency`` (opened between ``start``
    and ``end``, both included), names read as people, oldest first."""
    spellings = storage.club.aliases(db)
    out = []
    # The tables whose debts were carried in with the carry marked at their
    # source (issue 33): their brought_forward counts here, and the source
    # no longer counts it.
    marked = {c["to"] for row in rows for c in row["header"].get("carried_forward") or ()}
    for row in rows:
        if currency_of(row) != currency:
            continue
        day = _day(row)
        if (start and day < start.isoformat()) or (end and day > end.isoformat()):
            continue
        sid = row["id"]
        s = standings(db, sid)
        log_hands = get_log(db, sid).get("hands", [])

        # Two names of one table are two people, whatever was merged since
        # (a later import may seat both spellings): there they stay apart,
        # or their seats' money would be one.
        seen = Counter(person(n, spellings) for n in row["everyone"])

        def who(name: str, seen: Counter = seen) -> str:
            p = person(name, spellings)
            return p if seen[p] == 1 else name

        paid = {r["hand"]: r.get("payments", ()) for r in storage.hands.complete_results(db, sid)}
        hands = []
        for line in s["result"]["hands"]:
            dropper = _dropper(log_hands[line["hand"] - 1])
            hands.append(HandLine(
                outcome=line["outcome"], winners=tuple(who(p) for p in line["winners"]),
                net={who(p): Decimal(v) for p, v in line["net"].items()},
                counts={who(p): c for p, c in line.get("counts", {}).items()},
                dropper=who(dropper) if dropper else None, number=line["hand"],
                payments=tuple((who(p["from"]), who(p["to"]), Decimal(p["amount"]))
                               for p in paid.get(line["hand"], ()))))
        header = row["header"]
        moved: dict[str, Decimal] = {}
        for c in header.get("carried_forward") or ():
            for p, v in c["balances"].items():
                moved[who(p)] = moved.get(who(p), Decimal(0)) + Decimal(str(v))
        stands = s["balances"] or s["totals"]
        out.append(ClubSession(
            id=sid, date=day, players=[who(p) for p in row["everyone"]], hands=hands,
            payments=[(who(p["from"]), who(p["to"]), Decimal(str(p["amount"])))
                      for p in header.get("payments", ()) if counts(p)],
            brought_forward={who(p): Decimal(str(v))
                             for p, v in (header.get("brought_forward") or {}).items()},
            carried=row.get("brought_forward_from") is not None and sid not in marked,
            carried_forward=moved,
            balance={who(p): Decimal(v) for p, v in stands.items()},
            owed=[(who(t["from"]), who(t["to"]), Decimal(t["amount"]))
                  for t in s["transfers"]],
            closed=header.get("closed"),
            match_winners=_match_winners(s, who), opened=_opened(row),
            table=row["table_name"], started=_when(row)))
    return sorted(out, key=arithmetic.in_date_order)


def _writer(currency: str) -> Callable[[Decimal], str]:
    """Each amount written with the places it needs itself, at least cents
    (none for points): one table's stake of 0.123 wrote every amount of the
    club, every other table's too, with three places (newcomer44 P9)."""
    least = 0 if currency == POINTS else 2
    return lambda amount: plain(amount, arithmetic.places_of((amount,), least))


def club_payments(db: Database, currency: str) -> ClubSession:
    """The debts paid through the club (``mark_paid`` with no open table
    left to record them at) in ``currency``, as one session of payments only,
    dated the day of the newest (the ledger's "since when" reads the sessions
    in date order: the payments come after the tables they settle)."""
    spellings = storage.club.aliases(db)
    events = [ev for ev in storage.club.events(db) if ev["kind"] == PAYMENT
              and json.loads(ev["payload"])["currency"] == currency]
    paid = [json.loads(ev["payload"]) for ev in events]
    return ClubSession(id="club", date=max((ev["created"][:10] for ev in events), default=""),
                       opened=max((_utc(ev["created"]) for ev in events), default=""),
                       players=[], hands=[], payments=[
        (person(p["from"], spellings), person(p["to"], spellings), Decimal(p["amount"]))
        for p in paid])


def ledger(db: Database, currency: str | None = None, rows: list[dict] | None = None) -> dict:
    """Everyone's balance over all sessions (positive: the club owes them), and
    every debt still owed, each at the table where it is owed (``session``,
    its name ``table``; ``since``: the day it closed, else the day it
    opened), as that table's page, papers and export say it: the club nets
    nothing across tables (to do that, carry a table's debts into the next:
    ``brought_forward_from``)."""
    rows = _given(db, rows)
    currency = pick_currency(rows, currency)
    sessions = [*gather(db, rows, currency), club_payments(db, currency)]
    balances = arithmetic.club_balances(sessions)
    debts = arithmetic.club_debts(sessions)
    say = _writer(currency)
    return {"currency": currency,
            "balances": {p: say(v) for p, v in balances.items()},
            "transfers": [{"from": t.payer, "to": t.payee, "amount": say(t.amount),
                           "session": s.id if s.id != "club" else None, "table": s.table,
                           "since": (s.closed or s.date or "")[:10] or None}
                          for s, t in debts]}


def mark_paid(db: Database, payer: str, payee: str, amount: str,
              currency: str | None = None, session: str | None = None) -> dict:
    """A debt of the club's ledger handed over: recorded as a payment at the
    table where it is owed (``session``; without it, the oldest table that
    owes exactly it), closed or not, under the names they sat with there, so
    that the table's page, its papers and its export say it is paid.
    Refused unless a table owes exactly that now (``not_owed``)."""
    rows = tables(db)
    currency = pick_currency(rows, currency)
    amount = str(amount).strip()
    for t in ledger(db, currency, rows)["transfers"]:
        if (t["from"], t["to"]) != (payer, payee) or not _same_amount(t["amount"], amount) \
                or t["session"] is None or session not in (None, t["session"]):
            continue
        spellings = storage.club.aliases(db)
        owed = next((o for o in pay_standings(db, t["session"])
                     if (person(o["from"], spellings), person(o["to"], spellings))
                     == (payer, payee) and _same_amount(o["amount"], amount)), None)
        if owed is None:  # a carry not marked at its source: the table says otherwise
            continue
        # Under the names they sat with there, as the table owes it.
        record_payment(db, t["session"], owed["from"], owed["to"], owed["amount"],
                       note=CLUB_SETTLEMENT, owed=True)
        return {"session": t["session"], "from": payer, "to": payee, "amount": amount,
                "currency": currency}
    raise RuleViolation("not_owed", N_("{payer} does not owe {payee} {amount} at any table "
                                       "now: mark paid one of the ledger's debts, as it is "
                                       "listed"),
                        {"payer": payer, "payee": payee, "amount": _said(amount)})


def _said(amount: str) -> Decimal | str:
    """An amount a refusal quotes: a number, written in the reader's form as
    every refusal writes one; anything else as it was typed."""
    try:
        value = Decimal(amount)
    except ArithmeticError:
        return amount
    return value if value.is_finite() else amount


def _same_amount(a: str, b: str) -> bool:
    try:
        return Decimal(a) == Decimal(b)
    except ArithmeticError:
        return False


def pay_standings(db: Database, sid: str) -> list[dict]:
    """The transfers table ``sid`` still owes, as its settle-up writes them."""
    return standings(db, sid, newest=0)["transfers"]


def player(db: Database, name: str) -> dict:
    """A person's page: their spellings, nickname and sessions, newest first."""
    spellings = storage.club.aliases(db)
    who = person(name, spellings)
    every = tables(db)
    rows = [row for row in every if any(person(n, spellings) == who for n in row["everyone"])]
    if not rows:
        raise NotFound("unknown_player", N_("no session has a player {name}"),
                                         {"name": repr(name)})
    sessions = []
    for row in reversed(rows):
        names = [n for n in row["everyone"] if person(n, spellings) == who]
        money = standings(db, row["id"])
        mine = money["balances"] or money["totals"]
        sessions.append({"id": row["id"], "date": _day(row), "table": row["table_name"],
                         "started": _when(row), "everyone": row["everyone"],
                         "currency": currency_of(row), "as": names[0],
                         "total": money["totals"].get(names[0]),
                         "balance": mine.get(names[0]), "closed": row["header"].get("closed")})
    return {"name": who, "nickname": storage.club.nicknames(db).get(who),
            "spellings": sorted(n for n in _names(every) if n != who
                                and person(n, spellings) == who),
            "sessions": sessions}


# ---------------------------------------------------------------- the season

#: The season's two dates, named as the season page's form names them: a
#: refusal of either names it so on the page, in the API and for a CSV.
DATE_FIELDS = {"from": N_("From"), "to": N_("To")}


def season_day(field: str, text: str | None) -> date | None:
    """A season's date as typed (``field``: "from" or "to"), as YYYY-MM-DD,
    or None for none. Anything else is refused (``bad_date``), naming the
    field and what was typed: a garbage date was silently ignored and the
    whole season shown (newcomer45 P10b)."""
    if not text:
        return None
    try:
        if len(text) != 10:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise MalformedInput("bad_date", N_("{field}: {text} is not a date as YYYY-MM-DD"),
                             {"field": Words(DATE_FIELDS[field]),
                              "text": repr(text)}) from None


def season_range(start: date | None, end: date | None) -> None:
    """A season that ends before it starts is refused (``bad_range``), naming
    its last day's field and both days."""
    if start and end and start > end:
        raise MalformedInput("bad_range", N_("{field}: {end} is before {start}, so the season "
                                             "would end before it starts"),
                             {"field": Words(DATE_FIELDS["to"]), "end": end.isoformat(),
                              "start": start.isoformat()})


def season(db: Database, currency: str | None = None, start: date | None = None,
           end: date | None = None, a: str | None = None, b: str | None = None,
           rows: list[dict] | None = None) -> dict:
    """Each person's numbers over the date range, their running balance after
    each session (the chart), and head to head of ``a`` and ``b`` if given."""
    season_range(start, end)
    rows = _given(db, rows)
    currency = pick_currency(rows, currency)
    sessions = gather(db, rows, currency, start, end)
    stats = arithmetic.season_stats(sessions)
    running = arithmetic.running_balances(sessions)
    say = _writer(currency)
    players = {p: {"hands": st.hands, "wins": dict(st.wins), "drops": st.drops,
                   "drops_won": st.drops_won,
                   "drop_win_rate": None if st.drop_win_rate is None else str(st.drop_win_rate),
                   "caught": st.caught, "tonk_outs": st.tonk_outs, "deal_wins": st.deal_wins,
                   "average_show": None if st.average_show is None else str(st.average_show),
                   "won": say(st.won), "lost": say(st.lost),
                   "matches": st.matches, "matches_won": st.matches_won}
               for p, st in stats.items()}
    out: dict[str, Any] = {"currency": currency, "from": start.isoformat() if start else None,
           "to": end.isoformat() if end else None, "sessions": len(sessions),
           "players": players,
           "running": [{"date": s.date, "table": s.table, "started": s.started,
                        "balances": {p: say(v) for p, v in point.items()}}
                       for s, point in running]}
    if a and b:
        spellings = storage.club.aliases(db)
        a, b = person(a, spellings), person(b, spellings)
        h2h = arithmetic.head_to_head(sessions, a, b)
        out["head_to_head"] = {"players": [a, b], "hands": h2h.hands, "wins": h2h.wins,
                               "won_from": {p: say(v)
                                            for p, v in h2h.won_from.items()},
                               "net": {p: say(v) for p, v in h2h.net.items()}}
    return out


# ---------------------------------------------------------------- CSV

# A cell a spreadsheet would read as a formula (OWASP's CSV injection):
# text that starts with one of these. A plain number ("-0.25") is data.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def csv_cell(value: object) -> object:
    """``value`` as a CSV cell no spreadsheet runs: text that could start a
    formula gets a leading ``'`` (which spreadsheets show as text, not run)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) \
            and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class _Sheet:
    """A CSV writer whose every cell is a ``csv_cell``: names, session ids and
    currencies come from whoever opened a table."""

    def __init__(self, buf: io.StringIO) -> None:
        self._w = csv.writer(buf, lineterminator="\n")

    def writerow(self, row: list) -> None:
        self._w.writerow([csv_cell(v) for v in row])


def hands_csv(db: Database, currency: str | None = None, start: date | None = None,
              end: date | None = None, rows: list[dict] | None = None) -> str:
    """Every hand, one row per player seated in it: what a spreadsheet sorts
    and sums (one header row, ISO dates, plain decimals)."""
    rows = _given(db, rows)
    currency = pick_currency(rows, currency)
    sessions = gather(db, rows, currency, start, end)
    say = _writer(currency)
    buf = io.StringIO()
    w = _Sheet(buf)
    w.writerow(["date", "session", "hand", "player", "outcome", "won", "dropped", "count",
                "net", "currency"])
    for s in sessions:
        for h in s.hands:
            for p, v in h.net.items():
                w.writerow([s.date, s.id, h.number, p, h.outcome, int(p in h.winners),
                            int(h.dropper == p), h.counts.get(p, ""), say(v),
                            currency])
    return buf.getvalue()


def ledger_csv(db: Database, currency: str | None = None,
               rows: list[dict] | None = None) -> str:
    """The club's ledger: one row per person, then the transfers."""
    led = ledger(db, currency, rows)
    buf = io.StringIO()
    w = _Sheet(buf)
    w.writerow(["kind", "player", "to", "amount", "currency"])
    for p, v in led["balances"].items():
        w.writerow(["balance", p, "", v, led["currency"]])
    for t in led["transfers"]:
        w.writerow(["transfer", t["from"], t["to"], t["amount"], led["currency"]])
    return buf.getvalue()
