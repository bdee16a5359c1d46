"""Tampering with a stored session, as someone holding the database file would:
every change to what money is computed from fails ``referee verify``, and a
receipt's head catches what only a rewrite of the whole chain could hide."""

from __future__ import annotations

import json
import sqlite3

import pytest

from referee.cli import main
from referee.record.chain import GENESIS, canonical, event_hash
from referee.service import storage, trust
from referee.service.table import cache

from .test_api import Game, bearer


@pytest.fixture
def backend():
    """SQLite, whatever REFEREE_TEST_BACKEND says: some of these tests tamper
    with the SQLite file itself."""
    return "sqlite"


def played(client, hands=2, undo=True):
    """A session played live through the API: hands, actions, an undo."""
    g = Game(client, seed=3)
    for _ in range(hands):
        g.start()
        g.finish_hand()
    g.start()
    g.play(2)
    if undo:
        r = client.post(g.url(f"/hands/{g.n}/undo"),
                        json={"expected_seq": g.seq, "client_id": "u1"},
                        headers=bearer(g.table))
        assert r.status_code == 201, r.get_json()
    return g


def raw(app):
    """The database as an attacker gets it: the append-only guards dropped."""
    conn = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    conn.execute("DROP TRIGGER IF EXISTS events_no_update")
    conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
    return conn


def rehash_with(app, sid, edit):
    """Rewrite the session's chain (every hash again) after ``edit(event)``,
    and the anchor of the database's newest event with it, as a forger who
    knows the file would: only a receipt could tell."""
    conn = raw(app)
    cols = [d[0] for d in conn.execute("SELECT * FROM events LIMIT 0").description]
    prev = None
    for values in conn.execute("SELECT * FROM events WHERE session_id = ? ORDER BY seq",
                               [sid]).fetchall():
        ev = dict(zip(cols, values, strict=True))
        if prev is not None:
            ev["prev_hash"] = prev
        edit(ev)
        ev["hash"] = event_hash(ev["prev_hash"], ev)
        conn.execute("UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE id = ?",
                     [ev["payload"], ev["prev_hash"], ev["hash"], ev["id"]])
        prev = ev["hash"]
    conn.execute("UPDATE anchors SET digest = (SELECT hash FROM events ORDER BY id DESC "
                 "LIMIT 1) WHERE name = 'events'")


def swap_two_actions(app, sid):
    """Hand 2's first two actions swapped and the chain re-hashed (each keeps
    its answer's digest): a chain that no longer replays."""
    rows = raw(app).execute("SELECT id, payload FROM events WHERE session_id = ? AND hand = 2 "
                            "AND kind = 'action' ORDER BY seq LIMIT 2", [sid]).fetchall()
    texts = [json.loads(payload)["text"] for _, payload in rows]
    swap = {rows[0][0]: texts[1], rows[1][0]: texts[0]}

    def edit(ev):
        if ev["id"] in swap:
            ev["payload"] = json.dumps({**json.loads(ev["payload"]), "action": swap[ev["id"]],
                                        "text": swap[ev["id"]]})
    rehash_with(app, sid, edit)


def verify(app, *extra):
    cache.forget()
    return main(["verify", "--db", app.config["DATABASE"], *extra])


def head_of(client, g):
    return client.get(g.url(), headers=bearer(g.audit)).get_json()["head"]


def test_an_untouched_live_session_verifies_with_its_head(app, client):
    g = played(client)
    head = head_of(client, g)
    assert len(head) == 64
    assert verify(app) == 0
    assert verify(app, "--session", g.sid, "--head", head) == 0
    assert trust.verify_all(storage.connect(app.config["DATABASE"])) == {g.sid: []}


def test_edited_expanded_rules_fail(app, client):
    played(client)
    conn = raw(app)
    rules = json.loads(conn.execute("SELECT rules_expanded FROM sessions").fetchone()[0])
    key = next(k for k, v in rules.items() if isinstance(v, int) and not isinstance(v, bool))
    rules[key] += 1
    conn.execute("UPDATE sessions SET rules_expanded = ?", [json.dumps(rules)])
    assert verify(app) == 1


