"""A dispute settled: the table lets the record stand, or corrects it back to
the disputed action (each action undone kept as a correction event, the hand
in play again before it); how each dispute was settled, for the pages and
the papers. Raising a dispute is one of the table's own events
(``table_events.dispute``)."""

from __future__ import annotations

from ...record.chain import with_reply
from ...rules.errors import MalformedInput, RuleViolation
from ...rules.events import SETTLE_WAYS, disputes_after_undo
from ...rules.words import N_
from .. import storage
from ..errors import NotFound
from ..kinds import EventKind
from ..money import totals
from ..storage import Database
from . import cache, sessions
from .cache import Live
from .hands import check_undo_events, hand_state
from .live_state import check_open, live_state, new_hand
from .table_events import as_played
from .writes import Plan, answered, asked, check_current, write


def settlements(db: Database, sid: str, n: int, *, seq: bool = False) -> dict[int, dict]:
    """Hand ``n``'s disputes settled so far, by their place in its list of
    disputes: how, by whom, when, and (a correction) the actions undone;
    with ``seq``, also the settling event's number (the audit: a
    correction's undos are the events just before it)."""
    out = {}
    for ev in storage.events.hand_level(db, sid, n, (str(EventKind.SETTLE),)):
        out[ev["payload"]["dispute"]] = {**ev["payload"], "at": ev["created"],
                                         **({"seq": ev["seq"]} if seq else {})}
    # An imported log's settled disputes (``settled``: it has no settling event)
    row = storage.hands.row(db, sid, n)
    for k, d in enumerate(((row or {}).get("setup") or {}).get("disputes") or ()):
        if "settled" in d:
            out.setdefault(k, d["settled"])
    return out


def all_settlements(db: Database, sid: str) -> dict[int, dict[int, dict]]:
    """Every settled dispute of the session, by hand and place (for the
    papers): the settling events', and those an imported log's hands say."""
    out = sessions.all_settlements(db, sid)
    for n, listed in storage.hands.disputed(db, sid):
        for k, d in enumerate(listed):
            if "settled" in d:
                out.setdefault(n, {}).setdefault(k, d["settled"])
    return out


def disputed(db: Database, sid: str) -> list[tuple[int, list[dict]]]:
    """Each hand of the table that carries a dispute, with its disputes (who,
    the action or None for the whole hand, the note), in order of hands:
    with ``all_settlements``, a stored table's disputes for its result's
    sections (``referee.reports.sections``)."""
    return storage.hands.disputed(db, sid)


def with_settlements(db: Database, sid: str, n: int, state: dict) -> dict:
    """A hand's state with, beside each dispute, how it was settled (None:
    open); the state as it was when the hand has no dispute."""
    if not state.get("disputes"):
        return state
    done = settlements(db, sid, n)
    return {**state, "settled_disputes": [done.get(i) for i in range(len(state["disputes"]))]}


def correction_preview(db: Database, sid: str, n: int, index: int) -> dict:
    """What correcting hand ``n`` back to dispute ``index``'s action would do,
    without doing it: the actions undone (newest first) and the money the
    hand's result moved that goes back (its nets; none if it was not
    settled yet). Refused as ``settle_dispute`` refuses."""
    with cache.lock(db, sid):
        live = live_state(db, sid)
        hand, _setup, _disputes, action = _correctable(db, live, n, index)
        undone = [str(a) for a in reversed(hand.actions[action - 1:])]
        result = hand_state(db, sid, n).get("result") if hand.is_complete else None
    return {"hand": n, "dispute": index, "action": action, "undone": undone,
            "net": result.get("net", {}) if result else {}, "complete": hand.is_complete}


def _correctable(db: Database, live: Live, n: int, index: int):
    hand, setup, _count = as_played(db, live, n)
    disputes = setup.get("disputes") or []
    if not 0 <= index < len(disputes):
        raise NotFound("no_dispute", N_("hand {n} has no dispute {number}"),
                                     {"n": n, "number": index + 1}, hand=n)
    action = disputes[index]["action"]
    if "ending" in setup:
        raise RuleViolation("dispute_told", N_(
            "hand {n} was told by its ending: it is corrected by telling its ending again, "
            "which settles this dispute"), {"n": n}, hand=n)
    if action is None:
        raise RuleViolation("dispute_no_action", N_("this dispute is about the whole hand, "
                                                    "not one action: there is nothing to "
                                                    "correct back to; let the record stand"),
                            hand=n)
    check_current(live, n)  # an earlier hand: hand_over
    check_undo_events(setup, n, len(hand.actions))
    return hand, setup, disputes, action


