"""A session's live state: its rules, table and current hand, kept in
``referee.service.table.cache`` so that reading a hand does not cost more as a
session grows (each settled hand's result is stored with it, so totals never
need a replay). On a cache miss, or when another process has written, only
the current hand is rebuilt from its events (``Table.resume`` checks a new
hand against the last one's seats and dealer alone)."""

from __future__ import annotations

from decimal import Decimal

from ...ledger.money import parse_stake
from ...ledger.results import hand_standing
from ...replay import start_on
from ...rules.cards import parse_card
from ...rules.hand import VOID, Hand
from ...rules.options import HouseRules, resolve
from ...rules.table import Table
from ...rules.told import read_ending, tell
from ...rules.words import N_, TABLE_WITH, Moment, Names, Words
from .. import storage
from ..errors import Closed, NotFound
from ..money.results import session_quantum
from ..storage import Database
from . import cache
from .cache import Live


def session_row(db: Database, sid: str) -> dict:
    row = storage.sessions.row(db, sid)
    if row is None:
        raise NotFound("no_session", N_("there is no session {session}"), {"session": repr(sid)})
    return row


def table_named(row: dict) -> str | Words:
    """A stored table as a refusal names it: its name, else who sat at it."""
    return row["table_name"] or Words(TABLE_WITH, players=Names(row["everyone"]))


def check_open(live: Live) -> None:
    """Refuse anything sent to a closed table."""
    if live.closed:
        raise Closed("table_closed", N_("the table was closed at {closed}: it takes nothing "
                                        "more, and its settlement is final"),
                                     {"closed": Moment(live.closed)})


def new_hand(rules: HouseRules, n: int, seats: list[str], setup: dict) -> Hand:
    """A stored hand rebuilt without its table (its seating was checked when it
    started); a hand told by its ending, ended as it tells."""
    deal = {p: [parse_card(c) for c in cards] for p, cards in setup.get("deal", {}).items()}
    upcard = parse_card(setup["upcard"]) if "upcard" in setup else None
    hand = Hand(rules, seats, setup["dealer"], deal=deal, upcard=upcard, number=n)
    if "ending" in setup:
        tell(hand, read_ending(setup["ending"]))
    return hand


def _build(db: Database, sid: str) -> Live:
    row = session_row(db, sid)
    # The rules as stored, fully expanded: a later change of a preset never
    # changes an old session.
    rules = resolve(row["rules_expanded"])
    stake = parse_stake(row["stake"])
    players = row["players"]
    everyone = row["everyone"]
    rows = storage.hands.newest(db, sid, 2)
    live = Live(sid, rules, stake, session_quantum(row, rules), players, everyone,
                Table(rules, players, settle=hand_standing), closed=row["header"].get("closed"),
                next_stake=row["next_stake"], next_seats=row["next_seats"])
    if not rows:
        return live
    newest = rows[0]
    live.table = _table_before(db, sid, rows, rules, players, everyone)
    n, setup = newest["n"], newest["setup"]
    hand = start_on(live.table, setup)
    actions = storage.events.live_actions(storage.events.of_hand(db, sid, n))
    for ev in actions:
        hand.apply(ev["payload"]["action"])
    if "void" in setup:
        hand.phase = VOID
    live.n, live.version, live.hand, live.setup = n, newest["last_event"], hand, setup
    live.action_ids = [ev["id"] for ev in actions]
    return live


def _table_before(db: Database, sid: str, rows: list[dict], rules: HouseRules,
                  players: list[str], everyone: list[str]) -> Table:
    """The table as it stood before its newest hand (``rows``: the newest
    two hands' rows, newest first) started: what that hand is checked on."""
    if len(rows) < 2:
        return Table(rules, players, settle=hand_standing)
    last = rows[1]
    winners, scores = _standing_before(db, sid, rows[0]["n"], rules)
    return Table.resume(rules, players, started=last["n"], last_seats=last["seats"],
                        last_dealer=last["dealer"], everyone=everyone,
                        last_void="void" in last["setup"], last_winners=winners,
                        scores=scores, settle=hand_standing)


def table_before_newest(db: Database, sid: str, live: Live) -> Table:
    """The table before ``live``'s newest hand started, rebuilt from the
    stored rows (a told hand corrected is told again on it)."""
    return _table_before(db, sid, storage.hands.newest(db, sid, 2), live.rules,
                         live.players, live.everyone)


def _standing_before(db: Database, sid: str, n: int, rules: HouseRules
                     ) -> tuple[list[str] | None, dict[str, Decimal] | None]:
    """Under rules that follow results (the winner leads, a match to a
    score): the winners of the settled hand before hand ``n`` and the totals
    after it, from its running row; (None, None) under other rules."""
    if not rules.follows_results:
        return None, None
    running = storage.running.before(db, sid, n)
    if running is None:
        return None, {}
    return (running["line"]["winners"],
            {p: Decimal(v) for p, v in running["totals"].items()})


def current(db: Database, sid: str, *, check: bool = True) -> Live:
    """The session's cached state, rebuilt if another process has moved it on.
    Without ``check`` the cache is trusted (a write checks it in its
    transaction instead). Call with the session's lock held."""
    live = cache.get(db, sid)
    # Before the first hand the version is (0, 0) whatever the table's events
    # changed (a stake, a seat, a close) in another process: such a state is
    # rebuilt, which costs one row.
    if live is not None and (not check or live.n and
                             (live.n, live.version) == storage.hands.current_version(db, sid)):
        return live
    live = _build(db, sid)
    cache.put(db, live)
    return live


def live_state(db: Database, sid: str) -> Live:
    """The session's live state, current with the database (read only)."""
    with cache.lock(db, sid):
        return current(db, sid)
