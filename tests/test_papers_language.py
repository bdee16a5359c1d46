"""Every paper in the table's language: settlement, audit, the house-rules
sheet, the reference page and the text reports, read back as a player would."""

from __future__ import annotations

import json
from html import unescape

import pytest

from referee.cli import main
from referee.commands.rules_doc import doc_path, markdown
from referee.language import LANGUAGES
from referee.replay import replay
from referee.reports.audit import audit_hand, render_audit
from referee.reports.settlement import render_settlement
from referee.reports.sheet import render_sheet
from referee.rules.options import PRESETS
from referee.service.table import sessions
from tests.reports_fixtures import pdf_reader, pdf_text, session_log

OTHERS = [lang for lang in LANGUAGES if lang != "en"]

# The English headings and labels of the papers: none may be left in another language.
ENGLISH = [
    "Settlement:", "Final totals", "Settling up", "Still owed", "Running totals",
    "Hand by hand", "Players", "Stake", "Rules", "Dealer", "Outcome", "Winners",
    "We agree that", "provisional", "Log fingerprint", "Every option is as in the standard",
    "Hand audit", "Action by action", "State after", "The result", "The payment worked out",
    "Net for the hand", "Accepted by", "Discard pile", "House rules", "What each ending pays",
    "At this table", "from each other player", "Stock out", "Drop won",
    "date not recorded",
]

# Each language's own words (docs/glossary.md) and money in its form, on the
# settlement (0.25 EUR a stake; Jürgen pays Zoë 1.75) and the audit of hand 1
# (Jürgen is caught).
OWN = {
    "de": {"settlement": ["Abrechnung", "Einsatz", "Endsummen", "Unterschriften",
                          "hereingelegt", "Hinlegen gewonnen", "0,25 €",
                          "Jürgen zahlt Zoë 1,75 €"],
           "audit": ["Prüfbericht", "Ablagestapel", "Geber José", "hereingelegt",
                     "Meldungen", "2 Einsätze = 0,50 €"]},
    "fr": {"settlement": ["Règlement", "Mise", "Totaux finaux", "attrapé", "tombé gagnant",
                          "0,25 €", "Jürgen paie 1,75 € à Zoë"],
           "audit": ["Vérification", "Défausse", "donneur José", "attrapé", "Combinaisons",
                     "2 mises = 0,50 €"]},
    "pt": {"settlement": ["Acerto de contas", "Aposta", "Totais finais", "apanhada",
                          "caiu e ganhou", "Situação", "0,25 €", "Jürgen paga 1,75 € a Zoë"],
           "audit": ["Auditoria", "Descarte", "carteador José", "apanhada", "Combinações",
                     "2 apostas = 0,50 €"]},
}


def _log(**extra) -> dict:
    log = session_log()
    log["currency"] = "EUR"
    log.update(extra)
    return log


def _english_left(text: str) -> list[str]:
    return [word for word in ENGLISH if word in text]


@pytest.mark.parametrize("lang", OTHERS)
def test_settlement_in_each_language(lang):
    text = pdf_text(render_settlement(replay(_log()), lang=lang))
    assert _english_left(text) == []
    for word in OWN[lang]["settlement"]:
        assert word in text, word


@pytest.mark.parametrize("lang", OTHERS)
def test_audit_in_each_language(lang):
    log = _log()
    text = pdf_text(render_audit(audit_hand(log, 1), lang=lang))
    assert _english_left(text) == []
    for word in OWN[lang]["audit"]:
        assert word in text, word


def test_english_stays_english():
    text = pdf_text(render_settlement(replay(_log())))
    assert "Final totals" in text and "Jürgen pays Zoë €1.75" in text


def test_the_logs_language_is_the_papers_default():
    log = _log(language="de")
    assert "Endsummen" in pdf_text(render_settlement(replay(log)))
    assert "Final totals" in pdf_text(render_settlement(replay(log), lang="en"))