@pytest.mark.parametrize("column,value", [("stake", "3.5"), ("currency", "EUR"),
                                          ("players", '["Ann","Ben","Zed"]')])
def test_edited_session_columns_fail(app, client, column, value):
    played(client, hands=1)
    raw(app).execute(f"UPDATE sessions SET {column} = ?", [value])
    assert verify(app) == 1


def edit_first_settled(conn, column: str, key: str, value: str) -> None:
    """Set the first player's amount under ``key`` in the first settled
    hand's JSON ``column`` (``result`` or ``running``) to ``value``."""
    n, text = conn.execute(f"SELECT n, {column} FROM hands WHERE {column} IS NOT NULL "
                           "ORDER BY n LIMIT 1").fetchone()
    data = json.loads(text)
    data[key][next(iter(data[key]))] = value
    conn.execute(f"UPDATE hands SET {column} = ? WHERE n = ?", [json.dumps(data), n])


def test_edited_hand_result_fails(app, client):
    played(client)
    edit_first_settled(raw(app), "result", "net", "999.00")
    assert verify(app) == 1


def test_edited_hand_setup_fails(app, client):
    played(client)
    conn = raw(app)
    setup = json.loads(conn.execute("SELECT setup FROM hands WHERE n = 1").fetchone()[0])
    setup["stake_multiplier"] = 5
    conn.execute("UPDATE hands SET setup = ? WHERE n = 1", [json.dumps(setup)])
    assert verify(app) == 1


def test_swapped_event_ids_fail(app, client):
    played(client)
    conn = raw(app)
    a, b = [r[0] for r in conn.execute("SELECT id FROM events WHERE kind = 'action' "
                                       "ORDER BY id DESC LIMIT 2")]
    conn.execute("UPDATE events SET id = -1 WHERE id = ?", [a])
    conn.execute("UPDATE events SET id = ? WHERE id = ?", [a, b])
    conn.execute("UPDATE events SET id = ? WHERE id = -1", [b])
    assert verify(app) == 1


def test_retargeted_correction_fails(app, client):
    played(client)
    conn = raw(app)
    ev_id, payload = conn.execute("SELECT id, payload FROM events WHERE kind = 'correction'"
                                  ).fetchone()
    payload = json.loads(payload)
    payload["cancels"] -= 1
    conn.execute("UPDATE events SET payload = ? WHERE id = ?",
                 [canonical(payload), ev_id])
    assert verify(app) == 1


def test_deleted_last_event_fails_and_fails_its_receipt(app, client):
    g = played(client)
    head = head_of(client, g)
    raw(app).execute("DELETE FROM events WHERE id = (SELECT max(id) FROM events)")
    assert verify(app) == 1
    assert verify(app, "--session", g.sid, "--head", head) == 1


def test_deleted_session_fails(app, client):
    first = played(client, hands=1)
    head = head_of(client, first)
    second = played(client, hands=1)
    conn = raw(app)
    for table in ("events", "seats", "hands", "replies", "sessions"):
        conn.execute(f"DELETE FROM {table} WHERE {'id' if table == 'sessions' else 'session_id'}"
                     " = ?", [first.sid])
    assert verify(app) == 1  # the next session hangs on the deleted one's last event
    assert verify(app, "--session", first.sid, "--head", head) == 1
    assert second.sid != first.sid


def test_rewritten_chain_fails_against_an_earlier_receipt(app, client):
    g = played(client)
    head = head_of(client, g)

    def edit(ev):  # the first action's text, one space longer
        if ev["kind"] == "action" and not edited:
            edited.append(ev["id"])
            payload = json.loads(ev["payload"])
            payload["text"] = payload["text"] + " "
            ev["payload"] = canonical(payload)
    edited: list[int] = []
    rehash_with(app, g.sid, edit)
    assert verify(app) == 0  # a perfect rewrite: only a receipt taken before can tell
    assert verify(app, "--session", g.sid, "--head", head) == 1


