"""A disputed hand judged step by step (the papers draw it: ``reports/audit.py``).

The steps come from replaying the hand action by action through the rules
engine, never from stored snapshots, so the audit shows what the rules say
the hand was, not what a tablet once displayed.

Input events (from the storage layer; a plain log gives only accepted ones)::

    {"seq": 17, "action": "Ben: hit S2 9c", "status": "refused",
     "code": "illegal_hit", "message": "...", "replaces": None}

``status`` is ``accepted`` (the action is in force unless a later event
replaces it), ``refused`` (the referee would not take it; nothing changed) or
``corrected`` (this event takes out the event numbered ``replaces``, and puts
its own ``action`` in its place, or nothing for a plain undo). History is
never rewritten: the audit lists the replaced event and its correction both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from ..ledger.results import HandResult
from ..record.kinds import EventKind
from ..rules.actions import parse_action
from ..rules.errors import MalformedInput, NoSuchHand, RefereeError
from ..rules.hand import VOID, Hand
from ..rules.words import N_, Np_
from .sequential import Session, open_session, settle_logged, start_hand

NO_SUCH_HAND = Np_("the session has {hands} hand; there is no hand {number}",
                   "the session has {hands} hands; there is no hand {number}", "hands")

_ACTION, _REFUSAL = str(EventKind.ACTION), str(EventKind.REFUSAL)

STATUSES = ("accepted", "refused", "corrected")


@dataclass
class Step:
    """One event of the hand and the public state once it was dealt with."""

    index: int  # 1-based position in the audit
    seq: int | None  # the event's number in the stored session, if any
    action: str | None
    status: str  # accepted | refused | corrected | fault | setup
    state: dict  # Hand.snapshot() after the step
    code: str | None = None
    message: str | None = None
    replaces: int | None = None
    replaced_by: int | None = None  # seq of the event that later took this one out
    note: str | None = None
    disputes: list[dict] = field(default_factory=list)  # the log's disputes of this action
    # A refusal judged again in its state with the code it was stored with:
    # its parameters, for a reader to say it in its own language (the stored
    # message is the English sentence alone).
    error: RefereeError | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict:
        return {
            "index": self.index, "seq": self.seq, "action": self.action, "status": self.status,
            "code": self.code, "message": self.message, "replaces": self.replaces,
            "replaced_by": self.replaced_by, "note": self.note, "state": self.state,
        }


@dataclass
class HandAudit:
    session: Session
    number: int
    setup: dict
    hand: Hand
    steps: list[Step]
    result: HandResult | None
    fault: RefereeError | None = None
    actions_in_force: list[str] = field(default_factory=list)
    steps_in_force: list[Step] = field(default_factory=list)  # one per action in force

    @property
    def quantum(self) -> Decimal:
        return self.session.quantum


def events_from_log(setup: dict) -> list[dict]:
    return [{"seq": None, "action": a, "status": "accepted"} for a in setup.get("actions", ())]


def events_from_storage(rows: list[dict]) -> list[dict]:
    """The audit's events from ``storage.events.of_hand`` rows: an ``action``
    event is accepted, a ``correction`` takes out the event it cancels."""
    seq_of = {r["id"]: r["seq"] for r in rows}
    out = []
    for r in rows:
        payload = r.get("payload") or {}
        if r["kind"] == _ACTION:
            out.append({"seq": r["seq"], "action": payload.get("action"), "status": "accepted"})
        elif r["kind"] == _REFUSAL:
            out.append({"seq": r["seq"], "action": payload.get("action"), "status": "refused",
                        "code": payload.get("code"), "message": payload.get("message")})
        elif "ending" in payload:
            continue  # a told hand told again: no play of it to step through
        else:
            # The service's corrections are undos: the payload names the
            # cancelled action, and nothing takes its place.
            cancelled = payload.get("action")
            out.append({
                "seq": r["seq"], "action": payload.get("replacement"), "status": "corrected",
                "replaces": seq_of.get(payload.get("cancels"), payload.get("cancels")),
                "code": payload.get("code"),
                "message": payload.get("reason") or (f"undo of {cancelled}" if cancelled
                                                     else "undo"),
            })
    return out


def audit_hand(log: dict, number: int, events: list[dict] | None = None) -> HandAudit:
    """Replay the session up to hand ``number`` and step through that hand.

    Earlier hands must be legal (they set the seats and the deal's
    rotation); a fault in the audited hand itself is part of the audit.
    """
    hands = log.get("hands", [])
    if not 1 <= number <= len(hands):
        raise NoSuchHand("no_such_hand",
                         NO_SUCH_HAND.pick(len(hands)),
                         {"hands": len(hands), "number": number})
    session = open_session(log)
    for setup in hands[:number - 1]:
        hand = start_hand(session, setup)
        hand.apply_all(setup.get("actions", ()))
        if "void" in setup:  # the same dealer deals the next hand
            hand.phase = VOID
    setup = hands[number - 1]
    hand = start_hand(session, setup)
    if events is None:
        events = events_from_log(setup)
    for ev in events:
        if ev.get("status") not in STATUSES:
            raise MalformedInput("bad_event", N_("event {seq}: status must be one of "
                                                 "{statuses}, not {status}"),
                                              {"seq": ev.get('seq'),
                                               "statuses": ', '.join(STATUSES),
                                               "status": repr(ev.get('status'))})
    audit = HandAudit(session, number, setup, hand, [], None)
    _step_through(audit, session, setup, events)
    final = audit.hand
    final.finish_declarations()
    if audit.fault is None:
        if "void" in setup:
            final.phase = VOID
        audit.result = settle_logged(final, setup, session.stake)
    _place_disputes(audit)
    return audit


def _place_disputes(audit: HandAudit) -> None:
    """Each dispute of an action beside that action's step (the log numbers
    the actions in force from 1)."""
    for d in audit.setup.get("disputes", ()):
        k = d.get("action")
        if k is not None and 1 <= k <= len(audit.steps_in_force):
            audit.steps_in_force[k - 1].disputes.append(d)


def _step_through(audit: HandAudit, session: Session, setup: dict, events: list[dict]) -> None:
    steps = audit.steps
    initial = session.table.hands[-1]
    steps.append(Step(0, None, None, "setup", initial.snapshot()))
    # (seq, action) of the events in force, in order: a correction rebuilds
    # the hand from the deal with these, so the state is what the table had.
    in_force: list[tuple[int | None, str]] = []
    by_seq: dict[int, Step] = {}
    forced: list[Step] = []  # the steps of the actions in force, in their order
    hand = initial
    for i, ev in enumerate(events, 1):
        seq, text, status = ev.get("seq"), ev.get("action"), ev["status"]
        if audit.fault is not None:
            # The audit stops at the hand's first fault, as a replay does: the
            # next event is shown not replayed, and nothing after it (a hand
            # of 200,000 events after its fault ran past 60 s, all drawn).
            steps.append(Step(i, seq, text, status, steps[-1].state,
                              note="not replayed: an earlier action breaks the rules"))
            break
        if status == "refused":
            step = Step(i, seq, text, "refused", hand.snapshot(), ev.get("code"),
                        ev.get("message"))
            _recheck_refusal(hand, step)
            steps.append(step)
        elif status == "accepted":
            try:
                hand.apply(parse_action(text))
            except RefereeError as err:
                err.at(hand=audit.number, action=len(in_force) + 1, action_text=text)
                audit.fault = err
                steps.append(Step(i, seq, text, "fault", hand.snapshot(), err.code,
                                  err.message, note="recorded as accepted, but the rules "
                                  "refuse it"))
                continue
            in_force.append((seq, text))
            step = Step(i, seq, text, "accepted", hand.snapshot())
            steps.append(step)
            forced.append(step)
        else:  # corrected
            target = ev.get("replaces")
            before = len(in_force)
            forced = [f for (s, _a), f in zip(in_force, forced, strict=True)
                      if s != target or s is None]
            in_force = [(s, a) for s, a in in_force if s != target or s is None]
            if len(in_force) == before:
                steps.append(Step(i, seq, text, "fault", hand.snapshot(), "bad_correction",
                                  f"event {seq} corrects event {target}, which is not an "
                                  "action in force in this hand"))
                continue
            if target in by_seq:
                by_seq[target].replaced_by = seq
            # The replacement takes the place of the action it corrects: a
            # correction is only ever of the latest action in practice, but
            # appending keeps the order of events either way.
            if text:
                in_force.append((seq, text))
            hand = start_hand_copy(session, setup, audit.number)
            try:
                for k, (_s, a) in enumerate(in_force, 1):  # noqa: B007 (k names the fault)
                    hand.apply(parse_action(a))
            except RefereeError as err:
                err.at(hand=audit.number, action=k, action_text=a)
                audit.fault = err
                steps.append(Step(i, seq, text, "fault", hand.snapshot(), err.code,
                                  err.message, target,
                                  note="after this correction the hand no longer replays"))
                continue
            steps.append(Step(i, seq, text, "corrected", hand.snapshot(), ev.get("code"),
                              ev.get("message"), target))
            if text:
                forced.append(steps[-1])
        if seq is not None:
            by_seq[seq] = steps[-1]
    audit.hand = hand
    audit.actions_in_force = [a for _s, a in in_force]
    audit.steps_in_force = forced


def start_hand_copy(session: Session, setup: dict, number: int) -> Hand:
    """A new ``Hand`` dealt exactly like hand ``number`` (same seats, deal,
    upcard), outside the session's table."""
    from ..rules.cards import parse_card

    seats = session.table.hands[number - 1].players
    deal = {p: [parse_card(c) for c in cards] for p, cards in setup.get("deal", {}).items()}
    upcard = parse_card(setup["upcard"]) if "upcard" in setup else None
    return Hand(session.rules, seats, setup["dealer"], deal=deal, upcard=upcard, number=number)


def _recheck_refusal(hand: Hand, step: Step) -> None:
    """Ask the engine again why a refused action is refused: the audit shows
    the rule that decides it today, and flags a refusal the rules would not
    make."""
    try:
        hand.verify(parse_action(step.action or ""))
    except RefereeError as err:
        if step.code is None:
            step.code, step.message = err.code, err.sentence
        if step.code == err.code:
            step.error = err
        else:
            step.note = f"the rules now refuse it as {err.code}: {err.sentence}"
        return
    step.note = "the rules would accept this action in this state"
