"""``referee verify`` names each fault in a sentence of the catalogs: every
edit below is caught with its own sentence (the template named here), and the
command line says it in the language asked for (``--lang``), or the table's.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from referee import language
from referee.cli import main
from referee.record.chain import LogChainError, event_hash
from referee.rules.words import Names, Phrases, Words
from referee.service import storage, trust
from referee.service.table import sessions
from referee.service.trust import verify_log

from .test_api import bearer
from .test_trust import played, raw, swap_two_actions, verify


def _templates(words) -> set[str]:
    """Every template in a fault, the phrases inside it too."""
    if isinstance(words, Words):
        return {words.template}.union(*(_templates(v) for v in words.params.values()))
    if isinstance(words, (Names, Phrases)):
        return set().union(*(_templates(v) for v in words))
    return set()


def _first_result(conn, column="result"):
    n, text = conn.execute(f"SELECT n, {column} FROM hands WHERE {column} IS NOT NULL "
                           "ORDER BY n LIMIT 1").fetchone()
    return n, json.loads(text)


def _result_field(conn, _sid):
    n, result = _first_result(conn)
    result["winners"] = ["Zed"]
    conn.execute("UPDATE hands SET result = ? WHERE n = ?", [json.dumps(result), n])


def _result_on_open_hand(conn, _sid):
    _, result = _first_result(conn)
    conn.execute("UPDATE hands SET result = ? WHERE status = 'open'", [json.dumps(result)])


def _running(conn, _sid):
    n, running = _first_result(conn, "running")
    running["totals"] = {p: "77" for p in running["totals"]}
    conn.execute("UPDATE hands SET running = ? WHERE n = ?", [json.dumps(running), n])


def _copy_hand(conn, sid):
    cols = [d[0] for d in conn.execute("SELECT * FROM hands LIMIT 0").description]
    row = dict(zip(cols, conn.execute("SELECT * FROM hands WHERE n = 1").fetchone(),
                   strict=True))
    row["n"] = 9
    conn.execute(f"INSERT INTO hands ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                 list(row.values()))


def _first_event_before(conn, sid):
    # The session's first event hangs on the one stored before it: here the
    # genesis, as if another session's events had been cut away before it.
    first = conn.execute("SELECT id FROM events WHERE session_id = ? ORDER BY seq LIMIT 1",
                         [sid]).fetchone()[0]
    conn.execute("UPDATE events SET id = id + 1000 WHERE session_id = ?", [sid])
    assert first == 1


def _gap(conn, sid, g, app):
    # Another table's events stored between two of this one's, then removed.
    other = sessions.create_session(storage.connect(app.config["DATABASE"]), {
        "stake": "1", "rules": "pagat", "players": ["Ann", "Ben"]})
    r = g.client.post(g.url(f"/hands/{g.n}/void"), json={"reason": "misdeal"},
                      headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    conn.execute("DELETE FROM events WHERE session_id = ?", [other.id])


def _reply_of_no_event(conn, sid):
    conn.execute("UPDATE replies SET client_id = 'nobody' WHERE rowid = "
                 "(SELECT min(rowid) FROM replies WHERE session_id = ?)", [sid])


def _reply_of_another_kind(conn, sid):
    conn.execute("UPDATE replies SET body = json_set(body, '$.seq', 99) WHERE session_id = ?",
                 [sid])


# (what is edited, the SQL or function that edits it, the sentence verify names it with)
EDITS = [
    ("locks", "UPDATE sessions SET pin_hash = 'scrypt$00$00'",
     "the session's locks (its tokens or PIN) differ from its chain"),
    ("column", "UPDATE sessions SET table_name = 'Elsewhere'",
     "the session's {column} differs from its chain"),
    ("next stake", "UPDATE sessions SET next_stake = '9'",
     "the stake for the next hand differs from its chain"),
    ("next seats", "UPDATE sessions SET next_seats = '[\"Ann\"]'",
     "the seats for the next hand differ from its chain"),
    ("hand row gone", "DELETE FROM hands WHERE n = 1", "hand {hand} is in the events only"),
    ("hand row added", _copy_hand, "hand {hand} is in the hands only"),
    ("setup", "UPDATE hands SET setup = json_set(setup, '$.stake_multiplier', 4) WHERE n = 1",
     "hand {hand}'s stored setup differs from its chain"),
    ("last event", "UPDATE hands SET last_event = last_event + 1000 WHERE n = 1",
     "hand {hand}'s newest event {stored} is not the chain's ({chain}): events were removed "
     "or added"),
    ("count of actions", "UPDATE hands SET seq = seq + 1 WHERE n = 1",
     "hand {hand}'s count of actions differs from its chain"),
    ("result field", _result_field,
     "hand {hand}'s stored result differs from the replay of its chain in {fields}"),
    ("result of an open hand", _result_on_open_hand,
     "hand {hand} has a stored result, but the replay of its chain does not settle it"),
    ("result gone", "UPDATE hands SET result = NULL WHERE n = 1",
     "hand {hand} has no stored result, but the replay of its chain settles it"),
    ("result unreadable", "UPDATE hands SET result = '[1]' WHERE n = 1",
     "hand {hand}'s stored result cannot be read as a result"),
    ("running", _running, "hand {hand}'s stored running totals differ from the replay of its "
                          "chain"),
    ("seats", "UPDATE hands SET seats = '[\"Ann\", \"Ben\"]' WHERE n = 1",
     "hand {hand}'s stored seats differ from its chain"),
    ("dealer", "UPDATE hands SET dealer = 'Zed' WHERE n = 1",
     "hand {hand}'s stored dealer differs from its chain"),
    ("status", "UPDATE hands SET status = 'open' WHERE n = 1",
     "hand {hand}'s stored status differs from the replay of its chain"),
    ("session seat rows", "UPDATE seats SET name = 'Zed' WHERE hand = 0 AND position = 0",
     "the session's stored seats differ from its chain"),
    ("hand seat rows", "UPDATE seats SET name = 'Zed' WHERE hand = 1 AND position = 0",
     "hand {hand}'s seat rows differ from its chain"),
    ("everyone", "UPDATE sessions SET everyone = '[\"Ann\"]'",
     "the session's list of everyone seated differs from its chain"),
    ("reply of no event", _reply_of_no_event,
     "the stored answer to client id {client_id} answers no event of the chain"),
    ("reply edited", _reply_of_another_kind,
     "the stored answer to client id {client_id} differs from its event {event} ({kind}) "
     "in the chain"),
    ("payload", "UPDATE events SET payload = 'x' WHERE kind = 'hand_start' AND hand = 1",
     "its hash does not match its contents"),
    ("event deleted", "DELETE FROM events WHERE seq = 3", "event {event} is missing (next is "
                                                           "{next})"),
    ("prev_hash", "UPDATE events SET prev_hash = hash WHERE seq = 4",
     "its prev_hash does not match the previous event's hash"),
    ("first link", f"UPDATE events SET prev_hash = '{'1' * 64}' WHERE seq = 1",
     "its prev_hash does not match the event stored before it"),
    ("event before the session", _first_event_before,
     "event id {id}, stored before this session, is missing"),
    ("id gap", _gap, "event id {id} is missing"),
    ("no events", "DELETE FROM events", "the session has no events"),
]


@pytest.mark.parametrize("what,edit,template", EDITS, ids=[e[0] for e in EDITS])
def test_each_edit_is_named_in_its_own_sentence_in_the_language_asked(
        app, client, capsys, what, edit, template):
    g = played(client)
    conn = raw(app)
    conn.execute("DROP TRIGGER IF EXISTS hands_no_delete")
    if edit is _gap:
        edit(conn, g.sid, g, app)
    elif callable(edit):
        edit(conn, g.sid)
    else:
        conn.execute(edit)
    faults = trust.verify_session(storage.connect(app.config["DATABASE"]), g.sid)
    assert any(template in _templates(f) for f in faults), [str(f) for f in faults]
    fault = next(f for f in faults if template in _templates(f))
    german = language.say(fault, "de")
    assert german != str(fault) and "{" not in german
    capsys.readouterr()
    assert verify(app, "--lang", "de") == 1
    out = capsys.readouterr().out
    assert german in out and str(fault) not in out


def test_a_tampered_table_is_told_in_its_own_language(app, capsys):
    """Without ``--lang``, ``--session`` speaks the table's language."""
    db = storage.connect(app.config["DATABASE"])
    info = sessions.create_session(db, {"stake": "1", "rules": "pagat",
                                        "players": ["Ann", "Ben"], "language": "fr"})
    raw(app).execute("UPDATE sessions SET currency = 'EUR'")
    capsys.readouterr()
    assert verify(app, "--session", info.id) == 1
    assert f"session {info.id}\xa0: currency de la session diffère de sa chaîne" in \
        capsys.readouterr().out


