"""What ``referee verify`` checks beyond the hashes: that everything money is
read from agrees with the chain.

The chain (``storage.chain.verify_session``) proves the events are the ones
written. The service also reads derived rows (the session's stake, currency,
players and expanded rules; each hand's setup, seats, count of actions and
stored result); an edit there would change a settlement without touching an
event. So each derived row is checked against the events it came from, and
every stored result against a fresh replay of the chain's log.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from contextlib import suppress
from datetime import datetime
from decimal import Decimal
from typing import Any, NamedTuple

import orjson

from ...ledger.running import step
from ...record import load_log
from ...record.chain import (
    ASKED,
    NO_HEADER,
    REPLY,
    LogChainError,
    asked_digest,
    canonical,
    chain_renames,
    chain_settlements,
    live_actions,
    log_chain,
    renamed_text,
    reply_digest,
    same_play,
    with_settled,
    without_reply,
)
from ...replay import replay
from ...rules.errors import RefereeError
from ...rules.events import setup_after_undo
from ...rules.hand import VOID
from ...rules.words import N_, Names, Words
from ...speed import collector
from .. import beside, storage
from ..access import locks_digest
from ..kinds import EventKind
from ..money.results import StoredResult, hand_result, session_quantum, void_hand_result
from ..storage import Database
from ..table.table_events import MONEY_EVENTS, fold_money, renamed

# The kinds as plain text, compared once per event of a long chain.
_SESSION, _HAND_START, _ACTION, _CORRECTION, _REFUSAL = map(str, (
    EventKind.SESSION, EventKind.HAND_START, EventKind.ACTION, EventKind.CORRECTION,
    EventKind.REFUSAL))
HEAD = re.compile(r"[0-9a-f]{64}")


def _canon(data) -> str:
    return canonical(data)


#: The session's row is written in the transaction of its first event, a
#: moment before it: its ``created`` (a session's date in the club's season
#: where the log gives no ``started``) is at most this long before the first
#: event's, and never after it (issue 34: an edit of it went unseen).
CREATED_BEFORE = 600.0


def _created_with(created: object, first: object) -> bool:
    try:
        row_at = datetime.fromisoformat(str(created).replace("Z", "+00:00"))
        event_at = datetime.fromisoformat(str(first).replace("Z", "+00:00"))
    except ValueError:
        return False
    return 0 <= (event_at - row_at).total_seconds() <= CREATED_BEFORE


def _header_now(header: dict, events: list[dict]) -> tuple[dict, list | None]:
    """The session's header and players as the table's own events left them
    (``table_events``): money events (payments, their confirmations and
    undos, carries) and closing add to it, a corrected name renames it; the
    stake and seats they change belong to the hands."""
    players = header.get("players")
    for ev in events[1:]:
        if ev["hand"] is not None:
            continue
        said = without_reply(json.loads(ev["payload"]))
        if ev["kind"] in MONEY_EVENTS:
            header = fold_money(header, ev["kind"], said)
        elif ev["kind"] == EventKind.CLOSE:
            header = {**header, "closed": said["closed"]}
        elif ev["kind"] == EventKind.RENAME:
            header = renamed(header, said["old"], said["new"])
            players = renamed(players, said["old"], said["new"])
    return header, players


def verify_log(doc: dict) -> str:
    """An exported log's head (``referee export ID --chain``), if its chain
    hashes to it and its play is what the chain's events leave: the header
    and the hands' setups with the table's own events folded in (a payment,
    the closing, an acceptance, a dispute, a void: every night has some) as
    ``verify`` folds them for a stored session; else ``LogChainError``."""
    head, events = log_chain(doc)
    payload = json.loads(events[0]["payload"])
    header = payload["header"] if events[0]["chain"] >= 2 else payload
    setups, _ = _expected_setups(events)
    header, actions = _header_now(header, events)[0], live_actions(events)
    # The export writes each settled dispute with its settlement (the stored
    # hand's setup does not hold it: its settling event does); one exported
    # before it did holds the setups as stored, and still verifies (its
    # papers read the settlements from its chain: reports.stored.ChainedLog).
    settled, names = chain_settlements(events), chain_renames(events)
    written = {n: with_settled(setup, settled.get(n), names) for n, setup in setups.items()}
    try:
        same_play(doc, header, written, actions)
    except LogChainError:
        if written == setups:
            raise
        same_play(doc, header, setups, actions)
    return head


def _session_faults(row: dict, events: list[dict]) -> list[Words]:
    first = events[0]
    if first["kind"] != _SESSION:
        return [Words(NO_HEADER)]
    if first["chain"] < 2:
        return []  # format 1 did not hash the expanded rules: only the events are vouched for
    payload = json.loads(first["payload"])
    header, players = _header_now(payload.get("header", {}), events)
    columns = {
        "header": header,
        "rules_expanded": payload.get("rules_expanded"),
        "rules_source": header.get("rules"),
        "players": players,
        "stake": str(header.get("stake")),
        "currency": header.get("currency"),
        "table_name": header.get("table"),
        "started": header.get("started"),
        "brought_forward_from": payload.get("brought_forward_from"),
    }
    faults = [Words(N_("the session's {column} differs from its chain"), column=name)
              for name, value in columns.items() if _canon(row[name]) != _canon(value)]
    if not _created_with(row["created"], first["created"]):
        faults.append(Words(N_("the session's {column} differs from its chain"),
                            column="created"))
    # Sessions opened before the chain held their locks have none to compare.
    if "locks" in payload and payload["locks"] != locks_digest(
            row["table_token_hash"], row["audit_token_hash"], row["pin_hash"]):
        faults.append(Words(N_("the session's locks (its tokens or PIN) differ from its "
                               "chain")))
    stake, seats, wrong = _expected_next(events)
    if _canon(row["next_stake"]) != _canon(stake):
        faults.append(Words(N_("the stake for the next hand differs from its chain")))
    if _canon(row["next_seats"]) != _canon(seats):
        faults.append(Words(N_("the seats for the next hand differ from its chain")))
    faults += [Words(N_("hand {hand}'s stake is not the one the table set"), hand=n)
               for n in wrong]
    return faults


def not_covered(events: list) -> list[Words]:
    """What of a session its chain does not vouch for, from its events as
    stored: the locks (token hashes and PIN) of a session opened before its
    opening event held their digest, and, before chain format 2, its
    expanded rules and derived header too. Neither can be checked, so
    ``verify`` says so rather than pass them in silence (docs/decisions.md)."""
    first = events[0] if events else None
    if first is None or first["kind"] != _SESSION:
        return []  # a fault of the chain's, said as one
    if first["chain"] < 2:
        return [Words(N_("not covered: it was stored before its chain held its rules, "
                         "its locks (tokens and PIN) and what is read from its header, so "
                         "verify cannot tell whether they were changed"))]
    try:
        payload = json.loads(first["payload"])
    except ValueError:
        return []  # a fault of the chain's
    if isinstance(payload, dict) and "locks" not in payload:
        return [Words(N_("not covered: its locks (tokens and PIN) were stored before its "
                         "chain held them, so verify cannot tell whether they were changed"))]
    return []


def _expected_next(events: list[dict]) -> tuple[str | None, list | None, list[int]]:
    """What the table's events leave pending for the next hand: the stake (the
    last stake change, else the last imported hand's own) and the seats after
    someone left (until a hand is dealt with them); and the hands started after
    a stake change that do not carry it (a hand's start cannot name its stake:
    the table changes it by an event, so it must carry the one the table set)."""
    changed = imported = seats = None
    wrong: list[int] = []
    for ev in events:
        if ev["kind"] == _ACTION or ev["kind"] == _REFUSAL:
            continue  # most events: nothing pending in them, not worth decoding
        said = json.loads(ev["payload"])
        if ev["kind"] == _HAND_START:
            imported = None if said.get("stake") is None else str(said["stake"])
            seats = None
            if changed is not None and said.get("stake") != changed:
                wrong.append(ev["hand"])
        elif ev["kind"] == EventKind.STAKE:
            changed = said["stake"]
        elif ev["kind"] in (EventKind.LEAVE, EventKind.SEAT):
            seats = said["seats"]
        elif ev["kind"] == EventKind.RENAME and seats is not None:
            seats = renamed(seats, said["old"], said["new"])
    return (changed if changed is not None else imported), seats, wrong


def _expected_setups(events: list[dict]) -> tuple[dict[int, dict], dict[int, int]]:
    """Each hand's setup as the chain says it is now, and the id of the newest
    event that touched each hand's row: its own events, and every event logged
    while it was the newest hand (the service moves the newest hand's version
    on with each table event, so every process sees the session changed)."""
    setups: dict[int, dict] = {}
    newest: dict[int, int] = {}
    in_force: dict[int, int] = {}  # each hand's actions not undone
    current = None
    for ev in events:
        # An action only counts: most events are actions, and decoding each
        # of 140,000 took a second of a long session's verify.
        said: dict[str, Any] = json.loads(ev["payload"]) if ev["kind"] != _ACTION else {}
        n = ev["hand"]
        if ev["kind"] == _HAND_START:
            setups[n] = without_reply(said)
            in_force[n] = 0
            current = n
        elif n in setups:
            setup = setups[n]
            if ev["kind"] == _ACTION:
                in_force[n] += 1
            elif ev["kind"] == _CORRECTION:
                setups[n] = _after_undo(setup, said, in_force, n)
            elif ev["kind"] == EventKind.VOID:
                setups[n] = {**setup, "void": said["reason"]}
            elif ev["kind"] == EventKind.LEAVE and "void" in said:
                setups[n] = {**setup, "void": said["void"]}
            elif ev["kind"] == EventKind.ACCEPT:
                setups[n] = {**setup, "accepted": [*setup.get("accepted", ()), said["player"]]}
            elif ev["kind"] == EventKind.DISPUTE:
                entry = {k: said[k] for k in ("action", "by", "note")}
                setups[n] = {**setup, "disputes": [*setup.get("disputes", ()), entry]}
        elif n is None and ev["kind"] == EventKind.RENAME:
            setups = {k: renamed(v, said["old"], said["new"]) for k, v in setups.items()}
        if n is not None and n in setups:
            newest[n] = ev["id"]
        if current is not None:
            newest[current] = ev["id"]
    return setups, newest


def _after_undo(setup: dict, said: dict, in_force: dict[int, int], n: int) -> dict:
    """Hand ``n``'s setup after a correction (``in_force`` moved on with it).
    A told hand's correction changes nothing here: the start that follows
    tells it again."""
    if "ending" in said:
        return setup
    in_force[n] -= 1
    return setup_after_undo(setup, in_force[n] + 1, said["action"])


def _same(text: str | None, value) -> bool:
    """Whether a stored JSON column holds ``value``: its text as the service
    writes it (``storage.to_json``) at once, else decoded and compared in
    canonical form (keys in any order, or written by an older encoder)."""
    if text == storage.to_json(value):
        return True
    return _canon(json.loads(text) if text is not None else None) == _canon(value)


def _hand_faults(events: list, hand_rows: dict[int, Any], setups: dict[int, dict],
                 newest: dict[int, int], live: dict[int, list[tuple[int, str]]]
                 ) -> list[Words]:
    faults = []
    with_events = {ev["hand"] for ev in events if ev["hand"] is not None}
    for n in sorted(with_events | set(hand_rows)):
        row = hand_rows.get(n)
        if row is None or n not in setups:
            faults.append(Words(N_("hand {hand} is in the events only") if row is None else
                                N_("hand {hand} is in the hands only"), hand=n))
            continue
        if _canon(json.loads(row["setup"])) != _canon(setups[n]):
            faults.append(Words(N_("hand {hand}'s stored setup differs from its chain"), hand=n))
        if row["last_event"] != newest[n]:
            faults.append(Words(N_("hand {hand}'s newest event {stored} is not the chain's "
                                   "({chain}): events were removed or added"),
                                hand=n, stored=row["last_event"], chain=newest[n]))
        if row["seq"] != len(live.get(n, ())):
            faults.append(Words(N_("hand {hand}'s count of actions differs from its chain"),
                                hand=n))
        if not _actions_key_holds(row["actions_key"], setups[n], live.get(n)):
            faults.append(Words(N_("hand {hand}'s stored setup differs from its chain"), hand=n))
    return faults


def _actions_key_holds(flag: object, setup: dict, actions: list | None) -> bool:
    """Whether a hand's ``actions_key`` (the hand as given had an ``actions``
    key: the export writes ``"actions": []`` for it) is what the chain
    allows: 0 or 1; 0 for a hand told by its ending (a told hand with
    ``actions`` is malformed), 1 for a hand with actions in force. An
    imported hand without actions may have had the key or not: the chain
    does not say, and either exports the same play (issue 34: 1 -> 2 went
    unseen)."""
    if flag not in (0, 1):
        return False
    if "ending" in setup:
        return flag == 0
    return flag == 1 or not actions


# The columns of ``storage.chain.rows_by_name`` read by position in the loops
# over every event: a row's lookup by name cost a long verify a tenth of a second.
_ID, _HAND, _SEQ, _KIND, _PAYLOAD = 0, 3, 4, 5, 6


def _live_actions(events: list) -> dict[int, list[tuple[int, str]]]:
    """Each hand's actions in force (``record.chain.in_force``'s rule, in one
    pass: registered in ``referee/speed``), as (event id, text as the table
    now names its players). An
    action's text is decoded once per distinct payload: a long log repeats
    a few thousand. orjson here and for the setups (``_chain_log``): it reads
    the service's own canonical JSON (no integer past 64 bits, no lone
    surrogate: the log's reader refuses both), and ``json.loads``'s overhead
    on 40,000 small texts was a twentieth of verify's longer half."""
    names = []
    for ev in events:
        if ev[_HAND] is None and ev[_KIND] == EventKind.RENAME:
            said = json.loads(ev[_PAYLOAD])
            names.append((ev[_SEQ], said["old"], said["new"]))
    texts: dict[str, str] = {}
    live: dict[int, list[tuple[int, str]]] = {}
    hand: list[tuple[int, str]] = []
    at = None
    for ev in events:
        kind = ev[_KIND]
        if kind == _ACTION:
            payload = ev[_PAYLOAD]
            text = texts.get(payload)
            if text is None:
                text = texts[payload] = orjson.loads(payload)["text"]
            if names:
                text = renamed_text(text, ev[_SEQ], names)
            if ev[_HAND] != at:  # a hand's actions come together, in order
                at = ev[_HAND]
                hand = live.setdefault(at, [])
            hand.append((ev[_ID], text))
        elif kind == _CORRECTION:
            cancels = json.loads(ev[_PAYLOAD])["cancels"]
            at = ev[_HAND]
            hand = live[at] = [a for a in live.get(at, []) if a[0] != cancels]
    return live


