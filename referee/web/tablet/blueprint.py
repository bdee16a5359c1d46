"""The tablet's blueprint and what every page of a table shares: the guard
(``unlocked``, ``seat_may``, ``host_only``), the table's summary, a hand's
state in the reader's language, a table event posted from a form, the CSRF
check and the asset URLs with their content's hash."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from markupsafe import Markup

from ...language import sentence_case
from ...reports.sections import Linked, Sections
from ...rules.cards import pretty
from ...rules.legality import impossible_count
from ...rules.options import resolve
from ...rules.told import empty_drop, impossible_told_count, least_told_count
from ...service.access import seats
from ...service.errors import RefereeError
from ...service.table import carrying, hands, sessions, sight
from ...service.table import disputes as table_disputes
from .. import carried, forms
from ..db import get_db
from ..errors import flash_refused
from ..lang import _, message, told, use_table_language


class _Blueprint(Blueprint):
    # The pages name their CSS and JS with the file's version (``asset``), so
    # a browser keeps them a year instead of asking again on every tap: each
    # tap's page load was two conditional requests longer.
    def get_send_file_max_age(self, filename: str | None) -> int | None:
        return 365 * 24 * 3600


bp = _Blueprint("tablet", __name__, static_folder=Path(__file__).resolve().parents[1] / "static",
                static_url_path="/tablet-static")


@functools.cache
def _version(filename: str) -> str:
    path = Path(bp.static_folder) / filename
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


@bp.app_template_global("asset")
def asset(filename: str) -> str:
    """A static file's URL with its content's hash (a new file, a new URL)."""
    return _asset_url(request.script_root, filename)


@functools.lru_cache(maxsize=256)
def _asset_url(script_root: str, filename: str) -> str:
    # A page names eight files: built once for each root the app is served
    # under (a proxy's prefix), not by the URL map on every page.
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


def table_summary(session_id: str) -> dict:
    """The table's summary (``NotFound``, the 404 page, for an unknown table).
    Its language is the default of the page."""
    summary = sessions.session_summary(get_db(), session_id)
    use_table_language(summary.get("language"))
    return summary


def page_access(session_id: str) -> seats.Access | None:
    """What this browser may do at the table: ``host`` once unlocked with the
    PIN, else the seat or viewer link it joined by while that link is in force
    (a revoked link gives nothing, at once). None: nothing."""
    if forms.is_unlocked(session_id):
        return seats.Access(seats.HOST)
    token = forms.link_token(session_id)
    if not token:
        return None
    found = seats.token_access(get_db(), session_id, token)
    if found is None or found.role not in (seats.SEAT, seats.VIEWER):
        # The revoked link stays in the cookie (a new link or the PIN replaces
        # it): the unlock page says why on every visit, not only on the first,
        # before a reload (newcomer N15). A flash could be read by live.js.
        g.revoked = True
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
                                    next=forms.here(),
                                    revoked=1 if g.get("revoked") else None))
        g.summary = table_summary(session_id)
        if request.method == "POST" and not g.access.writes and \
                not getattr(view, "seat_may", False):
            raise seats.not_your_seat(g.access)
        return view(session_id, **kwargs)
    return guarded


def seat_may(view):
    """A form a seat's phone may post too (the view checks for whom: ``may_act_for``,
    ``post_event``'s ``for_whom``)."""
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


def may_act_for(*players: str) -> seats.NotYourSeat | None:
    """The refusal if this browser may not act for any of ``players``."""
    try:
        seats.check_seat(g.access, *players)
    except seats.NotYourSeat as err:
        return err
    return None


def seat_place() -> str | None:
    """Where a seat's phone belongs now: the newest hand's page (a hand in
    play, or one just told, which its player is asked to accept). None for the
    host and a viewer, when there is no hand, or its player is not in it, or it
    is void (the same dealer deals again: the next hand is the place)."""
    access, summary = g.get("access"), g.get("summary")
    cur = (summary or {}).get("current")
    if access is None or access.writes or not access.player or not cur or \
            cur["phase"] == "void" or access.player not in cur["players"]:
        return None
    return url_for("tablet.hand", session_id=summary["id"], n=cur["hand"])


@bp.app_template_global("sees_every_card")
def sees_every_card() -> bool:
    """Whether this browser may open what shows every player's cards (a
    hand's audit, the log): a page offers them only where they open."""
    return sight.sees_all(g.get("access"))


@bp.app_template_global("place_mark")
def place_mark() -> Markup:
    """The mark live.js follows on a seat's phone: when a fresh copy of the
    page names another place than the page had, the phone goes there (a new
    hand dealt, a hand told) as a Bridgemate moves to the next board."""
    place = seat_place()
    return Markup('<span hidden id="place" data-href="{}"></span>').format(place) \
        if place else Markup("")


@bp.app_template_global("went_on")
def went_on() -> dict | None:
    """Where an open table's night went on (``web.carried.went_on``), for its
    page and its new-hand forms to say (newcomer 44, P6: the old table took
    the next hand without a word). None: nothing carried on, or closed."""
    summary = g.get("summary") or {}
    if not summary.get("carried_forward") or summary.get("closed"):
        return None
    return carried.went_on(get_db(), summary["id"])


def table_rules(summary: dict):
    return resolve(summary["rules"])


