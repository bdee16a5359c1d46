"""The hash chain of a stored session, as data: how an event is hashed, and
an exported log's chain checked offline (``referee verify LOG``).

A ``tonk-log/1`` document does not hold what the chain hashes (each event's
id, time and client key, the refused tries, the undone actions), so the head
cannot be recomputed from the play alone. ``referee export ID --chain`` adds
two optional top-level fields: ``head`` (the receipt) and ``chain`` (the
session's events as stored). ``log_chain`` recomputes the chain from
``chain.start`` to ``head``; ``same_play`` checks that the log's header and
hands are exactly what those events leave (``service.trust.verify_log``
puts the two together). Readers of the log ignore both fields.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..rules.errors import MalformedInput
from ..rules.events import on_undone
from ..rules.words import N_, Np_, Words
from .kinds import PLAY, UNSEEN_BY_THE_SETTLEMENT, EventKind
from .reading import setup_of

LOG_HANDS = Np_("the log has {log} hand, its chain {chain}",
                "the log has {log} hands, its chain {chain}", "log")

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

# The kinds as plain text, compared once per event of a long chain.
_SESSION, _HAND_START, _ACTION, _CORRECTION, _RENAME, _SETTLE, _REFUSAL = map(str, (
    EventKind.SESSION, EventKind.HAND_START, EventKind.ACTION, EventKind.CORRECTION,
    EventKind.RENAME, EventKind.SETTLE, EventKind.REFUSAL))
# What a correction may cancel: an action, or a told hand's start (told again).
_CANCELLABLE = (_ACTION, _HAND_START)

GENESIS = "0" * 64
#: How many of a head's 64 hex digits a paper prints in its footer and above
#: the signatures ("dcf83f711d4d8b6b…"): ``referee verify --head`` takes them.
PRINTED_HEAD = 16
CHAIN = 2  # the format new events are hashed with
EXPORT_FIELDS = ("head", "chain")  # an export's receipt, ignored by every reader of the play


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_STRING = json.encoder.encode_basestring  # a str as canonical() writes it


def canonical(data: object) -> str:
    return _CANONICAL.encode(data)


def canonical_action(action: str, text: str) -> str:
    """``canonical({"action": action, "text": text})``, written directly: most
    of a long import's events are actions."""
    return f'{{"action":{_STRING(action)},"text":{_STRING(text)}}}'


def event_hash(prev_hash: str, row: dict[str, Any]) -> str:
    """An event's hash over the previous one and every column that matters.
    Generic over kinds: a new kind of event is covered with no change here."""
    fields: tuple[str, ...] = ("session_id", "hand", "seq", "kind", "payload", "client_id",
                               "created")
    if row.get("chain", 1) >= 2:
        fields = ("chain", "id", *fields)
    body = canonical({k: row[k] for k in fields})
    return hashlib.sha256((prev_hash + "\n" + body).encode()).hexdigest()


def event_hash_v2(prev_hash: str, id: int, session_id: str, hand: int | None, seq: int,
                  kind: str, payload: str, client_id: str | None, created: str) -> str:
    """``event_hash`` of a format 2 row, its canonical body written directly
    (keys in sorted order, as ``canonical`` sorts them): verify hashes every
    event of every session, and building a dict and sorting it for each was
    most of that."""
    body = (f'{{"chain":2,"client_id":{"null" if client_id is None else _STRING(client_id)},'
            f'"created":{_STRING(created)},"hand":{"null" if hand is None else int(hand)},'
            f'"id":{int(id)},"kind":{_STRING(kind)},"payload":{_STRING(payload)},'
            f'"seq":{int(seq)},"session_id":{_STRING(session_id)}}}')
    return hashlib.sha256((prev_hash + "\n" + body).encode()).hexdigest()


def event_hashes_v2(prev_hash: str, session_id: str, created: str,
                    events: list[tuple[int, int | None, int, str, str]]) -> list[str]:
    """The hashes of a run of a session's format 2 events ``(id, hand, seq,
    kind, payload)`` written at one time without client keys (an import),
    each chained on the one before: ``event_hash_v2`` of each, what they
    share written once and each distinct payload (most are the same few
    thousand actions) escaped once."""
    head = f'{{"chain":2,"client_id":null,"created":{_STRING(created)},"hand":'
    tail = f',"session_id":{_STRING(session_id)}}}'
    texts: dict[str, str] = {}
    out = []
    sha256 = hashlib.sha256
    for id, hand, seq, kind, payload in events:
        escaped = texts.get(payload)
        if escaped is None:
            escaped = texts[payload] = _STRING(payload)
        body = (f'{head}{"null" if hand is None else int(hand)},"id":{int(id)},'
                f'"kind":{_STRING(kind)},"payload":{escaped},"seq":{int(seq)}{tail}')
        prev_hash = sha256((prev_hash + "\n" + body).encode()).hexdigest()
        out.append(prev_hash)
    return out


