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
        for tail in ("/links", "/links/revoke"):
            r = client.post(f"/api/sessions/{self.second}{tail}", json={"role": "viewer"},
                            headers=bearer(token))
            assert r.status_code == 201, r.get_json()
        club.merge(self.db, "Bne", "Ben")
        club.nickname(self.db, "Ben", "Benji")
        assert not access.unlock(self.db, self.second, "wrong", address="203.0.113.9")
        assert access.host_key_try(self.db, "api", "198.51.100.7") == 0
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
    ("seat past the last", [_SEAT_PAST_THE_LAST.format(sid="{sid}", hand=1)],
     "hand {hand}'s seat rows differ from its chain"),
    ("opening seat past the last", [_SEAT_PAST_THE_LAST.format(sid="{sid}", hand=0)],
     "the session's stored seats differ from its chain"),
    ("actions_key", ["UPDATE hands SET actions_key = 2 WHERE session_id = '{sid}' AND n = 1"],
     "hand {hand}'s stored setup differs from its chain"),
    ("quantum", ["UPDATE sessions SET quantum = '0.001' WHERE id = '{second}'"],
     "the session's {column} differs from its chain"),
]


@pytest.mark.parametrize("what,statements,template", EDITS, ids=[e[0] for e in EDITS])
def test_each_edit_is_caught_by_its_own_sentence(app, client, what, statements, template):
    night = Night(app, client)
    assert {k: [str(f) for f in v] for k, v in trust.verify_all(night.db).items() if v} == {}
    tamper(night.db, [sql.format(sid=night.sid, second=night.second) for sql in statements])
    cache.forget()
    faults = [f for said in trust.verify_all(night.db).values() for f in said]
    assert any(template in _templates(f) for f in faults), [str(f) for f in faults]
