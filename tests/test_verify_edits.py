"""The direct database edits ``referee verify`` missed (issue 34: the
attack's 22 unnoticed edits, and a deleted ``attempts`` row), each made in
the database as whoever holds it would (the append-only guards off), on
SQLite and on PostgreSQL: each is now named by its own sentence.

The night: a table played live (two hands, an undo, a payment, each with a
client id), a second table opened after it with a viewer link issued and
revoked (its last event, the database's newest, changes no derived row),
the club's people merged and nicknamed, and wrong tries at a table's token
and at the host key, and a table opened, counted in ``attempts``."""

from __future__ import annotations

import pytest

from referee import language
from referee.service import access, club, storage, trust
from referee.service.table import cache

from .conftest import BOTH_BACKENDS
from .test_api import Game, bearer
from .test_verify_words import _templates


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


class Night:
    def __init__(self, app, client):
        self.db = storage.connect(app.config["DATABASE"])
        g = Game(client, seed=3)
        g.start()
        g.finish_hand()
        g.start()
        g.play(2)
        for tail, body in [(f"/hands/{g.n}/undo", {"expected_seq": g.seq, "client_id": "u1"}),
                           ("/payments", {"from": "Ann", "to": "Ben", "amount": "0.25",
                                          "client_id": "p1"})]:
            r = client.post(g.url(tail), json=body, headers=bearer(g.table))
            assert r.status_code == 201, r.get_json()
        r = client.post("/api/sessions", json={"stake": "1", "rules": "pagat",
                                               "players": ["Ann", "Bne"]})
        assert r.status_code == 201, r.get_json()
        self.second, token = r.get_json()["id"], r.get_json()["table_token"]
        # Something happens at the second table (a table where nothing did is
        # no session of the club, and its spelling could not be merged); its
        # viewer link, revoked, is still the database's newest event.
        r = client.post(f"/api/sessions/{self.second}/payments", headers=bearer(token),
                        json={"from": "Ann", "to": "Bne", "amount": "0.25", "client_id": "p2"})
        assert r.status_code == 201, r.get_json()
        for tail in ("/links", "/links/revoke"):
            r = client.post(f"/api/sessions/{self.second}{tail}", json={"role": "viewer"},
                            headers=bearer(token))
            assert r.status_code == 201, r.get_json()
        club.merge(self.db, "Bne", "Ben")
        club.nickname(self.db, "Ben", "Benji")
        assert not access.unlock(self.db, self.second, "wrong", address="203.0.113.9")
        assert not access.host_key(self.db, "key", "guess", "api", "198.51.100.7")
        access.opening(self.db, "192.0.2.1")
        self.sid = g.sid


def tamper(db, statements: list[str]) -> None:
    """Run ``statements`` in one transaction with the append-only guards off."""
    db.conn.execute("BEGIN")
    if storage.is_pg(db):
        db.conn.execute("SET LOCAL session_replication_role = replica")
    else:
        for table in ("events", "club_events"):
            for what in ("update", "delete"):
                db.conn.execute(f"DROP TRIGGER IF EXISTS {table}_no_{what}")
    for sql in statements:
        db.conn.execute(sql)
    db.conn.execute("COMMIT")


_NEWEST_EVENT = "DELETE FROM events WHERE id = (SELECT max(id) FROM events)"
_SEAT_PAST_THE_LAST = ("UPDATE seats SET position = 9 WHERE session_id = '{sid}' AND hand = {hand} "
                       "AND position = 2")

