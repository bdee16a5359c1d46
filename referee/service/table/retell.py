"""A told hand corrected: a typo in how a hand ended (a count, who went out)
put right while nothing stands on it yet.

The host may tell the table's newest hand again, by its ending only (its
dealer, seats and stake stay), while no later hand has started, nobody has
accepted its result and the table is open. It is the spec's correction (the
service's undo: a ``correction`` event cancelling the hand's start, the told
hand as it was kept in it) and the hand told again (a ``hand_start`` of the
same number), in one write: the chain keeps both, the log gives the hand as
it stands. A dispute of the hand may be settled by it: its ``settle`` event
("corrected") follows in the same write. While one is open, the telling says
which it settles or that it leaves them open (``dispute_open``): a correction
of a disputed ending that said nothing of the dispute left it open unseen.
Once someone has accepted it, only a dispute answers it, and lets the record
stand."""

from __future__ import annotations

from sqlite_utils import Database

from ...record import load_hand_setup
from ...record.chain import with_reply
from ...replay import start_on
from ...rules.errors import MalformedInput, RefereeError, RuleViolation
from ...rules.told import check_told_hand
from ...rules.words import N_
from .. import storage
from ..errors import NotFound, StaleSeq
from ..kinds import EventKind
from ..money import totals
from ..money.results import hand_result
from . import cache
from .cache import Live
from .disputes import check_accepted_by, check_settling, settlements
from .hands import public_state
from .live_state import check_open, current, table_before_newest
from .writes import (
    Plan,
    Request,
    answered,
    asked,
    asking,
    check_current,
    check_table_seq,
    write,
)

_HAND_START, _CORRECTION, _SETTLE = map(str, (EventKind.HAND_START, EventKind.CORRECTION,
                                              EventKind.SETTLE))
#: A dispute settled by the telling: its place in the hand's list, and who settled it.
Settles = tuple[int, str]


def not_told(n: int) -> RuleViolation:
    return RuleViolation("not_told", N_("hand {n} was played, not told by its ending: "
                                        "undo its actions instead"), {"n": n}, hand=n)


def _check(live: Live, n: int, settles: Settles | None = None) -> dict:
    """Hand ``n``'s setup, if it may be told again (else refused, saying why):
    once accepted, only to settle a dispute of someone who had not accepted
    it (``disputes.check_accepted_by``)."""
    check_open(live)
    check_current(live, n)  # an earlier hand: hand_over
    setup = live.setup
    if "ending" not in setup:
        raise not_told(n)
    if setup.get("accepted") and settles is not None \
            and 0 <= settles[0] < len(setup.get("disputes") or ()):
        check_accepted_by(setup, settles[0], n)
    elif setup.get("accepted"):
        raise RuleViolation("undo_accepted", N_("{names} accepted this hand's result, so its "
                                                "actions stand; note a dispute instead"),
                            {"names": ', '.join(setup['accepted'])}, hand=n)
    return setup


def _corrected(n: int, setup: dict, given: dict) -> dict:
    """The hand as told again: the new ending in the place of the old, the rest
    (dealer, seats, stake, disputes) as it was. A refusal names hand ``n``."""
    try:
        given = load_hand_setup({"dealer": setup["dealer"], **given})
        if "ending" not in given:
            raise MalformedInput("malformed", N_("{field}: {problem}"),
                                 {"field": "ending", "problem": "required"})
        check_told_hand(given)
    except RefereeError as err:
        raise err.at(hand=n) from None
    # Whoever had accepted it accepted another ending (``rules.events.setup_after_undo``).
    return {**{k: v for k, v in setup.items() if k != "accepted"}, "ending": given["ending"]}


def _settling(db: Database, sid: str, live: Live, n: int, setup: dict,
              settles: Settles | None) -> dict | None:
    """The payload of the ``settle`` event that ``settles`` asks for (None:
    none), refused as settling that dispute now would be."""
    if settles is None:
        return None
    index, by = settles
    check_settling(db, sid, live, n, setup, index, by)
    return {"dispute": index, "how": "corrected", "by": by}


def open_disputes(db: Database, sid: str, n: int, setup: dict) -> list[int]:
    """Hand ``n``'s disputes still open (their places in its list)."""
    done = settlements(db, sid, n)
    return [k for k in range(len(setup.get("disputes") or ())) if k not in done]


