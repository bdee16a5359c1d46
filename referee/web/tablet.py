"""The tablet pages: plain HTML forms (post, redirect, get) over the service layer.

The views are thin on purpose: every decision about the game is the
engine's, reached through ``referee.service``; a view reads a form, calls one
service function, and redirects (or re-renders the form with the reason it
was refused). The table's pages are guarded by ``unlocked``; errors the views
do not answer themselves become pages in ``referee.web.errors``. Everything
works without JavaScript; ``tablet.js`` only adds niceties.

A new page: a template in ``templates/``, a view here under ``@unlocked``
(``g.summary`` is the table's summary), and a link from ``session.html``.
"""

from __future__ import annotations

import functools
import hmac

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from ..rules.cards import UNKNOWN
from ..rules.options import PRESET_SOURCES, PRESETS, resolve
from ..service import access, hands, sessions
from ..service.errors import RefereeError, RuleViolation, StaleSeq, TooManyTries
from . import forms
from .db import get_db
from .errors import PAGES, error_page, flash_refusal
from .forms import FormError

bp = Blueprint("tablet", __name__, static_folder="static", static_url_path="/tablet-static")

# One limiter for the whole process: 5 PIN attempts a minute per table and client.
pin_limiter = forms.RateLimiter(limit=5, window=60.0)


# Globals rather than a context processor: imported macros see globals only.
bp.add_app_template_global(forms.csrf_token, "csrf_token")
bp.add_app_template_global(forms.card_label, "card_label")
bp.add_app_template_global(forms.card_colour, "card_colour")


@bp.before_request
def _csrf() -> None:
    if request.method == "POST":
        forms.check_csrf()


@bp.errorhandler(400)
def _bad_request(err):
    return error_page("Not accepted", err.description, 400)


@bp.errorhandler(403)
def _forbidden(err):
    return error_page(*PAGES[403], 403)


@bp.errorhandler(404)
def _not_found(err):
    return error_page(*PAGES[404], 404)


@bp.errorhandler(405)
def _wrong_method(err):
    return error_page("Not here", "This page only takes a form; go back and tap again.", 405)


def _summary(session_id: str) -> dict:
    """The table's summary (``NotFound``, the 404 page, for an unknown table)."""
    return sessions.session_summary(get_db(), session_id)


def unlocked(view):
    """The guard of a table's pages: the 404 page for an unknown table, the
    unlock page until this browser has unlocked it (with its PIN, or with its
    table token when it has none: an API import). ``g.summary`` is the table's
    summary."""

    @functools.wraps(view)
    def guarded(session_id: str, **kwargs):
        g.summary = _summary(session_id)
        if not forms.is_unlocked(session_id):
            return redirect(url_for("tablet.unlock", session_id=session_id,
                                    next=request.path))
        return view(session_id, **kwargs)
    return guarded


# ------------------------------------------------------------------ home, create


@bp.get("/")
def home():
    # Only the tables this device has unlocked: the list of every table and
    # its players is nobody else's business. Others open by their id.
    mine = set(forms.unlocked_ids())
    return render_template("home.html", sessions=[
        s for s in sessions.list_sessions(get_db()) if s["id"] in mine])


@bp.post("/open")
def open_session():
    session_id = request.form.get("session_id", "").strip()
    if not session_id:
        flash("Type the table's id (shown on its page and in its link).", "error")
        return redirect(url_for("tablet.home"))
    return redirect(url_for("tablet.session_page", session_id=session_id))


def _create_form(values=None, error=None, status=200):
    return render_template(
        "create.html",
        options=forms.option_fields(),
        presets=[(name, PRESET_SOURCES[name], PRESETS[name]) for name in PRESETS],
        seats=forms.MAX_SEATS,
        values=values or {},
        host_key=bool(current_app.config.get("REFEREE_HOST_KEY")),
        options_open=any(k.startswith("opt_") and v for k, v in (values or {}).items()),
        error=error,
    ), status


@bp.get("/new")
def create():
    return _create_form()


