"""Every paper (settlement, audit, season, house-rules sheet) in every
language stays on its page and keeps its columns apart (issue 35, item 9: the
German season PDF's headings ran into each other and its "Gewinne nach Ende"
table lost its player column off the page's left edge). Read back with
poppler's word boxes (``pdftotext -bbox``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from itertools import combinations

import pytest

from referee.cli import main as cli_main
from referee.devtools.simulate import random_session
from referee.language import LANGUAGES

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="poppler-utils (pdftotext) missing")

# Long names and five of them: the widest the papers get at a table.
NAMES = ["Anna-Lena", "Benedikt", "Clara", "Devendra", "Eleonore"]
PAPERS = ("settle", "audit", "sheet", "season")


@pytest.fixture(scope="module")
def papers(tmp_path_factory):
    """Three weeks of a club (three, four and five players; the last with a
    told hand, two disputes and a stake change) in one database, and every
    paper of the last table and the season in every language."""
    root = tmp_path_factory.mktemp("papers")
    db = str(root / "club.sqlite3")
    for week, day in enumerate(["2026-11-02", "2026-11-09", "2026-11-16"]):
        doc = random_session(200 + week, hands=12, players=NAMES[: 3 + week])
        doc.update(table="Donnerstagsrunde im Vereinsheim", currency="EUR", language="de",
                   started=f"{day}T19:30:00+01:00", closed=f"{day}T23:10:00+01:00")
        if week == 2:
            doc["hands"][2]["disputes"] = [{"action": 1, "by": "Anna-Lena",
                                            "note": "falsche Karte"}]
            doc["hands"][3]["stake"] = "1.00"
        path = root / f"week{week}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        assert cli_main(["import", "--db", db, str(path)]) == 0
    from referee.service import storage
    sid = storage.connect(db).execute(
        "select id from sessions order by rowid desc limit 1").fetchone()[0]
    out = {}
    for lang in LANGUAGES:
        for paper in PAPERS:
            pdf = root / f"{paper}-{lang}.pdf"
            args = {"settle": ["settle", sid], "audit": ["audit", sid, "--hand", "3"],
                    "sheet": ["sheet", sid], "season": ["season", "--currency", "EUR"]}[paper]
            assert cli_main([*args, "--db", db, "--lang", lang, "--pdf", str(pdf)]) == 0
            out[paper, lang] = pdf
    return out


def _pages(pdf) -> list[tuple[float, list[tuple[float, float, float, float, str]]]]:
    """Each page's width and its words' boxes."""
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    pages = []
    for page in re.findall(r'<page width="([\d.]+)".*?</page>', html, re.S):
        pages.append((float(page), []))
    for i, body in enumerate(re.findall(r"<page [^>]*>(.*?)</page>", html, re.S)):
        for x0, y0, x1, y1, word in re.findall(
                r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">'
                r"([^<]*)</word>", body):
            pages[i][1].append((float(x0), float(y0), float(x1), float(y1), word))
    return pages


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("paper", PAPERS)
def test_no_word_runs_off_the_page_or_into_another(papers, paper, lang):
    for n, (width, words) in enumerate(_pages(papers[paper, lang]), 1):
        for x0, _y0, x1, _y1, word in words:
            assert 8 <= x0 and x1 <= width - 8, f"page {n}: {word!r} runs off the page"
        for a, b in combinations(words, 2):
            across = min(a[2], b[2]) - max(a[0], b[0])
            down = min(a[3], b[3]) - max(a[1], b[1])
            # Lines of one paragraph may touch (their boxes are the font's
            # height, more than the leading); words side by side may not.
            assert across <= 0.5 or down <= 0.35 * min(a[3] - a[1], b[3] - b[1]), \
                f"page {n}: {a[4]!r} and {b[4]!r} overlap"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_season_keeps_its_player_columns(papers, lang):
    """Each player is named in both tables of the season (and the chart's
    legend): the wins by ending keep their player column in every language."""
    words = [w for _width, page in _pages(papers["season", lang]) for *_box, w in page]
    for name in NAMES:
        assert words.count(name) >= 3, (name, words.count(name))


def test_the_german_season_says_from_when(papers):
    words = [w for _width, page in _pages(papers["season", "de"]) for *_box, w in page]
    assert words[words.index("Saison") + 1] == "Vom"


def test_two_players_never_share_a_line_style():
    """Each player's line on a chart has its own colour and dashes; the first
    five colours are far apart (the vermillion and the orange side by side
    read as one colour)."""
    from reportlab.lib.colors import Color

    from referee.reports.common import line_style

    styles = [line_style(i) for i in range(20)]
    assert len({(c.hexval(), str(d)) for c, d in styles}) == 20

    def lab(c: Color) -> tuple[float, float, float]:
        def lin(v):
            return ((v + 0.055) / 1.055) ** 2.4 if v > 0.04045 else v / 12.92
        r, g, b = lin(c.red), lin(c.green), lin(c.blue)
        x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

        def f(t):
            return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
        return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))

    first = [lab(c) for c, _d in styles[:5]]
    for a, b in combinations(first, 2):
        assert sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5 > 45
