"""Sessions at a live table: create or import one, and read it back (its log,
its result, the standings, a summary, the list of sessions).

Plain arguments in, plain data out; errors are raised
(``referee.service.errors``), never turned into statuses here.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ...ledger.money import amounts_currency, fmt
from ...ledger.results import result_doc, result_entry
from ...ledger.running import step
from ...record import FORMAT, dump_log, load_log, setup_of
from ...record.chain import canonical_action, with_settled
from ...record.result_text import EncodedItems, item_line, result_json_text
from ...record.schemas import field_problem
from ...replay.sequential import Session, open_session, parse_logged, play_on
from ...rules.errors import RefereeError
from ...rules.hand import VOID
from ...rules.options import resolve
from ...rules.table import check_printable
from ...rules.words import N_
from ...speed import collector
from .. import access, beside, storage
from ..errors import MalformedInput
from ..kinds import EventKind
from ..money.results import hand_result, session_quantum, void_hand_result
from ..money.totals import RunningResult
from ..storage import Database
from . import cache, once
from .hands import suggest_dealer
from .ids import new_session_id
from .live_state import live_state, session_row


@dataclass(frozen=True)
class SessionInfo:
    id: str
    table_token: str
    audit_token: str
    # a table opened carrying an earlier one's debts: the transfers carried,
    # and those left owed there (``carrying.carry_into``)
    carried: tuple[dict, ...] = ()
    left: tuple[dict, ...] = ()


def create_session(db: Database, header: dict, pin: str | None = None) -> SessionInfo:
    """A new session from a ``tonk-log/1`` header (a document with hands is an
    import). The table opens now: ``started`` is recorded unless given. (A
    table that carries an earlier one's debts: ``carrying.open_carrying``.)"""
    # A table opening now is no night stored already: not looked for (``once``).
    return import_log(db, opening(header), pin, copy=None)


def opening(header: dict) -> dict:
    """A new table's header as it opens: the log's format, ``started`` now
    unless given."""
    if isinstance(header, dict):
        header = dict(header)
        if "format" not in header:
            header = {"format": FORMAT, **header}
        header.setdefault("started", storage.now_seconds())
    return header


def import_log(db: Database, doc: dict, pin: str | None = None, *,
               brought_forward_from: str | None = None, sid: str | None = None,
               copy: bool | None = False) -> SessionInfo:
    """Store a whole ``tonk-log/1`` document (its last hand may be still open).
    ``brought_forward_from``: the stored session its ``brought_forward`` came
    from (the club's ledger counts those debts there, not twice). A night
    stored already is refused (``once``) unless ``copy``: then stored as a
    copy of that table (``copy_of``; None: a table opening now, no copy)."""
    if isinstance(doc, dict) and not doc.get("hands") and "started" not in doc:
        # A log with no hand yet is a table opening now (the API's POST
        # /api/sessions with "hands": []): recorded like a created table's,
        # and no night stored already (``once``): two opened in one second
        # alike are two tables.
        doc = {**doc, "started": storage.now_seconds()}
        copy = None  # nothing to look for, so never a copy of one
    with collector.paused():
        log = load_log(doc)
        if pin is not None and not (isinstance(pin, str) and 4 <= len(pin) <= 64):
            raise MalformedInput("bad_pin", N_("a PIN has 4 to 64 characters"))
        session = open_session(log)  # the header's faults, before anything else
        refuse_unprintable(log)
        if copy is False:  # before a long log is replayed only to be refused
            once.refuse_stored(db, log, get_log)
        # Everything is judged before anything is written, and the write lock
        # is held for the writing alone: the database has one, and an import
        # that held it while its hands were replayed made every other table's
        # write wait for whole imports in a row (a minute, beside three long
        # ones on PostgreSQL). The replay and the settling (most of the work)
        # need nothing the events need: a long log's are done in a second
        # process while this one encodes the actions' texts; its answer waits
        # in that process's spool, not in memory, until it is written.
        if len(log.get("hands", ())) >= BESIDE_HANDS and beside.can_fork():
            try:
                with closing(beside.stream(judge, log)) as judged:
                    encoded = _payloads(log)  # while the second process judges
                    payloads = _refuse(judged.wait(), encoded)
                    return _store(db, log, session, pin, brought_forward_from, judged,
                                  payloads, sid, copy)
            except beside.SecondProcessFailed:
                pass  # ours, never the log's: judged again in this process
        judged_here = list(judge(log))
        payloads = _refuse(judged_here[-1], _payloads(log))
        return _store(db, log, session, pin, brought_forward_from, iter(judged_here),
                      payloads, sid, copy)


def refuse_unprintable(log: dict) -> None:
    """A table opening (a log with no hand yet: the new-table form's, the
    API's, ``referee import`` of a header) takes no name the papers cannot
    print (``check_printable``): a player's, or the table's, named as its
    field. A log with hands is a night played, recorded as it was: its names
    are not refused, and its papers print such a character as its code."""
    if log.get("hands"):
        return
    for k, name in enumerate(log["players"]):
        why = check_printable(name)
        if why:  # named by its seat, as a seat's other refusals are (payform46 N5)
            raise MalformedInput("bad_name", *field_problem(("players", k), why))
    why = check_printable(log["table"]) if isinstance(log.get("table"), str) else None
    if why:
        raise MalformedInput("bad_name", *field_problem(("table",), why))


def _refuse(last: tuple[str, Any], payloads: dict[str, str] | RefereeError
            ) -> dict[str, str]:
    """Raise the log's first fault, if it has one: the replay's (``last``, what
    ``judge`` yielded last), else an action's text that cannot be read; the
    payloads if there is none."""
    if last[0] == FAULT:
        raise last[1]
    if isinstance(payloads, RefereeError):
        raise payloads
    return payloads


#: From this many hands on, an import replays and settles its hands in a
#: second process while this one encodes the actions (a 10,000-hand
#: import took 3.0 s in one process; see bench/pages.py). Below it, a fork
#: costs more than it saves.
BESIDE_HANDS = 1000

#: Hands a second process settles and sends at a time: what it holds does
#: not grow with the log (the batches wait in its spool, on disk).
BATCH = 500

# What ``judge`` yields: a batch of hands' rows, everyone seated (last), or
# the replay's first fault (and nothing after it).
HANDS, EVERYONE, FAULT = "hands", "everyone", "fault"


def _store(db: Database, log: dict, session: Session, pin: str | None,
           brought_forward_from: str | None, judged: Iterator[tuple[str, Any]],
           payloads: dict[str, str], sid: str | None = None, copy: bool | None = False
           ) -> SessionInfo:
    """Write a judged log (``judged``: what ``judge`` yielded, without a
    fault) in one transaction."""
    rules, q = session.rules, session.quantum
    header = {k: v for k, v in log.items() if k != "hands"}
    if "hands" in log:
        header["hands"] = []
    sid = sid or new_session_id()
    info = SessionInfo(sid, access.new_token(), access.new_token())
    # The chain carries what money is computed from: the header as given
    # and the rules as expanded, which the session's row is checked against.
    opening: dict[str, Any] = {"header": header, "rules_expanded": rules.to_json()}
    if brought_forward_from is not None:
        # In the chain, so verify vouches for what the club's ledger leaves out.
        opening["brought_forward_from"] = brought_forward_from
    pin_hash = access.hash_pin(pin) if pin else None
    table_hash = access.token_hash(info.table_token)
    audit_hash = access.token_hash(info.audit_token)
    # The locks too: a replaced token hash or PIN would hand the table to
    # whoever chose the new one. A digest of the three, which tells nothing
    # of the PIN to whoever reads an exported chain.
    opening["locks"] = access.locks_digest(table_hash, audit_hash, pin_hash)
    # An import's hands make a long write (a new table's opening is short).
    with storage.write(db, long=bool(log.get("hands"))):
        original = _stored_once(db, log, copy)
        storage.sessions.insert(db, sid, log, header, rules.to_json(), log["players"],
                                pin_hash, table_hash, audit_hash)
        storage.sessions.set_quantum(db, sid, str(q))
        if brought_forward_from is not None:
            storage.sessions.set_brought_forward_from(db, sid, brought_forward_from)
        if original is not None:
            storage.sessions.set_copy_of(db, sid, original)
        first = storage.events.append_many(db, sid, _events(log, opening, payloads))
        for kind, value in judged:
            if kind == HANDS:
                storage.hands.insert_many(db, sid, value, first)
            elif value != log["players"]:  # EVERYONE: someone sat down later
                storage.sessions.set_everyone(db, sid, value)
        # A table whose log raised the stake plays on at it: the hands started
        # here carry the last hand's stake, as the tablet's stake change does.
        last_stake = log["hands"][-1].get("stake") if log.get("hands") else None
        if last_stake is not None:
            storage.sessions.set_next(db, sid, stake=str(last_stake), seats=None)
    return info


def _stored_once(db: Database, log: dict, copy: bool | None) -> str | None:
    """Under the write's lock: ``log`` refused if its night is stored already
    (two imports of one log at once store one), unless ``copy``; then the id
    of the table it is a copy of (None: none, or a table opening now)."""
    if copy is False:
        once.refuse_stored(db, log, get_log)
        return None
    original = once.stored_as(db, log, get_log) if copy else None
    return original["id"] if original else None


def _payloads(log: dict) -> dict[str, str] | RefereeError:
    """Each action text's event payload, encoded once (an action's follows
    from its text alone, and a long log repeats a few thousand texts); or
    the first text that cannot be read, as its error."""
    payloads: dict[str, str] = {}
    for given in log.get("hands", ()):
        for text in given.get("actions", ()):
            if text not in payloads:
                try:
                    payloads[text] = canonical_action(str(parse_logged(text)), text)
                except RefereeError as err:
                    return err
    return payloads


def _events(log: dict, opening: dict,
            payloads: dict[str, str]) -> Iterator[tuple[int | None, str, dict | str]]:
    """The new session's events ``(hand, kind, payload)`` as they are written
    (all of a 200,000-hand log's at once held a gigabyte)."""
    yield None, "session", opening
    for n, given in enumerate(log.get("hands", ()), 1):
        yield n, "hand_start", setup_of(given)
        for text in given.get("actions", ()):
            yield n, "action", payloads[text]


def judge(log: dict) -> Iterator[tuple[str, Any]]:
    """Replay a loaded log (its last hand may be still open) and settle its
    hands, ``BATCH`` at a time: yields ``(HANDS, rows)``, batches of the
    hands' rows as an import stores them (``storage.hands.encode``), in
    order, then ``(EVERYONE, names)``; at the replay's first fault,
    ``(FAULT, error)`` and nothing after it (an import then writes none of
    them). Only the batch in hand is kept: the
    table forgets each batch's hands once they are settled, as
    ``replay --json``'s segments do (keeping every hand for the settling
    after the replay held about 5 KB a hand, a gigabyte at 200,000 hands).
    A batch is replayed, then settled: settling each hand as soon as it was
    replayed took a sixth longer in all (the engine's and the ledger's work
    interleaved share the caches worse)."""
    try:
        session = open_session(log)
    except RefereeError as err:
        yield FAULT, err
        return
    table, stake, q = session.table, session.stake, session.quantum
    given = log.get("hands", [])
    last_event = 0  # the session's own event comes first
    running = None  # the newest settled hand's running row
    for first in range(0, len(given), BATCH):
        setups = given[first:first + BATCH]
        try:
            played = [play_on(table, setup) for setup in setups]
        except RefereeError as err:
            yield FAULT, err
            return
        batch: list[tuple] = []
        for setup, hand in zip(setups, played, strict=True):
            last_event += 1 + len(hand.actions)
            result = None
            if hand.phase == VOID:
                result = void_hand_result(hand, setup["void"], q)
            elif hand.is_complete:
                result = hand_result(hand, stake, q, setup)
            row = step(running, result)
            if row is not None:
                running = row
            batch.append((hand.number, setup_of(setup),
                          "actions" in setup, list(hand.players), hand.dealer,
                          len(hand.actions), last_event, result, row))
        del table.hands[:-1]  # only the last hand is needed to start the next
        del played
        yield HANDS, storage.hands.encode(batch)
    yield EVERYONE, list(table.everyone)


def get_log(db: Database, sid: str, *, expanded: bool = False) -> dict:
    """The session's ``tonk-log/1`` document (an import comes back as given).
    ``expanded``: with the rules as stored, every option written out, so that
    reports settle it as it was played whatever presets mean today."""
    row = session_row(db, sid)
    doc = row["header"]
    if expanded:
        doc["rules"] = row["rules_expanded"]
    hands = storage.hands.setups(db, sid)
    events = storage.events.actions_by_hand(db, sid)
    if hands:
        doc["hands"] = []
    # How each dispute was settled is its settling event's, not the hand's
    # setup's: written into the log beside the dispute (newcomer 43's N2).
    settled = all_settlements(db, sid) if any(h.get("disputes") for _n, h, _a in hands) \
        else {}
    names = storage.events.renames(db, sid) if settled else []
    for n, h, actions_key in hands:
        h = with_settled(h, settled.get(n), names)
        texts = [ev["payload"]["text"] for ev in storage.events.live_actions(events.get(n, []))]
        if texts or actions_key:
            h["actions"] = texts
        doc["hands"].append(h)
    return dump_log(doc)


def all_settlements(db: Database, sid: str) -> dict[int, dict[int, dict]]:
    """Every dispute the session's events settle, by hand and the dispute's
    place: the settling event's payload, when (``at``) and its ``seq``
    (``record.chain.chain_settlements`` reads an exported chain alike)."""
    out: dict[int, dict[int, dict]] = {}
    for ev in storage.events.of_kinds(db, sid, (str(EventKind.SETTLE),)):
        out.setdefault(ev["hand"], {})[ev["payload"]["dispute"]] = {
            **ev["payload"], "at": ev["created"], "seq": ev["seq"]}
    return out


def export_with_chain(db: Database, sid: str) -> dict:
    """The session's log with its receipt: ``head`` and the events that hash
    to it (``referee.record.chain``), so ``referee verify LOG`` can check the
    file offline."""
    from ...record.chain import export_fields

    doc = get_log(db, sid)
    return {**doc, **export_fields(sid, storage.chain.rows(db, sid))}


def export_text(db: Database, sid: str, *, chain: bool = False) -> str:
    """The file ``referee export`` writes (with ``chain``: ``--chain``'s,
    which ``referee verify LOG`` checks offline), the tablet's download too:
    one text, so the two are the same bytes."""
    doc = export_with_chain(db, sid) if chain else get_log(db, sid)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def get_result(db: Database, sid: str) -> dict:
    """``tonk-result/1`` of the session's complete hands, from their stored results."""
    return standings(db, sid, running_totals=False)["result"]


def result_text(db: Database, sid: str) -> str:
    """``get_result`` as ``referee replay --json`` of the exported log writes
    it, byte for byte, kept up to date as the session is written: a read
    after no write costs one query (the newest event's number); after a
    write, the hands from the lowest one the new events touched are read
    again (at a live table, the newest), and the totals, balances and
    transfers (one row, as the standings read them). The whole document
    lists every hand, so building it from nothing grows with the night; a
    process does that once per session (or after a corrected name)."""
    seq = storage.events.newest_seq(db, sid)
    kept = cache.result_text(db, sid)
    if kept is not None and kept.seq == seq:
        return kept.text
    numbers: list[int] = []
    lines: list[str] = []
    first = 1
    if kept is not None and kept.seq < seq:
        touched, renamed = storage.events.touched_since(db, sid, kept.seq)
        if not renamed:
            first = kept.numbers[-1] + 1 if kept.numbers else 1
            if touched is not None:
                first = min(first, touched)
            keep = bisect.bisect_left(kept.numbers, first)
            numbers, lines = kept.numbers[:keep], kept.lines[:keep]
    # The footer (totals, balances, transfers, closed) as the standings work it
    # out, from the newest running row and the header: no hands read for it.
    st = standings(db, sid, offset=0, limit=0, running_totals=False)
    row = session_row(db, sid)
    everyone, q = st["players"], session_quantum(row, resolve(row["rules_expanded"]))
    for n, running in storage.running.between(db, sid, first, 2**63 - 1):
        numbers.append(n)
        lines.append(item_line(result_entry(_standing_line(n, running, everyone, q, False))))
    doc = dict(st["result"])
    doc["hands"] = EncodedItems(",\n".join(lines))
    text = result_json_text(doc)
    cache.keep_result_text(db, sid, cache.ResultText(seq, numbers, lines, text))
    return text


def standings(db: Database, sid: str, *, offset: int = 0, limit: int | None = None,
              newest: int | None = None, running_totals: bool = True) -> dict:
    """Each settled hand's nets with the running totals after it, and the
    settle-up, as the API writes them: ``hand_lines``' window of hands and
    ``running_result``'s totals, balances, transfers and match, as text (the
    ``result`` document lists the window's hands). ``running_totals``: each
    line with the totals after it (the result document has none)."""
    row = session_row(db, sid)
    res = running_result(db, sid, row)
    window = hand_lines(db, sid, offset=offset, limit=limit, newest=newest,
                        running_totals=running_totals, of=res)
    hands, match = window["hands"], res.match()
    result = result_doc([result_entry(h) for h in hands], res.totals, res.transfers, res.quantum,
                        balances=res.balances, bq=res.balance_quantum, closed=res.closed,
                        match=match)
    header = res.header
    return {"players": res.players, "hands": hands, "totals": result["totals"],
            "transfers": result["transfers"], "push_ups": res.push_ups,
            "currency": amounts_currency(row["currency"], res.rules.scoring), "result": result,
            "balances": result.get("balances"), "closed": header.get("closed"),
            "brought_forward": header.get("brought_forward"),
            "carried_forward": header.get("carried_forward"),
            "payments": header.get("payments"), "match": match,
            "settled": window["settled"], "offset": window["offset"]}


def running_result(db: Database, sid: str, row: dict | None = None) -> RunningResult:
    """The session's result as its running totals give it (the newest settled
    hand's running row and the header, no hand read): what the pages' result
    sections are built from (``referee.reports.sections``), and the totals,
    balances, transfers and match of ``standings``."""
    row = row or session_row(db, sid)
    # The rules as stored, fully expanded: a later change of a preset never
    # changes an old session.
    rules = resolve(row["rules_expanded"])
    return RunningResult(row["header"], rules, row["everyone"], session_quantum(row, rules),
                         storage.running.newest(db, sid))


def hand_lines(db: Database, sid: str, *, offset: int = 0, limit: int | None = None,
               newest: int | None = None, running_totals: bool = True,
               of: RunningResult | None = None) -> dict:
    """A window of the settled hands' standings lines: ``offset``/``limit``
    (in order of hands), ``newest``: the newest so many; read from their
    running rows (``referee.service.money.totals``) without touching the
    others. ``hands``: the lines, ``settled``: how many hands are settled in
    all, ``offset``: the first line's place. ``running_totals``: each line
    with the totals after it. ``of``: the session's result read already
    (``running_result``), whose players and quantum the lines are written
    with (else the session's row is read for them)."""
    everyone, q = _written_with(db, sid, of)
    if newest is not None:
        limit = max(newest, 0)
        offset = max(storage.running.settled_count(db, sid) - limit, 0)
    hands = [_standing_line(n, r, everyone, q, running_totals) for n, r in storage.running.rows(
        db, sid, offset=max(offset, 0), limit=-1 if limit is None else max(limit, 0))]
    return {"hands": hands, "offset": max(offset, 0),
            "settled": storage.running.settled_count(db, sid) if limit is not None or offset
            else len(hands)}


def played_count(db: Database, sid: str) -> int:
    """How many hands were played to a result: the settled ones but the void
    (a void hand pays nothing and is dealt again)."""
    return storage.running.settled_count(db, sid) - storage.hands.void_count(db, sid)


def standings_page(db: Database, sid: str, page: int = 1, per_page: int = 20,
                   of: RunningResult | None = None) -> dict:
    """``hand_lines`` of one page of settled hands, page 1 the newest (each
    page in order of hands), with ``page``, ``pages`` and ``per_page`` and
    the page's dispute marks: what a page shows stays the same size however
    long the session. ``of``: as ``hand_lines``'."""
    settled = storage.running.settled_count(db, sid)
    pages = max(1, -(-settled // per_page))
    page = min(max(page, 1), pages)
    top = settled - (page - 1) * per_page
    offset = max(top - per_page, 0)
    st = hand_lines(db, sid, offset=offset, limit=top - offset, of=of)
    st.update(page=page, pages=pages, per_page=per_page)
    return _with_marks(db, sid, st)


def settled_lines(db: Database, sid: str, first: int, last: int,
                  of: RunningResult | None = None) -> dict[int, dict]:
    """The standings lines of the settled hands numbered ``first`` to ``last``,
    by number (a page of the session's hands). ``of``: as ``hand_lines``'."""
    everyone, q = _written_with(db, sid, of)
    first, last = max(first, -(2**63)), min(last, 2**63 - 1)
    return {n: _standing_line(n, r, everyone, q)
            for n, r in storage.running.between(db, sid, first, last)}


def _written_with(db: Database, sid: str, of: RunningResult | None) -> tuple[list[str], Decimal]:
    """The players and the quantum a session's hand lines are written with:
    the result's read already (``of``), else from the session's row."""
    if of is not None:
        return of.players, of.quantum
    row = session_row(db, sid)
    return row["everyone"], session_quantum(row, resolve(row["rules_expanded"]))


def accepted_between(db: Database, sid: str, first: int, last: int) -> dict[int, list[str]]:
    """Who has accepted each of the hands numbered ``first`` to ``last`` (the
    table page's list shows it)."""
    return storage.hands.accepted_between(db, sid, first, last)


def unaccepted(db: Database, sid: str) -> dict[int, list[str]]:
    """Each settled hand not everyone dealt in has accepted, with who has not
    (closing the table asks first: newcomer N14)."""
    return storage.hands.unaccepted(db, sid)


def dispute_marks(db: Database, sid: str, first: int, last: int) -> dict[int, dict]:
    """The disputed hands numbered ``first`` to ``last``: how many disputes
    each has still open and how many are settled (for the marks on the
    pages that list hands)."""
    disputed = storage.hands.disputes_between(db, sid, first, last)
    if not disputed:
        return {}
    by_events = storage.events.settled_between(db, sid, first, last)
    settled = {n: by_events.get(n, 0) + in_log for n, (_k, in_log) in disputed.items()}
    return {n: {"open": k - settled[n], "settled": settled[n]}
            for n, (k, _in_log) in disputed.items()}


def _with_marks(db: Database, sid: str, st: dict) -> dict:
    if st["hands"]:
        numbers = [h["hand"] for h in st["hands"]]
        st["disputes"] = dispute_marks(db, sid, min(numbers), max(numbers))
    else:
        st["disputes"] = {}
    return st


def reports_index(db: Database, sid: str, page: int = 1, per_page: int = 20) -> dict:
    """What the reports index lists: the session's header, one page of its
    settled hands (number, dealer, outcome, winners) and its head, from the
    stored rows (it replayed the whole log: 4.5 s at 10,000 hands)."""
    header = session_row(db, sid)["header"]
    st = standings_page(db, sid, page, per_page)
    return {
        "log": {k: header.get(k) for k in ("table", "players", "stake", "currency", "started")},
        "result": {"hands": [{"number": h["hand"], "dealer": h["dealer"],
                              "outcome": h["outcome"], "winners": h["winners"],
                              "told": h.get("told", False)}
                             for h in st["hands"]]},
        "standings": st,
        "disputes": st["disputes"],
        "head": storage.chain.final_hash(db, sid),
    }


def _standing_line(n: int, running: dict, everyone: list[str], q,
                   running_totals: bool = True) -> dict:
    """A settled hand's standings line from its running row: the result line,
    its nets after the side-bet pots and the totals after it (everyone who
    ever sat, 0 before they came)."""
    line = dict(running["line"])
    if "net" not in line:  # side bets moved money: the nets as the pots left them
        line["net"] = {p: fmt(Decimal(v), q) for p, v in running["net_exact"].items()}
    if not running_totals:  # the result document has no totals per hand
        return line
    after = running["totals"]
    totals = {p: fmt(Decimal(after.get(p, "0")), q) for p in everyone}
    totals.update((p, fmt(Decimal(v), q)) for p, v in after.items() if p not in totals)
    line["totals"] = totals
    return line


def table_language(db: Database, sid: str) -> str:
    """The table's language (its log's ``language``), read alone: the reports'
    pages need nothing else of the table to choose their words."""
    return session_row(db, sid)["header"].get("language", "en")


def stake_in_force(db: Database, sid: str) -> dict:
    """The stake in force, the one statement of it the table's pages and the
    house-rules sheet read: ``stake_now``, the stake of the hand in play (else
    of the next hand: a change made between hands is in force at once);
    ``stake_since``, the hand it holds from (None: since the table opened);
    ``stake_next``, a change from the next hand on made during a hand (or
    after it, before the next), and ``stake_next_from``, that next hand."""
    row = session_row(db, sid)
    with cache.lock(db, sid):
        return _stake_in_force(db, sid, row, live_state(db, sid))


def _stake_in_force(db: Database, sid: str, row: dict, live) -> dict:
    hand = live.hand
    stake_now = live.setup.get("stake", row["stake"]) if hand is not None \
        else live.next_stake or row["stake"]
    pending = live.next_stake if hand is not None else None
    since = later = None
    for ev in storage.events.session_level(db, sid, (str(EventKind.STAKE),)):
        if ev["payload"]["from_hand"] <= max(live.n, 1):
            since = ev["payload"]["from_hand"]
        else:
            later = ev["payload"]["from_hand"]
    pending = pending if pending is not None and str(pending) != str(stake_now) else None
    return {"stake_now": str(stake_now),
            "stake_since": since if since is not None and since > 1 else None,
            "stake_next": pending, "stake_next_from": later if pending is not None else None}


def session_summary(db: Database, sid: str) -> dict:
    row = session_row(db, sid)
    with cache.lock(db, sid):  # a write changes the cached hand in place
        live = live_state(db, sid)
        hand = live.hand
        current = None
        if hand is not None:
            current = {"hand": live.n, "phase": hand.phase, "to_act": hand.to_act,
                       "complete": hand.is_complete, "seq": len(hand.actions),
                       "dealer": hand.dealer, "players": list(hand.players)}
        seated = list(live.next_seats or (hand.players if hand is not None else live.players))
        stake = _stake_in_force(db, sid, row, live)
        stake.pop("stake_next_from")  # the pages say "from the next hand on"
        match = _match_now(db, sid, row, live)
    header = row["header"]
    return {
        "id": sid,
        "created": row["created"],
        "table": row["table_name"],
        "copy_of": row.get("copy_of"),
        "started": header.get("started"),
        "closed": header.get("closed"),
        "language": header.get("language", "en"),
        "next_stake": live.next_stake or row["stake"],
        "next_seats": live.next_seats,
        "brought_forward": header.get("brought_forward"),
        # the debts carried on to later tables (the log's own field): what
        # the balances leave out besides the payments
        "carried_forward": header.get("carried_forward"),
        "payments": header.get("payments"),
        # The currency its amounts are in (None: points; push-up scores too):
        # what every page and answer writes them in.
        "currency": amounts_currency(row["currency"], row["rules_expanded"]["scoring"]),
        "stake": row["stake"],
        "rules_source": row["rules_source"],
        "rules": row["rules_expanded"],
        "players": live.players,
        # Who the next hand is dealt to: after a player left or sat down, not
        # the players the table opened with.
        "seated": seated,
        **stake,
        "everyone": list(live.everyone),
        "hands": live.n,
        "current": current,
        "next_dealer": suggest_dealer(db, sid),
        # Under match_to: where the match stands (the result's ``match``).
        "match": match,
        "has_pin": bool(row["pin_hash"]),
        # the newest event's number and hash: what a stream's ids count and a
        # witness keeps (``GET /api/sessions/<id>/consistency``)
        **dict(zip(("seq", "head"), storage.chain.end(db, sid), strict=True)),
    }


def _match_now(db: Database, sid: str, row: dict, live) -> dict | None:
    """The result's ``match`` from the newest settled hand's totals (one
    row, ``running_result``), or None under rules without ``match_to``."""
    if live.rules.match_to is None:
        return None
    return running_result(db, sid, row).match()


def money_summary(db: Database, sid: str) -> dict:
    """Where the money stands, as the API's session answer writes it: the
    totals, the balances (None unless something was brought forward or paid)
    and the transfers still owed (``running_result``'s, as text)."""
    s = standings(db, sid, newest=0)
    return {"totals": s["totals"], "balances": s["balances"], "transfers": s["transfers"]}


#: The most tables a home page lists (a device remembers as many: web/forms.py).
HOME_TABLES = 20


def list_sessions(db: Database, ids: list[str]) -> list[dict]:
    """The tables ``ids`` names (the last ``HOME_TABLES`` of them), newest
    first (opened at the same moment: the later in ``ids`` first). Never
    every table: the home page read the whole table of sessions to show a
    device its few (19.7 ms at 4,314 tables, growing with each: issue 34)."""
    ids = list(dict.fromkeys(ids))[-HOME_TABLES:]
    rows = storage.sessions.named(db, ids)
    return sorted(reversed(rows), key=lambda s: s["created"], reverse=True)
