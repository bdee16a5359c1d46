"""Settlement and hand-audit PDFs, read back with pypdf."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from referee.cli import main
from referee.devtools.samplegen import make_session
from referee.record import load_log
from referee.replay import replay
from referee.reports.audit import audit_hand, render_audit
from referee.reports.common import log_fingerprint
from referee.reports.settlement import render_settlement
from referee.rules.cards import pretty
from tests.reports_fixtures import HAND_1, PLAYERS, pdf_reader, pdf_text, session_log

HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


@pytest.fixture(scope="module")
def settlement_pdf() -> bytes:
    return render_settlement(replay(session_log()), final_hash=HASH)


def test_settlement_prints_names_totals_transfers_and_hash(settlement_pdf):
    text = pdf_text(settlement_pdf)
    for name in PLAYERS:
        assert name in text
    assert "Café Zoë, table 3" in text
    assert "$0.25" in text
    # Final totals, in the players' order.
    assert "José -0.75" in text
    assert "Jürgen -1.75" in text
    assert "Zoë 1.75" in text
    assert "Łukasz 0.75" in text
    # The fewest payments that settle up.
    assert "José pays Łukasz $0.75" in text
    assert "Jürgen pays Zoë $1.75" in text
    assert HASH in text


def test_settlement_hand_table_and_rules(settlement_pdf):
    text = pdf_text(settlement_pdf)
    assert "Preset pagat (the typical game)" in text
    # Hand 1: caught; net and (count) per player.
    assert "-1.50 (10)" in text and "1.00 (6)" in text
    assert "drop won" in text
    assert "Signatures" in text


def test_settlement_metadata(settlement_pdf):
    meta = pdf_reader(settlement_pdf).metadata
    assert meta.title == "Tonk settlement: Café Zoë, table 3, 2026-11-21 20:00 UTC"
    assert meta.author == "Tonk referee"
    assert "José, Jürgen, Zoë, Łukasz" in meta.subject


def test_settlement_draws_all_text_in_the_embedded_unicode_font(settlement_pdf):
    for page in pdf_reader(settlement_pdf).pages:
        fonts = {k: str(v.get_object()["/BaseFont"])
                 for k, v in page["/Resources"]["/Font"].items()}
        content = page.get_contents().get_data()
        # reportlab sets a default font for tables without drawing in it;
        # what matters is the font of every text object that shows text.
        for block in content.split(b"BT")[1:]:
            block = block.split(b"ET")[0]
            if b"Tj" not in block and b"TJ" not in block:
                continue
            for name in re.findall(rb"(/\S+) [\d.]+ Tf", block):
                assert "DejaVuSans" in fonts[name.decode()], fonts[name.decode()]


def test_settlement_is_reproducible_byte_for_byte():
    log = session_log()
    first = render_settlement(replay(log), final_hash=HASH)
    second = render_settlement(replay(session_log()), final_hash=HASH)
    assert first == second


def test_settlement_rules_that_differ_are_listed():
    log = session_log()
    log["rules"] = {"preset": "rushville", "stock_out": "dead"}
    text = pdf_text(render_settlement(replay(log)))
    assert "Preset rushville (Hank T Hebhoe, Rushville IN)" in text
    for option in ("deal_wins", "out_pays", "boobed", "caught_pays", "stock_out_tie",
                   "stock_out"):
        assert option in text
    # the value in words, the option's code name kept beside its own words
    assert "Caught (caught): pay the beaters (standard: double to the beaters, and the " \
        "lowest collect 1 from each)" in " ".join(text.split())
    assert "Dealt five face cards: 2 stakes" in text


def test_settlement_from_a_log_file_prints_its_fingerprint():
    log = session_log()
    text = pdf_text(render_settlement(replay(log)))
    assert log_fingerprint(log) in text


def test_settlement_header_repeats_on_every_page_of_a_long_session():
    session = replay(load_log(make_session(150, seed=3)))
    reader = pdf_reader(render_settlement(session))
    # The pages that hold hands' rows ("62 Jürgen caught Zoë ..."), wherever
    # the summary and the signatures end.
    names = "|".join(map(re.escape, session.table.everyone))
    row = re.compile(rf"^\d+ ({names}) ", re.M)
    table_pages = [t for t in (p.extract_text() for p in reader.pages) if row.search(t)]
    assert len(table_pages) >= 3
    for text in table_pages:
        assert "Hand Dealer Outcome Winners" in " ".join(text.split())


def test_many_players_turn_the_page_to_landscape():
    players = ("Maximilian Alexander von Hohenstein", "Ann", "Ben", "Zoë", "Łukasz",
               "José María", "Jürgen", "Cy")
    session = replay(load_log(make_session(5, players=players)))
    page = pdf_reader(render_settlement(session)).pages[0]
    assert page.mediabox.width > page.mediabox.height


def test_empty_session_renders():
    log = session_log()
    log["hands"] = []
    text = pdf_text(render_settlement(replay(log)))
    assert "Nobody owes anything." in text


def test_push_up_scores_are_not_payments():
    log = session_log()
    log["rules"] = "push_ups"
    text = pdf_text(render_settlement(replay(log)))
    assert "lowest is best" in text
    assert " pays " not in text.split("Settling up")[1].split("Running")[0]


# ---------------------------------------------------------------- audit


def test_audit_lists_every_action_and_the_story():
    audit = audit_hand(session_log(), 1)
    text = pdf_text(render_audit(audit, final_hash=HASH))
    for action in HAND_1["actions"]:
        # Cards are printed as people write them (DejaVu Sans has the suits).
        assert pretty(action) in text, action
    assert "Jürgen dropped with 10; Zoë has 6 and Łukasz has 6, equal or lower; José has" in text
    assert "so Jürgen is caught (catch scheme: double to the beaters, and the lowest " \
        "collect 1 from each)." in " ".join(text.split())
    assert "Jürgen pays Zoë 2 stakes = $0.50 (caught)." in text
    assert HASH in text


def test_audit_states_follow_each_action():
    audit = audit_hand(session_log(), 1)
    assert [s.status for s in audit.steps] == ["setup"] + ["accepted"] * 16
    after_spread = audit.steps[2].state
    assert after_spread["spreads"] == [{"id": "S1", "owner": "Jürgen",
                                        "cards": ["3c", "3d", "3h"]}]
    after_discard = audit.steps[3].state
    assert after_discard["top"] == "Tc" and after_discard["to_act"] == "Zoë"
    assert audit.steps[-1].state["complete"]
    assert audit.result.outcome == "caught"


def test_audit_shows_refusals_and_corrections():
    events = [{"seq": i, "action": a, "status": "accepted"}
              for i, a in enumerate(HAND_1["actions"][:3], 1)]
    events += [
        {"seq": 4, "action": "Zoë: drop", "status": "accepted"},
        {"seq": 5, "action": None, "status": "corrected", "replaces": 4,
         "message": "Zoë meant to draw"},
        {"seq": 6, "action": "Zoë: hit S1 Jd", "status": "refused"},
    ]
    events += [{"seq": 7 + i, "action": a, "status": "accepted"}
               for i, a in enumerate(HAND_1["actions"][3:])]
    audit = audit_hand(session_log(), 1, events)
    by_seq = {s.seq: s for s in audit.steps}
    assert by_seq[4].replaced_by == 5
    assert by_seq[5].status == "corrected" and by_seq[5].replaces == 4
    # After the correction Zoë is to act again, at the start of her turn.
    assert by_seq[5].state["to_act"] == "Zoë" and by_seq[5].state["phase"] == "start"
    # The refusal is explained by the rule the engine applies.
    assert by_seq[6].code == "must_draw_first"
    assert audit.result.outcome == "caught"
    text = pdf_text(render_audit(audit))
    assert "taken out by event 5" in text
    assert "replaces event 4" in text
    assert "Zoë meant to draw" in text
    assert "must_draw_first" in text


def test_audit_of_a_log_that_breaks_a_rule_shows_where():
    log = session_log()
    log["hands"][0]["actions"][4] = "Zoë: spread Jc Jh 9h"
    audit = audit_hand(log, 1)
    assert audit.fault is not None and audit.fault.code == "invalid_spread"
    fault = [s for s in audit.steps if s.status == "fault"]
    assert len(fault) == 1 and fault[0].action == "Zoë: spread Jc Jh 9h"
    text = pdf_text(render_audit(audit))
    assert "cannot be settled" in text and "invalid_spread" in text


def test_audit_pdf_is_reproducible():
    a = render_audit(audit_hand(session_log(), 2))
    b = render_audit(audit_hand(session_log(), 2))
    assert a == b


# ---------------------------------------------------------------- CLI


def _write_log(tmp_path, log=None):
    import json

    path = tmp_path / "session.json"
    path.write_text(json.dumps(log or session_log(), ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_cli_settle_and_audit(tmp_path):
    log = _write_log(tmp_path)
    out = tmp_path / "s.pdf"
    assert main(["settle", log, "--pdf", str(out)]) == 0
    assert "Jürgen pays Zoë $1.75" in pdf_text(out.read_bytes())
    out = tmp_path / "a.pdf"
    assert main(["audit", log, "--hand", "2", "--pdf", str(out)]) == 0
    assert "Zoë dropped with 15" in pdf_text(out.read_bytes())


def test_cli_errors(tmp_path, capsys):
    assert main(["audit", _write_log(tmp_path), "--hand", "3", "--pdf",
                 str(tmp_path / "x.pdf")]) == 2
    assert "no hand 3" in capsys.readouterr().err
    bad = session_log()
    bad["hands"][0]["actions"][0] = "Zoë: draw 3h"
    assert main(["settle", _write_log(tmp_path, bad), "--pdf", str(tmp_path / "x.pdf")]) == 1
    assert "out_of_turn" in capsys.readouterr().err
    assert main(["settle", str(tmp_path / "missing.json"), "--pdf", "x.pdf"]) == 2


def test_cli_from_a_stored_session(tmp_path):
    from referee.reports.stored import final_hash
    from referee.service import storage
    from referee.service.table import hands, sessions
    from referee.service.table.action import log_action

    path = tmp_path / "referee.sqlite3"
    db = storage.connect(path)
    log = session_log()
    open_hand = dict(log["hands"][1], actions=[])
    log["hands"] = [log["hands"][0], open_hand]
    info = sessions.import_log(db, log)
    assert log_action(db, info.id, 2, ["Zoë: draw 9d"], None, None).answer()["seq"] == 1
    assert hands.undo(db, info.id, 2)["seq"] == 0
    for action in HAND_1["actions"][:0] + ["Zoë: drop", "Zoë: show Ah 2d 3s 4c 5c",
                                           "Łukasz: show 6d 6c 6s 5h Td",
                                           "José: show Kd Ks Kc 7c 9s",
                                           "Jürgen: show 9c 9h 7h Th 2h"]:
        log_action(db, info.id, 2, [action], None, None).answer()  # raises if refused
    chain_end = final_hash(db, info.id)

    out = tmp_path / "s.pdf"
    assert main(["settle", info.id, "--db", str(path), "--pdf", str(out)]) == 0
    text = pdf_text(out.read_bytes())
    assert chain_end in text and "Jürgen pays Zoë $1.75" in text

    out = tmp_path / "a.pdf"
    assert main(["audit", info.id, "--db", str(path), "--hand", "2", "--pdf", str(out)]) == 0
    text = pdf_text(out.read_bytes())
    assert "Undo of action 1 (Zoë: draw 9♦)" in text  # the action it took back (newcomer F19)
    assert "Zoë dropped with 15" in text

    assert main(["settle", "nosuch", "--db", str(path), "--pdf", str(out)]) == 1
    assert main(["settle", info.id, "--db", str(tmp_path / "none.db"), "--pdf",
                 str(out)]) == 2


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_pages_render_to_images(tmp_path, settlement_pdf):
    pdf = tmp_path / "s.pdf"
    pdf.write_bytes(settlement_pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(tmp_path / "page")],
                   check=True, capture_output=True)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == len(pdf_reader(settlement_pdf).pages)
    assert all(p.stat().st_size > 5000 for p in pages)


def test_referee_settle_runs_with_the_collector_paused(tmp_path, monkeypatch):
    # As `referee replay` does: the cyclic collector would rescan every hand
    # kept so far, again and again, for nothing (the paper makes no cycles).
    import gc
    import json

    from referee import replay as replaying
    from referee.reports import settlement

    log = tmp_path / "log.json"
    log.write_text(json.dumps(make_session(20)))
    seen = []

    def watched(module, name):
        real = getattr(module, name)

        def run(*args, **kwargs):
            seen.append((name, gc.isenabled()))
            return real(*args, **kwargs)
        monkeypatch.setattr(module, name, run)

    watched(replaying, "replay")
    watched(settlement, "render_settlement")
    assert gc.isenabled()
    assert main(["settle", str(log), "--pdf", str(tmp_path / "s.pdf")]) == 0
    assert seen == [("replay", False), ("render_settlement", False)]
    assert gc.isenabled()  # given back to the caller


def test_the_audit_of_a_match_before_a_newcomer_paid():
    """A match's audit says where the match stood at its hand, from the
    hands alone: the money recorded later names Dee, seated at hand 2, and
    counting it over hand 1's players raised a KeyError."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).resolve().parents[1] / "sample_logs" /
                      "ev_payments_newcomer.json").read_text())
    log["rules"] = {"preset": "pagat", "scoring": "push_ups", "match_to": 100}
    assert "Ben" in pdf_text(render_audit(audit_hand(log, 1)))


