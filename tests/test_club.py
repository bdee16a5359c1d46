"""The club: four weeks of one club's sessions imported through the API (one
opened live with its debts carried), checked against an independent count
made from the logs with the replay: balances, transfers, statistics, CSV,
the season PDF, merging spellings and undoing it, and ``referee ledger``."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections import Counter
from decimal import Decimal

import pytest

from referee.cli import main as cli_main
from referee.devtools.simulate import random_session
from referee.ledger.club import ClubSession, HandLine, club_balances, club_transfers
from referee.replay.sequential import replay_document
from referee.service import club, storage, trust
from referee.web.db import get_db
from tests.reports_fixtures import pdf_text
from tests.test_api import assert_error, bearer


@pytest.fixture
def backend():
    """SQLite, whatever REFEREE_TEST_BACKEND says: some of these tests tamper
    with the SQLite file itself."""
    return "sqlite"

KEY = {"X-Host-Key": "club-key"}
WEEKS = ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"]
SEATS = [["Ann", "Ben", "Cy"], ["Ann", "Ben", "Cy", "Dee"], ["Ann", "Bne", "Cy"]]


def _log(week: int, **extra) -> dict:
    doc = random_session(100 + week, hands=8, players=SEATS[week])
    doc.update(table="Thursday club", started=f"{WEEKS[week]}T20:00:00Z", **extra)
    return doc


@pytest.fixture
def weeks(club_app):
    """The four weeks' logs as stored (week 4 opened live, its debts carried
    from week 3) and their ids and tokens."""
    client = club_app.test_client()
    made, logs = [], []
    for week in range(3):
        extra: dict = {"closed": f"{WEEKS[week]}T23:30:00Z"}
        if week == 0:
            extra["payments"] = [{"from": "Cy", "to": "Ann", "amount": "0.50"}]
        if week == 1:
            owed = client.get(f"/api/sessions/{made[0]['id']}/result",
                              headers=bearer(made[0]["table_token"])).get_json()["transfers"]
            carried: dict[str, Decimal] = {}
            for t in owed:
                carried[t["from"]] = carried.get(t["from"], Decimal(0)) - Decimal(t["amount"])
                carried[t["to"]] = carried.get(t["to"], Decimal(0)) + Decimal(t["amount"])
            extra["brought_forward"] = {p: str(v) for p, v in carried.items()}
            extra["payments"] = [{"from": "Dee", "to": "Ben", "amount": "1.25"}]
        if week == 2:  # debts from before the club used the referee: they count
            extra["brought_forward"] = {"Ann": "-2.00", "Cy": "2.00"}
        doc = _log(week, **extra)
        body = dict(doc)
        if week == 1:
            body.update(brought_forward_from=made[0]["id"],
                        brought_forward_token=made[0]["audit_token"])
        r = client.post("/api/sessions", json=body, headers=KEY)
        assert r.status_code == 201, r.get_json()
        made.append(r.get_json())
        logs.append(doc)
    r = client.post("/api/sessions", json={
        "table": "Thursday club", "stake": "0.25", "currency": "USD", "rules": "pagat",
        "players": ["Ann", "Ben", "Dee"], "started": f"{WEEKS[3]}T20:00:00Z",
        "brought_forward_from": made[2]["id"], "brought_forward_token": made[2]["table_token"]},
        headers=KEY)
    assert r.status_code == 201, r.get_json()
    made.append(r.get_json())
    r = client.post(f"/api/sessions/{made[3]['id']}/payments",
                    json={"from": "Ann", "to": "Dee", "amount": "0.75"},
                    headers=bearer(made[3]["table_token"]))
    assert r.status_code == 201, r.get_json()
    logs.append(client.get(f"/api/sessions/{made[3]['id']}/log",
                           headers=bearer(made[3]["table_token"])).get_json())
    return {"client": client, "made": made, "logs": logs}


def _merge(client, spelling="Bne", into="Ben"):
    with client.application.app_context():
        return club.merge(get_db(), spelling, into)


# ---------------------------------------------------------------- the independent count

def _who(name, merged):
    return "Ben" if merged and name == "Bne" else name


def _expected_balances(logs, merged=True):
    """Totals of the hands as the replay settles them, plus paid, less
    received; brought forward only in week 3 (week 2's and week 4's came
    from weeks 1 and 3 of the same club)."""
    out = Counter()
    for week, doc in enumerate(logs):
        for h in replay_document(doc).hands if doc.get("hands") else ():
            for p, v in h.net.items():
                out[_who(p, merged)] += v
        for pay in doc.get("payments", ()):
            out[_who(pay["from"], merged)] += Decimal(pay["amount"])
            out[_who(pay["to"], merged)] -= Decimal(pay["amount"])
        if week == 2:
            for p, v in doc["brought_forward"].items():
                out[_who(p, merged)] += Decimal(v)
    return {p: v for p, v in out.items()}


def _expected_stats(logs, merged=True):
    stats: dict[str, Counter] = {}
    for doc in logs:
        if not doc.get("hands"):
            continue
        for given, h in zip(doc["hands"], replay_document(doc).hands, strict=True):
            if h.outcome == "void":
                continue
            drops = [a.split(":")[0] for a in given.get("actions", ())
                     if re.fullmatch(r"[^:]+: drop", a)]
            for p, v in h.net.items():
                c = stats.setdefault(_who(p, merged), Counter())
                c["hands"] += 1
                c["won"] += int(p in h.winners)
                c["drops"] += int(p in drops)
                c["drops_won"] += int(p in drops and h.outcome == "drop_won")
                c["caught"] += int(p in drops and h.outcome == "caught")
                c["tonk_outs"] += int(h.outcome == "tonk_out" and p in h.winners)
                c["deal_wins"] += int(h.outcome == "deal_win" and p in h.winners)
                c["money"] += v
                if h.outcome in ("drop_won", "caught", "stock_out") and p in h.counts:
                    c["shows"] += 1
                    c["show_total"] += h.counts[p]
    return stats


# ---------------------------------------------------------------- the ledger

def test_club_balances_and_each_debt_where_it_is_owed(weeks):
    client = weeks["client"]
    _merge(client)
    r = client.get("/api/club/ledger", headers=KEY)
    assert r.status_code == 200, r.get_json()
    led = r.get_json()
    expected = _expected_balances(weeks["logs"])
    got = {p: Decimal(v) for p, v in led["balances"].items()}
    assert {p: v for p, v in got.items() if v} == {p: v for p, v in expected.items() if v}
    assert sum(got.values()) == 0
    assert "Bne" not in got
    # The transfers clear every balance, each one a debt its table owes as
    # its own settle-up says (issue 33: one answer to who pays whom).
    left = dict(got)
    for t in led["transfers"]:
        left[t["from"]] += Decimal(t["amount"])
        left[t["to"]] -= Decimal(t["amount"])
    assert not any(left.values())
    tokens = {m["id"]: m["table_token"] for m in weeks["made"]}
    for t in led["transfers"]:
        table = client.get(f"/api/sessions/{t['session']}/settlement",
                           headers=bearer(tokens[t["session"]])).get_json()
        assert {(_who(o["from"], True), _who(o["to"], True), o["amount"])
                for o in table["owed"]} >= {(t["from"], t["to"], t["amount"])}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_debt_says_at_which_table_and_since_when(weeks, club_app, capsys, lang):
    """The club nets nothing across tables, so one pair may owe at two; the
    command line said "Chris pays Dora 0.50" and "Chris pays Dora 1.00"
    with nothing to tell them apart (newcomer N12). It and the club page
    now say each debt's table and day, in one sentence."""
    from referee import language

    client = weeks["client"]
    transfers = client.get("/api/club/ledger", headers=KEY).get_json()["transfers"]
    assert transfers and all(t["table"] for t in transfers)
    assert cli_main(["ledger", "--db", club_app.config["DATABASE"], "--lang", lang]) == 0
    out = capsys.readouterr().out
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = html.unescape(client.get(f"/club?lang={lang}").get_data(as_text=True))
    for t in transfers:
        said = language.gettext(lang, "at {table}, owed since {when}", table=t["table"],
                                when=language.day(t["since"], lang))
        assert said in out and said in page, (said, out)
    assert out.count(" · ") == len(transfers)


