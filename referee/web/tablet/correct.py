"""A dispute of one action corrected by that action alone (newcomer N4: one
wrong card took ten later actions, five tapped on phones, back with it): the
hand as it stood before the disputed action, where the host picks what
really happened with the hand screen's own buttons and card picker; then
the confirm page says what the correction does (the action in its place,
the later actions logged again, where the rules stop them, the money), and
``disputes.settle_dispute`` does it on the second tap (``events.settle_post``)."""

from __future__ import annotations

from decimal import Decimal

from flask import flash, g, redirect, render_template, request, url_for
from markupsafe import Markup

from ...rules.actions import parse_action
from ...rules.cards import card_label
from ...rules.legality import SHOW_TOO_EARLY
from ...rules.numbers import whole
from ...rules.words import N_, Names
from ...service.access import seats
from ...service.errors import RefereeError, Refused
from ...service.table import disputes
from .. import again, forms
from ..db import get_db
from ..errors import flash_refused
from ..forms import FormError
from ..lang import _, action_words, money, ngettext, sentence
from .blueprint import bp, form_client_id, host_only, table_rules, unlocked
from .hand import actors_of, holders_of, known_of, tapped, unknown_tile, unpickable

#: What a settling form asked for, said where it is refused.
SETTLING = N_("the settling of dispute {k} of hand {n}")


def _settling(k: int, n: int) -> str:
    return _(SETTLING, k=k, n=n)


def _to_hand(session_id: str, n: int) -> str:
    return url_for("tablet.hand", session_id=session_id, n=n) + "#disputes"


@bp.get("/s/<session_id>/hands/<int:n>/disputes/<int:k>/instead")
@unlocked
@host_only
def instead_page(session_id: str, n: int, k: int):
    """The hand as it stood before dispute ``k``'s action, to pick what
    really happened (the hand's page, saying why, when it cannot be
    corrected: settled meanwhile, accepted, or the hand moved on)."""
    try:
        before = disputes.before_disputed(get_db(), session_id, n, k - 1)
    except RefereeError as err:
        flash_refused(err, _settling(k, n))
        return redirect(_to_hand(session_id, n), 303)
    state = before["state"]
    rules = table_rules(g.summary)
    players = [p["name"] for p in state["players"]]
    actors = actors_of(state, players)
    holders = holders_of(state)
    dispute = (state.get("disputes") or [])[k - 1]
    g.lang_back = _to_hand(session_id, n)
    return render_template(
        "instead.html", summary=g.summary, session_id=session_id, n=n, k=k, state=state,
        before=before, dispute=dispute, players=players, actors=actors,
        by=request.args.get("by", ""), grid=forms.card_grid(rules.deck, rules.jokers),
        seen=unpickable(state, [], holders, actors, rules.deck_info.cards), holders=holders,
        mine=set(known_of(state, state.get("to_act"))),
        unknown_tile=unknown_tile(state, {v for a in actors for v in a["verbs"]}),
        client_id=request.args.get("client_id") or forms.new_client_id(),
        back=_to_hand(session_id, n))


@bp.post("/s/<session_id>/hands/<int:n>/disputes/<int:k>/instead")
@unlocked
def instead_post(session_id: str, n: int, k: int):
    """The action picked as it really was: on to the confirm page, which says
    what correcting with it does (nothing is written here)."""
    page = url_for("tablet.instead_page", session_id=session_id, n=n, k=k)
    try:
        before = disputes.before_disputed(get_db(), session_id, n, k - 1)
        texts = tapped(before["state"])
    except RefereeError as err:
        flash_refused(err, _settling(k, n))
        return redirect(_to_hand(session_id, n), 303)
    except FormError as err:
        return again.refuse(page, str(err))
    return again.to("tablet.settle_confirm", request.form,
                    leave_out=("act", "card", "spread", "show"), how="corrected",
                    instead=texts[0], expected_seq=str(before["seq"]))


def instead_confirm(session_id: str, n: int, k: int, instead: str, seq: str):
    """The confirm page of a correction by the action as it really was: its
    question, what it does in words, and the fields its second tap sends."""
    preview = disputes.correction_preview(get_db(), session_id, n, k - 1, instead,
                                          expected_seq=int(seq) if seq.isdigit() else None)
    number = preview["action"]
    lines = [replaced_words(preview["logged"], preview["instead"]),
             *_later_lines(preview), *_money_lines(preview)]
    return {"question": _("Correct action {number} of hand {n}?", number=number, n=n),
            "detail": _("The hand goes back to before action {number}; what really happened "
                        "is logged in its place, then each later action again, as it was, "
                        "while the rules still allow it. Every undone action stays in the "
                        "history.", number=number),
            "fields": {"how": "corrected", "instead": preview["instead"],
                       "expected_seq": preview["seq"]},
            "yes": _("Yes, correct action {number}", number=number), "lines": lines}


