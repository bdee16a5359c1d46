"""A told hand's typo corrected without a dispute (issue 35 item 15): the
host tells the newest hand again while nobody has accepted it; the chain
keeps the correction and both tellings, the log the hand as it stands, and
verify, the chain's own check and the audit hold."""

from __future__ import annotations

import pytest

from referee.reports.stored import load_stored
from referee.service import trust
from referee.service.errors import RefereeError
from referee.service.table import retell, sessions, table_events
from referee.web.db import get_db
from tests.helpers import result_of
from tests.test_told_service import DROP, _table

# Ann's count typed as 8 where she had 20: Ben caught instead of a drop won.
TYPO = {**DROP, "counts": {**DROP["counts"], "Ann": 8}}


def _told(client, ending=TYPO):
    sid, auth = _table(client)
    r = client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann", "ending": ending},
                    headers=auth)
    assert r.status_code == 201, r.get_json()
    return sid, auth


def verified_kinds(db, sid: str) -> list[str]:
    """The stored table verifies, and so does its export with its chain: the
    kinds of the chain's events, in order."""
    assert trust.verify_session(db, sid) == []
    exported = sessions.export_with_chain(db, sid)
    assert trust.verify_log(exported)
    return [e["kind"] for e in exported["chain"]["events"]]


def test_the_host_tells_the_newest_hand_again(app, client):
    sid, auth = _told(client)
    with app.app_context():
        db = get_db()
        before = sessions.get_log(db, sid)["hands"][0]
        assert result_of(sessions.get_log(db, sid))["hands"][0]["outcome"] == "caught"
        seen = retell.preview(db, sid, 1, {"ending": DROP})
        assert seen["result"]["outcome"] == "drop_won"
        assert sessions.get_log(db, sid)["hands"][0] == before  # a preview changes nothing
        state = retell.tell_again(db, sid, 1, {"ending": DROP}, client_id="fix-1")
        assert state["result"]["outcome"] == "drop_won"
        assert state["result"]["net"] == {"Ann": "-0.50", "Ben": "1.00", "Cy": "-0.50"}
        # the same request again: its first answer, nothing written twice
        assert retell.tell_again(db, sid, 1, {"ending": DROP}, client_id="fix-1") == state
        log = sessions.get_log(db, sid)
        assert log["hands"] == [{"dealer": "Ann", "ending": DROP}]
        assert result_of(log)["totals"] == state["result"]["net"]
        assert verified_kinds(db, sid) == ["session", "hand_start", "correction", "hand_start"]
        audit = load_stored(db, sid)
        assert audit.hand_events(1) == []  # no play of a told hand to step through
        # the standings follow the hand as it stands
        assert sessions.standings(db, sid)["totals"] == state["result"]["net"]


@pytest.mark.parametrize("after, code", [
    ("accepted", "undo_accepted"),
    ("next_hand", "hand_over"),
    ("closed", "table_closed"),
])
def test_once_something_stands_on_it_a_told_hand_is_not_told_again(app, client, after, code):
    sid, auth = _told(client)
    with app.app_context():
        db = get_db()
        if after == "accepted":
            table_events.accept(db, sid, 1, "Cy")
        elif after == "next_hand":
            r = client.post(f"/api/sessions/{sid}/hands", headers=auth,
                            json={"dealer": "Ben", "ending": {"how": "out", "by": "Cy"}})
            assert r.status_code == 201
        else:
            table_events.close(db, sid)
        log = sessions.get_log(db, sid)
        with pytest.raises(RefereeError) as err:
            retell.tell_again(db, sid, 1, {"ending": DROP})
        assert err.value.code == code
        assert sessions.get_log(db, sid) == log
        assert trust.verify_session(db, sid) == []


def test_a_played_hand_is_not_told_again(app, client):
    sid, auth = _table(client)
    r = client.post(f"/api/sessions/{sid}/hands", json={"dealer": "Ann"}, headers=auth)
    assert r.status_code == 201
    with app.app_context():
        with pytest.raises(RefereeError) as err:
            retell.tell_again(get_db(), sid, 1, {"ending": DROP})
        assert err.value.code == "not_told"


def test_an_impossible_ending_is_refused_and_changes_nothing(app, client):
    sid, auth = _told(client)
    with app.app_context():
        db = get_db()
        log = sessions.get_log(db, sid)
        with pytest.raises(RefereeError) as err:
            retell.tell_again(db, sid, 1, {"ending": {**DROP, "counts": {"Ann": 20}}})
        assert err.value.code in ("malformed", "ending_incomplete", "malformed_log")
        assert sessions.get_log(db, sid) == log
        assert trust.verify_session(db, sid) == []


