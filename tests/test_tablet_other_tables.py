"""The tablet under the rules other tables play (issue 36): it offers what
each option allows (the second card of the pile, the ace on a J-Q-K run,
the winner's dealer pre-selected) and says where a match stands."""

from __future__ import annotations

import re

from tests.test_tablet import (
    CAUGHT_DEAL,
    act,
    create,
    flashes,
    hand_page,
    play_caught_hand,
    start,
)


def _to_second_card(client, **options):
    sid = create(client, **{f"opt_{k}": v for k, v in options.items()})
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    act(client, sid, 1, "draw", ["8c"])
    act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])
    return sid, act(client, sid, 1, "discard", ["Qs"])  # the pile: 7d, then Qs


def test_two_deep_offers_the_second_card_of_the_pile_as_a_take(client):
    sid, page = _to_second_card(client, pickup_depth="2")
    assert 'value="2:take:7d"' in page and "Take 7♦ (the second card)" in page
    page = act(client, sid, 2, "take:7d")
    assert "Cy: take 7d" in page or "Cy takes 7♦" in page
    assert re.search(r'id="top"><span class="c c-black">Q♠', page)  # the top stayed
    _sid, page = _to_second_card(client)
    assert "take:7d" not in page and "(the second card)" not in page


def test_the_ace_hits_a_jack_queen_king_run_under_low_or_high(client):
    deal = {"Ann": ["2c", "3d", "As", "Ah", "9s"], "Ben": ["Jd", "Qd", "Kd", "Qs", "4c"],
            "Cy": ["Jh", "Js", "9c", "9d", "5d"]}
    for ace, accepted in (("\"low_or_high\"", True), ("\"low\"", False)):
        sid = create(client, opt_ace=ace)
        start(client, sid, deal=deal, upcard="7d")
        act(client, sid, 1, "draw", ["8c"])
        act(client, sid, 1, "spread", ["Jd", "Qd", "Kd"])
        act(client, sid, 1, "discard", ["Qs"])
        act(client, sid, 2, "draw", ["Ad"])
        page = act(client, sid, 2, "hit", ["Ad"], spread="S1")
        assert (("ok", "✓ Cy hits S1 with A♦.") in flashes(page)) is accepted, ace
        assert ("does not extend S1" in page) is not accepted


def test_winner_leads_pre_selects_the_dealer_at_the_winners_right(client):
    sid = create(client, opt_dealer_rotation='"winner_leads"')
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    play_caught_hand(client, sid)  # Ann drops and is caught: Ben wins
    page = client.get(f"/s/{sid}/hands/new").data.decode()
    assert 'value="Ann" checked' in page  # Ben's right
    r = start(client, sid, dealer="Cy", client_id="start-2")
    assert r.status_code == 303  # back to the form's own page, which says why
    assert "Ben won hand 1 and plays first" in client.get(r.headers["Location"]).data.decode()
    assert start(client, sid, dealer="Ann", client_id="start-3").status_code == 303


def test_a_match_over_is_said_and_a_new_hand_refused_with_its_reason(client):
    sid = create(client, preset="push_ups", opt_match_to="20")
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    page = play_caught_hand(client, sid)  # Ben 0, Ann 16, Cy 40: over
    assert "Match over after hand 1: Ben won the match to 20" in page
    table = client.get(f"/s/{sid}").data.decode()
    assert "Match over after hand 1: Ben won the match to 20" in table
    assert f"/s/{sid}/hands/new" not in table
    r = start(client, sid, dealer="Ben", client_id="start-2")
    assert r.status_code == 303
    assert "the match to 20 is over" in client.get(r.headers["Location"]).data.decode()
    assert hand_page(client, sid).count("Match over") >= 1


def test_match_over_on_the_papers_and_the_reports_pages(client):
    from tests.reports_fixtures import pdf_text

    sid = create(client, preset="push_ups", opt_match_to="20")
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    play_caught_hand(client, sid)
    said = "Match over after hand 1: Ben won the match to 20"
    for path in (f"/s/{sid}/standings", f"/s/{sid}/tv", f"/reports/{sid}/",
                 f"/reports/{sid}/hands/1/audit"):
        page = client.get(path)
        assert page.status_code == 200 and said in page.get_data(as_text=True), path
    for path in (f"/reports/{sid}/settlement.pdf", f"/reports/{sid}/hands/1/audit.pdf"):
        assert said in " ".join(pdf_text(client.get(path).data).split()), path


def test_a_match_over_says_so_at_once_on_the_new_and_quick_hand_pages(client):
    """Newcomer45 P10c: after the match, a bookmarked (or Back) start or
    quick-hand page drew its whole form and refused only once everything was
    typed. It now leads at once to the table's page with the refusal the
    form would get (who won, that the match is over), in the reader's
    language; a push-up table's settle-up and manage pages offer no payment."""
    sid = create(client, preset="push_ups", opt_match_to="20")
    start(client, sid, deal=CAUGHT_DEAL, upcard="7d")
    play_caught_hand(client, sid)  # Ben 0, Ann 16, Cy 40: over
    refusals = {}
    for lang in ("en", "de", "fr", "pt"):
        client.get(f"/s/{sid}?lang={lang}")
        refused = start(client, sid, dealer="Ben", client_id=f"start-{lang}")
        said = [m for kind, m in flashes(client.get(refused.headers["Location"]).data.decode())
                if kind == "error"]
        assert len(said) == 1 and "20" in said[0] and "Ben" in said[0], said
        for path in (f"/s/{sid}/hands/quick?hand=2", f"/s/{sid}/hands/new?hand=2",
                     f"/s/{sid}/hands/quick", f"/s/{sid}/hands/new"):
            r = client.get(path)
            assert r.status_code == 303 and r.headers["Location"] == f"/s/{sid}", (lang, path)
            page = client.get(r.headers["Location"]).data.decode()
            assert ("error", said[0]) in flashes(page), (lang, path, flashes(page))
        refusals[lang] = said[0]
    assert refusals["en"].startswith("Hand 2: the match to 20 is over: Ben won it")
    assert len(set(refusals.values())) == 4, refusals
    client.get(f"/s/{sid}?lang=en")
    settle = client.get(f"/s/{sid}/settle").data.decode()
    assert 'id="record-cash"' not in settle and "Record a cash payment" not in settle
    assert "The match is over: no hand follows" in settle and "with every hand" not in settle
    manage = client.get(f"/s/{sid}/manage").data.decode()
    assert 'id="payment-form"' not in manage
    table = client.get(f"/s/{sid}").data.decode()
    assert "payments" not in re.search(r'id="manage"[^>]*>([^<]*)<', table).group(1)
    # A table with stakes still offers them.
    sid = create(client)
    assert 'id="record-cash"' in client.get(f"/s/{sid}/settle").data.decode()
    assert 'id="payment-form"' in client.get(f"/s/{sid}/manage").data.decode()
