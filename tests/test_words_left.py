"""English left behind in what a German, French or Portuguese reader takes
home: the replay report of every sample log, `referee rules`, the house-rules
reference pages, the club's text, and the API's words about a request body.
Data-driven: every text in every language is read for English words and for
the "(s)"-style plurals a translator cannot say ("2 Hand/Hände")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import language
from referee.cli import main
from referee.commands.rules_doc import markdown
from referee.rules.options import OPTION_ALLOWED, OPTION_VALUES, PRESETS

from .samples import each_once_and_cover_in_all
from .test_api import Game, bearer

SAMPLES = sorted(p for p in (Path(__file__).resolve().parent.parent / "sample_logs").glob(
    "*.json") if not p.name.endswith(".expected.json"))
OTHERS = ("de", "fr", "pt")

# English words that no sentence of the referee's in another language holds.
# (Names, table names, notes, option names and values and the action notation
# "Ben: draw 5♥" are the log's own and are taken out before looking.)
ENGLISH = {"to", "or", "more", "values", "hand", "hands",
           "stake", "stakes", "Started", "Closed", "Nobody", "owes", "totals",
           "dealer", "outcome", "the", "must", "Missing", "Invalid", "Length", "Must", "Not",
           "field", "valid", "number", "list", "of", "between", "and", "than", "every", "other",
           "each", "nobody", "with", "dropped", "is", "when", "who",
           "count", "Discard", "pile", "top", "card", "cards", "Next", "unknown", "empty",
           "Spreads", "show", "complete", "waits", "shown"}
# A plural left for the reader to choose: "hand(s)", "Hand/Hände", "sessão(ões)".
CHOOSE = re.compile(r"[^\W\d_]+\((s|e|en|n|es|ões)\)|(?<![/\w])[A-Za-zÀ-ÿ]+/[A-Za-zÀ-ÿ]+(?![/\w])")

# One of a thing said as many: "1 Punkte", "1 mains".
ONE = re.compile(r"(?<![\d.,-])1 (Punkte|points|pontos|Hände|mains|mãos|Einsätze|mises|apostas)\b")


def english_left(text: str, own: set[str] = frozenset()) -> list[str]:
    """The English words and "(s)" plurals of ``text``, leaving out the log's
    own words ``own`` (names, notes), its notation and code."""
    text = re.sub(r"`[^`]*`|\b[a-z_]+(\.\w+)*\s?: |\"[^\"]*\"|"
                  r"\w+: (draw|take|discard|spread|hit|drop|tonk|out|claim|slap|show|pass)\b"
                  r"[^)\n]*|\w+_\w+|https?://\S+", " ", text)
    left = [w for w in re.findall(r"[^\W\d_]+", text) if w in ENGLISH and w not in own]
    return left + [m.group(0) for m in CHOOSE.finditer(text)] + [
        m.group(0) for m in ONE.finditer(text)]


def _own_words(path: Path) -> set[str]:
    import json

    try:
        doc = json.loads(path.read_text())
    except ValueError:
        return set()
    own = set()

    def walk(value, key=""):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key not in ("actions", "deal", "upcard", "rules"):
            own.update(re.findall(r"[^\W\d_]+", value))
    if isinstance(doc, dict):
        walk({k: v for k, v in doc.items() if k not in ("hands",)})
        for hand in doc.get("hands", []) if isinstance(doc.get("hands"), list) else []:
            walk(hand)
    return own


def test_the_check_sees_what_it_looks_for():
    assert english_left("Kitchen table: 4 Hand/Hände, Regeln pagat") == ["Hand/Hände"]
    assert english_left("4 main(s), mise 0,25 USD") == ["main(s)"]
    assert english_left("Werte: 0 to 4") == ["to"]
    assert english_left("Ann zahlt Ben 1 Punkte; 1,5 Punkte; 11 Punkte") == ["1 Punkte"]
    assert english_left("Ben: draw 5♥ · `spread_wait` 0 bis 9 · Ann, Ben") == []


# Every sample in one of the languages, and the samples that between them
# have every feature (tests/samples.py) in all three: what a report says is
# chosen by what a log has, so this keeps the risk at 544 cases of 948.
@pytest.mark.parametrize(("path", "lang"), each_once_and_cover_in_all(SAMPLES, OTHERS),
                         ids=lambda v: getattr(v, "name", v))
def test_replay_report_of_every_sample_log_has_no_english_left(path, lang, capsys):
    main(["replay", str(path), "--lang", lang])
    out = capsys.readouterr()
    said = out.out + out.err
    assert not english_left(said, _own_words(path) | NOTATION), said
    if lang == "fr":  # French puts a space before a semicolon (the log's own texts aside)
        texts = re.findall(r'"((?:[^"\\]|\\.)*)"', path.read_text())
        for text in sorted(texts, key=len, reverse=True):
            said = said.replace(text, " ")
        assert not re.search(r"[^\W\d_];", said), said


@pytest.mark.parametrize("lang", OTHERS)
def test_rules_and_the_reference_page_have_no_english_left(lang, capsys):
    for name in [None, *PRESETS]:
        main(["rules", *([name] if name else []), "--lang", lang])
    said = capsys.readouterr().out
    # The preset's sources that are people and places are their own names.
    own = {"Eric", "Dee", "Seattle", "Phil", "Baton", "Rouge", "Scott", "Sauri", "Washington",
           "DC", "Sean", "Newark", "NJ", "Hank", "Hebhoe", "Rushville", "IN", "Mike", "Foulds",
           "Chicago", "Lenie", "Lepape", "State", "Tony", "Jacobs", "null", "true", "false"}
    assert not english_left(said, own), english_left(said, own)
    assert not english_left(markdown(lang), own), english_left(markdown(lang), own)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_options_values_are_said_in_the_language(lang):
    for name, values in OPTION_VALUES.items():
        said = language.say(values, lang)
        assert not english_left(said, {"null"}), (name, said)
    assert language.say(OPTION_VALUES["jokers"], "en") == "0 to 4"
    assert language.say(OPTION_VALUES["jokers"], "de") == "0 bis 4"


@pytest.mark.parametrize("lang", OTHERS)
def test_the_club_text_has_no_english_left(app, lang, capsys, tmp_path):
    db = tmp_path / "club.sqlite3"
    main(["import", str(SAMPLES[0]), "--db", str(db)])
    capsys.readouterr()
    main(["season", "--db", str(db), "--lang", lang])
    main(["ledger", "--db", str(db), "--lang", lang])
    out = capsys.readouterr()
    said = out.out + out.err
    assert not english_left(said, _own_words(SAMPLES[0])), said


# Bodies marshmallow refuses, each a different one of its messages.
BODIES = [({}, "reason"), ({"reason": ""}, "reason"), ({"reason": 5}, "reason"),
          ({"reason": "x", "client_id": "x" * 101}, "client_id"),
          ({"reason": "x", "surprise": 1}, "surprise")]


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize(("body", "field"), BODIES)
def test_the_apis_words_about_a_request_body_are_the_readers(client, lang, body, field):
    g = Game(client)
    english = client.post(g.url("/hands/1/void"), json=body, headers=bearer(g.table))
    said = client.post(g.url("/hands/1/void"), json=body,
                       headers={**bearer(g.table), "Accept-Language": lang})
    assert english.status_code == said.status_code == 400
    english, said = english.get_json()["error"], said.get_json()["error"]
    assert english["code"] == said["code"] == "bad_request"
    assert english["message"].startswith(f"{field}: ") and english["message"][-1] == "."
    # French puts a no-break space before the colon
    problem = re.match(rf"{field}\u00a0?: (.+)", said["message"]).group(1)
    assert problem != english["message"].removeprefix(f"{field}: ")
    assert not english_left(problem), said["message"]


# A night at the table: drops won and caught, a deal win, a tonk, a void hand,
# a dispute, payments, side bets, a closed table; each imported in the language.
NIGHT = ["pagat_basic.json", "dc_low_deal.json", "ev_disputes.json", "ev_closed_after_void.json",
         "ev_brought_forward_payments.json", "ev_accepted.json", "opt_side_bets.json",
         "pagat_catch_tie.json"]


# The house rules' names and values as the forms list them, and the action
# verbs: the log's notation.
NOTATION = {w for name, allowed in OPTION_ALLOWED.items()
            for w in re.findall(r"[^\W\d_]+", f"{name} {allowed.choices or ''}")} | {
    "declare", "draw", "take", "spread", "hit", "discard", "drop", "show", "slap"}


def _pages(sid: str, hands: int) -> list[str]:
    return [f"/s/{sid}", f"/s/{sid}/manage", f"/s/{sid}/standings", f"/reports/{sid}/",
            f"/reports/{sid}/whatif", f"/reports/{sid}/whatif?rules=chicago",
            *(f"/s/{sid}/hands/{n}" for n in range(1, hands + 1)),
            *(f"/reports/{sid}/hands/{n}/audit" for n in range(1, hands + 1))]


@pytest.mark.parametrize("lang", OTHERS)
def test_every_page_of_a_played_night_has_no_english_left(app, client, lang):
    import json

    from referee.service.table import sessions
    from referee.web.db import get_db

    from .test_languages_web import visible
    from .test_tablet import token

    app.config["REFEREE_HOST_KEY"] = "club-key"
    found = {}
    for name in NIGHT:
        path = SAMPLES[0].parent / name
        log = {**json.loads(path.read_text()), "language": lang}
        with app.app_context():
            info = sessions.import_log(get_db(), log)
        form = client.get(f"/s/{info.id}/unlock").get_data(as_text=True)
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
        client.post(f"/s/{info.id}/unlock", data={"csrf_token": csrf, "pin": info.table_token})
        own = _own_words(path) | NOTATION
        for page in _pages(info.id, len(log.get("hands", []))):
            r = client.get(page)
            assert r.status_code == 200, page
            left = english_left(visible(r.get_data(as_text=True)), own)
            if left:
                found[f"{name} {page.replace(info.id, 'ID')}"] = left
    client.get(f"/?lang={lang}")
    client.post("/club/unlock", data={"host_key": "club-key", "csrf_token": token(client)})
    for page in ["/club", "/club/season", "/new", "/"]:
        r = client.get(page)
        assert r.status_code == 200, page  # the club opens on its usual currency
        # A download's file name (hands.csv, season.pdf) is a name, not words.
        text = re.sub(r"\b[\w-]+\.(?:csv|pdf)\b", "", visible(r.get_data(as_text=True)))
        left = english_left(text, {"Ann", "Ben", "Cy"} | NOTATION)
        if left:
            found[page] = left
    assert found == {}


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Side bet (the highest heart dealt): Ben was dealt K♥"),
    ("de", "Wette (das höchste gegebene Herz): Ben hat K♥ bekommen"),
    ("fr", "Pari annexe (le plus haut cœur distribué)\xa0: Ben a reçu K♥"),
])
def test_replay_says_where_the_side_bets_pots_went(lang, said, capsys):
    """The pots are in the hands' nets: the report says why, in the language."""
    main(["replay", str(SAMPLES[0].parent / "opt_side_bets.json"), "--lang", lang])
    assert said in capsys.readouterr().out


@pytest.mark.parametrize("lang", OTHERS)
def test_an_unknown_address_or_method_answers_in_the_readers_language(client, lang):
    """Werkzeug's English words for a 404 or 405, on the API and on a page."""
    from .test_languages_web import html_lang, visible

    asked = {"Accept-Language": lang}
    for method, path in [("get", "/api/nothing"), ("delete", "/api/sessions")]:
        english = getattr(client, method)(path).get_json()["error"]
        said = getattr(client, method)(path, headers=asked).get_json()["error"]
        assert said["code"] == english["code"] and said["message"] != english["message"]
        assert not english_left(said["message"]), said
    page = client.get("/nothing-here", headers=asked)
    assert page.status_code == 404 and html_lang(page.get_data(as_text=True)) == lang
    assert not english_left(visible(page.get_data(as_text=True))), visible(page.get_data(
        as_text=True))
    wrong = client.delete("/new", headers=asked)
    assert wrong.status_code == 405 and "GET" in wrong.headers["Allow"]
    assert not english_left(visible(wrong.get_data(as_text=True)))