def test_verify_refuses_questions_it_cannot_answer(app, client, tmp_path, capsys):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    assert main(["verify", "--db", str(junk)]) == 2
    assert main(["verify", "--db", str(tmp_path / "none.sqlite3")]) == 2
    g = played(client, hands=1)
    assert verify(app, "--session", g.sid, "--head", "xyz") == 2
    assert "Traceback" not in capsys.readouterr().err


def _pdf_text(data: bytes) -> str:
    import io

    from pypdf import PdfReader

    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_the_receipt_is_on_the_pages_and_papers(app, client):
    g = played(client, hands=1, undo=False)
    head = head_of(client, g)
    tok = f"?token={g.audit}"
    settlement = client.get(f"/reports/{g.sid}/settlement.pdf{tok}")
    audit = client.get(f"/reports/{g.sid}/hands/1/audit.pdf{tok}")
    for pdf in (settlement, audit):
        assert pdf.status_code == 200
        assert head in _pdf_text(pdf.data).replace("\n", "")
    tablet = app.test_client()
    with tablet.session_transaction() as s:
        s["unlocked"] = [g.sid]
    for page in (f"/s/{g.sid}/hands/1", f"/s/{g.sid}/standings"):
        r = tablet.get(page)
        assert r.status_code == 200 and head in r.data.decode(), page


def test_the_qr_code_reads_back_the_head():
    from referee.reports.common import receipt

    head = "ab" * 32
    table = receipt(head)[0]._content[0]
    drawing = table._cellvalues[0][0]
    assert len(drawing.contents) > 200  # the dark modules of a version-4 code
    assert receipt(None) == []


def _export(app, sid, tmp_path, capsys):
    assert main(["export", sid, "--db", app.config["DATABASE"], "--chain"]) == 0
    doc = json.loads(capsys.readouterr().out)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc))
    return doc, path


def test_an_exported_log_carries_its_head_and_verifies_offline(app, client, tmp_path,
                                                                capsys):
    g = played(client)
    doc, path = _export(app, g.sid, tmp_path, capsys)
    assert doc["head"] == head_of(client, g)
    assert main(["verify", str(path)]) == 0
    assert doc["head"] in capsys.readouterr().out
    assert main(["replay", str(path), "--json"]) in (0, 1)  # readers ignore the receipt
    capsys.readouterr()


@pytest.mark.parametrize("tamper", ["action", "stake", "head", "event", "drop_last"])
def test_a_tampered_export_fails_offline(app, client, tmp_path, capsys, tamper):
    g = played(client)
    doc, path = _export(app, g.sid, tmp_path, capsys)
    if tamper == "action":
        doc["hands"][0]["actions"][-1] = doc["hands"][0]["actions"][-2]
    elif tamper == "stake":
        doc["stake"] = "3.50"
    elif tamper == "head":
        doc["head"] = "0" * 64
    elif tamper == "event":
        ev = next(e for e in doc["chain"]["events"] if e["kind"] == "action")
        ev["created"] = "2000-01-01T00:00:00.000Z"
    else:
        doc["chain"]["events"].pop()
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_a_plain_log_has_no_head_to_verify(tmp_path, capsys):
    assert main(["verify", "sample_logs/pagat_basic.json"]) == 2
    assert "no head" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tonk-log/1", "head": 5, "chain": []}')
    assert main(["verify", str(bad)]) == 2


def test_a_chain_downgraded_to_format_1_fails(app, client):
    first = played(client, hands=1, undo=False)
    played(client, hands=1, undo=False)
    conn = raw(app)
    # Rewrite the second session's chain in format 1 (no ids, no rules hashed)
    # after editing its rules: without the guard, only a receipt would tell.
    sid = conn.execute("SELECT id FROM sessions WHERE id <> ?", [first.sid]).fetchone()[0]
    cols = [d[0] for d in conn.execute("SELECT * FROM events LIMIT 0").description]
    prev = GENESIS
    for values in conn.execute("SELECT * FROM events WHERE session_id = ? ORDER BY seq",
                               [sid]).fetchall():
        ev = {**dict(zip(cols, values, strict=True)), "chain": 1, "prev_hash": prev}
        ev["hash"] = event_hash(prev, ev)
        conn.execute("UPDATE events SET chain = 1, prev_hash = ?, hash = ? WHERE id = ?",
                     [ev["prev_hash"], ev["hash"], ev["id"]])
        prev = ev["hash"]
    assert verify(app) == 1


