"""The settle-up page in headless Chromium: the EPC QR code read back from a
screenshot (zxing-cpp) to the transfer's payee, amount and text, in four
languages, at a tablet's and a phone's size; the host marks it paid."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tests import test_browser_tablet as tb
from tests.test_browser_tablet import sync_api
from tests.test_pay import ANN_IBAN, BASIC, epc_fields, read_codes

from .helpers import serve_for_browser

pytestmark = tb.pytestmark
browser = tb.browser
expect = sync_api.expect


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    yield from serve_for_browser(request, tmp_path_factory)


def open_table(context, base: str, lang: str) -> tuple[str, str]:
    log = json.loads(BASIC.read_text())
    log.update(currency="EUR", language=lang, table="Kitchen table",
               copy=True)  # a copy of the sample per test, on purpose
    made = context.request.post(f"{base}/api/sessions", data=log).json()
    r = context.request.put(f"{base}/api/sessions/{made['id']}/players/Ann/pay",
                            data={"iban": ANN_IBAN, "holder": "Ann Albers",
                                  "paypal": "annalbers"},
                            headers={"Authorization": f"Bearer {made['table_token']}"})
    assert r.status == 200, r.text()
    return made["id"], made["table_token"]


@pytest.mark.parametrize("lang", ["en", "de", "fr", "pt"])
def test_the_pages_epc_code_reads_back_and_the_host_marks_it_paid(server, browser, tmp_path,
                                                                   lang):
    base = server
    context = browser.new_context(viewport=tb.TABLET)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    sid, token = open_table(context, base, lang)
    pg.goto(f"{base}/s/{sid}/unlock?next=/s/{sid}/settle")
    pg.fill("input[name=pin]", token)
    with pg.expect_navigation():
        pg.locator("main form button[type=submit]").click()
    assert pg.url.endswith(f"/s/{sid}/settle")
    assert pg.evaluate("document.documentElement.lang") == lang  # the table's language
    to_ann = pg.locator("li.transfer[data-to='Ann']")
    for size in (tb.TABLET, {"width": 390, "height": 844}):
        pg.set_viewport_size(size)
        assert pg.evaluate("document.documentElement.scrollWidth") <= size["width"]
        shot = tmp_path / f"{lang}-{size['width']}.png"
        to_ann.locator("figure.epc").screenshot(path=str(shot))
        codes = [epc_fields(t) for t in read_codes(shot) if t.startswith("BCD")]
        assert len(codes) == 1, codes
        assert codes[0]["name"] == "Ann Albers" and codes[0]["iban"] == "DE89370400440532013000"
        assert Decimal(codes[0]["amount"].removeprefix("EUR")) == Decimal(
            to_ann.get_attribute("data-amount")) == Decimal("0.75")
        assert codes[0]["text"] == "Ben: Tonk Kitchen table 2026-11-21"
    assert to_ann.locator("a.paypal").get_attribute("href") == \
        "https://paypal.me/annalbers/0.75EUR"
    # Cy gave nothing: no code, no link beside the transfer to Cy.
    to_cy = pg.locator("li.transfer[data-to='Cy']")
    assert to_cy.locator("figure.epc").count() == 0 and to_cy.locator("a.paypal").count() == 0
    with pg.expect_navigation():
        to_ann.locator("form.mark-paid button").click()
    assert pg.locator("li.transfer").count() == 1
    assert pg.locator("#payments li").count() == 1
    context.close()


def test_the_players_page_follows_a_transfer_marked_paid_and_shares_its_link(server, browser):
    """A player's phone on the shared link: the host marks a transfer paid
    and the page shows it without a reload; Share (no share sheet in a
    desktop Chromium) copies the viewer link."""
    base = server
    host = browser.new_context(viewport=tb.TABLET)
    sid, token = open_table(host, base, "en")
    auth = {"Authorization": f"Bearer {token}"}
    viewer = host.request.post(f"{base}/api/sessions/{sid}/links", data={"role": "viewer"},
                               headers=auth).json()["token"]
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    phone.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    pg = phone.new_page()
    pg.set_default_timeout(10_000)
    pg.goto(f"{base}/s/{sid}/settle/by/{viewer}")
    assert pg.url.endswith(f"/s/{sid}/settle") and pg.locator("li.transfer").count() == 2
    pg.evaluate("window.stayed = true")  # gone if the page is loaded again
    r = host.request.post(f"{base}/api/sessions/{sid}/paid", headers=auth,
                          data={"from": "Ben", "to": "Ann", "amount": "0.75"})
    assert r.status == 201, r.text()
    expect(pg.locator("li.transfer")).to_have_count(1)
    assert pg.evaluate("window.stayed") is True
    assert "Ben paid Ann" in pg.locator("#payments").inner_text()
    pg.locator("#share").click()
    expect(pg.locator("#share-done")).to_contain_text("copied")
    assert pg.evaluate("navigator.clipboard.readText()").endswith(
        f"/s/{sid}/settle/by/{viewer}")
    phone.close()
    host.close()
