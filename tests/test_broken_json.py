"""Newcomer 45's P7: a JSON body that does not read is said to be malformed,
and where (line, column), in the reader's language, on the API as on the
command line; a body that reads but is no object is not blamed on its
Content-Type."""

from __future__ import annotations

import json

import pytest

from referee import language
from referee.cli import main
from referee.record.json_text import BREAKS, CUT
from referee.rules.words import Words

from .test_api import assert_error

LANGS = ["en", "de", "fr", "pt"]
THE_BODY = Words("the body")
CUT_BODY = '{"format": "tonk-log/1", "players": ["A"'


def _post(client, body: str, lang: str):
    return client.post("/api/sessions", data=body, headers={
        "Content-Type": "application/json", "Accept-Language": lang})


@pytest.mark.parametrize("lang", LANGS)
def test_a_cut_body_is_said_cut_and_where(client, lang):
    said = assert_error(_post(client, CUT_BODY, lang), 400, "bad_request")["message"]
    assert said == language.gettext(lang, CUT, what=THE_BODY, line=1, column=41)
    assert "Content-Type" not in said
    if lang != "en":
        assert "Expecting" not in said and "line" not in said


@pytest.mark.parametrize("lang", LANGS)
def test_a_body_broken_inside_says_what_and_where(client, lang):
    body = '{"format": "tonk-log/1",\n  "players": ["A" "B"]}'
    said = assert_error(_post(client, body, lang), 400, "bad_request")["message"]
    assert said == language.gettext(lang, BREAKS, what=THE_BODY, line=2, column=19,
                                    problem=Words("a ',' is missing"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_json_string_body_is_not_blamed_on_its_header(client, lang):
    """A client that encodes the object twice (a JSON string of its text)."""
    said = assert_error(_post(client, json.dumps(CUT_BODY), lang), 400, "bad_request")
    assert said["message"] == language.gettext(
        lang, "the body must be a JSON object, not {what}", what=Words("a string"))


def test_a_body_without_its_content_type_still_names_it(client):
    said = assert_error(client.post("/api/sessions", data=CUT_BODY), 400, "bad_request")
    assert "Content-Type: application/json" in said["message"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_cut_log_file_says_where_in_the_language_asked(tmp_path, capsys, lang):
    """(A log that does not read names no language of its own.)"""
    log = tmp_path / "cut.json"
    log.write_text('{\n  "format": "tonk-log/1",\n  "players": [\n    "Ann",\n    "Be')
    assert main(["replay", str(log), "--lang", lang]) != 0
    err = capsys.readouterr().err
    assert language.gettext(lang, BREAKS, what=Words("the log"), line=5, column=5,
                            problem=Words("a string that opens here is never closed")) in err
