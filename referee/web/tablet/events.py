"""The table's own events from the manage page and the hand screen: rename,
stake, payment, leave, seat, close, void, accept, dispute and a dispute
settled, each one service call through ``post_event``."""

from __future__ import annotations

from decimal import Decimal

from flask import flash, g, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from ...reports.words import A_PAYMENT, PAID, PAYMENT
from ...rules.numbers import whole
from ...rules.table import normal_text
from ...rules.words import N_
from ...service.errors import RefereeError
from ...service.money import payable
from ...service.table import disputes, hands, sessions, table_events
from .. import again, forms
from ..db import get_db
from ..errors import flash_refused
from ..lang import _, action_words, typed_decimal, typed_money
from .blueprint import (
    bp,
    confirm_event,
    form_client_id,
    host_only,
    open_disputes_of,
    post_event,
    seat_may,
    table_sections,
    told_state,
    unlocked,
)
from .correct import SETTLING, instead_confirm, settle_instead, taken_back

# What a refused form asked for, said where it is refused (two forms each).
ACCEPTANCE = N_("{player}'s acceptance of the result of hand {n}")
#: The settle form's third way: correct the disputed action alone (its page
#: picks what really happened; the service's ``how`` is then ``corrected``).
INSTEAD = "instead"


@bp.get("/s/<session_id>/manage")
@unlocked
@host_only
def manage(session_id: str):
    """The host's forms (names, stake, seats, payments, close): refused to a
    seat's phone and the viewer link as the start of a hand is, in the same
    words; a phone records its payments on the settle-up page."""
    # A refused new stake or payment comes back as typed (its sentence is the
    # flash): a payment's payer and payee too, or a host retyping the amount
    # alone recorded it the wrong way round (payform46). The stake's box that
    # confirms it, as the new-table form's, only where the service asked for
    # that confirmation: a stake no box could make the table play for is not
    # offered one (stake46).
    typed, code = again.taken()
    typed = typed or MultiDict()
    stake = typed.get("stake", "")
    return render_template("manage.html", summary=g.summary, session_id=session_id,
                           sec=table_sections(session_id), typed=typed, typed_stake=stake,
                           finer=bool(stake) and code == payable.FINER_STAKE_CODE,
                           client_id=request.args.get("client_id")
                           or forms.new_client_id())


@bp.post("/s/<session_id>/manage/rename")
@unlocked
def rename_post(session_id: str):
    old, new = request.form.get("old", ""), normal_text(request.form.get("new", ""))
    return post_event(session_id, url_for("tablet.manage", session_id=session_id),
                      _("{old} is now called {new}", old=old, new=new),
                      _("the new name {new} for {old}", old=old, new=new),
                      lambda db: table_events.rename(db, session_id, old, new, form_client_id()))


@bp.post("/s/<session_id>/manage/stake")
@unlocked
def stake_post(session_id: str):
    typed = request.form.get("stake")
    said = typed_money(typed, g.summary.get("currency"))
    finer = bool(request.form.get("finer_stake"))  # the host's "Yes, play for this stake"
    target = url_for("tablet.manage", session_id=session_id)
    return post_event(session_id, target,
                      _("The stake is {stake} from the next hand on", stake=said),
                      _("the new stake {stake}", stake=said) if said else _("the new stake"),
                      lambda db: table_events.change_stake(db, session_id,
                                                           typed_decimal(typed, "stake"),
                                                           form_client_id(), finer=finer),
                      again=lambda err: again.refuse(target, err.code, request.form))


