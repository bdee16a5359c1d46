"""A push-up table's unit said one way (api44): its scores are points (they go
up by counts, never money: docs/decisions.md, "Settlement"), and the pages,
the papers, the text report, the API and the club's CSV all say so, in every
language, whether or not its log names a currency. The settlement paper said
"push-up points", the text report "push-ups", and with a currency the pages
and the API wrote the scores as money."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path

import pytest

from referee import language
from referee.cli import main
from referee.reports.words import scoring_line
from referee.service import club
from referee.web.db import get_db

from .reports_fixtures import pdf_text
from .test_api import bearer
from .test_tablet import token

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
# Push-up scoring and a match to 30, three told hands; a stake of 2, which
# multiplies nothing.
MATCH = {**json.loads((SAMPLES / "opt_match_to_over.json").read_text()), "stake": "2"}


def _said(template: str, lang: str, text: str) -> str:
    """The unit in ``text`` where ``template`` (with ``{unit}``), in ``lang``, says it."""
    words = language.gettext(lang, template)
    pattern = re.escape(words).replace(r"\ ", r"\s+").replace(r"\{unit\}", r"([^()]+?)")
    found = re.search(pattern, text)
    assert found, (words, text[:3000])
    return found.group(1)


@pytest.mark.parametrize("currency", [None, "EUR"])
@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_a_push_up_tables_page_and_paper_name_the_same_unit(app, client, tmp_path, capsys,
                                                              lang, currency):
    log = {**MATCH, "language": lang, **({"currency": currency} if currency else {})}
    points = language.gettext(lang, language.POINTS)
    made = client.post("/api/sessions", json=log).get_json()
    sid, auth = made["id"], bearer(made["table_token"])
    r = client.post(f"/s/{sid}/unlock", data={"csrf_token": token(client, f"/s/{sid}/unlock"),
                                              "pin": made["table_token"]})
    assert r.status_code == 303

    page = html.unescape(client.get(f"/s/{sid}/standings").get_data(as_text=True))
    foot = page[page.find("<tfoot>"):page.find("</tfoot>")]
    on_page = _said("total ({unit})", lang, re.sub(r"<[^>]+>", " ", foot))
    paper = pdf_text(client.get(f"/reports/{sid}/settlement.pdf").data)
    on_paper = _said("Total ({unit})", lang, paper)
    assert on_page == on_paper == points, (on_page, on_paper)
    assert "€" not in page[page.find("<main"):] and "EUR" not in foot

    # The text report (`referee replay`) says how the table scores, not a
    # stake that multiplies nothing (pushup45).
    path = tmp_path / "match.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.endswith(scoring_line(lang)) and points not in head, head

    # The API says the amounts are points (null), as for a table without a currency.
    assert client.get(f"/api/sessions/{sid}", headers=auth).get_json()["currency"] is None
    standings = client.get(f"/api/sessions/{sid}/standings", headers=auth).get_json()
    assert standings["currency"] is None and standings["push_ups"] is True

    # The club counts the scores as points, never with the money of its currency.
    with app.app_context():
        rows = list(csv.DictReader(io.StringIO(club.hands_csv(get_db()))))
    assert rows and {row["currency"] for row in rows} == {club.POINTS}
