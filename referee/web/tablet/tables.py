"""Reaching a table: the home page, a new table, opening one by its id, the
unlock with its PIN, a seat's or the viewer's link and the host's invitations."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from flask import current_app, flash, g, redirect, render_template, request, url_for
from markupsafe import Markup

from ...language import N_, NAMES, currency_code, sentence_case
from ...record.schemas import FIELD_PROBLEM
from ...reports.words import PAYS
from ...rules.allowed import BAD_OPTION, BAD_VALUE
from ...rules.options import PRESET_SOURCES, PRESETS
from ...rules.table import normal_text
from ...service import access
from ...service.access import seats
from ...service.errors import NotFound, RefereeError, TooManyTries
from ...service.money import payable
from ...service.table import carrying, seat_links, sessions
from ...service.table.ids import is_session_id
from .. import again, forms, lang, links
from ..db import get_db
from ..errors import error_page, on_form
from ..forms import FormError
from ..lang import _, current, money, table_title, typed_decimal, use_table_language
from ..lang import message as _message
from ..openings import count_opening
from .blueprint import (
    bp,
    confirm_event,
    form_client_id,
    host_only,
    post_event,
    table_summary,
    unlocked,
)


@bp.get("/")
def home():
    # Only the tables this device has unlocked: the list of every table and
    # its players is nobody else's business. Others open by their id.
    return render_template("home.html",
                           sessions=sessions.list_sessions(get_db(), forms.unlocked_ids()),
                           names_shown=forms.MAX_SEATS)


@bp.post("/open")
def open_session():
    # Ids are lower-case hex: an iPad capitalises the first letter typed, and
    # "F684f416a89e" opened a table that is none (its PIN "refused").
    session_id = request.form.get("session_id", "").strip().lower()
    if not session_id:
        flash(_("Type the table's id (shown on its page and in its link)."), "error")
        return redirect(url_for("tablet.home"), 303)
    return redirect(url_for("tablet.session_page", session_id=session_id), 303)


@bp.before_app_request
def _lower_case_id():
    """A table's address with its id in capitals (typed, or copied from a
    capitalised line) goes to the table's own: ids are lower-case hex, and
    the unlock page of the capitalised id refused the right PIN. Only an id
    of the right shape: anything else is no table, and says so."""
    parts = request.path.split("/", 3)
    if len(parts) > 2 and parts[1] == "s" and parts[2] != parts[2].lower() \
            and is_session_id(parts[2].lower()):
        parts[2] = parts[2].lower()
        query = request.query_string.decode("latin-1")
        target = request.script_root + "/".join(parts) + (f"?{query}" if query else "")
        return redirect(target, 301 if request.method in ("GET", "HEAD") else 308)
    return None


def _create_form(values=None, error=None, status=200):
    return render_template(
        "create.html",
        options=forms.option_fields(),
        # each preset's changes in the reader's words, as the table's header says them
        presets=[(name, PRESET_SOURCES[name],
                  [(lang.option_label(k), lang.option_value(k, v))
                   for k, v in PRESETS[name].items()])
                 for name in PRESETS],
        languages=NAMES,
        seats=forms.MAX_SEATS,
        values=values or {},
        host_key=bool(current_app.config.get("REFEREE_HOST_KEY")),
        options_open=any(k.startswith("opt_") and v for k, v in (values or {}).items()),
        finer=_finer_asked(values),
        earlier=sessions.list_sessions(get_db(), forms.unlocked_ids()),
        error=error,
    ), status


def _finer_asked(values) -> bool:
    """Whether the form comes back with a stake finer than its currency's
    coin: it then asks the host to confirm it (newcomer44 P9)."""
    if not values:
        return False
    try:
        stake = Decimal(typed_decimal(values.get("stake"), "stake") or "1")
        currency = currency_code(normal_text(values.get("currency", "")), current())
    except (InvalidOperation, FormError, RefereeError):
        return False
    return stake.is_finite() and payable.finer_than_coin(stake, currency or None) is not None


@bp.get("/new")
def create():
    values, error = again.taken()  # a refused form again, as typed (but its PINs)
    return _create_form(values, error)


@bp.post("/new")
def create_post():
    host_key = current_app.config.get("REFEREE_HOST_KEY")
    if host_key:
        try:
            right = access.host_key(get_db(), host_key, request.form.get("host_key", ""),
                                    "new table", request.remote_addr or "?")
        except TooManyTries as err:
            return _create_form(request.form, _message(err), 429)
        if not right:
            return _create_form(request.form, str(forms.create_refusal(
                "host_key", N_("not this referee's: ask the person who runs it"))), 403)
    try:
        count_opening()
    except TooManyTries as err:
        page, status = _create_form(request.form, _message(err), 429)
        return page, status, {"Retry-After": str(err.retry_after())}
    earlier = request.form.get("carry_from", "").strip()
    if earlier and not forms.is_unlocked(earlier):
        # Carrying reads the earlier table's money: this tablet must hold it,
        # as the API asks for its token.
        return _create_form(request.form, str(forms.create_refusal(
            "carry_from", N_("this tablet has not unlocked table {id}: open it with its PIN "
                             "first, then carry its debts here"), id=earlier)), 403)
    try:
        header, pin = forms.header_from_form(request.form)
        g.new_currency = header.get("currency")
        if not request.form.get("finer_stake"):  # the host's "Yes, play for …"
            payable.check_opening_stake(header)
        info = carrying.open_carried(get_db(), header, earlier, pin) if earlier else \
            sessions.create_session(get_db(), header, pin)
    except (FormError, RefereeError) as err:
        message = _refused_field(err) if isinstance(err, RefereeError) else str(err)
        # a label the papers write in small letters ("jokers") begins a sentence here
        return again.refuse(url_for("tablet.create"), sentence_case(message), request.form)
    forms.mark_unlocked(info.id)
    use_table_language(header.get("language"))  # the line is read on the table's page
    flash(_("The table is open. Keep the PIN: other tablets need it to join."), "ok")
    if earlier:
        _say_carried(earlier, info)
    return redirect(url_for("tablet.session_page", session_id=info.id), 303)


def _say_carried(earlier: str, info) -> None:
    """What the new table carried from ``earlier``, in words: who owes whom
    how much, and what stays owed there (its payer or payee sits not here).
    It said nothing, and a host took "Jurgen" for "Jürgen" (newcomer N3)."""
    table = table_title(sessions.list_sessions(get_db(), [earlier])[0])
    cur = g.get("new_currency")

    def owed(transfers) -> str:
        return "; ".join(_(PAYS, payer=t["from"], payee=t["to"], amount=money(t["amount"], cur))
                         for t in transfers)

    if info.carried:
        flash(_("Carried from {table}: {transfers}", table=table, transfers=owed(info.carried)),
              "ok")
    if info.left:
        flash(_("Not carried, still owed at {table}: {transfers}. Only a debt between two "
                "players who both sit here is carried.", table=table,
                transfers=owed(info.left)), "error")
    elif not info.carried:
        flash(_("Nothing was carried from {table}: nobody owes anything there.", table=table),
              "error")


def _refused_field(err: RefereeError) -> str:
    """A refused new table's sentence, its field named as the form labels it
    ("Seat 1: ...", "Stake per unit: ...", "Hand size: ..."), not by the
    log's key."""
    if err.template == BAD_OPTION:
        return _(FIELD_PROBLEM, field=lang.option_label(err.params["option"]),
                 problem=_(BAD_VALUE, value=err.params["value"],
                           expected=err.params["expected"]))
    return on_form(err, lambda field: forms.create_label(field, request.form)) \
        or _message(err)


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
        # Said alike whether table ``session_id`` exists or not (whoever has
        # only an id learns nothing of it: docs/decisions.md), and the id
        # first: a mistyped id asks for a PIN all the same, and a host who
        # knows the PIN was right kept retyping it (newcomer 44's P11).
        return again(_("Table {id} does not open with that PIN. Check the table id first "
                       "(a mistyped id asks for a PIN all the same), then the PIN.",
                       id=session_id) if has_pin else
                     _("Table {id} does not open with that token. Check the table id "
                       "first, then the token.", id=session_id), 403)
    forms.mark_unlocked(session_id)
    return redirect(forms.local_path(nxt) or
                    url_for("tablet.session_page", session_id=session_id), 303)