@bp.post("/s/<session_id>/manage/payment")
@unlocked
@seat_may
def payment_post(session_id: str):
    payer, payee = request.form.get("from", ""), request.form.get("to", "")
    typed = request.form.get("amount")
    said = typed_money(typed, g.summary.get("currency"))
    target = url_for("tablet.manage", session_id=session_id)
    return post_event(session_id, target,
                      _(PAID, payer=payer, payee=payee, amount=said),
                      _(PAYMENT, payer=payer, payee=payee, amount=said) if said
                      else _(A_PAYMENT, payer=payer, payee=payee),
                      lambda db: table_events.record_payment(
                          db, session_id, payer, payee,
                          typed_decimal(typed, "payment_amount"),
                          client_id=form_client_id()),
                      (payer, payee),
                      again=lambda err: again.refuse(target, err.code, request.form))


@bp.post("/s/<session_id>/manage/leave")
@unlocked
def leave_post(session_id: str):
    player = request.form.get("player", "")
    if player not in g.summary["seated"]:
        flash(_("Choose who leaves."), "error")
        return redirect(url_for("tablet.manage", session_id=session_id), 303)
    if not request.form.get("confirm"):
        # Leaving cannot be taken back: the second tap, on a page of its own.
        return again.to("tablet.leave_confirm", request.form)
    return post_event(session_id, url_for("tablet.manage", session_id=session_id),
                      _("{player} has left the table", player=player),
                      _("{player} leaving the table", player=player),
                      lambda db: table_events.leave(db, session_id, player, form_client_id()))


@bp.get("/s/<session_id>/manage/leave")
@unlocked
@host_only
def leave_confirm(session_id: str):
    """The second tap of a leave: it names the player (the manage page when
    nobody seated is named: one who left meanwhile, or a stale link)."""
    player = request.args.get("player", "")
    if player not in g.summary["seated"]:
        return redirect(url_for("tablet.manage", session_id=session_id), 303)
    return confirm_event(session_id, _("{player} leaves the table?", player=player),
                          _("The next hand is dealt without them; a hand in play with "
                            "them in it is void."),
                          url_for("tablet.leave_post", session_id=session_id),
                          {"player": player},
                          _("Yes, {player} leaves", player=player))


@bp.post("/s/<session_id>/manage/seat")
@unlocked
def seat_post(session_id: str):
    player = normal_text(request.form.get("player", ""))
    return post_event(session_id, url_for("tablet.manage", session_id=session_id),
                      _("{player} sits down for the next hand", player=player),
                      _("a seat for {player}", player=player),
                      lambda db: table_events.seat(db, session_id, player, form_client_id()))


@bp.post("/s/<session_id>/manage/close")
@unlocked
def close_post(session_id: str):
    target = url_for("tablet.session_page", session_id=session_id)
    # Closing makes the settlement final: the box is the second tap, without JS too.
    if not request.form.get("sure"):
        flash(_("Tick the box to say the night is over, then tap Close the table."), "error")
        return redirect(url_for("tablet.manage", session_id=session_id), 303)
    if not request.form.get("confirm") and (_open_disputes(session_id) or
                                             sessions.unaccepted(get_db(), session_id)):
        # A dispute left open, or a result not everyone accepted, is signed
        # knowing it: the host is asked first, told which hands and whose.
        return again.to("tablet.close_confirm", request.form)
    return post_event(session_id, target, _("The table is closed: its settlement is final"),
                      _("closing the table"),
                      lambda db: table_events.close(db, session_id, form_client_id()))


def _open_disputes(session_id: str) -> dict[int, int]:
    """The table's hands with a dispute still open, and how many each."""
    return table_sections(session_id, disputes=True).open_by_hand