def check_settling(db: Database, sid: str, live: Live, n: int, setup: dict, index: int,
                   by: str) -> None:
    """Whether ``by`` (a player of the session) may settle dispute ``index``
    of hand ``n`` (its ``setup``): refused for a dispute it does not have
    (``no_dispute``) or one settled already (``dispute_settled``)."""
    if by not in live.everyone:
        raise MalformedInput("unknown_player", N_("{old} is not a player of this session"),
                                               {"old": by})
    if not 0 <= index < len(setup.get("disputes") or ()):
        raise NotFound("no_dispute", N_("hand {n} has no dispute {number}"),
                                     {"n": n, "number": index + 1}, hand=n)
    if index in settlements(db, sid, n):
        raise RuleViolation("dispute_settled", N_("this dispute of hand {n} is settled "
                                                  "already"), {"n": n}, hand=n)


def settle_dispute(db: Database, sid: str, n: int, index: int, how: str, by: str,
                   client_id: str | None = None) -> dict:
    """Settle dispute ``index`` (0-based, in the hand's list) of hand ``n``:
    ``stands`` (the record is right), or ``corrected``: every action from
    the newest back to the disputed one is undone (the spec's correction; on
    a settled hand only this way), each kept as a correction event, and the
    hand is in play again before the disputed action. ``by`` is who settled
    it (a player of the session). Refused for a dispute already settled
    (``dispute_settled``), a correction of an earlier hand (``hand_over``),
    of a dispute of the whole hand (``dispute_no_action``) or of an accepted
    or void hand (``undo_accepted``, ``hand_void``)."""
    if how not in SETTLE_WAYS:
        raise MalformedInput("malformed", N_("{field}: {problem}"),
                             {"field": "how", "problem": "corrected | stands"}, hand=n)
    seen = answered(db, sid, client_id, str(EventKind.SETTLE))
    if seen:
        return seen

    def plan(live: Live) -> Plan:
        check_open(live)
        hand, setup, count = as_played(db, live, n)
        check_settling(db, sid, live, n, setup, index, by)
        payload: dict = {"dispute": index, "how": how, "by": by}
        undone: list[tuple[int, str]] = []
        work, new_setup = None, setup
        if how == "corrected":
            hand, setup, disputes, action = _correctable(db, live, n, index)
            work = new_hand(live.rules, n, list(hand.players), setup)
            for a in hand.actions[:action - 1]:
                work.apply(a)
            for number in range(len(hand.actions), action - 1, -1):
                text = str(hand.actions[number - 1])
                undone.append((live.action_ids[number - 1], text))
                if new_setup.get("disputes"):
                    new_setup = {**new_setup, "disputes": disputes_after_undo(
                        new_setup["disputes"], number, text)}
            payload["undone"] = [text for _id, text in undone]
        answer = {"event": str(EventKind.SETTLE), "hand": n, **payload}
        answer_json = storage.to_json(answer)
        event: dict = {}

        def job(w: Database) -> None:
            after = live.version if live.n else None
            for cancels, text in undone:
                ev = storage.events.append(w, sid, n, str(EventKind.CORRECTION),
                                           {"cancels": cancels, "action": text}, None,
                                           after=after)
                after = ev["id"]
            event.update(storage.events.append(
                w, sid, n, str(EventKind.SETTLE),
                with_reply(payload, client_id, answer_json, asked()), client_id, after=after))
            if work is not None:
                storage.hands.update(w, sid, n, len(work.actions), event["id"], None)
                totals.refresh(w, sid, n)
            storage.hands.set_setup(w, sid, n, new_setup, event["id"])
            if live.n and live.n != n:
                storage.hands.touch(w, sid, live.n, event["id"])
            if client_id:
                storage.replies.store(w, sid, client_id, False, answer_json)

        def after_commit() -> None:
            if work is not None:
                live.table.hands[-1] = work
                live.hand, live.setup = work, new_setup
                del live.action_ids[len(work.actions):]
            elif n == live.n:
                live.setup = new_setup
            live.version, live.state = event["id"], None

        return Plan(answer, None, job, after_commit)

    return write(db, sid, client_id, plan, check=True, kind=str(EventKind.SETTLE))
