"""An API refusal quotes what was sent and names a seat as a player would
(newcomer46 F8): ``"stake": 1e400`` is quoted as sent, not as "inf"; a
player's field is "players.1 (seat 2)", its path kept in the body's
``field``."""

from __future__ import annotations

import json

import pytest

from referee.cli import main as cli_main

HEADER = '{"format": "tonk-log/1", "rules": "pagat", "players": %s, "stake": %s}'


def _refused(client, body: str, lang: str = "en") -> dict:
    r = client.post("/api/sessions", data=body, headers={
        "Content-Type": "application/json", "Accept-Language": lang})
    assert r.status_code == 400, r.get_json()
    return r.get_json()["error"]


@pytest.mark.parametrize("sent", ["1e400", "-1E+400", "Infinity", "NaN"])
def test_a_number_no_double_holds_is_quoted_as_sent(client, sent):
    for lang, quoted in (("en", f'"{sent}"'), ("de", f"„{sent}“"), ("fr", f"«\u00a0{sent}\u00a0»"),
                         ("pt", f"«{sent}»")):
        error = _refused(client, HEADER % ('["Ann", "Ben"]', sent), lang)
        assert quoted in error["message"] and "inf" not in error["message"].lower().replace(
            sent.lower(), ""), (lang, error)
        assert error["field"] == "stake"


def test_a_player_is_named_by_the_seat_too(client):
    error = _refused(client, HEADER % ('["Ann", "B:n"]', '"1"'))
    assert error["message"].startswith("players.1 (seat 2): ")
    assert error["field"] == "players.1"
    for lang, seat in (("de", "(Platz 2)"), ("fr", "(place 2)"), ("pt", "(lugar 2)")):
        error = _refused(client, HEADER % ('["Ann", ""]', '"1"'), lang)
        assert error["message"].startswith(f"players.1 {seat}"), (lang, error)
        assert error["field"] == "players.1"


def test_a_hand_s_seat_is_named_so_with_its_hand(client):
    log = {"format": "tonk-log/1", "rules": "pagat", "players": ["Ann", "Ben"], "stake": "1",
           "hands": [{"dealer": "Ann", "players": ["Ann", 7], "actions": []}]}
    error = _refused(client, json.dumps(log))
    assert error["hand"] == 1 and error["field"] == "players.1"
    assert "players.1 (seat 2): " in error["message"]


def test_the_command_line_says_the_same_words(tmp_path, capsys):
    log = tmp_path / "log.json"
    log.write_text(HEADER % ('["Ann", "B:n"]', "1e400"))
    assert cli_main(["replay", str(log)]) != 0
    said = capsys.readouterr().err
    assert '"1e400"' in said and "inf" not in said.replace("1e400", "")
    log.write_text(HEADER % ('["Ann", "B:n"]', '"1"'))
    assert cli_main(["replay", str(log)]) != 0
    assert "players.1 (seat 2): " in capsys.readouterr().err
