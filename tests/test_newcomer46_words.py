"""Newcomer 46's rough edges: a refusal of input that cannot be read named
its code as a rule ("(règle malformed)") on a French tablet, audit page and
paper; such input breaks no rule and its small print says so in words."""

from __future__ import annotations

import html
import re

import pytest

from referee import language
from tests import test_tablet as tt
from tests.reports_fixtures import pdf_text
from tests.test_api import Game

OTHERS = ("de", "fr", "pt")


def _flash(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", " ".join(
        re.findall(r'<p class="flash flash-error"[^>]*>(.*?)</p>', page, re.S))))


@pytest.mark.parametrize("lang", OTHERS)
def test_a_note_too_long_is_said_in_words_not_as_a_rule(client, lang):
    sid = tt.create(client, language=lang)
    tt.start(client, sid, dealer="Ann", client_id="h1")
    data = {"csrf_token": tt.form_value(tt.hand_page(client, sid), "csrf_token")}
    page = client.post(f"/s/{sid}/hands/1/void", data={**data, "reason": "x" * 300,
                                                        "client_id": "v1"},
                       follow_redirects=True).get_data(as_text=True)
    said = _flash(page)
    assert "malformed" not in said and "Reason" not in said, said
    assert language.gettext(lang, "input refused") in said, said
    assert language.gettext(lang, "Why") in said, said
    page = client.post(f"/s/{sid}/hands/1/dispute", data={**data, "by": "Cy", "action": "",
                                                           "note": "y" * 600, "client_id": "d1"},
                       follow_redirects=True).get_data(as_text=True)
    said = _flash(page)
    assert "malformed" not in said and "Dispute" not in said, said
    assert language.gettext(lang, "What is wrong") in said, said


def test_a_refusal_by_a_rule_still_names_the_rule(client):
    sid = tt.create(client, language="fr")
    tt.start(client, sid, deal=tt.CAUGHT_DEAL, upcard="7d")
    tt.act(client, sid, 1, "draw", ["8c"])
    page = tt.act(client, sid, 1, "spread", ["Qs", "4c", "8c"])
    assert "(règle invalid_spread)" in page


def test_an_unreadable_action_on_the_audit_page_and_paper_is_said_in_words(client):
    g = Game(client)
    g.start()
    assert g.post("Ben: discrad Jd").status_code == 422
    tok = f"token={g.audit}&lang=fr"
    page = html.unescape(client.get(f"/reports/{g.sid}/hands/1/audit?{tok}&step=1")
                         .get_data(as_text=True))
    assert "(saisie refusée)" in page
    assert "règle bad_action" not in page
    text = pdf_text(client.get(f"/reports/{g.sid}/hands/1/audit.pdf?{tok}").data)
    assert "saisie refusée" in text and "bad_action" not in text, text


# ---------------------------------------------------------------- an empty body

NO_BODY = "the request has no body: send a JSON object, with the header " \
          "Content-Type: application/json"


@pytest.mark.parametrize("lang", ["en", *OTHERS])
@pytest.mark.parametrize("body,headers", [
    (None, {}), ("", {"Content-Type": "application/json"}),
    (" \n\t ", {"Content-Type": "application/json"}), ("  ", {})])
def test_an_empty_body_is_said_to_be_missing_and_what_to_send(client, lang, body, headers):
    from tests.test_api import assert_error

    r = client.post("/api/sessions", data=body, headers={**headers, "Accept-Language": lang})
    said = assert_error(r, 400, "bad_request")["message"]
    assert said == language.gettext(lang, NO_BODY)
    assert "1" not in said  # no line, no column: nothing was cut short


@pytest.mark.parametrize("lang", ["en", *OTHERS])
@pytest.mark.parametrize("text", ["", "  \n "])
@pytest.mark.parametrize("command", ["import", "replay"])
def test_an_empty_log_file_is_said_empty(tmp_path, capsys, lang, text, command):
    from referee.cli import main

    log = tmp_path / "empty.json"
    log.write_text(text)
    args = [command, str(log), "--lang", lang]
    if command == "import":
        args += ["--db", str(tmp_path / "db.sqlite3")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert language.gettext(lang, "the log is empty: a log is a JSON object, like {example}",
                            example='{"format": "tonk-log/1", ...}') in err, err


# ---------------------------------------------------------------- a deep link through the PIN

def _unlock(client, sid, location: str):
    """Follow a locked page's redirect to the PIN page and type the PIN there."""
    unlock = client.get(location)
    assert unlock.status_code == 302, unlock.status_code
    page = client.get(unlock.headers["Location"]).get_data(as_text=True)
    nxt = html.unescape(tt.form_value(page, "next"))
    r = client.post(f"/s/{sid}/unlock", data={"csrf_token": tt.form_value(page, "csrf_token"),
                                              "pin": tt.PIN, "next": nxt})
    assert r.status_code == 303
    return nxt, r.headers["Location"]


@pytest.mark.parametrize("tail", ["/hands/new?hand=1", "/hands/quick?hand=1",
                                  "/hands/1?step=2&x=%20y"])
def test_a_deep_link_leads_through_the_pin_to_its_page_and_query(app, client, tail):
    sid = tt.create(client)
    other = app.test_client()
    asked = f"/s/{sid}{tail}"
    nxt, landed = _unlock(other, sid, asked)
    assert nxt == asked and landed == asked


@pytest.mark.parametrize("nxt", ["https://evil.example/s/x?hand=1", "//evil.example/x?hand=1",
                                 "/\\evil.example?hand=1", "javascript:alert(1)"])
def test_the_pin_leads_nowhere_off_the_site(app, client, nxt):
    sid = tt.create(client)
    other = app.test_client()
    tok = tt.token(other, f"/s/{sid}/unlock")
    r = other.post(f"/s/{sid}/unlock", data={"csrf_token": tok, "pin": tt.PIN, "next": nxt})
    assert r.headers["Location"] == f"/s/{sid}"


def test_the_club_pages_keep_their_query_through_the_host_key(app):
    app.config["REFEREE_HOST_KEY"] = "club-key"
    client = app.test_client()
    r = client.get("/club/season?a=Ann&b=Ben")
    assert r.status_code == 303
    unlock = r.headers["Location"]
    client.get(unlock)
    with client.session_transaction() as s:
        csrf = s["csrf"]
    r = client.post(unlock, data={"host_key": "club-key", "csrf_token": csrf})
    assert r.status_code == 303 and r.headers["Location"] == "/club/season?a=Ann&b=Ben"
    for off in ("//evil.example/club?a=1", "https://evil.example/club/season"):
        r = client.post("/club/unlock", query_string={"next": off},
                        data={"host_key": "club-key", "csrf_token": csrf})
        assert r.headers["Location"] == "/club", off
