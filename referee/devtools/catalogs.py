"""Extract, update, compile and check the translation catalogs.

``python -m referee.devtools.catalogs`` finds every marked sentence (``_``,
``gettext``, ``ngettext``, ``N_``, ``lazy_gettext`` in the package and the
templates, as ``babel.cfg`` says), writes ``referee/translations/messages.pot``,
merges it into each language's ``messages.po`` (new sentences come in empty,
for a translator), and compiles every ``.po`` to the ``.mo`` the service
reads. ``check()`` lists what is missing, fuzzy, or has lost a placeholder.
"""

from __future__ import annotations

import re
import sys

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from ..language import DEFAULT, LANGUAGES, TRANSLATIONS

ROOT = TRANSLATIONS.parents[1]
TEMPLATE = TRANSLATIONS / "messages.pot"
# Np_ (rules.words): a counted sentence of the engine, a plural entry as ngettext's.
KEYWORDS = ["N_", "Np_:1,2", "gettext", "ngettext:1,2", "lazy_gettext", "_",
            "lazy_ngettext:1,2"]
# One style, {name}, in the code and the pages (web/lang.py fills the pages'); a
# %(name)s one is found too, to be refused (tests/test_catalogs.py).
_PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}|%\([a-z_0-9]+\)[sd]")


# A plural form may leave out the count itself ("one card").
_FREE = {"{n}", "{num}"}


def _pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
    _pybabel("extract", "-F", str(ROOT / "babel.cfg"), "--no-location", "--sort-output",
             "--omit-header", *keywords, "-o", str(TEMPLATE), str(ROOT))


def update() -> None:
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        po = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
        if po.exists():
            _pybabel("update", "-i", str(TEMPLATE), "-d", str(TRANSLATIONS), "-l", lang,
                     # the header stays: it carries the charset and the plural rule
                     "--no-fuzzy-matching", "--ignore-obsolete")
        else:
            _pybabel("init", "-i", str(TEMPLATE), "-d", str(TRANSLATIONS), "-l", lang)


def compile_all() -> None:
    _pybabel("compile", "-d", str(TRANSLATIONS), "--use-fuzzy")


def check() -> list[str]:
    """Every problem in the catalogs, one line each: a sentence of the template
    missing from a language, untranslated, fuzzy, or with other placeholders."""
    with TEMPLATE.open("rb") as f:
        wanted = {m.id for m in read_po(f) if m.id}
    problems = []
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            catalog = read_po(f)
        have = {m.id: m for m in catalog if m.id}
        for msgid in sorted(wanted, key=str):
            message = have.get(msgid)
            shown = msgid if isinstance(msgid, str) else msgid[0]
            if message is None:
                problems.append(f"{lang}: missing {shown!r}")
                continue
            ids = msgid if isinstance(msgid, tuple) else (msgid,)
            strs = message.string if isinstance(message.string, tuple) else (message.string,)
            if not all(strs):
                problems.append(f"{lang}: untranslated {shown!r}")
            elif message.fuzzy:
                problems.append(f"{lang}: fuzzy {shown!r}")
            else:
                expected = set(_PLACEHOLDER.findall(" ".join(ids)))
                for text in strs:
                    if set(_PLACEHOLDER.findall(text)) - _FREE != expected - _FREE:
                        problems.append(f"{lang}: placeholders differ in {shown!r}")
                        break
    return problems


def main() -> int:
    extract()
    update()
    compile_all()
    problems = check()
    for line in problems:
        print(line)
    print(f"{len(problems)} problem(s) in the catalogs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
