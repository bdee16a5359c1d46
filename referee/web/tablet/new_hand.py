"""A new hand: dealt at the table (the start form) or told by its ending (the
quick hand: who ended it and how, with a preview of who pays whom before the
second tap logs it)."""

from __future__ import annotations

from decimal import Decimal

from flask import flash, g, redirect, render_template, request, session, url_for
from werkzeug.datastructures import MultiDict

from ...language import sentence_case
from ...rules import told as told_rules
from ...rules.numbers import whole
from ...rules.table import DEAL_AFTER_VOID, DEAL_PASSES_LEFT, match_over_refusal
from ...service.errors import RefereeError
from ...service.table import hands, retell
from .. import again, forms
from ..db import get_db
from ..forms import FormError
from ..lang import _, day, say
from ..lang import message as _message
from ..lang import outcome as outcome_words
from .blueprint import (
    bp,
    host_only,
    most_count,
    pad_ranges,
    table_rules,
    unlocked,
    went_on,
)


def _start_form(session_id, summary, values=None, error=None):
    rules = table_rules(summary)
    return render_template(
        "start_hand.html",
        summary=summary,
        session_id=session_id,
        players=summary["seated"],
        suggested=summary.get("next_dealer"),
        dealer_why=_dealer_why(session_id, summary),
        client_id=forms.new_client_id(),
        grid=forms.card_grid(rules.deck, rules.jokers),
        hand_size=rules.hand_size,
        upcard=rules.upcard,
        values=values,
        error=error,
    )


def _dealer_why(session_id: str, summary) -> str:
    """Why the next hand's dealer deals it, as the start page says it: after
    a void hand its dealer deals again, not "the deal passes to the left"
    (newcomer N7)."""
    dealer, why = hands.next_dealer(get_db(), session_id)
    if why is None or why.template == DEAL_PASSES_LEFT:
        return _("The deal passes to the left: {name} deals this hand.", name=dealer)
    last = summary.get("current") or {}
    if why.template == DEAL_AFTER_VOID and last.get("dealer") == dealer:
        return _("After the void hand, {name} deals again.", name=dealer)
    return _("{name} deals this hand ({why}).", name=dealer, why=say(why))


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


def _closed(session_id: str):
    """A closed table's start and quick-hand pages (a bookmark, Back): said
    up front, on the table's page, instead of a form whose every submit is
    refused."""
    when = g.summary.get("closed")
    if not when:
        return None
    flash(_("The table was closed on {when}: it takes nothing more.", when=day(when)), "error")
    return redirect(url_for("tablet.session_page", session_id=session_id), 303)


def _match_over(session_id: str):
    """A match to a score that is over (a bookmark, Back): its start and
    quick-hand pages say so at once, who won and that no hand starts after
    it (the refusal their form would get once typed), on the table's page."""
    match = g.summary.get("match")
    if not match or not match["over"]:
        return None
    winners = match["winners"]
    err = match_over_refusal(match["to"], winners, Decimal(match["scores"][winners[0]]))
    flash(sentence_case(_message(err.at(hand=g.summary["hands"] + 1))), "error")
    return redirect(url_for("tablet.session_page", session_id=session_id), 303)


def _started_elsewhere(session_id: str, asked: str | None):
    """A start-hand link or form made for hand ``asked`` once that hand (or a
    later one) is logged: said, and to that hand, not a form that would deal
    the hand after it without saying so. Logged by this device or another:
    the page cannot tell (an old URL opened with Back on the tablet that
    logged it was told "on another device")."""
    number = whole(asked)
    if number is None or number == g.summary["hands"] + 1:
        return None
    newest = g.summary["hands"]
    if number > newest:
        return None
    flash(_("Hand {n} is already logged: here it is. Nothing was logged from this form.",
            n=newest), "error")
    return redirect(url_for("tablet.hand", session_id=session_id, n=newest), 303)


def _not_now(session_id: str, asked: str | None):
    """Why no hand starts from this page now (the table closed, the match
    over, hand ``asked`` logged already, a hand in play), said on the page it
    leads to; None: the form."""
    return (_closed(session_id) or _match_over(session_id)
            or _started_elsewhere(session_id, asked) or _in_play(session_id))


#: A new hand's field once the host chose to log it at a table whose debts
#: were carried on ("Start it here all the same").
HERE = "here"


