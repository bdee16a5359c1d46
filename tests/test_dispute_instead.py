"""A dispute of one wrongly logged action, corrected by that action alone
(newcomer N4: "Jürgen draws 9♠", it was 3♠, and the only way was back to
action 1, ten later actions typed again): the undos back to it, the action
as it really was, then every later action logged again while the rules
still allow it, all as ordinary events that replay, export and verify read
as they read any undo and action."""

from __future__ import annotations

import html
import re

import pytest

from referee.record import load_log
from referee.replay import replay
from tests import test_tablet as tt
from tests.reports_fixtures import pdf_text
from tests.test_api import assert_error, bearer

DEAL = tt.CAUGHT_DEAL  # Ann 2c 3d As Ah 9s · Ben Ks Kh Kd Qs 4c · Cy Jh Js 9c 9d 5d
PLAYED = ["Ben: draw 8c", "Ben: spread Ks Kh Kd", "Ben: discard Qs", "Cy: take",
          "Cy: discard Jh"]
ENDED = ["Ann: drop", "Ann: show 2c 3d As Ah 9s", "Ben: show 4c 8c",
         "Cy: show Js 9c 9d 5d Qs"]


class Table:
    """A table opened through the API, its first hand dealt with every card known."""

    def __init__(self, client):
        self.client = client
        r = client.post("/api/sessions", json={"format": "tonk-log/1", "stake": "0.25",
                                                "currency": "USD", "rules": "pagat",
                                                "players": ["Ann", "Ben", "Cy"]})
        assert r.status_code == 201, r.get_json()
        made = r.get_json()
        self.sid, self.table, self.audit = made["id"], made["table_token"], made["audit_token"]
        self.taps = 0
        r = self.post("/hands", {"dealer": "Ann", "deal": DEAL, "upcard": "7d"})
        assert r.status_code == 201, r.get_json()

    def url(self, tail=""):
        return f"/api/sessions/{self.sid}{tail}"

    def post(self, tail, body):
        return self.client.post(self.url(tail), json=body, headers=bearer(self.table))

    def get(self, tail):
        return self.client.get(self.url(tail), headers=bearer(self.audit)).get_json()

    def log(self, *texts):
        for text in texts:
            self.taps += 1
            seq = self.get("/hands/1")["seq"]
            r = self.post("/hands/1/actions", {"action": text, "client_id": f"t{self.taps}",
                                               "expected_seq": seq})
            assert r.status_code == 201, (text, r.get_json())

    def dispute(self, action=1, by="Cy"):
        r = self.post("/hands/1/disputes", {"by": by, "note": "it was another card",
                                            "action": action})
        assert r.status_code == 201, r.get_json()

    def settle(self, instead, **more):
        return self.post("/hands/1/disputes/1/settle",
                         {"how": "corrected", "by": "Ann", "instead": instead, **more})

    def verified(self) -> list:
        """What ``referee verify`` finds wrong with the stored session, and
        with its export (``referee export ID --chain`` and ``verify LOG``):
        the export must also import and export equal, and replay to the
        table's own result."""
        from referee.service import trust
        from referee.service.table import sessions
        from referee.web.db import get_db

        with self.client.application.app_context():
            faults = trust.verify_session(get_db(), self.sid)
            exported = sessions.export_with_chain(get_db(), self.sid)
        assert trust.verify_log(exported) == exported["head"]
        log = self.get("/log")
        # the same night again, on purpose: a copy, asked for (else already_stored)
        again = self.client.post("/api/sessions", json={**log, "copy": True}).get_json()
        assert self.client.get(f"/api/sessions/{again['id']}/log",
                               headers=bearer(again["audit_token"])).get_json() == log
        assert self.get("/result") == replay(load_log(log), allow_open_last_hand=True) \
            .result().to_json()
        return faults


