"""The hand screen: a hand's page drawn from its state, the tap that logs an
action (``service.table.action``, the API's path too) and the undo."""

from __future__ import annotations

from decimal import Decimal

from flask import (
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.datastructures import MultiDict

from ...rules.actions import as_taken, parse_action
from ...rules.cards import UNKNOWN, card_label, sort_cards
from ...rules.numbers import whole
from ...rules.phases import PLAY, PLAY_VERBS, START, START_VERBS, turn_after
from ...service.access import seats
from ...service.errors import RefereeError, RuleViolation, StaleSeq
from ...service.table import action, disputes, following, hands, sessions, sight
from ...service.table.history import hand_history, record
from .. import again, forms
from ..db import get_db
from ..errors import flash_refusal
from ..forms import FormError
from ..lang import _, action_words, names, ngettext, outcome, say, told
from .blueprint import (
    bp,
    may_act_for,
    most_count,
    pad_ranges,
    page_access,
    seat_may,
    table_rules,
    table_sections,
    table_summary,
    told_state,
    unlocked,
)
from .session import STANDINGS_LAST, marked_disputes


@bp.get("/s/<session_id>/hands/<int:n>")
@unlocked
def hand(session_id: str, n: int):
    return _hand_page(session_id, n, told_state(session_id, n))


def _hand_page(session_id: str, n: int, state: dict):
    """The hand's page drawn from its state (read, or returned by a tap)."""
    summary = g.summary
    state = sight.hand(disputes.with_settlements(get_db(), session_id, n, state), g.access)
    rules = table_rules(summary)
    players = [p["name"] for p in state["players"]]
    history = sight.history(hand_history(get_db(), session_id, n), state, g.access)
    holders = holders_of(state)
    legal = [parse_action(t) for t in state.get("legal") or ()]
    actors = [a for a in actors_of(state, players)
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
        unknown_tile=unknown_tile(state, verbs),
        grid=forms.card_grid(rules.deck, rules.jokers),
        **_picked(session_id, n),
        most=most_count(summary),
        ranges=pad_ranges(summary, state["players"]),
        seen=unpickable(state, history, holders, actors, rules.deck_info.cards),
        # For offline.js: the cards played where nobody holds them, the shows
        # of known hands (a tap with nothing picked), the deck's cards as a
        # person reads them and how the turn goes on, when it keeps taps.
        played=_seen_cards(state, history, holders),
        known_shows=[record(a) for a in legal if a.verb in ("show", "declare")],
        deck=deck_labels(rules.deck_info),
        red=red_cards(rules.deck_info),
        unknown=UNKNOWN,
        turns=turns(state, players, rules),
        holders=holders,
        mine=set(known_of(state, state.get("to_act"))),
        history=history,
        live_count=sum(not h["undone"] for h in history),
        show_all=_show_all(state, legal),
        must_declare=_must_declare(state, actors, rules),
        yours=_yours(state, players, summary),
        unaccepted=_unaccepted(session_id, n, players),
        count_skip=count_skip(players, state.get("must_show") or ()),
        client_id=forms.new_client_id(),
        **_standings(session_id) if state.get("complete") else {"standings": None, "sec": None},
        # Only the newest hand can still be corrected; the service refuses the rest.
        current=(summary.get("current") or {}).get("hand") == n,
        **_side_bets(session_id, n, state),
    )


def unknown_tile(state: dict, verbs: set[str]) -> bool:
    """Whether the picker offers "??": a card only a draw or a take may name,
    and a draw from the empty stock names none (it ends the play)."""
    naming = {"take"} if state.get("stock") == 0 else {"draw", "take"}
    return bool(verbs & naming)


def _standings(session_id: str) -> dict:
    """A settled hand's page shows the standings: the result's sections and
    the newest hands' lines, written as they are."""
    sec = table_sections(session_id)
    lines = sessions.hand_lines(get_db(), session_id, newest=STANDINGS_LAST, of=sec.result)
    return {"sec": sec, "standings": marked_disputes(get_db(), session_id, lines)}


def _side_bets(session_id: str, n: int, state: dict) -> dict:
    """A settled hand's side bets in the reader's language, and its nets with
    the pots in them (the result's own nets leave them out; the totals, the
    standings and the replay's result count them)."""
    result = state.get("result")
    if not state.get("complete") or not result or not result.get("side_bets"):
        return {"side_bet_lines": [], "nets": result.get("net", {}) if result else {}}
    story, won = hands.side_bets(get_db(), session_id, n)
    nets = {p: str(Decimal(v) + won.get(p, 0)) for p, v in result["net"].items()}
    return {"side_bet_lines": [say(words) for words in story], "nets": nets}


def _yours(state: dict, players: list[str], summary: dict) -> str | None:
    """What a seat's phone asks its player to do on this hand now: ``accept``
    its result, ``show`` their hand, take their ``turn``; None: nothing (or
    not a seat's phone)."""
    me = g.access.player
    if g.access.writes or me not in players or summary.get("closed") or state.get("void"):
        return None
    if state.get("complete"):
        return "accept" if me not in (state.get("accepted") or ()) else None
    if me in (state.get("must_show") or ()):
        return "show"
    return "turn" if state.get("to_act") == me else None


def _unaccepted(session_id: str, n: int, players: list[str]) -> int | None:
    """The hand before this one when it was settled (not void) with this
    seat's player in it and they have not accepted it: the phone moved on
    with the table, and the page says where it still waits for them."""
    me = g.access.player
    if g.access.writes or not me or n < 2 or g.summary.get("closed"):
        return None
    line = sessions.settled_lines(get_db(), session_id, n - 1, n - 1).get(n - 1)
    if not line or line.get("outcome") == "void" or me not in line.get("net", {}):
        return None
    accepted = sessions.accepted_between(get_db(), session_id, n - 1, n - 1).get(n - 1, ())
    return n - 1 if me not in accepted else None


def count_skip(players: list[str], must_show) -> list[int]:
    """The seats whose count this device's pad does not ask: those with nothing
    to show, and on a seat's phone every seat but its own (another player's
    count would have the whole tap refused)."""
    return [i for i, p in enumerate(players)
            if p not in must_show or not (g.access.writes or p == g.access.player)]


def _show_all(state: dict, legal: list) -> list[str]:
    """The shows the referee can log by itself (hands it knows entirely), for
    one tap instead of one per player (on a seat's phone, never another's)."""
    out = [str(a) for a in legal if a.verb == "show" and a.player in (state.get("must_show") or ())
           and (g.access.writes or a.player == g.access.player)]
    return out if len(out) > 1 else []


def unpickable(state: dict, history: list[dict], holders: dict[str, str],
                actors: list[dict], deck: frozenset[str]) -> set[str]:
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
                if actors[0].get("second"):
                    keep.add(actors[0]["second"])
            return deck - keep
    return seen - {a["second"] for a in actors if a.get("second")}


def actors_of(state: dict, players: list[str]) -> list[dict]:
    """Who may act now and with which verbs: the player to act first, then
    anyone else who may slap, declare or show."""
    verbs = state.get("verbs") or {}
    order = sorted(verbs, key=lambda q: (q != state.get("to_act"), players.index(q)))
    # Under pickup_depth 2 the card below the top is a take of its own.
    second = state.get("second")
    second = second if second and second != UNKNOWN else None
    return [{"name": q, "seat": players.index(q), "verbs": verbs[q],
             "second": second if "take" in verbs[q] else None} for q in order]


def _must_declare(state: dict, actors: list[dict], rules) -> list[str]:
    """Who holds a deal win the referee sees and must declare before anyone
    draws (``deal_win_declare`` must): the player to act was offered only
    "Declare", with no word why the draw was gone (the newcomer's night,
    F26). A hand the referee knows whole and may declare holds a claim: a
    declaration of a hand without one is refused, so not offered."""
    if rules.deal_win_declare != "must" or str(state.get("phase")) != str(START):
        return []
    if "draw" in next((a["verbs"] for a in actors if a["name"] == state.get("to_act")), ["draw"]):
        return []
    whole = {p["name"] for p in state.get("players", ()) if not p.get("unknown")}
    return [a["name"] for a in actors if "declare" in a["verbs"] and a["name"] in whole]


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
            seen.update(h["cards"])
    seen.discard(UNKNOWN)
    return seen - set(holders)


def deck_labels(deck) -> list[tuple[str, str]]:
    """The table's cards as a person reads them, in the order a hand is
    sorted, and the unknown card: offline.js writes a card from this alone."""
    return [(c, card_label(c)) for c in sort_cards(deck.cards)] + [(UNKNOWN, UNKNOWN)]


def red_cards(deck) -> list[str]:
    """The table's red cards, for offline.js to write a hand as a page does."""
    return [c for c in sort_cards(deck.cards) if forms.card_colour(c) == "red"]


def turns(state: dict, players: list[str], rules) -> dict:
    """How the turn goes on, for offline.js to show what follows taps kept
    offline by asking, not guessing: whose turn it is and where (``start``
    or ``play``; None: anything else, where the page says nothing), who
    starts after each seat's discard, the verbs of each part of a turn,
    where each verb leaves the turn (``rules.phases.turn_after``) and how
    many cards each player holds (a kept tap that empties a hand leaves what
    follows to the referee: the hand may be over) and which of them this
    page may know (the hand shown follows the kept taps)."""
    where = {str(START): "start", str(PLAY): "play"}.get(str(state.get("phase")))
    return {"to_act": state.get("to_act") if where else None, "phase": where,
            "held": {p["name"]: p["cards"] for p in state.get("players", ())},
            "known": {p["name"]: p.get("known", []) for p in state.get("players", ())},
            "next": {p: players[(i + 1) % len(players)] for i, p in enumerate(players)},
            "start": list(START_VERBS), "play": list(PLAY_VERBS),
            "after": turn_after(rules.hit_replaces_discard)}


def known_of(state: dict, name: str | None) -> list[str]:
    for p in state.get("players", ()):
        if p["name"] == name:
            return p.get("known", [])
    return []


def holders_of(state: dict) -> dict[str, str]:
    """Known cards in hands, with who holds them (the picker marks them)."""
    out = {}
    for p in state.get("players", ()):
        for c in p.get("known", ()):
            out[c] = p["name"]
    return out


@bp.get("/s/<session_id>/hands/<int:n>/seq")
def hand_seq(session_id: str, n: int):
    """How far the hand has got, for tablet.js to notice another tablet's action."""
    table_summary(session_id)
    if page_access(session_id) is None:
        abort(403)
    state = told_state(session_id, n)
    return jsonify({"seq": state["seq"], "complete": bool(state.get("complete"))})


@bp.post("/s/<session_id>/hands/<int:n>/act")
@unlocked
@seat_may
def act(session_id: str, n: int):
    """Log the tapped action. One that ends play (money moves) is first shown
    with what it settles, and logged on the second tap (``confirm``)."""
    target = url_for("tablet.hand", session_id=session_id, n=n)
    try:
        before = told_state(session_id, n)
        texts = tapped(before)
    except FormError as err:
        return _form_refused(err, session_id, n, before, target)
    refused = next(filter(None, (may_act_for(seats.actor_of(t)) for t in texts)), None)
    if refused is not None:
        flash_refusal(refused, texts[0])
        return redirect(target, 303)
    client_id = request.form.get("client_id") or forms.new_client_id()
    done = _logged(session_id, n, texts, client_id)
    if done.refused is not None and not done.logged and _counted(texts):
        return _counts_refused(session_id, n, done, before, target)
    done = _known_shown(session_id, n, done, client_id)
    if done.preview:
        # The confirm step is a page of its own, reached by a GET: back and
        # forward then never meet this post ("Confirm Form Resubmission").
        session[_KEPT_TAP] = {"at": f"{session_id}/{n}", "form": _keepable(request.form)}
        return redirect(url_for("tablet.confirm_tap", session_id=session_id, n=n), 303)
    _keep_sent(session_id, n, before, done)
    # What was logged first, then what was not: "✓ Anna drops; ✓ Ben shows a
    # count of 20." above "Not logged: Anna shows a count of 5 — ...".
    if done.logged:
        flash(_over(n, done.state) or "; ".join(
            "\u2713 " + action_words(_with_card_taken(t, before.get("top")),
                                      stock_empty=before.get("stock") == 0)
            for t in done.logged) + ".", "ok")
    if done.refused:
        flash_refusal(done.refused, done.refused_text)
    if request.headers.get("X-Tablet-Swap"):
        # A tap answered before shows the hand as it is now.
        state = hands.hand_state(get_db(), session_id, n) if done.replayed else done.state
        return _swapped_page(session_id, n, told(state), target)
    return redirect(target, 303)


def _logged(session_id: str, n: int, texts: list[str], client_id: str):
    """The tap logged (or previewed, or refused: ``action.Logged``), judged
    whole (``action.log_action``): a drop with every count typed is logged with all of them or not
    at all (newcomer N10: one impossible count after a drop logged the drop
    and the three good counts, and refused the fourth)."""
    try:
        return action.log_action(get_db(), session_id, n, texts, client_id,
                                 whole(request.form.get("expected_seq", "")),
                                 confirm=bool(request.form.get("confirm")), legal=True)
    except (RuleViolation, StaleSeq) as err:  # nothing logged: the hand as it is
        return action.Logged([], hands.hand_state(get_db(), session_id, n), refused=err,
                             refused_text=texts[0])


def _counted(texts: list[str]) -> bool:
    """Whether a tap named counts typed on a pad (a drop's second tap, or
    "Log these counts"): a refusal of it keeps them for the pad. One count
    alone is a pad's too: a seat's phone sends its own player's only
    (newcomer46 N4: its pad came back empty)."""
    return any(parse_action(t).count is not None for t in texts)


def _counts_refused(session_id: str, n: int, done, before: dict, target: str):
    """A tap with counts typed on a pad that was refused, nothing logged: the
    pad's page again, every count as typed, with the refusal (it names the
    player, the count and what their hand can count). A drop's second tap
    goes back to its confirm page, whose pad it was; "Log these counts" to
    the hand's page."""
    flash_refusal(done.refused, done.refused_text)
    counts = {k: v for k, v in request.form.items() if k.startswith("count")}
    if request.form.get("confirm"):
        form = [(k, v) for k, v in _keepable(request.form) if k not in ("confirm", "show_known")]
        session[_KEPT_TAP] = {"at": f"{session_id}/{n}", "form": form}
        return redirect(url_for("tablet.confirm_tap", session_id=session_id, n=n), 303)
    session[_PICKED] = {"at": f"{session_id}/{n}", "counts": _short(counts)}
    if request.headers.get("X-Tablet-Swap"):
        return _swapped_page(session_id, n, before, target)
    return redirect(target, 303)


def _short(counts: dict[str, str]) -> dict[str, str]:
    """The counts a session keeps: a pad's fields (``count<seat>``), short."""
    return {k: v[:3] for k, v in list(counts.items())[:16] if len(k) < 10}


def _keep_sent(session_id: str, n: int, before: dict, done) -> None:
    """Nothing waits for a second tap any more (logged or refused); a second
    tap that logged keeps what it logged, so that Back to its confirm page
    says so (newcomer N18: the page came back with its buttons greyed, a dead
    end with no word why)."""
    if not (request.form.get("confirm") and done.logged):
        session.pop(_KEPT_TAP, None)
        return
    session[_KEPT_TAP] = {"at": f"{session_id}/{n}",
                          "logged": [_with_card_taken(t, before.get("top")) for t in done.logged],
                          "stock_empty": before.get("stock") == 0}


def _form_refused(err: FormError, session_id: str, n: int, state: dict, target: str):
    """A tap the form refused (a hit without its spread): said, and the cards
    picked and the spread chosen stay (newcomer N1: a hit tapped before its
    spread lost its card while the page asked for the spread): the page is
    drawn again with them, not sent empty."""
    flash(str(err), "error")
    session[_PICKED] = {"at": f"{session_id}/{n}",  # a card's name is short
                        "cards": [c for c in request.form.getlist("card")[:60] if len(c) < 4],
                        "spread": request.form.get("spread", "")[:8]}
    if request.headers.get("X-Tablet-Swap"):
        return _swapped_page(session_id, n, state, target)
    return redirect(target, 303)


def _swapped_page(session_id: str, n: int, state: dict, target: str):
    """The answer tablet.js swaps in: the hand page itself, drawn from the
    state the tap returned, without the redirect's second request; it says
    the table's event it shows (live.js then need not fetch it again)."""
    g.summary = {**g.summary, **dict(zip(("seq", "head"),
                                         following.chain_end(get_db(), session_id),
                                         strict=True))}
    page = current_app.make_response(_hand_page(session_id, n, state))
    page.headers["X-Hand-Page"] = target
    page.headers["Cache-Control"] = "no-store"
    return page


def _over(n: int, state) -> str | None:
    """The flash of the tap that ended the hand: its result, in the words the
    result says it with (the outcome's name, who wins), not the tap's actions
    run on (newcomer F2: "✓ Cleo draws…; ✓ Anna shows…; ✓ …" above the
    result). None: the hand goes on."""
    result = (state or {}).get("result")
    if not (state or {}).get("complete") or not result:
        return None
    winners = result.get("winners") or []
    said = outcome(result.get("outcome"))
    if not winners:
        return "\u2713 " + _("Hand {n} is over: {outcome}.", n=n, outcome=said)
    return "\u2713 " + ngettext("Hand {hand} is over: {outcome}, {winners} wins.",
                                 "Hand {hand} is over: {outcome}, {winners} win.",
                                 len(winners), hand=n, outcome=said, winners=names(winners))


def _known_shown(session_id: str, n: int, done, client_id: str):
    """A drop confirmed with "show every known hand" (its confirm page offers
    it when the referee knows them: newcomer F3, five taps and two confirm
    pages for a drop with every card entered): the shows of the hands known
    entirely, logged after it as the hand page's own button logs them."""
    if not request.form.get("show_known") or not done.logged or done.refused or \
            done.state is None or done.state.get("complete"):
        return done
    shows = _show_all(done.state, [parse_action(t) for t in done.state.get("legal") or ()])
    if not shows:
        return done
    try:
        after = action.log_action(get_db(), session_id, n, shows, f"{client_id}-shows", None,
                                  confirm=True, legal=True)
    except RefereeError:  # the hand moved on: the drop alone was logged
        return done
    if after.refused:
        flash_refusal(after.refused, after.refused_text)
    return action.Logged([*done.logged, *after.logged], after.state, replayed=after.replayed)


def _with_known_shows(session_id: str, n: int, texts: list[str], preview: dict,
                      seq: int | None) -> dict | None:
    """What the confirm page's "log it and show every known hand" settles
    (newcomer44 P17: it settled the hand with no preview, where the two-step
    way shows who pays whom): the tap and every known show judged together,
    never logged here. None when the button is not offered."""
    known = preview.get("known_shows") or []
    if preview.get("result") or len(known) < 2 or not g.access.writes:
        return None
    try:
        return action.preview(get_db(), session_id, n, [*texts, *known], seq)
    except (RuleViolation, StaleSeq):
        return None


def _keepable(form) -> list[tuple[str, str]]:
    """The tap's fields the confirm step keeps in the session, within what a
    session cookie holds (``again``'s bounds): a field typed long to break it
    made the browser drop the cookie whole, and with it the tables this
    tablet unlocked. A tap's own fields are short; the confirm page judges
    what is kept again."""
    kept, size = [], 0
    for k, v in again.fields(form):
        size += len(k) + len(v)
        if size > again.MOST_KEPT:
            break
        kept.append((k, v))
    return kept


def _with_card_taken(text: str, top: str | None) -> str:
    """A take as the flash says it: with the card it took (the pile's top
    before the tap), as the history names it; the log line names none."""
    return str(as_taken(parse_action(text), top))


def tapped(state: dict, form=None) -> list[str]:
    """The log lines of the actions a tap's form names (``forms.tap_actions``)."""
    players = [p["name"] for p in state["players"]]
    legal = [parse_action(t) for t in state.get("legal") or ()]
    return [str(a) for a in forms.tap_actions(request.form if form is None else form,
                                              players, legal)]


# The tap waiting for its second tap, kept in this browser's session while its
# confirm page is shown (and shown again by back and forward).
_KEPT_TAP = "tap"
# The cards picked and the spread chosen by a tap the form refused, kept for
# the page drawn next.
_PICKED = "picked"


def _picked(session_id: str, n: int) -> dict:
    """The picker's ``checked`` cards and the spread ``chosen`` for this page."""
    kept = session.pop(_PICKED, None) or {}
    if kept.get("at") != f"{session_id}/{n}":
        kept = {}
    return {"picked": kept.get("cards") or (), "chosen": kept.get("spread"),
            "typed": kept.get("counts")}


@bp.get("/s/<session_id>/hands/<int:n>/confirm")
@unlocked
def confirm_tap(session_id: str, n: int):
    """The second tap before money moves: what the kept tap settles, judged
    again now and never logged here (the hand's page when there is nothing
    to confirm: no tap kept, or it was logged, or the hand moved on)."""
    target = url_for("tablet.hand", session_id=session_id, n=n)
    kept = session.get(_KEPT_TAP)
    if not kept or kept.get("at") != f"{session_id}/{n}":
        return redirect(target, 303)
    if "logged" in kept:  # sent: what it logged, and the way on
        return render_template("confirm.html", summary=g.summary, session_id=session_id,
                               n=n, sent=kept["logged"], stock_empty=kept["stock_empty"],
                               back=target)
    form = MultiDict(kept["form"])
    try:
        state = told_state(session_id, n)
        texts = tapped(state, form)
        preview = action.preview(get_db(), session_id, n, texts,
                                 whole(form.get("expected_seq", "")))
    except (FormError, RuleViolation, StaleSeq):
        preview = None
    if preview is None:  # back to a confirm page whose hand moved on: the hand as it is
        return redirect(target, 303)
    g.lang_back = target  # the language switch leads to the hand
    return render_template("confirm.html", summary=g.summary, session_id=session_id,
                           n=n, preview=preview, form=form, texts=texts,
                           shown=_with_known_shows(session_id, n, texts, preview,
                                                   whole(form.get("expected_seq", ""))),
                           stock_empty=state.get("stock") == 0,
                           players=preview["players"], most=most_count(g.summary),
                           ranges=pad_ranges(g.summary, state["players"]),
                           count_skip=count_skip(preview["players"],
                                                 preview.get("must_show") or ()),
                           client_id=form.get("client_id"),
                           expected_seq=form.get("expected_seq", ""), back=target)


@bp.post("/s/<session_id>/hands/<int:n>/undo")
@unlocked
def undo(session_id: str, n: int):
    client_id = request.form.get("client_id") or forms.new_client_id()
    seq = request.form.get("expected_seq", "")
    expected = whole(seq)
    try:
        hands.undo(get_db(), session_id, n, client_id, expected)
    except (RuleViolation, StaleSeq) as err:  # NotFound: the 404 page
        flash_refusal(err, "undo")
    else:
        undone = hands.last_undone(get_db(), session_id, n)
        flash(_("Undone: {action}. It stays in the history, marked as undone.",
                action=action_words(undone) if undone else _("the last action")), "ok")
    return redirect(url_for("tablet.hand", session_id=session_id, n=n), 303)