@bp.get("/s/<session_id>/manage/close")
@unlocked
@host_only
def close_confirm(session_id: str):
    """Close with a dispute open, or hands not everyone accepted? Which hands,
    and whose word is missing (the manage page when there is none now, or the
    table is closed already)."""
    disputed = _open_disputes(session_id)
    waiting = sessions.unaccepted(get_db(), session_id)
    if not (disputed or waiting) or g.summary.get("closed"):
        return redirect(url_for("tablet.manage", session_id=session_id), 303)
    lines = [_("Hand {n}: {count} open", n=n, count=k) for n, k in disputed.items()]
    lines += [_("Hand {n}: not accepted by {names}", n=n, names=", ".join(names))
              for n, names in waiting.items()]
    if disputed:
        return confirm_event(
            session_id, _("Close the table with a dispute open?"),
            _("The settlement becomes final and says that these disputes are open; "
              "settle them first on their hands' pages, or close knowing they are open."),
            url_for("tablet.close_post", session_id=session_id), {"sure": "1"},
            _("Yes, close with the disputes open"), lines)
    return confirm_event(
        session_id, _("Close the table with hands not everyone accepted?"),
        _("The settlement becomes final with these hands as they were logged: once the table "
          "is closed, nobody can accept or dispute them. Let the players look at them first, "
          "or close knowing they have not accepted them."),
        url_for("tablet.close_post", session_id=session_id), {"sure": "1"},
        _("Yes, close the table"), lines)


@bp.post("/s/<session_id>/hands/<int:n>/void")
@unlocked
def void_post(session_id: str, n: int):
    reason = normal_text(request.form.get("reason", "")) or _("voided at the table")
    return post_event(session_id, url_for("tablet.hand", session_id=session_id, n=n),
                      _("Hand {n} is void ({reason}): it pays nothing", n=n, reason=reason),
                      _("voiding hand {n}", n=n),
                      lambda db: table_events.void(db, session_id, n, reason, form_client_id()))


@bp.post("/s/<session_id>/hands/<int:n>/accept-all")
@unlocked
def accept_all_post(session_id: str, n: int):
    """The host accepts for everyone who has not yet (one tap, confirmed on the
    page): one accept event per player, as if each had tapped."""
    target = url_for("tablet.hand", session_id=session_id, n=n) + "#accepts"
    if not request.form.get("sure"):
        flash(_("Tick the box to say everyone has seen the result, then tap again."), "error")
        return redirect(target, 303)
    state = disputes.with_settlements(get_db(), session_id, n, told_state(session_id, n))
    if open_disputes_of(state):
        # One tap must not accept for people while one of them objects.
        flash(_("A dispute of hand {n} is open: settle it first; each player may still "
                "accept for themselves.", n=n), "error")
        return redirect(target, 303)
    waiting = [p["name"] for p in state["players"] if p["name"] not in (state.get("accepted")
                                                                          or ())]
    cid = form_client_id()
    for k, player in enumerate(waiting):
        try:
            table_events.accept(get_db(), session_id, n, player, f"{cid}-{k}")
        except RefereeError as err:
            flash_refused(err, _(ACCEPTANCE, player=player, n=n))
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
    return post_event(session_id,
                      url_for("tablet.hand", session_id=session_id, n=n) + "#accepts",
                      _("{player} accepts the result of hand {n}", player=player, n=n),
                      _(ACCEPTANCE, player=player, n=n),
                      lambda db: table_events.accept(db, session_id, n, player, form_client_id()),
                      (player,))


@bp.post("/s/<session_id>/hands/<int:n>/disputes/<int:k>/settle")
@unlocked
def settle_post(session_id: str, n: int, k: int):
    """Settle dispute ``k`` (from 1): let the record stand, or correct it back to
    the disputed action, on a second tap that shows what that takes back."""
    by, how = request.form.get("by", ""), request.form.get("how", "")
    target = url_for("tablet.hand", session_id=session_id, n=n) + "#disputes"
    if not by:  # nobody chosen (the select asks first): no page of a correction under no name
        return post_event(session_id, target, "", _(SETTLING, k=k, n=n),
                          lambda db: disputes.check_settler(by, k - 1, n))
    if how == "corrected" and _told(session_id, n):
        # A told hand has no action to go back to: its ending is told again,
        # and that settles the dispute (``tablet.tell_again``).
        return redirect(url_for("tablet.tell_again", session_id=session_id, n=n, dispute=k,
                                settler=by), 303)
    if how == INSTEAD:  # the disputed action alone: what really happened is picked first
        return again.to("tablet.instead_page", request.form, leave_out=("how",))
    if how == "corrected" and not request.form.get("confirm"):
        return again.to("tablet.settle_confirm", request.form)
    if how == "corrected" and request.form.get("instead"):
        return settle_instead(session_id, n, k)
    done = (_("Dispute {k} of hand {n}: the record was corrected", k=k, n=n)
            if how == "corrected" else
            _("Dispute {k} of hand {n}: the record stands", k=k, n=n))
    return post_event(session_id, target, done, _(SETTLING, k=k, n=n),
                      lambda db: disputes.settle_dispute(db, session_id, n, k - 1, how,
                                                             by, form_client_id()))