#: The key under which an event written with a client id holds the digest of
#: the answer stored for that id (what a retry with it gets back): the chain
#: vouches for the answer's every byte (docs/decisions.md).
REPLY = "reply"
#: And the digest of what its request asked, as stored beside the answer
#: (``replies.request``: a retry of the id with another body is refused by
#: it): an edit of it went unseen (issue 34).
ASKED = "asked"
_ANSWERED = (REPLY, ASKED)


def reply_digest(answer_json: str) -> str:
    return hashlib.sha256(answer_json.encode()).hexdigest()


def asked_digest(request: str | None) -> str:
    """The digest an event holds of its request as stored (None: none was
    noted, which is held too, so that one noted later shows)."""
    return hashlib.sha256((request or "").encode()).hexdigest()


def with_reply(payload: dict[str, Any], client_id: str | None, answer_json: str,
               request: str | None = None) -> dict[str, Any]:
    """``payload`` as it is chained when ``answer_json`` is stored as the
    answer to ``client_id``, and ``request`` beside it (as it is without a
    client id: nothing stored)."""
    if not client_id:
        return payload
    return {**payload, REPLY: reply_digest(answer_json), ASKED: asked_digest(request)}


def without_reply(payload: dict[str, Any]) -> dict[str, Any]:
    """An event's payload as what it says (a ``hand_start``'s: the hand's
    setup; a table event's: the event): the digests of its answer and its
    request are the chain's."""
    if REPLY in payload or ASKED in payload:
        return {k: v for k, v in payload.items() if k not in _ANSWERED}
    return payload


class LogChainError(Exception):
    """The log's events do not hash to its head, or its play is not theirs:
    ``words``, where they part (``str()``: in English)."""

    def __init__(self, template: str, /, **params: object) -> None:
        self.words = Words(template, **params)
        super().__init__(str(self.words))


_EVENT_KEYS = {"id", "chain", "hand", "seq", "kind", "payload", "client_id", "created"}


