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
import hashlib
import hmac
from decimal import Decimal
from pathlib import Path

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
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from .. import language
from ..language import NAMES
from ..rules import told as told_rules
from ..rules.cards import UNKNOWN, pretty
from ..rules.options import PRESET_SOURCES, PRESETS, resolve
from ..rules.table import normal_text
from ..service import access, disputes, hands, seats, sessions, storage, table_events, tap
from ..service.errors import NotFound, RefereeError, RuleViolation, StaleSeq, TooManyTries
from . import forms, links
from .db import get_db
from .errors import error_page, flash_refusal
from .forms import FormError
from .lang import _, action_words, money, say, told, use_table_language
from .lang import message as _message
from .lang import outcome as outcome_words


class _Blueprint(Blueprint):
    # The pages name their CSS and JS with the file's version (``asset``), so
    # a browser keeps them a year instead of asking again on every tap: each
    # tap's page load was two conditional requests longer.
    def get_send_file_max_age(self, filename: str | None) -> int | None:
        return 365 * 24 * 3600


bp = _Blueprint("tablet", __name__, static_folder="static", static_url_path="/tablet-static")


@functools.cache
def _version(filename: str) -> str:
    path = Path(bp.static_folder) / filename
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


@bp.app_template_global("asset")
def asset(filename: str) -> str:
    """A static file's URL with its content's hash (a new file, a new URL)."""
    return url_for("tablet.static", filename=filename, v=_version(filename))

# Globals rather than a context processor: imported macros see globals only.
bp.add_app_template_global(forms.csrf_token, "csrf_token")
bp.add_app_template_global(forms.card_label, "card_label")
bp.add_app_template_global(forms.card_colour, "card_colour")
# Each rendering's own id: a browser test (and bench/tablet.py) sees the page
# change whether it was loaded or swapped in by tablet.js.
bp.add_app_template_global(forms.new_client_id, "render_id")
# Cards written with suit symbols wherever a page writes a log line.
bp.add_app_template_filter(pretty, "pretty")


@bp.before_request
def _csrf() -> None:
    if request.method == "POST":
        forms.check_csrf()


def _summary(session_id: str) -> dict:
    """The table's summary (``NotFound``, the 404 page, for an unknown table).
    Its language is the default of the page."""
    summary = sessions.session_summary(get_db(), session_id)
    use_table_language(summary.get("language"))
    return summary


def page_access(session_id: str) -> seats.Access | None:
    """What this browser may do at the table: ``host`` once unlocked with the
    PIN, else the seat or viewer link it joined by while that link is in force
    (a revoked link is forgotten here, at once). None: nothing."""
    if forms.is_unlocked(session_id):
        return seats.Access(seats.HOST)
    token = forms.link_token(session_id)
    if not token:
        return None
    found = seats.token_access(get_db(), session_id, token)
    if found is None or found.role not in (seats.SEAT, seats.VIEWER):
        forms.keep_link(session_id, None)
        g.revoked = True  # the unlock page says why (a flash could be read by live.js)
        return None
    return found


def unlocked(view):
    """The guard of a table's pages: the 404 page for an unknown table, the
    unlock page until this browser has unlocked it (with its PIN, or with its
    table token when it has none: an API import) or joined it by a seat or
    viewer link. ``g.summary`` is the table's summary, ``g.access`` what this
    browser may do (``seats.Access``). A form posted from a seat's phone or
    the viewer link is refused (``not_your_seat``) unless the view is marked
    ``seat_may`` (and then checks for whom): what a new view allows is the
    host's alone until it says otherwise."""

    @functools.wraps(view)
    def guarded(session_id: str, **kwargs):
        # Access first: a stranger is sent to the unlock page whether or not
        # the table exists (its id alone tells nothing).
        g.access = page_access(session_id)
        if g.access is None:
            return redirect(url_for("tablet.unlock", session_id=session_id,
                                    next=request.path,
                                    revoked=1 if g.get("revoked") else None))
        g.summary = _summary(session_id)
        if request.method == "POST" and not g.access.writes and \
                not getattr(view, "seat_may", False):
            raise seats.not_your_seat(g.access)
        return view(session_id, **kwargs)
    return guarded


def seat_may(view):
    """A form a seat's phone may post too (the view checks for whom: ``_may``,
    ``_event_post``'s ``for_whom``)."""
    view.seat_may = True
    return view


def host_only(view):
    """Under ``unlocked``: only the host's tablet (a seat's phone or the viewer
    link gets ``not_your_seat``, said on the error page in its language)."""

    @functools.wraps(view)
    def guarded(session_id: str, **kwargs):
        if not g.access.writes:
            raise seats.not_your_seat(g.access)
        return view(session_id, **kwargs)
    return guarded


