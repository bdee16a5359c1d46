"""A form's POST never draws a page: it answers a redirect (303) to a GET
page that shows what it has to show (post, redirect, get). Reload and Back
then never post again, and a browser's back/forward cache keeps only pages
that were got (docs/decisions.md, "Forms that redirect").

What the GET page shows comes with the redirect, in one of two ways:

- in the query, for a step that is judged again on the GET and writes
  nothing there (a quick hand's preview, a confirm step): ``to`` builds the
  URL from the form's fields;
- kept in this browser's session, for a form refused for what was typed:
  ``refuse`` keeps the sentence and the fields (never a PIN or a key), and
  the form's GET page takes them back once (``taken``), as a flash is read.
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import redirect, request, session, url_for
from werkzeug.datastructures import MultiDict

# The fields a redirect never carries: the form's token, and secrets.
_NEVER = frozenset({"csrf_token", "pin", "pin2", "host_key"})
_KEPT = "refused_form"
#: The longest value a redirect carries, and the most of a form it keeps: the
#: session is a cookie, which a browser drops whole past 4 KB (and with it
#: the tables this tablet unlocked). No field of these forms is longer but
#: one typed to break it; the page then says what is missing.
LONGEST = 200
MOST_KEPT = 2000


def fields(form, leave_out=()) -> list[tuple[str, str]]:
    """A form's fields as (name, value) pairs, in order, but the token, the
    secrets, ``leave_out`` and values longer than ``LONGEST``."""
    return [(k, v) for k, v in form.items(multi=True)
            if k not in _NEVER and k not in leave_out and len(k) + len(v) <= LONGEST]


def to(endpoint: str, form, leave_out=(), **values):
    """The redirect to ``endpoint``'s GET page with the form's fields in its
    query (``values`` added or put in their place)."""
    pairs = [(k, v) for k, v in fields(form, leave_out) if k not in values]
    pairs += [(k, v) for k, v in values.items() if v is not None]
    return redirect(url_for(endpoint, **request.view_args) + _query(pairs), 303)


def _query(pairs: list[tuple[str, str]]) -> str:
    return "?" + urlencode(pairs) if pairs else ""


def refuse(target: str, error: str, form=None):
    """The redirect back to the form's page at ``target`` (a path), which
    draws the form again with ``error`` and what was typed (``form``)."""
    kept = fields(form) if form is not None else None
    if kept is not None and sum(len(k) + len(v) for k, v in kept) > MOST_KEPT:
        kept = None
    if len(error) > MOST_KEPT // 2:  # a refusal quoting what was typed
        error = error[:MOST_KEPT // 2] + "…"
    session[_KEPT] = {"at": target.split("?", 1)[0].split("#", 1)[0], "error": error,
                      "fields": kept}
    return redirect(target, 303)


def taken() -> tuple[MultiDict | None, str | None]:
    """The fields and sentence a refusal kept for this page (None, None:
    none), taken once."""
    kept = session.get(_KEPT)
    if not kept or kept.get("at") != request.path:
        return None, None
    session.pop(_KEPT)
    values = kept.get("fields")
    return (MultiDict(values) if values is not None else None), kept.get("error")
