"""A copy taken out of the club's books (newcomer45 P4, its second half): a
night imported again on purpose is named "(copy)", but its debts counted in
the club's ledger and balances twice, with no way for the host to take it
out. One club event naming the table takes it out (``copies.take_out``),
from the copy's page, the API and ``referee ledger --take-out``; after it
the club counts the night once and ``referee verify`` still passes. A table
that is no copy, a copy out already and no table at all are refused."""

from __future__ import annotations

import html
from decimal import Decimal

import pytest

from referee import language
from referee.cli import main as cli_main
from referee.service import club, storage, trust
from referee.service.club import copies
from referee.service.errors import NotFound, RuleViolation
from referee.web.db import get_db
from tests.test_api import assert_error
from tests.test_club import KEY, _csrf


@pytest.fixture
def backend():
    """SQLite: ``referee ledger`` and ``referee verify`` read its file."""
    return "sqlite"


def _ledger(client) -> dict:
    return client.get("/api/club/ledger", headers=KEY).get_json()


def _counted_once(client, copied) -> None:
    """The club's ledger counts the night once: the copy's debts are gone,
    the night's stay, each balance is half what the two counted."""
    led = _ledger(client)
    assert {t["session"] for t in led["transfers"]} == {copied["night"]["id"]}
    assert {p: Decimal(v) * 2 for p, v in led["balances"].items()} == {
        p: Decimal(v) for p, v in copied["twice"]["balances"].items()}
    assert len(led["transfers"]) * 2 == len(copied["twice"]["transfers"])


def _verified(app) -> None:
    with app.app_context():
        found = trust.verify_all(get_db())
    assert all(not faults for faults in found.values()), found
    assert cli_main(["verify", "--db", app.config["DATABASE"]]) == 0


def _open_copy_page(client, copy: dict, lang: str = "en") -> str:
    client.post(f"/s/{copy['id']}/unlock", data={"pin": copy["table_token"],
                                                 "csrf_token": _csrf(client)})
    return html.unescape(client.get(f"/s/{copy['id']}?lang={lang}").get_data(as_text=True))


def test_the_service_takes_a_copy_out_once(copied, club_app):
    client = copied["client"]
    copy, night = copied["copy"], copied["night"]
    with club_app.app_context():
        db = get_db()
        assert len(club.people(db)) == 3 and club.people(db)[0]["sessions"] == 2
        done = copies.take_out(db, copy["id"])
        assert done == {"event": done["event"], "kind": "out_of_books", "session": copy["id"],
                        "copy_of": night["id"]}
        assert set(club.out_of_books(db)) == {copy["id"]}
        assert [row["id"] for row in club.tables(db)] == [night["id"]]
        assert club.people(db)[0]["sessions"] == 1
        assert club.season(db)["sessions"] == 1
        with pytest.raises(RuleViolation) as again:
            copies.take_out(db, copy["id"])
        assert again.value.code == "out_already"
        assert "Thursday club is out of the club's books already" in str(again.value)
        with pytest.raises(RuleViolation) as night_out:
            copies.take_out(db, night["id"])
        assert night_out.value.code == "not_a_copy"
        assert "Thursday club is no copy" in str(night_out.value)
        with pytest.raises(NotFound) as nothing:
            copies.take_out(db, "no-such-table")
        assert nothing.value.code == "no_session"
        # Each refusal changed nothing: one event, the copy's.
        assert [ev["kind"] for ev in storage.club.events(db)] == ["out_of_books"]
    _counted_once(client, copied)
    _verified(club_app)