def _chain_log(row: dict, hand_rows: dict[int, Any],
               live: dict[int, list[tuple[int, str]]]) -> dict:
    """The session's log as ``sessions.get_log(expanded=True)`` gives it,
    from what verify has read already: the stored header and setups (checked
    against the chain too: the results are reported only if they hold) and
    the actions in force."""
    doc = dict(row["header"])
    doc["rules"] = row["rules_expanded"]
    if hand_rows:
        doc["hands"] = []
    for n, hand in hand_rows.items():
        setup = orjson.loads(hand["setup"])
        actions = [text for _, text in live.get(n, ())]
        if actions or hand["actions_key"]:
            setup["actions"] = actions
        doc["hands"].append(setup)
    return doc


#: A stored result's fields that say its hand in words (reworded by later
#: versions, never money): a difference in these alone is no fault.
_TOLD_IN_ITS_WORDS = {"story", "story_words"}


def _result_differences(n: int, text: str | None, want: Mapping[str, Any] | None
                        ) -> list[Words]:
    """How hand ``n``'s stored result (its JSON text) differs from the
    replay's, compared as data: the fields that differ, named."""
    if want is None:
        return [Words(N_("hand {hand} has a stored result, but the replay of its chain does "
                         "not settle it"), hand=n)]
    if text is None:
        return [Words(N_("hand {hand} has no stored result, but the replay of its chain "
                         "settles it"), hand=n)]
    try:
        got = json.loads(text)
    except ValueError:
        got = None
    if not isinstance(got, dict):
        return [Words(N_("hand {hand}'s stored result cannot be read as a result"), hand=n)]
    fields = [k for k in (*want, *(k for k in got if k not in want))
              if k not in got or k not in want or _canon(got[k]) != _canon(want[k])]
    if set(fields) <= _TOLD_IN_ITS_WORDS:
        # The story is told in the words of the version that stored it (a
        # sentence reworded since, a result stored before its words were
        # kept): the hand's money, outcome and counts are what is checked.
        return []
    return [Words(N_("hand {hand}'s stored result differs from the replay of its chain in "
                     "{fields}"), hand=n, fields=Names(fields))]


