"""What the 41st newcomer's night read wrong: the start page after a void
said the deal passed to the left (N7); the replay's English wrote raw ISO
times and its German a past label over a present verb (N13); winners were
listed with commas where a person says "and" (N15)."""

from __future__ import annotations

import re

import pytest

from referee.service.table import table_events
from tests.test_tablet import create, start

AFTER_VOID = {
    "en": "After the void hand, Ann deals again.",
    "de": "Nach der annullierten Hand gibt Ann noch einmal.",
    "fr": "Après la main annulée, Ann distribue à nouveau.",
    "pt": "Depois da mão anulada, Ann distribui de novo.",
}


def _void_first_hand(app, client) -> str:
    sid = create(client)
    assert start(client, sid).status_code == 303  # Ann deals hand 1
    with app.app_context():
        from referee.web.db import get_db

        table_events.void(get_db(), sid, 1, "misdeal")
    return sid


@pytest.mark.parametrize("lang", sorted(AFTER_VOID))
def test_after_a_void_the_start_page_says_the_same_dealer_deals_again(app, client, lang):
    sid = _void_first_hand(app, client)
    page = client.get(f"/s/{sid}/hands/new?lang={lang}").get_data(as_text=True)
    said = re.search(r'id="dealer-why">([^<]*)<', page).group(1)
    assert said == AFTER_VOID[lang]
    assert 'value="Ann" checked' in page



# ------------------------------------------------------------------ N13: the replay's times


def test_the_replay_writes_times_and_payments_as_the_papers_do(tmp_path):
    from referee.record import load_log
    from referee.replay import replay
    from referee.reports.text import format_report

    doc = {"format": "tonk-log/1", "stake": "1", "currency": "EUR", "rules": "pagat",
           "players": ["Anna", "Ben", "Chris"], "started": "2026-11-28T22:46:43Z",
           "hands": [{"dealer": "Anna", "ending": {"how": "out", "by": "Anna"}}],
           "payments": [{"from": "Chris", "to": "Anna", "amount": "2",
                         "at": "2026-11-28T22:51:15Z"}]}
    session = replay(load_log(doc))
    said = {lang: format_report(session, session.result(), lang) for lang in ("en", "de")}
    assert "Started 2026-11-28 22:46 UTC" in said["en"]
    assert "Chris paid Anna 2.00 EUR (2026-11-28 22:51 UTC, recorded at this table)" in said["en"]
    assert "T22:" not in said["en"]
    assert "Begonnen 28.11.2026 22:46 UTC" in said["de"]
    assert ("Chris hat Anna 2,00\u00a0€ gezahlt (28.11.2026 22:51 UTC, an diesem Tisch erfasst)"
            in said["de"])
    assert "Gezahlt:" not in said["de"]


# ------------------------------------------------------------------ N15: names, acceptances, links


def _told_tie(client):
    from tests.test_api import Game, bearer

    g = Game(client)
    summary = client.get(g.url(), headers=bearer(g.table)).get_json()
    first, second, third = summary["seated"]
    r = client.post(g.url("/hands"), headers=bearer(g.table), json={
        "dealer": summary["next_dealer"],
        "ending": {"how": "stock_out", "counts": {first: 5, second: 5, third: 20}}})
    assert r.status_code == 201, r.get_json()
    return g, (first, second)


@pytest.mark.parametrize("lang, word", [("en", "and"), ("de", "und"), ("fr", "et"),
                                        ("pt", "e")])
def test_winners_are_joined_with_the_languages_and(app, client, lang, word):
    from tests.test_phones import _joined, _link

    g, (first, second) = _told_tie(client)
    viewer = _joined(app, _link(g, "viewer"))
    both = f"{first} {word} {second}"
    for page in (f"/s/{g.sid}/hands/1?lang={lang}", f"/s/{g.sid}/tv?lang={lang}"):
        html = viewer.get(page).get_data(as_text=True)
        assert both in html, page
        assert f"{first}, {second}" not in html, page


@pytest.mark.parametrize("lang, said", [("en", "Nobody has confirmed the result"),
                                        ("de", "Niemand hat das Ergebnis bestätigt")])
def test_a_closed_tables_hand_nobody_accepted_says_so(app, client, lang, said):
    from tests.test_phones import _joined, _link
    from tests.test_table_events import post

    g, _ = _told_tie(client)
    viewer = _joined(app, _link(g, "viewer"))
    assert post(g, "/close", {}).status_code in (200, 201)
    html = viewer.get(f"/s/{g.sid}/hands/1?lang={lang}").get_data(as_text=True)
    found = re.search(r'<p class="muted" id="accepted-none">([^<]*)</p>', html)
    assert found and found.group(1) == said


def test_a_revoked_links_reason_stays_across_a_reload(app, client):
    from tests.test_api import Game, bearer
    from tests.test_phones import _joined, _link

    g = Game(client)
    phone = _joined(app, _link(g, "seat", "Ann"))
    assert phone.get(f"/s/{g.sid}").status_code == 200
    r = client.post(g.url("/links/revoke"), json={"role": "seat", "player": "Ann"},
                    headers=bearer(g.table))
    assert r.status_code == 201
    for _ in range(2):  # the first visit after the revoke, then a reload
        r = phone.get(f"/s/{g.sid}")
        assert r.status_code == 302 and "revoked=1" in r.headers["Location"]
        page = phone.get(r.headers["Location"]).get_data(as_text=True)
        assert "has been revoked" in page


@pytest.mark.parametrize("lang, session_stake, hand_stake", [
    ("de", "Einsatz 0,50\u00a0€", "Einsatz 1,00\u00a0€ für diese Hand"),
    ("fr", "mise 0,50\u00a0€", "mise 1,00\u00a0€ pour cette main"),
    ("pt", "aposta 0,50\u00a0€", "aposta 1,00\u00a0€ nesta mão"),
    ("en", "stake 0.5 EUR", "stake 1 EUR for this hand"),
])
def test_the_replay_writes_stakes_as_the_pages_do(lang, session_stake, hand_stake):
    """A stake in the replay's report is money as the pages write it ('1,00 €';
    it was '1 EUR', newcomer 43's N13). English keeps the log's own text, as
    scripts read it; a stake with more places keeps them."""
    from referee.record import load_log
    from referee.replay import replay
    from referee.reports.text import format_report

    doc = {"format": "tonk-log/1", "stake": "0.5", "currency": "EUR", "rules": "pagat",
           "players": ["Anna", "Ben", "Chris"],
           "hands": [{"dealer": "Anna", "ending": {"how": "out", "by": "Anna"}},
                     {"dealer": "Ben", "stake": "1",
                      "ending": {"how": "out", "by": "Ben"}},
                     {"dealer": "Chris", "stake": "0.125",
                      "ending": {"how": "out", "by": "Chris"}}]}
    session = replay(load_log(doc))
    said = format_report(session, session.result(), lang)
    assert session_stake in said and hand_stake in said, said
    if lang != "en":
        assert "0,125\u00a0€" in said and "EUR" not in said, said
