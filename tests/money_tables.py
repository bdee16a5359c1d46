"""Tables with money on them, opened through the API, for the tests of one
ledger (issue 33): a table in a currency, a hand told by its ending that
leaves one player owing another, links for the players' phones."""

from __future__ import annotations

from decimal import Decimal

from tests.test_api import bearer

KEY = {"X-Host-Key": "club-key"}


def open_table(client, players=("Ann", "Ben"), currency="USD", stake="1", **extra) -> dict:
    """A new table (with the host key, if the app has one); its id and tokens."""
    body = {"table": extra.pop("table", "Club night"), "stake": stake, "rules": "pagat",
            "players": list(players), **extra}
    if currency is not None:
        body["currency"] = currency
    r = client.post("/api/sessions", json=body, headers=KEY)
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    return {"id": made["id"], "token": made["table_token"], "audit": made["audit_token"]}


def out_by(client, table, winner, dealer=None) -> dict:
    """A hand told by its ending: ``winner`` goes out; the others pay."""
    st = get(client, table, "")
    seated = st["seated"]
    dealer = dealer or st.get("next_dealer") or seated[0]
    r = client.post(f"/api/sessions/{table['id']}/hands", headers=bearer(table["token"]),
                    json={"dealer": dealer, "ending": {"how": "out", "by": winner}})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def get(client, table, path, token=None):
    r = client.get(f"/api/sessions/{table['id']}{path}", headers=bearer(token or table["token"]))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def post(client, table, path, body, token=None, **headers):
    return client.post(f"/api/sessions/{table['id']}{path}", json=body,
                       headers={**bearer(token or table["token"]), **headers})


def balances(client, table) -> dict[str, Decimal]:
    """What each player stands at (positive: is owed), as the table says."""
    st = get(client, table, "")
    return {p: Decimal(v) for p, v in (st["balances"] or st["totals"]).items()}


def owed(client, table) -> list[tuple[str, str, Decimal]]:
    """The transfers the table's settle-up still asks for."""
    return [(t["from"], t["to"], Decimal(t["amount"]))
            for t in get(client, table, "/settlement")["owed"]]


def seat_token(client, table, player) -> str:
    r = post(client, table, "/links", {"role": "seat", "player": player})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["token"]


def replayed(client, table) -> dict:
    """The result ``referee replay`` gives of the table's export (in this
    process, as the command reads a file)."""
    from referee.replay import replay

    log = get(client, table, "/log")
    return replay(log).result().to_json()


def as_decimals(amounts: dict) -> dict[str, Decimal]:
    return {p: Decimal(v) for p, v in amounts.items()}


def paper_text(client, table) -> str:
    """The text of the table's settlement PDF."""
    from tests.reports_fixtures import pdf_text

    r = client.get(f"/reports/{table['id']}/settlement.pdf?token={table['token']}")
    assert r.status_code == 200
    return pdf_text(r.data)


def carry(client, source, players, currency="USD", token=None):
    """A new table carrying ``source``'s debts among ``players``."""
    return client.post("/api/sessions", headers=KEY, json={
        "stake": "1", "rules": "pagat", "players": list(players), "currency": currency,
        "brought_forward_from": source["id"],
        "brought_forward_token": token or source["token"]})


def made(response) -> dict:
    assert response.status_code == 201, response.get_json()
    got = response.get_json()
    return {"id": got["id"], "token": got["table_token"], "audit": got["audit_token"]}


def ledger(client, currency="USD") -> dict:
    r = client.get(f"/api/club/ledger?currency={currency}", headers=KEY)
    assert r.status_code == 200, r.get_json()
    return r.get_json()