def _carried_on(session_id: str, told: bool = False):
    """A new hand at a table whose debts were carried on to a later one
    (newcomer45 P9: a quick hand was told there after the room had been told
    what table 2 opened with, and changed who owes whom): asked before it
    starts, in the note's words (``went_on``), with "Go to" the later table
    and "Start it here all the same", which posts the form again. None: not
    such a table, or the host said so already. The rules allow the hand, so
    it is asked, never refused (the API warns, code ``carried_on``)."""
    on = None if request.form.get(HERE) else went_on()
    if on is None:
        return None
    fields = [(k, v) for k, v in request.form.items(multi=True) if k != "csrf_token"]
    return render_template("carried_ask.html", summary=g.summary, session_id=session_id,
                           on=on, fields=fields, told=told, action=request.path)


@bp.get("/s/<session_id>/hands/new")
@unlocked
@host_only
def start_hand(session_id: str):
    values, error = again.taken()  # a refused deal: the form again, as it was typed
    return _not_now(session_id, request.args.get("hand")) or _start_form(
        session_id, g.summary, values, error)


@bp.post("/s/<session_id>/hands/new")
@unlocked
def start_hand_post(session_id: str):
    summary = g.summary
    busy = _not_now(session_id, request.form.get("hand")) or _carried_on(session_id)
    if busy:
        return busy
    rules = table_rules(summary)
    setup = forms.setup_from_form(request.form, summary["seated"], rules.upcard,
                                  rules.hand_size)
    try:
        state = hands.start_hand(get_db(), session_id, setup,
                                request.form.get("client_id") or None)
    except RefereeError as err:
        return again.refuse(url_for("tablet.start_hand", session_id=session_id),
                            _message(err), request.form)
    return redirect(url_for("tablet.hand", session_id=session_id, n=state["hand"]), 303)


@bp.get("/s/<session_id>/hands/quick")
@unlocked
@host_only
def quick_hand(session_id: str):
    """The quick hand: how it ended and who (one tap), then what the rules
    need to settle it (counts on a number pad, the facts they pay by), then
    who pays whom (``preview``: the form's fields, judged again here and
    written nothing), confirmed by a second tap."""
    if _logged_here(request.args):  # back to the preview of a hand this tablet logged
        return redirect(url_for("tablet.session_page", session_id=session_id), 303)
    kept, error = again.taken()  # taken here, also when the form is not shown now
    busy = _not_now(session_id, request.args.get("hand"))
    if busy:
        return busy
    values = kept or MultiDict(request.args)
    if not values.get("dealer"):
        values["dealer"] = g.summary.get("next_dealer") or g.summary["seated"][0]
    if _picked(values) or values.get(PREVIEW) and not error:
        return _quick_judged(session_id, values, g.summary["seated"])
    return _quick_form(session_id, values, error)


def _picked(values: MultiDict) -> bool:
    """The ending tapped on the pick page (``pick``: its code and the seat,
    "drop:3") as the form's fields; whether that is all the form needs (then
    straight to who pays whom). The quick hand's and a correction's alike."""
    how, _sep, by = values.get("pick", "").partition(":")
    if how not in told_rules.HOWS:
        return False
    values["how"], values["by"] = how, by
    return not _quick_needs(how, table_rules(g.summary))


#: The query's mark of a preview's GET page (the form's fields with it).
PREVIEW = "preview"
# The client id of the last hand this tablet logged or told again (Back to
# its preview leads on, saying nothing, as a tap's confirm page does).
_LOGGED = "told_logged"


def _logged_here(values) -> bool:
    cid = values.get("client_id")
    return bool(cid) and session.get(_LOGGED) == cid


def _quick_judged(session_id: str, values: MultiDict, seats: list[str],
                  correct: dict | None = None):
    """The preview of what the fields tell, or the form with what is wrong."""
    rules = table_rules(g.summary)
    try:
        setup = forms.told_from_form(values, seats, told_rules.facts_needed(rules))
    except FormError as err:
        return _quick_form(session_id, values, str(err), correct)
    if correct:
        setup = {"ending": setup["ending"]}
    return _quick_preview(session_id, setup, values, correct)