def _quantum_faults(stored: Decimal, chain: Decimal) -> list[Words]:
    """The places the service writes the table's amounts with (the session's
    ``quantum``, kept from its opening) must be those of the chain's log:
    the stake and every hand's own stake (a table's later stake may need no
    more places: ``stake_places``). An edit of it changed no stored result,
    only the hands still to be played (issue 34). Compared as written: 0.01
    and 0.010 write amounts differently."""
    if str(stored) == str(chain):
        return []
    return [Words(N_("the session's {column} differs from its chain"), column="quantum")]


def _result_faults(db: Database, sid: str, row: dict, events: list,
                   hand_rows: dict[int, Any], live: dict[int, list[tuple[int, str]]]
                   ) -> list[Words]:
    """The stored results (and what the pages read beside them) against a
    replay of the chain's log; ``live``: ``_live_actions(events)``."""
    try:
        log = load_log(_chain_log(row, hand_rows, live))
        played = replay(log, allow_open_last_hand=True)
    except RefereeError as err:
        return [Words(N_("the chain's log does not replay: {error}"), error=err.message_words)]
    # The places the session's amounts are written with, as the service keeps
    # them (a hand's own stake may need more than the session's).
    q = session_quantum(row, played.rules)
    faults = _quantum_faults(q, played.quantum)
    running = None
    for given, hand in zip(log.get("hands", []), played.table.hands, strict=False):
        have = hand_rows.get(hand.number)
        n = hand.number
        want: StoredResult | None
        if hand.phase == VOID:
            want = void_hand_result(hand, given["void"], q)
        else:
            want = hand_result(hand, played.stake, q, given) if hand.is_complete else None
        got = have["result"] if have else None
        if not _same(got, want):  # the same text is the same result: most hands
            faults += _result_differences(n, got, want)
        # The pages read the totals from these rows alone: they must be the replay's.
        after = step(running, want)
        if have and not _same(have["running"], after):
            faults.append(Words(N_("hand {hand}'s stored running totals differ from the "
                                   "replay of its chain"), hand=n))
        running = after if after is not None else running
        if have and not _same(have["seats"], list(hand.players)):
            faults.append(Words(N_("hand {hand}'s stored seats differ from its chain"), hand=n))
        if have and have["dealer"] != hand.dealer:
            faults.append(Words(N_("hand {hand}'s stored dealer differs from its chain"),
                                hand=n))
        # What the pages and the count of settled hands go by.
        status = "void" if hand.phase == VOID else "complete" if hand.is_complete else "open"
        if have and have["status"] != status:
            faults.append(Words(N_("hand {hand}'s stored status differs from the replay of "
                                   "its chain"), hand=n))
    seats = storage.hands.seats(db, sid)
    if seats.get(0) != row["players"]:
        faults.append(Words(N_("the session's stored seats differ from its chain")))
    for n, have in hand_rows.items():
        if not _same(have["seats"], seats.get(n)):
            faults.append(Words(N_("hand {hand}'s seat rows differ from its chain"), hand=n))
    faults += _seat_position_faults(db, sid)
    if storage.running.settled_count(db, sid) != storage.running.counted_settled(db, sid):
        faults.append(Words(N_("the session's count of settled hands differs from its hands")))
    if _canon(row["everyone"]) != _canon(list(played.table.everyone)):
        faults.append(Words(N_("the session's list of everyone seated differs from its "
                               "chain")))
    return faults