def test_the_same_paper_whichever_way_its_language_was_chosen(tmp_path, capsys):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_log(language="pt")))
    papers = []
    for extra in ([], ["--lang", "pt"]):
        out = tmp_path / f"s{len(papers)}.pdf"
        assert main(["settle", str(path), "--pdf", str(out), *extra]) == 0
        papers.append(out.read_bytes())
    assert papers[0] == papers[1]
    assert papers[0] == render_settlement(replay(_log(language="pt")), lang="pt")
    assert "Acerto de contas" in pdf_text(papers[0])
    audits = []
    for extra in ([], ["--lang", "pt"]):
        out = tmp_path / f"a{len(audits)}.pdf"
        assert main(["audit", str(path), "--hand", "1", "--pdf", str(out), *extra]) == 0
        audits.append(out.read_bytes())
    assert audits[0] == audits[1]


def test_web_papers_are_the_tables_language_and_the_same_bytes(app, tmp_path):
    with app.app_context():
        db = app.extensions["referee"]["db"]
        info = sessions.import_log(db, _log(language="fr"), pin="4321")
    client = app.test_client()
    tok = f"?token={info.audit_token}"
    base = f"/reports/{info.id}"
    own = client.get(f"{base}/settlement.pdf{tok}").data
    asked = client.get(f"{base}/settlement.pdf{tok}&lang=fr").data
    assert own == asked
    text = pdf_text(own)
    assert "Règlement" in text and _english_left(text) == []
    # The reader's own language (cookie, browser) does not change the table's paper.
    client.set_cookie("lang", "de")
    assert client.get(f"{base}/settlement.pdf{tok}",
                      headers={"Accept-Language": "de"}).data == own
    out = tmp_path / "cli.pdf"
    assert main(["settle", info.id, "--db", app.config["DATABASE"], "--pdf", str(out)]) == 0
    assert out.read_bytes() == own
    assert main(["settle", info.id, "--db", app.config["DATABASE"], "--pdf", str(out),
                 "--lang", "fr"]) == 0
    assert out.read_bytes() == own
    german = pdf_text(client.get(f"{base}/settlement.pdf{tok}&lang=de").data)
    assert "Abrechnung" in german
    audit = client.get(f"{base}/hands/1/audit.pdf{tok}").data
    assert audit == client.get(f"{base}/hands/1/audit.pdf{tok}&lang=fr").data
    assert "Vérification" in pdf_text(audit)
    sheet = client.get(f"{base}/house-rules.pdf{tok}")
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
    assert len(pdf_reader(sheet.data).pages) == 1
    assert "Règles de la maison" in pdf_text(sheet.data)
    assert f"/s/{info.id}" in pdf_text(sheet.data)
    index = client.get(f"{base}/{tok}").get_data(as_text=True)
    assert f"{base}/house-rules.pdf" in index


def _drawn_squares(data: bytes) -> int:
    page = pdf_reader(data).pages[0]
    return page.get_contents().get_data().count(b" re")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_sheet_is_one_page_in_every_language(lang, preset):
    log = _log(rules=preset, stake="0.50")
    data = render_sheet(log, lang=lang, url="https://tonk.example/s/abc")
    assert len(pdf_reader(data).pages) == 1


@pytest.mark.parametrize("lang", OTHERS)
def test_the_sheet_says_the_payments_in_the_tables_money(lang):
    log = _log(stake="0.50", language=lang)
    data = render_sheet(log, url="https://tonk.example/s/abc")
    text = pdf_text(data)
    assert _english_left(text) == []
    money = {"de": "1,00 € von jedem anderen Spieler",
             "fr": "1,00 € de chaque autre joueur",
             "pt": "1,00 € de cada um dos outros jogadores"}[lang]
    assert money in text
    assert "https://tonk.example/s/abc" in text
    # The QR code is drawn square by square: hundreds of them.
    without = render_sheet(log)
    assert _drawn_squares(data) - _drawn_squares(without) > 200


def test_the_sheet_names_what_differs_from_the_standard_game():
    text = pdf_text(render_sheet(_log(rules="rushville", language="de")))
    assert "Vorlage rushville" in text and "Fünf Bildkarten bekommen" in text
    assert "Diese Optionen weichen vom Standardspiel ab" in text