@bp.post("/s/<session_id>/hands/quick")
@unlocked
def quick_hand_post(session_id: str):
    """The form's post: to the preview's page (a GET) until it is confirmed,
    then logged (or back to the form, with why not)."""
    busy = _not_now(session_id, request.form.get("hand"))
    if busy:
        return busy
    if not request.form.get("confirm"):
        return again.to("tablet.quick_hand", request.form, **{PREVIEW: "1"})
    asked = _carried_on(session_id, told=True)
    if asked:
        return asked
    rules = table_rules(g.summary)
    back = url_for("tablet.quick_hand", session_id=session_id)
    try:
        setup = forms.told_from_form(request.form, g.summary["seated"],
                                     told_rules.facts_needed(rules))
        state = hands.start_hand(get_db(), session_id, setup,
                                 request.form.get("client_id") or None)
    except FormError as err:
        return again.refuse(back, str(err), request.form)
    except RefereeError as err:
        return again.refuse(back, _message(err), request.form)
    session[_LOGGED] = request.form.get("client_id")
    result = state.get("result") or {}
    flash(_("Hand {n} logged, told by its ending: {outcome}.", n=state["hand"],
            outcome=outcome_words(result.get("outcome"))), "ok")
    return redirect(url_for("tablet.session_page", session_id=session_id), 303)


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


def _quick_form(session_id: str, values, error: str | None = None,
                correct: dict | None = None):
    """The quick hand's form; with ``correct`` (the told hand's number and
    seats), the same form telling that hand again."""
    summary = g.summary
    rules = table_rules(summary)
    seats = correct["players"] if correct else summary["seated"]
    how = values.get("how")
    by = whole(values.get("by", ""))
    by = by if by is not None and by < len(seats) else None
    return render_template(
        "quick_hand.html", summary=summary, session_id=session_id, seats=seats,
        values=values, how=how if how in told_rules.HOWS else None,
        by=by,
        dealer=values.get("dealer"),
        hows=told_rules.HOW_WORDS, needs=_quick_needs(how, rules) if how else {},
        questions={fact: _(told_rules.FACT_QUESTIONS[fact], player=seats[by])
                   for fact in told_rules.FACTS} if by is not None else {},
        most=most_count(summary),
        ranges=pad_ranges(summary, seats, how, seats[by] if by is not None else None),
        grid=forms.card_grid(rules.deck, rules.jokers), hand_size=rules.hand_size,
        client_id=values.get("client_id") or forms.new_client_id(), error=error,
        correct=correct)


def _quick_preview(session_id: str, setup: dict, values: MultiDict,
                   correct: dict | None = None):
    """Who pays whom, before the second tap logs it (or the form again, with
    what the referee refused)."""
    try:
        preview = retell.preview(get_db(), session_id, correct["hand"], setup,
                                 _settles(correct["args"])) if correct \
            else hands.preview_hand(get_db(), session_id, setup)
    except RefereeError as err:
        return _quick_form(session_id, values, _message(err), correct)
    # Every field goes to the second tap as it came (a declared hand's cards
    # are several values of one field).
    fields = [(k, v) for k, v in values.items(multi=True)
              if k not in ("csrf_token", "pick", "confirm", "client_id", PREVIEW, LEAVE_OPEN,
                           *_SETTLING)]
    fields.append(("client_id", values.get("client_id") or forms.new_client_id()))
    if correct:
        fields.extend(correct["args"].items())
    if correct:
        return render_template("quick_confirm.html", summary=g.summary, session_id=session_id,
                               preview=preview, fields=fields, correct=correct,
                               back=url_for("tablet.tell_again", session_id=session_id,
                                            n=correct["hand"], **correct["args"]))
    return render_template("quick_confirm.html", summary=g.summary, session_id=session_id,
                           preview=preview, fields=fields,
                           back=url_for("tablet.quick_hand", session_id=session_id))


def _told(session_id: str, n: int, values) -> dict:
    """Hand ``n`` as the form tells it again: its number, seats and ending,
    and (``args``) the dispute its telling settles and who settles it, as
    ``values`` carry them (``settle_post`` sends them here); without one,
    (``open``) the hand's disputes still open, each with its number, which
    the confirm offers to settle by the telling (retell45: corrected from the
    Result box, the dispute stayed open)."""
    row = hands.hand_row(get_db(), session_id, n)
    args = {k: values[k] for k in _SETTLING if values.get(k)}
    listed = row["setup"].get("disputes") or []
    still = [] if args.get("dispute") else \
        retell.open_disputes(get_db(), session_id, n, row["setup"])
    return {"hand": n, "players": list(row["seats"]), "dealer": row["dealer"],
            "ending": row["setup"].get("ending"), "args": args,
            "open": [(k + 1, listed[k]) for k in still]}


