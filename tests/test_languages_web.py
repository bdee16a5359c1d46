"""The pages in the reader's language: the switch and its cookie, the
device's Accept-Language, the table's language as its pages' default, the
locale's money and dates, and every word of every template marked for the
catalogs."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee import language
from referee.language import TRANSLATIONS
from referee.service.table import sessions
from referee.web import TEMPLATES
from referee.web.db import get_db

from .test_tablet import PIN, act, create, flashes, form_value, hand_page, start, token


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([a-z]+)">', page).group(1)


def visible(page: str) -> str:
    """The page's words as a reader sees them: no tags, scripts or comments."""
    body = re.sub(r"(?s)<(script|style)\b.*?</\1>|<!--.*?-->", " ", page)
    # Babel puts no-break spaces between an amount and its currency.
    return unescape(re.sub(r"<[^>]+>", " ", body)).replace("\xa0", " ").replace("\u202f", " ")


# ---------------------------------------------------------------- choosing

def test_english_unless_a_language_is_asked_for(client):
    page = client.get("/").get_data(as_text=True)
    assert html_lang(page) == "en" and "Open a new table" in page


def test_accept_language_chooses(client):
    r = client.get("/", headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"})
    page = r.get_data(as_text=True)
    assert html_lang(page) == "pt" and "Abrir uma nova mesa" in page
    assert "lang=" not in r.headers.get("Set-Cookie", "")  # only a pick is remembered
    page = client.get("/", headers={"Accept-Language": "ja, fr-CA;q=0.4"}).get_data(as_text=True)
    assert html_lang(page) == "fr" and "Ouvrir une nouvelle table" in page
    page = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert html_lang(page) == "en"


def test_the_switch_changes_the_language_and_is_remembered(client):
    page = client.get("/").get_data(as_text=True)
    links = dict(re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)"', page))
    assert sorted(links.values()) == ["de", "en", "fr", "pt"]
    german = next(href for href, code in links.items() if code == "de")
    r = client.get(unescape(german))
    cookie = r.headers["Set-Cookie"]
    assert "lang=de" in cookie and "SameSite=Lax" in cookie and "Max-Age=31536000" in cookie
    page = r.get_data(as_text=True)
    assert html_lang(page) == "de" and "Neuen Tisch eröffnen" in page
    assert re.search(r'hreflang="de" lang="de" aria-current="true"', page)
    # Remembered: the next page, without the pick in its address, and over the device's wish.
    page = client.get("/new", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert html_lang(page) == "de" and "Tisch eröffnen" in page
    client.get("/?lang=en")
    assert html_lang(client.get("/").get_data(as_text=True)) == "en"


def test_an_unknown_pick_changes_nothing(client):
    r = client.get("/?lang=xx")
    assert "Set-Cookie" not in r.headers or "lang=" not in r.headers["Set-Cookie"]
    assert html_lang(r.get_data(as_text=True)) == "en"


def test_the_switch_keeps_the_page_and_its_query(client):
    sid = create(client)
    page = client.get(f"/s/{sid}/standings?page=1").get_data(as_text=True)
    hrefs = [unescape(h) for h in re.findall(r'<a href="([^"]+)" hreflang="pt"', page)]
    assert hrefs == [f"/s/{sid}/standings?page=1&lang=pt"]


def test_a_page_drawn_by_a_post_switches_to_the_page_it_belongs_to(client):
    sid = create(client, players=("Ann", "Ben"))
    start(client, sid, deal={"Ben": ["5h", "6h", "7h", "3s", "3c"]}, upcard="3d",
          players=("Ann", "Ben"))
    act(client, sid, 1, "take")
    act(client, sid, 1, "spread", ["5h", "6h", "7h"])
    page = hand_page(client, sid)
    r = client.post(f"/s/{sid}/hands/1/act", data={
        "csrf_token": form_value(page, "csrf_token"), "client_id": "c1",
        "expected_seq": form_value(page, "expected_seq"), "act": "1:spread",
        "card": ["3s", "3c", "3d"]})
    confirm = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'id="confirm-yes"' in confirm
    href = re.search(r'<a href="([^"]+)" hreflang="de"', confirm).group(1)
    assert unescape(href) == f"/s/{sid}/hands/1?lang=de"


# ---------------------------------------------------------------- the table's language

def test_the_create_form_offers_the_languages_defaulting_to_the_devices(client):
    page = client.get("/new", headers={"Accept-Language": "de-AT"}).get_data(as_text=True)
    select = re.search(r'<select name="language".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option value="(\w+)"', select) == ["en", "de", "fr", "pt"]
    assert re.search(r'value="de" lang="de" selected>Deutsch<', select)


def test_the_tables_language_is_the_default_of_its_pages(app, client):
    sid = create(client, language="fr")
    with app.app_context():
        assert sessions.session_summary(get_db(), sid)["language"] == "fr"
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    assert html_lang(page) == "fr" and "Classement" in page
    assert html_lang(client.get(f"/reports/{sid}/").get_data(as_text=True)) == "fr"
    # The device's language does not override the table's; a reader's own pick does.
    page = client.get(f"/s/{sid}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert html_lang(page) == "fr"
    client.get(f"/s/{sid}?lang=pt")
    assert html_lang(client.get(f"/s/{sid}/standings").get_data(as_text=True)) == "pt"
    assert html_lang(client.get("/").get_data(as_text=True)) == "pt"


def test_a_page_asks_for_its_language_once_however_many_sentences(client, monkeypatch):
    # Flask-Babel's answer costs a dozen look-ups of the request's context;
    # the table's page asked it for each of its ~75 sentences and its amounts.
    from referee.web import lang as page_lang

    sid = create(client, language="fr", currency="EUR")
    asked = []
    real = page_lang.get_locale

    def counted():
        asked.append(1)
        return real()

    monkeypatch.setattr(page_lang, "get_locale", counted)
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    assert html_lang(page) == "fr" and "Classement" in page
    # Once for the table's language, once again after it is known (it may change the answer).
    assert len(asked) <= 2
    # The reader's pick after the table's: the page follows it at once.
    assert html_lang(client.get(f"/s/{sid}?lang=de").get_data(as_text=True)) == "de"


def test_an_amount_written_once_is_written_again_in_each_readers_language(app):
    # Amounts are written once each (a page repeats its stake and shares):
    # the same text in another language, or with a currency, is another amount.
    from referee.web.lang import money, num

    for lang in ("de", "en", "fr"):
        with app.test_request_context(f"/?lang={lang}"):
            assert [money(Decimal("1234.5")), money("1234.5", "EUR"), num("1234.5")] == [
                language.money(Decimal("1234.5"), None, lang),
                language.money(Decimal("1234.5"), "EUR", lang),
                language.number(Decimal("1234.5"), lang)]
            assert money("x") == "x" and money(None) == "" and num("") == ""


def test_a_table_created_without_a_language_is_english(app, client):
    sid = create(client)
    with app.app_context():
        assert sessions.session_summary(get_db(), sid)["language"] == "en"
    assert html_lang(client.get(f"/s/{sid}").get_data(as_text=True)) == "en"


def test_an_unknown_table_language_is_refused_with_a_sentence(client):
    data = {"csrf_token": token(client), "stake": "0.25", "preset": "pagat", "pin": PIN,
            "pin2": PIN, "player1": "Ann", "player2": "Ben", "language": "xx"}
    r = client.post("/new", data=data, follow_redirects=True)
    assert r.status_code == 200 and r.request.path == "/new"
    assert "The table&#39;s language: one from the list" in r.get_data(as_text=True)


# ---------------------------------------------------------------- a German table

def test_a_german_hand_reads_in_german_with_the_locales_money(client):
    sid = create(client, players=("Ann", "Ben"), language="de", currency="EUR",
                 stake="1250")
    page = visible(client.get(f"/s/{sid}").get_data(as_text=True))
    assert "Einsatz 1.250,00 €" in page and "Hand 1 beginnen (Ann gibt)" in page
    start(client, sid, deal={"Ben": ["5h", "6h", "7h", "3s", "3c"]}, upcard="3d",
          players=("Ann", "Ben"))
    page = act(client, sid, 1, "take")
    assert "✓ Ben nimmt 3♦." in [unescape(f[1]) for f in flashes(page)]  # the card taken
    # A refusal: the page's own words in German around the referee's reason.
    page = act(client, sid, 1, "spread", ["5h", "6h", "3s"])
    assert any(f[0] == "error" and f[1].startswith("Nicht erfasst: Ben meldet 5♥ 6♥ 3♠")
               for f in flashes(page))
    act(client, sid, 1, "spread", ["5h", "6h", "7h"])
    page = act(client, sid, 1, "spread", ["3s", "3c", "3d"])
    words = visible(page)
    assert html_lang(page) == "de"
    assert "Ann zahlt Ben 2.500,00 €" in words
    assert "Akzeptiert von" in words and "Nächste Hand beginnen" in words
    # The history says each action in German; the log line (English verbs) on hover only.
    assert "Ben meldet 5♥ 6♥ 7♥" in words and "Ben: spread 5♥ 6♥ 7♥" not in words
    assert 'title="Ben: spread 5♥ 6♥ 7♥"' in page


def test_the_club_pages_write_dates_and_money_in_the_locale(app, client):
    app.config["REFEREE_HOST_KEY"] = "club-key"
    client.get("/?lang=de")
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": token(client)})
    page = client.get("/club").get_data(as_text=True)
    assert html_lang(page) == "de" and "Kassenbuch des Vereins" in page
    page = client.get("/club/season?from=2026-01-31&to=2026-11-24").get_data(as_text=True)
    assert "Die Saison: 31.01.2026 bis 24.11.2026" in page


# ---------------------------------------------------------------- every word marked

# Text of the templates that is not a word of any language: file names, an
# abbreviation, a query argument's name, an HTML entity.
NOT_WORDS = {"PDF", "ledger", "csv", "hands", "season", "pdf", "token", "nbsp"}
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "data-confirm")


def _unmarked(source: str) -> list[str]:
    """Words a reader would see that are not inside a Jinja expression or tag."""
    text = re.sub(r"(?s)\{#.*?#\}", " ", source)
    problems = []
    for tag in re.findall(r"(?s)<[a-zA-Z][^<>]*?>", re.sub(r"(?s)\{\{.*?\}\}|\{%.*?%\}", "X",
                                                           text)):
        for name in READ_ATTRIBUTES:
            for value in re.findall(rf'{name}="([^"]*)"', tag):
                if value.replace("X", "").strip():
                    problems.append(f'{name}="{value}"')
    text = re.sub(r"(?s)\{\{.*?\}\}|\{%.*?%\}", " ", text)
    text = re.sub(r"(?s)<[^<>]*>", " ", text)
    problems += [w for w in re.findall(r"[^\W\d_]{2,}", text) if w not in NOT_WORDS]
    return problems


def test_every_word_of_every_template_is_marked():
    found = {}
    for path in sorted(Path(TEMPLATES).rglob("*.html")):
        unmarked = _unmarked(path.read_text())
        if unmarked:
            found[str(path.relative_to(TEMPLATES))] = unmarked
    assert found == {}


def test_the_marked_check_sees_an_unmarked_word():
    assert _unmarked('<p class="x">Stock {{ _("Stock") }}</p>') == ["Stock"]
    assert _unmarked('<nav aria-label="Steps">{{ x }}</nav>') == ['aria-label="Steps"']
    assert _unmarked('<nav aria-label="{{ _(\'Steps\') }}">{# a note #}</nav>') == []


def _english(lang: str) -> list[str]:
    """The catalog's English sentences without placeholders whose ``lang``
    translation does not contain them (so seeing them means a word left in English)."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return [m.id for m in read_po(f)
                if isinstance(m.id, str) and m.id and m.string and m.id not in m.string
                and "%(" not in m.id and "{" not in m.id]


@pytest.mark.parametrize("lang", ["de", "fr", "pt"])
def test_each_page_of_a_table_has_no_english_heading_button_or_label_left(client, lang):
    sid = create(client, players=("Ann", "Ben"), language=lang)
    start(client, sid, deal={"Ben": ["5h", "6h", "7h", "3s", "3c"]}, upcard="3d",
          players=("Ann", "Ben"))
    act(client, sid, 1, "take")
    # Every English sentence in one pattern, longest first: a label holds
    # English exactly when the pattern finds one (a search per sentence and
    # label took a minute a language).
    english = re.compile(r"(?<!\w)(?:" + "|".join(
        map(re.escape, sorted(_english(lang), key=len, reverse=True))) + r")(?!\w)")
    pages = [f"/s/{sid}", f"/s/{sid}/hands/1", f"/s/{sid}/manage", f"/s/{sid}/standings",
             f"/reports/{sid}/", f"/reports/{sid}/hands/1/audit", f"/reports/{sid}/whatif",
             # Not a table's: in the language the reader picks (last, as it is remembered).
             f"/?lang={lang}", "/new"]
    for path in pages:
        page = client.get(path).get_data(as_text=True)
        assert html_lang(page) == lang, path
        labels = re.findall(
            r"(?s)<(h1|h2|h3|button|summary|legend|label|th|dt|a)\b([^>]*)>(.*?)</\1>", page)
        for tag, attributes, inner in labels:
            if 'for="opt_' in attributes:
                continue  # a house rule's name: the engine's words, translated with its own
            # A list's choices are the engine's words (presets, rule values), not the page's.
            said = " ".join(visible(re.sub(r"(?s)<select.*?</select>", " ", inner)).split())
            left = english.findall(said)
            assert not left, (path, tag, said, left)


# ---------------------------------------------------------------- typed numbers

def _pattern_of(page: str, name: str) -> re.Pattern:
    field = re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)
    # An HTML pattern matches the whole value (the browser anchors it).
    return re.compile(re.search(r'pattern="([^"]+)"', field).group(1))


@pytest.mark.parametrize("lang, stake, amount", [
    ("de", "1,00", "0,50"), ("fr", "1,00", "0,50"), ("pt", "1,00", "0,50"),
    ("en", "1.00", "0.50"),
])
def test_every_number_field_reads_the_tables_language(client, lang, stake, amount):
    """A German stake "1,00" on a page that prints "0,50 €" passes the browser's
    pattern and the server (issue 35, item 7); the point is read too."""
    sid = create(client, currency="EUR", language=lang, stake="0.50")
    manage = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    for name, typed in (("stake", stake), ("amount", amount), ("stake", "2.00")):
        assert _pattern_of(manage, name).fullmatch(typed), (name, typed)
    assert not _pattern_of(manage, "stake").fullmatch("1.000,00")
    r = client.post(f"/s/{sid}/manage/stake", data={
        "csrf_token": form_value(manage, "csrf_token"), "client_id": "k1", "stake": stake})
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert not [f for f in flashes(page) if f[0] == "error"], flashes(page)
    shown = visible(language.money(Decimal("1.00"), "EUR", lang))
    assert shown in visible(client.get(f"/s/{sid}").get_data(as_text=True))
    r = client.post(f"/s/{sid}/manage/payment", data={
        "csrf_token": form_value(manage, "csrf_token"), "client_id": "p1", "from": "Ann",
        "to": "Ben", "amount": amount})
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert not [f for f in flashes(page) if f[0] == "error"], flashes(page)
    assert sessions.get_log(get_db_of(client), sid)["payments"][0]["amount"] == "0.50"


def test_the_create_form_reads_a_stake_in_the_readers_language(client):
    page = client.get("/new?lang=de").get_data(as_text=True)
    assert _pattern_of(page, "stake").fullmatch("0,25") and 'value="0,25"' in page
    sid = create(client, currency="EUR", stake="0,25")
    assert sessions.get_log(get_db_of(client), sid)["stake"] == "0.25"


def get_db_of(client):
    with client.application.app_context():
        return get_db()


def test_a_papers_lang_does_not_switch_the_device(client):
    """Newcomer 46's F10: a German tablet fetching a French paper for a
    French player (``settlement.pdf?lang=fr``) stays German; so does a
    tablet sent from a paper's link to the PIN page first. Only a page the
    reader browses remembers a pick."""
    sid = create(client)
    client.set_cookie("lang", "de")
    for paper in ("settlement.pdf", "house-rules.pdf"):
        r = client.get(f"/reports/{sid}/{paper}?lang=fr")
        assert r.status_code == 200 and r.mimetype == "application/pdf"
        assert "lang=" not in r.headers.get("Set-Cookie", "")
    assert html_lang(client.get(f"/s/{sid}").get_data(as_text=True)) == "de"
    other = client.application.test_client()  # a tablet that has not unlocked the table
    r = other.get(f"/reports/{sid}/settlement.pdf?lang=fr")
    assert r.status_code == 303 and "lang=" not in r.headers.get("Set-Cookie", "")
    r = other.get(f"/s/{sid}/unlock?lang=fr")  # a page: the pick is kept
    assert "lang=fr" in r.headers["Set-Cookie"]