def _seat_position_faults(db: Database, sid: str) -> list[Words]:
    """Seat rows are numbered from 0 in the order the chain seats them: a
    row moved past the last seat kept the order it is read in, and went
    unseen (issue 34). Nothing but verify reads the seat rows; the check
    keeps them exactly what the service writes."""
    return [Words(N_("hand {hand}'s seat rows differ from its chain"), hand=n) if n else
            Words(N_("the session's stored seats differ from its chain"))
            for n in storage.hands.seats_out_of_place(db, sid)]


# From this many events on (about 700 hands), the chain is hashed and the
# derived rows checked against the events in a second process while this one
# replays and checks the results: both work from the rows read once, and the
# hashing alone is a third of a long session's verify. At 1,000 hands (15,000
# events) on a quiet host the second process took verify's wall clock from
# 1.9-2.5x its floor to 1.6-1.8x (best; medians 1.8-2.0x to 1.3-1.4x), for
# about 0.1 CPU-second more; at 100 and 300 hands the fork cost more than it
# saved (docs/decisions.md, "Fifth pass").
BESIDE_EVENTS = 10_000


def _chain_and_event_faults_at(path: str, sid: str, read: Read):
    """``_chain_and_event_faults`` in a second process, on its own connection
    (what it answers is pickled: the actions in force stay there)."""
    return _chain_and_event_faults(storage.connect(path), sid, read)[:2]