def replaced_words(logged: str, instead: str) -> str:
    """``Jürgen zieht 3♠ statt 9♠``: the action as it really was and what it
    replaces (only its cards when the same player did the same thing)."""
    old, new = parse_action(logged), parse_action(instead)
    if old.player == new.player and old.verb == new.verb and old.cards \
            and old.spread == new.spread:
        return _("{action} instead of {cards}", action=action_words(instead),
                 cards=" ".join(card_label(c) for c in old.cards))
    return _("{action} instead of: {logged}", action=action_words(instead),
             logged=action_words(logged))


def _later_lines(preview: dict) -> list[str]:
    done, left = preview["again"], preview["left"]
    if not done and not left:
        return []
    lines = []
    if done:
        lines.append(ngettext("The {num} later action is logged again after it, as it was.",
                              "The {num} later actions are logged again after it, as they "
                              "were.", len(done), num=len(done)) if not left else
                     ngettext("The {num} later action before it is logged again, as it was.",
                              "The {num} later actions before it are logged again, as they "
                              "were.", len(done), num=len(done)))
    later, shows = _shows_apart(left, preview["stopped"])
    if later:
        lines.append(stopped_words(later[0], preview["stopped"]))
        lines.append(ngettext("Left for you to log from there: {actions}",
                              "Left for you to log from there ({num}): {actions}", len(later),
                              num=len(later), actions="; ".join(action_words(t) for t in later)))
    if shows:
        lines.append(shows)
    return lines


def _shows_apart(left: list[str], stopped: dict | None) -> tuple[list[str], str]:
    """The actions left for the host, and the shows among them said apart when
    the play is on again (a corrected drop): those are not logged now but
    when the play ends, with the cards held then (newcomer45 P10: they were
    listed as left to log, each with its cards)."""
    if not left or (stopped or {}).get("code") != SHOW_TOO_EARLY:
        return left, ""
    shows = [t for t in left if parse_action(t).verb == "show"]
    return [t for t in left if t not in shows], _(
        "The hands of {names} are shown at the end of the play, not now.",
        names=Names(parse_action(t).player for t in shows))


def stopped_words(text: str, stopped: dict) -> Markup:
    """The first later action the rules no longer allow, and why."""
    return Markup("{} \u2014 ").format(_("Not logged again: {action}",
                                        action=action_words(text))) \
        + sentence(Refused.from_dict(stopped))


def _money_lines(preview: dict) -> list[str]:
    cur = g.summary.get("currency")
    before, after = preview["net"], preview["net_after"]
    if before and not after:
        return [taken_back(name, net, cur) for name, net in before.items() if Decimal(net)] + \
            [_("The hand is in play again from there.")]
    if not after:
        return []
    return [_("{name}: {amount} in this hand, not {old}", name=name, amount=money(net, cur),
              old=money(before[name], cur)) if name in before else
            _("{name}: {amount} in this hand", name=name, amount=money(net, cur))
            for name, net in after.items()
            if name not in before or Decimal(before[name]) != Decimal(net)]


def taken_back(name: str, net: str, currency: str | None) -> str:
    """A player's money of a hand taken back, said plainly: "Ann no longer
    wins $1.00 in this hand" ("Ann: -$1.00 of this hand is taken back" read
    as a double negative)."""
    amount = money(abs(Decimal(net)), currency)
    return _("{name} no longer wins {amount} in this hand", name=name, amount=amount) \
        if Decimal(net) > 0 else \
        _("{name} no longer loses {amount} in this hand", name=name, amount=amount)


def settled_flash(k: int, n: int, answer: dict) -> list[tuple[str, str]]:
    """What the second tap did, said: the action put right and how many
    later ones were logged again; what is left for the host, and why."""
    again = len(answer.get("again") or ())
    left, shows = _shows_apart(answer.get("left") or [], answer.get("stopped"))
    done = "\u2713 " + _("Dispute {k} of hand {n} is settled: {change}.", k=k, n=n,
                         change=replaced_words(answer["undone"][-1], answer["instead"]))
    if again:
        done += " " + ngettext("{num} later action was logged again.",
                               "{num} later actions were logged again.", again, num=again)
    elif answer.get("left"):
        done += " " + _("No later action was logged again.")
    said = [("ok", done + (" " + shows if shows else ""))]
    if left and answer.get("stopped"):
        rest = (_("Log it as it really was.") if len(left) == 1 else
                ngettext("Log it and the {num} action after it as they really were.",
                         "Log it and the {num} actions after it as they really were.",
                         len(left) - 1, num=len(left) - 1))
        said.append(("error", stopped_words(left[0], answer["stopped"]) + " " + rest))
    return said


def settle_instead(session_id: str, n: int, k: int):
    """The second tap of a correction by the action as it really was: done
    and said (``settled_flash``), or refused and why, on the hand's page."""
    try:
        seats.check_seat(g.access)  # settling is the host's
        answer = disputes.settle_dispute(
            get_db(), session_id, n, k - 1, "corrected", request.form.get("by", ""),
            form_client_id(), instead=request.form.get("instead", ""),
            expected_seq=whole(request.form.get("expected_seq", "")))
    except RefereeError as err:
        flash_refused(err, _settling(k, n))
    else:
        for kind, line in settled_flash(k, n, answer):
            flash(line, kind)
    return redirect(_to_hand(session_id, n), 303)