def _told(session_id: str, n: int) -> bool:
    """Whether hand ``n`` was told by its ending (a hand it does not have is
    not: the settling says so)."""
    try:
        return "ending" in hands.hand_row(get_db(), session_id, n)["setup"]
    except RefereeError:
        return False


@bp.get("/s/<session_id>/hands/<int:n>/disputes/<int:k>/settle")
@unlocked
@host_only
def settle_confirm(session_id: str, n: int, k: int):
    """Correct the record back to the disputed action? What that takes back,
    judged again now and written nothing (the hand's page, with the reason,
    when it cannot be: settled meanwhile, or the hand moved on)."""
    target = url_for("tablet.hand", session_id=session_id, n=n) + "#disputes"
    instead = request.args.get("instead")
    if instead:
        return _instead_confirm(session_id, n, k, instead, target)
    try:
        preview = disputes.correction_preview(get_db(), session_id, n, k - 1)
    except RefereeError as err:
        flash_refused(err, _(SETTLING, k=k, n=n))
        return redirect(target, 303)
    lines = [_("Undone: {action}", action=action_words(t)) for t in preview["undone"]]
    cur = g.summary.get("currency")
    for name, net in preview["net"].items():
        if Decimal(net):
            lines.append(taken_back(name, net, cur))
    return confirm_event(
        session_id, _("Correct hand {n} back to action {number}?", n=n,
                      number=preview["action"]),
        _("The hand is in play again before the disputed action; log what really "
          "happened from there. Every undone action stays in the history."),
        url_for("tablet.settle_post", session_id=session_id, n=n, k=k),
        {"by": request.args.get("by", ""), "how": "corrected"}, _("Yes, correct the record"),
        lines, back=target)


def _instead_confirm(session_id: str, n: int, k: int, instead: str, target: str):
    """Correct the disputed action alone? (back to the picking, saying why,
    when the action picked is refused there or the hand moved on)."""
    try:
        asked = instead_confirm(session_id, n, k, instead,
                                request.args.get("expected_seq", ""))
    except RefereeError as err:
        flash_refused(err, _(SETTLING, k=k, n=n))
        return redirect(url_for("tablet.instead_page", session_id=session_id, n=n, k=k,
                                by=request.args.get("by", "")), 303)
    return confirm_event(session_id, asked["question"], asked["detail"],
                         url_for("tablet.settle_post", session_id=session_id, n=n, k=k),
                         {"by": request.args.get("by", ""), **asked["fields"]}, asked["yes"],
                         asked["lines"], back=target)


@bp.post("/s/<session_id>/hands/<int:n>/dispute")
@unlocked
@seat_may
def dispute_post(session_id: str, n: int):
    by, note = request.form.get("by", ""), normal_text(request.form.get("note", ""))
    raw = request.form.get("action", "")
    action = whole(raw)
    return post_event(session_id, url_for("tablet.hand", session_id=session_id, n=n),
                      _("{player}'s dispute is kept with hand {n}", player=by, n=n),
                      _("{player}'s dispute of hand {n}", player=by, n=n),
                      lambda db: table_events.dispute(db, session_id, n, by, note, action,
                                                      form_client_id()),
                      (by,))