def test_a_receipt_not_in_the_chain_is_said_in_the_language_asked(app, client, capsys):
    g = played(client)
    capsys.readouterr()
    assert verify(app, "--session", g.sid, "--head", "a" * 64, "--lang", "fr") == 1
    assert f"aucune session ici n'a la tête {'a' * 64}\xa0: vérifiez" in capsys.readouterr().out


def test_a_rewritten_chain_that_does_not_replay_says_where_in_german(app, client, capsys):
    g = played(client, undo=False)
    swap_two_actions(app, g.sid)
    capsys.readouterr()
    assert verify(app, "--lang", "de") == 1
    out = capsys.readouterr().out
    assert "das Protokoll der Kette lässt sich nicht nachspielen: Hand 2, Zug 1" in out, out


def _rehashed(doc: dict) -> None:
    """The export's chain hashed again and its head replaced: what a forger
    holding only the file can do."""
    prev = doc["chain"]["start"]
    for ev in doc["chain"]["events"]:
        prev = event_hash(prev, {**ev, "session_id": doc["chain"]["session"]})
    doc["head"] = prev


def _no_header(doc):
    doc["chain"]["events"][0]["kind"] = "hand_start"
    _rehashed(doc)


def _a_hand_more(doc):
    doc["hands"].append(doc["hands"][0])


