"""Reading session logs (``tonk-log/1``) without marshmallow: the format's
name, its fields' order, and the plain log (the common case: plain hands,
every field well formed), read here because marshmallow alone takes 70 ms to
import. Anything else is for ``referee.record.schemas`` (which imports this
module, never the other way round); ``referee.record`` picks between the two.
"""

from __future__ import annotations

from ..ledger.money import MAX_MULTIPLIER, parse_stake
from ..rules.options import MAX_PLAYERS
from ..rules.table import CURRENCY, TABLE_NAME, check_name, check_names_apart, odd_text

TYPE_CHECKING = False  # typing is not imported at run time: a replay starts faster
if TYPE_CHECKING:
    from typing import Any

FORMAT = "tonk-log/1"

def setup_of(hand: dict) -> dict:
    """A logged hand's setup: everything it says but its actions (what the
    chain's ``hand_start`` event holds)."""
    return {k: v for k, v in hand.items() if k != "actions"}


# What a plain hand names; the schema writes a hand's fields in declaration order.
_PLAIN_HAND_KEYS = frozenset(("dealer", "deal", "upcard", "stake_multiplier", "actions"))
_HAND_FIELDS = ("dealer", "players", "deal", "upcard", "stake", "stake_multiplier", "side_bets",
                "actions", "ending", "void", "accepted", "disputes")
# The table's own events (referee.record.events, imported only for a log that
# has them: most do not, and every replay's start-up counts).
_HAND_EVENTS = ("stake", "void", "accepted", "disputes")
_SESSION_EVENTS = ("language", "started", "closed", "brought_forward", "brought_from",
                   "payments", "carried_forward")
# A plain hand may also carry the table's own events.
_EVENT_HAND_KEYS = _PLAIN_HAND_KEYS | frozenset(_HAND_EVENTS)


# Defaults for a missing deal or actions list, made once (only read).
_NO_DEAL: dict = {}
_NO_ACTIONS: list = []


def _all_text(items: list) -> bool:
    """Every item is text: joined in C, without a call for each item (asking
    each item's type took 14 of the 20 k instructions a hand's reading cost,
    a tenth of a replay's serial start). Text of a subclass of str is text
    here as in the schema (marshmallow's String)."""
    try:
        "".join(items)
    except TypeError:
        return False
    return True


def _plain_hand(hand: Any) -> dict | None:
    """A hand that names only its dealer, deal, upcard, actions (all text)
    and stake multiplier (an int from 1), read as HandSchema reads it but
    without marshmallow's per-field machinery, which cost 30 µs a hand.
    None: anything else, for the schema to read."""
    if type(hand) is not dict:
        return None
    if not _PLAIN_HAND_KEYS.issuperset(hand):  # rare: a stake, a void, an acceptance...
        if not _EVENT_HAND_KEYS.issuperset(hand) or not _events_readable(hand, hand=True):
            return None
    if type(hand.get("dealer")) is not str or type(hand.get("upcard", "")) is not str:
        return None
    deal = hand.get("deal", _NO_DEAL)
    if type(deal) is not dict:
        return None
    for cards in deal.values():
        if type(cards) is not list or not _all_text(cards):
            return None
    actions = hand.get("actions", _NO_ACTIONS)
    if type(actions) is not list or not _all_text(actions):
        return None
    multiplier = hand.get("stake_multiplier", 1)
    if type(multiplier) is not int or not 1 <= multiplier <= MAX_MULTIPLIER:
        return None
    # A copy, as the schema makes; its fields keep their order (a hand's
    # fields are read by name, and written back in the schema's order).
    return dict(hand)


def _events_readable(doc: dict, *, hand: bool) -> bool:
    """The event fields of ``doc`` (a hand, or the log) are readable (or absent)."""
    from .events import HAND_CHECKS, SESSION_CHECKS, Unreadable

    try:
        for key, check in (HAND_CHECKS if hand else SESSION_CHECKS).items():
            if key in doc:
                check(doc[key])
    except Unreadable:
        return False
    return True


# A log's fields, in the order LogSchema writes them.
_LOG_FIELDS = ("format", "table", "language", "started", "closed", "currency", "stake", "rules",
               "players", "brought_forward", "brought_from", "hands", "payments",
               "carried_forward")
_LOG_KEYS = frozenset(_LOG_FIELDS)


def _plain_log(doc: dict) -> dict | None:
    """``doc`` as LogSchema reads it, if every field is well formed and every
    hand plain; None: anything else, for the schema to read (and word)."""
    if not _LOG_KEYS.issuperset(doc):
        return None
    if type(doc.get("format")) is not str or doc["format"] != FORMAT:
        return None
    if "table" in doc and (type(doc["table"]) is not str or not 1 <= len(doc["table"]) <= 200
                           or odd_text(doc["table"], TABLE_NAME)):
        return None
    if any(key in doc for key in _SESSION_EVENTS) and not _events_readable(doc, hand=False):
        return None
    currency = doc.get("currency")
    if currency is not None and (type(currency) is not str or not 1 <= len(currency) <= 16
                                 or odd_text(currency, CURRENCY)):
        return None
    stake = doc.get("stake")
    if type(stake) not in (str, int, float):
        return None
    try:
        parse_stake(stake)
    except ValueError:
        return None
    if type(doc.get("rules")) not in (str, dict):
        return None
    players = doc.get("players")
    if type(players) is not list or not 2 <= len(players) <= MAX_PLAYERS \
            or not all(type(p) is str and not check_name(p) for p in players) \
            or check_names_apart(players):
        return None
    out = {key: doc[key] for key in _LOG_FIELDS if key in doc}
    if "hands" in doc:
        hands = doc["hands"]
        if type(hands) is not list:
            return None
        out["hands"] = plain_hands(hands)
        if out["hands"] is None:
            return None
    return out


def plain_hands(hands: list) -> list | None:
    """Every hand read plain, or None from the first that is not (a million
    empty objects is refused by the schema at the first, not read twice)."""
    out = []
    for hand in hands:
        plain = _plain_hand(hand)
        if plain is None:
            return None
        out.append(plain)
    return out

