"""The quick hand's number pad in Chromium (issue 35): it never skips a
player (a count that takes no further digit moves on by itself, and a tap of
"Next" right after it stays), and its "Next" label stays inside its button
in every language at a tablet's and a phone's width."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee.web
from referee.language import LANGUAGES
from tests import test_browser_tablet as tb

pytestmark = tb.pytestmark
browser = tb.browser
STATIC = Path(referee.web.__file__).parent / "static"
PLAYERS = ["Amélie", "João", "Chloé", "Duarte"]


def _pad_page(app, lang: str) -> str:
    """The pad as the pages draw it (the macro, the CSS and pad.js)."""
    with app.test_request_context(f"/?lang={lang}"):
        app.preprocess_request()
        form = app.jinja_env.from_string(
            '{% from "_macros.html" import count_pad %}<form>{{ count_pad(players, 50, none) }}'
            '<button type="submit" id="go">Go</button></form>').render(players=PLAYERS)
    return (f'<!doctype html><html lang="{lang}"><head><meta name="viewport" '
            f'content="width=device-width"><style>{(STATIC / "tablet.css").read_text()}</style>'
            f"</head><body><main>{form}</main><script>{(STATIC / 'pad.js').read_text()}"
            "</script></body></html>")


def _tap(pg, digits: str) -> None:
    for d in digits:
        pg.locator(f"[data-pad] button[data-digit='{d}']").click()


def test_next_after_a_full_count_does_not_skip_a_player(app, browser):
    pg = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    pg.set_content(_pad_page(app, "fr"))
    _tap(pg, "12")  # 120 is past 50: the pad moves on to João by itself
    pg.locator("[data-pad] button[data-next]").click()  # the habit of a score sheet
    _tap(pg, "7")
    pg.locator("[data-pad] button[data-next]").click()
    _tap(pg, "30")
    values = [pg.locator(f"#count{i}").input_value() for i in range(4)]
    assert values == ["12", "7", "30", ""], values
    pg.context.close()


@pytest.mark.parametrize("width", [1024, 390])
def test_the_next_label_stays_inside_its_button_in_every_language(app, browser, width):
    context = browser.new_context(viewport={"width": width, "height": 844})
    for lang in LANGUAGES:
        pg = context.new_page()  # a page each: the script's names are its window's
        pg.set_content(_pad_page(app, lang))
        assert pg.locator("[data-pad] .pad").is_visible()
        # how far the label's text reaches past the button's edges
        spill = pg.eval_on_selector("[data-pad] button[data-next]", """b => {
            const r = document.createRange(); r.selectNodeContents(b);
            const t = r.getBoundingClientRect(), o = b.getBoundingClientRect();
            return Math.max(o.left - t.left, t.right - o.right); }""")
        assert spill <= 0, (lang, width, spill)
    context.close()


# Each word of each key's label, as the lines it was laid out on: a word
# broken inside ("Próxim" / "o") lies on two.
WORD_LINES = """pad => [...pad.querySelectorAll('button')].flatMap(b => {
    const text = b.firstChild, words = [], r = document.createRange();
    for (const m of b.textContent.matchAll(/\\S+/g)) {
      const at = text.textContent.indexOf(m[0]);
      r.setStart(text, at); r.setEnd(text, at + m[0].length);
      const tops = new Set([...r.getClientRects()].map(q => Math.round(q.top)));
      words.push([m[0], tops.size]);
    }
    return words; })"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_key_of_the_pad_breaks_a_word_on_a_phone(app, browser, lang):
    """Newcomer 46: at 390 px the Portuguese "Next" key read "Próxim" over
    "o". Every key's label at 390x844 keeps each word on one line, and
    inside its key."""
    pg = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    pg.set_content(_pad_page(app, lang))
    assert pg.locator("[data-pad] .pad").is_visible()
    words = pg.eval_on_selector("[data-pad] .pad", WORD_LINES)
    assert len(words) >= 11 and [w for w, lines in words if lines != 1] == [], (lang, words)
    spills = pg.eval_on_selector_all("[data-pad] .pad button", """bs => bs.map(b => {
        const r = document.createRange(); r.selectNodeContents(b);
        const t = r.getBoundingClientRect(), o = b.getBoundingClientRect();
        return Math.max(o.left - t.left, t.right - o.right); })""")
    assert max(spills) <= 0, (lang, spills)
    pg.context.close()