def test_brought_forward_from_the_club_is_not_counted_twice():
    week1 = ClubSession("a", "2026-11-02", ["Ann", "Ben"],
                        [HandLine("out", ("Ann",), {"Ann": Decimal(2), "Ben": Decimal(-2)})])
    week2 = ClubSession("b", "2026-11-09", ["Ann", "Ben"], [],
                        brought_forward={"Ann": Decimal(2), "Ben": Decimal(-2)}, carried=True)
    outside = ClubSession("c", "2026-11-09", ["Ann", "Ben"], [],
                          brought_forward={"Ann": Decimal(1), "Ben": Decimal(-1)})
    assert club_balances([week1, week2]) == {"Ann": Decimal(2), "Ben": Decimal(-2)}
    assert club_balances([week1, outside]) == {"Ann": Decimal(3), "Ben": Decimal(-3)}
    [t] = club_transfers(club_balances([week1, week2]))
    assert (t.payer, t.payee, t.amount) == ("Ben", "Ann", Decimal(2))


def test_referee_ledger_json_is_exactly_the_issue_s_shape(weeks, capsys, club_app):
    path = club_app.config["DATABASE"]
    assert cli_main(["ledger", "--db", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["balances", "transfers"]
    for name, amount in out["balances"].items():
        assert isinstance(name, str) and re.fullmatch(r"-?\d+\.\d{2}", amount)
    assert sum(Decimal(v) for v in out["balances"].values()) == 0
    for t in out["transfers"]:
        assert list(t) == ["from", "to", "amount"]
        assert re.fullmatch(r"\d+\.\d{2}", t["amount"]) and Decimal(t["amount"]) > 0
    # Without the merge, Bne is someone else, and the same as the API says.
    r = weeks["client"].get("/api/club/ledger", headers=KEY).get_json()
    # (the API's transfers also say where and since when their payer owes)
    assert out == {"balances": r["balances"], "transfers": [
        {k: v for k, v in t.items() if k not in ("since", "session", "table")}
        for t in r["transfers"]]}
    assert "Bne" in out["balances"]
    assert all(re.fullmatch(r"2026-11-\d\d", t["since"]) for t in r["transfers"])


def test_mark_paid_records_the_payment_at_the_table_that_owes_it(weeks):
    client = weeks["client"]
    _merge(client)
    led = client.get("/api/club/ledger", headers=KEY).get_json()
    tokens = {m["id"]: m["table_token"] for m in weeks["made"]}
    # The oldest debt, at a closed table: recorded there all the same.
    t = led["transfers"][0]
    r = client.post("/api/club/transfers", json=t, headers=KEY)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["session"] == t["session"]
    table = client.get(f"/api/sessions/{t['session']}/settlement",
                       headers=bearer(tokens[t["session"]])).get_json()
    assert table["closed"] is not None
    assert table["payments"][-1]["note"] == "club settlement"
    assert (t["from"], t["to"]) not in {(_who(o["from"], True), _who(o["to"], True))
                                        for o in table["owed"]}
    after = client.get("/api/club/ledger", headers=KEY).get_json()
    assert Decimal(after["balances"][t["from"]]) == Decimal(led["balances"][t["from"]]) + \
        Decimal(t["amount"])
    assert t not in after["transfers"]
    # What no table owes is refused, and changes nothing.
    r = client.post("/api/club/transfers", json={"from": "Cy", "to": "Ann", "amount": "1"},
                    headers=KEY)
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "not_owed"
    assert client.get("/api/club/ledger", headers=KEY).get_json() == after


def test_the_club_needs_the_host_key(weeks, club_app):
    client = weeks["client"]
    assert client.get("/api/club/ledger").status_code == 401
    assert client.get("/api/club/ledger", headers={"X-Host-Key": "nope"}).status_code == 403
    assert client.get("/club").status_code == 303
    club_app.config["REFEREE_HOST_KEY"] = None
    assert client.get("/api/club/ledger", headers=KEY).status_code == 403
    assert client.get("/club").status_code == 403


# ---------------------------------------------------------------- people

def test_merge_spellings_and_undo(weeks, club_app):
    client = weeks["client"]
    before = client.get("/api/club/ledger", headers=KEY).get_json()["balances"]
    done = _merge(client)
    merged = client.get("/api/club/ledger", headers=KEY).get_json()["balances"]
    assert Decimal(merged["Ben"]) == Decimal(before["Ben"]) + Decimal(before["Bne"])
    with client.application.app_context():
        db = get_db()
        assert club.player(db, "Bne")["name"] == "Ben"
        assert len(club.player(db, "Ben")["sessions"]) == 4
        club.nickname(db, "Ben", "Benji")
        assert storage.club.nicknames(db) == {"Ben": "Benji"}
        # Two names that sat at one table are two people.
        with pytest.raises(Exception, match="same table"):
            club.merge(db, "Cy", "Ann")
        club.undo(db, done["event"])
        assert trust.verify_all(db)[storage.club.CLUB] == []
    assert client.get("/api/club/ledger", headers=KEY).get_json()["balances"] == before


def test_verify_finds_an_edited_alias(weeks):
    client = weeks["client"]
    _merge(client)
    with client.application.app_context():
        db = get_db()
        assert all(not f for f in trust.verify_all(db).values())
        with storage.write(db):
            db.conn.execute("UPDATE aliases SET person = 'Cy' WHERE spelling = 'Bne'")
        assert list(map(str, trust.verify_all(db)[storage.club.CLUB])) == [
            "the club's merged spellings differ from its chain"]


# ---------------------------------------------------------------- the season

def test_season_statistics_against_an_independent_count(weeks):
    client = weeks["client"]
    _merge(client)
    r = client.get("/api/club/season", headers=KEY, query_string={"a": "Ann", "b": "Bne"})
    assert r.status_code == 200, r.get_json()
    season = r.get_json()
    expected = _expected_stats(weeks["logs"])
    assert set(season["players"]) == set(expected)
    for name, st in season["players"].items():
        c = expected[name]
        assert st["hands"] == c["hands"]
        assert sum(st["wins"].values()) == c["won"]
        assert (st["drops"], st["drops_won"], st["caught"]) == (
            c["drops"], c["drops_won"], c["caught"])
        assert (st["tonk_outs"], st["deal_wins"]) == (c["tonk_outs"], c["deal_wins"])
        assert Decimal(st["won"]) + Decimal(st["lost"]) == c["money"]
        if c["shows"]:
            assert Decimal(st["average_show"]) == (
                Decimal(c["show_total"]) / c["shows"]).quantize(Decimal("0.01"))
    assert season["head_to_head"]["players"] == ["Ann", "Ben"]
    # The running balance ends where the ledger stands.
    ledger = client.get("/api/club/ledger", headers=KEY).get_json()["balances"]
    assert {p: Decimal(v) for p, v in season["running"][-1]["balances"].items()} == {
        p: Decimal(v) for p, v in ledger.items()}
    # A date range: only the second and third weeks.
    r = client.get("/api/club/season", headers=KEY,
                   query_string={"from": WEEKS[1], "to": WEEKS[2]}).get_json()
    assert r["sessions"] == 2 and [p["date"] for p in r["running"]] == WEEKS[1:3]
    assert client.get("/api/club/season", headers=KEY,
                      query_string={"from": "nov"}).status_code == 400


def test_hands_csv_has_one_row_per_player_per_hand(weeks):
    client = weeks["client"]
    _merge(client)
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    r = client.get("/club/hands.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert rows[0] == ["date", "session", "hand", "player", "outcome", "won", "dropped",
                       "count", "net", "currency"]
    body = rows[1:]
    assert len(body) == sum(len(h.net) for doc in weeks["logs"] if doc.get("hands")
                            for h in replay_document(doc).hands)
    for row in body:
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", row[0]) and re.fullmatch(r"-?\d+\.\d\d", row[8])
    ledger = list(csv.reader(io.StringIO(client.get("/club/ledger.csv").get_data(as_text=True))))
    assert ledger[0] == ["kind", "player", "to", "amount", "currency"]
    assert sum(Decimal(r[3]) for r in ledger[1:] if r[0] == "balance") == 0


def _another_currency(client, currency: str | None) -> None:
    """A table of Ann and Ben played in another currency than the weeks'
    USD (``None``: for points)."""
    doc = random_session(9, hands=2, players=["Ann", "Ben"])
    if currency is None:
        del doc["currency"]
    else:
        doc["currency"] = currency
    assert client.post("/api/sessions", json=doc, headers=KEY).status_code == 201


def _csrf(client):
    client.get("/club/unlock")
    with client.session_transaction() as s:
        return s["csrf"]


def test_the_pages_and_the_season_pdf(weeks):
    client = weeks["client"]
    token = _csrf(client)
    r = client.post("/club/unlock?next=/club/season", data={"host_key": "club-key",
                                                             "csrf_token": token})
    assert r.status_code == 303 and r.headers["Location"].endswith("/club/season")
    page = client.get("/club").get_data(as_text=True)
    assert "Who pays whom now" in page and "Mark paid" in page
    r = client.post("/club/merge", data={"spelling": "Bne", "into": "Ben", "csrf_token": token})
    assert r.status_code == 303
    assert "Bne is Ben" in client.get("/club").get_data(as_text=True)
    page = client.get("/club/season?a=Ann&b=Ben").get_data(as_text=True)
    assert "<svg" in page and "Ann against Ben" in page
    assert "Nov 23, 2026" in client.get("/club/people/Ben").get_data(as_text=True)
    r = client.get("/club/season.pdf")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")
    text = pdf_text(r.data)
    assert "The season" in text and "Running balance after each session" in text
    for name in ("Ann", "Ben", "Cy", "Dee"):
        assert name in text


def test_referee_season_writes_the_pdf_and_csv(weeks, club_app, tmp_path, capsys):
    path = club_app.config["DATABASE"]
    pdf, hands = tmp_path / "season.pdf", tmp_path / "hands.csv"
    assert cli_main(["season", "--db", path, "--from", WEEKS[0], "--to", WEEKS[3],
                     "--pdf", str(pdf), "--csv", str(hands)]) == 0
    assert "4 sessions in USD" in capsys.readouterr().out
    assert "The season" in pdf_text(pdf.read_bytes())
    assert hands.read_text().splitlines()[0].startswith("date,session,hand,player")


def test_verify_finds_an_edited_brought_forward_link(weeks):
    week2 = weeks["made"][1]["id"]
    with weeks["client"].application.app_context():
        db = get_db()
        assert trust.verify_session(db, week2) == []
        with storage.write(db):
            db.conn.execute("UPDATE sessions SET brought_forward_from = NULL WHERE id = ?",
                            (week2,))
        assert list(map(str, trust.verify_session(db, week2))) == [
            "the session's brought_forward_from differs from its chain"]


def test_a_later_table_with_both_spellings_keeps_them_apart(weeks):
    client = weeks["client"]
    _merge(client)
    doc = random_session(7, hands=3, players=["Ben", "Bne", "Cy"])
    doc["started"] = "2026-11-30T20:00:00Z"
    assert client.post("/api/sessions", json=doc, headers=KEY).status_code == 201
    balances = client.get("/api/club/ledger", headers=KEY).get_json()["balances"]
    assert "Bne" in balances and sum(Decimal(v) for v in balances.values()) == 0


def test_currencies_are_never_added(weeks, club_app, capsys):
    client = weeks["client"]
    _another_currency(client, None)
    r = client.get("/api/club/ledger", headers=KEY)
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "several_currencies"
    usd = client.get("/api/club/ledger", headers=KEY, query_string={"currency": "USD"})
    points = client.get("/api/club/ledger", headers=KEY, query_string={"currency": "points"})
    assert usd.status_code == points.status_code == 200
    assert set(points.get_json()["balances"]) == {"Ann", "Ben"}
    path = club_app.config["DATABASE"]
    assert cli_main(["ledger", "--db", path]) == 2
    said = capsys.readouterr().err
    assert said.startswith("ambiguous [several_currencies]: "), said  # not a "malformed log"
    assert cli_main(["ledger", "--db", path, "--currency", "points", "--json"]) == 0


def test_the_club_pages_open_on_the_currency_most_tables_play_in(weeks):
    """A table opened in another currency made /club and /club/season a 400
    that asked to choose with no way to; they open on the most played one
    and link the others (the API and the command line still ask)."""
    client = weeks["client"]
    _another_currency(client, "€")
    token = _csrf(client)
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": token})
    for path, usual in (("/club", "Every table in USD"),
                        ("/club/season", 'name="currency" value="USD"')):
        r = client.get(path)
        page = r.get_data(as_text=True)
        assert r.status_code == 200, page[:500]
        assert usual in page, path
        assert f'href="{path}?currency=%E2%82%AC"' in page, path
    for path in ("/club/ledger.csv", "/club/hands.csv", "/club/season.pdf"):
        assert client.get(path).status_code == 200, path
    assert client.get("/club", query_string={"currency": "€"}).status_code == 200


def test_a_club_page_reads_the_tables_once(weeks, monkeypatch):
    """The club's pages read every session's row once a request: the usual
    currency, the currency picked, the currencies linked, the people and
    the ledger each listed every table again (five reads of each row on
    /club), the same rows each time."""
    client = weeks["client"]
    _another_currency(client, "€")
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    listed = []
    every = storage.sessions.ids
    monkeypatch.setattr(storage.sessions, "ids", lambda db: listed.append(1) or every(db))
    for path in ("/club", "/club/season", "/club/ledger.csv", "/club/hands.csv",
                 "/club/season.pdf", "/club?currency=%E2%82%AC"):
        listed.clear()
        r = client.get(path)
        assert r.status_code == 200, path
        assert len(listed) == 1, (path, len(listed))


def test_a_linked_table_s_export_still_verifies_offline(weeks, club_app, tmp_path, capsys):
    path = club_app.config["DATABASE"]
    week2 = weeks["made"][1]["id"]
    assert cli_main(["export", week2, "--db", path, "--chain"]) == 0
    log = tmp_path / "week2.json"
    log.write_text(capsys.readouterr().out)
    assert cli_main(["verify", str(log)]) == 0


def test_the_club_s_events_are_append_only_and_chained(weeks):
    import sqlite3

    client = weeks["client"]
    _merge(client)
    with client.application.app_context():
        db = get_db()
        with pytest.raises(sqlite3.IntegrityError, match="append-only"), storage.write(db):
            db.conn.execute("DELETE FROM club_events")
        # An edit that slips past the trigger (dropped, say) breaks the hash.
        with storage.write(db):
            db.conn.execute("DROP TRIGGER club_events_no_update")
            db.conn.execute("UPDATE club_events SET payload = "
                            "'{\"into\":\"Cy\",\"spelling\":\"Bne\"}'")
        assert list(map(str, trust.verify_all(db)[storage.club.CLUB])) == [
            "club event 1: its hash does not match its contents"]


def test_mark_paid_and_undo_from_the_pages(weeks):
    client = weeks["client"]
    token = _csrf(client)
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": token})
    done = _merge(client)
    led = client.get("/api/club/ledger", headers=KEY).get_json()
    t = next((t for t in led["transfers"] if {t["from"], t["to"]} <= {"Ann", "Ben", "Dee"}),
             None)
    if t is not None:
        r = client.post("/club/paid", data={**t, "currency": "USD", "csrf_token": token})
        assert r.status_code == 303
        assert "Recorded" in client.get("/club").get_data(as_text=True)
    r = client.post("/club/undo", data={"event": str(done["event"]), "csrf_token": token})
    assert r.status_code == 303
    assert "Bne" in client.get("/api/club/ledger", headers=KEY).get_json()["balances"]
    # Undone twice: there is nothing left to undo, said on the ledger's page.
    r = client.post("/club/undo", data={"event": str(done["event"]), "csrf_token": token})
    assert r.status_code == 303 and r.headers["Location"].endswith("/club")
    assert "flash-error" in client.get("/club").get_data(as_text=True)
    # A form from elsewhere (no CSRF token) is refused.
    assert client.post("/club/merge", data={"spelling": "Bne", "into": "Ben"}).status_code == 400


# ---------------------------------------------------------------- people through the API
# The same merges, nicknames and undo as the pages, with the host key,
# refusals in the API's error shape, each one a club event verify folds again.

def _people(client) -> dict[str, dict]:
    r = client.get("/api/club/people", headers=KEY)
    assert r.status_code == 200, r.get_json()
    return {p["name"]: p for p in r.get_json()["people"]}


def test_merge_nickname_and_undo_through_the_api(weeks):
    client = weeks["client"]
    before = client.get("/api/club/ledger", headers=KEY).get_json()["balances"]
    assert {"Ben", "Bne"} <= set(_people(client))
    r = client.post("/api/club/merges", json={"spelling": "Bne", "into": "Ben"}, headers=KEY)
    assert r.status_code == 201, r.get_json()
    merged = r.get_json()
    assert merged["kind"] == "merge" and merged["spelling"] == "Bne"
    now = _people(client)
    assert "Bne" not in now and now["Ben"]["spellings"] == ["Bne"]
    assert now["Ben"]["sessions"] == 4
    balances = client.get("/api/club/ledger", headers=KEY).get_json()["balances"]
    assert Decimal(balances["Ben"]) == Decimal(before["Ben"]) + Decimal(before["Bne"])

    r = client.post("/api/club/nicknames", json={"person": "Ben", "nickname": "Benji"},
                    headers=KEY)
    assert r.status_code == 201 and r.get_json()["nickname"] == "Benji"
    assert _people(client)["Ben"]["nickname"] == "Benji"
    r = client.post("/api/club/nicknames", json={"person": "Ben", "nickname": None},
                    headers=KEY)
    assert r.status_code == 201 and _people(client)["Ben"]["nickname"] is None

    r = client.post("/api/club/undo", json={"event": merged["event"]}, headers=KEY)
    assert r.status_code == 201 and r.get_json()["undoes"] == merged["event"]
    assert client.get("/api/club/ledger", headers=KEY).get_json()["balances"] == before
    assert "Bne" in _people(client)
    with client.application.app_context():
        assert trust.verify_all(get_db())[storage.club.CLUB] == []


@pytest.mark.parametrize("path,body,status,code", [
    ("/api/club/merges", {"spelling": "Zed", "into": "Ben"}, 422, "unknown_player"),
    ("/api/club/merges", {"spelling": "Ben", "into": "Ben"}, 422, "same_person"),
    ("/api/club/merges", {"spelling": "Cy", "into": "Ann"}, 422, "same_table"),
    ("/api/club/merges", {"spelling": "Bne"}, 400, "bad_request"),
    ("/api/club/merges", {"spelling": "Bne", "into": "Ben", "x": 1}, 400, "bad_request"),
    ("/api/club/nicknames", {"person": "Zed", "nickname": "B"}, 422, "unknown_player"),
    ("/api/club/nicknames", {"person": "Ben", "nickname": ""}, 400, "bad_request"),
    ("/api/club/undo", {"event": 999}, 422, "nothing_to_undo"),
    ("/api/club/undo", {"event": "1"}, 400, "bad_request"),
])
def test_refusals_change_nothing(weeks, path, body, status, code):
    client = weeks["client"]
    with client.application.app_context():
        events = len(storage.club.events(get_db()))
    r = client.post(path, json=body, headers=KEY)
    assert_error(r, status, code)
    with client.application.app_context():
        assert len(storage.club.events(get_db())) == events


def test_the_people_api_needs_the_host_key(weeks):
    client = weeks["client"]
    assert client.get("/api/club/people").status_code == 401
    assert client.post("/api/club/merges", json={"spelling": "Bne", "into": "Ben"},
                       headers={"X-Host-Key": "nope"}).status_code == 403


def test_the_operations_are_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path, method in [("/api/club/people", "get"), ("/api/club/merges", "post"),
                         ("/api/club/nicknames", "post"), ("/api/club/undo", "post")]:
        assert method in paths[path], path


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_player_whose_name_spells_a_card_keeps_it_in_the_head_to_head(weeks, lang):
    """Sentences write the parameters that hold cards as the pages write
    cards (Q♦), chosen by the parameter's name; the head to head named its
    second player by one of those names, so a player called "As" read as
    "A♠" on the season's paper."""
    from referee.reports.season import render_season

    season = weeks["client"].get("/api/club/season?a=Ann&b=Ben", headers=KEY).get_json()
    h2h = season["head_to_head"]
    rename = {"Ann": "Ad", "Ben": "As"}
    h2h["players"] = [rename[p] for p in h2h["players"]]
    for key in ("wins", "won_from"):
        h2h[key] = {rename.get(p, p): v for p, v in h2h[key].items()}
    text = pdf_text(render_season(season, lang))
    assert "A♠" not in text and "A♦" not in text
    assert text.count("As") >= 2 and text.count("Ad") >= 2


def test_season_pdf_and_text_in_another_language(weeks, club_app, tmp_path, capsys):
    path = club_app.config["DATABASE"]
    pdf = tmp_path / "saison.pdf"
    assert cli_main(["season", "--db", path, "--from", WEEKS[0], "--to", WEEKS[3],
                     "--pdf", str(pdf), "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "4 Sitzungen in USD: Vom 02.11.2026 bis 23.11.2026" in out
    # Without dates the span is the paper's own sentence, not pieces of one.
    assert cli_main(["season", "--db", path, "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "in USD: Vom ersten Tisch bis zum letzten" in out, out
    assert "der ersten" not in out
    text = pdf_text(pdf.read_bytes())
    assert "Die Saison" in text and "Laufender Saldo nach jeder Sitzung" in text
    assert "The season" not in text and "Each player" not in text
    assert cli_main(["ledger", "--db", path, "--lang", "fr"]) == 0
    assert "Soldes (USD\xa0; positif\xa0: le club leur doit)" in capsys.readouterr().out
    client = weeks["client"]
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    r = client.get("/club/season.pdf?lang=pt")
    assert r.status_code == 200 and "A temporada" in pdf_text(r.data)


def test_the_season_counts_told_hands_drops_and_catches(club_app):
    """Ben drops twice in hands told by their ending, once caught: the season
    says so (issue 35, item 8: it read drops from logged actions only)."""
    client = club_app.test_client()
    doc = {"format": "tonk-log/1", "table": "Told", "stake": "0.50", "currency": "EUR",
           "rules": "pagat", "players": ["Ann", "Ben", "Cy"],
           "started": "2026-11-02T20:00:00Z", "hands": [
               {"dealer": "Ann", "ending": {"how": "drop", "by": "Ben",
                                            "counts": {"Ann": 20, "Ben": 6, "Cy": 30}}},
               {"dealer": "Ben", "ending": {"how": "drop", "by": "Ben",
                                            "counts": {"Ann": 4, "Ben": 9, "Cy": 30}}},
               {"dealer": "Cy", "ending": {"how": "tonk_out", "by": "Ann"}}]}
    r = client.post("/api/sessions", json=doc, headers=KEY)
    assert r.status_code == 201, r.get_json()
    season = client.get("/api/club/season", headers=KEY).get_json()
    ben = season["players"]["Ben"]
    assert (ben["drops"], ben["drops_won"], ben["caught"]) == (2, 1, 1)
    assert season["players"]["Ann"]["drops"] == 0


def test_one_day_s_tables_count_in_the_order_they_opened(club_app):
    """Five tables of one evening, stored latest first: the season's running
    balance adds them in the order they were played (by the moment each
    opened, whatever its offset), not by their ids, which are random (the
    newcomer's chart drew the second table of a night before the first)."""
    client = club_app.test_client()
    winners = ["Ann", "Ben", "Cy", "Ann", "Ben"]
    # Each hour's table, the latest first; one written in UTC+2.
    for hour in (22, 21, 20, 19, 18):
        started = (f"2026-11-02T{hour + 2}:00:00+02:00" if hour == 20
                   else f"2026-11-02T{hour}:00:00Z")
        doc = {"format": "tonk-log/1", "table": f"{hour}h", "stake": "1", "currency": "EUR",
               "rules": "pagat", "players": ["Ann", "Ben", "Cy"], "started": started,
               "hands": [{"dealer": "Cy" if winners[hour - 18] != "Cy" else "Ann",
                          "ending": {"how": "tonk_out", "by": winners[hour - 18]}}]}
        r = client.post("/api/sessions", json=doc, headers=KEY)
        assert r.status_code == 201, r.get_json()
    running = client.get("/api/club/season", headers=KEY).get_json()["running"]
    so_far: dict[str, Decimal] = {}
    for point, winner in zip(running, winners, strict=True):
        for p in ("Ann", "Ben", "Cy"):
            so_far[p] = so_far.get(p, Decimal(0)) + (Decimal(4) if p == winner else Decimal(-2))
        assert {p: Decimal(v) for p, v in point["balances"].items()} == so_far


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_the_average_show_column_says_what_it_averages(weeks, lang):
    """Issue 35 leftovers: "Avg show" ("Compte moyen", "Contagem média") did
    not say what it counts: the label names the count and what it is per
    (the hands the player showed), on the page and on the paper alike."""
    from referee import language

    client = weeks["client"]
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = client.get(f"/club/season?lang={lang}").get_data(as_text=True)
    table = page[page.index('id="season-table"'):page.index("</thead>")]
    label = re.findall(r"<th[^>]*>([^<]*)</th>", table)[-1]
    for word in ("count", "hand"):
        assert language.gettext(lang, word).lower() in label.lower(), label
    paper = pdf_text(client.get(f"/club/season.pdf?lang={lang}").data)
    assert all(word in paper for word in label.split()), (label, paper[:600])


@pytest.mark.parametrize("lang", ["en", "de", "pt"])
def test_the_season_in_text_says_each_player_as_the_page_does(club_app, capsys, lang):
    """Newcomer N13: `referee season` wrote "lost 9.00" where the page and
    the paper write -9.00 under "Lost". It says each player's figures as
    they do, each under the page's own heading ("Hands 1", not "1 hands")."""
    from referee import language

    client = club_app.test_client()
    doc = random_session(9, hands=1, players=["Ann", "Ben"])
    assert client.post("/api/sessions", json=doc, headers=KEY).status_code == 201
    assert cli_main(["season", "--db", club_app.config["DATABASE"], "--lang", lang]) == 0
    said = dict(line.strip().split(": ", 1) for line in capsys.readouterr().out.splitlines()
                if line.startswith("  "))
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = client.get(f"/club/season?lang={lang}").get_data(as_text=True)
    rows = re.findall(r'<tr><td><a [^>]*>([^<]*)</a></td>(.*?)</tr>', page, re.S)
    assert sorted(name for name, _ in rows) == sorted(said) == ["Ann", "Ben"]
    lost = 0
    for name, row in rows:
        cells = dict(re.findall(r'data-label="([^"]*)">([^<]*)</td>', row))
        for heading in ("Won", "Lost", "Hands"):
            label = language.gettext(lang, heading)
            assert f"{label} {cells[label]}" in said[name].split(", "), (said[name], cells)
        lost += cells[language.gettext(lang, "Lost")].startswith("-")
    assert lost  # one of the two lost the hand: the sign is said as the page says it


HEAD_TO_HEAD = {"en": r"Ann won (\d+) of the (\d+) hands and \S+ from Ben\.",
                "de": r"Ann gewann (\d+) von (\d+) Händen und \S+ von Ben\."}


@pytest.mark.parametrize("lang", sorted(HEAD_TO_HEAD))
def test_head_to_head_says_whose_hands_and_of_how_many(weeks, lang):
    """Newcomer N13: "Jürgen won 3.00 from Anna (3 hands won)" read as hands
    won from Anna; they were every hand he won of those both played (the
    shared stock out among them). The page and the paper say so: "Ann won 3
    of the 12 hands and 4.50 from Ben"."""
    client = weeks["client"]
    _merge(client)
    h2h = client.get("/api/club/season?a=Ann&b=Ben", headers=KEY).get_json()["head_to_head"]
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = client.get(f"/club/season?a=Ann&b=Ben&lang={lang}").get_data(as_text=True)
    paper = pdf_text(client.get(f"/club/season.pdf?a=Ann&b=Ben&lang={lang}").data)
    for text in (page, " ".join(paper.split())):
        found = re.search(HEAD_TO_HEAD[lang], text)
        assert found, text[-800:]
        assert tuple(map(int, found.groups())) == (h2h["wins"]["Ann"], h2h["hands"])


def test_the_club_says_points_in_the_readers_language(weeks):
    """Newcomer N17: the club's pages wrote its tables played for points in
    English and as money ("Jeder Tisch in points", "Anna 6,00 points"); they
    say points as a points table's pages do, where money says its currency."""
    client = weeks["client"]
    _another_currency(client, None)
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    ledger = client.get("/club?currency=points&lang=de").get_data(as_text=True)
    season = client.get("/club/season?currency=points&lang=de").get_data(as_text=True)
    usual = client.get("/club?lang=de").get_data(as_text=True)
    assert "Jeder Tisch in Punkten:" in ledger and "1 Sitzung in Punkten." in season
    assert ">Punkte</a>" in usual  # the link to the other "currency"
    amounts = re.findall(r'<td class="num">([^<]*)</td>', ledger)
    assert amounts and all(a.endswith((" Punkte", " Punkt")) for a in amounts), amounts
    assert "points" not in ledger.split("</h1>", 1)[1].replace("currency=points", "")


def _one_evening(client, players=("Ann", "Ben", "Cy", "Dee")):
    """Three tables of one evening, Ann tonking out at each: Ben, Cy and Dee
    stand alike all season."""
    for hour in (18, 19, 20):
        doc = {"format": "tonk-log/1", "table": f"Table at {hour}", "stake": "1",
               "currency": "EUR", "rules": "pagat", "players": list(players),
               "started": f"2026-11-02T{hour}:00:00+01:00",
               "hands": [{"dealer": "Dee", "ending": {"how": "tonk_out", "by": "Ann"}}]}
        r = client.post("/api/sessions", json=doc, headers=KEY)
        assert r.status_code == 201, r.get_json()


@pytest.mark.parametrize("lang, hours", [("en", ("6:00 PM", "7:00 PM", "8:00 PM")),
                                         ("de", ("18:00", "19:00", "20:00"))])
def test_the_season_chart_tells_one_evenings_tables_and_alike_players_apart(
        club_app, lang, hours):
    """Newcomer N13: an evening's three tables read "11/29 11/29 11/29", the
    page's chart marked no amount, and players who stood alike drew one
    line. Each of one day's sessions is labelled with the hour its table
    opened (its own clock), on the page and the paper; the page's axis marks
    the amounts; every player's line is drawn where the others' are not."""
    from referee import language

    client = club_app.test_client()
    _one_evening(client)
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = client.get(f"/club/season?lang={lang}").get_data(as_text=True)
    chart = page[page.index("<svg"):page.index('<ul class="plain chart-key">')]
    days = [re.sub(r"<[^>]+>", " ", t).split()
            for t in re.findall(r'<text[^>]*class="day">(.*?)</text>', chart)]
    day = language.short_day("2026-11-02", lang)
    assert [" ".join(d) for d in days] == [f"{day} {hour}" for hour in hours], days
    amounts = re.findall(r'<text[^>]*class="amount">([^<]*)</text>', chart)
    marked = [Decimal(language.read_decimal(a, lang)) for a in amounts]
    # From below the lowest balance (Ben's -6) to above the highest (Ann's 18), 0 among them.
    assert marked[0] <= -6 and marked[-1] >= 18 and 0 in marked, amounts
    lines = re.findall(r'<polyline[^>]*points="([^"]*)"', chart)
    assert len(lines) == 4 and len(set(lines)) == 4, lines
    paper = " ".join(pdf_text(client.get(f"/club/season.pdf?lang={lang}").data).split())
    assert all(f"{day} {hour}" in paper for hour in hours), paper[-600:]


def test_one_tables_odd_decimals_leave_every_other_amount_in_cents(club_app):
    """Newcomer44 P9: one table's stake of 0.123 EUR made the club's pages
    write every amount, every other table's too, with three places
    ("Dev 3,000 / -4,615")."""
    client = club_app.test_client()
    for table, stake, players in (("Odd", "0.123", ["Ann", "Ben"]),
                                  ("Round", "1", ["Cy", "Dee"])):
        doc = {"format": "tonk-log/1", "table": table, "stake": stake, "currency": "EUR",
               "rules": "pagat", "players": players, "started": "2026-11-21T20:00:00Z",
               "hands": [{"dealer": players[1], "ending": {"how": "tonk_out",
                                                          "by": players[0]}}]}
        assert client.post("/api/sessions", json=doc, headers=KEY).status_code == 201
    led = client.get("/api/club/ledger", headers=KEY).get_json()
    assert led["balances"] == {"Ann": "0.246", "Ben": "-0.246", "Cy": "2.00", "Dee": "-2.00"}
    season = client.get("/api/club/season", headers=KEY).get_json()
    assert season["players"]["Cy"]["won"] == "2.00" and season["players"]["Ann"]["won"] == "0.246"
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = client.get("/club/season").get_data(as_text=True)
    amounts = re.findall(r"-?\d+\.\d+", page[page.find("<main"):])
    assert {"2.00", "-2.00", "0.246", "-0.246"} <= set(amounts) and "2.000" not in amounts


def test_a_season_with_wrong_dates_is_refused_on_its_own_form(weeks):
    """Newcomer45 P10b: a season that ends before it starts led to a bare
    "Not accepted" page away from the form, and a date that is not one was
    ignored (the whole season shown). Both are refused on the season's own
    form, naming the field, with what was typed kept; the API and the
    downloads say the same words."""
    from html import unescape

    client = weeks["client"]
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    cases = [({"from": WEEKS[3], "to": WEEKS[0]}, "bad_range", "to"),
             ({"from": "garbage"}, "bad_date", "from"),
             ({"to": "2026-13-01"}, "bad_date", "to")]
    said = {}
    for query, code, field in cases:
        for lang in ("en", "de", "fr", "pt"):
            r = client.get("/club/season", query_string={**query, "lang": lang})
            page = r.get_data(as_text=True)
            assert r.status_code == 400, (query, lang)
            error = re.search(r'id="season-error">([^<]*)<', page)
            assert error, (query, lang, page[:3000])
            sentence = unescape(error.group(1))
            # The same words from the API, in the same language.
            api = client.get("/api/club/season", headers={**KEY, "Accept-Language": lang},
                             query_string=query)
            assert api.status_code == 400 and api.get_json()["error"]["code"] == code
            assert api.get_json()["error"]["message"] == sentence, (query, lang)
            # The form is there, the field named and marked, a real date kept.
            assert re.search(rf'name="{field}" value="[^"]*" aria-invalid="true"', page)
            for k, v in query.items():
                assert f'name="{k}" value="{v}"' in page, (k, v)
            assert 'id="season-table"' not in page  # nothing shown as if asked
            said[query.get("from"), query.get("to"), lang] = sentence
            for download in ("/club/hands.csv", "/club/season.pdf"):
                r = client.get(download, query_string=query)
                assert r.status_code == 303 and "/club/season?" in r.headers["Location"]
    assert said[WEEKS[3], WEEKS[0], "en"] == (
        f"To: {WEEKS[0]} is before {WEEKS[3]}, so the season would end before it starts")
    assert said["garbage", None, "en"] == "From: 'garbage' is not a date as YYYY-MM-DD"
    assert said[None, "2026-13-01", "de"].startswith("Bis: '2026-13-01'")
    assert len({v for (a, b, lang), v in said.items() if a == "garbage"}) == 4
    # A right range still shows its season.
    page = client.get("/club/season", query_string={"from": WEEKS[1], "to": WEEKS[2]})
    assert page.status_code == 200 and 'id="season-table"' in page.get_data(as_text=True)
