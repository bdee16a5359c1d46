"""The rules other tables play at a live table (issue 36): the API checks
the new options, the table refuses a hand after a match and a wrong dealer
under winner leads, also when its state is rebuilt from the database, and
the result says where the match stands as the replay of its log does."""

from __future__ import annotations

import json

from referee.record.result_text import result_json_text
from referee.replay import replay
from referee.service.table import cache
from tests.test_api import assert_error, bearer

HEADER = {"format": "tonk-log/1", "stake": "1", "players": ["Ann", "Ben", "Cy"]}


def _table(client, rules):
    r = client.post("/api/sessions", json={**HEADER, "rules": rules})
    assert r.status_code == 201, r.get_json()
    t = r.get_json()
    return t["id"], bearer(t["table_token"])


def _told(client, sid, auth, dealer, **ending):
    return client.post(f"/api/sessions/{sid}/hands", headers=auth,
                       json={"dealer": dealer, "ending": ending})


def test_the_api_refuses_option_values_the_spec_does_not_list(client):
    for rules in ({"preset": "pagat", "match_to": 100}, {"preset": "push_ups", "match_to": 0},
                  {"preset": "pagat", "ace": "high"}, {"preset": "pagat", "pickup_depth": 3},
                  {"preset": "pagat", "hand_size": 8},
                  {"preset": "pagat", "dealer_rotation": "winner"}):
        r = client.post("/api/sessions", json={**HEADER, "rules": rules})
        assert_error(r, 400, "bad_option_value")
    sid, auth = _table(client, {"preset": "push_ups", "match_to": 50, "ace": "low_or_high",
                                "pickup_depth": 2, "hand_size": 9, "caught": "lowest_wins",
                                "dealer_rotation": "winner_leads"})
    log = client.get(f"/api/sessions/{sid}/log", headers=auth).get_json()
    assert log["rules"]["match_to"] == 50


def test_a_match_ends_and_a_new_hand_is_refused_with_its_reason(client):
    sid, auth = _table(client, {"preset": "push_ups", "match_to": 30})
    for dealer, by, counts in (("Ann", "Ben", {"Ann": 12, "Ben": 3, "Cy": 20}),
                               ("Ben", "Cy", {"Ann": 9, "Ben": 7, "Cy": 2}),
                               ("Cy", "Ben", {"Ann": 10, "Ben": 1, "Cy": 3})):
        r = _told(client, sid, auth, dealer, how="drop", by=by, counts=counts)
        assert r.status_code == 201, r.get_json()
    result = client.get(f"/api/sessions/{sid}/result", headers=auth)
    assert result.get_json()["match"] == {"to": 30, "scores": {"Ann": "31", "Ben": "7",
                                                              "Cy": "23"},
                                          "over": True, "after_hand": 3, "winners": ["Ben"]}
    log = client.get(f"/api/sessions/{sid}/log", headers=auth).get_json()
    assert result.get_data(as_text=True) == result_json_text(replay(log).result().to_json())
    for forget in (False, True):
        if forget:
            cache.forget()  # the table's state rebuilt from the database
        r = _told(client, sid, auth, "Ann", how="out", by="Cy")
        err = assert_error(r, 422, "match_over")
        assert err["hand"] == 4 and "Ben won it" in err["message"]
    log = client.get(f"/api/sessions/{sid}/log", headers=auth).get_json()
    assert len(log["hands"]) == 3


def test_a_match_not_yet_over_says_so(client):
    sid, auth = _table(client, {"preset": "push_ups", "match_to": 100})
    _told(client, sid, auth, "Ann", how="drop", by="Ben", counts={"Ann": 12, "Ben": 3, "Cy": 20})
    match = client.get(f"/api/sessions/{sid}/result", headers=auth).get_json()["match"]
    assert match == {"to": 100, "scores": {"Ann": "12", "Ben": "0", "Cy": "20"},
                     "over": False, "after_hand": None, "winners": None}
    sid, auth = _table(client, "push_ups")
    assert "match" not in client.get(f"/api/sessions/{sid}/result", headers=auth).get_json()


def test_winner_leads_checks_the_dealer_also_after_a_rebuild(client):
    sid, auth = _table(client, {"preset": "pagat", "dealer_rotation": "winner_leads"})
    assert _told(client, sid, auth, "Ann", how="tonk_out", by="Cy").status_code == 201
    for forget in (False, True):
        if forget:
            cache.forget()
        err = assert_error(_told(client, sid, auth, "Cy", how="out", by="Ann"), 422,
                           "wrong_dealer")
        assert "Cy won hand 1" in err["message"]
    assert _told(client, sid, auth, "Ben", how="out", by="Ann").status_code == 201
    cache.forget()
    # Ann won hand 2: Cy, at her right, deals hand 3.
    assert_error(_told(client, sid, auth, "Ann", how="out", by="Ann"), 422, "wrong_dealer")
    assert _told(client, sid, auth, "Cy", how="out", by="Ann").status_code == 201
    log = client.get(f"/api/sessions/{sid}/log", headers=auth).get_json()
    assert [h["dealer"] for h in log["hands"]] == ["Ann", "Ben", "Cy"]
    assert json.dumps(replay(log).result().to_json())


