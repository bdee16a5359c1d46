"""A dispute settled: the table lets the record stand, or corrects it back to
the disputed action (each action undone kept as a correction event, the hand
in play again before it), or corrects that action alone: the same undos,
then the action as it really was and every later one logged again, as
ordinary actions, up to the first the rules no longer allow; how each
dispute was settled, for the pages and the papers. Raising a dispute is one
of the table's own events (``table_events.dispute``)."""

from __future__ import annotations

from dataclasses import dataclass

from ...record.chain import with_reply
from ...rules.actions import parse_action
from ...rules.errors import MalformedInput, RefereeError, RuleViolation
from ...rules.events import SETTLE_WAYS, setup_after_undo
from ...rules.hand import Hand
from ...rules.words import N_
from .. import storage
from ..errors import NotFound, Refused
from ..kinds import EventKind
from ..money import totals
from ..money.results import StoredResult, hand_result
from ..storage import Database
from . import cache, sessions
from .cache import Live
from .hands import check_undo_events, hand_state, public_state
from .live_state import check_open, live_state, new_hand
from .table_events import as_played
from .writes import Plan, answered, asked, check_current, check_seq, write


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


def correction_preview(db: Database, sid: str, n: int, index: int,
                       instead: str | None = None, *, expected_seq: int | None = None) -> dict:
    """What correcting hand ``n`` back to dispute ``index``'s action would do,
    without doing it: the actions undone (newest first) and the money the
    hand's result moved that goes back (its nets; none if it was not
    settled yet). With ``instead`` (the action as it really was): also that
    action as the rules read it, the later actions logged again after it
    (``again``), the first one no longer allowed (``stopped``: the refusal,
    or None) with those left after it (``left``), and the hand's nets after
    it all (``net_after``: empty while it is in play). Refused as
    ``settle_dispute`` refuses (``expected_seq`` as there)."""
    with cache.lock(db, sid):
        live = live_state(db, sid)
        hand, setup, _disputes, action = _correctable(db, live, n, index)
        check_seq(n, len(hand.actions), expected_seq)
        undone = [str(a) for a in reversed(hand.actions[action - 1:])]
        result = hand_state(db, sid, n).get("result") if hand.is_complete else None
        redo = _redo(live, hand, setup, action, instead) if instead is not None else None
    out = {"hand": n, "dispute": index, "action": action, "undone": undone,
           "net": result.get("net", {}) if result else {}, "complete": hand.is_complete,
           "seq": len(hand.actions), "logged": str(hand.actions[action - 1])}
    if redo is not None:
        after = redo.result(live, setup)
        out.update(instead=str(redo.instead), again=redo.again, left=redo.left,
                   stopped=redo.stopped, net_after=after["net"] if after else {})
    return out


def before_disputed(db: Database, sid: str, n: int, index: int) -> dict:
    """Hand ``n`` as it stood before dispute ``index``'s action, for the host
    to pick what really happened with the pickers that log an action: its
    state then (with every action the rules allowed), the action as logged
    and its number, and how many actions the hand has now (``seq``: a
    correction confirmed after another was logged is refused as stale).
    Refused as ``settle_dispute`` refuses a correction."""
    with cache.lock(db, sid):
        live = live_state(db, sid)
        hand, setup, _disputes, action = _correctable(db, live, n, index)
        work = _replayed_to(live, hand, setup, action)
        state = public_state(sid, setup, work, None, legal=True)
    return {"state": state, "action": action, "logged": str(hand.actions[action - 1]),
            "seq": len(hand.actions)}


def _replayed_to(live: Live, hand: Hand, setup: dict, action: int) -> Hand:
    """The hand again with its actions before ``action`` (each judged when
    logged)."""
    work = new_hand(live.rules, hand.number, list(hand.players), setup)
    for a in hand.actions[:action - 1]:
        work.apply(a)
    return work


@dataclass
class _Redo:
    """A disputed action put right on a copy of the hand: the action as it
    really was (``instead``), the later actions the rules still allow after
    it, in order (``again``), the first they no longer allow (``stopped``,
    its refusal as stored) and every one from it on (``left``: for the host
    to log as they really were)."""

    work: Hand
    instead: object
    again: list[str]
    left: list[str]
    stopped: dict | None

    def result(self, live: Live, setup: dict) -> StoredResult | None:
        if not self.work.is_complete:
            return None
        return hand_result(self.work, live.stake, live.quantum, setup)


