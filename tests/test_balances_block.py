"""The settlement's balances are one block: its heading, every player's row
and the line saying what a balance is stand on one page (a German night's
paper had put the last player's row alone on the next page)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from pypdf import PdfReader

from referee.record import load_log
from referee.replay import replay
from referee.reports.settlement import render_settlement

SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "ev_payments_two.json"


def test_the_balances_never_break_across_pages():
    doc = json.loads(SAMPLE.read_text())
    # More payments push the balances down the page: some count puts the
    # page's end inside them, wherever the pages break on this paper.
    seen_first_page, seen_later = False, False
    for k in range(0, 60, 2):
        doc["payments"] = [{"from": "Ann", "to": "Cy", "amount": "0.25", "note": f"round {i}"}
                           for i in range(k)]
        pages = [p.extract_text() for p in
                 PdfReader(io.BytesIO(render_settlement(replay(load_log(doc))))).pages]
        holding = [i for i, text in enumerate(pages) if "A balance is what the player" in text]
        assert len(holding) == 1
        text = pages[holding[0]]
        start = text.rfind("Balances")
        assert start >= 0, (k, "the heading is not on the page of the balances' note")
        rows = text[start:]
        assert all(p in rows for p in doc["players"]), (k, rows[:300])
        seen_first_page |= holding[0] == 0
        seen_later |= holding[0] > 0
    assert seen_first_page and seen_later  # the loop did cross a page's end