def test_the_season_counts_a_match_as_one(app):
    """Two matches to a score (one of three hands, one of two) and a match
    not yet over: each player has played two matches, Ben won both, and the
    unfinished one counts for nothing; the season's hands count as ever."""
    from referee.ledger.club import ClubSession, HandLine, season_stats

    app.config["REFEREE_HOST_KEY"] = "club-key"
    client = app.test_client()
    drops = [{"how": "drop", "by": "Ben", "counts": {"Ann": 12, "Ben": 3, "Cy": 20}},
             {"how": "drop", "by": "Ben", "counts": {"Ann": 9, "Ben": 1, "Cy": 2}},
             {"how": "drop", "by": "Ben", "counts": {"Ann": 10, "Ben": 1, "Cy": 3}}]
    for day, to, hands in (("2026-11-02", 30, 3), ("2026-11-09", 21, 2), ("2026-11-16", 99, 1)):
        r = client.post("/api/sessions", headers={"X-Host-Key": "club-key"}, json={
            **HEADER, "rules": {"preset": "push_ups", "match_to": to},
            "started": f"{day}T20:00:00Z"})
        assert r.status_code == 201, r.get_json()
        t = r.get_json()
        auth = {**bearer(t["table_token"]), "X-Host-Key": "club-key"}
        for k, dealer in zip(range(hands), ("Ann", "Ben", "Cy"), strict=False):
            assert _told(client, t["id"], auth, dealer, **drops[k]).status_code == 201
    season = client.get("/api/club/season", headers={"X-Host-Key": "club-key"}).get_json()
    assert season["sessions"] == 3
    assert {p: (st["matches"], st["matches_won"]) for p, st in season["players"].items()} == \
        {"Ann": (2, 0), "Ben": (2, 2), "Cy": (2, 0)}
    assert season["players"]["Ben"]["hands"] == 6
    from tests.test_club import _csrf

    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": _csrf(client)})
    page = client.get("/club/season")
    assert page.status_code == 200
    assert "Ben won 2 of 2 matches." in page.get_data(as_text=True)
    # Tied lowest share the win: each of them has won the match.
    line = HandLine("stock_out", ("Ann", "Ben"), {"Ann": 0, "Ben": 0, "Cy": 5})
    shared = ClubSession("s", "2026-11-20", ["Ann", "Ben", "Cy"], [line],
                         match_winners=("Ann", "Ben"))
    stats = season_stats([shared])
    assert [(stats[p].matches, stats[p].matches_won) for p in ("Ann", "Ben", "Cy")] == \
        [(1, 1), (1, 1), (1, 0)]


def test_the_settlement_says_the_match_is_over_and_who_won_it():
    from pathlib import Path

    from referee.record import load_log
    from referee.reports.settlement import render_settlement
    from tests.reports_fixtures import pdf_text

    path = Path(__file__).resolve().parents[1] / "sample_logs" / "opt_match_to_over.json"
    log = json.loads(path.read_text())
    text = " ".join(pdf_text(render_settlement(replay(load_log(log)))).split())
    assert "Match over after hand 3: Ann won the match to 30 (the lowest score)." in text
    log["language"] = "de"
    text = " ".join(pdf_text(render_settlement(replay(load_log(log)))).split())
    assert "Die Partie bis 30 ist nach Hand 3 vorbei: Sieg für Ann" in text
    log.pop("language")
    log["hands"] = log["hands"][:2]
    text = " ".join(pdf_text(render_settlement(replay(load_log(log)))).split())
    assert "A match to 30: it ends after the hand in which a score reaches 30" in text


def test_the_house_rules_sheet_says_each_new_option_with_an_example_from_the_engine():
    from referee.reports.sheet import examples, render_sheet
    from tests.reports_fixtures import pdf_text

    log = {**HEADER, "players": ["Ann", "Ben", "Cy", "Dee"], "hands": [],
           "rules": {"preset": "push_ups", "ace": "low_or_high", "pickup_depth": 2,
                     "dealer_rotation": "winner_leads", "caught": "lowest_wins",
                     "match_to": 100, "hand_size": 9}}
    said = examples(log, "en")
    assert said[0] == ("The ace low or high: Q♥ K♥ A♥, A♥ 2♥ 3♥ are runs; K♥ A♥ 2♥, "
                       "Q♥ K♥ A♥ 2♥ are not.")
    assert "with 5♥ on top of 7♦, a player may take either" in said[1]
    # Dee wins: Cy, at her right, deals (the engine's own rotation).
    assert said[2] == "The winner leads: if Dee wins a hand, Cy deals the next one and Dee " \
        "plays first."
    # Under push-ups a caught drop pays nothing: the lowest (Ben) wins and
    # scores 0, the dropper goes up as any loser (newcomer44 P2).
    assert said[3] == "For example: Push-ups, nothing is paid: Ben scores 0 and every loser " \
        "goes up by their count (Ann 9, Cy 9 and Dee 20)."
    assert said[4].startswith("A match to 100: it ends after the hand")
    text = " ".join(pdf_text(render_sheet(log)).split())
    for line in said:
        assert " ".join(line.split()) in text
    assert examples({**log, "rules": "pagat"}, "en") == []
    assert examples({**log, "language": "de"}, "de")[2].startswith("Der Gewinner spielt an")
