"""The ledger's invariants under random sequences of requests (issue 33):
tables in two currencies, hands, payments by the host and by the players'
own phones, confirmations, undos, "Mark paid" at the table and at the club,
carries, closing. After every step:

- per currency every balance sums to zero (each table's, and the club's);
- every debt is owed in one place: the club's debts are exactly each
  table's own, and a person's club balance is the sum of what the tables say;
- a table's page, its export's replay and the club say the same of what its
  players owe (and its PDF lists the same debts, checked on demand);
- no request a seat's token sends moves more than its own player owes: no
  one's balance grows in size or changes sign, and no one else's moves;
- replaying the chain (``referee verify``, at the end of each run) finds the
  rows as the pages read them.

The example count is kept small for CI (well under a minute).
"""

from __future__ import annotations

import shutil
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    invariant,
    multiple,
    rule,
    run_state_machine_as_test,
)

from referee.service.table import cache
from referee.web.db import Handles
from tests.money_tables import KEY, as_decimals, get, out_by, paper_text, post, replayed

PEOPLE = ("Ann", "Ben", "Cy")
CURRENCIES = ("USD", "EUR")
AMOUNTS = st.sampled_from(["0.01", "0.50", "1.00", "1.50", "2.00", "7.00"])
ZERO = Decimal(0)