# (what is edited, the statements (``{sid}``: the played table, ``{second}``:
# the one opened after it), the sentence verify names it with)
EDITS = [
    ("attempts row deleted", ["DELETE FROM attempts WHERE kind = 'unlock'"],
     "the stored wrong tries (attempts) are not those their writes left: a row was deleted "
     "or edited"),
    ("attempts count edited", ["UPDATE attempts SET failures = 0 WHERE session_id = 'host key'"],
     "the stored wrong tries (attempts) are not those their writes left: a row was deleted "
     "or edited"),
    ("attempts wait edited", ["UPDATE attempts SET locked_until = 0 WHERE kind <> 'unlock'"],
     "the stored wrong tries (attempts) are not those their writes left: a row was deleted "
     "or edited"),
    ("tables opened deleted", ["DELETE FROM attempts WHERE session_id = 'tables opened'"],
     "the stored wrong tries (attempts) are not those their writes left: a row was deleted "
     "or edited"),
    ("request of an undo", ["UPDATE replies SET request = 'x' || request WHERE client_id = 'u1'"],
     "the stored request of client id {client_id} differs from its event {event} ({kind}) in "
     "the chain"),
    ("request of a payment", ["UPDATE replies SET request = 'x' || request "
                              "WHERE client_id = 'p1'"],
     "the stored request of client id {client_id} differs from its event {event} ({kind}) in "
     "the chain"),
    ("request dropped", ["UPDATE replies SET request = NULL WHERE client_id = 'p1'"],
     "the stored request of client id {client_id} differs from its event {event} ({kind}) in "
     "the chain"),
    ("seat past the last", [_SEAT_PAST_THE_LAST.format(sid="{sid}", hand=1)],
     "hand {hand}'s seat rows differ from its chain"),
    ("opening seat past the last", [_SEAT_PAST_THE_LAST.format(sid="{sid}", hand=0)],
     "the session's stored seats differ from its chain"),
    ("actions_key", ["UPDATE hands SET actions_key = 2 WHERE session_id = '{sid}' AND n = 1"],
     "hand {hand}'s stored setup differs from its chain"),
    ("quantum", ["UPDATE sessions SET quantum = '0.001' WHERE id = '{second}'"],
     "the session's {column} differs from its chain"),
    ("newest event deleted", [_NEWEST_EVENT],
     "the database's newest event is not the one its last write left (event id {id}): events "
     "were removed from its end"),
    ("newest session deleted", [f"DELETE FROM {table} WHERE {key} = '{{second}}'" for table, key
                                in (("events", "session_id"), ("seats", "session_id"),
                                    ("attempts", "session_id"), ("sessions", "id"))],
     "the database's newest event is not the one its last write left (event id {id}): events "
     "were removed from its end"),
    ("club tail deleted", ["DELETE FROM club_events WHERE seq = (SELECT max(seq) FROM "
                           "club_events)", "DELETE FROM nicknames"],
     "the club's newest event is not the one its last write left (club event {event}): events "
     "were removed from its end"),
    ("a table's tries deleted whole", ["DELETE FROM attempts WHERE session_id = '{second}'"],
     "the stored wrong tries (attempts) are not those their writes left: a row was deleted "
     "or edited"),
    ("a table's tries moved away", ["UPDATE attempts SET session_id = 'elsewhere' "
                                    "WHERE session_id = '{second}' AND kind <> 'unlock'"],
     "the stored wrong tries (attempts) are not those their writes left: a row was deleted "
     "or edited"),
    ("created", ["UPDATE sessions SET created = '2001-01-01T00:00:00Z' WHERE id = '{sid}'"],
     "the session's {column} differs from its chain"),
]

# Whose rows each edit touches, where they are one session's: that session,
# checked alone (``referee verify --session``), must name the edit as the
# whole database's verify does (the others are the database's own: the host
# key's tries, the tables opened, the club, a session deleted whole).
ONE_SESSIONS = {
    "attempts row deleted": "second", "attempts wait edited": "second",
    "request of an undo": "sid", "request of a payment": "sid", "request dropped": "sid",
    "seat past the last": "sid", "opening seat past the last": "sid", "actions_key": "sid",
    "quantum": "second", "newest event deleted": "second",
    "a table's tries deleted whole": "second", "a table's tries moved away": "second",
    "created": "sid",
}


@pytest.mark.parametrize("what,statements,template", EDITS, ids=[e[0] for e in EDITS])
def test_each_edit_is_caught_by_its_own_sentence(app, client, what, statements, template):
    night = Night(app, client)
    assert {k: [str(f) for f in v] for k, v in trust.verify_all(night.db).items() if v} == {}
    tamper(night.db, [sql.format(sid=night.sid, second=night.second) for sql in statements])
    cache.forget()
    faults = [f for said in trust.verify_all(night.db).values() for f in said]
    assert any(template in _templates(f) for f in faults), [str(f) for f in faults]
    german = language.say(next(f for f in faults if template in _templates(f)), "de")
    assert german != template and "{" not in german


@pytest.mark.parametrize("what,statements,template",
                         [e for e in EDITS if e[0] in ONE_SESSIONS],
                         ids=[e[0] for e in EDITS if e[0] in ONE_SESSIONS])
def test_a_session_checked_alone_names_each_edit_of_its_rows(app, client, what, statements,
                                                             template):
    """``verify --session`` read none of the anchors: a session's tries
    deleted, or its last event gone, were clean checked alone."""
    night = Night(app, client)
    whose = {"sid": night.sid, "second": night.second}[ONE_SESSIONS[what]]
    assert [str(f) for f in trust.verify_session(night.db, whose)] == []
    tamper(night.db, [sql.format(sid=night.sid, second=night.second) for sql in statements])
    cache.forget()
    faults = trust.verify_session(night.db, whose)
    assert any(template in _templates(f) for f in faults), [str(f) for f in faults]


