"""The translation catalogs: every marked sentence translated into every
language, without fuzzy entries or lost placeholders; the catalogs extracted
from the code as it is now; the compiled ``.mo`` files the service reads the
same as their ``.po``."""

from __future__ import annotations

import re

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from referee.devtools import catalogs
from referee.language import DEFAULT, LANGUAGES, TRANSLATIONS


def test_every_sentence_is_translated_with_its_placeholders():
    assert catalogs.check() == []


def _entries(catalog) -> dict:
    def plain(value):
        return tuple(value) if isinstance(value, (list, tuple)) else value
    return {plain(m.id): plain(m.string) for m in catalog if m.id}


def test_the_compiled_catalogs_are_those_of_the_po_files():
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        folder = TRANSLATIONS / lang / "LC_MESSAGES"
        with (folder / "messages.po").open("rb") as f:
            po = _entries(read_po(f))
        with (folder / "messages.mo").open("rb") as f:
            mo = _entries(read_mo(f))
        assert mo == po, f"{lang}: run python -m referee.devtools.catalogs"


def test_the_template_holds_every_marked_sentence_of_the_code(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogs, "TEMPLATE", tmp_path / "messages.pot")
    catalogs.extract()
    with (tmp_path / "messages.pot").open("rb") as f:
        fresh = {m.id for m in read_po(f) if m.id}
    with (TRANSLATIONS / "messages.pot").open("rb") as f:
        kept = {m.id for m in read_po(f) if m.id}
    assert fresh == kept, "run python -m referee.devtools.catalogs"


def _template_ids() -> list[str]:
    with (TRANSLATIONS / "messages.pot").open("rb") as f:
        return [m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id]


def test_one_placeholder_style():
    """Every sentence, of the code and of the pages, names its values as
    ``{name}``: a second style made one sentence two (and their
    translations drifted apart)."""
    assert [i for i in _template_ids() if re.search(r"%\(\w+\)[sd]", i)] == []


def test_no_sentence_is_stated_twice_in_two_styles():
    """Sentences equal once their placeholders are read alike are one
    sentence: two msgids would be translated twice, and drift."""
    seen: dict[str, str] = {}
    twice = []
    for msgid in _template_ids():
        plain = re.sub(r"%\((\w+)\)[sd]", r"{\1}", msgid)
        if plain in seen:
            twice.append((seen[plain], msgid))
        seen[plain] = msgid
    assert twice == []


# The reader addressed as "Sie": the formal pronoun mid-sentence (after a
# lowercase word or a comma, where "sie" for "it/they" is written small), or
# a sentence opening with a formal "Sie may/can/must". Capitalised at a
# sentence's start, "Sie"/"Ihr" mean "it/they"/"its" and stay.
_FORMAL = re.compile(
    r"(?<=[a-zäöüß,;)]\s)(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b"
    r"|(?:^|[.!?]\s)Sie (dürfen|können|müssen|möchten|sollten)\b")