class Money(RuleBasedStateMachine):
    """A club's night as a sequence of requests. ``app`` and ``template`` (a
    migrated database, copied for each run) are set by the test."""

    tables = Bundle("tables")
    app = None
    template: Path | None = None

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="money33-")
        path = str(Path(self.dir) / "t.sqlite3")
        shutil.copy(self.template, path)
        self.app.config["DATABASE"] = path
        self.app.extensions["referee"] = Handles(path)
        cache.forget()
        self.client = self.app.test_client()
        self.all: list[dict] = []

    def teardown(self) -> None:
        from tests.test_trust import verify

        try:
            assert verify(self.app) == 0, "referee verify: the rows are not what the chain says"
        finally:
            cache.forget()
            shutil.rmtree(self.dir, ignore_errors=True)

    # ------------------------------------------------------------ helpers

    def balances(self, t: dict) -> dict[str, Decimal]:
        st_ = get(self.client, t, "")
        return as_decimals(st_["balances"] or st_["totals"])

    def owed(self, t: dict) -> list[tuple[str, str, str]]:
        return [(o["from"], o["to"], o["amount"])
                for o in get(self.client, t, "/settlement")["owed"]]

    def ledger(self, currency: str) -> dict | None:
        r = self.client.get(f"/api/club/ledger?currency={currency}", headers=KEY)
        if r.status_code == 404:  # no table in that currency yet
            return None
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def _open(self, currency, players, body_extra=None):
        body = {"stake": "1", "rules": "pagat", "players": list(players),
                "currency": currency, **(body_extra or {})}
        return self.client.post("/api/sessions", json=body, headers=KEY)

    def _table(self, r, currency, players) -> dict:
        made = r.get_json()
        t = {"id": made["id"], "token": made["table_token"], "currency": currency,
             "players": list(players), "closed": False}
        t["seats"] = {}
        for p in players:
            link = post(self.client, t, "/links", {"role": "seat", "player": p})
            t["seats"][p] = link.get_json()["token"]
        self.all.append(t)
        return t

    # ------------------------------------------------------------ rules

    @rule(target=tables, currency=st.sampled_from(CURRENCIES),
          players=st.sampled_from([PEOPLE[:2], PEOPLE[1:], PEOPLE]))
    def open_table(self, currency, players):
        r = self._open(currency, players)
        assert r.status_code == 201, r.get_json()
        return self._table(r, currency, players)

    @rule(t=tables, data=st.data())
    def play_a_hand(self, t, data):
        if t["closed"]:
            return
        out_by(self.client, t, data.draw(st.sampled_from(t["players"])))

    @rule(t=tables, data=st.data(), amount=AMOUNTS)
    def the_host_records_a_payment(self, t, data, amount):
        payer, payee = data.draw(st.permutations(t["players"]))[:2]
        post(self.client, t, "/payments", {"from": payer, "to": payee, "amount": amount})

    @rule(t=tables, data=st.data(), amount=AMOUNTS, paid=st.booleans())
    def a_phone_records_a_payment(self, t, data, amount, paid):
        """Whatever a seat's token sends moves no more than is owed."""
        payer, payee = data.draw(st.permutations(t["players"]))[:2]
        seat = data.draw(st.sampled_from([payer, payee]))
        before = self.balances(t)
        if paid and data.draw(st.booleans()):  # its settle-up's transfer, as listed
            owed = self.owed(t)
            if owed:
                payer, payee, amount = data.draw(st.sampled_from(owed))
                seat = data.draw(st.sampled_from([payer, payee]))
        post(self.client, t, "/paid" if paid else "/payments",
             {"from": payer, "to": payee, "amount": amount}, token=t["seats"][seat])
        self._moved_no_more(before, self.balances(t), payer, payee)

    @rule(t=tables, data=st.data(), host=st.booleans())
    def a_payment_is_confirmed(self, t, data, host):
        payments = get(self.client, t, "/settlement")["payments"]
        if not payments:
            return
        k = data.draw(st.integers(1, len(payments)))
        before = self.balances(t)
        p = payments[k - 1]
        token = None if host else t["seats"][data.draw(st.sampled_from([p["from"],
                                                                        p["to"]]))]
        post(self.client, t, f"/payments/{k}/confirm", {}, token=token)
        if token is not None:
            self._moved_no_more(before, self.balances(t), p["from"], p["to"])

    @rule(t=tables, data=st.data(), host=st.booleans())
    def a_payment_is_taken_back(self, t, data, host):
        payments = get(self.client, t, "/settlement")["payments"]
        if not payments:
            return
        k = data.draw(st.integers(1, len(payments)))
        p = payments[k - 1]
        before = self.balances(t)
        token = None if host else t["seats"][data.draw(st.sampled_from([p["from"],
                                                                        p["to"]]))]
        post(self.client, t, f"/payments/{k}/undo", {}, token=token)
        if token is not None:  # a phone takes back a claim that moved nothing
            assert self.balances(t) == before

    @rule(t=tables)
    def the_host_closes(self, t):
        if post(self.client, t, "/close", {}).status_code == 201:
            t["closed"] = True

    @rule(target=tables, source=tables, currency=st.sampled_from(CURRENCIES),
          players=st.sampled_from([PEOPLE[:2], PEOPLE[1:], PEOPLE]))
    def a_new_table_carries_the_debts(self, source, currency, players):
        mine = {c: self._club_balances(c) for c in CURRENCIES}
        r = self._open(currency, players, {"brought_forward_from": source["id"],
                                           "brought_forward_token": source["token"]})
        if r.status_code != 201:
            assert r.get_json()["error"]["code"] in (
                "carried_already", "carry_currency"), r.get_json()
            assert {c: self._club_balances(c) for c in CURRENCIES} == mine
            return multiple()  # no new table
        t = self._table(r, currency, players)
        # A carry moves no money: only where it is owed.
        assert {c: self._club_balances(c) for c in CURRENCIES} == mine
        return t

    @rule(data=st.data(), currency=st.sampled_from(CURRENCIES))
    def the_club_marks_a_debt_paid(self, data, currency):
        led = self.ledger(currency)
        if not led or not led["transfers"]:
            return
        debt = data.draw(st.sampled_from(led["transfers"]))
        r = self.client.post("/api/club/transfers", json={**debt, "currency": currency},
                             headers=KEY)
        assert r.status_code == 201, r.get_json()
        after = self.ledger(currency)
        assert Decimal(after["balances"][debt["from"]]) == \
            Decimal(led["balances"][debt["from"]]) + Decimal(debt["amount"])

    @rule(t=tables)
    def the_paper_lists_what_the_page_owes(self, t):
        text = paper_text(self.client, t)
        for payer, payee, _amount in self.owed(t):
            assert f"{payer} pays {payee}" in text

    # ------------------------------------------------------------ checks

    def _moved_no_more(self, before, after, payer, payee):
        for p in after:
            was, now = before.get(p, ZERO), after[p]
            if p not in (payer, payee):
                assert now == was, (p, was, now)
            assert abs(now) <= abs(was) and now * was >= 0, (p, was, now)

    def _counted(self, t: dict) -> bool:
        """A table the club counts: something happened there (newcomer N3)."""
        log = get(self.client, t, "/log")
        return any(log.get(k) for k in ("hands", "payments", "brought_forward",
                                         "carried_forward"))

    def _club_balances(self, currency) -> dict[str, Decimal]:
        led = self.ledger(currency)
        return {p: v for p, v in as_decimals(led["balances"]).items() if v} if led else {}

    @invariant()
    def every_balance_sums_to_zero_and_says_the_same_everywhere(self):
        for currency in CURRENCIES:
            led = self.ledger(currency)
            mine = [t for t in self.all if t["currency"] == currency and self._counted(t)]
            if led is None:
                assert not mine
                continue
            club = as_decimals(led["balances"])
            assert sum(club.values()) == 0
            summed: dict[str, Decimal] = {}
            for t in mine:
                page = self.balances(t)
                assert sum(page.values()) == 0
                for p, v in page.items():
                    summed[p] = summed.get(p, ZERO) + v
                owed = self.owed(t)
                # The page, the export's replay and the club: one answer.
                result = replayed(self.client, t)
                assert as_decimals(result.get("balances") or result["totals"]) == page
                assert [(x["from"], x["to"], x["amount"])
                        for x in result["transfers"]] == owed
                assert [(x["from"], x["to"], x["amount"]) for x in led["transfers"]
                        if x["session"] == t["id"]] == owed
            assert {p: v for p, v in summed.items() if v} == \
                {p: v for p, v in club.items() if v}
            # Each debt in one place: the club's debts are the tables'.
            assert {x["session"] for x in led["transfers"]} <= {t["id"] for t in mine}
            left = dict(club)
            for x in led["transfers"]:
                left[x["from"]] += Decimal(x["amount"])
                left[x["to"]] -= Decimal(x["amount"])
            assert not any(left.values())



@pytest.fixture
def club_app(module_app):
    saved = dict(module_app.config)
    module_app.config["REFEREE_HOST_KEY"] = "club-key"
    yield module_app
    module_app.config.clear()
    module_app.config.update(saved)
    cache.forget()


def test_money_appears_doubles_or_disagrees_nowhere(club_app, migrated_db):
    Money.app, Money.template = club_app, migrated_db
    run_state_machine_as_test(Money, settings=settings(
        max_examples=8, stateful_step_count=14, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