#: The fields that carry a dispute settled by the telling: its number (from 1),
#: and who settles it.
_SETTLING = ("dispute", "settler")
#: The confirm's button that tells the hand again and leaves its open disputes open.
LEAVE_OPEN = "leave_open"


def _settles(args: dict) -> retell.Settles | None:
    """The dispute a telling settles, as the service takes it (None: none)."""
    k = whole(args.get("dispute", ""))
    return (k - 1, args.get("settler", "")) if k else None


def _as_form(told: dict) -> MultiDict:
    """A told hand's ending as the quick form's fields (seat numbers, not names)."""
    seats, ending = told["players"], told["ending"] or {}
    values = MultiDict({"dealer": told["dealer"], "how": ending.get("how", "")})
    if ending.get("by") in seats:
        values["by"] = str(seats.index(ending["by"]))
    for name, count in (ending.get("counts") or {}).items():
        if name in seats:
            values[f"count{seats.index(name)}"] = str(count)
    for name, cards in (ending.get("declares") or {}).items():
        if name in seats:
            values.setlist(f"declare{seats.index(name)}", list(cards))
    for fact in told_rules.FACTS:
        if fact in ending:
            values[f"fact_{fact}"] = "yes" if ending[fact] else "no"
    return values


#: The fields of a correction's own pages (the pick, the form, the preview).
_ASKED = frozenset(("how", "pick", PREVIEW))


@bp.route("/s/<session_id>/hands/<int:n>/tell-again", methods=["GET", "POST"])
@unlocked
@host_only
def tell_again(session_id: str, n: int):
    """A told hand's typo corrected (``service.retell``): the quick form filled
    in as it was told, then who pays whom, then the second tap tells it again."""
    try:
        told = _told(session_id, n, request.values)
        if told["ending"] is None:
            raise retell.not_told(n)
    except RefereeError as err:
        flash(_message(err), "error")
        return redirect(url_for("tablet.hand", session_id=session_id, n=n), 303)
    if request.method == "GET":
        if _logged_here(request.args):  # back to the preview of what was told again
            return redirect(url_for("tablet.hand", session_id=session_id, n=n), 303)
        kept, error = again.taken()
        # The form's own fields (its "change" link, a picked ending, a
        # preview): as given, an empty ``how`` asking for the pick; else
        # the hand as it was told.
        values = kept or (MultiDict(request.args) if _ASKED.intersection(request.args)
                          else _as_form(told))
        values["dealer"] = told["dealer"]
        if _picked(values) or values.get(PREVIEW) and not error:
            return _quick_judged(session_id, values, told["players"], told)
        return _quick_form(session_id, values, error, correct=told)
    return _tell_again_post(session_id, n, told)


def _tell_again_post(session_id: str, n: int, told: dict):
    """The correction's post: to its preview until confirmed, then told again
    (and the dispute it settles settled), or back to the form with why not."""
    if not request.form.get("confirm"):
        return again.to("tablet.tell_again", request.form, **{PREVIEW: "1"})
    rules = table_rules(g.summary)
    # The confirm's "leave it open" sends the offered dispute too: it settles none.
    leaves_open = bool(request.form.get(LEAVE_OPEN))
    settles = None if leaves_open else _settles(told["args"])
    # Back to the form with a dispute only when it names who settles it: one
    # picked on the confirm without a settler is offered there again.
    carried = told["args"] if told["args"].get("settler") else {}
    back = url_for("tablet.tell_again", session_id=session_id, n=n, **carried)
    try:
        setup = forms.told_from_form(request.form, told["players"],
                                     told_rules.facts_needed(rules))
        state = retell.tell_again(get_db(), session_id, n, {"ending": setup["ending"]},
                                  request.form.get("client_id") or None, settles,
                                  leaves_open=leaves_open)
    except FormError as err:
        return again.refuse(back, str(err), request.form)
    except RefereeError as err:
        return again.refuse(back, _message(err), request.form)
    session[_LOGGED] = request.form.get("client_id")
    flash(_("Hand {n} told again: {outcome}.", n=n,
            outcome=outcome_words((state.get("result") or {}).get("outcome"))), "ok")
    if settles:
        flash("\u2713 " + _("Dispute {k} of hand {n}: the record was corrected",
                             k=told["args"]["dispute"], n=n) + ".", "ok")
    return redirect(url_for("tablet.hand", session_id=session_id, n=n), 303)