def test_the_disputed_draw_is_replaced_and_the_later_actions_stay(client):
    t = Table(client)
    t.log(*PLAYED)
    t.dispute()
    r = t.settle("Ben: draw 8h", expected_seq=5, client_id="fix-1")
    assert r.status_code == 201, r.get_json()
    said = r.get_json()
    assert said["how"] == "corrected" and said["instead"] == "Ben: draw 8h"
    assert said["undone"] == list(reversed(PLAYED))
    assert said["again"] == PLAYED[1:] and said["left"] == [] and "stopped" not in said
    state = t.get("/hands/1")
    assert state["seq"] == 5 and state["to_act"] == "Ann"
    assert state["settled_disputes"][0]["instead"] == "Ben: draw 8h"
    log = t.get("/log")
    assert log["hands"][0]["actions"] == ["Ben: draw 8h", *PLAYED[1:]]
    # The objection stays, about the hand as a whole: its action was undone.
    assert log["hands"][0]["disputes"][0]["action"] is None
    assert t.verified() == []
    # Cy's phone sees it settled, and by whom, but not the card Ben drew.
    r = client.post(t.url("/links"), json={"role": "seat", "player": "Cy"},
                    headers=bearer(t.table))
    phone = client.get(t.url("/hands/1"), headers=bearer(r.get_json()["token"])).get_json()
    assert phone["settled_disputes"][0]["by"] == "Ann"
    assert "8h" not in str(phone["settled_disputes"])
    # The same request again gets its first answer; nothing is written twice.
    assert t.settle("Ben: draw 8h", expected_seq=5, client_id="fix-1").get_json() == said
    assert t.get("/hands/1")["seq"] == 5
    # The hand goes on from there, and the export replays to the table's result.
    t.log(*ENDED[:2], "Ben: show 4c 8h", ENDED[3])
    log = t.get("/log")
    assert t.get("/result") == replay(load_log(log)).result().to_json()
    assert t.verified() == []


def test_a_later_action_no_longer_allowed_stops_the_rest_for_the_host(client):
    t = Table(client)
    t.log(*PLAYED, *ENDED)
    assert t.get("/standings")["hands"]  # settled: money moved
    t.dispute()
    r = t.settle("Ben: draw 8d")
    assert r.status_code == 201, r.get_json()
    said = r.get_json()
    # Ben's show named the 8c he never drew: it and what follows are the host's.
    assert said["again"] == [*PLAYED[1:], *ENDED[:2]]
    assert said["left"] == ENDED[2:]
    assert said["stopped"]["action"] == 8 and said["stopped"]["code"]
    state = t.get("/hands/1")
    assert state["seq"] == 7 and not state.get("result") and state["must_show"]
    assert t.get("/standings")["hands"] == []  # the hand's money is taken back
    assert t.verified() == []
    t.log("Ben: show 4c 8d", ENDED[3])
    log = t.get("/log")
    assert t.get("/result") == replay(load_log(log)).result().to_json()
    assert t.verified() == []


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"instead": "Ben: draw 8c"}, 422, "same_action"),  # the action as logged
    ({"instead": "Ben: draw Ks"}, 422, None),  # a card Ben holds: the engine's refusal
    ({"instead": "Cy: draw 8h"}, 422, None),  # not Cy's turn
    ({"instead": "Ben: draw 8h", "expected_seq": 4}, 409, "stale_seq"),
    ({"instead": "Ben: draw 8h", "how": "stands"}, 400, "malformed"),
])
def test_a_replacement_refused_changes_nothing(client, body, status, code):
    t = Table(client)
    t.log(*PLAYED)
    t.dispute()
    before = t.get("/log")
    r = t.post("/hands/1/disputes/1/settle", {"how": "corrected", "by": "Ann", **body})
    assert_error(r, status, code)
    if status == 422:
        assert r.get_json()["error"]["action"] == 1
    assert t.get("/log") == before
    assert t.get("/hands/1")["settled_disputes"] == [None]
    assert t.verified() == []


def test_the_openapi_document_offers_the_replacement(client):
    doc = client.get("/api/openapi.json").get_json()
    text = str(doc)
    assert re.search(r"instead", text) and "stopped" in text


# ------------------------------------------------------------------ the tablet's pages