@bp.post("/new")
def create_post():
    host_key = current_app.config.get("REFEREE_HOST_KEY")
    if host_key:
        key = ("host-key", request.remote_addr or "?")
        wait = pin_limiter.retry_after(key)
        if wait:
            return _create_form(request.form, f"Too many wrong host keys. Wait {wait} seconds.",
                                429)
        sent = request.form.get("host_key", "")
        if not hmac.compare_digest(sent.encode(), host_key.encode()):
            pin_limiter.hit(key)
            return _create_form(request.form, "The host key is wrong: ask the person who "
                                "runs this referee.", 403)
    try:
        header, pin = forms.header_from_form(request.form)
        info = sessions.create_session(get_db(), header, pin)
    except (FormError, RefereeError) as err:
        message = err.message if isinstance(err, RefereeError) else str(err)
        return _create_form(request.form, message, 422)
    forms.mark_unlocked(info.id)
    flash("The table is open. Keep the PIN: other tablets need it to join.", "ok")
    return redirect(url_for("tablet.session_page", session_id=info.id), 303)


# ------------------------------------------------------------------ unlock


@bp.get("/s/<session_id>/unlock")
def unlock(session_id: str):
    summary = _summary(session_id)
    return render_template("unlock.html", summary=summary, session_id=session_id,
                           next=request.args.get("next", ""), error=None,
                           has_pin=access.has_pin(get_db(), session_id))


@bp.post("/s/<session_id>/unlock")
def unlock_post(session_id: str):
    summary = _summary(session_id)
    nxt = request.form.get("next", "")
    db = get_db()
    has_pin = access.has_pin(db, session_id)

    def again(error: str, status: int):
        return render_template("unlock.html", summary=summary, session_id=session_id,
                               next=nxt, error=error, has_pin=has_pin), status

    try:
        ok = access.unlock(db, session_id, request.form.get("pin", ""))
    except TooManyTries as err:
        return again(err.message, 429)
    if not ok:
        return again("That PIN is not this table's." if has_pin else
                     "That is not this table's token.", 403)
    forms.mark_unlocked(session_id)
    return redirect(forms.local_path(nxt) or
                    url_for("tablet.session_page", session_id=session_id), 303)


# ------------------------------------------------------------------ session


@bp.get("/s/<session_id>")
@unlocked
def session_page(session_id: str):
    return render_template("session.html", summary=g.summary, session_id=session_id,
                           standings=sessions.standings(get_db(), session_id),
                           rule_changes=_rule_changes(g.summary))


@bp.get("/s/<session_id>/standings")
@unlocked
def standings(session_id: str):
    page = request.args.get("page", 1, type=int)
    return render_template("standings.html", summary=g.summary, session_id=session_id,
                           standings=sessions.standings_page(get_db(), session_id,
                                                             min(max(page, 1), 2**62)))


def _rule_changes(summary: dict) -> list[tuple[str, object]]:
    source = summary.get("rules_source")
    if isinstance(source, dict):
        return [(k, v) for k, v in source.items() if k != "preset"]
    return []


# ------------------------------------------------------------------ start a hand


def _rules(summary: dict):
    return resolve(summary["rules"])


def _start_form(session_id, summary, values=None, error=None, status=200):
    rules = _rules(summary)
    return render_template(
        "start_hand.html",
        summary=summary,
        session_id=session_id,
        players=summary["players"],
        suggested=summary.get("next_dealer"),
        client_id=forms.new_client_id(),
        grid=forms.card_grid(rules.deck, rules.jokers),
        hand_size=rules.hand_size,
        upcard=rules.upcard,
        values=values,
        error=error,
    ), status


@bp.get("/s/<session_id>/hands/new")
@unlocked
def start_hand(session_id: str):
    return _start_form(session_id, g.summary)


@bp.post("/s/<session_id>/hands/new")
@unlocked
def start_hand_post(session_id: str):
    summary = g.summary
    rules = _rules(summary)
    setup = forms.setup_from_form(request.form, summary["players"], rules.upcard,
                                  rules.hand_size)
    try:
        state = hands.start_hand(get_db(), session_id, setup,
                                request.form.get("client_id") or None)
    except RefereeError as err:
        return _start_form(session_id, summary, request.form, err.message, 422)
    return redirect(url_for("tablet.hand", session_id=session_id, n=state["hand"]), 303)


# ------------------------------------------------------------------ the hand screen


def _state(session_id: str, n: int) -> dict:
    """Hand ``n``'s state (``NotFound``, the 404 page, for an unknown hand)."""
    return hands.hand_state(get_db(), session_id, n)