def test_sessions_stored_before_the_migration_still_verify(app, client):
    old = played(client, hands=1, undo=False)
    conn = raw(app)
    # As format 1 wrote them: no ids in the hash, the first event on genesis.
    cols = [d[0] for d in conn.execute("SELECT * FROM events LIMIT 0").description]
    prev = GENESIS
    for values in conn.execute("SELECT * FROM events WHERE session_id = ? ORDER BY seq",
                               [old.sid]).fetchall():
        ev = {**dict(zip(cols, values, strict=True)), "chain": 1, "prev_hash": prev}
        ev["hash"] = event_hash(prev, ev)
        conn.execute("UPDATE events SET chain = 1, prev_hash = ?, hash = ? WHERE id = ?",
                     [ev["prev_hash"], ev["hash"], ev["id"]])
        prev = ev["hash"]
    new = played(client, hands=1)
    assert verify(app) == 0
    assert verify(app, "--session", new.sid, "--head", head_of(client, new)) == 0


def _night(client):
    """A session with the table's own events: a stake change, a payment, an
    acceptance, a dispute."""
    g = Game(client, seed=3)
    g.start()
    g.finish_hand()
    for tail, body in [("/hands/1/accept", {"player": "Ann"}),
                       ("/hands/1/disputes", {"action": 1, "by": "Cy", "note": "hm"}),
                       ("/stake", {"stake": "0.50"}),
                       ("/payments", {"from": "Ann", "to": "Ben", "amount": "0.25"})]:
        r = client.post(g.url(tail), json=body, headers=bearer(g.table))
        assert r.status_code == 201, r.get_json()
    return g


@pytest.mark.parametrize("tamper", [
    # a payment that was never made, or made bigger
    "UPDATE sessions SET header = json_set(header, '$.payments[0].amount', '25')",
    # who accepted, and what was disputed
    "UPDATE hands SET setup = json_set(setup, '$.accepted[0]', 'Cy') WHERE n = 1",
    "UPDATE hands SET setup = json_remove(setup, '$.disputes') WHERE n = 1",
    # the stake the next hand will be dealt at
    "UPDATE sessions SET next_stake = '5.00'",
])
def test_edited_table_events_fail(app, client, tamper):
    _night(client)
    assert verify(app) == 0
    raw(app).execute(tamper)
    assert verify(app) == 1


def test_a_hand_dealt_at_a_tampered_stake_fails(app, client):
    g = _night(client)
    raw(app).execute("UPDATE sessions SET next_stake = '5.00'")
    cache.forget()
    g.start()  # dealt at the tampered stake, and that start is chained
    conn = storage.connect(app.config["DATABASE"])
    assert any("stake is not the one the table set" in str(f)
               for f in trust.verify_all(conn)[g.sid])
    assert verify(app) == 1


def test_an_imported_table_plays_on_at_its_last_stake(app, client):
    from pathlib import Path

    doc = json.loads((Path(__file__).parents[1] / "sample_logs" /
                      "ev_stake_change.json").read_text())
    r = client.post("/api/sessions", json=doc)
    assert r.status_code == 201, r.get_json()
    sid, token = r.get_json()["id"], r.get_json()["table_token"]
    last = doc["hands"][-1]
    assert "stake" in last
    from referee.service.table import sessions

    assert token
    with app.app_context():
        from referee.web.db import get_db

        assert sessions.session_summary(get_db(), sid)["next_stake"] == last["stake"]
    assert verify(app) == 0


def test_hand_rows_written_by_the_older_encoder_still_verify(app, client):
    """Rows stored with json.dumps (spaces, ASCII escapes) before the columns
    were written with orjson compare decoded: no fault, and an edit among
    them is still found."""
    played(client)
    conn = raw(app)
    for n, setup, seats, result, running in conn.execute(
            "SELECT n, setup, seats, result, running FROM hands").fetchall():
        conn.execute("UPDATE hands SET setup = ?, seats = ?, result = ?, running = ? "
                     "WHERE n = ?", [json.dumps(json.loads(v)) if v else v
                                     for v in (setup, seats, result, running)] + [n])
    assert conn.execute("SELECT count(*) FROM hands WHERE result LIKE '%\": %'"
                        ).fetchone()[0] > 0
    assert verify(app) == 0
    edit_first_settled(conn, "running", "totals", "999")
    assert verify(app) == 1


