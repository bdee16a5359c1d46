"""An exported log keeps how each dispute was settled (newcomer 43's N2, N15):
the papers built from the export say of the disputes what the table's own
papers say, and a corrected dispute's note is kept as the player wrote it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from referee.cli import main
from referee.record import load_log
from referee.record.events import note_as_kept
from referee.record.reading import _plain_log
from referee.record.schemas import LOG
from referee.replay import replay
from referee.reports.audit import audit_hand, render_audit
from referee.reports.settlement import render_settlement
from referee.service import trust
from referee.service.table import sessions
from tests.reports_fixtures import pdf_text
from tests.test_api import Game, bearer

NOTE = "Jürgen hat 3♠ gezogen, nicht was eingetippt wurde"


def _post(g, tail, body):
    r = g.client.post(g.url(tail), json=body, headers=bearer(g.table))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _night(client):
    """Hand 1: a dispute of the whole hand, let stand; hand 2: a dispute of
    its last action, settled by a correction and the action logged again;
    hand 3: a dispute left open."""
    g = Game(client)
    g.start()
    g.finish_hand()
    by = g.sim.hand.players[1]
    _post(g, f"/hands/{g.n}/disputes", {"by": by, "note": "Warum zahle ich?", "action": None})
    _post(g, f"/hands/{g.n}/disputes/1/settle", {"how": "stands", "by": g.sim.hand.players[0]})
    g.start()
    g.finish_hand()
    last = g.sim.hand.actions[-1]
    _post(g, f"/hands/{g.n}/disputes", {"by": by, "note": NOTE, "action": g.seq})
    _post(g, f"/hands/{g.n}/disputes/1/settle", {"how": "corrected", "by": by})
    g.seq -= 1
    r = g.post(str(last))
    assert r.status_code == 201, r.get_json()
    g.start()
    g.finish_hand()
    _post(g, f"/hands/{g.n}/disputes", {"by": by, "note": "zu schnell", "action": None})
    return g, by, str(last)


def _export(g, chain=False):
    from referee.web.db import get_db

    with g.client.application.app_context():
        db = get_db()
        return sessions.export_with_chain(db, g.sid) if chain else sessions.get_log(db, g.sid)


def test_the_export_says_how_each_dispute_was_settled(client):
    g, by, last = _night(client)
    log = _export(g)
    first, second, third = (h["disputes"][0] for h in log["hands"])
    assert first["settled"]["how"] == "stands" and first["settled"]["at"]
    assert "settled" not in third
    done = second["settled"]
    assert done["how"] == "corrected" and done["by"] == by
    # the note as the player wrote it; what it was about, in the settlement
    assert second["note"] == NOTE and second["action"] is None
    assert done["undone"] == [last] and done["action"] == len(log["hands"][1]["actions"])
    # read alike by the fast path and the schema, and replayed
    assert _plain_log(log) == LOG.load(log) == load_log(log)
    replay(load_log(log))
    # the receipt still holds: verify LOG folds the settlements in as the export writes them
    assert trust.verify_log(_export(g, chain=True)) == _export(g, chain=True)["head"]


def test_the_papers_from_an_export_say_what_the_tables_papers_say(client):
    g, _by, _last = _night(client)
    log = _export(g)
    web = pdf_text(client.get(f"/reports/{g.sid}/settlement.pdf?token={g.audit}").data)
    cli = pdf_text(render_settlement(replay(load_log(log))))

    def disputes(text):  # each dispute's line, to how it was settled
        return re.findall(r"• hand \d[^•]*? · (?:open|settled[^)]*\))", text)

    assert len(disputes(web)) == 3 and disputes(cli) == disputes(web)
    assert "settled: the record stands" in cli and "settled by a correction" in cli
    assert "1 dispute is still open (hand 3)" in cli and "(hands 1" not in cli
    # the log alone is named by its fingerprint, and says how to name it as the table does
    assert "log fingerprint" in cli and "exported with referee export ID --chain" in cli
    web_audit = pdf_text(client.get(f"/reports/{g.sid}/hands/2/audit.pdf?token={g.audit}").data)
    cli_audit = pdf_text(render_audit(audit_hand(log, 2)))
    # a dispute of an action since undone is still of that action (newcomer P5)
    said = re.search(r"disputes action \d+ \([^)]*, since undone\): .*?\)", web_audit).group(0)
    assert said in cli_audit and "settled by a correction" in said
    assert "the hand as a whole" not in web_audit


def test_an_exported_log_imports_and_exports_as_it_was(client):
    g, _by, _last = _night(client)
    log = _export(g)
    # the same night again, on purpose: a copy, asked for (else already_stored)
    r = client.post("/api/sessions", json={**log, "copy": True})
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    again = client.get(f"/api/sessions/{made['id']}/log",
                       headers=bearer(made["audit_token"])).get_json()
    assert json.dumps(again, sort_keys=True) == json.dumps(log, sort_keys=True)
    # the imported table's own pages and papers know them settled, and refuse settling again
    state = client.get(f"/api/sessions/{made['id']}/hands/1",
                       headers=bearer(made["audit_token"])).get_json()
    assert state["settled_disputes"][0]["how"] == "stands"
    r = client.post(f"/api/sessions/{made['id']}/hands/1/disputes/1/settle",
                    json={"how": "stands", "by": log["players"][0]},
                    headers=bearer(made["table_token"]))
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "dispute_settled"
    text = pdf_text(client.get(f"/reports/{made['id']}/settlement.pdf"
                               f"?token={made['audit_token']}").data)
    assert "1 dispute is still open (hand 3)" in text


SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "evt_disputes_settled.json"


def test_a_logs_settled_disputes_on_its_papers():
    log = load_log(json.loads(SAMPLE.read_text()))
    text = pdf_text(render_settlement(replay(log)))
    assert "settled: the record stands (Ann, 2026-11-21 21:05 UTC)" in text
    assert "settled by a correction (Ben, 2026-11-21 21:40 UTC)" in text
    # the correction says which action it was about, as the table's paper does
    assert "[on action 9, Cy: spread 9♥ 9♣ 9♦, since undone] Cy's second spread" in text
    assert "1 dispute is still open (hand 1)" in text
    audit = pdf_text(render_audit(audit_hand(log, 1)))
    assert "settled: the record stands (Ann" in audit and "the deck was not shuffled” · open" \
        in audit


def _older_export(doc):
    """``doc`` as an export written before the log carried settlements: the
    disputes as the hands' setups store them."""
    old = json.loads(json.dumps(doc))
    for hand in old["hands"]:
        if "disputes" in hand:
            hand["disputes"] = [{"action": d["action"], "by": d["by"], "note": note_as_kept(d)}
                                for d in hand["disputes"]]
    return old