def most_count(summary: dict) -> int:
    """The most a hand can count at this table: the number pad's bound."""
    rules = table_rules(summary)
    return rules.deck_info.most_count(rules.hand_size)


@dataclass(frozen=True)
class PadRange:
    """What a count field of the pad says (``count_pad``, pad.js): the least
    and the most its player's count can be, as a hint ("6 to 50"), and the
    engine's refusal of a count past them, with ``{count}`` left for pad.js
    to fill (newcomer N10: a digit past the hand's most vanished, or went
    on into the next player's field, without a word); ``below``: the
    refusal of a count below the least where it is another sentence (a told
    dropper's 0)."""

    low: int
    high: int
    hint: str
    refused: str
    below: str = ""


def pad_ranges(summary: dict, players: Iterable[dict | str], how: str | None = None,
               by: str | None = None) -> dict[str, PadRange]:
    """Each player's range on the pad: a hand's player (its state's entry)
    by the cards they hold as the engine judges a show's count
    (``Hand.count_range``: what the referee knows of them, and for the rest
    what as many other cards can count); a player named alone (a hand told
    by its ending ``how``, by ``by``: no cards logged) by the most any hand
    counts here, and the least the told hand's check allows (a dropper's
    1, newcomer46 N3: the pad said 0 and the referee refused it)."""
    rules = table_rules(summary)
    deck, most = rules.deck_info, most_count(summary)
    out = {}
    for p in players:
        below = None
        if isinstance(p, dict) and p.get("cards"):
            name, n = p["name"], p["cards"]
            low, high = deck.hand_range(p.get("known") or (), p.get("unknown", n))
            err = impossible_count(name, n, "{count}", low, high)
        else:
            name = p["name"] if isinstance(p, dict) else p
            low, high = least_told_count(rules, how, by, name), most
            err = impossible_told_count(name, "{count}", most)
            below = empty_drop(name) if low else None
        hint = str(low) if low == high else _("{low} to {high}", low=low, high=high)
        out[name] = PadRange(low, high, hint, _sentence(err),
                             _sentence(below) if below else "")
    return out


def _sentence(err: RefereeError) -> str:
    """A refusal said on its own line: its first letter a capital."""
    return sentence_case(message(err))


def told_state(session_id: str, n: int) -> dict:
    """Hand ``n``'s state (``NotFound``, the 404 page, for an unknown hand),
    its payment story in the reader's language, as this browser may see it
    (``service.table.sight``: a phone sees no other player's cards)."""
    return sight.hand(told(hands.hand_state(get_db(), session_id, n)), g.get("access"))


def post_event(session_id: str, target: str, done: str, what: str, call, for_whom=(), *,
               again=None) -> object:
    """One table event from a form: the service call, then a line saying what
    was kept, or what was refused (``what``, a noun: "Ben's payment details")
    and why, on the page the form came from (``again``: that page drawn anew
    with what was typed, for a form whose fields a redirect would empty).
    ``for_whom``: the players a seat's phone must be one of (else only the host);
    ``again`` is given the refusal."""
    try:
        seats.check_seat(g.access, *for_whom)
        call(get_db())
    except RefereeError as err:
        flash_refused(err, what)
        if again is not None:
            return again(err)
    else:
        flash("\u2713 " + done + ".", "ok")
    return redirect(target, 303)


def confirm_event(session_id: str, question: str, detail: str, action: str, fields: dict,
                  yes: str, lines: list[str] = (), back: str | None = None):
    """The second tap of an event that cannot be taken back, a GET page of
    its own: the question, what it changes, and the form again with
    ``confirm`` and the first tap's client id (a second post is answered once)."""
    back = back or url_for("tablet.manage", session_id=session_id)
    g.lang_back = back
    return render_template("confirm_event.html", summary=g.summary, session_id=session_id,
                           question=question, detail=detail, action=action, fields=fields,
                           yes=yes, lines=lines, back=back, client_id=request.args.get("client_id")
                           or forms.new_client_id())


def form_client_id() -> str:
    return request.form.get("client_id") or forms.new_client_id()


@bp.app_template_global("open_disputes_of")
def open_disputes_of(state: dict) -> int:
    """How many of a hand's disputes are still open (its state with how each
    was settled, ``disputes.with_settlements``): the hand's page says it at
    the top and above the accept buttons, and the host's accept for all is
    refused while one is."""
    settled = state.get("settled_disputes") or ()
    return sum(1 for k in range(len(state.get("disputes") or ()))
               if k >= len(settled) or settled[k] is None)


def table_sections(session_id: str, *, disputes: bool = False) -> Sections:
    """The table's result as its pages show it: the result's sections
    (``referee.reports.sections``, the papers' too) from the service's
    stored running totals, no hand read and nothing replayed; ``disputes``:
    with the table's disputes and how each was settled (the pages that
    list them). The tables its debts came from and went to are named, as
    on its papers."""
    db = get_db()
    result = sessions.running_result(db, session_id)
    linked = Linked(*carrying.linked(db, session_id, result.header))
    if not disputes:
        return Sections.stored(result, linked=linked)
    return Sections.stored(result, table_disputes.disputed(db, session_id),
                           table_disputes.all_settlements(db, session_id), linked)
