"""Money in one ledger (issue 33): every debt owed once, every payment
confirmed, the table, its papers, its export and the club agree. Each test
is one of the issue's items, on the API as a club would use it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.money_tables import balances, open_table, out_by, post
from tests.test_api import assert_error


@pytest.fixture
def club_app(app):
    app.config["REFEREE_HOST_KEY"] = "club-key"
    return app


@pytest.fixture
def client(club_app):
    return club_app.test_client()


# ---------------------------------------------------------------- item 4: retries

def test_a_retried_payment_with_an_idempotency_key_is_recorded_once(client):
    t = open_table(client)
    out_by(client, t, "Ben")
    before = balances(client, t)
    body = {"from": "Ann", "to": "Ben", "amount": "0.50"}
    first = post(client, t, "/payments", body, **{"Idempotency-Key": "pay-1"})
    again = post(client, t, "/payments", body, **{"Idempotency-Key": "pay-1"})
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert balances(client, t)["Ann"] == before["Ann"] + Decimal("0.50")


@pytest.mark.parametrize("path, first, second", [
    ("/payments", {"from": "Ann", "to": "Ben", "amount": "0.50"},
     {"from": "Ann", "to": "Ben", "amount": "5.00"}),
    ("/stake", {"stake": "2"}, {"stake": "3"}),
])
def test_a_client_id_sent_again_with_another_body_is_a_conflict(client, path, first, second):
    t = open_table(client)
    out_by(client, t, "Ben")
    assert post(client, t, path, {**first, "client_id": "k1"}).status_code == 201
    before = balances(client, t)
    err = assert_error(post(client, t, path, {**second, "client_id": "k1"}), 409,
                       "client_id_reused")
    assert f"POST /api/sessions/<sid>{path}" in err["message"]
    assert balances(client, t) == before
    # The same body again is a retry: the first answer.
    assert post(client, t, path, {**first, "client_id": "k1"}).status_code == 201


def test_a_hand_takes_the_key_in_the_header_and_the_body_when_they_agree(client):
    t = open_table(client)
    hand = {"dealer": "Ann", "ending": {"how": "out", "by": "Ben"}, "client_id": "h1"}
    r = post(client, t, "/hands", hand, **{"Idempotency-Key": "h1"})
    assert r.status_code == 201, r.get_json()
    assert post(client, t, "/hands", hand, **{"Idempotency-Key": "h1"}).get_json() == \
        r.get_json()
    assert_error(post(client, t, "/hands", {**hand, "client_id": "h2"},
                      **{"Idempotency-Key": "h3"}), 400, "client_id_mismatch")