def test_sheet_command(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_log()))
    out = tmp_path / "sheet.pdf"
    assert main(["sheet", str(path), "--pdf", str(out), "--lang", "pt",
                 "--url", "https://tonk.example/s/x"]) == 0
    text = pdf_text(out.read_bytes())
    assert "Regras da casa" in text and "https://tonk.example/s/x" in text
    assert main(["sheet", str(tmp_path / "missing.json"), "--pdf", str(out)]) == 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_reference_page_in_each_language_is_generated(lang):
    assert doc_path(lang).read_text() == markdown(lang), (
        f"run: referee rules --markdown --lang {lang} > {doc_path(lang).name}")


def test_replay_report_in_the_tables_language(tmp_path, capsys):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_log(language="de")))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Hand" in out and "Geber" in out and "hereingelegt" in out
    # money in the locale's own form, the times the paper's
    assert "Jürgen zahlt Zoë 1,75\xa0€" in out and "2 Hände," in out
    assert "Begonnen 21.11.2026 20:00 UTC" in out


def test_rules_command_in_a_language(capsys):
    assert main(["rules", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Vorlagen (referee rules NAME zeigt eine vollständig):" in out
    assert "Fang-Regeln (Option caught): pagat" in out
    assert main(["rules", "washington", "--lang", "pt"]) == 0
    out = capsys.readouterr().out
    assert "Predefinição washington" in out and "(* difere do jogo padrão)" in out


def test_audit_payment_reasons_in_the_language():
    text = pdf_text(render_audit(audit_hand(_log(), 1), lang="de"))
    assert "(hereingelegt)." in text and "(niedrigste Punktzahl)." in text
    # the scheme in words, never its option value (newcomer44 P16)
    assert "Fangregel pagat" not in text
    assert "(Fangregel: doppelt an die Gleich- oder Niedrigeren, und die Niedrigsten " \
        "kassieren 1 von jedem)." in " ".join(text.split())


def test_the_papers_font_has_every_character_of_the_catalogs():
    from decimal import Decimal

    from babel.messages.pofile import read_po
    from reportlab.pdfbase.ttfonts import TTFontFile

    from referee.language import TRANSLATIONS, money
    from referee.reports.common import FONT_DIR

    cmap = TTFontFile(str(FONT_DIR / "DejaVuSans.ttf")).charToGlyph
    for lang in OTHERS:
        with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            texts = [m.string for m in read_po(f) if m.id]
        texts += [money(Decimal("-1234.5"), c, lang) for c in ("EUR", "USD", "GBP", "BRL")]
        for text in texts:
            for part in (text if isinstance(text, tuple) else (text,)):
                missing = {ch for ch in part if ch != "\n" and ord(ch) not in cmap}
                assert not missing, (lang, part)


def test_a_pages_paper_links_carry_the_readers_language(app):
    """Issue 35: on Portuguese pages of a French table the papers' links
    downloaded French. A link names the reader's pick; without one, the
    table's language stays the paper's."""
    import re

    with app.app_context():
        db = app.extensions["referee"]["db"]
        info = sessions.import_log(db, _log(language="fr"), pin="4321")
    client = app.test_client()
    tok = f"?token={info.audit_token}"
    index = client.get(f"/reports/{info.id}/{tok}").get_data(as_text=True)
    assert "lang=" not in "".join(re.findall(r'href="([^"]+\.pdf[^"]*)"', index))
    client.set_cookie("lang", "pt")
    index = client.get(f"/reports/{info.id}/{tok}").get_data(as_text=True)
    links = [unescape(h) for h in re.findall(r'href="([^"]+\.pdf[^"]*)"', index)]
    assert {"settlement.pdf", "house-rules.pdf", "audit.pdf"} <= \
        {h.split("?")[0].rsplit("/", 1)[1] for h in links}
    for href in links:
        assert "lang=pt" in href and f"token={info.audit_token}" in href, href
    settlement = next(h for h in links if "settlement.pdf" in h)
    assert client.get(settlement).data == \
        client.get(f"/reports/{info.id}/settlement.pdf{tok}&lang=pt").data
    # a page asked in the table's own language links the table's paper
    index = client.get(f"/reports/{info.id}/{tok}&lang=fr").get_data(as_text=True)
    assert "lang=" not in "".join(re.findall(r'href="([^"]+\.pdf[^"]*)"', index))