def _redo(live: Live, hand: Hand, setup: dict, action: int, instead: str) -> _Redo:
    """Put action ``action`` of ``hand`` right: the hand before it, ``instead``
    judged in its place (refused as any action is, or ``same_action`` when it
    is the action as logged), then each later action judged again, stopping
    at the first the rules no longer allow."""
    n = hand.number
    work = _replayed_to(live, hand, setup, action)
    try:
        new = work.verify(parse_action(instead))
    except RefereeError as err:
        raise err.at(hand=n, action=action, action_text=instead) from None
    if str(new) == str(hand.actions[action - 1]):
        raise RuleViolation("same_action", N_("that is action {number} as it was logged: "
                                              "pick what really happened"),
                            {"number": action}, hand=n, action=action)
    work.apply_verified(new)
    again: list[str] = []
    stopped = None
    for number, logged in enumerate(hand.actions[action:], action + 1):
        try:
            verified = work.verify(logged)
        except RefereeError as err:
            err.at(hand=n, action=number, action_text=str(logged))
            stopped = Refused.of(err).to_stored()
            break
        work.apply_verified(verified)
        again.append(str(verified))
    left = [str(a) for a in hand.actions[action + len(again):]]
    return _Redo(work, new, again, left, stopped)


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
    check_accepted_by(setup, index, n)
    check_undo_events({k: v for k, v in setup.items() if k != "accepted"}, n,
                      len(hand.actions))
    return hand, setup, disputes, action


def check_accepted_by(setup: dict, index: int, n: int) -> None:
    """One player's acceptance binds that player, not the table (newcomer
    P7: the winner's quick accept made the loser's dispute uncorrectable):
    dispute ``index`` of hand ``n`` is corrected over the others'
    acceptances, which the correction withdraws, but not over its own
    raiser's, who accepted the result (``undo_accepted``)."""
    by = setup["disputes"][index]["by"]
    if by in (setup.get("accepted") or ()):
        raise RuleViolation("undo_accepted", N_(
            "{name} accepted hand {n}'s result, so {name}'s dispute cannot correct it: let "
            "the record stand, and settle any difference as a payment"),
            {"name": by, "n": n}, hand=n)


def check_settler(by: str, index: int, n: int) -> None:
    """Refused when nobody is named as settling dispute ``index`` of hand ``n``
    (``no_settler``): the form preselects nobody, and says so rather than
    " is not a player"."""
    if not by:
        raise MalformedInput("no_settler", N_("say who settles dispute {number} of hand {n}: "
                                              "one of the table's players"),
                             {"number": index + 1, "n": n}, hand=n)


def check_settling(db: Database, sid: str, live: Live, n: int, setup: dict, index: int,
                   by: str) -> None:
    """Whether ``by`` (a player of the session) may settle dispute ``index``
    of hand ``n`` (its ``setup``): refused for a dispute it does not have
    (``no_dispute``) or one settled already (``dispute_settled``); nobody
    named: ``check_settler``."""
    check_settler(by, index, n)
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
                   client_id: str | None = None, *, instead: str | None = None,
                   expected_seq: int | None = None) -> dict:
    """Settle dispute ``index`` (0-based, in the hand's list) of hand ``n``:
    ``stands`` (the record is right), or ``corrected``: every action from
    the newest back to the disputed one is undone (the spec's correction; on
    a settled hand only this way), each kept as a correction event, and the
    hand is in play again before the disputed action. With ``instead`` (the
    action as it really was), it is then logged in the disputed one's place
    and every later action after it, as ordinary actions, up to the first
    the rules no longer allow (the answer's ``stopped``; it and those after
    it, ``left``, are the host's to log). ``by`` is who settled it (a player
    of the session); ``expected_seq``: how many actions the hand had when
    the correction was shown (``stale_seq`` if another was logged since).
    Refused for a dispute already settled (``dispute_settled``), a
    correction of an earlier hand (``hand_over``), of a dispute of the whole
    hand (``dispute_no_action``) or of an accepted or void hand
    (``undo_accepted``, ``hand_void``), and an ``instead`` the rules refuse
    there or that is the action as logged (``same_action``)."""
    check_settler(by, index, n)
    if how not in SETTLE_WAYS or (instead is not None and how != "corrected"):
        raise MalformedInput("malformed", N_("{field}: {problem}"),
                             {"field": "how", "problem": "corrected | stands"}, hand=n)
    seen = answered(db, sid, client_id, str(EventKind.SETTLE))
    if seen:
        return seen

    def plan(live: Live) -> Plan:
        check_open(live)
        _hand, setup, _count = as_played(db, live, n)
        check_settling(db, sid, live, n, setup, index, by)
        payload: dict = {"dispute": index, "how": how, "by": by}
        fix = _Correction(live, n, setup)
        if how == "corrected":
            fix.plan(db, index, payload, instead, expected_seq)
        answer_json = storage.to_json({"event": str(EventKind.SETTLE), "hand": n, **payload})
        event: dict = {}

        def job(w: Database) -> None:
            after = fix.undo(w, live.version if live.n else None)
            event.update(storage.events.append(
                w, sid, n, str(EventKind.SETTLE),
                with_reply(payload, client_id, answer_json, asked()), client_id, after=after))
            last = fix.newest = fix.relog(w, event["id"])
            storage.hands.set_setup(w, sid, n, fix.setup, last)
            if live.n and live.n != n:
                storage.hands.touch(w, sid, live.n, last)
            if client_id:
                storage.replies.store(w, sid, client_id, False, answer_json)

        return Plan({"event": str(EventKind.SETTLE), "hand": n, **payload}, None, job,
                    fix.after_commit)

    return write(db, sid, client_id, plan, check=True, kind=str(EventKind.SETTLE))