def test_the_german_catalog_says_du_never_sie():
    """One form of address (issue 35): the German pages and papers say "du"
    to the reader ("ihr" only to the whole table), never the formal "Sie"."""
    with (TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    formal = []
    for m in catalog:
        strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        formal += [s for s in strings if s and _FORMAL.search(s)]
    assert formal == []


# The reader addressed as "tu" where the pages say "vous" (French) and "você"
# (European Portuguese): the familiar pronouns and possessives, a clitic
# "-te"/"-toi", and the verb forms only "tu" takes (être, pouvoir, devoir,
# vouloir, savoir, aller; ser, poder, dever, ter, querer, estar, saber, ir).
# "vós" and its possessives are the familiar plural in Portugal: "vocês" is
# the table addressed at once. A card's "as" (ace) is not "tu as".
_FAMILIAR = {
    "fr": re.compile(r"(?i)(?<![\w'’-])(tu|toi|te|ton|ta|tes|tien|tienne|tiens|es|peux|dois|"
                     r"veux|sais|vas)(?![\w'’])|(?<![\w'’-])t['’](?=\w)|-(toi|te)\b"),
    "pt": re.compile(r"(?i)(?<![\w-])(tu|te|ti|contigo|teu|tua|teus|tuas|vós|vosso|vossa|"
                     r"vossos|vossas|convosco|és|podes|deves|tens|queres|estás|sabes|vais)"
                     r"(?![\w-])|-te\b"),
}
_POLITE = {"fr": re.compile(r"(?i)\bvous\b"), "pt": re.compile(r"(?i)(?<!\w)você(?!\w)")}


def _strings(lang: str) -> list[str]:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    return [s for m in catalog if m.id
            for s in (m.string if isinstance(m.string, (list, tuple)) else [m.string]) if s]


def test_the_checks_of_address_tell_the_forms_apart():
    """The patterns below would find a slip: each catches the familiar form
    and passes the polite one (and the words that only look alike)."""
    familiar = {"fr": ["Tu peux fermer la table.", "Choisis ta carte", "Scanne ton code",
                       "Souviens-toi du PIN", "t'as gagné", "Où es-tu ?"],
                "pt": ["Tu podes fechar a mesa.", "Escolhe a tua carta", "o teu código",
                       "Lembra-te do PIN", "Se queres pagar", "Como estás?"]}
    polite = {"fr": ["Vous pouvez fermer la table.", "Choisissez votre carte", "trois as",
                     "l'as bas ou haut", "Gardez-le", "Vous êtes"],
              "pt": ["Você pode fechar a mesa.", "Escolha a sua carta", "o seu código",
                     "Guarde-o", "Vocês pagam", "Ela está"]}
    for lang, pattern in _FAMILIAR.items():
        assert all(pattern.search(s) for s in familiar[lang]), lang
        assert not any(pattern.search(s) for s in polite[lang]), lang
        assert all(_POLITE[lang].search(s) for s in polite[lang][:1])


def test_french_says_vous_and_portuguese_says_voce_never_tu():
    """One form of address each, as German says "du" (issue 35 leftovers):
    the French pages and papers say "vous" to the reader, the Portuguese
    (European) "você", never the familiar "tu" (nor "vós")."""
    for lang, pattern in _FAMILIAR.items():
        strings = _strings(lang)
        assert any(_POLITE[lang].search(s) for s in strings), lang
        assert [s for s in strings if pattern.search(s)] == [], lang


# Brazilian forms where European Portuguese says another word (the newcomer's
# night, F12: "Registre", "Gerenciar", "Placar" beside "registo", "ecrã",
# "telemóvel"): the verb "registrar" (Portugal: registar), "gerenciar" (gerir),
# "placar" (classificação), "tela" (ecrã), "celular" (telemóvel), "arquivo"
# (ficheiro), "usuário" (utilizador), "aplicativo" (aplicação), "salvar"
# (guardar), "digitar" (escrever), "acessar" (aceder), "banco de dados" (base
# de dados), "mídia", "coringa" (joker), "pego" (apanhado), "controle" (controlo),
# "aceito" as a participle (aceite), "... demais" (demasiado; "os demais", the
# others, is both), and the
# progressive "está faltando" (falta; Portugal says "está a ...").
_BRAZILIAN = re.compile(
    r"(?i)(?<![\w-])(registr(ar|e|ado|ada|o|á-la)|gerenci\w*|placar(es)?|tela|celular|arquivo|"
    r"usuári[oa]s?|aplicativo|salv(ar|o|a)|digit(ar|e|ou|ado)|acess(ar|e)|banco de dados|"
    r"mídia|coringas?|pego|controle|aceito|(?<!\bos )(?<!\bdos )(?<!\bas )(?<!\bdas )demais|"
    r"est(á|ão) \w+ando|"
    r"[oa] monte se esgotou)(?![\w-])")


def test_the_check_of_portuguese_tells_brazil_from_portugal():
    brazilian = ["Confirmar: registrar", "Registre como a mão terminou", "Gerenciar a mesa",
                 "Placar", "Salvar", "Digite o PIN", "foi pego", "Pedidos demais",
                 "o evento está faltando", "O monte se esgotou; Ann", "o banco de dados"]
    european = ["Confirmar: registar", "Registe como a mão terminou", "Gerir a mesa",
                "Classificação", "Guardar", "Escreva o PIN", "foi apanhado", "Demasiados pedidos",
                "falta o evento", "O monte esgotou-se; Ann", "a base de dados", "Ecrã de TV",
                "registo rápido", "Telemóvel de Ann", "Ann pega 7c", "Quando o monte se esgota",
                "recebe dos demais"]
    assert [s for s in brazilian if not _BRAZILIAN.search(s)] == []
    assert [s for s in european if _BRAZILIAN.search(s)] == []


def test_portuguese_is_european_throughout():
    """The project's Portuguese is European Portuguese (issue 35): every sentence
    of the catalog, not only the ones a newcomer met, and its numbers, money and
    dates in Portugal's form (``1,50 €``, not Brazil's ``€ 1,50``)."""
    from datetime import date
    from decimal import Decimal

    from referee import language

    assert [s for s in _strings("pt") if _BRAZILIAN.search(s)] == []
    assert language.money(Decimal("1.5"), "EUR", "pt") == "1,50\xa0€"
    assert language.day(date(2026, 11, 21), "pt") == "21/11/2026"


# What French typography leaves alone: placeholders, addresses, `code`, and
# quoted code or JSON ('Ben: draw 4c', "total:49"); times (12:30) and "??" (a
# card nobody saw) have no space before them or are not punctuation.
_FRENCH_CODE = re.compile(r"\{[^{}]*\}|\w+://\S+|`[^`]*`|(?<!\w)'[^'\n]*'(?!\w)|\"[^\"\n]*\"")
# A plain space (not U+00A0) before : ; ? !, or inside « »; a curly apostrophe
# where the catalog writes the straight one.
_FRENCH_SLIP = re.compile(r" [:;]| [?!](?![?!])|« | »|’")


def _french_slips(text: str) -> list[str]:
    prose = _FRENCH_CODE.sub("x", text)
    return [m.group(0) for m in _FRENCH_SLIP.finditer(prose)]


def test_the_check_of_french_typography_tells_a_slip():
    slips = ["Qui part ?", "Report : {amounts}", "la main ; le donneur", "Stop !",
             "touchez « Ajouter\xa0»", "l’hôte"]
    kept = ["Qui part\xa0?", "Report\xa0: {amounts}", "la main\xa0; le donneur", "Stop\xa0!",
            "touchez «\xa0Ajouter\xa0»", "l'hôte", "comme 'Ben: draw 4c'", "à 12:30",
            "voir https://example.org/a?b", "{\"when\": \"total:49\", \"plays\": 2}",
            "ou ?? (inconnue)", "{player}\xa0: {a}\xa0; {b}", "\"copy\": true"]
    assert [s for s in slips if not _french_slips(s)] == []
    assert [s for s in kept if _french_slips(s)] == []


def test_french_typography_is_one_throughout():
    """French puts a no-break space (U+00A0, never a plain one, which lets the
    mark wrap alone onto the next line) before : ; ? ! and inside « », and
    writes one apostrophe, the straight one the catalog mostly used (the
    newcomer's night left both kinds and ~370 plain spaces)."""
    assert [s for s in _strings("fr") if _french_slips(s)] == []


def test_german_calls_a_match_a_partie_throughout():
    """A match to a score was "Match" in six sentences and "Partie" in the
    option's name (the newcomer's night): one word, the card table's own."""
    assert [s for s in _strings("de") if re.search(r"\bMatch(es)?\b", s)] == []


# A hit "on" a spread: European Portuguese "acertar em" (the rules' own word,
# "acertar", for putting a card on a spread); "acerta S1" read as "settles S1"
# or "gets S1 right", beside the catalog's "acerto de contas".
_PT_HIT_AS_OBJECT = re.compile(
    r"acert\w* (?:uma |a |o |à )?(?:própria )?(?:combinaç\w+|\{spread\}|S\{spread\}|S\d)")


def test_portuguese_hits_on_a_spread():
    assert _PT_HIT_AS_OBJECT.search("Ben acerta S1 com 10♥")
    assert not _PT_HIT_AS_OBJECT.search("Ben acerta em S1 com 10♥")
    assert [s for s in _strings("pt") if _PT_HIT_AS_OBJECT.search(s)] == []
