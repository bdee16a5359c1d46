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