def test_on_the_tablet_the_host_corrects_a_typed_count_in_german(client):
    """The told hand's page offers the correction to the host; the quick form
    comes filled in as told; the second tap shows who pays whom, the third
    tells it again. A seat's phone is offered none of it."""
    import re

    from tests.test_tablet import create, token

    sid = create(client, language="de", currency="EUR")
    form = {"csrf_token": token(client), "dealer": "Ann",
            "how": "drop", "by": "1", "count0": "8", "count1": "9", "count2": "30",
            "hand": "1", "confirm": "1", "client_id": "told-1"}
    assert client.post(f"/s/{sid}/hands/quick", data=form).status_code == 303
    page = client.get(f"/s/{sid}/hands/1").get_data(as_text=True)
    assert "hereingelegt" in page.lower() or "erwischt" in page.lower(), page
    assert 'id="tell-again"' in page and "Ende korrigieren" in page
    filled = client.get(f"/s/{sid}/hands/1/tell-again").get_data(as_text=True)
    assert "Hand 1: Ende korrigieren" in filled
    assert re.search(r'name="count0"[^>]*value="8"', filled), filled
    fix = {**form, "csrf_token": token(client),
           "count0": "20", "client_id": "fix-1"}
    del fix["confirm"]
    preview = client.post(f"/s/{sid}/hands/1/tell-again", data=fix,
                          follow_redirects=True).get_data(as_text=True)
    assert "Bestätigen: neu erfassen" in preview and "Confirm" not in preview
    r = client.post(f"/s/{sid}/hands/1/tell-again", data={**fix, "confirm": "1"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/s/{sid}/hands/1")
    page = client.get(f"/s/{sid}/hands/1").get_data(as_text=True)
    assert "Hand 1 neu erfasst" in page and 'id="tell-again"' in page
    assert re.search(r"<td>Ben</td><td class=\"num\">9</td>\s*<td class=\"num\">0,50\s€", page), \
        page[page.find('id="result"'):][:3000]


# ---------------------------------------------------------------- the ending picked again
# Newcomer 43's N1: a told tonk out given to Ben that was Dee's. The
# correction's "change" reloaded the form as told, and a picked ending was
# not read: the winner could not be put right.
PAYS = {"en": "Ann pays Dee €0.50", "de": "Ann zahlt Dee 0,50 €"}
CHANGE = {"en": "Change the ending", "de": "Ende ändern"}


def _quick_told(client, lang: str, value: str) -> str:
    from tests.test_tablet import create
    from tests.test_tablet_quick import FOUR, confirm, pick

    sid = create(client, FOUR, language=lang, currency="EUR")
    assert confirm(client, sid, pick(client, sid, value)).status_code == 303
    return sid


def _plain(page: str) -> str:
    return page.replace("\xa0", " ").replace("&nbsp;", " ")


def _change_link(page: str) -> tuple[str, str]:
    import html
    import re

    found = re.search(r'id="change-ending" href="([^"]+)">([^<]+)</a>', page)
    assert found, page[page.find("<main"):][:3000]
    return html.unescape(found.group(1)), found.group(2)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_correction_picks_the_ending_and_the_player_again(app, client, lang):
    import html
    import re

    from werkzeug.datastructures import MultiDict

    from referee.replay import replay
    from tests.test_tablet_quick import fields_of

    sid = _quick_told(client, lang, "tonk_out:1")  # Ben tapped; the tonk was Dee's
    filled = client.get(f"/s/{sid}/hands/1/tell-again").data.decode()
    link, words = _change_link(filled)
    assert words == CHANGE[lang]
    picker = client.get(link).data.decode()
    assert 'id="quick-pick"' in picker, "the correction's change offers no ending to pick"
    assert f'action="/s/{sid}/hands/1/tell-again"' in picker
    back = re.search(r'id="pick-back" href="([^"]+)"', picker)
    assert back and 'id="quick-form"' in client.get(html.unescape(back.group(1))).data.decode()
    for how in ("tonk_out", "out", "drop", "deal_win"):
        assert f'value="{how}:3"' in picker
    preview = client.get(f"/s/{sid}/hands/1/tell-again",
                         query_string={"pick": "tonk_out:3"}).data.decode()
    assert PAYS[lang] in _plain(preview), preview[preview.find("<main"):][:3000]
    r = client.post(f"/s/{sid}/hands/1/tell-again", data=MultiDict(fields_of(preview)))
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/s/{sid}/hands/1")
    with app.app_context():
        db = get_db()
        log = sessions.get_log(db, sid)
        assert log["hands"] == [{"dealer": "Ann", "ending": {"how": "tonk_out", "by": "Dee"}}]
        net = {"Ann": "-0.50", "Ben": "-0.50", "Cy": "-0.50", "Dee": "1.50"}
        assert sessions.standings(db, sid)["totals"] == net
        assert verified_kinds(db, sid) == ["session", "hand_start", "correction", "hand_start"]
        assert {p: str(v) for p, v in replay(sessions.get_log(db, sid)).result().totals
                .items()} == net
    # Who pays whom follows: Ben pays Dee, not the other way.
    assert PAYS[lang].replace("Ann", "Ben") in _plain(client.get(f"/s/{sid}/settle").data.decode())


def test_a_told_drop_corrected_to_a_stock_out_asks_its_counts(app, client):
    """Another kind of ending: its form asks what it needs, as the quick hand's."""
    from werkzeug.datastructures import MultiDict

    from tests.test_tablet_quick import fields_of

    counts = {"count0": "23", "count1": "31", "count2": "17", "count3": "7"}
    sid = _quick_told(client, "en", "tonk_out:2")
    form = client.get(f"/s/{sid}/hands/1/tell-again",
                      query_string={"pick": "stock_out:"}).data.decode()
    assert 'id="quick-form"' in form and 'name="how" value="stock_out"' in form
    fields = MultiDict([(k, v) for k, v in fields_of(form)] + list(counts.items()))
    asked = client.post(f"/s/{sid}/hands/1/tell-again", data=fields)
    preview = client.get(asked.headers["Location"]).data.decode()
    assert "Cy pays Dee €0.25" in _plain(preview) and 'id="confirm-yes"' in preview
    assert client.post(f"/s/{sid}/hands/1/tell-again",
                       data=MultiDict(fields_of(preview))).status_code == 303
    with app.app_context():
        ending = sessions.get_log(get_db(), sid)["hands"][0]["ending"]
    assert ending == {"how": "stock_out", "counts": {"Ann": 23, "Ben": 31, "Cy": 17, "Dee": 7}}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_quick_hands_change_link_names_the_ending_not_the_dealer(client, lang):
    """Newcomer 43's N9: "Drop: Dee · dealt by Ann change" read as "change
    the dealer"; the link sits by the ending and says it changes that."""
    import re

    from tests.test_tablet import create
    from tests.test_tablet_quick import FOUR, pick

    sid = create(client, FOUR, language=lang, currency="EUR")
    page = pick(client, sid, "drop:3")
    what = page[page.find('id="quick-what"'):]
    what = re.sub(r"<[^>]+>", "", what[what.find(">") + 1:what.find("</p>")])
    assert what.split() == [{"en": "Drop:", "de": "Hinlegen:"}[lang], "Dee",
                            *CHANGE[lang].split()], what
    link, words = _change_link(page)
    assert words == CHANGE[lang] and link.startswith(f"/s/{sid}/hands/quick")
    assert {"en": "Dealt by Ann.", "de": "Gegeben von Ann."}[lang] in page


def test_a_dispute_of_a_told_hand_is_settled_by_telling_it_again(app, client):
    """Newcomer 43's N1: a told hand's dispute could only let the record
    stand. Told again with the dispute named, the correction settles it, in
    the same write, on the chain; verify and the exported log hold."""
    from referee.replay import replay
    from referee.service.table import disputes

    sid, _auth = _told(client)
    with app.app_context():
        db = get_db()
        table_events.dispute(db, sid, 1, "Ann", "I had 20, not 8", None)
        with pytest.raises(RefereeError) as err:  # no action to go back to: told again
            disputes.settle_dispute(db, sid, 1, 0, "corrected", "Cy")
        assert err.value.code == "dispute_told"
        with pytest.raises(RefereeError) as err:
            retell.preview(db, sid, 1, {"ending": DROP}, settles=(1, "Cy"))
        assert err.value.code == "no_dispute"
        state = retell.tell_again(db, sid, 1, {"ending": DROP}, settles=(0, "Cy"))
        assert state["result"]["outcome"] == "drop_won"
        done = disputes.settlements(db, sid, 1)
        assert [(k, d["how"], d["by"]) for k, d in done.items()] == [(0, "corrected", "Cy")]
        log = sessions.get_log(db, sid)
        kept = log["hands"][0]["disputes"][0]
        assert kept.get("settled", {}).pop("at", None)  # the log says how, by whom, when
        assert log["hands"] == [{"dealer": "Ann", "ending": DROP, "disputes": [
            {"action": None, "by": "Ann", "note": "I had 20, not 8",
             "settled": {"how": "corrected", "by": "Cy"}}]}]
        log = sessions.get_log(db, sid)
        assert verified_kinds(db, sid) == \
            ["session", "hand_start", "dispute", "correction", "hand_start", "settle"]
        assert {p: str(v) for p, v in replay(log).result().totals.items()} == \
            state["result"]["net"]
        with pytest.raises(RefereeError) as err:  # settled once
            retell.tell_again(db, sid, 1, {"ending": TYPO}, settles=(0, "Cy"))
        assert err.value.code == "dispute_settled"
        assert trust.verify_session(db, sid) == []


SETTLED = {"en": "Settled by a correction: Dee", "de": "Durch Berichtigung erledigt: Dee"}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_on_the_tablet_a_told_hands_dispute_ends_in_its_correction(app, client, lang):
    """The dispute's "correct" leads to the correction's pages, which carry
    it through the pick and who pays whom; telling it again settles it."""
    import re

    from werkzeug.datastructures import MultiDict

    from referee.service.table import disputes
    from tests.test_tablet import form_value, hand_page
    from tests.test_tablet_quick import fields_of

    sid = _quick_told(client, lang, "tonk_out:1")
    page = hand_page(client, sid, 1)
    r = client.post(f"/s/{sid}/hands/1/dispute", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": "d1", "by": "Dee",
        "action": "", "note": "the tonk was mine"})
    assert r.status_code == 303
    page = hand_page(client, sid, 1)
    button = re.search(r'id="settle-correct-1">([^<]+)<', page)
    assert button, "a told hand's dispute can only let the record stand"
    assert button.group(1) == {"en": "Correct how it ended", "de": "Ende korrigieren"}[lang]
    r = client.post(f"/s/{sid}/hands/1/disputes/1/settle", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": "s1", "by": "Dee",
        "how": "corrected"})
    assert r.status_code == 303 and "/hands/1/tell-again?" in r.headers["Location"]
    form = client.get(r.headers["Location"]).data.decode()
    assert 'id="settles-dispute"' in form
    picker = client.get(_change_link(form)[0]).data.decode()
    assert 'name="dispute" value="1"' in picker and 'name="settler" value="Dee"' in picker
    preview = client.get(f"/s/{sid}/hands/1/tell-again", query_string={
        "pick": "tonk_out:3", "dispute": "1", "settler": "Dee"}).data.decode()
    assert PAYS[lang] in _plain(preview) and 'id="settles-dispute"' in preview
    r = client.post(f"/s/{sid}/hands/1/tell-again", data=MultiDict(fields_of(preview)))
    assert r.status_code == 303
    page = hand_page(client, sid, 1)
    assert SETTLED[lang] in page and 'id="settle-correct-1"' not in page
    with app.app_context():
        db = get_db()
        assert sessions.get_log(db, sid)["hands"][0]["ending"] == {"how": "tonk_out",
                                                                  "by": "Dee"}
        assert [(d["how"], d["by"]) for d in disputes.settlements(db, sid, 1).values()] == \
            [("corrected", "Dee")]
        assert trust.verify_session(db, sid) == []


