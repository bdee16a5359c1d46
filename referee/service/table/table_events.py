"""The table's own events at a live table: void the hand in play, change the
stake, let a player leave, accept a result, dispute an action, record a
payment, close the table, correct a player's name.

Each is one event of its kind (``kinds.EventKind``) appended to the
session's hash chain by ``storage.events.append``, like an action, and
written into the session's derived rows (the header, the hand's setup) so
that the export is the ``tonk-log/1`` document ``referee replay`` reads the
same way. The checks are the engine's (``referee.rules.events``,
``referee.record.events``): the service and the replay refuse alike, with
the same codes and words. A refusal changes nothing and is not logged (an
event is not a move of the game: there is nothing for an audit to weigh).

Every function takes plain arguments and returns the event as recorded
(``{"event": kind, "hand": n or None, ...}``); a known ``client_id`` gets
that first answer again.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from ...ledger.money import amounts_currency, parse_stake
from ...record.chain import with_reply
from ...record.events import (
    Unreadable,
    check_hand_stake,
    check_payments,
    check_session_money,
    check_void,
)
from ...record.events import check_disputes as check_dispute_shape
from ...replay import check_log_end
from ...rules.errors import MalformedInput, RuleViolation
from ...rules.events import check_accepted, check_disputes, void_hand
from ...rules.hand import VOID, Hand
from ...rules.table import check_new_name, check_stake_change, mistaken
from ...rules.words import LEFT_THE_TABLE, N_
from .. import storage
from ..errors import NotFound, NotYourSeat
from ..kinds import EventKind
from ..money import totals
from ..money.payable import check_stake_coin, finer_than_coin
from ..money.results import quantum, void_hand_result
from ..storage import Database
from . import cache
from .cache import Live
from .hands import hand_row
from .live_state import check_open, new_hand, session_row
from .sessions import standings
from .writes import Plan, answered, asked, check_current, write

ZERO = Decimal(0)


def _malformed(err: Unreadable, field: str, hand: int | None = None) -> MalformedInput:
    return MalformedInput("malformed", N_("{field}: {problem}"),
                                       {"field": field, "problem": err.text}, hand=hand)


def write_event(db: Database, sid: str, kind: EventKind, client_id: str | None, check, *,
                closed_too: bool = False) -> dict:
    """The one writer of every event of the table's own that is not a hand's
    action: these here, and those of ``carrying``, ``pay_details`` and
    ``seat_links``, which have a module each but must be chained, answered
    once per client id and cached exactly as these are (a second writer
    would be a second place for the chain's rules to drift).

    One event under the session's lock: ``check(live)`` refuses (raises) or
    returns ``(hand, payload, rows, after)``: the event's hand (None: the
    session's), its payload, ``rows(w, event_id)`` writing the derived rows
    inside the transaction, and ``after(event_id)`` moving the cache on once
    committed. The event is chained after the session's newest event as the
    cache knows it, and the newest hand's version moves on with it, so that
    every process sees the session changed. ``closed_too``: a closed table
    takes it too (a link revoked after the night; settling up: a
    payment, a payee's details)."""
    seen = answered(db, sid, client_id, str(kind))
    if seen:
        return seen

    def plan(live: Live) -> Plan:
        if not closed_too:
            check_open(live)
        hand_n, payload, rows, after = check(live)
        answer = {"event": str(kind), "hand": hand_n, **payload}
        answer_json = storage.to_json(answer)
        event: dict = {}

        def job(w: Database) -> None:
            # The answer's and the request's digests chained with the event
            # (the pages read its payload without them: ``storage.events``).
            chained = with_reply(payload, client_id, answer_json, asked())
            if live.n:
                event.update(storage.events.append(w, sid, hand_n, str(kind), chained,
                                                   client_id, after=live.version))
                storage.hands.touch(w, sid, live.n, event["id"])
            else:
                if storage.hands.current_version(w, sid) != (0, 0):
                    raise storage.events.Moved(sid)
                event.update(storage.events.append(w, sid, hand_n, str(kind), chained,
                                                   client_id))
            rows(w, event["id"])
            if client_id:
                storage.replies.store(w, sid, client_id, False, answer_json)

        def after_commit() -> None:
            if live.n:
                live.version, live.state = event["id"], None
            if after is not None:
                after(event["id"])

        return Plan(answer, None, job, after_commit, touched=True)

    return write(db, sid, client_id, plan, check=True, kind=str(kind))


def _header(db: Database, sid: str) -> dict:
    return session_row(db, sid)["header"]


def as_played(db: Database, live: Live, n: int) -> tuple[Hand, dict, int]:
    """Hand ``n`` as played (the current one from the cache, an earlier one
    rebuilt from its events), its setup, and its number of actions."""
    if n == live.n and live.hand is not None:
        return live.hand, live.setup, len(live.hand.actions)
    if n < 1 or n > live.n:
        raise NotFound("no_hand", N_("session {session} has no hand {n}"),
                                  {"session": live.sid, "n": n}, hand=n)
    row = hand_row(db, live.sid, n)
    hand = new_hand(live.rules, n, row["seats"], row["setup"])
    actions = storage.events.live_actions(storage.events.of_hand(db, live.sid, n))
    for ev in actions:
        hand.apply(ev["payload"]["action"])
    hand.finish_declarations()  # a later hand has started
    if "void" in row["setup"]:
        hand.phase = VOID
    return hand, row["setup"], len(actions)


# ---------------------------------------------------------------- hand events

def void(db: Database, sid: str, n: int, reason: str, client_id: str | None = None) -> dict:
    """Cancel hand ``n``, the hand in play (a misdeal, a card exposed): it pays
    nothing and the same dealer deals again. Refused once its play has ended
    (``void_after_end``), for an earlier hand (``hand_over``) or a reason
    that is not 1-200 characters (``malformed``)."""

    def check(live: Live):
        try:
            check_void(reason)
        except Unreadable as err:
            raise _malformed(err, "reason", n) from None
        return _void_current(live, n, reason, "reason")

    return write_event(db, sid, EventKind.VOID, client_id, check)


def _void_current(live: Live, n: int, reason: str, key: str, extra: dict | None = None):
    hand = check_current(live, n)
    if hand.phase == VOID:
        raise RuleViolation("hand_void", N_("the hand is already void"), hand=n)
    void_hand(hand)  # raises void_after_end before changing anything; the cached
    # hand is void from here on, and dropped if the write fails (``touched``)
    result = void_hand_result(hand, reason, live.quantum)
    setup = {**live.setup, "void": reason}

    def rows(w: Database, event_id: int) -> None:
        storage.hands.set_setup(w, live.sid, n, setup, event_id, result, void=True)
        totals.refresh(w, live.sid, n)
        if extra:
            storage.sessions.set_next(w, live.sid, stake=live.next_stake, seats=extra["seats"])

    def after(_event_id: int) -> None:
        live.setup = setup
        if extra:
            live.next_seats = extra["seats"]

    payload = {key: reason} if not extra else extra["payload"]
    return n, payload, rows, after


def accept(db: Database, sid: str, n: int, player: str, client_id: str | None = None) -> dict:
    """``player`` confirms hand ``n``'s result (on their own device, or the host
    for them). Refused before the result is complete or on a void hand
    (``accept_in_play``), for someone not seated in the hand
    (``accept_not_seated``), or a second time (``accept_twice``)."""

    def check(live: Live):
        hand, setup, _ = as_played(db, live, n)
        accepted = [*setup.get("accepted", ()), player]
        check_accepted(hand, accepted)
        return _hand_event(live, n, {**setup, "accepted": accepted}, {"player": player})

    return write_event(db, sid, EventKind.ACCEPT, client_id, check)


def dispute(db: Database, sid: str, n: int, by: str, note: str, action: int | None = None,
            client_id: str | None = None) -> dict:
    """``by`` objects to action ``action`` of hand ``n`` (numbered from 1 among
    the actions in force; None: the hand as a whole), with a note of 1-500
    characters. Kept for the record; it changes no result. Refused for an
    action the hand does not have (``dispute_no_action``) or someone not
    seated in it (``dispute_not_seated``)."""

    def check(live: Live):
        entry = {"action": action, "by": by, "note": note}
        try:
            check_dispute_shape([entry])
        except Unreadable as err:
            raise _malformed(err, "dispute", n) from None
        hand, setup, actions = as_played(db, live, n)
        check_disputes(hand, [entry], actions)
        return _hand_event(live, n, {**setup, "disputes": [*setup.get("disputes", ()), entry]},
                           entry)

    return write_event(db, sid, EventKind.DISPUTE, client_id, check)


def _hand_event(live: Live, n: int, setup: dict, payload: dict):
    def rows(w: Database, event_id: int) -> None:
        storage.hands.set_setup(w, live.sid, n, setup, event_id)

    def after(_event_id: int) -> None:
        if n == live.n:
            live.setup = setup

    return n, payload, rows, after


# ---------------------------------------------------------------- session events

#: A table in whole coins asked for a stake finer than a coin that its
#: amounts' places cannot carry either: no confirmation could make it play
#: for it, so none is asked (stake46).
COIN_PLACES = N_("a stake of {stake} {currency} is finer than its smallest coin ({coin}) and "
                 "needs more decimal places than this table's amounts ({quantum}), so this "
                 "table cannot play for it: choose a stake in whole coins, or open a new "
                 "table for {stake}")


def change_stake(db: Database, sid: str, stake: str, client_id: str | None = None, *,
                 finer: bool = False) -> dict:
    """The stake from the next hand on (the hand in play keeps its own); each
    later hand's log carries it. Refused at a table scored in push-ups
    (``stake_push_ups``: it has no stake), for a stake that is not a decimal
    greater than 0 (``malformed``), or one that needs more decimal places
    than the session's amounts are written with (``stake_places``, said by
    the coin where the table plays in whole coins: confirming it would not
    help); at a table in whole coins, one finer than a coin unless the host
    confirmed it (``finer``; ``stake_finer_than_coin``, as at a table's
    opening)."""

    def check(live: Live):
        check_stake_change(live.rules)
        try:
            check_hand_stake(stake)
        except Unreadable as err:
            raise _malformed(err, "stake") from None
        value = parse_stake(stake)
        money = amounts_currency(session_row(db, sid)["currency"], live.rules.scoring)
        # A table in whole coins asks before it leaves them, as an opening
        # asks (newcomer44 P9, pushup45); one whose host confirmed a finer
        # stake at its opening was told what that means.
        in_coins = finer_than_coin(live.stake, money) is None
        if quantum(live.rules, value, None) < live.quantum:
            smallest = finer_than_coin(value, money) if in_coins else None
            if smallest is not None:
                raise MalformedInput("stake_places", COIN_PLACES,
                                     {"stake": value, "currency": money, "coin": smallest,
                                      "quantum": live.quantum})
            raise MalformedInput("stake_places", N_("a stake of {stake} needs more decimal "
                                                    "places than this table's amounts "
                                                    "({quantum}): choose a rounder stake"),
                                                 {"stake": value, "quantum": live.quantum})
        if not finer and in_coins:
            check_stake_coin(value, money)
        written = str(stake).strip()
        pending = None if value == live.stake else written

        def rows(w: Database, _event_id: int) -> None:
            storage.sessions.set_next(w, live.sid, stake=pending, seats=live.next_seats)

        def after(_event_id: int) -> None:
            live.next_stake = pending

        return None, {"stake": written, "from_hand": live.n + 1}, rows, after

    return write_event(db, sid, EventKind.STAKE, client_id, check)


LEAVE_AFTER_PLAY = N_("finish hand {hand} first, then {player} can leave: its play has ended, "
                      "so its result stands")


def leave(db: Database, sid: str, player: str, client_id: str | None = None) -> dict:
    """``player`` gets up: the next hand is dealt without them (its log lists
    the seats). If they are seated in the hand in play, it is void ("Ann left
    the table"), refused like any void once its play has ended
    (``void_after_end``: finish the hand first). Refused for someone not
    seated (``not_seated``) or the last two (``too_few_players``)."""

    def check(live: Live):
        hand = live.hand
        if hand is None:
            seats = list(live.next_seats or live.players)
        else:
            seats = list(live.next_seats or hand.players)
        if player not in seats:
            raise RuleViolation("not_seated", N_("{player} is not seated at this table"),
                                              {"player": player})
        if len(seats) <= 2:
            raise RuleViolation("too_few_players", N_("{player} cannot leave: a hand needs "
                                                      "two players (close the table instead)"),
                                                   {"player": player})
        rest = [q for q in seats if q != player]
        payload: dict[str, Any] = {"player": player, "seats": rest}
        if hand is not None and hand.phase != VOID and not hand.is_complete \
                and player in hand.players:  # seated in the hand in play
            reason = LEFT_THE_TABLE.format(player=player)
            payload["void"] = reason
            try:
                return _void_current(live, live.n, reason, "void",
                                     {"seats": rest, "payload": payload})
            except RuleViolation as err:
                if err.code != "void_after_end":
                    raise
                # Said as leaving, which the host asked for, not as voiding
                # (newcomer N19: "the hand cannot be void").
                raise RuleViolation(err.code, LEAVE_AFTER_PLAY,
                                    {"player": player, "hand": live.n}, hand=err.hand) from err

        return _seating_from_next_hand(live, rest, payload)

    return write_event(db, sid, EventKind.LEAVE, client_id, check)


def balances_now(db: Database, sid: str) -> dict[str, Decimal]:
    """What each player of table ``sid`` stands at now (positive: is owed)."""
    st = standings(db, sid, newest=0)
    return {p: Decimal(v) for p, v in (st["balances"] or st["totals"]).items()}


def check_within_owed(db: Database, sid: str, payer: str, payee: str, amount: Decimal) -> None:
    """A payment a player's own phone moves may only settle what is owed: at
    most what ``payer`` owes and ``payee`` is owed now, so that it brings
    both toward zero and moves no one else's money (``more_than_owed``)."""
    now = balances_now(db, sid)
    most = max(min(-now.get(payer, ZERO), now.get(payee, ZERO)), ZERO)
    if amount > most:
        raise RuleViolation("more_than_owed", N_("{payer} owes {payee} at most {most} at this "
                                                 "table now, not {amount}: a player's own "
                                                 "phone records no more than what is owed "
                                                 "(the host's tablet may)"),
                                              {"payer": payer, "payee": payee, "most": most,
                                               "amount": amount})


def check_coin(amount: Decimal, currency: str | None) -> None:
    """An amount of money is whole coins of its currency (``amount_coin``):
    0.004 EUR is owed by no one who can pay it. Points are free."""
    smallest = finer_than_coin(amount, currency)
    if smallest is not None:
        raise MalformedInput("amount_coin", N_("{amount} is not a whole number of {currency}'s "
                                               "smallest coin ({coin})"),
                                            {"amount": amount, "currency": currency,
                                             "coin": smallest})


def record_payment(db: Database, sid: str, payer: str, payee: str, amount: str, *,
                   at: str | None = None, note: str | None = None,
                   client_id: str | None = None, owed: bool = False,
                   by: str | None = None) -> dict:
    """Money handed over at the table (``at``: when; the service's clock if not
    given), also once it is closed: the night's debts are paid after it.
    Refused: to oneself (``payment_to_self``), an amount that is not
    a decimal greater than 0 (``payment_amount``) or not whole coins of the
    table's currency (``amount_coin``), a name not of the session
    (``unknown_player``), a time or note that cannot be read (``malformed``).
    ``by``: the player whose own phone records it (None: the host). The
    payer's own word is ``pending`` until the payee or the host confirms it
    (``confirm_payment``), and moves nothing till then; the payee's is their
    word that they were paid. Either is capped at what is owed between the
    two (``more_than_owed``). ``owed``: a transfer of the settlement marked
    paid, refused unless the settlement owes exactly it now (``not_owed``:
    marked paid already, or the money moved since the payer looked),
    checked under the session's lock so that two phones marking it at once
    record it once; marked by the payee or the host while the payer's own
    claim of it waits, it confirms that claim."""
    if owed and by != payer:
        waiting = _waiting_claim(db, sid, payer, payee, str(amount).strip())
        if waiting is not None:
            return confirm_payment(db, sid, waiting, by=by, client_id=client_id)

    def check(live: Live):
        payment: dict[str, Any] = {"from": payer, "to": payee, "amount": amount,
                   "at": at or storage.now_seconds()}
        if note is not None:
            payment["note"] = note
        try:
            check_payments([payment])
        except Unreadable as err:
            raise _malformed(err, "payment") from None
        check_session_money({"players": list(live.everyone), "payments": [payment]})
        payment["amount"] = str(amount).strip()
        value = Decimal(payment["amount"])
        if owed and not any((t["from"], t["to"], t["amount"]) == (payer, payee,
                                                                   payment["amount"])
                            for t in standings(db, sid, newest=0)["transfers"]):
            raise RuleViolation("not_owed", N_("{payer} does not owe {payee} {amount} now: "
                                               "it was marked paid already, or the "
                                               "settlement changed (look again)"),
                                            {"payer": payer, "payee": payee, "amount": value})
        if not owed:  # a transfer the settlement owes is paid as it is owed
            check_coin(value, session_row(db, sid)["currency"])
        if by is not None:
            if by == payer and _waiting_claim(db, sid, payer, payee, payment["amount"]):
                raise RuleViolation("claim_waiting", N_("{payer}'s payment of {amount} to "
                                                        "{payee} waits for {payee} to "
                                                        "confirm it already"),
                                    {"payer": payer, "payee": payee, "amount": value})
            check_within_owed(db, sid, payer, payee, value)
            payment["by"] = by
            if by == payer:
                payment["pending"] = True
        return None, payment, *header_change(
            live, lambda h: fold_money(h, EventKind.PAYMENT, payment))

    return write_event(db, sid, EventKind.PAYMENT, client_id, check, closed_too=True)


def _waiting_claim(db: Database, sid: str, payer: str, payee: str, amount: str) -> int | None:
    """The number (from 1) of the payer's own claim of exactly this payment
    that still waits for confirmation, if there is one."""
    for k, p in enumerate(_header(db, sid).get("payments") or (), 1):
        if p.get("pending") and "undone" not in p and \
                (p["from"], p["to"], p["amount"]) == (payer, payee, amount):
            return k
    return None


def _payment(live: Live, db: Database, number: int) -> dict:
    payments = _header(db, live.sid).get("payments") or []
    if not 1 <= number <= len(payments):
        raise NotFound("no_payment", N_("this table has no payment {number}"),
                                     {"number": number})
    return payments[number - 1]


def confirm_payment(db: Database, sid: str, number: int, *, by: str | None = None,
                    client_id: str | None = None) -> dict:
    """Payment ``number`` (from 1), recorded by its payer's own phone, is
    confirmed by its payee (``by``) or the host (None): from now on it moves
    the money. Refused for one that waits for nothing (``not_pending``), by
    anyone else (``not_your_seat``), or when it is more than is owed now
    (``more_than_owed``: the money moved since it was claimed)."""

    def check(live: Live):
        payment = _payment(live, db, number)
        if not payment.get("pending") or "undone" in payment:
            raise RuleViolation("not_pending", N_("payment {number} waits for no one's "
                                                  "confirmation"), {"number": number})
        if by is not None and by != payment["to"]:
            raise NotYourSeat("not_your_seat", N_("only {payee} (or the host) confirms that "
                                                  "{payee} was paid"),
                              {"payee": payment["to"]})
        check_within_owed(db, sid, payment["from"], payment["to"],
                          Decimal(payment["amount"]))
        said = {"payment": number, "by": by, "at": storage.now_seconds()}
        return None, said, *header_change(live, lambda h: fold_money(
            h, EventKind.CONFIRM, said))

    return write_event(db, sid, EventKind.CONFIRM, client_id, check, closed_too=True)


def undo_payment(db: Database, sid: str, number: int, *, by: str | None = None,
                 client_id: str | None = None) -> dict:
    """Payment ``number`` (from 1) taken back: a reversing event, the payment
    stays in the record marked ``undone`` and moves nothing. The host (None)
    may take back any; a player's own phone (``by``) only a claim still
    waiting that they made or that names them as payee (withdrawn, or
    declined). Refused a second time (``undone_already``)."""

    def check(live: Live):
        payment = _payment(live, db, number)
        if "undone" in payment:
            raise RuleViolation("undone_already", N_("payment {number} was taken back "
                                                     "already"), {"number": number})
        if by is not None and not (payment.get("pending") and
                                   by in (payment["from"], payment["to"])):
            raise NotYourSeat("not_your_seat", N_("only the host takes back a payment that "
                                                  "moved money"))
        said = {"payment": number, "by": by, "at": storage.now_seconds()}
        return None, said, *header_change(live, lambda h: fold_money(
            h, EventKind.UNDO_PAYMENT, said))

    return write_event(db, sid, EventKind.UNDO_PAYMENT, client_id, check, closed_too=True)


MONEY_EVENTS = (EventKind.PAYMENT, EventKind.CONFIRM, EventKind.UNDO_PAYMENT, EventKind.CARRY)


def fold_money(header: dict, kind: str, said: dict) -> dict:
    """The session's header after one of its money events (as chained): a
    payment appended, one confirmed or taken back, balances carried on. The
    service writes the header so, and ``referee verify`` folds the chain so."""
    if kind == EventKind.PAYMENT:
        return {**header, "payments": [*header.get("payments", ()), said]}
    if kind in (EventKind.CONFIRM, EventKind.UNDO_PAYMENT):
        payments = [dict(p) for p in header.get("payments", ())]
        k = said["payment"] - 1
        mark = {"by": said["by"], "at": said["at"]}
        if kind == EventKind.CONFIRM:
            payments[k].pop("pending", None)
            payments[k]["confirmed"] = mark
        else:
            payments[k]["undone"] = mark
        return {**header, "payments": payments}
    if kind == EventKind.CARRY:
        return {**header, "carried_forward": [*header.get("carried_forward", ()), said]}
    return header


def close(db: Database, sid: str, client_id: str | None = None) -> dict:
    """The host closes the table: it takes nothing more (``table_closed``) and
    its settlement is final. Refused while the last hand is still in play
    (``closed_in_play``: void it or finish it)."""

    def check(live: Live):
        if live.hand is not None:
            check_log_end(live.table, closed=True)
        when = storage.now_seconds()
        rows, _ = header_change(live, lambda h: {**h, "closed": when})

        def closed(_event_id: int) -> None:
            live.closed = when

        return None, {"closed": when}, rows, closed

    return write_event(db, sid, EventKind.CLOSE, client_id, check)


def header_change(live: Live, change):
    """The derived rows of a session-level event: the header, changed."""
    box: dict = {}

    def rows(w: Database, _event_id: int) -> None:
        box["header"] = change(session_row(w, live.sid)["header"])
        storage.sessions.set_header(w, live.sid, box["header"])

    return rows, None


def seat(db: Database, sid: str, player: str, client_id: str | None = None) -> dict:
    """``player`` sits down for the next hand: a newcomer, or someone who left
    coming back. The log's rule: a newcomer sits at the dealer's right, so
    the seats list them just before the next hand's dealer (the deal does
    not pass to them first). Only between hands (``seat_in_play``: a void
    would change who deals next); refused for someone seated already
    (``seated_already``), a name that cannot be a player's (``bad_name``),
    or more players than the deck can be dealt to (``too_many_players``)."""

    def check(live: Live):
        hand = live.hand
        if hand is not None and hand.phase != VOID and not hand.is_complete:
            raise RuleViolation("seat_in_play", N_("{player} can sit down once hand {n} is "
                                                   "over: finish it (or void it) first"),
                                                {"player": player, "n": live.n})
        why = check_new_name(player)
        if why:
            raise MalformedInput("bad_name", why.template, why.params)
        other = None if player in live.everyone else mistaken(player, live.everyone)
        if other is not None:
            raise RuleViolation("name_taken", N_("{name} and {other} could be taken for each "
                                                 "other: give one of them another name"),
                                {"name": player, "other": other})
        seats = list(live.next_seats or (hand.players if hand is not None else live.players))
        if player in seats:
            raise RuleViolation("seated_already", N_("{player} is seated at this table "
                                                     "already"), {"player": player})
        if len(seats) >= live.rules.max_players:
            raise RuleViolation("too_many_players", N_("{player} cannot sit down: at most "
                                                       "{most} players can be dealt at this "
                                                       "table"),
                                                    {"player": player,
                                                     "most": live.rules.max_players})
        dealer = live.table.expected_dealer(seats) if hand is not None else None
        if dealer is None:  # before the first hand anyone may deal: the last seat
            rest = [*seats, player]
        else:
            at = seats.index(dealer)
            rest = [*seats[:at], player, *seats[at:]]
        payload = {"player": player, "seats": rest, "from_hand": live.n + 1}

        return _seating_from_next_hand(live, rest, payload)

    return write_event(db, sid, EventKind.SEAT, client_id, check)


def comings_and_goings(db: Database, sid: str) -> dict[tuple[str, str], list[str]]:
    """When each player left or sat down, in order: ``(kind, player)`` -> the
    times of its leave or seat events (for the settlement paper)."""
    out: dict[tuple[str, str], list[str]] = {}
    for ev in storage.events.of_kinds(db, sid, (str(EventKind.LEAVE), str(EventKind.SEAT))):
        out.setdefault((ev["kind"], ev["payload"]["player"]), []).append(ev["created"])
    return out


def seat_changes(db: Database, sid: str) -> list[dict]:
    """Who left the table or sat down, in order: ``kind`` (``leave`` or
    ``seat``), ``player``, ``from_hand`` (a seat: the first hand dealt to
    them) and ``at`` (when it was kept)."""
    return [{"kind": ev["kind"], "player": ev["payload"]["player"],
             "from_hand": ev["payload"].get("from_hand"), "at": ev["created"]}
            for ev in storage.events.of_kinds(db, sid, (str(EventKind.LEAVE),
                                                        str(EventKind.SEAT)))]


# ---------------------------------------------------------------- names

# Keys whose values are never a player's name (a name may be any text).
_NOT_NAMES = frozenset(("kind", "note", "reason", "outcome", "stakes", "amount", "at",
                        "action", "stake", "upcard", "format", "rules", "table", "currency",
                        "started", "closed", "language", "story", "multiplier"))


def renamed(data: Any, old: str, new: str) -> Any:
    """``data`` with the name ``old`` written ``new`` (a corrected name)."""
    if isinstance(data, str):
        return new if data == old else data
    if isinstance(data, list):
        return [renamed(v, old, new) for v in data]
    if isinstance(data, dict):
        return {(new if k == old else k): (v if k in _NOT_NAMES else renamed(v, old, new))
                for k, v in data.items()}
    return data


def rename_player(db: Database, sid: str, old: str, new: str) -> None:
    """Write a corrected name into the session's derived rows: the header, the
    seats, every hand's setup and result, its story's sentences too (the
    events keep the old one)."""
    word = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")

    def result(r: dict) -> dict:
        story = [word.sub(new, line) for line in r.get("story", ())]
        r = renamed(r, old, new)
        r["story"] = story
        return r

    storage.sessions.rewrite_names(db, sid, old, new, lambda data: renamed(data, old, new), result)


def rename(db: Database, sid: str, old: str, new: str, client_id: str | None = None) -> dict:
    """Correct a player's name ("Bne" -> "Ben"): kept as an event; the export
    then writes the corrected name everywhere. Refused for a name that is not
    a player's (``unknown_player``), a new name not valid (``bad_name``) or
    already of the session (``name_taken``: two players would become one)."""

    def check(live: Live):
        if old not in live.everyone:
            raise MalformedInput("unknown_player", N_("{old} is not a player of this session"),
                                                   {"old": old})
        why = check_new_name(new)
        if why:
            raise MalformedInput("bad_name", why.template, why.params)
        if new in live.everyone:
            raise RuleViolation("name_taken", N_("{new} is already a player of this session: "
                                                 "choose another name"), {"new": new})
        other = mistaken(new, [p for p in live.everyone if p != old])
        if other is not None:
            raise RuleViolation("name_taken", N_("{name} and {other} could be taken for each "
                                                 "other: give one of them another name"),
                                {"name": new, "other": other})

        def rows(w: Database, _event_id: int) -> None:
            rename_player(w, live.sid, old, new)
            totals.refresh(w, live.sid, 1)  # every name in them changes

        def after(_event_id: int) -> None:
            cache.drop(db, live.sid)  # every name in it: rebuilt from the rows

        return None, {"old": old, "new": new}, rows, after

    return write_event(db, sid, EventKind.RENAME, client_id, check)


def _seating_from_next_hand(live, rest: list[str], payload: dict):
    """A leave's or a seat's write: the next hand's seats stored and kept live."""

    def rows(w: Database, _event_id: int) -> None:
        storage.sessions.set_next(w, live.sid, stake=live.next_stake, seats=rest)

    def after(_event_id: int) -> None:
        live.next_seats = rest

    return None, payload, rows, after
