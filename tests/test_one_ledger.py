"""Money in one ledger (issue 33): every debt owed once, every payment
confirmed, the table, its papers, its export and the club agree. Each test
is one of the issue's items, on the API as a club would use it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.money_tables import (
    KEY,
    as_decimals,
    balances,
    carry,
    get,
    ledger,
    made,
    open_table,
    out_by,
    owed,
    paper_text,
    post,
    replayed,
    seat_token,
)
from tests.test_api import assert_error
from tests.test_pay import unlock
from tests.test_trust import verify


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


# ---------------------------------------------------------------- item 2: a phone's word

@pytest.fixture
def night(client):
    """Quin and Sal each owe Rob 1.00 at a pound table, with a phone each."""
    t = open_table(client, players=("Quin", "Rob", "Sal"), currency="GBP")
    out_by(client, t, "Rob")
    assert owed(client, t) == [("Quin", "Rob", Decimal("1.00")), ("Sal", "Rob", Decimal("1.00"))]
    return {"t": t, **{p: seat_token(client, t, p) for p in ("Quin", "Rob", "Sal")}}


def test_a_phone_records_no_more_than_is_owed(client, night):
    t = night["t"]
    assert post(client, t, "/close", {}).status_code == 201
    before = balances(client, t)
    for token in (night["Quin"], night["Rob"]):  # the payer's word, and the payee's
        assert_error(post(client, t, "/payments", {"from": "Quin", "to": "Rob",
                                                   "amount": "500"}, token=token),
                     422, "more_than_owed")
    assert balances(client, t) == before
    # Sal's pound still goes to Rob.
    assert ("Sal", "Rob", Decimal("1.00")) in owed(client, t)


def test_the_payers_word_waits_for_the_payee_and_settles_nothing_till_then(client, night):
    t = night["t"]
    before = balances(client, t)
    r = post(client, t, "/payments", {"from": "Quin", "to": "Rob", "amount": "1.00"},
             token=night["Quin"])
    assert r.status_code == 201 and r.get_json()["pending"] is True
    assert balances(client, t) == before
    assert ("Quin", "Rob", Decimal("1.00")) in owed(client, t)
    [claim] = get(client, t, "/settlement")["payments"]
    assert claim["pending"] is True and claim["by"] == "Quin"
    assert replayed(client, t)["balances"] == {p: f"{v:.2f}" for p, v in before.items()}
    # Not the payer's own phone, nor a third one: the payee's, or the host.
    for token in (night["Quin"], night["Sal"]):
        assert_error(post(client, t, "/payments/1/confirm", {}, token=token), 403,
                     "not_your_seat")
    assert post(client, t, "/payments/1/confirm", {}, token=night["Rob"]).status_code == 201
    after = balances(client, t)
    assert after["Quin"] == 0 and after["Rob"] == before["Rob"] - 1
    [done] = get(client, t, "/settlement")["payments"]
    assert "pending" not in done and done["confirmed"]["by"] == "Rob"
    assert as_decimals(replayed(client, t)["balances"]) == after
    # Confirmed once: a second confirmation has nothing to confirm.
    assert_error(post(client, t, "/payments/1/confirm", {}), 422, "not_pending")


def test_marked_paid_by_the_payer_then_by_the_payee_counts_once(client, night):
    t = night["t"]
    body = {"from": "Quin", "to": "Rob", "amount": "1.00"}
    assert post(client, t, "/paid", body, token=night["Quin"]).get_json()["pending"] is True
    assert_error(post(client, t, "/paid", body, token=night["Quin"]), 422, "claim_waiting")
    r = post(client, t, "/paid", body, token=night["Rob"])  # confirms the claim
    assert r.status_code == 201 and r.get_json()["event"] == "payment_confirm"
    assert len(get(client, t, "/settlement")["payments"]) == 1
    assert balances(client, t)["Quin"] == 0


# ---------------------------------------------------------------- item 5: whole coins

@pytest.mark.parametrize("currency, amount, ok", [
    ("EUR", "0.004", False), ("EUR", "0.01", True), ("JPY", "0.5", False), ("JPY", "1", True),
    ("BHD", "0.005", True), ("BHD", "0.0005", False), (None, "0.004", True),
])
def test_an_amount_is_whole_coins_of_its_currency(client, currency, amount, ok):
    t = open_table(client, currency=currency)
    out_by(client, t, "Ben")
    r = post(client, t, "/payments", {"from": "Ann", "to": "Ben", "amount": amount})
    if ok:
        assert r.status_code == 201, r.get_json()
    else:
        assert_error(r, 400, "amount_coin")
        assert amount in r.get_json()["error"]["message"]


# ---------------------------------------------------------------- item 6: the host

def test_the_host_takes_a_payment_back_with_a_reversing_event(client, app, night):
    t = night["t"]
    before = balances(client, t)
    assert post(client, t, "/close", {}).status_code == 201
    # A cash payment after the close: taken, and the settle-up page leads to it.
    assert post(client, t, "/payments", {"from": "Sal", "to": "Rob", "amount": "1.00",
                                         "note": "cash"}).status_code == 201
    assert balances(client, t)["Sal"] == 0
    events = len(get(client, t, "/log").get("payments"))
    r = post(client, t, "/payments/1/undo", {})
    assert r.status_code == 201 and r.get_json()["event"] == "payment_undo"
    assert balances(client, t) == before
    [kept] = get(client, t, "/log")["payments"]
    assert kept["undone"]["by"] is None and kept["note"] == "cash"  # never a delete
    assert len(get(client, t, "/log")["payments"]) == events
    assert as_decimals(replayed(client, t)["balances"]) == before
    assert_error(post(client, t, "/payments/1/undo", {}), 422, "undone_already")
    # A phone takes back no payment that moved money.
    assert post(client, t, "/payments", {"from": "Sal", "to": "Rob",
                                         "amount": "1.00"}).status_code == 201
    assert_error(post(client, t, "/payments/2/undo", {}, token=night["Rob"]), 403,
                 "not_your_seat")
    assert verify(app) == 0


def test_the_settle_page_shows_who_confirmed_what_and_offers_a_cash_payment(client, night):
    t = night["t"]
    post(client, t, "/payments", {"from": "Quin", "to": "Rob", "amount": "1.00"},
         token=night["Quin"])
    post(client, t, "/payments", {"from": "Sal", "to": "Rob", "amount": "1.00"},
         token=night["Sal"])
    post(client, t, "/payments/2/confirm", {})
    unlock(client, t["id"], t["token"])
    page = client.get(f"/s/{t['id']}/settle").get_data(as_text=True)
    assert "waiting for Rob to confirm" in page
    assert "confirmed by the host" in page
    assert 'id="record-cash"' in page


# ---------------------------------------------------------------- item 1: carried once

def test_a_debt_is_carried_once_in_its_own_currency_and_leaves_its_table(client):
    first = open_table(client)
    out_by(client, first, "Ben")
    assert owed(client, first) == [("Ann", "Ben", Decimal("1.00"))]
    second = made(carry(client, first, ("Ann", "Ben")))
    assert owed(client, second) == [("Ann", "Ben", Decimal("1.00"))]
    # Marked moved at the source: its page, its export and its paper stop asking.
    assert owed(client, first) == []
    assert replayed(client, first)["transfers"] == []
    [moved] = get(client, first, "/log")["carried_forward"]
    assert moved["to"] == second["id"] and moved["balances"] == {"Ann": "-1.00", "Ben": "1.00"}
    # named as people know a table without a name (newcomer N10), not by its id
    paper = paper_text(client, first)
    assert "Carried on to Table with Ann and Ben, opened " in paper and second["id"] not in paper
    # A second carry finds it owed elsewhere; another currency is refused.
    assert_error(carry(client, first, ("Ann", "Ben")), 422, "carried_already")
    for currency in ("EUR", "JPY"):
        err = assert_error(carry(client, first, ("Ann", "Ben"), currency), 422,
                           "carry_currency")
        assert "USD" in err["message"] and currency in err["message"]
    # Paid at the table where it is owed now, once; the other refuses it.
    r = post(client, first, "/paid", {"from": "Ann", "to": "Ben", "amount": "1.00"})
    assert_error(r, 422, "not_owed")
    assert post(client, second, "/paid", {"from": "Ann", "to": "Ben",
                                          "amount": "1.00"}).status_code == 201
    assert ledger(client)["balances"] == {"Ann": "0.00", "Ben": "0.00"}
    assert ledger(client)["transfers"] == []


def test_a_debt_to_someone_absent_stays_where_it_is(client):
    first = open_table(client, players=("Ann", "Ben", "Cy"))
    out_by(client, first, "Ben")
    second = made(carry(client, first, ("Ann", "Ben")))
    assert owed(client, second) == [("Ann", "Ben", Decimal("1.00"))]
    assert owed(client, first) == [("Cy", "Ben", Decimal("1.00"))]
    assert as_decimals(ledger(client)["balances"]) == {
        "Ann": Decimal(-1), "Ben": Decimal(2), "Cy": Decimal(-1)}


# ---------------------------------------------------------------- item 3: one answer

def test_paid_at_the_club_reaches_the_table_its_paper_and_its_export(client):
    t = open_table(client, players=("Emil", "Ben"), currency="EUR")
    out_by(client, t, "Ben")
    assert post(client, t, "/close", {}).status_code == 201
    assert "Emil pays Ben" in paper_text(client, t)
    [debt] = ledger(client, "EUR")["transfers"]
    assert debt["session"] == t["id"]
    r = client.post("/api/club/transfers", json=debt, headers=KEY)
    assert r.status_code == 201, r.get_json()
    assert ledger(client, "EUR")["balances"] == {"Ben": "0.00", "Emil": "0.00"}
    assert owed(client, t) == []
    assert replayed(client, t)["transfers"] == []
    assert "Emil pays Ben" not in paper_text(client, t)
    # Paid twice: the second is refused, the club and the table unchanged.
    r = client.post("/api/club/transfers", json=debt, headers=KEY)
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "not_owed"


def test_the_club_and_each_table_say_the_same_who_pays_whom(client):
    t1 = open_table(client, players=("Clara", "Ben"), currency="EUR")
    out_by(client, t1, "Ben")  # Clara owes Ben
    t2 = open_table(client, players=("Ben", "Emil"), currency="EUR")
    out_by(client, t2, "Emil")  # Ben owes Emil
    led = ledger(client, "EUR")
    assert sorted((t["session"], t["from"], t["to"], t["amount"]) for t in led["transfers"]) \
        == sorted([(t1["id"], "Clara", "Ben", "1.00"), (t2["id"], "Ben", "Emil", "1.00")])
    for t in (t1, t2):
        assert [(a, b, f"{v:.2f}") for a, b, v in owed(client, t)] == [
            (d["from"], d["to"], d["amount"]) for d in led["transfers"]
            if d["session"] == t["id"]]


# ------------------------------------------------------- issue 35 item 15: given once

def test_a_players_details_from_their_phone_are_offered_at_the_next_table(app, client):
    """Given once on a player's own phone, a person's details are the club's
    by default: the next table offers them without their being typed again."""
    from tests.test_pay import join

    t = open_table(client, players=("Ann", "Ben"), currency="EUR")
    later = open_table(client, players=("Ann", "Ben"), currency="EUR", table="Next week")
    out_by(client, later, "Ann")
    ann = seat_token(client, t, "Ann")
    phone = app.test_client()
    csrf = join(phone, t["id"], ann)
    page = phone.get(f"/s/{t['id']}/settle").get_data(as_text=True)
    form = page[page.index('id="details-form"'):]
    fields = {"player": "Ann", "paypal": "annalbers", "csrf_token": csrf}
    # What the form sends as it comes: the club box ticked unless untouched by hand.
    if 'id="pay-club" checked' in form:
        fields["club"] = "1"
    assert phone.post(f"/s/{t['id']}/settle/details", data=fields).status_code == 303
    [debt] = get(client, later, "/settlement")["owed"]
    assert debt["to"] == "Ann" and debt["pay"]["paypal"].startswith("https://paypal.me/annalbers")


def test_the_tablet_carries_an_unlocked_tables_debts_into_a_new_one(client):
    """The new-table form offers the tables this tablet unlocked; carrying
    one is the API's carry (owed once: here, and no longer there, the club
    counting it once). A table the tablet has not unlocked is refused, and
    nothing opens. Before, a tablet host could only type balances in by
    hand, which the club then counted twice."""
    import re

    from tests.test_tablet import PIN, token

    first = open_table(client, table="Early table")
    out_by(client, first, "Ben")
    form = {"stake": "1", "currency": "USD", "preset": "pagat", "pin": PIN, "pin2": PIN,
            "player1": "Ann", "player2": "Ben", "host_key": "club-key", "table": "Late table"}
    # Not unlocked here: refused in words, nothing opened, nothing carried.
    page = client.post("/new", data={**form, "csrf_token": token(client),
                                     "carry_from": first["id"]})
    assert page.status_code == 403
    assert f"has not unlocked table {first['id']}" in page.get_data(as_text=True)
    assert owed(client, first) == [("Ann", "Ben", Decimal("1.00"))]
    with client.session_transaction() as cookie:
        cookie["unlocked"] = [first["id"]]
    offered = client.get("/new").get_data(as_text=True)
    assert f'<option value="{first["id"]}"' in offered and "Early table" in offered
    page = client.post("/new", data={**form, "csrf_token": token(client),
                                     "carry_from": first["id"]})
    assert page.status_code == 303, page.get_data(as_text=True)
    second = re.search(r"/s/([0-9a-f]+)", page.headers["Location"]).group(1)
    [moved] = get(client, first, "/log")["carried_forward"]
    assert moved["to"] == second
    assert owed(client, first) == []
    assert as_decimals(ledger(client)["balances"]) == {"Ann": Decimal(-1), "Ben": Decimal(1)}


# ---------------------------------------------------------------- issue 35: on the phones
# The settle-up page on the players' phones: the payee's phone confirms the
# payment its payer claimed, the payer's phone withdraws its own claim, and
# no phone is offered a button it cannot use.


def _phone(app, t, token):
    phone = app.test_client()
    assert phone.get(f"/s/{t['id']}/join/{token}").status_code in (302, 303)
    with phone.session_transaction() as s:
        s["csrf"] = "t"
    return phone


def _claim(client, night):
    t = night["t"]
    r = post(client, t, "/payments", {"from": "Quin", "to": "Rob", "amount": "1.00"},
             token=night["Quin"])
    assert r.get_json()["pending"] is True
    return t


def test_the_payees_phone_confirms_the_payment_it_waits_for(club_app, client, night):
    t = _claim(client, night)
    rob = _phone(club_app, t, night["Rob"])
    page = rob.get(f"/s/{t['id']}/settle").get_data(as_text=True)
    assert 'name="payment" value="1"' in page and "settle/confirm" in page
    r = rob.post(f"/s/{t['id']}/settle/confirm", data={"csrf_token": "t", "payment": "1"},
                 follow_redirects=True)
    text = r.get_data(as_text=True)
    assert "not_your_seat" not in text
    assert "\u2713 The payment of £1.00 from Quin to Rob is confirmed" in text
    [done] = get(client, t, "/settlement")["payments"]
    assert done["confirmed"]["by"] == "Rob" and "pending" not in done


def test_the_payers_phone_takes_back_its_own_claim(club_app, client, night):
    t = _claim(client, night)
    quin = _phone(club_app, t, night["Quin"])
    r = quin.post(f"/s/{t['id']}/settle/undo", data={"csrf_token": "t", "payment": "1"},
                  follow_redirects=True)  # asked first (newcomer N11), then taken back
    assert "Take back the payment of £1.00 from Quin to Rob?" in r.get_data(as_text=True)
    r = quin.post(f"/s/{t['id']}/settle/undo", data={"csrf_token": "t", "payment": "1",
                                                     "confirm": "1"}, follow_redirects=True)
    assert "\u2713 The payment of £1.00 from Quin to Rob is taken back" in r.get_data(as_text=True)
    [done] = get(client, t, "/settlement")["payments"]
    assert "undone" in done


def test_only_the_payee_is_offered_the_confirm_button(club_app, client, night):
    t = _claim(client, night)
    for who in ("Quin", "Sal"):
        page = _phone(club_app, t, night[who]).get(f"/s/{t['id']}/settle") \
            .get_data(as_text=True)
        assert "settle/confirm" not in page, who
    sal = _phone(club_app, t, night["Sal"])
    r = sal.post(f"/s/{t['id']}/settle/confirm", data={"csrf_token": "t", "payment": "1"},
                 follow_redirects=True)
    assert "is confirmed" not in r.get_data(as_text=True)
    assert get(client, t, "/settlement")["payments"][0]["pending"] is True


def test_a_refusal_stays_stuck_on_screen_only_on_a_hands_page():
    """A sticky flash covered the settle page's QR codes on a phone while
    scrolling: it is stuck only where the cards are picked below it."""
    import re
    from pathlib import Path

    import referee.web

    css = re.sub(r"/\*.*?\*/", "", (Path(referee.web.__file__).parent / "static" /
                                     "tablet.css").read_text(), flags=re.S)
    sticky = [m.group(1).strip()
              for m in re.finditer(r"([^{}]*)\{[^}]*position:\s*sticky", css)]
    flashes = [s for s in sticky if ".flash" in s]
    assert flashes and all(s.startswith("main:has(.actions)") for s in flashes), flashes


@pytest.mark.parametrize("lang", ["de", "fr", "pt"])
def test_a_refused_payment_says_its_amount_in_the_readers_form(client, lang):
    """Issue 35 leftovers: ``not_owed`` (a table's, the club's) and
    ``claim_waiting`` wrote the amount as typed, "1500.00", in every
    language; they write it as every other refusal writes a number."""
    from referee import language

    t = open_table(client, stake="1000", currency="EUR", language=lang)
    out_by(client, t, "Ben")  # Ann owes Ben 1000.00
    said = {"Accept-Language": lang}

    def refused(r, code: str, amount: str) -> None:
        message = assert_error(r, 422, code)["message"]
        assert amount not in message, message
        assert language.number(Decimal(amount), lang) in message, message

    refused(post(client, t, "/paid", {"from": "Ann", "to": "Ben", "amount": "1500.00"},
                 **said), "not_owed", "1500.00")
    ann = seat_token(client, t, "Ann")
    claim = {"from": "Ann", "to": "Ben", "amount": "1000.00"}
    assert post(client, t, "/paid", claim, token=ann).get_json()["pending"] is True
    refused(post(client, t, "/paid", claim, token=ann, **said), "claim_waiting", "1000.00")
    refused(client.post("/api/club/transfers", headers={**KEY, **said}, json={
        "from": "Ann", "to": "Ben", "amount": "1500.00", "currency": "EUR"}),
        "not_owed", "1500.00")