def _replied(client):
    """A session whose every kind of write left a stored answer: a hand
    started, actions, an undo (as ``played``), a refusal and a void."""
    g = Game(client, seed=3)
    r = client.post(g.url("/hands"), json={**g.sim.next_setup(), "client_id": "s1"},
                    headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    g.n, g.seq = r.get_json()["hand"], 0
    g.finish_hand()
    g.start()
    g.play(2)
    r = client.post(g.url(f"/hands/{g.n}/undo"), json={"expected_seq": g.seq, "client_id": "u1"},
                    headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    r = g.post("Zed: drop", client_id="refused", expected_seq=g.seq - 1)
    assert r.status_code >= 400
    r = client.post(g.url(f"/hands/{g.n}/void"), json={"reason": "misdeal", "client_id": "v1"},
                    headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    return g


def _forge(conn, kind: str, change) -> str:
    """Edit the stored answer to the first event of ``kind`` with a client id."""
    cid, body = conn.execute(
        "SELECT r.client_id, r.body FROM replies r JOIN events e ON e.session_id = "
        "r.session_id AND e.client_id = r.client_id WHERE e.kind = ? ORDER BY e.id LIMIT 1",
        [kind]).fetchone()
    data = json.loads(body)
    change(data)
    conn.execute("UPDATE replies SET body = ? WHERE client_id = ?", [json.dumps(data), cid])
    return cid


def _other_turn(state):
    # The game state a retry would show, edited: whose turn it is and what
    # each holds; the session, hand and count of actions stay as they were.
    state["turn"] = next(p for p in state["players"] if p != state.get("turn"))
    state["stock"] = state.get("stock", 0) + 1


FORGED = [
    ("action", _other_turn),
    ("correction", _other_turn),
    ("hand_start", lambda state: state.update(dealer="Zed")),
    ("refusal", lambda body: body["error"].update(params={"turn": "Zed", "player": "Ann"})),
    ("void", lambda body: body.update(note="nobody pays")),
]


@pytest.mark.parametrize("kind,change", FORGED, ids=[f[0] for f in FORGED])
def test_a_forged_stored_answer_fails_whatever_it_changes(app, client, kind, change):
    g = _replied(client)
    assert verify(app) == 0
    cid = _forge(raw(app), kind, change)
    faults = trust.verify_session(storage.connect(app.config["DATABASE"]), g.sid)
    assert [f.template for f in faults] == [
        "the stored answer to client id {client_id} differs from its event {event} ({kind}) "
        "in the chain"], faults
    assert faults[0].params["client_id"] == repr(cid) and faults[0].params["kind"] == kind


def test_a_retry_gets_the_answer_the_chain_vouches_for(app, client):
    """The answer's digest rides in its event (``record.chain.REPLY``), and
    its request's (``ASKED``): the stored answer is the one whose digest the
    chain holds, and the event's own fields (the setup, the action, a table
    event's) are read without them."""
    from referee.record.chain import ASKED, REPLY, reply_digest

    g = _replied(client)
    conn = raw(app)
    rows = conn.execute("SELECT e.kind, e.payload, r.body FROM events e JOIN replies r ON "
                        "e.session_id = r.session_id AND e.client_id = r.client_id").fetchall()
    kinds = {kind for kind, _, _ in rows}
    assert {"action", "correction", "hand_start", "refusal", "void"} <= kinds
    for kind, payload, body in rows:
        said = json.loads(payload)
        # A table's event too (it answers with the event itself): issue 34
        # chains its request's digest, and its answer's beside it.
        assert said.get(REPLY) == reply_digest(body) and len(said.get(ASKED, "")) == 64, kind
    setup = conn.execute("SELECT setup FROM hands ORDER BY n DESC LIMIT 1").fetchone()[0]
    assert REPLY not in json.loads(setup) and ASKED not in json.loads(setup)
    (void,) = storage.events.of_kinds(storage.connect(app.config["DATABASE"]), g.sid, ("void",))
    assert void["payload"] == {"reason": "misdeal"}


def _opened_before_the_locks_were_chained(app, sid):
    """The session as the service stored it before its opening event held the
    digest of its locks: that event without ``locks``, its chain hashed so."""
    def edit(ev):
        if ev["kind"] == "session":
            payload = json.loads(ev["payload"])
            del payload["locks"]
            ev["payload"] = json.dumps(payload)
    rehash_with(app, sid, edit)


def test_a_session_opened_before_its_locks_were_chained_is_said_not_covered(app, client,
                                                                           capsys):
    new = played(client, hands=1, undo=False)
    old = played(client, hands=1, undo=False)  # the newest: no chain hangs on its events
    _opened_before_the_locks_were_chained(app, old.sid)
    db = storage.connect(app.config["DATABASE"])
    notes: dict = {}
    assert trust.verify_all(db, notes) == {old.sid: [], new.sid: []}
    assert [n.template for n in notes[old.sid]] == [
        "not covered: its locks (tokens and PIN) were stored before its chain held them, so "
        "verify cannot tell whether they were changed"] and new.sid not in notes
    # Its PIN replaced: nothing in the chain to see it by, and verify says so.
    raw(app).execute("UPDATE sessions SET pin_hash = 'scrypt$00$00' WHERE id = ?", [old.sid])
    capsys.readouterr()
    assert verify(app, "--lang", "de") == 0
    err = capsys.readouterr().err
    assert f"Sitzung {old.sid}: nicht abgedeckt: ihre Schlösser" in err and new.sid not in err
    # The same edit of a session whose chain holds its locks is a fault.
    raw(app).execute("UPDATE sessions SET pin_hash = 'scrypt$00$00' WHERE id = ?", [new.sid])
    assert verify(app) == 1
    said: list = []
    assert trust.verify_session(db, old.sid, notes=said) == [] and len(said) == 1
    capsys.readouterr()
    assert verify(app, "--session", old.sid, "--lang", "fr") == 0
    assert f"session {old.sid}\xa0: non couvert\xa0: ses verrous" in capsys.readouterr().err


def test_a_format_1_session_is_said_not_covered(app, client):
    test_sessions_stored_before_the_migration_still_verify(app, client)
    notes: dict = {}
    db = storage.connect(app.config["DATABASE"])
    assert not any(trust.verify_all(db, notes).values())
    assert [[n.template[:40] for n in said] for said in notes.values()] == [
        ["not covered: it was stored before its ch"]]


def test_verify_s_actions_in_force_are_the_rule_s(app, client):
    """Verify works out the actions in force in one pass of its own, for
    speed (``trust._live_actions``, registered in ``referee/speed``): it must
    say what the rule's one statement says (``record.chain.in_force``, as an
    export's chain is read), over a session with an undo, a settled hand
    corrected after a dispute and the action logged again, and a player
    renamed afterwards (every earlier action names them anew)."""
    from referee.record import chain

    g = Game(client, seed=5)
    g.start()
    g.finish_hand()
    g.correct_last("c")
    assert g.post(str(g.sim.hand.actions[-1])).status_code == 201
    g.seq += 1
    name = g.sim.hand.players[0]
    g.start()
    g.play(2)
    r = client.post(g.url(f"/hands/{g.n}/undo"), json={"expected_seq": g.seq, "client_id": "u1"},
                    headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    r = client.post(g.url(f"/players/{name}"), json={"name": "Renamed"},
                    headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    db = storage.connect(app.config["DATABASE"])
    rows = storage.chain.rows(db, g.sid)
    assert {"correction", "rename"} <= {ev["kind"] for ev in rows}
    fast = trust._live_actions(storage.chain.rows_by_name(db, g.sid))
    rule = chain.live_actions(rows)
    assert any("Renamed" in text for _, text in fast[1])
    assert {n: [text for _, text in v] for n, v in fast.items()} == \
        {n: v for n, v in rule.items() if v}