def test_the_audit_shows_each_telling_and_what_the_correction_took_back(app, client):
    """Newcomer P8: the audit of a told hand told again showed the last
    telling alone, though its dispute line says the correction is "shown
    above"; the first telling and the money it moved were on no paper. And
    P7: Ann's acceptance (she won by the typo) does not keep Ben's dispute
    from being settled by telling the hand again; it withdraws it."""
    from tests.reports_fixtures import pdf_text

    sid, auth = _told(client)
    token = auth["Authorization"].split()[-1]
    with app.app_context():
        db = get_db()
        table_events.accept(db, sid, 1, "Ann")
        table_events.dispute(db, sid, 1, "Ben", "Ann had 20, not 8")
        state = retell.tell_again(db, sid, 1, {"ending": DROP}, settles=(0, "Cy"))
        assert state["result"]["outcome"] == "drop_won" and not state.get("accepted")
        assert "accepted" not in sessions.get_log(db, sid)["hands"][0]
        assert trust.verify_session(db, sid) == []
    paper = " ".join(pdf_text(client.get(f"/reports/{sid}/hands/1/audit.pdf?token={token}")
                              .data).split())
    first = paper.index("Telling 1 of 2, corrected by telling it again:")
    second = paper.index("Telling 2 of 2, the hand as it stands:")
    assert first < paper.index("Ann 8 · Ben 9 · Cy 30") < second
    assert second < paper.index("Ann 20 · Ben 9 · Cy 30")
    taken = paper[first:second]
    assert "Taken back by the correction: Ben pays Ann" in taken
    assert "Taken back by the correction: Cy pays Ann 1 stake = €0.50" in taken
    view = client.get(f"/reports/{sid}/hands/1/audit?token={token}").get_data(as_text=True)
    assert 'id="telling-1"' in view and 'id="telling-2"' in view
    assert "Taken back by the correction: Ben pays Ann" in view