class _Correction:
    """A dispute's correction, as written: the actions undone back to the
    disputed one (correction events, newest first, just before the settling
    event: the audit reads them so), then, with an action put in its place,
    it and the later actions still allowed (action events after the settling
    event); the hand's rows and the cache after them. Nothing to do for a
    dispute let stand."""

    def __init__(self, live: Live, n: int, setup: dict) -> None:
        self.live, self.n, self.setup = live, n, setup
        self.undone: list[tuple[int, str]] = []
        self.work: Hand | None = None
        self.logged: list[str] = []
        self.ids: list[int] = []
        self.action = 0
        self.newest = live.version  # the table's newest event once written

    def plan(self, db: Database, index: int, payload: dict, instead: str | None,
             expected_seq: int | None) -> None:
        live, n = self.live, self.n
        hand, setup, _disputes, self.action = _correctable(db, live, n, index)
        check_seq(n, len(hand.actions), expected_seq)
        for number in range(len(hand.actions), self.action - 1, -1):
            text = str(hand.actions[number - 1])
            self.undone.append((live.action_ids[number - 1], text))
            self.setup = setup_after_undo(self.setup, number, text)
        payload["undone"] = [text for _id, text in self.undone]
        if instead is None:
            self.work = _replayed_to(live, hand, setup, self.action)
            return
        redo = _redo(live, hand, setup, self.action, instead)
        self.work, self.logged = redo.work, [str(redo.instead), *redo.again]
        payload.update(action=self.action, instead=str(redo.instead), again=redo.again,
                       left=redo.left)
        if redo.stopped is not None:
            payload["stopped"] = redo.stopped

    def undo(self, w: Database, after: int | None) -> int | None:
        for cancels, text in self.undone:
            after = storage.events.append(w, self.live.sid, self.n, str(EventKind.CORRECTION),
                                          {"cancels": cancels, "action": text}, None,
                                          after=after)["id"]
        return after

    def relog(self, w: Database, after: int) -> int:
        """The actions logged again after the settling event ``after``; the
        hand's row and totals moved on to them. Returns the newest event."""
        if self.work is None:
            return after
        sid, n = self.live.sid, self.n
        for text in self.logged:
            after = storage.events.append(w, sid, n, str(EventKind.ACTION),
                                          {"action": text, "text": text}, None,
                                          after=after)["id"]
            self.ids.append(after)
        result = hand_result(self.work, self.live.stake, self.live.quantum, self.setup) \
            if self.work.is_complete else None
        storage.hands.update(w, sid, n, len(self.work.actions), after,
                             storage.to_json(result) if result is not None else None)
        totals.refresh(w, sid, n)
        return after

    def after_commit(self) -> None:
        live = self.live
        if self.work is not None:
            live.table.hands[-1] = self.work
            live.hand = self.work
            del live.action_ids[self.action - 1:]
            live.action_ids.extend(self.ids)
        if self.work is not None or self.n == live.n:
            live.setup = self.setup
        live.version, live.state = self.newest, None