def test_the_api_takes_a_copy_out_and_refuses_clearly(copied, club_app):
    client = copied["client"]
    copy, night = copied["copy"], copied["night"]
    assert_error(client.post("/api/club/out-of-books", json={"session": copy["id"]}), 401)
    r = client.post("/api/club/out-of-books", json={"session": night["id"]}, headers=KEY)
    assert "is no copy" in assert_error(r, 422, "not_a_copy")["message"]
    assert_error(client.post("/api/club/out-of-books", json={"session": "nope"},
                             headers=KEY), 404, "no_session")
    assert_error(client.post("/api/club/out-of-books", json={}, headers=KEY), 400)
    assert_error(client.post("/api/club/out-of-books", json={"session": copy["id"], "x": 1},
                             headers=KEY), 400)
    assert _ledger(client) == copied["twice"]  # the refusals changed nothing
    r = client.post("/api/club/out-of-books", json={"session": copy["id"]}, headers=KEY)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["copy_of"] == night["id"] and r.get_json()["kind"] == "out_of_books"
    _counted_once(client, copied)
    r = client.post("/api/club/out-of-books", json={"session": copy["id"]}, headers=KEY)
    assert "already" in assert_error(r, 422, "out_already")["message"]
    r = client.post("/api/club/out-of-books?lang=fr", json={"session": copy["id"]},
                    headers={**KEY, "Accept-Language": "fr"})
    assert "already" not in assert_error(r, 422, "out_already")["message"]
    _verified(club_app)


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_the_copy_s_page_takes_it_out_behind_the_host_key(copied, club_app, lang):
    client = copied["client"]
    copy, night = copied["copy"], copied["night"]
    page = _open_copy_page(client, copy, lang)
    link = f'href="/club/copies/{copy["id"]}"'
    assert 'id="copy-books"' in page and link in page
    # The night itself is no copy: no such line, no such link.
    client.post(f"/s/{night['id']}/unlock", data={"pin": night["table_token"],
                                                  "csrf_token": _csrf(client)})
    assert 'id="copy-books"' not in client.get(f"/s/{night['id']}").get_data(as_text=True)
    # Behind the host key, as the club's pages are.
    r = client.get(f"/club/copies/{copy['id']}")
    assert r.status_code == 303 and "/club/unlock" in r.headers["Location"]
    r = client.post(f"/club/copies/{copy['id']}", data={"csrf_token": _csrf(client)})
    assert r.status_code == 303 and "/club/unlock" in r.headers["Location"]
    assert _ledger(client) == copied["twice"]
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    # The confirmation first: nothing is taken out by looking at it.
    confirm = html.unescape(client.get(f"/club/copies/{copy['id']}?lang={lang}")
                            .get_data(as_text=True))
    marked = language.gettext(lang, "{table} (copy)", table="Thursday club")
    assert 'id="take-out-yes"' in confirm and marked in confirm
    assert _ledger(client) == copied["twice"]
    r = client.post(f"/club/copies/{copy['id']}?lang={lang}",
                    data={"csrf_token": _csrf(client)})
    assert r.status_code == 303 and r.headers["Location"].endswith("/club")
    ledger = html.unescape(client.get(f"/club?lang={lang}").get_data(as_text=True))
    said = language.gettext(lang, copies.TAKEN_OUT, table=marked)
    assert said in ledger  # the flash
    # Named by the flash and among the club's changes only: no debt is owed at it.
    assert ledger.count(marked) == 2
    _counted_once(client, copied)
    page = _open_copy_page(client, copy, lang)
    assert 'id="copy-books"' in page and link not in page
    assert language.gettext(lang, "This table is a copy of a night stored already: it is "
                            "out of the club's books since {when}, so the club counts the "
                            "night once.", when="")[:20] in page
    # Taken out once: the confirmation says why not again, and a post is refused.
    again = client.get(f"/club/copies/{copy['id']}?lang={lang}")
    assert again.status_code == 422 and 'id="take-out-yes"' not in again.get_data(as_text=True)
    r = client.post(f"/club/copies/{copy['id']}?lang={lang}",
                    data={"csrf_token": _csrf(client)})
    assert r.status_code == 303
    with club_app.app_context():
        assert len(storage.club.events(get_db())) == 1
    _verified(club_app)


def test_the_night_itself_is_refused_on_its_page(copied, club_app):
    client = copied["client"]
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    night = copied["night"]["id"]
    r = client.get(f"/club/copies/{night}")
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422 and "Thursday club is no copy" in body
    assert 'id="take-out-yes"' not in body
    r = client.post(f"/club/copies/{night}", data={"csrf_token": _csrf(client)},
                    follow_redirects=True)
    assert "Thursday club is no copy" in html.unescape(r.get_data(as_text=True))
    r = client.get("/club/copies/no-such-table")
    assert r.status_code in (404, 422) and "no session" in r.get_data(as_text=True)
    assert _ledger(client) == copied["twice"]


def test_referee_ledger_takes_a_copy_out(copied, club_app, capsys):
    db = club_app.config["DATABASE"]
    copy, night = copied["copy"], copied["night"]
    assert cli_main(["ledger", "--db", db, "--take-out", night["id"]]) != 0
    err = capsys.readouterr().err
    assert "not_a_copy" in err and "is no copy" in err
    assert cli_main(["ledger", "--db", db, "--take-out", copy["id"], "--lang", "de"]) == 0
    out, err = capsys.readouterr()
    assert language.gettext("de", copies.TAKEN_OUT,
                            table=language.gettext("de", "{table} (copy)",
                                                   table="Thursday club")) in err
    assert "(" not in out.split("\n", 1)[1]  # no debt is owed at the copy any more
    _counted_once(copied["client"], copied)
    assert cli_main(["ledger", "--db", db, "--take-out", copy["id"]]) != 0
    assert "out_already" in capsys.readouterr().err
    _verified(club_app)