def _chain_fault_words(fault: dict) -> Words:
    if fault["seq"] is None:
        return fault["reason"]
    return Words(N_("event {event} (id {id}, {kind}, hand {hand}): {fault}"), event=fault["seq"],
                 id=fault["id"], kind=fault["kind"], hand=fault["hand"], fault=fault["reason"])


def verify_session(db: Database, sid: str,
                   notes: list[Words] | None = None, *, anchored: bool = True) -> list[Words]:
    """Every reason the stored session cannot be trusted (empty: it can;
    a receipt's head is checked apart, ``receipt.check``). ``notes`` (a
    list): what the chain cannot vouch for is added to it (``not_covered``,
    not a fault: the session may well be intact). The faults
    come in order of trust: the chain's first, else the derived rows' against
    the events, else the stored results' against a replay.

    The events and the hands' rows are read once, and every check works from
    those rows (a long session's verify read and decoded every event three
    times); the hands' JSON is compared as the text the service writes. A
    long session's chain is hashed, and its rows checked against the events,
    in a second process (forked: it shares the rows read) while this one
    replays and checks the results.

    Everything is read in one snapshot (``storage.snapshot``): a service
    writing meanwhile is not seen, where rows read a moment apart would
    disagree as an edit would. The second process reads only the hashes of
    events older than the session's (never changed); the rest it is handed.

    ``anchored``: the anchors of what is the session's too (``session_anchor_faults``),
    where nothing else is found (a session checked alone; the whole database's
    verify checks every anchor once)."""
    with collector.paused(), storage.snapshot(db):
        try:
            faults = _verify_session(db, sid, notes)
            return faults if faults or not anchored else session_anchor_faults(db, sid)
        except (ValueError, TypeError, KeyError, ArithmeticError) as err:
            # A row edited into what the service never writes (text where its
            # JSON was, a quantum that is no number): this session's fault,
            # where a traceback stopped the check of every other (issue 34).
            return [Words(UNREADABLE, problem=f"{type(err).__name__}: {err}"[:200])]


