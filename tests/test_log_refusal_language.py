"""Newcomer 45's P6: a log's refusals in the reader's language. The schema's
own refusals (marshmallow's messages, as the record module words them) were
said in English in every language ("format: must be equal to tonk-log/1"
in a Portuguese replay), and ``referee import`` answered a French log in
English where ``referee replay`` answered in French."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import language
from referee.cli import main
from referee.rules.words import Words

SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "dc_low_deal.json"
OTHERS = ["de", "fr", "pt"]

# A log edited into a schema refusal: the edit, the field named, marshmallow's
# message as the record words it (its template and values), and its English.
SCHEMA_REFUSALS = [
    ({"format": "tonk-log/2"}, "format", Words("must be equal to {other}", other="tonk-log/1"),
     "must be equal to tonk-log/1"),
    ({"table": ""}, "table", Words("length must be between {min} and {max}", min=1, max=200),
     "length must be between 1 and 200"),
    ({"currency": "X" * 17}, "currency",
     Words("length must be between {min} and {max}", min=1, max=16),
     "length must be between 1 and 16"),
]


def _log(tmp_path, name="log.json", **changes) -> str:
    doc = json.loads(SAMPLE.read_text())
    doc.update(changes)
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False))
    return str(path)


def _refused(capsys, *argv: str) -> str:
    assert main(list(argv)) != 0
    return capsys.readouterr().err


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize(("edit", "field", "problem", "english"), SCHEMA_REFUSALS)
def test_a_schema_refusal_is_said_in_the_readers_language(tmp_path, capsys, lang, edit, field,
                                                          problem, english):
    asked = _refused(capsys, "replay", _log(tmp_path, **edit), "--lang", lang)
    written = _refused(capsys, "replay", _log(tmp_path, "de.json", language=lang, **edit))
    said = language.gettext(lang, "{field}: {problem}", field=field, problem=problem)
    assert english not in asked and said in asked, asked
    assert said in written, written


@pytest.mark.parametrize(("edit", "field", "problem", "english"), SCHEMA_REFUSALS)
def test_a_schema_refusal_keeps_its_english(tmp_path, capsys, edit, field, problem, english):
    assert f"{field}: {english}" in _refused(capsys, "replay", _log(tmp_path, **edit))


@pytest.mark.parametrize("lang", ["en", *OTHERS])
@pytest.mark.parametrize("edit", [{"format": "tonk-log/2"}, {"hands": [{
    "dealer": "Ann", "deal": {"Ann": ["Zz", "8d", "7h", "6s", "5c"],
                              "Ben": ["Kc", "Kd", "Qh", "Js", "Th"],
                              "Cy": ["2c", "3d", "4h", "5s", "6c"]}, "actions": []}]}])
def test_import_answers_in_the_logs_language_as_replay_does(tmp_path, capsys, lang, edit):
    log = _log(tmp_path, language=lang, **edit)
    db = str(tmp_path / "referee.sqlite3")
    assert _refused(capsys, "import", log, "--db", db) == _refused(capsys, "replay", log)
    # --lang first, as replay reads it
    other = "pt" if lang != "pt" else "de"
    assert _refused(capsys, "import", log, "--db", db, "--lang", other) == \
        _refused(capsys, "replay", log, "--lang", other)