def _form_fields(page: str, form_id: str) -> dict:
    form = re.search(rf'<form[^>]*id="{form_id}".*?</form>', page, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def _tablet_hand(client, finish=False, **table):
    """A tablet's table with hand 1 dealt as ``DEAL``; Ben's draw of 8♣ (it
    was another card) disputed by Cy after the five actions of ``PLAYED``."""
    sid = tt.create(client, **table)
    tt.start(client, sid, deal=DEAL, upcard="7d")
    tt.act(client, sid, 1, "draw", ["8c"])
    tt.act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])
    tt.act(client, sid, 1, "discard", ["Qs"])
    tt.act(client, sid, 2, "take")
    tt.act(client, sid, 2, "discard", ["Jh"])
    if finish:
        tt.act(client, sid, 0, "drop")
        for seat in (0, 1, 2):
            tt.act(client, sid, seat, "show")
    return _cy_disputes_action_1(client, sid, "Ben drew a heart")


def _words(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _correct_instead(client, sid, card):
    """The host's taps: "Correct action 1 only", the card as it really was,
    and the confirm page (returned, with its form's fields)."""
    page = tt.hand_page(client, sid)
    assert 'id="settle-instead-1"' in page
    fields = _form_fields(page, "settle-1")
    r = client.post(f"/s/{sid}/hands/1/disputes/1/settle",
                    data={**fields, "by": "Ann", "how": "instead"})
    assert r.status_code == 303 and "/disputes/1/instead" in r.headers["Location"]
    picking = client.get(r.headers["Location"]).get_data(as_text=True)
    fields = _form_fields(picking, "instead-form")
    r = client.post(f"/s/{sid}/hands/1/disputes/1/instead",
                    data={**fields, "act": "1:draw", "card": [card]})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    confirm = client.get(r.headers["Location"]).get_data(as_text=True)
    return picking, confirm


def test_the_tablet_corrects_one_card_and_keeps_the_later_actions(client):
    sid = _tablet_hand(client)
    picking, confirm = _correct_instead(client, sid, "8h")
    said = _words(picking)
    # The hand as it stood before the draw: Ben to act, his draw among the buttons.
    assert "Logged as: Ben draws 8♣" in said and 'value="1:draw"' in picking
    assert 'id="seq">0<' in picking
    said = _words(confirm)
    assert "Correct action 1 of hand 1?" in said
    assert "Ben draws 8♥ instead of 8♣" in said
    assert "The 4 later actions are logged again after it, as they were." in said
    page = client.post(f"/s/{sid}/hands/1/disputes/1/settle",
                       data={**_confirm_fields(confirm)}, follow_redirects=True)
    said = _words(page.get_data(as_text=True))
    assert "✓ Dispute 1 of hand 1 is settled: Ben draws 8♥ instead of 8♣. 4 later actions " \
           "were logged again." in said
    assert tt.seq_of(page.get_data(as_text=True)) == 5
    assert "Settled by correcting action 1: Ann" in said
    # The audit says each undo was a correction after Cy's dispute, then the
    # actions logged again as steps of their own.
    audit = _words(client.get(f"/reports/{sid}/hands/1/audit").get_data(as_text=True))
    assert audit.count("a correction after Cy's dispute") == 5, audit[:3000]
    assert pdf_text(client.get(f"/reports/{sid}/hands/1/audit.pdf").data).count(
        "a correction after Cy's dispute") == 5
    # Every undone action stays in the history, and the hand goes on.
    assert "History (5 actions in force, 5 undone)" in said


def _confirm_fields(confirm: str) -> dict:
    form = re.search(r'<form method="post" action="[^"]*/settle" class="row confirm-form">.*?'
                     r'</form>', confirm, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def test_the_confirm_page_says_where_the_rules_stop_and_the_money(client):
    sid = _tablet_hand(client, finish=True)
    _picking, confirm = _correct_instead(client, sid, "8d")
    said = _words(confirm)
    assert "Ben draws 8♦ instead of 8♣" in said
    assert "Not logged again: Ben shows 4♣ 8♣ — Ben's hand holds 8♦" in said
    assert "The 6 later actions before it are logged again, as they were." in said
    assert "Left for you to log from there (2): Ben shows 4♣ 8♣; Cy shows" in said
    assert "no longer wins" in said and "The hand is in play again" in said
    page = client.post(f"/s/{sid}/hands/1/disputes/1/settle", data=_confirm_fields(confirm),
                       follow_redirects=True).get_data(as_text=True)
    said = _words(page)
    assert "6 later actions were logged again." in said
    assert "Not logged again: Ben shows 4♣ 8♣ — Ben's hand holds 8♦" in said
    assert "Log it and the 1 action after it as they really were." in said
    assert tt.seq_of(page) == 7
    # Ben shows what he holds now; Cy's show goes in as it was.
    tt.act(client, sid, 1, "show")
    page = tt.act(client, sid, 2, "show")
    assert 'id="result"' in page and "Ann pays Ben" in page


def test_the_history_names_each_take_as_it_was_when_logged(client):
    """Undone or logged again, a take names the card it took then: Cy's
    undone take took Q♠, not the 7♦ on the pile before the corrected draw."""
    sid = _tablet_hand(client)
    _picking, confirm = _correct_instead(client, sid, "8h")
    client.post(f"/s/{sid}/hands/1/disputes/1/settle", data=_confirm_fields(confirm))
    page = tt.hand_page(client, sid)
    history = re.search(r'<ol class="history".*?</ol>', page, re.S).group(0)
    takes = [_words(li) for li in re.findall(r"<li[^>]*>.*?</li>", history, re.S)
             if "take" in li]
    assert takes == ["Cy: take Q♠ (undone)", "Cy: take Q♠"], takes


@pytest.mark.parametrize(("lang", "words"), [
    ("de", ["Aktion 1 von Hand 1 berichtigen?", "Ben zieht 8♥ statt 8♣",
            "Die 4 späteren Aktionen werden danach wieder so erfasst, wie sie waren.",
            "Ja, Aktion 1 berichtigen"]),
    ("fr", ["Corriger l'action 1 de la main 1 ?",
            "Les 4 actions suivantes sont notées à nouveau après elle"]),
    ("pt", ["Corrigir a jogada 1 da mão 1?",
            "As 4 jogadas seguintes são registadas de novo depois dela"]),
])
def test_the_correction_reads_in_the_tables_language(client, lang, words):
    sid = _tablet_hand(client, language=lang)
    picking, confirm = _correct_instead(client, sid, "8h")
    said = _words(confirm)
    for line in words:
        assert line in said, (line, said[-900:])
    assert "instead of" not in said and "later action" not in said


def test_action_n_is_one_number_on_the_history_the_dispute_and_the_audit(client):
    """Newcomer P5: the audit numbered its rows counting a refusal and an
    undo, so the dispute's "action 4" was another row on it; its undo said
    "Undo of step N", and the dispute, once its action was undone, read
    "disputes the hand as a whole". One numbering: the hand's own."""
    sid = tt.create(client)
    tt.start(client, sid, deal=DEAL, upcard="7d")
    tt.act(client, sid, 1, "draw", ["8c"])  # action 1
    tt.act(client, sid, 1, "discard", ["2c"])  # refused: Ben holds no 2c
    tt.act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])  # action 2, undone at once
    page = tt.hand_page(client, sid)
    client.post(f"/s/{sid}/hands/1/undo", data={
        "csrf_token": tt.form_value(page, "csrf_token"), "client_id": "u2",
        "expected_seq": tt.form_value(page, "expected_seq")})
    tt.act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])  # action 2 again
    tt.act(client, sid, 1, "discard", ["Qs"])  # 3
    tt.act(client, sid, 2, "take")  # 4
    tt.act(client, sid, 2, "discard", ["Jh"])  # 5
    page = tt.hand_page(client, sid)
    history = re.search(r'<ol class="history"[^>]*>(.*?)</ol>', page, re.S).group(1)
    assert re.findall(r'<li[^>]*value="(\d+)"', history) == ["1", "2", "2", "3", "4", "5"]
    r = client.post(f"/s/{sid}/hands/1/dispute", data={
        "csrf_token": tt.form_value(page, "csrf_token"), "client_id": "d4", "by": "Cy",
        "action": "4", "note": "I drew"})
    assert r.status_code == 303
    r = client.post(f"/s/{sid}/hands/1/disputes/1/settle", data={
        "csrf_token": tt.form_value(page, "csrf_token"), "by": "Ann", "how": "corrected",
        "confirm": "1", "client_id": "s4"})
    assert r.status_code == 303
    paper = " ".join(pdf_text(client.get(f"/reports/{sid}/hands/1/audit.pdf").data).split())
    assert "Cy disputes action 4 (Cy: take Q♠, since undone): “I drew”" in paper
    assert "the hand as a whole" not in paper
    assert "Undo of action 2 (Ben: spread K♠ K♥ K♦)" in paper
    assert "Undo of action 4 (Cy: take Q♠): a correction after Cy's dispute" in paper
    assert "Undo of action 5 (Cy: discard J♥): a correction after Cy's dispute" in paper
    assert "Undo of step" not in paper
    # The step view: the take (its 7th step) says it is action 4, and so does its list.
    view = _words(client.get(f"/reports/{sid}/hands/1/audit?step=7").get_data(as_text=True))
    # (its row: the action's number, the event's, the action)
    assert "Action 4 · Event" in view and re.search(r"\b4 \d+ Cy: take Q♠", view)
    assert "Cy disputes action 4 (Cy: take Q♠, since undone): “I drew”" in view


