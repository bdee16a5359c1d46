"""The seams of a night (issue 35), in Chromium as people run it (its
back/forward cache on): every pair of {played hand, told hand} x {dispute,
void, undo, stake change, leave/join, offline, accept on phone} x {host
tablet, seat phone}, in German and English. One test per seam family; at
each step both devices are looked at as a player would: no dead end (a way
on from every page), no English inside German, the phone on the table's
newest hand by itself, and the money on the page the referee's."""

from __future__ import annotations

import re
import time

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_follow import PHONE, TABLET, Night, served  # noqa: F401
from tests.test_words_left import english_left

from .helpers import FOLLOW, device

pytestmark = tb.pytestmark
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

KINDS = ("played", "told")
WHO = ("host", "phone")
LANGUAGES = ("de", "en")
DROP = {"how": "drop", "by": "Ben", "counts": {"Ann": 20, "Ben": 9, "Cy": 30}}
# What each language calls things the checks look for.
WORDS = {
    "de": {"accept": "Ann akzeptiert", "open": "offen", "stands": "Protokoll bleibt"},
    "en": {"accept": "Ann accepts", "open": "open", "stands": "record stands"},
}


@pytest.fixture(scope="module")
def chrome(tmp_path_factory):
    """Chromium with its back/forward cache on (Playwright turns it off)."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=tb.CHROMIUM, args=tb.ARGS,
                              ignore_default_args=["--disable-back-forward-cache"])
        yield b
        b.close()


class Table(Night):
    """A night of Ann, Ben and Cy with the host's tablet and Ann's phone."""

    def __init__(self, app, language, chrome, base):
        super().__init__(app, language)
        self.lang, self.base = language, base
        self.host_pg = self.host(chrome, base)
        self.phone = device(chrome, PHONE)
        for pg in (self.host_pg, self.phone):  # "Undo?", "Void?": yes
            pg.on("dialog", lambda d: d.accept())
        self.phone.goto(base + self.link("seat", "Ann"))
        self.phone.wait_for_url(re.compile(rf".*/s/{self.sid}$"))
        self.own = {"Ann", "Ben", "Cy", "Dev", "Freitag", "EUR"}

    taps = 0

    def act(self, n: int, text: str) -> dict:
        # A fresh id for each tap: after an undo the hand's count repeats.
        self.taps += 1
        seq = self.state(n)["seq"]
        return self.post(f"/hands/{n}/actions", {"action": text, "client_id": f"t{self.taps}",
                                                 "expected_seq": seq})

    def device(self, who: str):
        return self.host_pg if who == "host" else self.phone

    def played(self, *, finish: bool = True) -> int:
        """A hand dealt and played at the table: its dealer's left drops with
        the least, everyone shows a count."""
        n = self.start()
        if finish:
            self.finish(n)
        return n

    def finish(self, n: int) -> None:
        state = self.state(n)
        dropper = state["to_act"]
        self.act(n, f"{dropper}: drop")
        for p in self.state(n)["must_show"]:
            self.act(n, f"{p}: show ={9 if p == dropper else 25}")

    def finish_shows(self, n: int) -> None:
        state = self.state(n)
        shown = {p["name"] for p in state["players"] if p.get("shown")}
        for p in state["must_show"]:
            if p not in shown:
                self.act(n, f"{p}: show ={25 + len(shown)}")

    def turn_to(self, n: int, player: str) -> None:
        """Play on (a draw, a discard of a card not seen yet) until it is
        ``player``'s turn."""
        fresh = iter(["2c", "3c", "4c", "5c", "6c", "7c"])
        while (to := self.state(n)["to_act"]) != player:
            self.act(n, f"{to}: draw ??")
            self.act(n, f"{to}: discard {next(fresh)}")

    def hand(self, kind: str, *, finish: bool = True) -> int:
        if kind == "told":
            return self.told(DROP)
        return self.played(finish=finish)

    def look(self, pg, what: str) -> str:
        """What the player sees on ``pg``: the page's words, held to the
        night's promises."""
        pg.wait_for_load_state("load")
        said = pg.locator("main").inner_text()
        assert "Traceback" not in said and "Internal Server Error" not in said, what
        if self.lang == "de":
            assert english_left(said, self.own) == [], (what, english_left(said, self.own))
        # No dead end: a way on from the page (a link or a button in it or in
        # its top bar).
        assert pg.locator("main a[href], main button, header a[href]").count() > 0, what
        assert pg.errors == [], (what, pg.errors)
        return said

    def phone_on(self, n: int) -> None:
        """Ann's phone follows the table to hand ``n`` by itself."""
        self.phone.wait_for_url(re.compile(rf".*/s/{self.sid}/hands/{n}$"), timeout=FOLLOW)

    def money(self, pg) -> None:
        """The standings page says each player's total as the referee has it."""
        totals = self.client.get(f"/api/sessions/{self.sid}/standings",
                                 headers=self.auth).get_json()["totals"]
        go(pg, f"{self.base}/s/{self.sid}/standings")
        said = self.look(pg, "standings")
        for name, amount in totals.items():
            if amount.lstrip("-") in ("0", "0.00"):
                continue
            written = amount.lstrip("-").replace(".", "," if self.lang == "de" else ".")
            assert written in said, (name, amount, said[:600])

    def close(self) -> None:
        self.host_pg.context.close()
        self.phone.context.close()


