"""The club: its own hash-chained events (appended, read, checked) and the
people rows they say (the spellings that name one person, the nicknames)."""

from __future__ import annotations

from typing import Any

from ...record.chain import club_chain_fault
from ...rules.words import Words
from .events import append as append_event
from .handle import Database

CLUB = "club"  # the session_id column of the club's events


def append(db: Database, kind: str, payload: Any) -> dict:
    return append_event(db, CLUB, None, kind, payload, table="club_events")


def events(db: Database) -> list[dict]:
    """The club's events as stored, every column, in order."""
    cur = db.conn.execute(
        "SELECT id, chain, session_id, hand, seq, kind, payload, client_id, created, "
        "prev_hash, hash FROM club_events ORDER BY seq")
    keys = [d[0] for d in cur.description]
    return [dict(zip(keys, values, strict=True)) for values in cur]


def verify_chain(db: Database) -> Words | None:
    """The first fault of the club's chain (None: intact or empty)."""
    return club_chain_fault(events(db))


def aliases(db: Database) -> dict[str, str]:
    return dict(db.conn.execute("SELECT spelling, person FROM aliases ORDER BY spelling"))


def nicknames(db: Database) -> dict[str, str]:
    return dict(db.conn.execute("SELECT person, nickname FROM nicknames ORDER BY person"))


def set_people(db: Database, spellings: dict[str, str], nicks: dict[str, str]) -> None:
    """Write the people rows as the club's events now say (a handful of rows:
    rewritten whole after each event)."""
    db.conn.execute("DELETE FROM aliases")
    db.conn.execute("DELETE FROM nicknames")
    db.conn.executemany("INSERT INTO aliases (spelling, person) VALUES (?, ?)",
                        sorted(spellings.items()))
    db.conn.executemany("INSERT INTO nicknames (person, nickname) VALUES (?, ?)",
                        sorted(nicks.items()))