def export_fields(session_id: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """``head`` and ``chain`` for an export, from the session's stored events."""
    return {"head": rows[-1]["hash"], "chain": {
        "session": session_id, "start": rows[0]["prev_hash"],
        "events": [{k: row[k] for k in sorted(_EVENT_KEYS)} for row in rows]}}


def _shape(doc: dict[str, Any]) -> tuple[str, str, str, list[dict[str, Any]]]:
    head, chain = doc.get("head"), doc.get("chain")
    if head is None and chain is None:
        raise MalformedInput("no_head", N_("this log carries no head to verify: export it "
                                           "with 'referee export ID --chain'"))
    if not isinstance(head, str) or not isinstance(chain, dict) \
            or not isinstance(chain.get("session"), str) \
            or not isinstance(chain.get("start"), str) \
            or not isinstance(chain.get("events"), list) or not chain["events"] \
            or not all(isinstance(ev, dict) and set(ev) == _EVENT_KEYS
                       for ev in chain["events"]):
        raise MalformedInput("malformed_log", N_("head: and chain: are not an export's "
                                                 "receipt (a hash, and the session's events)"))
    return head, chain["session"], chain["start"], chain["events"]


def log_chain(doc: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The log's head and the events of its receipt, if they hash to it; else
    ``LogChainError`` saying where they part. Whether the log's play is what
    those events leave is the caller's to ask (``service.trust.verify_log``:
    the table's own events fold into the header and the hands as the stored
    session's verify folds them)."""
    head, session_id, prev, events = _shape(doc)
    for expected, ev in enumerate(events, 1):
        if ev["seq"] != expected:
            raise LogChainError(N_("event {event} is missing from the chain"), event=expected)
        if not isinstance(ev["payload"], str):
            raise MalformedInput("malformed_log", N_("chain.events.{expected}.payload: must "
                                                     "be the event's JSON text"),
                                                  {"expected": expected})
        prev = event_hash(prev, {**ev, "session_id": session_id})
    if prev != head:
        raise LogChainError(N_("the chain hashes to {hash}, not to the log's head {head}"),
                            hash=prev, head=head)
    if events[0]["kind"] != _SESSION:
        raise LogChainError(NO_HEADER)
    return head, events


def renamed_text(text: str, seq: int, names: Sequence[tuple[int, str, str]]) -> str:
    """An action's text as the table now names its player: the payloads stay
    as they were chained; the corrections after the action apply to it."""
    for at, old, new in names:
        if at > seq and text.startswith(old + ":"):
            text = new + text[len(old):]
    return text


def in_force(events: Iterable[Mapping[str, Any]],
             cancelled: Callable[[Mapping[str, Any]], object]) -> list[Any]:
    """The actions in force among one hand's events, in order: each action
    until a correction (an undo) cancels it by its event id; events of other
    kinds pass. The rule an export's chain (``live_actions``) and the stored
    rows (``storage.events.live_actions``) are both read by, each event a
    mapping with its ``kind`` and ``id``; ``cancelled``: the id a
    correction's payload names, read as the caller holds the payload (raw
    JSON text, or decoded)."""
    live: list[Any] = []
    for ev in events:
        kind = ev["kind"]
        if kind == _ACTION:
            live.append(ev)
        elif kind == _CORRECTION:
            gone = cancelled(ev)
            live = [a for a in live if a["id"] != gone]
    return live


def _cancelled(ev: Mapping[str, Any]) -> object:
    return json.loads(ev["payload"])["cancels"]


def chain_renames(events: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
    """A chain's name corrections in order: (seq, old, new)."""
    return [(ev["seq"], p["old"], p["new"]) for ev, p in (
        (ev, json.loads(ev["payload"])) for ev in events
        if ev["hand"] is None and ev["kind"] == _RENAME)]


def settled_head(head: str, events: Sequence[Mapping[str, Any]], start: str,
                 session_id: str, *, closed: bool) -> str:
    """The head an exported chain's settlement paper names, as the stored
    table's names it (``storage.chain.settled_head``): ``head``, the newest
    event's hash; for a closed table, the newest event's the paper reads,
    so that later events which change nothing on it
    (``UNSEEN_BY_THE_SETTLEMENT``: a seat link revoked) leave the final
    paper as it was, byte for byte. An event at or before that head
    changed, or one the paper reads added, and the head is another
    (``referee verify --head`` holds the record to it)."""
    last = len(events) - 1
    while closed and last > 0 and events[last]["kind"] in UNSEEN_BY_THE_SETTLEMENT:
        last -= 1
    if last == len(events) - 1:
        return head
    prev = start
    for ev in events[:last + 1]:
        prev = event_hash(prev, {**ev, "session_id": session_id})
    return prev


def chain_settlements(events: list[dict[str, Any]]) -> dict[int, dict[int, dict[str, Any]]]:
    """Every dispute a chain's events settle, by hand and the dispute's place:
    the settling event's payload with when (``at``) and its ``seq``, as
    ``record.events.settled_disputes`` reads them (the stored session's are
    read alike: ``service.table.disputes.all_settlements``)."""
    out: dict[int, dict[int, dict[str, Any]]] = {}
    for ev in events:
        if ev["kind"] == _SETTLE:
            said = without_reply(json.loads(ev["payload"]))
            out.setdefault(ev["hand"], {})[said["dispute"]] = {
                **said, "at": ev["created"], "seq": ev["seq"]}
    return out


def settled_disputes(disputes: list[dict[str, Any]], settled: dict[int, dict[str, Any]],
                     names: Sequence[tuple[int, str, str]] = ()) -> list[dict[str, Any]]:
    """A hand's disputes as its log writes them, each settled one with its
    ``settled``. ``settled``: the settling events' payloads by the dispute's
    place (how, by whom, a correction's actions undone, newest first), each
    with its ``at`` and ``seq``; ``names``: the session's name corrections
    (seq, old, new), applied to what was chained before them. The service
    keeps a corrected dispute's note behind a line naming the undone action
    (``on_undone``): the log says that in ``settled.action`` and
    ``settled.undone`` and keeps the note as the player wrote it."""
    out = []
    for k, d in enumerate(disputes):
        done = settled.get(k)
        if done is None or "settled" in d:
            out.append(d)
            continue
        seq, by = done["seq"], done["by"]
        for at, old, new in names:
            if at > seq and by == old:
                by = new
        entry = {"how": done["how"], "by": by,
                 **({"at": done["at"]} if done.get("at") else {})}
        note, undone = d["note"], done.get("undone") or []
        number = _undone_number(d, undone)  # the note's line names the action as chained
        if number is not None:
            entry.update(action=number, undone=[renamed_text(a, seq, names) for a in undone])
            note = note[len(on_undone(number, undone[-1])):] or note
        out.append({**d, "note": note, "settled": entry})
    return out


def with_settled(setup: dict[str, Any], settled: dict[int, dict[str, Any]] | None,
                 names: Sequence[tuple[int, str, str]] = ()) -> dict[str, Any]:
    """A hand's setup as its log writes it: its disputes with how each was
    settled (``settled_disputes``); the export and ``referee verify LOG``
    both write it so."""
    if not settled or not setup.get("disputes"):
        return setup
    return {**setup, "disputes": settled_disputes(setup["disputes"], settled, names)}


def _undone_number(dispute: dict[str, Any], undone: list[str]) -> int | None:
    """The number of the action a corrected dispute named, read from the line
    the service wrote before its note (the disputed action is the last one
    undone); None if the note does not open with that line."""
    note = dispute["note"]
    if dispute["action"] is not None or not undone or not note.startswith("[on action "):
        return None
    digits = note[len("[on action "):].split(",", 1)[0]
    if not digits.isdigit() or not note.startswith(on_undone(int(digits), undone[-1])):
        return None
    return int(digits)


def hand_events(events: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """Hand ``n``'s actions, corrections and refused tries among a chain's
    events, in order, their payloads decoded and naming players as the table
    now does: what the stored session's audit reads
    (``storage.events.of_hand`` with its refusals), from an export's chain."""
    names = chain_renames(events)
    kinds = (*map(str, PLAY), _REFUSAL)
    out = []
    for ev in events:
        if ev["hand"] == n and ev["kind"] in kinds:
            out.append({"id": ev["id"], "seq": ev["seq"], "kind": ev["kind"],
                        "payload": renamed_payload(json.loads(ev["payload"]), ev["seq"],
                                                   names)})
    return out


def renamed_payload(payload: dict[str, Any], seq: int,
                    names: Sequence[tuple[int, str, str]]) -> dict[str, Any]:
    """A play event's payload (its ``action`` or ``text``) naming its player
    as the table now does (``renamed_text``); changed in place."""
    for key in ("action", "text"):
        if isinstance(payload.get(key), str):
            payload[key] = renamed_text(payload[key], seq, names)
    return payload


def live_actions(events: list[dict[str, Any]]) -> dict[int, list[str]]:
    """Each hand's actions in force (not undone) as a chain's events leave
    them, by the hand's number, each naming its player as the table now
    does (a log names them so). A hand's events count from its start (a
    told hand told again starts afresh)."""
    names = chain_renames(events)
    hands: dict[int, list[dict[str, Any]]] = {}
    for ev in events:
        if ev["kind"] == _HAND_START:
            hands[ev["hand"]] = []
        elif ev["hand"] in hands:
            hands[ev["hand"]].append(ev)
    return {n: [renamed_text(json.loads(ev["payload"])["text"], ev["seq"], names)
                for ev in in_force(evs, _cancelled)] for n, evs in hands.items()}


def same_play(doc: dict[str, Any], header: dict[str, Any], setups: dict[int, dict[str, Any]],
              actions: dict[int, list[str]]) -> None:
    """Raise ``LogChainError`` where the log's play is not ``header``, the
    hands' ``setups`` and their ``actions`` (what its chain leaves)."""
    given = {k: v for k, v in doc.items() if k not in ("hands", *EXPORT_FIELDS)}
    if canonical({k: v for k, v in header.items() if k != "hands"}) != canonical(given):
        raise LogChainError(N_("the log's header is not the one its chain holds"))
    played = doc.get("hands", [])
    if len(played) != len(setups):
        raise LogChainError(LOG_HANDS.pick(len(played)), log=len(played), chain=len(setups))
    for n, mine in enumerate(played, 1):
        if n not in setups or canonical(setup_of(mine)) != canonical(setups[n]):
            raise LogChainError(N_("hand {hand}'s setup is not the one its chain holds"), hand=n)
        if mine.get("actions", []) != actions.get(n, []):
            raise LogChainError(N_("hand {hand}'s actions are not the ones its chain holds"),
                                hand=n)


# ---------------------------------------------------------------- a stored chain checked
# Pure functions over the rows as stored (``storage.chain`` reads them):
# what ``referee verify`` holds every session's and the club's chain to.

# Where a stored chain breaks, in words (``Words``: ``referee verify`` says
# them in the reader's language).
NO_HEADER = N_("the chain does not open with the session's header")
_PREV = Words(N_("its prev_hash does not match the previous event's hash"))
_CONTENTS = Words(N_("its hash does not match its contents"))


def _fault(row: Mapping[str, Any], why: Words) -> dict[str, Any]:
    return {"id": row["id"], "seq": row["seq"], "kind": row["kind"], "hand": row["hand"],
            "reason": why}


def _first_link_fault(ev_id: int, chain: int, prev_hash: str,
                      hash_of: Callable[[int], str | None]) -> Words | None:
    """Why a session's first event does not hang where it must (None: it does)."""
    if chain < 2:
        return None if prev_hash == GENESIS else _PREV
    # Format 2 links the first event to the event stored just before it.
    before = hash_of(ev_id - 1) if ev_id > 1 else GENESIS
    if before is None:
        return Words(N_("event id {id}, stored before this session, is missing"), id=ev_id - 1)
    if prev_hash != before:
        return Words(N_("its prev_hash does not match the event stored before it"))
    return None


def _format_fault(ev_id: int, chain: int, prev_chain: int,
                  first_new: int | None) -> Words | None:
    if chain < prev_chain:
        return Words(N_("it is hashed with an older chain format than the event before it"))
    if chain < CHAIN and first_new is not None and ev_id > first_new:
        # Format 1 ended at the migration: an older event after a newer
        # one is a downgrade, which would drop the ids and rules from the hash.
        return Words(N_("it is hashed with an older chain format than events stored before "
                        "it"))
    return None


def _cancels_fault(payload: str, hand: int | None,
                   actions: dict[int, int | None]) -> Words | None:
    cancels = json.loads(payload).get("cancels")
    if cancels not in actions or actions[cancels] != hand:
        return Words(N_("it cancels an event that is not an earlier action of its hand"))
    return None


def _end_fault(events: int) -> dict[str, Any] | None:
    if events == 0:
        return {"id": None, "seq": 1, "kind": None, "hand": None,
                "reason": Words(N_("the session has no events"))}
    return None


def session_chain_fault(rows: Iterable[Any], sid: str, first_new: int | None,
                        hash_of: Callable[[int], str | None]) -> dict[str, Any] | None:
    """The first fault of a session's chain (None: intact), from its events
    as stored (``rows``: every column, in order, each read by name or
    position); a receipt's head is checked apart (``service.trust.receipt``).
    ``first_new``: the id of the database's first event of format
    ``CHAIN`` (None: none); ``hash_of(id)``: the stored hash of the event with
    that id (None: there is none), asked only where the session's ids leave a
    gap."""
    prev = GENESIS
    expected_seq = 1
    prev_chain = 1
    actions: dict[int, int | None] = {}  # id: hand, what a correction may cancel
    previous_id = None
    for row in rows:
        ev_id, chain, _, hand, seq, kind, payload, client_id, created, prev_hash, hash_ = row
        why: Words | None
        if seq != expected_seq:
            why = Words(N_("event {event} is missing (next is {next})"), event=expected_seq,
                        next=seq)
        elif expected_seq == 1:
            why = _first_link_fault(ev_id, chain, prev_hash, hash_of)
        elif prev_hash != prev:
            why = _PREV
        else:
            why = None
        if why is None and (chain != CHAIN or prev_chain != CHAIN):
            why = _format_fault(ev_id, chain, prev_chain, first_new)
        if why is None and (event_hash_v2(prev_hash, ev_id, sid, hand, seq, kind, payload,
                                          client_id, created) if chain == 2
                            else event_hash(prev_hash, dict(row))) != hash_:
            why = _CONTENTS
        if why is None and kind == _CORRECTION:
            why = _cancels_fault(payload, hand, actions)
        # Most events follow their session's previous one directly: only a
        # gap in the session's ids (another session wrote between) asks for a hash.
        if why is None and chain >= 2 and ev_id > 1 \
                and previous_id != ev_id - 1 and hash_of(ev_id - 1) is None:
            why = Words(N_("event id {id} is missing"), id=ev_id - 1)
        if why:
            return _fault(dict(row), why)
        if kind in _CANCELLABLE:
            actions[ev_id] = hand
        prev, prev_chain, previous_id = hash_, chain, ev_id
        expected_seq += 1
    return _end_fault(expected_seq - 1)


def club_chain_fault(rows: Iterable[dict[str, Any]]) -> Words | None:
    """The first fault of the club's chain (None: intact or empty), from its
    events as stored, in order."""
    prev, expected = GENESIS, 1
    for row in rows:
        if row["seq"] != expected or row["id"] != expected:
            return Words(N_("club event {event} is missing"), event=expected)
        if row["prev_hash"] != prev or event_hash(prev, row) != row["hash"]:
            return Words(N_("club event {event}: {fault}"), event=expected, fault=_CONTENTS)
        prev, expected = row["hash"], expected + 1
    return None
