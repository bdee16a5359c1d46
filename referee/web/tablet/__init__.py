"""The tablet pages: plain HTML forms (post, redirect, get) over the service layer.

The views are thin on purpose: every decision about the game is the
engine's, reached through ``referee.service``; a view reads a form, calls one
service function, and redirects (or re-renders the form with the reason it
was refused). The table's pages are guarded by ``unlocked``; errors the views
do not answer themselves become pages in ``referee.web.errors``. Everything
works without JavaScript; ``tablet.js`` only adds niceties.

The views live by concept, all on the one blueprint ``bp`` (``blueprint.py``,
with the guard and what the pages share): ``tables.py`` (home, a new table,
unlock, links and invitations), ``session.py`` (the session page, the TV, the
standings), ``new_hand.py`` (a hand dealt or told by its ending), ``hand.py``
(the hand screen, the tap, undo), ``events.py`` (the table's own events),
``correct.py`` (a dispute's action corrected alone).

A new page: a template in ``templates/``, a view in the module of its concept
under ``@unlocked`` (``g.summary`` is the table's summary), and a link from
``session.html``.
"""

# Importing each module registers its views on ``bp`` (endpoint names
# ``tablet.<view>``, whichever module holds the view).
from . import correct, events, hand, new_hand, session, tables  # noqa: F401
from .blueprint import bp

__all__ = ["bp"]
