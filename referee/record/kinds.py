"""The kinds of event, stated once: a session's hash chain (``EventKind``)
and the club's (``ClubKind``). Every other module names a kind by these
enums, never by its text (``tests/test_kinds.py`` holds them to it); the
record reads them back from an exported chain, so they live here, below the
service that writes them.

Every event is appended by ``storage.events.append`` (hash-chained alike).
"""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    SESSION = "session"  # the header as created or imported
    HAND_START = "hand_start"
    ACTION = "action"
    CORRECTION = "correction"  # an undo
    REFUSAL = "refusal"  # an action the rules refused, kept for the audit
    VOID = "void"  # the hand in play cancelled, with a reason
    STAKE = "stake"  # the stake from the next hand on
    LEAVE = "leave"  # a player gets up (voiding the hand in play if seated in it)
    ACCEPT = "accept"  # a player confirms a hand's result
    DISPUTE = "dispute"  # an objection to an action or a hand, for the record
    PAYMENT = "payment"  # money handed over at the table
    CLOSE = "close"  # the host closes the table
    RENAME = "rename"  # a player's name corrected
    SEAT = "seat"  # a newcomer (or a player who left) sits down for the next hand
    SETTLE = "settle"  # a dispute settled: the record corrected back to it, or let stand
    LINK = "link"  # a seat or viewer link issued (its token's hash): service/access/seats.py
    UNLINK = "unlink"  # a seat or viewer link revoked
    PAY_DETAILS = "pay_details"  # how a player is paid (an IBAN, PayPal.me, a line)
    CONFIRM = "payment_confirm"  # a payment its payer recorded, confirmed (payee or host)
    UNDO_PAYMENT = "payment_undo"  # a payment taken back: a reversing event, never a delete
    CARRY = "carry"  # balances carried on to a later table (its brought_forward)


# The table's own events (``log-format.md``, "The table's own events"): each
# has a request of its own, answered with the event as kept.
TABLE_EVENTS = (EventKind.VOID, EventKind.STAKE, EventKind.LEAVE, EventKind.ACCEPT,
                EventKind.DISPUTE, EventKind.PAYMENT, EventKind.CLOSE, EventKind.RENAME,
                EventKind.SEAT, EventKind.SETTLE, EventKind.CONFIRM, EventKind.UNDO_PAYMENT,
                EventKind.CARRY)
# A hand's play, replayed to rebuild it: its actions and their undoing.
PLAY = (EventKind.ACTION, EventKind.CORRECTION)
# What the settlement paper says nothing of: which phone holds a seat's or the
# viewer's link. A closed table's paper names the newest event of any other
# kind (``record.chain.settled_head``), so the same settlement prints the
# same head, whatever links were given or revoked after it.
UNSEEN_BY_THE_SETTLEMENT = (EventKind.LINK, EventKind.UNLINK)


class ClubKind(StrEnum):
    MERGE = "merge"  # two spellings of one person made one
    NICKNAME = "nickname"  # a person's name as the club shows it
    UNDO = "undo"  # a merge or nickname taken back
    # A debt paid after its table closed, kept in the club's chain (a table's
    # own payments are that table's events).
    PAYMENT = "payment"
    # A copy of a night (a log imported again on purpose: its session row's
    # copy_of) taken out of the club's books: the club counts the night once.
    OUT_OF_BOOKS = "out_of_books"


# Who is who in the club: the events that say it, and the one that takes them back.
WHO_IS_WHO = (ClubKind.MERGE, ClubKind.NICKNAME, ClubKind.UNDO)