# Cy and Dee lose alike all night (Ann tonks out twice, then Ben goes out).
ALIKE = {"format": "tonk-log/1", "table": "Freitag", "stake": "1", "currency": "EUR",
         "rules": "pagat", "players": ["Ann", "Ben", "Cy", "Dee"],
         "hands": [{"dealer": "Dee", "ending": {"how": "tonk_out", "by": "Ann"}},
                   {"dealer": "Ann", "ending": {"how": "tonk_out", "by": "Ann"}},
                   {"dealer": "Ben", "ending": {"how": "out", "by": "Ben"}}]}


def _chart_lines(pdf: bytes, tmp_path) -> list[list[tuple[float, float]]]:
    """The settlement chart's lines as the PDF draws them (read back as SVG
    by poppler): every stroke 1.4 pt wide through more than two points (a
    legend's swatch has two), in the order drawn, as (x, y) points."""
    (tmp_path / "s.pdf").write_bytes(pdf)
    subprocess.run(["pdftocairo", "-svg", str(tmp_path / "s.pdf"), str(tmp_path / "s.svg")],
                   check=True, capture_output=True)
    svg = (tmp_path / "s.svg").read_text()
    out = []
    for style, d in re.findall(r'<path style="([^"]*)" d="([^"]*)"', svg):
        numbers = [float(n) for n in re.findall(r"-?[\d.]+", d)]
        points = list(zip(numbers[::2], numbers[1::2], strict=True))
        if "stroke-width:1.4;" in style and re.fullmatch(r"M[^MZ]*", d) and len(points) > 2:
            out.append(points)
    return out


