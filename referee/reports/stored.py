"""Reports from a stored session: its log, the final hash of its event chain,
and one hand's events (with the corrections) for the audit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..rules.errors import MalformedInput
from ..rules.words import N_


@dataclass
class StoredSession:
    log: dict
    final_hash: str | None
    db: object
    session_id: str

    def close(self) -> None:
        """Close the database this session was read from."""
        self.db.close()  # type: ignore[attr-defined]

    def stake_in_force(self) -> dict:
        """The stake in force as the table's pages say it (a change made
        after the last hand is in no hand of the log yet)."""
        from ..service.table import sessions

        return sessions.stake_in_force(self.db, self.session_id)

    def settlement_head(self) -> str | None:
        """The head its settlement paper names (``storage.chain.settled_head``:
        a closed table's, the newest event the paper reads)."""
        from ..service import storage

        return storage.chain.settled_head(self.db, self.session_id, "closed" in self.log)

    def settlement_paper(self, session) -> dict:
        """What the settlement paper of this stored table says beyond its log,
        as ``render_settlement``'s keywords, for the CLI and the web alike:
        its sections with the disputes as settled, who came and went, and how
        each transfer is paid (the CLI's paper showed settled disputes as open
        and no comings and goings: it gathered these apart)."""
        from ..service.club import pay
        from ..service.table import carrying, disputes, table_events
        from .sections import Linked, Sections

        db, sid = self.db, self.session_id
        sec = Sections.replayed(session, disputes.all_settlements(db, sid),
                                linked=Linked(*carrying.linked(db, sid, session.log)))
        return {"sections": sec, "moves": table_events.comings_and_goings(db, sid),
                **pay.for_the_paper(db, sid, [(t.payer, t.payee) for t in sec.transfers])}

    def audit_settled(self, n: int) -> dict[int, dict]:
        """Hand ``n``'s disputes as settled, for its audit paper."""
        from ..service.table import disputes

        return disputes.settlements(self.db, self.session_id, n, seq=True)

    def hand_events(self, n: int) -> list[dict]:
        from ..service import storage
        from .audit import events_from_storage

        return events_from_storage(storage.events.of_hand(self.db, self.session_id, n,
                                                          refusals=True))

    def told_before(self, n: int) -> list[dict]:
        """Hand ``n``'s endings before it was told again (its audit shows them)."""
        from ..service import storage
        from .audit import told_before

        return told_before(storage.events.of_hand(self.db, self.session_id, n))


@dataclass
class ChainedLog:
    """A log exported with its chain (``referee export ID --chain``) whose
    chain holds: its papers name the session by the head, as the table's
    own papers do, and read from its events what the stored session's read
    from its rows (the disputes' settlements with their events, a hand's
    corrections and refused tries for its audit)."""

    log: dict
    final_hash: str
    events: list[dict]
    start: str  # the hash its chain hangs on
    session: str  # the id of the session exported

    def stake_in_force(self) -> None:
        return None  # the sheet's stake: the log's

    def settlement_head(self) -> str | None:
        """The head its settlement paper names, as the stored table's names it."""
        from ..record.chain import settled_head

        return settled_head(self.final_hash, self.events, self.start, self.session,
                            closed="closed" in self.log)

    def settlement_paper(self, session) -> dict:
        from ..record.chain import chain_settlements
        from .sections import Sections

        return {"sections": Sections.replayed(session, chain_settlements(self.events))}

    def audit_settled(self, n: int) -> dict[int, dict]:
        from ..record.chain import chain_settlements

        return chain_settlements(self.events).get(n, {})

    def hand_events(self, n: int) -> list[dict]:
        from ..record.chain import hand_events
        from .audit import events_from_storage

        return events_from_storage(hand_events(self.events, n))

    def told_before(self, n: int) -> list[dict]:
        from ..record.chain import hand_events
        from .audit import told_before

        return told_before(hand_events(self.events, n))


def chained_log(doc: dict) -> ChainedLog | None:
    """``doc`` (a decoded log) as a ``ChainedLog`` if it carries a chain that
    holds (``service.trust.verify_log``); None if it carries none. A chain
    that does not hold is ``LogChainError`` (or ``MalformedInput``)."""
    if "head" not in doc and "chain" not in doc:
        return None
    from ..record import load_log
    from ..service.trust import verify_log

    log = load_log(doc)
    head = verify_log(doc)
    chain = doc["chain"]
    return ChainedLog(log, head, chain["events"], chain["start"], chain["session"])


def final_hash(db, session_id: str) -> str | None:
    from ..service import storage

    return storage.chain.final_hash(db, session_id)


def load_stored(db, session_id: str) -> StoredSession:
    """``db`` is an open storage database, a path to one (which must exist:
    a report never creates an empty database by mistake) or its URL."""
    from ..service import storage
    from ..service.storage import pg
    from ..service.table import sessions

    if isinstance(db, (str, Path)):
        if not pg.is_url(db) and not Path(db).is_file():
            raise MalformedInput("no_database", N_("there is no database at {path}"),
                                                {"path": db})
        db = storage.connect(db)
    log = sessions.get_log(db, session_id, expanded=True)
    return StoredSession(log, final_hash(db, session_id), db, session_id)