UNREADABLE = N_("a stored row cannot be read ({problem})")


def _verify_session(db: Database, sid: str,
                    notes: list[Words] | None) -> list[Words]:
    row = storage.sessions.row(db, sid)
    if row is None:
        return [Words(N_("there is no session {session}"), session=repr(sid))]
    events = storage.chain.rows_by_name(db, sid)
    if notes is not None:
        notes += not_covered(events)
    hand_rows = {r["n"]: r for r in storage.hands.rows_as_stored(db, sid)}
    read = Read(row, events, hand_rows, storage.replies.of_session(db, sid),
                storage.chain.first_new_event(db))
    path = storage.db_file(db)
    chain_faults = None
    if path is not None and len(events) >= BESIDE_EVENTS and beside.can_fork():
        with suppress(beside.SecondProcessFailed):  # none to be had: all here
            chain_faults = beside.start(_chain_and_event_faults_at, path, sid, read)
    if chain_faults is None:
        fault, faults, live = _chain_and_event_faults(db, sid, read)
        if fault is not None:
            return [_chain_fault_words(fault)]
        assert live is not None  # worked out whenever the chain holds
        return faults or _result_faults(db, sid, row, events, hand_rows, live)
    try:
        results = _result_faults(db, sid, row, events, hand_rows, _live_actions(events))
        error = None
    except Exception as err:  # a broken chain or row may hold anything
        results, error = [], err
    fault, faults = chain_faults()
    if fault is not None:
        return [_chain_fault_words(fault)]
    if faults:
        return faults
    if error is not None:
        raise error
    return results


class Read(NamedTuple):
    """What verify reads of a session, in one snapshot, for every check."""
    row: dict
    events: list
    hand_rows: dict[int, Any]
    replies: list[tuple[str, bool, str, str | None]]
    first_new: int | None


