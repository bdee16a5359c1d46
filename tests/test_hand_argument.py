"""A hand asked for that the log does not have is the argument's fault, not
the log's (newcomer 44's P19): `referee audit LOG --hand 9` said
"malformed log" of a log that was fine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import language
from referee.cli import main

LOG = Path(__file__).resolve().parent.parent / "sample_logs" / "pagat_basic.json"
HANDS = len(json.loads(LOG.read_text())["hands"])
SAID = (f"no such hand [no_such_hand]: the session has {HANDS} hand"
        f"{'' if HANDS == 1 else 's'}; there is no hand {HANDS + 1}")


@pytest.mark.parametrize("command", [["audit", "--pdf", "-"], ["audit", "--json"],
                                     ["whatif", "--rules", "washington"]])
def test_a_hand_the_log_has_not_is_no_such_hand_not_a_malformed_log(command, capsys, tmp_path):
    name, *rest = command
    status = main([name, str(LOG), "--hand", str(HANDS + 1), *rest])
    said = capsys.readouterr()
    assert status == 2  # a wrong argument, as argparse's own
    if "--json" in rest:
        error = json.loads(said.out)["error"]
        assert (error["code"], error["hand"]) == ("no_such_hand", None)
    else:
        assert said.err.strip() == SAID, said.err
    assert "malformed" not in said.err + said.out


def test_the_same_from_a_stored_session(capsys, tmp_path):
    db = tmp_path / "t.sqlite3"
    assert main(["import", str(LOG), "--db", str(db)]) == 0
    sid = capsys.readouterr().out.strip()
    assert main(["audit", sid, "--db", str(db), "--hand", str(HANDS + 1), "--pdf", "-"]) == 2
    assert capsys.readouterr().err.strip() == SAID


def test_its_kind_is_said_in_every_language():
    for lang in ("de", "fr", "pt"):
        assert language.gettext(lang, "no such hand") != "no such hand"




@pytest.mark.parametrize("command", [["audit", "--pdf", "-"], ["audit", "--json"],
                                     ["whatif", "--rules", "washington"]])
@pytest.mark.parametrize("lang", [lang for lang in language.LANGUAGES if lang != "en"])
def test_the_paper_commands_refuse_in_the_readers_language(command, lang, capsys, tmp_path):
    """``--lang`` says a paper command's refusal in that language, as
    ``referee replay`` does; without it, the log's own language does."""
    name, *rest = command
    own = tmp_path / "own.json"
    own.write_text(json.dumps({**json.loads(LOG.read_text()), "language": lang}))
    sentence = language.gettext(lang, "the session has {hands} hands; there is no hand "
                                "{number}", hands=HANDS, number=HANDS + 1)
    assert sentence != SAID.split(": ", 1)[1]
    for log, asked in ((LOG, ["--lang", lang]), (own, [])):
        assert main([name, str(log), "--hand", str(HANDS + 1), *asked, *rest]) == 2
        said = capsys.readouterr()
        if "--json" in rest:
            error = json.loads(said.out)["error"]
            assert (error["code"], error["message"]) == ("no_such_hand", sentence)
        else:
            kind = language.gettext(lang, "no such hand")
            assert said.err.strip() == f"{kind} [no_such_hand]: {sentence}", said.err