@bp.get("/s/<session_id>/hands/<int:n>")
@unlocked
def hand(session_id: str, n: int):
    summary = g.summary
    state = _state(session_id, n)
    rules = _rules(summary)
    players = [p["name"] for p in state["players"]]
    history = hands.history(get_db(), session_id, n)
    holders = _holders(state)
    actors = _actors(state, players)
    return render_template(
        "hand.html",
        summary=summary,
        session_id=session_id,
        n=n,
        state=state,
        players=players,
        actors=actors,
        # "??" is a card only a draw or a take may name.
        unknown_tile=any(v in ("draw", "take") for a in actors for v in a["verbs"]),
        grid=forms.card_grid(rules.deck, rules.jokers),
        seen=_seen_cards(state, history, holders),
        holders=holders,
        mine=set(_known_of(state, state.get("to_act"))),
        history=history,
        client_id=forms.new_client_id(),
        standings=sessions.standings(get_db(), session_id) if state.get("complete") else None,
        # Only the newest hand can still be corrected; the service refuses the rest.
        current=(summary.get("current") or {}).get("hand") == n,
    )


def _actors(state: dict, players: list[str]) -> list[dict]:
    """Who may act now and with which verbs: the player to act first, then
    anyone else who may slap, declare or show."""
    verbs = state.get("verbs") or {}
    order = sorted(verbs, key=lambda q: (q != state.get("to_act"), players.index(q)))
    return [{"name": q, "seat": players.index(q), "verbs": verbs[q]} for q in order]


def _seen_cards(state: dict, history: list[dict], holders: dict[str, str]) -> set[str]:
    """Cards the picker greys out: seen by the referee and in nobody's hand
    now (on a spread, in the discard pile). The engine still judges every
    pick; this only saves a refused tap."""
    seen: set[str] = set()
    for s in state.get("spreads", ()):
        seen.update(s["cards"])
    if state.get("top"):
        seen.add(state["top"])
    for h in history:
        if not h["undone"]:
            words = h["text"].partition(":")[2].split()
            seen.update(w for w in words[1:] if len(w) == 2 and w[0] != "S")
    seen.discard(UNKNOWN)
    return seen - set(holders)


def _known_of(state: dict, name: str | None) -> list[str]:
    for p in state.get("players", ()):
        if p["name"] == name:
            return p.get("known", [])
    return []


def _holders(state: dict) -> dict[str, str]:
    """Known cards in hands, with who holds them (the picker marks them)."""
    out = {}
    for p in state.get("players", ()):
        for c in p.get("known", ()):
            out[c] = p["name"]
    return out


@bp.get("/s/<session_id>/hands/<int:n>/seq")
def hand_seq(session_id: str, n: int):
    """How far the hand has got, for tablet.js to notice another tablet's action."""
    _summary(session_id)
    if not forms.is_unlocked(session_id):
        abort(403)
    state = _state(session_id, n)
    return jsonify({"seq": state["seq"], "complete": bool(state.get("complete"))})


@bp.post("/s/<session_id>/hands/<int:n>/act")
@unlocked
def act(session_id: str, n: int):
    state = _state(session_id, n)
    players = [p["name"] for p in state["players"]]
    target = url_for("tablet.hand", session_id=session_id, n=n)
    try:
        text = forms.action_from_form(request.form, players, state.get("legal") or [])
    except FormError as err:
        flash(str(err), "error")
        return redirect(target, 303)
    client_id = request.form.get("client_id") or forms.new_client_id()
    seq = request.form.get("expected_seq", "")
    expected = int(seq) if seq.isdigit() else None
    try:
        hands.post_action(get_db(), session_id, n, text, client_id, expected)
    except (RuleViolation, StaleSeq) as err:  # NotFound: the 404 page
        flash_refusal(err, text)
    return redirect(target, 303)


@bp.post("/s/<session_id>/hands/<int:n>/undo")
@unlocked
def undo(session_id: str, n: int):
    client_id = request.form.get("client_id") or forms.new_client_id()
    seq = request.form.get("expected_seq", "")
    expected = int(seq) if seq.isdigit() else None
    try:
        hands.undo(get_db(), session_id, n, client_id, expected)
    except (RuleViolation, StaleSeq) as err:  # NotFound: the 404 page
        flash_refusal(err, "undo")
    else:
        undone = hands.last_undone(get_db(), session_id, n)
        flash(f"Undone: {undone or 'the last action'}. It stays in the history, marked "
              "as undone.", "ok")
    return redirect(url_for("tablet.hand", session_id=session_id, n=n), 303)