def test_the_papers_of_an_export_with_its_chain_are_the_tables(client, tmp_path, capsys):
    g, _by, _last = _night(client)
    web = pdf_text(client.get(f"/reports/{g.sid}/settlement.pdf?token={g.audit}").data)
    web_audit = pdf_text(client.get(f"/reports/{g.sid}/hands/2/audit.pdf?token={g.audit}").data)
    doc = _export(g, chain=True)
    for n, exported in enumerate((doc, _older_export(doc))):
        path = tmp_path / f"chain{n}.json"
        path.write_text(json.dumps(exported, ensure_ascii=False))
        assert main(["verify", str(path)]) == 0
        assert main(["settle", str(path), "--pdf", str(tmp_path / "s.pdf")]) == 0
        assert main(["audit", str(path), "--hand", "2", "--pdf", str(tmp_path / "a.pdf")]) == 0
        text = pdf_text((tmp_path / "s.pdf").read_bytes())
        audit = pdf_text((tmp_path / "a.pdf").read_bytes())
        # one name for the night on both papers: the head of its chain
        head = f"final event hash {doc['head'][:16]}…"
        assert head in text and head in web and "log fingerprint" not in text
        assert "1 dispute is still open (hand 3)" in text and "(hands" not in text
        # the correction, step by step, as the table's audit shows it
        assert re.findall(r"Undo of action \d+ \([^)]*\): a correction after \w+'s dispute",
                          audit) == re.findall(r"Undo of action \d+ \([^)]*\): a correction "
                                               r"after \w+'s dispute", web_audit) != []
    capsys.readouterr()


def test_a_chain_that_does_not_hold_is_said_and_the_log_settled_alone(client, tmp_path,
                                                                      capsys):
    g, _by, _last = _night(client)
    doc = _export(g, chain=True)
    doc["head"] = "0" * 64
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc, ensure_ascii=False))
    assert main(["settle", str(path), "--pdf", str(tmp_path / "s.pdf")]) == 0
    assert f"log {path}: the chain hashes to" in capsys.readouterr().err
    text = pdf_text((tmp_path / "s.pdf").read_bytes())
    assert "log fingerprint" in text and "settled by a correction" in text
