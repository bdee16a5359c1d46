"""A closed table's final settlement paper names the head at which its
settlement became final (newcomer 46's F12): the signed paper said
2b19e287…, a later download 5366afa6…, after a seat link was revoked, an
event the paper says nothing of. The same settlement now prints the same
bytes; an event the paper reads (a paid mark after the close) changes it,
head and all, and ``referee verify --head`` holds the record to either."""

from __future__ import annotations

import json

from referee.cli import main
from referee.service import storage
from referee.web.db import get_db
from tests.money_tables import get, open_table, out_by
from tests.reports_fixtures import pdf_text
from tests.test_api import bearer


def _paper(client, table) -> bytes:
    r = client.get(f"/reports/{table['id']}/settlement.pdf?token={table['audit']}")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    return r.data


def _post(client, table, tail, body):
    r = client.post(f"/api/sessions/{table['id']}{tail}", json=body,
                    headers=bearer(table["token"]))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _newest_hash(app, table) -> str:
    with app.app_context():
        return storage.chain.final_hash(get_db(), table["id"])


def test_links_after_the_close_leave_the_final_paper_as_it_was(app, client, tmp_path):
    table = open_table(client, players=("Ann", "Ben", "Cy"))
    out_by(client, table, "Ben")
    _post(client, table, "/close", {})
    closed_at = _newest_hash(app, table)
    signed = _paper(client, table)
    text = pdf_text(signed)
    assert closed_at[:16] in text and "when final" in text
    _post(client, table, "/links", {"role": "seat", "player": "Ann"})
    _post(client, table, "/links/revoke", {"role": "seat", "player": "Ann"})
    _post(client, table, "/links", {"role": "viewer"})
    assert _newest_hash(app, table) != closed_at
    assert _paper(client, table) == signed
    # The command line's paper, from the database or from an export with its
    # chain, names the same head.
    db = app.config["DATABASE"]
    assert main(["settle", table["id"], "--db", db, "--pdf", str(tmp_path / "c.pdf")]) == 0
    assert (tmp_path / "c.pdf").read_bytes() == signed
    export = tmp_path / "chain.json"
    export.write_text(json.dumps({**get(client, table, "/log", table["audit"]),
                                  **_chain(app, table)}, ensure_ascii=False))
    assert main(["settle", str(export), "--pdf", str(tmp_path / "e.pdf")]) == 0
    assert closed_at[:16] in pdf_text((tmp_path / "e.pdf").read_bytes())
    # The head the paper names still holds.
    assert main(["verify", "--db", db, "--session", table["id"], "--head", closed_at]) == 0


def _chain(app, table) -> dict:
    from referee.service.table import sessions

    with app.app_context():
        doc = sessions.export_with_chain(get_db(), table["id"])
    return {"head": doc["head"], "chain": doc["chain"]}


def test_a_paid_mark_after_the_close_changes_the_paper_and_its_head(app, client):
    table = open_table(client, players=("Ann", "Ben", "Cy"))
    out_by(client, table, "Ben")
    _post(client, table, "/close", {})
    signed = _paper(client, table)
    owed = get(client, table, "/settlement", table["audit"])["owed"][0]
    _post(client, table, "/paid", {"from": owed["from"], "to": owed["to"],
                                   "amount": owed["amount"], "client_id": "p1"})
    paid_at = _newest_hash(app, table)
    _post(client, table, "/links", {"role": "viewer"})
    later = _paper(client, table)
    assert later != signed and paid_at[:16] in pdf_text(later)


def test_an_open_tables_paper_names_its_newest_event(app, client):
    table = open_table(client, players=("Ann", "Ben", "Cy"))
    out_by(client, table, "Ben")
    _post(client, table, "/links", {"role": "viewer"})
    text = pdf_text(_paper(client, table))
    assert _newest_hash(app, table)[:16] in text and "when final" not in text
