"""Push-up scoring on every page (newcomer44 P2): nothing is paid, winners
score 0 and each loser goes up by their count (twice that after a double
win), and a rising score is a loss, as rules.md and the settlement paper say."""

from __future__ import annotations

import re
from decimal import Decimal

from werkzeug.datastructures import MultiDict

from referee.ledger.payments import settle_ending
from referee.rules.ending import TONK_OUT, Ending
from referee.rules.options import resolve
from tests.test_tablet import create, form_value, hand_page
from tests.test_tablet_quick import confirm

THREE = ("Ann", "Ben", "Cy")


def told_tonk_out(client) -> tuple[str, str]:
    """A push-ups table and the preview of Ann's first-turn tonk out (a double
    win), Ben holding 7 and Cy 12."""
    sid = create(client, THREE, preset="push_ups", currency="", stake="1")
    page = client.get(f"/s/{sid}/hands/quick", query_string={"pick": "tonk_out:0"}).data.decode()
    data = {"csrf_token": form_value(page, "csrf_token"), "client_id": "pu1", "dealer": "Ann",
            "how": "tonk_out", "by": "0", "count1": "7", "count2": "12"}
    r = client.post(f"/s/{sid}/hands/quick", data=MultiDict(data), follow_redirects=True)
    return sid, r.data.decode()


def test_the_ledger_pays_nothing_and_says_the_scores():
    rules = resolve("push_ups")
    ending = Ending(TONK_OUT, THREE, "Cy", player="Ann", pays=Decimal(2),
                    counts={"Ann": 0, "Ben": 7, "Cy": 12})
    s = settle_ending(ending, rules)
    assert s.payments == [] and s.winners == ["Ann"]
    assert s.net == {"Ann": 0, "Ben": 14, "Cy": 24}
    said = " ".join(s.story)
    assert "pays" not in said
    assert "Ann scores 0" in said and "Ben 7 × 2 = 14" in said and "Cy 12 × 2 = 24" in said


def test_no_page_says_anybody_pays(client):
    sid, preview = told_tonk_out(client)
    assert "pays" not in preview.split('id="confirm"', 1)[-1].split("</section>", 1)[0]
    assert "Show who pays whom" not in client.get(
        f"/s/{sid}/hands/quick", query_string={"pick": "tonk_out:0"}).data.decode()
    assert "Ann scores 0" in preview and "Ben 7 × 2 = 14" in preview
    assert confirm(client, sid, preview).status_code == 303
    hand = hand_page(client, sid, 1)
    result = hand.split('id="result"', 1)[1].split("</section>", 1)[0]
    assert "pays" not in result and 'id="payments"' not in result
    assert "Ann scores 0" in result
    tv = client.get(f"/s/{sid}/tv").data.decode()
    assert "pays" not in tv and "Ann scores 0" in tv
    settle = client.get(f"/s/{sid}/settle").data.decode()
    assert "Push-up scores are compared, not paid: lowest is best (Ann)." in settle


def test_a_rising_score_is_coloured_as_a_loss(client):
    sid, preview = told_tonk_out(client)
    confirm(client, sid, preview)
    standings = client.get(f"/s/{sid}/standings").data.decode()
    cell = re.search(r'data-player="Ben"[^>]*><span class="([^"]*)">14<', standings)
    assert cell and cell.group(1) == "neg", standings[-4000:]
    tv = client.get(f"/s/{sid}/tv").data.decode()
    total = re.search(r'<th scope="row">Ben</th><td class="num"><span class="([^"]*)">', tv)
    assert total and total.group(1) == "neg", tv
