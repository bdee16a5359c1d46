"""Quick logging on the tablet, without JavaScript (plain forms): a hand told
by its ending in a few taps with a second tap that shows who pays whom, and
shows given as counts in a played hand."""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from tests.test_tablet import create, flashes, form_value, hand_page, start, token

FOUR = ("Ann", "Ben", "Cy", "Dee")


def pick(client, sid, value: str, **extra) -> str:
    r = client.get(f"/s/{sid}/hands/quick", query_string={"pick": value, **extra})
    assert r.status_code == 200
    return r.data.decode()


def fields_of(page: str) -> list[tuple[str, str]]:
    return re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page)


def confirm(client, sid, page: str):
    assert 'id="confirm-yes"' in page, page[:3000]
    return client.post(f"/s/{sid}/hands/quick", data=MultiDict(fields_of(page)))


def test_the_table_page_leads_to_the_quick_hand_in_one_tap(client):
    sid = create(client, FOUR)
    page = client.get(f"/s/{sid}").data.decode()
    assert f'href="/s/{sid}/hands/quick?hand=1"' in page and 'id="quick-hand"' in page
    page = client.get(f"/s/{sid}/hands/quick").data.decode()
    for how in ("tonk_out", "out", "drop", "deal_win"):
        assert f'value="{how}:3"' in page
    assert 'value="stock_out:"' in page


def test_a_told_tonk_out_is_a_tap_then_who_pays_whom_then_a_second_tap(client):
    sid = create(client, FOUR)
    page = pick(client, sid, "tonk_out:1")  # nothing more to ask under pagat
    assert "Ben" in page and 'id="preview-payments"' in page
    assert "Ann pays Ben $0.50" in page
    r = confirm(client, sid, page)
    assert r.status_code == 303 and r.headers["Location"] == f"/s/{sid}"
    table = client.get(r.headers["Location"]).data.decode()
    assert any("told by its ending" in text for _kind, text in flashes(table))
    result = hand_page(client, sid, 1)
    assert 'id="told"' in result
    # the second tap is idempotent: a reload of the post logs nothing more
    again = confirm(client, sid, page)
    assert again.status_code in (303, 422)
    assert client.get(f"/s/{sid}").data.decode().count("/hands/2") == 0


def test_a_told_drop_asks_every_count_and_settles(client):
    sid = create(client, FOUR)
    page = pick(client, sid, "drop:3")
    for i in range(4):
        assert f'name="count{i}"' in page
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "q1",
            "dealer": "Ann", "how": "drop", "by": "3",
            "count0": "23", "count1": "31", "count2": "17", "count3": "7"}
    r = client.post(f"/s/{sid}/hands/quick", data=data)
    # the preview is a page of its own, reached by a GET (a reload posts nothing)
    assert r.status_code == 303 and "preview=1" in r.headers["Location"]
    preview = client.get(r.headers["Location"]).data.decode()
    assert "Ann 23 · Ben 31 · Cy 17 · Dee 7" in preview
    r = confirm(client, sid, preview)
    assert r.status_code == 303
    assert "drop won" in hand_page(client, sid, 1)


def test_a_missing_count_or_fact_is_asked_for_again(client):
    sid = create(client, FOUR)
    page = pick(client, sid, "drop:3")
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "q2",
            "dealer": "Ann", "how": "drop", "by": "3", "count0": "23"}
    r = client.post(f"/s/{sid}/hands/quick", data=data, follow_redirects=True)
    assert r.status_code == 200
    assert "Ben" in r.data.decode() and 'id="form-error"' in r.data.decode()
    data.update(count1="3", count2="4", count3="0")
    r = client.post(f"/s/{sid}/hands/quick", data=data, follow_redirects=True)
    assert 'id="form-error"' in r.data.decode() and "count of 0" in r.data.decode()
    assert client.get(f"/s/{sid}").data.decode().count('href="/s/' + sid + '/hands/1"') == 0


def test_facts_are_asked_only_where_the_rules_pay_by_them(client):
    sid = create(client, FOUR, preset="chicago")
    page = pick(client, sid, "tonk_out:0")
    assert 'name="fact_first_turn"' in page and 'name="fact_hit_a_spread"' in page
    assert 'name="fact_by_hits"' not in page
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "q3",
            "dealer": "Ann", "how": "tonk_out", "by": "0", "fact_first_turn": "no",
            "fact_hit_a_spread": "no"}
    preview = client.post(f"/s/{sid}/hands/quick", data=data,
                          follow_redirects=True).data.decode()
    assert "Ben pays Ann $0.25" in preview  # after the first turn a tonk out pays 1
    plain = create(client, FOUR)
    assert 'name="fact_' not in pick(client, plain, "tonk_out:0")


def test_push_ups_ask_the_losers_counts(client):
    sid = create(client, FOUR, preset="push_ups")
    page = pick(client, sid, "out:1")
    assert 'name="count0"' in page and 'name="count1"' not in page


