"""A hand's public state as the service answers it (``hands.public_state``:
``GET .../hands/<n>``, the answer to an action, the tablet's page): the
engine's snapshot (``Hand.snapshot``) with the table's own fields, the verbs
open now and, once the hand is over, its stored result."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ..money.results import StoredResult


class SpreadState(TypedDict):
    id: str  # "S1", ...
    owner: str
    cards: list[str]  # in rank order


class PlayerState(TypedDict):
    name: str
    cards: int  # how many the player holds
    known: list[str]  # the held cards the referee knows (a phone: service.table.sight)
    unknown: int
    count: int | None
    waiting: int
    shown: bool


class HandState(TypedDict):
    hand: int
    phase: str
    dealer: str
    to_act: str | None
    stock: int
    top: str | None
    second: NotRequired[str | None]  # with a pickup depth of 2
    pile: int
    spreads: list[SpreadState]
    players: list[PlayerState]
    declared: list[str]
    must_show: list[str]
    complete: bool
    actions: int
    # the table's own fields
    session: str
    seq: int  # the hand's version: how many actions it holds
    stake_multiplier: int
    stake: NotRequired[str]  # a stake of the hand's own
    void: NotRequired[str]  # the reason the hand was voided
    accepted: NotRequired[list[str]]
    disputes: NotRequired[list[dict[str, Any]]]
    verbs: dict[str, list[str]]  # the verbs open now, by player
    legal: NotRequired[list[str]]  # every action the referee would accept
    result: NotRequired[StoredResult | None]  # once the hand is over (void or complete)