@pytest.fixture()
def table(served, chrome, request):  # noqa: F811
    base, app = served
    made: list[Table] = []

    def open_table(language: str) -> Table:
        t = Table(app, language, chrome, base)
        made.append(t)
        return t

    yield open_table
    for t in made:
        t.close()


def go(pg, url: str) -> None:
    """Open ``url`` on a device that may be moving there by itself (a phone
    following the table, a page the offline queue reloads once it has sent)."""
    try:
        pg.goto(url)
    except sync_api.Error as err:
        if "interrupted by another navigation" not in str(err):
            raise
        pg.wait_for_url(url)
    pg.wait_for_load_state("load")


def _shoot(t: Table, name: str) -> None:
    """The host's tablet both ways up and Ann's phone, for a person to look at."""
    for pg, size in ((t.host_pg, TABLET), (t.host_pg, {"width": 768, "height": 1024}),
                     (t.phone, PHONE)):
        pg.set_viewport_size(size)
        tb.shot(pg, f"seams-{name}-{t.lang}-{size['width']}x{size['height']}")
    t.host_pg.set_viewport_size(TABLET)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_disputes_on_played_and_told_hands_from_either_device(table, lang):
    t = table(lang)
    for kind in KINDS:
        for who in WHO:
            n = t.hand(kind, finish=False) if kind == "played" else t.hand(kind)
            t.phone_on(n)
            pg = t.device(who)
            go(pg, f"{t.base}/s/{t.sid}/hands/{n}")
            note = f"Einspruch {kind} {who}" if lang == "de" else f"Objection {kind} {who}"
            t.own.update(note.split())
            if kind == "told" and who == "phone":
                pg.fill("#dispute-result-note", note)
                tb.submit(pg, "#dispute-result")
            else:
                pg.locator("#disputes-panel summary").click()
                pg.fill("#dispute-note", note)
                tb.submit(pg, "#dispute-form button[type=submit]")
            # Both devices see it, open; only the host is offered to settle it.
            for other in (t.host_pg, t.phone):
                if other is not pg:
                    go(other, f"{t.base}/s/{t.sid}/hands/{n}")
                expect(other.locator("#dispute-1")).to_contain_text(note, timeout=FOLLOW)
                t.look(other, f"dispute {kind} {who}")
            assert t.phone.locator(".settle-form").count() == 0
            t.host_pg.select_option("#settle-by-1", index=1)  # nobody is chosen for the host
            tb.submit(t.host_pg, "#settle-stand-1")
            expect(t.phone.locator("#dispute-1")).to_contain_text(WORDS[lang]["stands"],
                                                                  timeout=FOLLOW)
            if kind == "played":
                t.finish(n)
            if (kind, who) == ("told", "phone"):
                _shoot(t, "dispute")
    t.money(t.host_pg)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_void_and_undo_and_telling_again_keep_both_devices_right(table, lang):
    t = table(lang)
    for kind in KINDS:
        for who in WHO:
            n = t.hand(kind, finish=False)
            t.phone_on(n)
            go(t.host_pg, f"{t.base}/s/{t.sid}/hands/{n}")
            if kind == "played":
                to = t.state(n)["to_act"]
                t.act(n, f"{to}: draw ??")
                expect(t.host_pg.locator("#undo")).to_be_visible(timeout=FOLLOW)
                tb.submit(t.host_pg, "#undo")
                assert t.state(n)["seq"] == 0
                t.look(t.phone, f"undo {kind} {who}")
                if who == "host":
                    t.host_pg.locator("details:has(#void) > summary").click()
                    tb.submit(t.host_pg, "#void")
                    if t.host_pg.locator("#confirm-yes").count():
                        tb.submit(t.host_pg, "#confirm-yes")
                    assert "void" in t.state(n)
                    # The phone is not left on a void hand: its place is the
                    # table's next hand, or the table page until one is dealt.
                    t.look(t.phone, f"void {kind}")
                else:
                    t.finish(n)
            else:
                # A told hand cannot be voided (its play ended): the host is
                # not offered it; a typo is told again instead.
                assert t.host_pg.locator("#void").count() == 0
                if who == "host":
                    t.host_pg.locator("#tell-again").click()
                    t.host_pg.wait_for_url(re.compile(r".*/tell-again"))
                    t.look(t.host_pg, "tell again form")
                    t.host_pg.fill("input[name=count0]", "5")
                    t.host_pg.locator("#quick-preview").click()
                    t.host_pg.wait_for_selector("#confirm-yes")
                    t.look(t.host_pg, "tell again preview")
                    t.host_pg.locator("#confirm-yes").click()
                    t.host_pg.wait_for_url(re.compile(rf".*/hands/{n}$"))
                    assert t.state(n)["result"]["outcome"] == "caught"
                    expect(t.phone.locator("#result")).to_contain_text("Ann", timeout=FOLLOW)
                else:
                    # On a phone neither is offered.
                    assert t.phone.locator("#tell-again, #void, #undo").count() == 0
                t.look(t.phone, f"told {who}")
            if (kind, who) == ("told", "host"):
                _shoot(t, "tell-again")
    t.money(t.phone)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stake_changes_and_seats_that_change_between_hands(table, lang):
    t = table(lang)
    for kind in KINDS:
        for who in WHO:
            t.post("/stake", {"stake": "1.00" if who == "host" else "0.50"})
            n = t.hand(kind)
            t.phone_on(n)
            pg = t.device(who)
            go(pg, f"{t.base}/s/{t.sid}/hands/{n}")
            said = t.look(pg, f"stake {kind} {who}")
            # Ben's drop won: each other player pays him one stake.
            stake = "1,00" if lang == "de" else "1.00"
            if who == "host":
                assert stake in said, said[:800]
    # Cy gets up, Dev sits down: Ann's phone follows into hands with new seats.
    t.post("/leave", {"player": "Cy"})
    t.post("/seat", {"player": "Dev"})
    for kind in KINDS:
        n = t.told({"how": "out", "by": "Dev"}) if kind == "told" else t.played()
        t.phone_on(n)
        for who in WHO:
            pg = t.device(who)
            go(pg, f"{t.base}/s/{t.sid}/hands/{n}")
            said = t.look(pg, f"seats {kind} {who}")
            assert "Dev" in said and "Cy" not in said.split("Dev")[0][-200:]
    _shoot(t, "seats")
    t.money(t.host_pg)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_accept_on_the_phone_and_a_tap_made_offline(table, lang):
    t = table(lang)
    for kind in KINDS:
        for who in WHO:
            n = t.hand(kind, finish=kind == "told")
            t.phone_on(n)
            if kind == "played":
                # The tap is made on a device without network: kept, shown
                # waiting, sent once when the network is back.
                pg = t.device(who)
                go(pg, f"{t.base}/s/{t.sid}/hands/{n}")
                if who == "phone":
                    t.turn_to(n, "Ann")
                go(pg, f"{t.base}/s/{t.sid}/hands/{n}")
                names = [p["name"] for p in t.state(n)["players"]]
                seat = names.index(t.state(n)["to_act"])
                pg.context.set_offline(True)
                pg.locator(f"#actions button[value='{seat}:drop']").click()
                expect(pg.locator("#offline-queue")).to_be_visible(timeout=FOLLOW)
                t.look(pg, f"offline {kind} {who}")
                pg.context.set_offline(False)
                sent_by = time.monotonic() + FOLLOW / 1000
                # The queue sends it once the network is back.
                while not t.state(n)["must_show"] and time.monotonic() < sent_by:
                    pg.wait_for_timeout(100)
                assert t.state(n)["must_show"], t.state(n)
                expect(pg.locator("#offline-queue")).to_be_hidden(timeout=FOLLOW)
                t.finish_shows(n)
            # Ann accepts on her phone; the host's tablet sees it live.
            go(t.host_pg, f"{t.base}/s/{t.sid}/hands/{n}")
            t.phone_on(n)
            expect(t.phone.locator("#accepts")).to_be_visible(timeout=FOLLOW)
            if "Ann" not in (t.state(n).get("accepted") or []):
                tb.submit(t.phone, "#accepts button")
            expect(t.host_pg.locator("#accepts")).to_contain_text("✓ Ann", timeout=FOLLOW)
            t.look(t.phone, f"accepted {kind} {who}")
            t.look(t.host_pg, f"accepted {kind} {who}")
            if (kind, who) == ("played", "phone"):
                _shoot(t, "accept")
    t.money(t.phone)


