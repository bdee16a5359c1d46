"""A table is named one way wherever a person reads of it (newcomer N10):
its name; a table without one by who sat at it and when it opened, in the
reader's language (``reports.words.table_named``), never by its id: a
closed table's settlement, read from its exported log, said "Übertragen an
Tisch 99d616c06d21"; the pages of a table opened without a name were headed
"Table 99d616c06d21", the club's ledger said "at Table ...", its mark-paid
"at table 99d616c06d21"."""

from __future__ import annotations

import json
import re

from referee.cli import main as cli_main
from referee.replay import replay
from referee.reports.text import format_report
from tests.money_tables import carry, get, made, open_table, out_by, paper_text
from tests.reports_fixtures import pdf_text
from tests.test_pay import unlock

WHEN = r"\d{4}-\d\d-\d\d \d\d:\d\d UTC"
GERMAN_WHEN = r"\d\d\.\d\d\.\d{4} \d\d:\d\d UTC"


def _night(client):
    """Ann owes Ben at the Kitchen table; the debt is carried on to a table
    opened without a name."""
    first = open_table(client, players=("Ann", "Ben"), table="Kitchen table")
    out_by(client, first, "Ben")
    second = made(carry(client, first, ("Ann", "Ben")))
    return first, second


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_carry_read_from_the_log_alone_names_the_table_by_when_it_opened(client, tmp_path,
                                                                           capsys):
    first, second = _night(client)
    log = get(client, first, "/log")
    report = format_report(session := replay(log), session.result(), "en")
    assert re.search(rf"Carried on to Table opened {WHEN}: Ann -1\.00 USD, Ben 1\.00 USD",
                     report), report
    path = tmp_path / "first.json"
    path.write_text(json.dumps({**log, "language": "de"}))
    assert cli_main(["settle", str(path), "--pdf", str(tmp_path / "first.pdf")]) == 0
    paper = pdf_text((tmp_path / "first.pdf").read_bytes())
    assert re.search(rf"Übertragen an Tisch, eröffnet {GERMAN_WHEN}", paper), paper
    assert second["id"] not in report + paper
    capsys.readouterr()


def test_a_table_without_a_name_is_named_by_its_players_and_its_opening(client, capsys):
    first, second = _night(client)
    title = rf"Table with Ann and Ben, opened {WHEN}"
    unlock(client, second["id"], second["token"])
    unlock(client, first["id"], first["token"])
    for path in ("", "/settle", "/standings", "/tv", "/manage", "/hands/new"):
        page = _text(client.get(f"/s/{second['id']}{path}").get_data(as_text=True))
        assert re.search(title, page), path
        assert f"Table {second['id']}" not in page, path
    old = _text(client.get(f"/s/{first['id']}/settle").get_data(as_text=True))
    assert re.search(rf"Carried on to {title}: Ann -\$1\.00, Ben \$1\.00", old), old
    assert second["id"] not in paper_text(client, first)
    assert re.search(rf"Reports: {title}", _text(client.get(
        f"/reports/{second['id']}/").get_data(as_text=True)))
    assert re.search(rf"Settlement: {title}", paper_text(client, second))
    home = _text(client.get("/").get_data(as_text=True))
    assert re.search(title, home) and "Kitchen table" in home
    german = _text(client.get(f"/s/{second['id']}?lang=de").get_data(as_text=True))
    assert re.search(rf"Tisch mit Ann und Ben, eröffnet {GERMAN_WHEN}", german)
    db = client.application.config["DATABASE"]
    out_by(client, second, "Ben")  # owed at the table without a name now
    assert cli_main(["ledger", "--db", db]) == 0
    said = capsys.readouterr().out
    assert re.search(rf"at {title}, owed since", said), said
    assert second["id"] not in said