def _setup(doc):
    doc["hands"][0]["dealer"] = doc["hands"][1]["dealer"]


def _one_hand_less(doc):
    events = doc["chain"]["events"]
    last = max(e["hand"] or 0 for e in events)
    doc["chain"]["events"] = [e for e in events if (e["hand"] or 0) != last]
    for seq, ev in enumerate(doc["chain"]["events"], 1):
        ev["seq"] = seq
    _rehashed(doc)


EXPORT_EDITS = [
    ("head", lambda doc: doc.update(head="0" * 64),
     "the chain hashes to {hash}, not to the log's head {head}"),
    ("event dropped", lambda doc: doc["chain"]["events"].pop(3),
     "event {event} is missing from the chain"),
    ("header", lambda doc: doc.update(stake="3.50"),
     "the log's header is not the one its chain holds"),
    ("no header", _no_header, "the chain does not open with the session's header"),
    ("hands", _one_hand_less, "the log has {log} hands, its chain {chain}"),
    ("setup", _setup, "hand {hand}'s setup is not the one its chain holds"),
    ("actions", lambda doc: doc["hands"][0]["actions"].pop(),
     "hand {hand}'s actions are not the ones its chain holds"),
]


@pytest.mark.parametrize("what,edit,template", EXPORT_EDITS, ids=[e[0] for e in EXPORT_EDITS])
def test_each_edit_of_an_export_is_named_in_the_language_asked(app, client, tmp_path, capsys,
                                                               what, edit, template):
    g = played(client, undo=False)
    assert main(["export", g.sid, "--db", app.config["DATABASE"], "--chain"]) == 0
    doc = json.loads(capsys.readouterr().out)
    edit(doc)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(LogChainError) as caught:
        verify_log(doc)
    assert caught.value.words.template == template
    assert main(["verify", str(path), "--lang", "pt"]) == 1
    out = capsys.readouterr().out
    said = language.say(caught.value.words, "pt")
    assert said != str(caught.value) and said in out, out