@bp.get("/s/<session_id>/join/<token>")
def join(session_id: str, token: str):
    """A seat's or the viewer's link, opened (scanned): this browser is that
    seat or viewer at the table from now on, until the link is revoked."""
    table_summary(session_id)
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
    target = _invite_section(session_id)
    # Whole sentences for a seat and for the viewer: "the link for" + "the
    # viewer link" said "The link for the viewer link", in every language.
    seat = role == seats.SEAT
    if request.form.get("revoke"):
        if not request.form.get("confirm"):
            # A phone locked out at its player's turn: the second tap, on a
            # page of its own, as a player leaving is (newcomer F31).
            return again.to("tablet.revoke_confirm", request.form)
        said = _("The link for {who} is revoked", who=player) if seat else \
            _("The viewer link is revoked")
        what = _("revoking the link for {who}", who=player) if seat else \
            _("revoking the viewer link")
        return post_event(session_id, target, said, what, lambda db: seat_links.revoke(
            db, session_id, role, player, form_client_id()))
    secret = current_app.config["SECRET_KEY"]
    client_id = form_client_id()
    said = _("A new link for {who}: scan its code", who=player) if seat else \
        _("A new viewer link: scan its code")
    what = _("a new link for {who}", who=player) if seat else _("a new viewer link")
    return post_event(session_id, target, said, what,
                      lambda db: seat_links.issue(db, session_id, role, player, secret, client_id))


@bp.get("/s/<session_id>/invite")
@unlocked
@host_only
def revoke_confirm(session_id: str):
    """The second tap of a revoke: whose phone it locks out (the Invite section
    when that link is not in force: revoked meanwhile, or a stale address)."""
    role, player = request.args.get("role", ""), request.args.get("player") or None
    if role != seats.SEAT:
        player = None
    if (role, player) not in seats.links(get_db(), session_id):
        return redirect(_invite_section(session_id), 303)
    if player is None:
        question = _("Revoke the viewer link?")
        detail = _("Every screen that opened it (a TV, anyone watching) is locked out at "
                   "once. A new link can be made afterwards.")
    else:
        question = _("Revoke the link for {who}?", who=player)
        detail = _("{who}'s phone is locked out at once and asks for the table's PIN. A new "
                   "link lets it back in.", who=player)
    fields = {"role": role, "revoke": "1", **({"player": player} if player else {})}
    return confirm_event(session_id, question, detail,
                         url_for("tablet.invite_post", session_id=session_id), fields,
                         _("Yes, revoke it"), back=_invite_section(session_id))


def _invite_section(session_id: str) -> str:
    return url_for("tablet.session_page", session_id=session_id) + "#invite"