def _chain_and_event_faults(db: Database, sid: str, read: Read
                            ) -> tuple[dict | None, list[Words], dict | None]:
    """The chain's first fault, else what differs between the derived rows
    (the session's, the hands', the stored answers) and the events; and each
    hand's actions in force (``_live_actions``, None after a chain's fault),
    which the results' check reads too (worked out once: a long session's
    140,000 events walked again were 2% of its instructions in one process)."""
    events = read.events
    fault = storage.chain.verify_session(db, sid, rows=events,
                                         first_new=read.first_new)
    if fault is not None:
        return fault, [], None
    setups, newest = _expected_setups(events)
    live = _live_actions(events)
    return None, _session_faults(read.row, events) + _hand_faults(
        events, read.hand_rows, setups, newest, live) + _reply_faults(
        sid, events, read.replies), live


def _reply_faults(sid: str, events: list, replies: list[tuple[str, bool, str, str | None]]
                  ) -> list[Words]:
    """A stored first answer (what a retry with its client id gets back) must
    answer an event of the chain with that client id and be that event's
    answer: its digest, where the event holds one (``record.chain.REPLY``:
    every answer stored since), else what can be told of it from the event:
    a table's event's answer is the event itself (its kind, hand and
    fields), a refusal's says its code and message, an action's, undo's or
    start's its hand and the count of the hand's actions after it (the rest,
    the hand's state then, is vouched for only by a digest:
    docs/decisions.md).

    And each client id names one event of the chain, which has its stored
    answer: with the answer deleted, a retry of that id was written again
    (a payment recorded twice), and nothing else would tell."""
    by_client: dict[str, Any] = {}
    faults = []
    for ev in events:
        client_id = ev["client_id"]
        if client_id is None:
            continue
        first = by_client.setdefault(client_id, ev)
        if first is not ev:
            faults.append(Words(N_("client id {client_id} names two events of the chain, "
                                   "{first} and {second}: one request written twice"),
                                client_id=repr(client_id), first=first["seq"],
                                second=ev["seq"]))
    answered = {client_id for client_id, _refused, _text, _request in replies}
    faults += [Words(N_("event {event} (client id {client_id}) has no stored answer: a "
                        "retry of it would be written again"),
                     event=ev["seq"], client_id=repr(client_id))
               for client_id, ev in by_client.items() if client_id not in answered]
    for client_id, refused, text, request in replies:
        ev = by_client.get(client_id)
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        if ev is None or not isinstance(body, dict):
            faults.append(Words(N_("the stored answer to client id {client_id} answers no "
                                   "event of the chain"), client_id=repr(client_id)))
            continue
        payload = json.loads(ev["payload"])
        if REPLY in payload:
            ok = payload[REPLY] == reply_digest(text) and refused == (ev["kind"] == _REFUSAL)
        else:
            ok = _answers_without_digest(sid, events, ev, payload, refused, body)
        if not ok:
            faults.append(Words(N_("the stored answer to client id {client_id} differs from "
                                   "its event {event} ({kind}) in the chain"),
                                client_id=repr(client_id), event=ev["seq"], kind=ev["kind"]))
        if not _asks_as_stored(payload, request):
            faults.append(Words(N_("the stored request of client id {client_id} differs from "
                                   "its event {event} ({kind}) in the chain"),
                                client_id=repr(client_id), event=ev["seq"], kind=ev["kind"]))
    return faults


def _asks_as_stored(payload: Any, request: str | None) -> bool:
    """Whether what a stored answer's request was (``replies.request``: the
    same client id with another body is refused by it) is what its event
    holds the digest of. Events chained before they held it vouch for
    nothing there (issue 34: an edit of it went unseen)."""
    return ASKED not in payload or payload[ASKED] == asked_digest(request)


def _answers_without_digest(sid: str, events: list, ev: Any, payload: Any, refused: bool,
                            body: dict) -> bool:
    """Whether an answer stored before answers carried a digest says what its
    event says (a table's event's answer, all of it)."""
    if refused:
        error = body.get("error")
        return ev["kind"] == _REFUSAL and isinstance(error, dict) and \
            error.get("code") == payload.get("code") and \
            error.get("message") == payload.get("message")
    if ev["kind"] == _REFUSAL:
        return False
    if "event" in body:  # a table's event: its answer is the event (``table_events``)
        return isinstance(payload, dict) and _canon(body) == _canon(
            {"event": ev["kind"], "hand": ev["hand"], **payload})
    return body.get("session") == sid and body.get("hand") == ev["hand"] and \
        body.get("seq") == _actions_after(events, ev)