CLUB_EDITS = [
    ("spellings", "UPDATE aliases SET person = 'Ann'",
     "the club's merged spellings differ from its chain"),
    ("nicknames", "UPDATE nicknames SET nickname = 'Bo'",
     "the club's nicknames differ from its chain"),
    ("event deleted", "DELETE FROM club_events WHERE seq = 1", "club event {event} is missing"),
    ("event edited", "UPDATE club_events SET payload = '{}' WHERE seq = 2",
     "club event {event}: {fault}"),
]


@pytest.mark.parametrize("what,edit,template", CLUB_EDITS, ids=[e[0] for e in CLUB_EDITS])
def test_each_edit_of_the_club_is_named_in_the_language_asked(tmp_path, capsys, what, edit,
                                                             template):
    from referee.service import club

    path = tmp_path / "club.sqlite3"
    db = storage.connect(path)
    from referee.service.table.table_events import record_payment

    for players in (["Ann", "Ben"], ["Ann", "Bne"]):
        made = sessions.create_session(db, {"stake": "1", "rules": "pagat", "players": players})
        # A table where nothing happened is no session of the club (carry43).
        record_payment(db, made.id, "Ann", players[1], "1")
    club.merge(db, "Bne", "Ben")
    club.nickname(db, "Ben", "Benji")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER club_events_no_update")
    conn.execute("DROP TRIGGER club_events_no_delete")
    conn.execute(edit)
    faults = trust.verify_all(storage.connect(path))[storage.club.CLUB]
    assert [f.template for f in faults] == [template]
    assert main(["verify", "--db", str(path), "--lang", "de"]) == 1
    out = capsys.readouterr().out
    assert language.say(faults[0], "de") in out and "Verein" in out, out


def test_a_receipt_as_its_paper_prints_it_is_found_and_said_held(app, capsys):
    """Newcomer 43's N12: the papers print the head shortened
    ("dcf83f711d4d8b6b…"); typed so, it is the head, and the answer says
    the chain holds it, in the table's language; too short is refused in
    that language too."""
    db = storage.connect(app.config["DATABASE"])
    info = sessions.create_session(db, {"stake": "1", "rules": "pagat",
                                        "players": ["Jürgen", "Zoë"], "language": "de"})
    head = storage.chain.final_hash(db, info.id)
    for typed in (head, head[:16] + "…", head[:20].upper()):
        capsys.readouterr()
        assert verify(app, "--session", info.id, "--head", typed) == 0
        assert f"der Kopf des Belegs {head} steht noch in der Kette der Sitzung" in \
            capsys.readouterr().out
    assert verify(app, "--head", head[:16]) == 0
    assert f"the database still holds the head {head}" in capsys.readouterr().out
    assert verify(app, "--session", info.id, "--head", head[:12]) == 2
    err = capsys.readouterr().err
    assert "fehlerhafte Eingabe: --head nimmt den Kopf eines Belegs" in err and "16" in err
    # a shortened head found nowhere is said not to be here
    other = "0123456789abcdef" if not head.startswith("0123456789abcdef") else "f" * 16
    assert verify(app, "--session", info.id, "--head", other) == 1
    assert f"keine Sitzung hier hat den Kopf {other}" in capsys.readouterr().out


def test_a_result_told_in_older_words_is_no_fault(app, client):
    # A version that rewords a story (push-ups' double win, newcomer 45's
    # recheck) must not make every table stored before it fail verify; its
    # money still must match.
    g = played(client)
    conn = raw(app)
    n, result = _first_result(conn)
    result["story"] = ["Words an older version used."]
    result["story_words"] = [{"template": "Words an older version used.", "params": {}}]
    conn.execute("UPDATE hands SET result = ? WHERE n = ?", [json.dumps(result), n])
    db = storage.connect(app.config["DATABASE"])
    assert trust.verify_session(db, g.sid) == []
    result["net"] = {p: "0" for p in result["net"]}
    conn.execute("UPDATE hands SET result = ? WHERE n = ?", [json.dumps(result), n])
    faults = trust.verify_session(db, g.sid)
    assert any("net" in str(f) for f in faults), [str(f) for f in faults]
