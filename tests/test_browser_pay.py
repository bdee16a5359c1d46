"""The settle-up page in headless Chromium: the EPC QR code read back from a
screenshot (zxing-cpp) to the transfer's payee, amount and text, in four
languages, at a tablet's and a phone's size; the host marks it paid."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tests import test_browser_tablet as tb
from tests.test_pay import ANN_IBAN, BASIC, epc_fields, read_codes

from .helpers import serve_for_browser

pytestmark = tb.pytestmark
browser = tb.browser


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    yield from serve_for_browser(request, tmp_path_factory)


def open_table(context, base: str, lang: str) -> tuple[str, str]:
    log = json.loads(BASIC.read_text())
    log.update(currency="EUR", language=lang, table="Kitchen table")
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
        assert codes[0]["text"] == "Tonk Kitchen table 2026-11-21"
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