def _dropped_hand(client, **table):
    """Ben drops at once and every hand is shown; Cy disputes the drop (it
    was a draw of 8♥): the play is on again, and the shows cannot follow."""
    sid = tt.create(client, **table)
    tt.start(client, sid, deal=DEAL, upcard="7d")
    tt.act(client, sid, 1, "drop")
    for seat in (0, 1, 2):
        tt.act(client, sid, seat, "show")
    return _cy_disputes_action_1(client, sid, "Ben drew, he did not drop")


def _cy_disputes_action_1(client, sid: str, note: str) -> str:
    """Cy disputes hand 1's first action from the hand's page."""
    page = tt.hand_page(client, sid)
    r = client.post(f"/s/{sid}/hands/1/dispute", data={
        "csrf_token": tt.form_value(page, "csrf_token"), "client_id": "d1", "by": "Cy",
        "action": "1", "note": note})
    assert r.status_code == 303
    return sid


#: What the correction of a drop into a draw says (newcomer45 P10): who no
#: longer loses or wins what ("Amélie : -1,00 € de cette main sont repris"
#: read as a double negative), that the shows come at the end of the play
#: (they were listed as left to log now), and none logged again (not "0
#: action suivante a été notée à nouveau").
DROP_UNDONE = {
    "en": ("Ben no longer loses $1.25 in this hand", "Ann no longer wins $1.00 in this hand",
           "The hands of Ann, Ben and Cy are shown at the end of the play, not now.",
           "No later action was logged again."),
    "fr": ("Ben ne perd plus 1,25 $US dans cette main",  # _words: one plain space
           "Ann ne gagne plus 1,00 $US dans cette main",
           "Les mains d'Ann, Ben et Cy sont montrées à la fin du jeu, pas maintenant.",
           "Aucune action suivante n'a été notée à nouveau."),
}


@pytest.mark.parametrize("lang", sorted(DROP_UNDONE))
def test_a_corrected_drop_says_what_changes_plainly(client, lang):
    loses, wins, shows, none_again = DROP_UNDONE[lang]
    sid = _dropped_hand(client, language=lang)
    _picking, confirm = _correct_instead(client, sid, "8h")
    said = _words(confirm)
    assert loses in said and wins in said, said[-900:]
    assert shows in said, said[-900:]
    assert "-0" not in said and "(3)" not in said
    page = client.post(f"/s/{sid}/hands/1/disputes/1/settle", data=_confirm_fields(confirm),
                       follow_redirects=True).get_data(as_text=True)
    said = _words(page)
    assert none_again in said and shows in said, said[:1500]
    assert " 0 " not in said.split("✓")[1][:200]