def check_said_of_disputes(db: Database, sid: str, n: int, setup: dict,
                           settles: Settles | None, leaves_open: bool) -> None:
    """Refused (``dispute_open``) when hand ``n`` has an open dispute and the
    telling neither settles one nor says it leaves them open."""
    still = open_disputes(db, sid, n, setup) if settles is None and not leaves_open else []
    if still:
        raise RuleViolation("dispute_open", N_(
            "dispute {number} of hand {n} is open: say whether telling the hand again "
            "settles it (and who settles it) or leaves it open"),
            {"number": still[0] + 1, "n": n}, hand=n)


def preview(db: Database, sid: str, n: int, given: dict,
            settles: Settles | None = None) -> dict:
    """What telling hand ``n`` again as ``given`` would settle, without
    storing anything (as ``hands.preview_hand`` for a new hand)."""
    with cache.lock(db, sid):
        live = current(db, sid)
        told = _check(live, n, settles)
        _settling(db, sid, live, n, told, settles)
        setup = _corrected(n, told, given)
        hand = start_on(table_before_newest(db, sid, live), setup)
        return {"hand": n, "dealer": hand.dealer, "players": list(hand.players),
                "setup": setup, "result": hand_result(hand, live.stake, live.quantum, setup)}


#: How telling a hand again is named to a client whose id it first answered:
#: by the API's door for it (the tablet's form is the same request).
KIND = "POST /api/sessions/<sid>/hands/<int:n>/tell-again"


def _request(n: int, given: dict, settles: Settles | None, leaves_open: bool) -> Request:
    """Telling hand ``n`` again as a request: the hand, the ending and the
    dispute it settles (or that it leaves them open), whichever door sent
    them (the same client_id and the same ending are the same request from
    the tablet's form or the API, and leave the same events). A request that
    leaves nothing open is named as it was before ``leaves_open``."""
    return Request.make(KIND, [n, given.get("ending"), settles, *([True] if leaves_open else [])])


def tell_again(db: Database, sid: str, n: int, given: dict,
               client_id: str | None = None, settles: Settles | None = None, *,
               expected_seq: int | None = None, leaves_open: bool = False) -> dict:
    """Tell hand ``n`` again with ``given``'s ending; returns its state.
    Refused as ``_check`` says, or as a hand told with that ending would be;
    with ``settles``, also as settling that dispute would be; without, while
    a dispute of the hand is open, unless ``leaves_open`` says it stays so.
    ``expected_seq``: the table's newest event the request was made on
    (``StaleSeq`` if another has been written since, as for a new hand)."""
    with asking(_request(n, given, settles, leaves_open)):
        return _tell_again(db, sid, n, given, client_id, settles, expected_seq, leaves_open)


def _tell_again(db: Database, sid: str, n: int, given: dict, client_id: str | None,
                settles: Settles | None, expected_seq: int | None, leaves_open: bool) -> dict:
    seen = answered(db, sid, client_id, None)
    if seen:
        return seen

    def plan(live: Live) -> Plan:
        told = _check(live, n, settles)
        settle = _settling(db, sid, live, n, told, settles)
        check_said_of_disputes(db, sid, n, told, settles, leaves_open)
        setup = _corrected(n, told, given)
        hand = start_on(table_before_newest(db, sid, live), setup)
        result = hand_result(hand, live.stake, live.quantum, setup)
        state = public_state(sid, setup, hand, result, legal=False)
        state_json = storage.to_json(state)
        version = (live.n, live.version)

        def job(w: Database) -> None:
            if storage.hands.current_version(w, sid) != version:
                raise storage.events.Moved(sid)
            if expected_seq is not None:
                try:
                    check_table_seq(storage.events.newest_seq(w, sid), expected_seq)
                except StaleSeq as err:
                    raise err.at(hand=n) from None
            start = storage.events.hand_start_id(w, sid, n)
            if start is None:
                raise NotFound("no_hand", N_("session {session} has no hand {n}"),
                               {"session": sid, "n": n}, hand=n)
            storage.events.append(w, sid, n, _CORRECTION,
                                  {"cancels": start, "ending": live.setup["ending"]})
            event = storage.events.append(w, sid, n, _HAND_START,
                                          with_reply(setup, client_id, state_json, asked()),
                                          client_id)
            if settle is not None:  # the hand's newest event, as a settle's elsewhere
                event = storage.events.append(w, sid, n, _SETTLE, settle)
            storage.hands.set_setup(w, sid, n, setup, event["id"])
            storage.hands.update(w, sid, n, 0, event["id"], storage.to_json(result))
            totals.refresh(w, sid, n)
            if client_id:
                storage.replies.store(w, sid, client_id, False, state_json)

        # Rebuilt from the rows at the next look: the table's cached hand is
        # the one told before.
        return Plan(state, None, job, lambda: cache.drop(db, sid), touched=True)

    return write(db, sid, client_id, plan, check=True)