@pytest.mark.skipif(shutil.which("pdftocairo") is None, reason="poppler-utils not installed")
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_settlement_chart_draws_players_who_stand_alike_apart(tmp_path, lang):
    # Two players with the same running totals drew one line over the
    # other, so a reader saw fewer lines than players (as the season's chart
    # did: chart_lines.apart). Every player's line is drawn, and the alike
    # ones are at least a line's width apart at every hand.
    from referee.reports.common import LINES_APART

    lines = _chart_lines(render_settlement(replay(load_log(ALIKE)), lang=lang), tmp_path)
    assert len(lines) == 4 and len({tuple(line) for line in lines}) == 4, lines
    _ann, ben, cy, dee = lines
    # At the start all four stand at 0: four lines a line's width apart at least.
    start = sorted(line[0][1] for line in lines)
    assert all(b - a >= 1.4 for a, b in zip(start, start[1:], strict=False)), start
    # Cy and Dee stay alike to the end, LINES_APART apart at every hand (the
    # drawing's scale, 0.9988 here, aside); Ben leaves them at the last hand.
    gaps = [abs(y - yy) for (_, y), (_, yy) in zip(cy, dee, strict=True)]
    assert all(abs(gap - LINES_APART) < 0.1 for gap in gaps), (cy, dee)
    assert [x for x, _ in cy] == [x for x, _ in dee] and ben[-1] != cy[-1]