def test_a_session_checked_alone_misses_no_event_cut_from_its_end(app, client):
    """A table's last event (its viewer link revoked: nothing else keeps
    it) deleted while another table's events follow it: the whole
    database's verify sees the hole from the event after it, the table
    checked alone from the ids after its newest event."""
    def table(players: list[str]) -> tuple[str, str]:
        r = client.post("/api/sessions", json={"stake": "1", "rules": "pagat",
                                               "players": players})
        assert r.status_code == 201, r.get_json()
        return r.get_json()["id"], r.get_json()["table_token"]

    first, token = table(["Ann", "Ben"])
    for tail in ("/links", "/links/revoke"):
        r = client.post(f"/api/sessions/{first}{tail}", json={"role": "viewer"},
                        headers=bearer(token))
        assert r.status_code == 201, r.get_json()
    table(["Cay", "Dee"])
    db = storage.connect(app.config["DATABASE"])
    assert trust.verify_session(db, first) == []
    cut = db.conn.execute("SELECT max(id) FROM events WHERE session_id = ?", [first]
                          ).fetchone()[0]
    tamper(db, [f"DELETE FROM events WHERE id = {cut}"])
    cache.forget()
    assert any(trust.verify_all(db).values())
    assert [str(f) for f in trust.verify_session(db, first)] == [f"event id {cut} is missing"]


def _back_before(db, migrations: tuple[str, ...]) -> None:
    """Take a database back to before the anchors (``m008``, and ``m009``
    where it went too): their table, rows and column gone, their names
    unapplied."""
    db.execute("DROP TABLE anchors")
    if "m009_attempts_anchored_by_group" in migrations:
        db.execute("DELETE FROM attempts WHERE kind = ''")
        db.execute("ALTER TABLE attempts DROP COLUMN digest")
    table = "referee_migrations" if storage.is_pg(db) else "_sqlite_migrations"
    for name in migrations:
        db.execute(f"DELETE FROM {table} WHERE name = ?", [name])
    assert storage.schema.pending_migrations(db) == list(migrations)


def test_a_database_from_before_the_anchors_is_anchored_where_it_stands(app, client, database):
    """A database migrated to ``m008_anchors`` (its tables as written
    before it) verifies clean, and is held to its anchors from then on."""
    night = Night(app, client)
    db = night.db
    _back_before(db, ("m008_anchors", "m009_attempts_anchored_by_group"))
    db = storage.connect(database)
    assert storage.schema.pending_migrations(db) == []
    assert not any(trust.verify_all(db).values())
    # Written on since: a wrong try, and a new table's events.
    assert not access.unlock(db, night.sid, "wrong", address="203.0.113.10")
    assert client.post("/api/sessions", json={"stake": "1", "rules": "pagat",
                                              "players": ["Ann", "Ben"]}).status_code == 201
    assert not any(trust.verify_all(db).values())
    tamper(db, ["DELETE FROM attempts WHERE kind = 'unlock 203.0.113.10'", _NEWEST_EVENT,
                "DELETE FROM club_events WHERE seq = (SELECT max(seq) FROM club_events)",
                "DELETE FROM nicknames"])
    cache.forget()
    said = {t for faults in trust.verify_all(db).values() for f in faults for t in _templates(f)}
    assert {template for _what, _sql, template in EDITS
            if _what in ("attempts row deleted", "newest event deleted", "club tail deleted")
            } <= said, said


def test_tries_deleted_before_they_were_anchored_by_group_are_still_told(app, client,
                                                                       database):
    """A database anchored by ``m008`` alone (one anchor of every try), a
    try's row deleted before it moves to the groups' anchors (``m009``):
    the groups anchored on what is left add up, and the old anchor, which
    did not, stays and is said; one that added up goes."""
    night = Night(app, client)
    _back_before(night.db, ("m008_anchors", "m009_attempts_anchored_by_group"))
    from referee.service.storage import schema

    with storage.write(night.db):  # m008 alone
        if storage.is_pg(night.db):
            schema.m008_anchors(night.db)
            night.db.conn.execute(f"INSERT INTO {schema.MIGRATIONS_TABLE} (name, applied) "
                                  "VALUES ('m008_anchors', ?)", ["2026-11-28T20:00:00Z"])
        else:
            schema.migrations.apply(night.db, stop_before="m009_attempts_anchored_by_group")
    assert storage.schema.pending_migrations(night.db) == ["m009_attempts_anchored_by_group"]
    tamper(night.db, ["DELETE FROM attempts WHERE kind = 'unlock'"])
    db = storage.connect(database)
    assert storage.schema.pending_migrations(db) == []
    cache.forget()
    said = {t for faults in trust.verify_all(db).values() for f in faults for t in _templates(f)}
    assert EDITS[0][2] in said, said
    assert trust.verify_session(db, night.second) == []  # its group adds up on what is left
