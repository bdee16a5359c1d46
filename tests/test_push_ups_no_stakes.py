"""A push-up table stakes nothing (rules.md, `scoring` push_ups: losers' scores
go up by their counts; the stake multiplies nothing), so nothing it shows
speaks of a stake (pushup45): not the tablet's pages, the TV, the papers,
`referee replay`, `referee sheet` nor the API's stories. A double win is said
by its ending ("Cy scores 0 with a double win (tonk out)"), not as "a win
worth 2 stakes"; where a table with stakes says its stake, a push-up table
says how it scores, in the house-rules sheet's one sentence."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from referee import language
from referee.cli import main
from referee.reports.common import rules_in_words
from referee.reports.words import scoring_line
from referee.rules.ending import OUTCOME_WORDS
from referee.rules.options import resolve

from .reports_fixtures import pdf_text
from .test_api import bearer
from .test_tablet import token

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
# Four hands: a drop won, a tonk out and a deal win paying 2 (double wins), an
# out; a currency named, as a host may well type one for a push-up table.
LOG = {**json.loads((SAMPLES / "push_ups_scores.json").read_text()), "currency": "EUR"}


def _plain(page: str) -> str:
    page = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _stake_word(lang: str) -> re.Pattern:
    """The language's word for a stake, as the papers' "Stake" row names it."""
    word = language.gettext(lang, "Stake")
    return re.compile(rf"(?i)\b{re.escape(word)}")


def _without_rules(text: str, lang: str) -> str:
    """``text`` less the rules' own explanation (the papers list what the
    `scoring` option means: "Stakes paid in money or points, or push-ups")."""
    intro, lines = rules_in_words(resolve("push_ups"), lang)
    for line in [intro, *lines]:
        text = text.replace(" ".join(re.sub(r"<[^>]+>", "", line).split()), " ")
    return text


def _said(sid: str, client, auth: dict) -> dict[str, str]:
    """Everything the table shows, by where it shows it."""
    pages = ["", "/tv", "/standings", "/manage", "/settle", "/hands/new", "/hands/quick",
             *(f"/hands/{n}" for n in range(1, 5))]
    said = {f"/s/{sid}{p}": _plain(client.get(f"/s/{sid}{p}").get_data(as_text=True))
            for p in pages}
    said[f"/reports/{sid}/"] = _plain(client.get(f"/reports/{sid}/").get_data(as_text=True))
    for paper in ["settlement.pdf", "house-rules.pdf", *(f"hands/{n}/audit.pdf"
                                                        for n in range(1, 5))]:
        said[paper] = pdf_text(client.get(f"/reports/{sid}/{paper}").data)
    for n in range(1, 5):
        hand = client.get(f"/api/sessions/{sid}/hands/{n}", headers=auth).get_json()
        said[f"api hand {n}"] = " ".join(hand["result"]["story"])
    return said


@pytest.mark.parametrize("lang", language.LANGUAGES)
def test_a_push_up_table_speaks_of_no_stake(client, tmp_path, capsys, lang):
    log = {**LOG, "language": lang}
    made = client.post("/api/sessions", json=log).get_json()
    sid, auth = made["id"], bearer(made["table_token"])
    r = client.post(f"/s/{sid}/unlock", data={"csrf_token": token(client, f"/s/{sid}/unlock"),
                                              "pin": made["table_token"]})
    assert r.status_code == 303
    said = _said(sid, client, auth)

    path = tmp_path / "push_ups.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    said["referee replay"] = " ".join(capsys.readouterr().out.split())
    assert main(["sheet", str(path), "--pdf", str(tmp_path / "sheet.pdf")]) == 0
    said["referee sheet"] = pdf_text((tmp_path / "sheet.pdf").read_bytes())

    stake = _stake_word(lang)
    for where, text in said.items():
        found = stake.search(_without_rules(text, lang))
        assert not found, (where, text[max(0, found.start() - 200):found.end() + 200])

    # A double win named by its ending, wherever the hand's sentence is read
    # (the API's story is English, as its words are documented).
    tonk_out = language.gettext(lang, OUTCOME_WORDS["tonk_out"])
    assert "(tonk out)" in said["api hand 2"]
    for where in (f"/s/{sid}/hands/2", "referee replay"):
        assert f"({tonk_out})" in said[where], (where, said[where][:3000])
    # Where a table with stakes says its stake, the sheet's sentence.
    line = " ".join(scoring_line(lang).split())  # as the texts were read: spaces folded
    for where in (f"/s/{sid}", f"/s/{sid}/tv", f"/s/{sid}/standings", "referee replay",
                  "referee sheet"):
        assert line in said[where], (where, said[where][:3000])
