"""The audit's step view numbers each step by its event, as its paper does
(retell45): it said "taken out by event 14" and printed no event number
anywhere, so the reader could not find event 14; the paper has an "Event"
column. Both number a step by one statement (``step_numbers``, under
``STEP_NUMBERS``' headings), in every language."""

from __future__ import annotations

import re
from html import unescape

import pytest

from referee import language
from referee.language import LANGUAGES
from referee.reports.audit import audit_hand
from referee.reports.stored import load_stored
from referee.web.db import get_db
from tests.reports_fixtures import pdf_text
from tests.test_audit_takes import _corrected


def _cells(row: str) -> list[str]:
    return [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", c))).strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]


def _steps(page: str) -> tuple[list[str], list[list[str]]]:
    """The step list's heading and rows, cell by cell."""
    found = re.search(r'<table[^>]*class="[^"]*steps-list[^"]*"[^>]*>(.*?)</table>', page, re.S)
    assert found, "the step view lists its steps in no table with their numbers"
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", found.group(1), re.S)
    return _cells(rows[0]), [_cells(r) for r in rows[1:]]


def _named_events(page: str, lang: str) -> set[int]:
    """The events the page's "replaces event N" and "taken out by event N" name."""
    text = unescape(re.sub(r"<[^>]+>", " ", page)).replace("\xa0", " ")
    out = set()
    for sentence in ("replaces event {n}", "taken out by event {n}"):
        said = re.escape(language.gettext(lang, sentence, n="\x00")).replace("\x00", r"(\d+)")
        out.update(int(n) for n in re.findall(said, text))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_step_shows_its_event_number_as_the_paper_does(app, client, lang):
    sid = _corrected(client)
    with app.app_context():
        stored = load_stored(get_db(), sid)
        steps = audit_hand(stored.log, 1, stored.hand_events(1)).steps
    events = [("" if s.seq is None else str(s.seq)) for s in steps]
    for k in (0, len(steps) - 1):
        page = client.get(f"/reports/{sid}/hands/1/audit?step={k}&lang={lang}").data.decode()
        head, rows = _steps(page)
        assert head[:2] == ["#", language.gettext(lang, "Event")]
        assert [row[1] for row in rows] == events
        named = _named_events(page, lang)
        assert named, "the corrected hand names no event taken out"
        assert named <= {int(e) for e in events if e}, (named, events)
    paper = " ".join(pdf_text(client.get(f"/reports/{sid}/hands/1/audit.pdf?lang={lang}")
                              .data).split())
    assert language.gettext(lang, "Event") in paper
    assert _named_events(paper, lang) == named  # the paper names the same events
