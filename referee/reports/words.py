"""How a paper says its sentences in its language: without the PDF machinery,
so the command line's text reports and the reference page use it too."""

from __future__ import annotations

from .. import language

#: What the catch schemes' words mean (the reference page and the sheet).
BEATERS = language.N_("A beater is a non-dropper whose count is equal to or lower than the "
                      "dropper's; the lowest are the non-droppers with the lowest count.")


def words(lang: str):
    """The papers' ``_``: an English sentence in ``lang``, its ``{name}``
    placeholders filled in (named ``_`` where it is used, so the catalog tool
    finds the sentences)."""
    lang = language.choose(lang)

    def translate(template: str, /, **params: object) -> str:
        return language.gettext(lang, template, **params)

    return translate


def plurals(lang: str):
    """The papers' ``ngettext`` (named so where it is used, for the catalog
    tool): the singular or plural sentence in ``lang`` for ``n``."""
    lang = language.choose(lang)

    def translate(singular: str, plural: str, n: int, /, **params: object) -> str:
        return language.ngettext(lang, singular, plural, n, **params)

    return translate


def paper_language(log: dict, asked: str | None = None) -> str:
    """The language of a table's paper: the one asked for, else the log's
    ``language``, else English. Every way of choosing it ends here, so the
    same table's paper is the same bytes however its language was chosen."""
    return language.choose(asked, log.get("language"))