# Newcomer 43's N1: a told hand's winner mis-tapped could not be told again
# (the correction's "change" reloaded the form as told), and its dispute
# could only let the record stand.
WINS = {"de": "{name} gewinnt", "en": "{name} wins"}
SETTLED = {"de": "Durch Berichtigung erledigt", "en": "Settled by a correction"}


def _tell_again_as(t: Table, n: int, winner: str) -> None:
    """On the host's correction page: pick the ending again (a tonk out by
    ``winner``), see who pays whom, confirm."""
    pg = t.host_pg
    pg.wait_for_url(re.compile(rf".*/hands/{n}/tell-again.*"))
    t.look(pg, "correction")
    tb.submit(pg, "#change-ending")
    assert pg.locator("#quick-pick fieldset").count() == 5, "no ending to pick"
    t.look(pg, "correction: pick the ending")
    tb.submit(pg, f"#how-tonk_out button:text-is('{winner}')")
    expect(pg.locator("#preview-payments")).to_contain_text(winner)
    t.look(pg, "correction: who pays whom")
    tb.submit(pg, "#confirm-yes")
    pg.wait_for_url(re.compile(rf".*/hands/{n}$"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_told_hands_winner_is_told_again_and_the_phone_follows(table, lang):
    t = table(lang)
    n = t.told({"how": "tonk_out", "by": "Ben"})  # the host's mis-tap: it was Cy's
    t.phone_on(n)
    go(t.host_pg, f"{t.base}/s/{t.sid}/hands/{n}")
    tb.submit(t.host_pg, "#tell-again")
    _tell_again_as(t, n, "Cy")
    assert t.state(n)["result"]["winners"] == ["Cy"]
    expect(t.phone.locator("#result")).to_contain_text(WINS[lang].format(name="Cy"),
                                                       timeout=FOLLOW)
    t.look(t.phone, "told again")
    # Ann disputes it from her phone (it was hers); the host settles the
    # dispute by telling the hand again.
    note = "Tonk: Ann" if lang == "en" else "Tonk war von Ann"
    t.own.update(note.split())
    go(t.phone, f"{t.base}/s/{t.sid}/hands/{n}")
    t.phone.fill("#dispute-result-note", note)
    tb.submit(t.phone, "#dispute-result")
    go(t.host_pg, f"{t.base}/s/{t.sid}/hands/{n}")
    expect(t.host_pg.locator("#dispute-1")).to_contain_text(note, timeout=FOLLOW)
    t.host_pg.select_option("#settle-by-1", "Ann")
    tb.submit(t.host_pg, "#settle-correct-1")
    assert t.host_pg.locator("#settles-dispute").count() == 1
    _tell_again_as(t, n, "Ann")
    assert t.state(n)["result"]["winners"] == ["Ann"]
    expect(t.phone.locator("#dispute-1")).to_contain_text(SETTLED[lang], timeout=FOLLOW)
    expect(t.phone.locator("#result")).to_contain_text(WINS[lang].format(name="Ann"),
                                                       timeout=FOLLOW)
    _shoot(t, "told-again-picked")
    t.money(t.phone)
