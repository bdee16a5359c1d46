"""The Portuguese catalog says nothing about a player in a gendered form
(pushup45): a player may be anyone, so a line about one agrees with no
gender ("então a queda de Ben é apanhada", not "Ben foi apanhado"; "Ben não
tem lugar nesta mesa", not "não está sentado"; "toda a gente", not "todos").
What can be checked is checked: a participle after a player's name and a
copula, and the forms that in these catalogs only ever describe a person.
Role nouns (jogador, carteador, anfitrião) stay the glossary's words."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from referee.language import TRANSLATIONS

# A placeholder that names a player (or players).
PLAYER = (r"\{(?:player|players|name|names|payer|payee|payers|who|seated|winner|winners|"
          r"dropper|lowest|dealer|other|new|old|by|newcomers|rest|beaters)\}")
COPULA = r"(?:é|está|estão|foi|foram|fica|ficam|ficou|são|era|estava|ser|estar|ficar)"
PARTICIPLE = r"(?:\w+(?:ad|id)[oa]s?|pag[oa]s?|aceites?)"
CLAUSE = r"(?:^|[.;:,(]\s*|\b(?:e|que|então|mas|porque)\s+)"
GENDERED = [
    # "Ben foi apanhado", "que Ben foi pago"
    re.compile(rf"{CLAUSE}{PLAYER}\s+(?:(?:já|não|ainda)\s+)*{COPULA}\s+(?:\w+\s+)?{PARTICIPLE}\b"),
    # "Ben, que não está sentado"
    re.compile(rf"{PLAYER},\s+que\s+(?:não\s+)?{COPULA}\s+(?:\w+\s+)?{PARTICIPLE}\b"),
    # Said of people only, here: seated, caught (the drop, "queda", is feminine),
    # "the lowest" and "the nearest" as a person, "everyone" as "todos".
    re.compile(r"\bsentad[oa]s?\b|\bapanhados?\b|\b(?:a|d)?os? mais (?:baixos?|próximos?)\b"
               r"|\bempatados\b|\btodos\b(?!\s+(?:os|as)\b)", re.I),
]


def _lines():
    with open(TRANSLATIONS / "pt" / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f, locale="pt")
    for message in catalog:
        if message.id:
            for text in (message.string if isinstance(message.string, tuple)
                         else (message.string,)):
                yield message.id, text


def test_no_portuguese_line_about_a_player_is_gendered():
    found = [(msgid, text) for msgid, text in _lines()
             if text and any(p.search(text) for p in GENDERED)]
    assert not found, "\n".join(f"{m!r}\n    {t}" for m, t in found)


def test_the_check_sees_what_it_looks_for():
    """The patterns find the lines they were written against (so a catalog
    that passes passes for the right reason)."""
    said = ["{player} caiu com 9; então {player} foi apanhado (regra de captura: x).",
            "só {payee} (ou o anfitrião) confirma que {payee} foi pago",
            "a distribuição cita {player}, que não está sentado",
            "{lowest}, o mais baixo com {low}, recebe 1 aposta",
            "Todos viram este resultado"]
    assert all(any(p.search(s) for p in GENDERED) for s in said)
    fine = ["A contestação de {player} foi registada com a mão {n}",
            "Todos os relatórios", "então a queda de {player} é apanhada (regra de captura: x)"]
    assert not any(p.search(s) for s in fine for p in GENDERED)