def _may(*players: str) -> seats.NotYourSeat | None:
    """The refusal if this browser may not act for any of ``players``."""
    try:
        seats.check_seat(g.access, *players)
    except seats.NotYourSeat as err:
        return err
    return None


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
        flash(_("Type the table's id (shown on its page and in its link)."), "error")
        return redirect(url_for("tablet.home"))
    return redirect(url_for("tablet.session_page", session_id=session_id))


def _create_form(values=None, error=None, status=200):
    return render_template(
        "create.html",
        options=forms.option_fields(),
        presets=[(name, PRESET_SOURCES[name], PRESETS[name]) for name in PRESETS],
        languages=NAMES,
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
        address = request.remote_addr or "?"
        wait = access.host_key_try(get_db(), "new table", address)
        if wait:
            return _create_form(request.form, _("Too many wrong host keys. Wait {seconds} "
                                                 "seconds.", seconds=wait), 429)
        sent = request.form.get("host_key", "")
        if not hmac.compare_digest(sent.encode(), host_key.encode()):
            return _create_form(request.form, _("The host key is wrong: ask the person who "
                                                 "runs this referee."), 403)
        access.host_key_right(get_db(), "new table", address)
    try:
        header, pin = forms.header_from_form(request.form)
        info = sessions.create_session(get_db(), header, pin)
    except (FormError, RefereeError) as err:
        message = _message(err) if isinstance(err, RefereeError) else str(err)
        return _create_form(request.form, message, 422)
    forms.mark_unlocked(info.id)
    use_table_language(header.get("language"))  # the line is read on the table's page
    flash(_("The table is open. Keep the PIN: other tablets need it to join."), "ok")
    return redirect(url_for("tablet.session_page", session_id=info.id), 303)


# ------------------------------------------------------------------ unlock


def _has_pin(session_id: str) -> bool:
    """What the unlock page asks for: the PIN, also for a table that does not
    exist (whoever has only an id learns nothing of the table, not even
    whether there is one: no name, no language; docs/decisions.md)."""
    try:
        return access.has_pin(get_db(), session_id)
    except NotFound:
        return True


@bp.get("/s/<session_id>/unlock")
def unlock(session_id: str):
    revoked = _("The link this phone joined by has been revoked: ask the host for a new "
                "one.") if request.args.get("revoked") else None
    return render_template("unlock.html", summary={}, session_id=session_id,
                           next=request.args.get("next", ""), error=revoked,
                           has_pin=_has_pin(session_id))


@bp.post("/s/<session_id>/unlock")
def unlock_post(session_id: str):
    nxt = request.form.get("next", "")
    db = get_db()
    has_pin = _has_pin(session_id)

    def again(error: str, status: int):
        return render_template("unlock.html", summary={}, session_id=session_id,
                               next=nxt, error=error, has_pin=has_pin), status

    try:
        ok = access.unlock(db, session_id, request.form.get("pin", ""),
                           address=request.remote_addr or "?")
    except TooManyTries as err:
        return again(_message(err), 429)
    if not ok:
        return again(_("That PIN is not this table's.") if has_pin else
                     _("That is not this table's token."), 403)
    forms.mark_unlocked(session_id)
    return redirect(forms.local_path(nxt) or
                    url_for("tablet.session_page", session_id=session_id), 303)


# ------------------------------------------------------------------ links: join, invite


@bp.get("/s/<session_id>/join/<token>")
def join(session_id: str, token: str):
    """A seat's or the viewer's link, opened (scanned): this browser is that
    seat or viewer at the table from now on, until the link is revoked."""
    _summary(session_id)
    found = seats.token_access(get_db(), session_id, token)
    if found is None or found.role not in (seats.SEAT, seats.VIEWER):
        return error_page(_("Locked"), _("This link is not in force: it was revoked or "
                                         "replaced by a new one. Ask the host for a new one."),
                          403)
    forms.keep_link(session_id, token)
    return redirect(url_for("tablet.session_page", session_id=session_id), 303)


def invites(session_id: str) -> list[dict]:
    """The Invite section: the viewer link, then each player's seat link, with
    their QR codes when in force."""
    secret = current_app.config["SECRET_KEY"]
    held = seats.links(get_db(), session_id)
    rows = []
    for role, player in [(seats.VIEWER, None), *((seats.SEAT, p) for p in g.summary["everyone"])]:
        link = held.get((role, player))
        token = seats.shown_token(secret, session_id, link) if link else None
        url = links.external_url("tablet.join", session_id=session_id, token=token) \
            if token else None
        rows.append({"role": role, "player": player, "issued": link is not None,
                     "url": url, "qr": Markup(links.qr_svg(url)) if url else None})
    return rows


@bp.post("/s/<session_id>/invite")
@unlocked
def invite_post(session_id: str):
    """Make a link (or a new one, which replaces the old), or revoke one."""
    role = request.form.get("role", "")
    player = request.form.get("player") or None
    target = url_for("tablet.session_page", session_id=session_id) + "#invite"
    who = player if role == seats.SEAT else _("the viewer link")
    if request.form.get("revoke"):
        return _event_post(session_id, target, _("The link for {who} is revoked", who=who),
                           lambda db: seats.revoke(db, session_id, role, player, _cid()))
    secret = current_app.config["SECRET_KEY"]
    return _event_post(session_id, target, _("A new link for {who}: scan its code", who=who),
                       lambda db: seats.issue(db, session_id, role, player, secret, _cid()))


# ------------------------------------------------------------------ session


STANDINGS_LAST = 5  # hands of the standings shown on the session and hand pages


@bp.get("/s/<session_id>")
@unlocked
def session_page(session_id: str):
    # The page stays the same size all night: the newest hands, older ones paged.
    per_page = 10
    pages = max(1, -(-g.summary["hands"] // per_page))
    page = min(max(request.args.get("page", 1, type=int), 1), pages)
    top = g.summary["hands"] - (page - 1) * per_page
    db = get_db()
    # Only this page's hands and the newest standings are read: the running
    # totals stand in for every hand before them.
    return render_template("session.html", summary=g.summary, session_id=session_id,
                           standings=_marked(db, session_id,
                                             sessions.standings(db, session_id,
                                                                newest=STANDINGS_LAST)),
                           settled=sessions.settled_lines(db, session_id,
                                                          top - per_page + 1, top),
                           disputes=sessions.dispute_marks(db, session_id,
                                                           top - per_page + 1, top),
                           accepted=sessions.accepted_between(db, session_id,
                                                              top - per_page + 1, top),
                           rule_changes=_rule_changes(g.summary), page=page,
                           per_page=per_page,
                           invites=invites(session_id) if g.access.writes else None,
                           client_id=forms.new_client_id())


@bp.get("/s/<session_id>/tv")
@unlocked
def tv(session_id: str):
    """The TV across the room: the standings, the hand in play, the last result
    and its payments, large; live like every page of the table."""
    db = get_db()
    cur = g.summary.get("current")
    state = _state(session_id, cur["hand"]) if cur else None
    last = state if state and state.get("complete") and state.get("result") else None
    if last is None and cur and cur["hand"] > 1:
        earlier = _state(session_id, cur["hand"] - 1)
        last = earlier if earlier.get("result") else None
    in_play = state if state and not state.get("complete") and not state.get("void") else None
    return render_template("tv.html", summary=g.summary, session_id=session_id,
                           standings=sessions.standings(db, session_id, newest=1),
                           state=in_play, last=last)


@bp.get("/s/<session_id>/standings")
@unlocked
def standings(session_id: str):
    page = request.args.get("page", 1, type=int)
    return render_template("standings.html", summary=g.summary, session_id=session_id,
                           standings=sessions.standings_page(get_db(), session_id,
                                                             min(max(page, 1), 2**62)))


def _marked(db, session_id: str, st: dict) -> dict:
    """Standings with their disputed hands marked."""
    if st["hands"]:
        st["disputes"] = sessions.dispute_marks(db, session_id, st["hands"][0]["hand"],
                                                st["hands"][-1]["hand"])
    return st


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
        players=summary["seated"],
        suggested=summary.get("next_dealer"),
        client_id=forms.new_client_id(),
        grid=forms.card_grid(rules.deck, rules.jokers),
        hand_size=rules.hand_size,
        upcard=rules.upcard,
        values=values,
        error=error,
    ), status


def _in_play(session_id: str):
    """The hand in play, if any: the start-hand form waits until it is over."""
    cur = g.summary.get("current")
    if cur and not cur["complete"] and cur["phase"] != "void":
        if request.headers.get("X-Live-Refresh"):  # live.js asking: it stays put, unflashed
            return redirect(url_for("tablet.hand", session_id=session_id, n=cur["hand"]), 303)
        flash(_("Hand {n} is still in play: finish it (or void it) before starting the "
                "next.", n=cur["hand"]), "error")
        return redirect(url_for("tablet.hand", session_id=session_id, n=cur["hand"]), 303)
    return None


def _started_elsewhere(session_id: str, asked: str | None):
    """A start-hand link or form made for hand ``asked`` while another device
    has started it (or a later one) meanwhile: said, and to that hand, not a
    form that would deal the hand after it without saying so."""
    if not (asked or "").isdigit() or int(asked) == g.summary["hands"] + 1:
        return None
    newest = g.summary["hands"]
    if int(asked) > newest:
        return None
    flash(_("Hand {n} was started on another device meanwhile: here it is. Nothing was "
            "dealt from your form.", n=newest), "error")
    return redirect(url_for("tablet.hand", session_id=session_id, n=newest), 303)


@bp.get("/s/<session_id>/hands/new")
@unlocked
@host_only
def start_hand(session_id: str):
    return (_started_elsewhere(session_id, request.args.get("hand")) or
            _in_play(session_id) or _start_form(session_id, g.summary))


@bp.post("/s/<session_id>/hands/new")
@unlocked
def start_hand_post(session_id: str):
    summary = g.summary
    busy = _started_elsewhere(session_id, request.form.get("hand")) or _in_play(session_id)
    if busy:
        return busy
    rules = _rules(summary)
    setup = forms.setup_from_form(request.form, summary["seated"], rules.upcard,
                                  rules.hand_size)
    try:
        state = hands.start_hand(get_db(), session_id, setup,
                                request.form.get("client_id") or None)
    except RefereeError as err:
        return _start_form(session_id, summary, request.form, _message(err), 422)
    return redirect(url_for("tablet.hand", session_id=session_id, n=state["hand"]), 303)


# ------------------------------------------------------------------ a hand told by its ending


@bp.get("/s/<session_id>/hands/quick")
@unlocked
@host_only
def quick_hand(session_id: str):
    """The quick hand: how it ended and who (one tap), then what the rules
    need to settle it (counts on a number pad, the facts they pay by), then
    who pays whom, confirmed by a second tap."""
    busy = _started_elsewhere(session_id, request.args.get("hand")) or _in_play(session_id)
    if busy:
        return busy
    values = MultiDict(request.args)
    if not values.get("dealer"):
        values["dealer"] = g.summary.get("next_dealer") or g.summary["seated"][0]
    how, _sep, by = values.get("pick", "").partition(":")
    if how in told_rules.HOWS:
        values["how"], values["by"] = how, by
        if not _quick_needs(how, _rules(g.summary)):
            return _quick_preview(session_id, forms.told_from_form(
                values, g.summary["seated"], []), values)
    return _quick_form(session_id, values)


@bp.post("/s/<session_id>/hands/quick")
@unlocked
def quick_hand_post(session_id: str):
    busy = _started_elsewhere(session_id, request.form.get("hand")) or _in_play(session_id)
    if busy:
        return busy
    rules = _rules(g.summary)
    try:
        setup = forms.told_from_form(request.form, g.summary["seated"],
                                     told_rules.facts_needed(rules))
    except FormError as err:
        return _quick_form(session_id, request.form, str(err), 422)
    if not request.form.get("confirm"):
        return _quick_preview(session_id, setup, request.form)
    try:
        state = hands.start_hand(get_db(), session_id, setup,
                                 request.form.get("client_id") or None)
    except RefereeError as err:
        return _quick_form(session_id, request.form, _message(err), 422)
    result = state.get("result") or {}
    flash(_("Hand {n} logged, told by its ending: {outcome}.", n=state["hand"],
            outcome=outcome_words(result.get("outcome"))), "ok")
    return redirect(url_for("tablet.session_page", session_id=session_id), 303)


def _most_count(summary: dict) -> int:
    """The most a hand can count at this table: the number pad's bound."""
    rules = _rules(summary)
    return rules.deck_info.most_count(rules.hand_size)


def _quick_needs(how: str, rules) -> dict:
    """What the form must ask besides how and who: counts (of every seat, or
    of the losers in push-up scoring), the facts a tonk out pays by, the
    declared hands of a deal win."""
    needs = {}
    if how in ("drop", "stock_out") or rules.scoring == "push_ups":
        needs["counts"] = True
    facts = told_rules.facts_needed(rules) if how == "tonk_out" else []
    if facts:
        needs["facts"] = facts
    if how == "deal_win":
        needs["declares"] = True
    return needs


def _quick_form(session_id: str, values, error: str | None = None, status: int = 200):
    summary = g.summary
    rules = _rules(summary)
    seats = summary["seated"]
    how = values.get("how")
    by = values.get("by", "")
    return render_template(
        "quick_hand.html", summary=summary, session_id=session_id, seats=seats,
        values=values, how=how if how in told_rules.HOWS else None,
        by=int(by) if by.isdigit() and int(by) < len(seats) else None,
        dealer=values.get("dealer"),
        hows=told_rules.HOW_WORDS, needs=_quick_needs(how, rules) if how else {},
        questions={fact: _(told_rules.FACT_QUESTIONS[fact], player=seats[int(by)])
                   for fact in told_rules.FACTS} if by.isdigit() and int(by) < len(seats)
        else {},
        most=_most_count(summary),
        grid=forms.card_grid(rules.deck, rules.jokers), hand_size=rules.hand_size,
        client_id=values.get("client_id") or forms.new_client_id(), error=error), status


def _quick_preview(session_id: str, setup: dict, values: MultiDict):
    """Who pays whom, before the second tap logs it (or the form again, with
    what the referee refused)."""
    try:
        preview = hands.preview_hand(get_db(), session_id, setup)
    except RefereeError as err:
        return _quick_form(session_id, values, _message(err), 422)
    # Every field goes to the second tap as it came (a declared hand's cards
    # are several values of one field).
    fields = [(k, v) for k, v in values.items(multi=True)
              if k not in ("csrf_token", "pick", "confirm", "client_id")]
    fields.append(("client_id", values.get("client_id") or forms.new_client_id()))
    return render_template("quick_confirm.html", summary=g.summary, session_id=session_id,
                           preview=preview, fields=fields,
                           back=url_for("tablet.quick_hand", session_id=session_id))


# ------------------------------------------------------------------ the hand screen


def _state(session_id: str, n: int) -> dict:
    """Hand ``n``'s state (``NotFound``, the 404 page, for an unknown hand),
    its payment story in the reader's language."""
    return told(hands.hand_state(get_db(), session_id, n))


@bp.get("/s/<session_id>/hands/<int:n>")
@unlocked
def hand(session_id: str, n: int):
    return _hand_page(session_id, n, _state(session_id, n))


def _hand_page(session_id: str, n: int, state: dict):
    """The hand's page drawn from its state (read, or returned by a tap)."""
    summary = g.summary
    state = disputes.with_settlements(get_db(), session_id, n, state)
    rules = _rules(summary)
    players = [p["name"] for p in state["players"]]
    history = hands.history(get_db(), session_id, n)
    holders = _holders(state)
    actors = [a for a in _actors(state, players)
              if g.access.writes or a["name"] == g.access.player]
    verbs = {v for a in actors for v in a["verbs"]}
    return render_template(
        "hand.html",
        summary=summary,
        session_id=session_id,
        n=n,
        state=state,
        players=players,
        actors=actors,
        # "??" is a card only a draw or a take may name.
        unknown_tile=bool(verbs & {"draw", "take"}),
        grid=forms.card_grid(rules.deck, rules.jokers),
        most=_most_count(summary),
        seen=_unpickable(state, history, holders, actors),
        # For offline.js: the cards played where nobody holds them, and the
        # shows of known hands (a tap with nothing picked), when it keeps taps.
        played=_seen_cards(state, history, holders),
        known_shows=[t for t in state.get("legal") or ()
                     if t.partition(": ")[2].split(" ")[0] in ("show", "declare")],
        holders=holders,
        mine=set(_known_of(state, state.get("to_act"))),
        history=history,
        live_count=sum(not h["undone"] for h in history),
        show_all=_show_all(state),
        client_id=forms.new_client_id(),
        standings=_marked(get_db(), session_id,
                          sessions.standings(get_db(), session_id, newest=STANDINGS_LAST))
        if state.get("complete") else None,
        # Only the newest hand can still be corrected; the service refuses the rest.
        current=(summary.get("current") or {}).get("hand") == n,
        **_side_bets(session_id, n, state),
    )


def _side_bets(session_id: str, n: int, state: dict) -> dict:
    """A settled hand's side bets in the reader's language, and its nets with
    the pots in them (the result's own nets leave them out; the totals, the
    standings and the replay's result count them)."""
    result = state.get("result")
    if not state.get("complete") or not result or not result.get("side_bets"):
        return {"side_bet_lines": [], "nets": result.get("net", {}) if result else {}}
    story, won = hands.side_bets(get_db(), session_id, n)
    nets = {p: str(Decimal(v) + won.get(p, 0)) for p, v in result["net"].items()}
    return {"side_bet_lines": [say(language.cards_shown(words)) for words in story], "nets": nets}


def _show_all(state: dict) -> list[str]:
    """The shows the referee can log by itself (hands it knows entirely), for
    one tap instead of one per player."""
    if len(state.get("must_show") or ()) < 1:
        return []
    out = []
    for text in state.get("legal") or ():
        player, _sep, rest = text.rpartition(": ")
        if rest.startswith("show") and player in state["must_show"]:
            out.append(text)
    return out if len(out) > 1 else []


def _unpickable(state: dict, history: list[dict], holders: dict[str, str],
                actors: list[dict]) -> set[str]:
    """Cards the picker greys out, so a tap cannot name a card the referee knows
    is elsewhere: seen and in nobody's hand (spreads, the pile), and those held
    by someone who cannot act now. When the only actor's hand is known entirely
    and nothing new comes into it (no draw), only their cards stay, and the
    pile's top for a take. The engine still judges every pick."""
    seen = _seen_cards(state, history, holders)
    names = {a["name"] for a in actors}
    seen |= {c for c, who in holders.items() if who not in names}
    if len(actors) == 1 and "draw" not in actors[0]["verbs"]:
        me = next((p for p in state["players"] if p["name"] == actors[0]["name"]), None)
        if me and not me["unknown"]:
            keep = set(me["known"])
            if "take" in actors[0]["verbs"] and state.get("top"):
                keep.add(state["top"])
            return ALL_CARDS - keep
    return seen


ALL_CARDS = frozenset(r + s for r in "A23456789TJQK" for s in "cdhs") | \
    frozenset(f"X{k}" for k in range(1, 5))


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
    if page_access(session_id) is None:
        abort(403)
    state = _state(session_id, n)
    return jsonify({"seq": state["seq"], "complete": bool(state.get("complete"))})


@bp.post("/s/<session_id>/hands/<int:n>/act")
@unlocked
@seat_may
def act(session_id: str, n: int):
    """Log the tapped action. One that ends play (money moves) is first shown
    with what it settles, and logged on the second tap (``confirm``)."""
    target = url_for("tablet.hand", session_id=session_id, n=n)
    try:
        texts = _tapped(_state(session_id, n))
    except FormError as err:
        flash(str(err), "error")
        return redirect(target, 303)
    refused = next(filter(None, (_may(seats.actor_of(t)) for t in texts)), None)
    if refused is not None:
        flash_refusal(refused, texts[0])
        return redirect(target, 303)
    client_id = request.form.get("client_id") or forms.new_client_id()
    seq = request.form.get("expected_seq", "")
    done = tap.tap(get_db(), session_id, n, texts, client_id,
                   int(seq) if seq.isdigit() else None, confirm=bool(request.form.get("confirm")))
    if done.preview:
        g.lang_back = target  # the language switch leads to the hand, not to this post
        return render_template("confirm.html", summary=g.summary, session_id=session_id,
                               n=n, preview=done.preview, form=request.form, texts=texts,
                               players=done.preview["players"], most=_most_count(g.summary),
                               client_id=client_id, expected_seq=seq, back=target)
    if done.refused:
        flash_refusal(done.refused, done.refused_text)
    if done.logged:
        flash("; ".join("\u2713 " + action_words(t) for t in done.logged) + ".", "ok")
    if request.headers.get("X-Tablet-Swap"):
        # tablet.js swaps the answer in: the hand page itself, drawn from the
        # state the tap returned, without the redirect's second request; it says
        # the table's event it shows (live.js then need not fetch it again).
        g.summary = {**g.summary, **dict(zip(("seq", "head"),
                                             storage.chain_end(get_db(), session_id),
                                             strict=True))}
        page = current_app.make_response(_hand_page(session_id, n, told(done.state)))
        page.headers["X-Hand-Page"] = target
        page.headers["Cache-Control"] = "no-store"
        return page
    return redirect(target, 303)


def _tapped(state: dict) -> list[str]:
    """The actions a tap's form names: the button with its cards and spread,
    or every show at once (those still legal). ``FormError`` when none."""
    legal = state.get("legal") or []
    if request.form.get("act") == "all:show":
        texts = [t for t in request.form.getlist("show") if t in legal]
        if not texts:
            raise FormError(_("Nothing to show: the hand has moved on."))
        return texts
    players = [p["name"] for p in state["players"]]
    if request.form.get("act") == "all:count":  # shows given as counts on the pad
        texts = forms.count_shows(request.form, players)
        if not texts:
            raise FormError(_("Type the counts on the pad first."))
        return texts
    texts = [forms.action_from_form(request.form, players, legal)]
    if request.form.get("confirm"):  # counts typed on the drop's second tap
        texts += forms.count_shows(request.form, players)
    return texts


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
        flash(_("Undone: {action}. It stays in the history, marked as undone.",
                action=action_words(undone) if undone else _("the last action")), "ok")
    return redirect(url_for("tablet.hand", session_id=session_id, n=n), 303)


# ------------------------------------------------------------------ the table's own events


@bp.get("/s/<session_id>/manage")
@unlocked
def manage(session_id: str):
    return render_template("manage.html", summary=g.summary, session_id=session_id,
                           money=sessions.money_summary(get_db(), session_id),
                           client_id=forms.new_client_id())


def _event_post(session_id: str, target: str, done: str, call, for_whom=()) -> object:
    """One table event from a form: the service call, then a line saying what
    was kept (or the refusal as a sentence) on the page the form came from.
    ``for_whom``: the players a seat's phone must be one of (else only the host)."""
    try:
        seats.check_seat(g.access, *for_whom)
        call(get_db())
    except RefereeError as err:
        flash_refusal(err, done)
    else:
        flash("\u2713 " + done + ".", "ok")
    return redirect(target, 303)


def _cid() -> str:
    return request.form.get("client_id") or forms.new_client_id()


@bp.post("/s/<session_id>/manage/rename")
@unlocked
def rename_post(session_id: str):
    old, new = request.form.get("old", ""), normal_text(request.form.get("new", ""))
    return _event_post(session_id, url_for("tablet.manage", session_id=session_id),
                       _("{old} is now called {new}", old=old, new=new),
                       lambda db: table_events.rename(db, session_id, old, new, _cid()))


@bp.post("/s/<session_id>/manage/stake")
@unlocked
def stake_post(session_id: str):
    stake = request.form.get("stake", "").strip()
    return _event_post(session_id, url_for("tablet.manage", session_id=session_id),
                       _("The stake is {stake} from the next hand on",
                         stake=money(stake, g.summary.get("currency"))),
                       lambda db: table_events.change_stake(db, session_id, stake, _cid()))


@bp.post("/s/<session_id>/manage/payment")
@unlocked
@seat_may
def payment_post(session_id: str):
    payer, payee = request.form.get("from", ""), request.form.get("to", "")
    amount = request.form.get("amount", "").strip()
    return _event_post(session_id, url_for("tablet.manage", session_id=session_id),
                       _("{payer} paid {payee} {amount}", payer=payer, payee=payee,
                         amount=money(amount, g.summary.get("currency"))),
                       lambda db: table_events.record_payment(db, session_id, payer, payee,
                                                              amount, client_id=_cid()),
                       (payer, payee))


@bp.post("/s/<session_id>/manage/leave")
@unlocked
def leave_post(session_id: str):
    player = request.form.get("player", "")
    if player not in g.summary["seated"]:
        flash(_("Choose who leaves."), "error")
        return redirect(url_for("tablet.manage", session_id=session_id), 303)
    if not request.form.get("confirm"):
        # Leaving cannot be taken back: the second tap names the player.
        return _confirm_event(session_id, _("{player} leaves the table?", player=player),
                              _("The next hand is dealt without them; a hand in play with "
                                "them in it is void."),
                              url_for("tablet.leave_post", session_id=session_id),
                              {"player": player},
                              _("Yes, {player} leaves", player=player))
    return _event_post(session_id, url_for("tablet.manage", session_id=session_id),
                       _("{player} has left the table", player=player),
                       lambda db: table_events.leave(db, session_id, player, _cid()))


@bp.post("/s/<session_id>/manage/seat")
@unlocked
def seat_post(session_id: str):
    player = normal_text(request.form.get("player", ""))
    return _event_post(session_id, url_for("tablet.manage", session_id=session_id),
                       _("{player} sits down for the next hand", player=player),
                       lambda db: table_events.seat(db, session_id, player, _cid()))


def _confirm_event(session_id: str, question: str, detail: str, action: str, fields: dict,
                   yes: str, lines: list[str] = (), back: str | None = None):
    """The second tap of an event that cannot be taken back: the question, what
    it changes, and the same form again with ``confirm``."""
    back = back or url_for("tablet.manage", session_id=session_id)
    g.lang_back = back
    return render_template("confirm_event.html", summary=g.summary, session_id=session_id,
                           question=question, detail=detail, action=action, fields=fields,
                           yes=yes, lines=lines, back=back, client_id=_cid())


@bp.post("/s/<session_id>/manage/close")
@unlocked
def close_post(session_id: str):
    target = url_for("tablet.session_page", session_id=session_id)
    # Closing makes the settlement final: the box is the second tap, without JS too.
    if not request.form.get("sure"):
        flash(_("Tick the box to say the night is over, then tap Close the table."), "error")
        return redirect(url_for("tablet.manage", session_id=session_id), 303)
    return _event_post(session_id, target, _("The table is closed: its settlement is final"),
                       lambda db: table_events.close(db, session_id, _cid()))


@bp.post("/s/<session_id>/hands/<int:n>/void")
@unlocked
def void_post(session_id: str, n: int):
    reason = normal_text(request.form.get("reason", "")) or _("voided at the table")
    return _event_post(session_id, url_for("tablet.hand", session_id=session_id, n=n),
                       _("Hand {n} is void ({reason}): it pays nothing", n=n, reason=reason),
                       lambda db: table_events.void(db, session_id, n, reason, _cid()))


@bp.post("/s/<session_id>/hands/<int:n>/accept-all")
@unlocked
def accept_all_post(session_id: str, n: int):
    """The host accepts for everyone who has not yet (one tap, confirmed on the
    page): one accept event per player, as if each had tapped."""
    target = url_for("tablet.hand", session_id=session_id, n=n) + "#accepts"
    if not request.form.get("sure"):
        flash(_("Tick the box to say everyone has seen the result, then tap again."), "error")
        return redirect(target, 303)
    state = _state(session_id, n)
    waiting = [p["name"] for p in state["players"] if p["name"] not in (state.get("accepted")
                                                                          or ())]
    cid = _cid()
    for k, player in enumerate(waiting):
        try:
            table_events.accept(get_db(), session_id, n, player, f"{cid}-{k}")
        except RefereeError as err:
            flash_refusal(err, _("{player} accepts the result of hand {n}", player=player, n=n))
            return redirect(target, 303)
    if waiting:
        flash("\u2713 " + _("Everyone accepts the result of hand {n}", n=n) + ".", "ok")
    return redirect(target, 303)


@bp.post("/s/<session_id>/hands/<int:n>/accept")
@unlocked
@seat_may
def accept_post(session_id: str, n: int):
    player = request.form.get("player", "")
    # Back to the accept buttons, not the top of the page: the next player's
    # button is then in sight.
    return _event_post(session_id,
                       url_for("tablet.hand", session_id=session_id, n=n) + "#accepts",
                       _("{player} accepts the result of hand {n}", player=player, n=n),
                       lambda db: table_events.accept(db, session_id, n, player, _cid()),
                       (player,))


@bp.post("/s/<session_id>/hands/<int:n>/disputes/<int:k>/settle")
@unlocked
def settle_post(session_id: str, n: int, k: int):
    """Settle dispute ``k`` (from 1): let the record stand, or correct it back to
    the disputed action, on a second tap that shows what that takes back."""
    by, how = request.form.get("by", ""), request.form.get("how", "")
    target = url_for("tablet.hand", session_id=session_id, n=n) + "#disputes"
    if how == "corrected" and not request.form.get("confirm"):
        try:
            preview = disputes.correction_preview(get_db(), session_id, n, k - 1)
        except RefereeError as err:
            flash_refusal(err, _("Settle the dispute"))
            return redirect(target, 303)
        lines = [_("Undone: {action}", action=action_words(t)) for t in preview["undone"]]
        cur = g.summary.get("currency")
        for name, net in preview["net"].items():
            if Decimal(net):
                lines.append(_("{name}: {amount} of this hand is taken back", name=name,
                               amount=money(net, cur)))
        return _confirm_event(
            session_id, _("Correct hand {n} back to action {number}?", n=n,
                          number=preview["action"]),
            _("The hand is in play again before the disputed action; log what really "
              "happened from there. Every undone action stays in the history."),
            url_for("tablet.settle_post", session_id=session_id, n=n, k=k),
            {"by": by, "how": how}, _("Yes, correct the record"), lines,
            back=target)
    done = (_("Dispute {k} of hand {n}: the record was corrected", k=k, n=n)
            if how == "corrected" else
            _("Dispute {k} of hand {n}: the record stands", k=k, n=n))
    return _event_post(session_id, target, done,
                       lambda db: disputes.settle_dispute(db, session_id, n, k - 1, how,
                                                              by, _cid()))


@bp.post("/s/<session_id>/hands/<int:n>/dispute")
@unlocked
@seat_may
def dispute_post(session_id: str, n: int):
    by, note = request.form.get("by", ""), normal_text(request.form.get("note", ""))
    raw = request.form.get("action", "")
    action = int(raw) if raw.isdigit() else None
    return _event_post(session_id, url_for("tablet.hand", session_id=session_id, n=n),
                       _("{player}'s dispute is kept with hand {n}", player=by, n=n),
                       lambda db: table_events.dispute(db, session_id, n, by, note, action,
                                                       _cid()),
                       (by,))
