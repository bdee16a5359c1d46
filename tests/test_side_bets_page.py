"""A settled hand's side bets on the tablet: where each pot went, in the
reader's language, and the hand's nets with the pots in them, as the
replay's result (``tonk-result/1``) and the totals count them."""

from __future__ import annotations

import html
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from referee.service.table import sessions

SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "opt_side_bets.json"


def imported(app, client, doc: dict) -> str:
    """The session of ``doc``, stored and unlocked on this browser."""
    with app.app_context():
        info = sessions.import_log(app.extensions["referee"]["db"], doc, pin="4321")
    page = client.get(f"/s/{info.id}/unlock").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    client.post(f"/s/{info.id}/unlock", data={"csrf_token": csrf, "pin": "4321"})
    return info.id


@pytest.fixture
def table(app, client):
    return imported(app, client, json.loads(SAMPLE.read_text()))


def side_bet_lines(page: str) -> list[str]:
    found = re.search(r'<ul class="story" id="side-bets">(.*?)</ul>', page, re.S)
    return [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", found.group(1))] \
        if found else []


def nets(page: str) -> dict[str, Decimal]:
    rows = re.findall(r'<tr><td>(\w+)</td><td class="num">[^<]*</td>\s*'
                      r'<td class="num">([^<]*)</td></tr>', page)
    # a points table's net says its unit, as money says its currency ("2 points")
    return {name: Decimal(value.split()[0].replace("\u2212", "-")) for name, value in rows}


def test_each_hand_says_where_its_pots_went_and_counts_them(client, table):
    expected = json.loads(SAMPLE.with_suffix(".expected.json").read_text())["hands"]
    said = []
    for line in expected:
        page = client.get(f"/s/{table}/hands/{line['hand']}").get_data(as_text=True)
        assert nets(page) == {p: Decimal(v) for p, v in line["net"].items()}
        said.append(side_bet_lines(page))
    assert said == [
        # Cards as the tablet writes every card.
        ["Side bet (the highest heart dealt): Ben was dealt K\u2665, the highest heart dealt "
         "and takes the pot of 3.",
         "Side bet (the first to spread): nobody in the bet laid a spread; the pot of 3 "
         "carries over."],
        ["Side bet (the first to spread): Cy laid the first spread and takes the pot of 6."],
    ]


@pytest.mark.parametrize("lang,heading,words", [
    ("de", "Wetten", "gewinnt die Kasse von 3"),
    ("fr", "Paris annexes", "remporte le pot de 3"),
    ("pt", "Apostas paralelas", "leva o pote de 3"),
])
def test_the_side_bets_are_said_in_the_readers_language(client, table, lang, heading,
                                                        words):
    page = client.get(f"/s/{table}/hands/1?lang={lang}").get_data(as_text=True)
    assert f"<h3>{heading}</h3>" in page
    lines = side_bet_lines(page)
    assert len(lines) == 2 and words in lines[0]
    assert not any("Side bet" in line or "takes the pot" in line for line in lines)


def test_a_hand_without_side_bets_has_no_such_lines(app, client):
    doc = json.loads(SAMPLE.read_text())
    for setup in doc["hands"]:
        del setup["side_bets"]
    sid = imported(app, client, doc)
    page = client.get(f"/s/{sid}/hands/1").get_data(as_text=True)
    assert 'id="result"' in page and 'id="side-bets"' not in page
    # Without the pots, the hand's nets are the result's own.
    assert nets(page) == {"Ann": Decimal(-1), "Ben": Decimal(2), "Cy": Decimal(-1)}
