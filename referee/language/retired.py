"""Sentences the referee no longer says, kept in the catalogs for the results
that said them.

A stored hand's story keeps its sentences' templates (``story_words``) and is
told in the reader's language from them (``language.story``). When a sentence
is reworded, the hands stored before keep the old template; without it in
the catalogs their story reads in English on a German, French or Portuguese
page. Each is listed with the commit that retired it; none is said by new
results. Only the story's sentences are kept this way: a refusal is said
afresh, and stored results hold no other words.
"""

from __future__ import annotations

from ..rules.words import N_

RETIRED_STORY = (
    # Push-ups before they were said as scores (b5df710).
    N_("Push-ups: {winners} score 0; {losers} go up by their counts."),
    N_("Push-ups: {winners} score 0; {losers} go up by their counts times two (a double win)."),
    # A push-ups double win named by its stakes (pushup45, af6e259).
    N_("Push-ups, nothing is paid: {winners} scores 0; a win worth {stakes} is a double win, "
       "so every loser goes up by twice their count ({rises})."),
    N_("Push-ups, nothing is paid: {winners} score 0; a win worth {stakes} is a double win, "
       "so every loser goes up by twice their count ({rises})."),
    # A catch before its scheme took a colon (6c00a06).
    N_("{player} dropped with {count}; {beaters}, equal or lower{others}; so {player} is caught "
       "(catch scheme {scheme})."),
)
