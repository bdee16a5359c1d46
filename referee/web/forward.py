"""The way forward after a refusal whose sentence says only what is wrong.

A show with nothing picked, from a player whose cards the referee does not
all know, is refused by the engine as "Ana holds 5 cards but the show lists
0" (``wrong_show``): true, and no help to a player at 1 a.m. whose page
said "nothing picked: the cards the referee knows" (newcomer45 P6b). The
engine's sentence stays the engine's; the tablet and a phone add what to do
there (pick the cards, or type the count on the pad), the API what to send
(the cards, or the count: log-format.md's "Quick logging").
"""

from __future__ import annotations

from ..rules.errors import RefereeError
from ..rules.legality import THE_SHOW
from .lang import ngettext


def way_forward(err: RefereeError, *, page: bool) -> str | None:
    """What to do after ``err`` in the reader's language (``page``: on a
    hand's page, its picker or its "Counts only" pad; else to the API, the
    show's line with its cards or its count), or None where its sentence
    says it."""
    params = getattr(err, "params", None) or {}
    what = params.get("what")
    if err.code != "wrong_show" or params.get("listed") != 0 or \
            getattr(what, "template", None) != THE_SHOW.template:
        return None
    n, player = params["n"], params["player"]
    if page:
        return ngettext("Pick the card {player} shows, or type its count under “Counts only”.",
                        "Pick the {num} cards {player} shows, or type their count under "
                        "“Counts only”.", n, num=n, player=player)
    return ngettext("List the card {player} shows, or give its count instead: "
                    "“{player}: show =N”.",
                    "List the {num} cards {player} shows, or give their count instead: "
                    "“{player}: show =N”.", n, num=n, player=player)
