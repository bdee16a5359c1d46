"""The holes of the third trust pass (issue 34), each reproduced: a client id
reused across link roles, stored replies deleted, streams and refusals
without a cap, a long audit, and the smaller ones. (Unicode digits, rule
bounds, the Host header and the proxy have modules of their own:
test_digits, test_bounds, test_proxy.)"""

from __future__ import annotations

import pytest

from .test_api import Game, assert_error, bearer


def _link(g, role, player=None, client_id=None):
    body = {"role": role, **({"player": player} if player else {}),
            **({"client_id": client_id} if client_id else {})}
    return g.client.post(g.url("/links"), json=body, headers=bearer(g.table))


# ---------------------------------------------------------------- item 9

@pytest.mark.parametrize("first,then", [(("seat", "Ann"), ("viewer", None)),
                                        (("viewer", None), ("seat", "Ann")),
                                        (("seat", "Ann"), ("seat", "Ben"))])
def test_a_client_id_reused_for_another_link_is_refused(client, first, then):
    g = Game(client)
    r = _link(g, *first, client_id="same")
    assert r.status_code == 201
    token = r.get_json()["token"]
    again = _link(g, *first, client_id="same")  # the same request again: the same link
    assert again.status_code == 201 and again.get_json()["token"] == token
    assert_error(_link(g, *then, client_id="same"), 409, "client_id_reused")
    # The token handed out is still the first role's, and no other role's.
    me = client.get(g.url(), headers=bearer(token))
    assert me.status_code == 200


# ---------------------------------------------------------------- item 2

def _payment(g, client_id):
    return g.client.post(g.url("/payments"), json={"from": "Ann", "to": "Ben", "amount": "1",
                                                   "client_id": client_id},
                         headers=bearer(g.table))


def test_a_deleted_stored_answer_fails_verify(app, client, capsys):
    from .test_trust import played, raw, verify

    g = played(client)
    assert verify(app) == 0
    raw(app).execute("DELETE FROM replies WHERE session_id = ? AND client_id = 'u1'", [g.sid])
    assert verify(app) == 1
    assert "u1" in capsys.readouterr().out


def test_a_payment_retried_after_its_answer_was_deleted_fails_verify(app, client, capsys):
    from .test_trust import raw, verify

    g = Game(client)
    assert _payment(g, "pay-1").status_code == 201
    assert verify(app) == 0
    raw(app).execute("DELETE FROM replies WHERE session_id = ?", [g.sid])
    assert _payment(g, "pay-1").status_code == 201  # recorded twice: the answer was gone
    capsys.readouterr()
    assert verify(app) == 1
    said = capsys.readouterr().out
    assert "pay-1" in said
