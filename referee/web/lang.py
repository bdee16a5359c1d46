"""Which language a page or an API answer is in.

A reader's own choice comes first (``?lang=`` sets it, a cookie remembers it);
then the table's language, for pages of a session; then the device's
``Accept-Language``; then English. Flask-Babel asks ``select`` once a request,
and every view, template and error handler reads the answer with ``current``.
"""

from __future__ import annotations

from flask import g, has_request_context, request
from flask_babel import Babel, get_locale

from .. import language

COOKIE = "lang"


def select() -> str:
    asked = request.args.get(COOKIE)
    if asked in language.LANGUAGES:
        return asked
    remembered = request.cookies.get(COOKIE)
    if remembered in language.LANGUAGES:
        return remembered
    table = g.get("table_language")
    if table in language.LANGUAGES:
        return table
    return request.accept_languages.best_match(language.LANGUAGES) or language.DEFAULT


def current() -> str:
    """The reader's language (English outside a request)."""
    if not has_request_context():
        return language.DEFAULT
    return language.choose(str(get_locale()))


def init_app(app) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(language.TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", language.DEFAULT)
    Babel(app, locale_selector=select)


def told(state: dict) -> dict:
    """A hand's state with its result's payment story in the reader's language
    (``story``); the words it is told from (``story_words``) are the
    service's, not the answer's."""
    result = state.get("result") if isinstance(state, dict) else None
    if not result or "story_words" not in result:
        return state
    story = language.story(result, current())
    result = {k: v for k, v in result.items() if k != "story_words"}
    result["story"] = story
    return {**state, "result": result}