def test_a_told_deal_win_takes_the_declared_cards(client):
    sid = create(client, FOUR)
    page = pick(client, sid, "deal_win:2")
    data = [("csrf_token", form_value(page, "csrf_token")), ("client_id", "q4"),
            ("dealer", "Ann"), ("how", "deal_win"), ("by", "2")]
    data += [("declare2", c) for c in ("Ks", "Kh", "Kd", "Kc", "9s")]
    preview = client.post(f"/s/{sid}/hands/quick", data=MultiDict(data),
                          follow_redirects=True).data.decode()
    assert "Ann pays Cy $0.50" in preview
    assert confirm(client, sid, preview).status_code == 303
    assert "deal win" in hand_page(client, sid, 1)


def test_shows_as_counts_in_a_played_hand(client):
    sid = create(client, ("Ann", "Ben", "Cy"))
    assert start(client, sid).status_code == 303
    page = hand_page(client, sid)
    # Ben drops at the start of his turn; the drop's second tap takes the counts.
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "d1",
            "expected_seq": "0", "act": "1:drop"}
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    assert r.headers["Location"].endswith("/hands/1/confirm")  # a GET page: back is safe
    assert 'name="count0"' in client.get(r.headers["Location"]).data.decode()
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1", "count1": "9"})
    page = client.get(r.headers["Location"]).data.decode()
    assert 'id="count-only"' in page
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "d2",
            "expected_seq": "2", "act": "all:count", "count0": "20", "count2": "30"}
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    if r.headers["Location"].endswith("/confirm"):  # the last show settles: the second tap
        r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1"})
    page = client.get(r.headers["Location"]).data.decode()
    assert "drop won" in page


@pytest.mark.parametrize("bad", ["x", "-3", "1e3"])
def test_a_count_that_is_not_a_number_is_refused_by_the_form(client, bad):
    sid = create(client, FOUR)
    page = pick(client, sid, "stock_out:")
    data = {"csrf_token": token(client, f"/s/{sid}/hands/new"), "client_id": "q5",
            "dealer": "Ann", "how": "stock_out", "count0": bad}
    r = client.post(f"/s/{sid}/hands/quick", data=data, follow_redirects=True)
    assert 'id="form-error"' in r.data.decode() and "whole number" in r.data.decode()
    assert page


def test_pages_mark_a_told_hand(client):
    sid = create(client, FOUR)
    assert confirm(client, sid, pick(client, sid, "tonk_out:1")).status_code == 303
    assert 'class="badge told"' in client.get(f"/s/{sid}").data.decode()
    assert 'class="badge told"' in client.get(f"/reports/{sid}/").data.decode()
    audit = client.get(f"/reports/{sid}/hands/1/audit").data.decode()
    assert 'id="told"' in audit and "Tonk out: Ben" in audit
    whatif = client.get(f"/reports/{sid}/whatif", query_string={"preset": "chicago"})
    assert 'id="unsettled"' in whatif.data.decode()


def test_a_quick_hand_logged_meanwhile_elsewhere_is_not_logged_twice(client):
    sid = create(client, FOUR)
    preview = pick(client, sid, "tonk_out:1", hand="1")
    other = pick(client, sid, "out:2", hand="1")  # a second tablet, the same moment
    assert confirm(client, sid, other).status_code == 303
    r = confirm(client, sid, preview)
    assert r.status_code == 303 and r.headers["Location"].endswith("/hands/1")
    page = client.get(r.headers["Location"]).data.decode()
    assert any("already logged" in text for _kind, text in flashes(page))
    assert client.get(f"/s/{sid}").data.decode().count(f'href="/s/{sid}/hands/2"') == 0


def test_the_next_hand_can_be_a_quick_one(client):
    sid = create(client, FOUR)
    assert confirm(client, sid, pick(client, sid, "out:1")).status_code == 303
    page = hand_page(client, sid, 1)
    assert f'href="/s/{sid}/hands/quick?hand=2"' in page


def test_counts_typed_on_counts_only_survive_the_confirm_step(client):
    """The last counts settle the hand: the confirm page must carry them to
    the second tap, or it answers "Type the counts on the pad first." and logs
    nothing (issue 35, item 2)."""
    sid = create(client, ("Ann", "Ben", "Cy"))
    assert start(client, sid).status_code == 303
    page = hand_page(client, sid)
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "d1",
            "expected_seq": "0", "act": "1:drop"}
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    r = client.post(f"/s/{sid}/hands/1/act", data={**data, "confirm": "1", "count1": "9"})
    page = client.get(r.headers["Location"]).data.decode()
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "d2",
            "expected_seq": "2", "act": "all:count", "count0": "20", "count2": "30"}
    r = client.post(f"/s/{sid}/hands/1/act", data=data)
    assert r.status_code == 303 and r.headers["Location"].endswith("/confirm")
    confirm_page = client.get(r.headers["Location"])
    assert 'id="confirm-yes"' in confirm_page.data.decode()
    form = confirm_page.data.decode().split('class="row confirm-form"')[1]
    r = client.post(f"/s/{sid}/hands/1/act", data=MultiDict(fields_of(form)))
    page = client.get(r.headers["Location"]).data.decode()
    # Said as a flash line (every page carries the sentence for offline.js).
    assert not [t for _k, t in flashes(page) if "Type the counts on the pad first." in t]
    assert "drop won" in page
