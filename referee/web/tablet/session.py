"""The table's own pages: the session page (the newest hands, older ones
paged), the TV across the room and the standings."""

from __future__ import annotations

from flask import current_app, g, render_template, request

from ...rules.numbers import whole
from ...service import club
from ...service.table import sessions, sight, table_events
from ...service.table.history import hand_history
from .. import forms, lang
from ..db import get_db
from .blueprint import bp, table_sections, told_state, unlocked
from .tables import invites

STANDINGS_LAST = 5  # hands of the standings shown on the session and hand pages


@bp.get("/s/<session_id>")
@unlocked
def session_page(session_id: str):
    # The page stays the same size all night: the newest hands, older ones paged.
    per_page = 10
    pages = max(1, -(-g.summary["hands"] // per_page))
    page = min(max((whole(request.args.get("page")) or 1), 1), pages)
    top = g.summary["hands"] - (page - 1) * per_page
    db = get_db()
    # Only this page's hands and the newest standings are read: the running
    # totals stand in for every hand before them.
    sec = table_sections(session_id)
    newest = sessions.hand_lines(db, session_id, newest=STANDINGS_LAST, of=sec.result)
    return render_template("session.html", summary=g.summary, session_id=session_id,
                           sec=sec, standings=marked_disputes(db, session_id, newest),
                           settled=sessions.settled_lines(db, session_id, top - per_page + 1,
                                                          top, of=sec.result),
                           disputes=sessions.dispute_marks(db, session_id,
                                                           top - per_page + 1, top),
                           accepted=sessions.accepted_between(db, session_id,
                                                              top - per_page + 1, top),
                           rule_changes=_rule_changes(g.summary), page=page,
                           per_page=per_page,
                           invites=invites(session_id) if g.access.writes else None,
                           books=_books(db, session_id) if g.summary["copy_of"] else None,
                           client_id=forms.new_client_id())


def _books(db, session_id: str) -> dict:
    """A copy's place in the club's books: ``out`` when it was taken out
    (None: it still counts), ``host``: whether the service has a host key,
    behind which it is taken out (with none, the club's pages are shut)."""
    out = club.out_of_books(db).get(session_id)
    return {"out": out["created"] if out else None,
            "host": bool(current_app.config.get("REFEREE_HOST_KEY"))}


@bp.get("/s/<session_id>/tv")
@unlocked
def tv(session_id: str):
    """The TV across the room: the standings, the hand in play, the last result
    and its payments, large; live like every page of the table."""
    db = get_db()
    cur = g.summary.get("current")
    state = told_state(session_id, cur["hand"]) if cur else None
    last = state if state and state.get("complete") and state.get("result") else None
    if last is None and cur and cur["hand"] > 1:
        earlier = told_state(session_id, cur["hand"] - 1)
        last = earlier if earlier.get("result") else None
    in_play = state if state and not state.get("complete") and not state.get("void") else None
    return render_template("tv.html", summary=g.summary, session_id=session_id,
                           stopped=_stopped_by(session_id, in_play),
                           sec=table_sections(session_id, disputes=True),
                           played=sessions.played_count(db, session_id),
                           # the newest few: the room wants who came and went tonight
                           seat_changes=table_events.seat_changes(db, session_id)[-4:],
                           state=in_play, last=last)


def _stopped_by(session_id: str, state: dict | None) -> dict | None:
    """What stopped the play of a hand waiting for its shows (newcomer44 P18:
    the room saw "4 to show" and not why): the last action still standing
    that is not a show (a drop, a draw from the empty stock, a declared deal
    win), as the TV may see it. None while someone is to act."""
    if not state or state.get("to_act") or not state.get("must_show"):
        return None
    records = sight.history(hand_history(get_db(), session_id, state["hand"]), state,
                            g.get("access"))
    return next((r for r in reversed(records) if not r["undone"] and r["verb"] != "show"),
                None)


@bp.get("/s/<session_id>/standings")
@unlocked
def standings(session_id: str):
    page = (whole(request.args.get("page")) or 1)
    sec = table_sections(session_id)
    return render_template("standings.html", summary=g.summary, session_id=session_id,
                           sec=sec, standings=sessions.standings_page(
                               get_db(), session_id, min(max(page, 1), 2**62), of=sec.result))


def marked_disputes(db, session_id: str, st: dict) -> dict:
    """A window of the standings' hands (``sessions.hand_lines``) with its
    disputed hands marked."""
    if st["hands"]:
        st["disputes"] = sessions.dispute_marks(db, session_id, st["hands"][0]["hand"],
                                                st["hands"][-1]["hand"])
    return st


def _rule_changes(summary: dict) -> list[tuple[str, str]]:
    """The options the table changed from its preset, each name and value in
    the reader's words (the log's names are notation, not a sentence)."""
    source = summary.get("rules_source")
    if isinstance(source, dict):
        return [(lang.option_label(k), lang.option_value(k, v))
                for k, v in source.items() if k != "preset"]
    return []