def _actions_after(events: list, event: Any) -> int:
    """How many actions hand ``event``'s hand holds just after ``event``."""
    live: list[int] = []
    for ev in events:
        if ev["hand"] == event["hand"]:
            if ev["kind"] == _ACTION:
                live.append(ev["id"])
            elif ev["kind"] == _CORRECTION:
                cancels = json.loads(ev["payload"]).get("cancels")
                live = [i for i in live if i != cancels]
        if ev["id"] == event["id"]:
            break
    return len(live)


#: Where the whole database's faults are reported (``referee verify`` says
#: them as a session's).
DATABASE = "*"


NEWEST_GONE = N_("the database's newest event is not the one its last write left (event "
                 "id {id}): events were removed from its end")
TRIES_MOVED = N_("the stored wrong tries (attempts) are not those their writes left: a row "
                 "was deleted or edited")


def _newest_faults(db: Database) -> list[Words]:
    kept = storage.anchors.read(db).get(storage.anchors.EVENTS)
    if kept == storage.anchors.newest(db, "events"):
        return []
    return [Words(NEWEST_GONE, id=kept[0] if kept else "?")]


def anchor_faults(db: Database) -> list[Words]:
    """Where the database's ends differ from what its last writes left
    (``storage.anchors``): its newest event, and the rows of wrong tries,
    each group adding up to its anchor (``storage.attempts``: every
    session's, and the host key's and the tables opened, which are no
    session's). A few reads: the anchors, the newest event by its key, the
    sessions' ids and the few rows of ``attempts``."""
    faults = _newest_faults(db)
    groups = storage.attempts.by_group(db)
    anchored = [*storage.attempts.GROUPS, *storage.sessions.ids(db), *groups]
    if storage.anchors.ATTEMPTS in storage.anchors.read(db) or not all(
            storage.attempts.holds(group, groups.get(group, [])) for group in anchored):
        faults.append(Words(TRIES_MOVED))
    return faults


def session_anchor_faults(db: Database, sid: str) -> list[Words]:
    """What the database's anchors say of one session, checked alone: its
    wrong tries add up to their anchor, and none of its events is gone from
    its end (``storage.anchors``). The whole database's verify sees a cut
    tail by the event after it or its own newest event; checked alone, every
    id after the session's newest event must still be there, up to the
    anchored newest (an event missing after it may have been the session's:
    nothing else tells). Format 1's ids were not dense: only those from the
    event before format 2's first are asked."""
    if not storage.attempts.holds(sid, storage.attempts.of_group(db, sid)):
        return [Words(TRIES_MOVED)]
    if faults := _newest_faults(db):
        return faults
    last, first_new = storage.chain.end_id(db, sid), storage.chain.first_new_event(db)
    newest = storage.anchors.newest(db, "events")[0]
    if last is None or first_new is None:
        return []
    missing = storage.chain.first_missing(db, max(last + 1, first_new - 1, 1), newest)
    return [] if missing is None else [Words(N_("event id {id} is missing"), id=missing)]


def verify_all(db: Database, notes: dict[str, list[Words]] | None = None
               ) -> dict[str, list[Words]]:
    """Each stored session's faults, and any events whose session is gone.
    ``notes`` (a dict): each session's ``not_covered``, where it has any.
    The whole database is read in one snapshot (``storage.snapshot``)."""
    with storage.snapshot(db):
        return _verify_all(db, notes)


def _verify_all(db: Database, notes: dict[str, list[Words]] | None
                ) -> dict[str, list[Words]]:
    out = {}
    for sid in storage.sessions.ids(db):
        said: list[Words] = []
        out[sid] = verify_session(db, sid, notes=said, anchored=False)
        if said and notes is not None:
            notes[sid] = said
    for sid in storage.chain.orphan_sessions(db):
        out[sid] = [Words(N_("the session's events are stored but the session is not"))]
    if faults := anchor_faults(db):
        out[DATABASE] = faults
    from ..club import verify as verify_club

    club_faults = verify_club(db)
    if club_faults or storage.club.events(db):
        out[storage.club.CLUB] = club_faults
    return out
