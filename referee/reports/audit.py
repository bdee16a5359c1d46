"""The audit of one disputed hand on paper: every action in order with the
state after it, every refused or corrected action with the rule that decided
it, and the payment worked out in words. The judging is the replay's
(``replay/audit.py``: ``audit_hand``); this module only draws it.
"""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import KeepTogether, Paragraph, Table, TableStyle

from .. import language

# The judging is the replay's; the names its callers import from here.
from ..record.chain import PRINTED_HEAD
from ..record.events import note_as_kept
from ..record.kinds import EventKind
from ..replay.audit import (  # noqa: F401
    STATUSES,
    HandAudit,
    Step,
    audit_hand,
    events_from_log,
    events_from_storage,
    start_hand_copy,
)
from ..rules.actions import FROM_THE_PILE, as_taken, parse_action
from ..rules.cards import card_label, pretty
from ..rules.errors import RefereeError
from ..rules.told import COUNTED, FACT_WORDS, HOW_WORDS, TOLD, Told
from ..rules.words import N_
from .common import (
    FONT_BOLD,
    amount,
    cash,
    currency_of,
    document,
    esc,
    footer,
    hash_line,
    paper_language,
    plurals,
    receipt,
    register_fonts,
    rules_in_words,
    stake_amount,
    stakes_words,
    styles,
    unit_of,
    words,
)
from .sections import TableRef
from .settlement import outcome_words
from .words import (
    SCORING,
    error_in,
    match_words,
    reason_in,
    scoring_words,
    story_in,
    table_named,
    void_reason_in,
)


def _stakes(n: Decimal, lang: str = language.DEFAULT) -> str:
    return stakes_words(n, lang)


def payment_lines(audit: HandAudit, lang: str = language.DEFAULT) -> list[str]:
    """Each payment in stakes and in money (or points), in ``lang``."""
    r = audit.result
    if r is None:
        return []
    _ = words(lang)
    push_ups = audit.session.rules.scoring == "push_ups"
    per = audit.session.hand_stake(audit.setup) * r.multiplier
    currency = currency_of(audit.session.log, audit.session.rules)
    unit = unit_of(audit.session.log, audit.session.rules, lang)
    out = []
    for p in r.settlement.payments:
        stakes = _stakes(p.stakes, lang)
        reason = reason_in(p.reason, lang)
        if push_ups:
            out.append(_("{payer} pays {payee} {stakes} ({reason}).", payer=p.payer,
                         payee=p.payee, stakes=stakes, reason=reason))
            continue
        money = p.stakes * per
        value = cash(money, audit.quantum, currency, unit, lang)
        out.append(_("{payer} pays {payee} {stakes} = {amount} ({reason}).",
                     payer=p.payer, payee=p.payee, stakes=stakes, amount=value,
                     reason=reason))
    return out


def audit_json(audit: HandAudit) -> dict:
    """The audit as data (``referee audit --json``), its payments in words."""
    r = audit.result
    numbers = action_numbers(audit)
    return {
        "hand": audit.number,
        "dealer": audit.hand.dealer,
        "players": list(audit.hand.players),
        # ``action``'s number as the papers print it (none: a refusal, an undo, the deal)
        "steps": [{**s.to_json(), "number": numbers.get(s.index)} for s in audit.steps],
        "fault": audit.fault.to_dict() if audit.fault else None,
        "result": None if r is None else {
            **r.to_json(audit.quantum),
            "story": list(r.settlement.story),
            "payments": payment_lines(audit),
        },
    }


# ------------------------------------------------------------------ the PDF


def describe_state(state: dict, lang: str = language.DEFAULT) -> list[str]:
    """The public state in short lines: hands, pile, spreads, waits, who acts."""
    _ = words(lang)
    ngettext = plurals(lang)
    lines = []
    for p in state["players"]:
        known = " ".join(map(card_label, p["known"]))
        hidden = p["unknown"]
        if hidden and known:
            cards = _("{known} +{n} unknown", known=known, n=hidden)
        elif hidden:
            cards = _("{n} unknown", n=hidden)
        else:
            cards = known
        if not p["cards"]:
            cards = _("no cards")
        count = (" " + _("(count {n})", n=p["count"])
                 if p["count"] is not None and p["cards"] else "")
        wait = ", " + _("waits {n}", n=p["waiting"]) if p["waiting"] else ""
        shown = ", " + _("shown") if p["shown"] else ""
        lines.append(f"<b>{esc(p['name'])}</b>: {esc(cards)}{count}{wait}{shown}")
    top = card_label(state["top"]) or _("empty")
    n = state["pile"]
    cards = ngettext("{n} card", "{n} cards", n)
    lines.append(_("Discard pile: top {top} ({cards}); stock {stock}", top=top, cards=cards,
                   stock=state["stock"]))
    if state["spreads"]:
        lines.append(_("Spreads: {spreads}", spreads="; ".join(
            f"{s['id']} ({esc(s['owner'])}) {' '.join(map(card_label, s['cards']))}"
            for s in state["spreads"])))
    if state["to_act"]:
        lines.append(_("Next: {player}", player=esc(state["to_act"])))
    elif state["must_show"]:
        lines.append(_("To show: {players}", players=esc(", ".join(state["must_show"]))))
    elif state["complete"]:
        lines.append(_("The hand is complete"))
    return lines


STATUS_WORDS = {
    "setup": N_("deal"),
    "accepted": N_("accepted"),
    "refused": N_("refused"),
    "corrected": N_("correction"),
    "fault": N_("breaks a rule"),
}
STATUS_COLOURS = {
    "refused": colors.HexColor("#FDECEA"),
    "corrected": colors.HexColor("#FFF4D6"),
    "fault": colors.HexColor("#F9D3CF"),
}


DISPUTED = colors.HexColor("#E8EEFB")


def _when(value: str | None, lang: str, zone: str | None = None) -> str | None:
    from .settlement import _when as when

    return when(value, lang, zone)


def _event_rows(setup: dict, lang: str) -> list[tuple[str, str]]:
    """The hand's own events in the audit's heading: void, and who accepted."""
    _ = words(lang)
    rows = []
    if "void" in setup:
        rows.append((_("Void"), _("{reason}: the hand was cancelled, nobody pays",
                                  reason=void_reason_in(setup["void"], lang))))
    accepted = setup.get("accepted")
    if accepted:
        rows.append((_("Accepted by"), _("{players} (in the order they confirmed)",
                                         players=", ".join(accepted))))
    elif "void" not in setup:
        rows.append((_("Accepted by"), _("nobody has confirmed the result")))
    return rows


def _disputes_block(audit: HandAudit, lang: str, settled: dict[int, dict] | None = None,
                    zone: str | None = None) -> list:
    """Every dispute of the hand: those of one action are also shown beside
    it in the table above; those of the whole hand only here."""
    lines = dispute_lines(audit, lang, settled, zone)
    if not lines:
        return []
    _ = words(lang)
    st = styles()
    out: list = [Paragraph(_("Disputes"), st["h2"]), Paragraph(
        _("Objections kept for the record. A dispute changes no result: the table settles it "
          "by a correction (shown above) or lets the record stand."), st["small"])]
    out.extend(Paragraph(text, st["bullet"], bulletText="•") for text in lines)
    return out


def dispute_lines(audit: HandAudit, lang: str, settled: dict[int, dict] | None = None,
                  zone: str | None = None) -> list[str]:
    """Each dispute of the hand in a line of markup (names and notes
    escaped, who and how it was settled in bold): the paper and the step
    view say them alike."""
    _ = words(lang)
    read, numbers = actions_read(audit), action_numbers(audit)
    out = []
    for i, d in enumerate(audit.setup.get("disputes") or []):
        what, note = _disputed(audit, d, read, numbers, lang)
        text = _("{player} disputes {what}: “{note}”", player=f"<b>{esc(d['by'])}</b>",
                 what=what, note=esc(language.note_words(note, lang)))
        # a stored session's settling event, else the log's word (an export's)
        done = (settled or {}).get(i) or d.get("settled")
        if done is not None:
            when = _when(done.get("at"), lang, zone) or ""
            text += " · <b>" + (
                _("settled by a correction ({by}, {time})", by=esc(done["by"]), time=when)
                if done["how"] == "corrected" else
                _("settled: the record stands ({by}, {time})", by=esc(done["by"]), time=when)
            ) + "</b>"
        else:  # a log says how each dispute was settled: none said is open
            text += " · <b>" + _("open") + "</b>"
        out.append(text)
    return out


def _disputed(audit: HandAudit, d: dict, read: dict[int, str], numbers: dict[int, int],
              lang: str) -> tuple[str, str]:
    """What a dispute is of, in markup, and its note as the player wrote it."""
    _ = words(lang)
    k, note = d.get("action"), note_as_kept(d)
    # A dispute of an action since undone names no action in the log: it is
    # still about that action, as numbered when it was disputed.
    undone = language.undone_dispute(note) if k is None else None
    if undone is not None:
        number, line, note = undone
        # a take as read where the paper has it (its log line names no card)
        step = next((s for s in reversed(audit.steps) if s.replaced_by is not None
                     and s.action == line and numbers.get(s.index) == number), None)
        return _("action {n} ({action}, since undone)", n=number, action=esc(_action(
            read.get(step.index, line) if step is not None else line, lang))), note
    if k is None:
        return _("the hand as a whole"), note
    if k <= len(audit.steps_in_force):
        step = audit.steps_in_force[k - 1]
        return _("action {n} ({action})", n=k, action=esc(_action(
            read.get(step.index, step.action or ""), lang,
            stock_empty=step.index in empty_stock_draws(audit)))), note
    return _("action {n}", n=k), note


def _match_rows(session, lang: str) -> list[tuple[str, str]]:
    """A match to a score: where it stands after the session's hands."""
    match = session.result(with_money=False).match() if session.rules.match_to is not None else None
    if match is None:
        return []
    return [(words(lang)("Match"), match_words(match, lang))]


def render_audit(audit: HandAudit, *, final_hash: str | None = None,
                 date: str | None = None, table: str | None = None,
                 lang: str | None = None, settled: dict[int, dict] | None = None,
                 retold: list[HandAudit] = ()) -> bytes:
    """The audit PDF of one hand, in ``lang`` (else the log's language);
    ``settled``: how its disputes were settled, by their place (a stored
    session's; None: not known, from a log alone); ``retold``: a told
    hand's earlier tellings (``earlier_tellings``)."""
    register_fonts()
    st = styles()
    session, hand, setup = audit.session, audit.hand, audit.setup
    log = session.log
    lang = paper_language(log, lang)
    _ = words(lang)
    unit = unit_of(log, session.rules, lang)
    currency = currency_of(log, session.rules)
    table_name = table or table_named(TableRef.of(log), lang)
    when = date or _when(log.get("started"), lang, log.get("started")) or _(
        "date not recorded")
    hash_label, hash_in_text, hash_value = hash_line(log, final_hash, lang)
    buf = io.BytesIO()
    doc = document(buf, title=_("Tonk hand audit: {table}, hand {n}", table=table_name,
                                n=audit.number),
                   subject=_("Audit of hand {n} ({players})", n=audit.number,
                             players=", ".join(hand.players)),
                   kind="audit")
    width = doc.width
    story: list = [Paragraph(_("Hand audit: {table}, hand {n}", table=esc(table_name),
                               n=audit.number), st["title"])]
    mult = setup.get("stake_multiplier", 1)
    stake = stake_amount(setup.get("stake", log["stake"]), unit, currency, lang)
    if mult != 1:
        stake += f" × {language.number(mult, lang)}"
    if "stake" in setup:
        stake += " " + _("(this hand's; the session's is {stake})",
                         stake=stake_amount(log["stake"], unit, currency, lang))
    intro, rule_lines = rules_in_words(session.rules, lang)
    info = [
        (_("Date"), when),
        (_("Seats"), _("{players} (dealer {dealer})", players=", ".join(hand.players),
                       dealer=hand.dealer)),
        (_(SCORING), scoring_words(lang)) if session.rules.scoring == "push_ups" else
        (_("Stake"), stake),
        # The options that differ go under the preset, in the Rules row: not
        # after the hash, away from their heading.
        (_("Rules"), [Paragraph(esc(intro), st["body"]),
                      *(Paragraph(line, st["bullet"], bulletText="•") for line in rule_lines)]),
        *_event_rows(setup, lang),
        *_match_rows(session, lang),
        (hash_label, hash_value),
    ]
    t = Table([[Paragraph(esc(k), st["head"]),
                v if isinstance(v, list) else Paragraph(esc(v), st["body"])] for k, v in info],
              colWidths=[32 * mm, width - 32 * mm], hAlign="LEFT")
    t.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                           ("TOPPADDING", (0, 0), (-1, -1), 1),
                           ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]))
    story.append(t)

    if hand.told is not None:
        story.extend(_told_block(audit, retold, width, lang))
    else:
        story.append(Paragraph(_("Action by action"), st["h2"]))
        story.append(Paragraph(
            _("Each row is one event at the table, in order, with the public state once the "
              "referee had dealt with it. A refused action changes nothing; a correction takes "
              "an earlier action out (and may put another in its place), and both stay on "
              "record."), st["small"]))
        story.append(Paragraph(esc(_(NUMBERED)), st["small"]))
        story.extend(_steps_tables(audit, width, lang, settled))
    story.extend(_disputes_block(audit, lang, settled, log.get("started")))

    # The heading goes with what it heads: never alone at the foot of a page.
    heading = Paragraph(_("The result"), st["h2"])
    if audit.fault is not None:
        story.append(KeepTogether([heading, Paragraph(
            _("The hand cannot be settled: {message} [{code}].",
              message=esc(_clip(error_in(audit.fault, lang))),
              code=language.ruled_by(audit.fault, lang, mark=esc)), st["body"])]))
    elif audit.result is None:
        story.append(KeepTogether([heading, Paragraph(
            _("The hand is not finished, so it has no result yet."), st["body"])]))
    else:
        story.append(KeepTogether([heading, *_result_block(audit, width, lang)]))
    page = footer(_("{table} · hand {n}", table=table_name, n=audit.number)
                  + f" · {hash_in_text} {hash_value[:PRINTED_HEAD]}…", lang)
    story += receipt(final_hash, lang)
    doc.build(story, onFirstPage=page, onLaterPages=page)
    return buf.getvalue()


#: What the paper's "#" column counts, said under its heading.
NUMBERED = N_("# is the action's number as the hand counts it, the number a dispute names; "
              "a refusal or an undo is no action and has none.")

#: The headings of a step's two numbers, the paper's first columns and the
#: step view's list alike: the action's number as the hand counts it
#: (``NUMBERED``) and the event's in the table's chain, the number "taken
#: out by event N" names (retell45: the step view named events it did not
#: number).
STEP_NUMBERS = ("#", N_("Event"))


def step_numbers(step, numbers: dict[int, int]) -> tuple[str, str]:
    """A step's two numbers as written under ``STEP_NUMBERS``: its action's
    (``action_numbers``; none for a refusal, an undo or the deal) and its
    event's (none for the deal)."""
    return str(numbers.get(step.index, "")), "" if step.seq is None else str(step.seq)


def event_marks(step, lang: str) -> list[str]:
    """What a step says of the other events it touches, by their numbers:
    the one it replaces, the one that took it out."""
    _ = words(lang)
    marks = []
    if step.replaces is not None:
        marks.append(_("replaces event {n}", n=step.replaces))
    if step.replaced_by is not None:
        marks.append(_("taken out by event {n}", n=step.replaced_by))
    return marks


#: A told hand told again: each telling headed, the first ones with the
#: money they had moved (newcomer P8: the paper showed the last alone, and
#: its dispute said the correction was "shown above").
TELLING_CORRECTED = N_("Telling {k} of {count}, corrected by telling it again:")
TELLING_IN_FORCE = N_("Telling {k} of {count}, the hand as it stands:")
TOOK_BACK = N_("Taken back by the correction: {payment}")
NOBODY_PAID = N_("Taken back by the correction: nothing, nobody paid")


def told_before(events: list[dict]) -> list[dict]:
    """A told hand's endings before its newest telling, first first, from its
    events (the stored session's or a chain's): the ending each correction
    that told it again took out."""
    return [ev["payload"]["ending"] for ev in events
            if ev["kind"] == str(EventKind.CORRECTION) and "ending" in ev["payload"]]


def earlier_tellings(audit: HandAudit, endings: list[dict]) -> list[HandAudit]:
    """The hand audited as each of its earlier ``endings`` told it (the rest
    of the log as it is), for its result then."""
    log = audit.session.log
    hands = list(log["hands"])
    out = []
    for ending in endings:
        hands[audit.number - 1] = {**audit.setup, "ending": ending}
        out.append(audit_hand({**log, "hands": hands}, audit.number))
    return out


def _told_block(audit: HandAudit, retold: list[HandAudit], width: float, lang: str) -> list:
    """How a told hand ended, each telling of it (``tellings``)."""
    _ = words(lang)
    st = styles()
    out: list = [Paragraph(_("How it ended"), st["h2"]), Paragraph(esc(_(TOLD)), st["body"])]
    for heading, rows, paid in tellings(audit, retold, lang):
        if heading:
            out.append(Paragraph(f"<b>{esc(heading)}</b>", st["body"]))
        told = Table([[Paragraph(esc(k), st["head"]), Paragraph(esc(v), st["body"])]
                      for k, v in rows], colWidths=[60 * mm, width - 60 * mm], hAlign="LEFT")
        told.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
        out.append(told)
        out.extend(Paragraph(esc(line), st["bullet"], bulletText="–") for line in paid)
    return out


def retold_of(audit: HandAudit, stored) -> list[HandAudit]:
    """A told hand's earlier tellings as its stored session (or chained log)
    keeps them; none for a played hand or a plain log."""
    if audit.hand.told is None or stored is None:
        return []
    return earlier_tellings(audit, stored.told_before(audit.number))


def tellings(audit: HandAudit, retold: list[HandAudit], lang: str
             ) -> list[tuple[str | None, list[tuple[str, str]], list[str]]]:
    """A told hand's tellings as the paper and the step view say them, first
    first: a heading (None: told once), its rows (``told_rows``) and, for
    one corrected since, the payments it had made, each taken back."""
    count = len(retold) + 1
    out: list[tuple[str | None, list[tuple[str, str]], list[str]]] = []
    for k, earlier in enumerate(retold, 1):
        paid = [language.gettext(lang, TOOK_BACK, payment=line)
                for line in payment_lines(earlier, lang)] or \
            [language.gettext(lang, NOBODY_PAID)]
        out.append((language.gettext(lang, TELLING_CORRECTED, k=k, count=count),
                    told_rows(earlier.hand.told, earlier.hand.players, lang), paid))
    out.append((language.gettext(lang, TELLING_IN_FORCE, k=count, count=count) if retold
                else None, told_rows(audit.hand.told, audit.hand.players, lang), []))
    return out


def told_rows(told: Told, players: tuple[str, ...], lang: str) -> list[tuple[str, str]]:
    """A hand told by its ending, as the table stated it: how and who, the
    counts, the declared hands and the facts, each a (label, value) row."""
    _ = words(lang)
    how = _(HOW_WORDS[told.how]) + (f": {told.by}" if told.by else "")
    rows = [(_("How it ended"), how)]
    if told.counts:
        rows.append((_("Counts"), " · ".join(f"{p} {language.number(told.counts[p], lang)}"
                                             for p in players if p in told.counts)))
    for p, cards in told.declares.items():
        rows.append((_("Declared by {player}", player=p), pretty(" ".join(cards))))
    for fact, value in told.facts.items():
        said = _(FACT_WORDS[fact])
        rows.append((said[:1].upper() + said[1:], _("yes") if value else _("no")))
    return rows


def actions_read(audit: HandAudit) -> dict[int, str]:
    """Each step's action as a person reads it, by the step's ``index``: a take
    names the card it took (``rules.actions.as_taken``: the discard pile's top
    in the state the step before left), as the hand's history does; its log
    line, kept as logged in the audit's data, names none."""
    out, top = {}, None
    for step in audit.steps:
        if step.action:
            out[step.index] = _as_read(step.action, top)
        top = step.state.get("top")
    return out


def action_numbers(audit: HandAudit) -> dict[int, int]:
    """Each step that logged an action (by ``index``) with its number as the
    hand counted it then: its place among the actions in force once logged,
    the "action N" of the hand's history, the dispute form and a dispute. A
    refusal or an undo is no action of the hand and has none; an action
    later taken out keeps the number it had (newcomer P5: the paper's rows
    were numbered with them, and "action 6" was another row)."""
    out: dict[int, int] = {}
    in_force: list[int | None] = []
    for step in audit.steps:
        if step.status == "corrected":
            in_force = [seq for seq in in_force if seq != step.replaces]
        if step.status in ("accepted", "corrected") and step.action:
            in_force.append(step.seq)
            out[step.index] = len(in_force)
    return out


def empty_stock_draws(audit: HandAudit) -> frozenset[int]:
    """The steps (by ``index``) that drew from the empty stock: they drew
    nothing and ended the play, and are said so (their line reads as a draw)."""
    out, stock = set(), None
    for step in audit.steps:
        if stock == 0 and step.status == "accepted" and (step.action or "").endswith(
                (": draw", ": draw ??")):
            out.add(step.index)
        stock = step.state.get("stock")
    return frozenset(out)


def _as_read(text: str, top: str | None) -> str:
    if not any(verb in text for verb in FROM_THE_PILE):  # most steps: no parse (one
        return text  # audit held 6,000 refusals)
    try:
        return str(as_taken(parse_action(text), top))
    except RefereeError:  # a refused line that does not parse: as logged
        return text


def _action(text: str, lang: str, stock_empty: bool = False) -> str:
    """An action as the paper writes it: the log line with suit symbols in
    English (the notation disputes refer to), a sentence in another language;
    a draw from the empty stock (``stock_empty``) in words in every one."""
    return language.action_words(text, lang, stock_empty=stock_empty)


#: A correction step as the audit says it: which step it took back, and
#: (a dispute settled by a correction) whose dispute it settled.
UNDO_OF_STEP = N_("Undo of action {number} ({action})")
UNDO_OF = N_("Undo of {action}")
AFTER_DISPUTE = N_("{undo}: a correction after {player}'s dispute")


def undo_said(audit: HandAudit, step, lang: str, settled: dict[int, dict] | None = None,
              read: dict[int, str] | None = None, numbers: dict[int, int] | None = None) -> str:
    """A correction step in words (newcomer F19: "(undo) (correction)" said
    neither what was taken back nor why): the step it took out, with its
    action, and the dispute it settled where ``settled`` (with each settling
    event's ``seq``) says so."""
    read = actions_read(audit) if read is None else read
    taken = next((s for s in audit.steps
                  if step.replaces is not None and s.seq == step.replaces), None)
    numbers = action_numbers(audit) if numbers is None else numbers
    number = numbers.get(taken.index) if taken is not None else None
    if taken is not None and taken.action and number is not None:
        said = language.gettext(lang, UNDO_OF_STEP, number=number, action=_action(
            _clip(read.get(taken.index, taken.action)), lang))
    elif (step.message or "").startswith("undo of "):
        said = language.gettext(lang, UNDO_OF, action=_action(_clip(step.message[8:]), lang))
    else:  # a correction with a reason of its own: the reason is its ruling
        said = language.gettext(lang, N_("(undo)"))
    who = _settled_by_dispute(audit, step, settled)
    return language.gettext(lang, AFTER_DISPUTE, undo=said, player=who) if who else said


def said_otherwise(audit: HandAudit, lang: str, settled: dict[int, dict] | None = None,
                   read: dict[int, str] | None = None) -> dict[int, str]:
    """The steps (by ``index``) said otherwise than by their line, as the
    paper and the step view say them: a correction, what it took back
    (``undo_said``); a draw from the empty stock, that it ended the play."""
    read = actions_read(audit) if read is None else read
    numbers = action_numbers(audit)
    out = {s.index: undo_said(audit, s, lang, settled, read, numbers)
           for s in audit.steps if s.status == "corrected" and not s.action}
    for k in empty_stock_draws(audit):
        out[k] = _action(read[k], lang, stock_empty=True)
    return out


def restated(step) -> bool:
    """Whether a step's message only says what ``undo_said`` says (a plain
    "undo of ..."): its ruling line would say it twice."""
    return step.status == "corrected" and not step.action and \
        (step.message or "").startswith("undo of ")


def _settled_by_dispute(audit: HandAudit, step, settled: dict[int, dict] | None) -> str | None:
    """Who raised the dispute whose correction ``step`` is part of: its undos
    are the events just before the settling event (None: a plain undo)."""
    disputes = audit.setup.get("disputes") or []
    for k, done in (settled or {}).items():
        end = done.get("seq")
        if done.get("how") != "corrected" or end is None or step.seq is None:
            continue
        if end - len(done.get("undone") or ()) <= step.seq < end and k < len(disputes):
            return disputes[k]["by"]
    return None


def _ruling(step, lang: str) -> str:
    """A step's ruling in ``lang``: a refusal judged again from its code and
    parameters (``Step.error``), else its stored message (an undo's)."""
    if step.error is not None:
        return error_in(step.error, lang)
    return language.undo_words(step.message, lang)


UNCHANGED = N_("as above: a refusal changes nothing")

#: The most of an action's text (and of its refusal's) a paper draws: the API
#: takes 500 characters, a log any number; a 150,000-character line took
#: minutes to lay out (the log keeps it whole).
MOST_DRAWN = 600


#: The most characters of a step's action and refusal that always fit a page
#: in one row; a longer row may be split at a page's end.
LONG_ROW = 400


def _clip(text: str) -> str:
    return text if len(text) <= MOST_DRAWN else text[:MOST_DRAWN] + "…"

#: Steps drawn in one table: reportlab splits a long table at each page by
#: measuring every row left again, so one table of 2,000 steps took 82 s (6,000
#: refusals by one seat: 201 s a paper); tables of this many rows, one after
#: another, cost each step the same.
STEPS_A_TABLE = 40


def _steps_tables(audit: HandAudit, width: float, lang: str,
                  settled: dict[int, dict] | None = None) -> list[Table]:
    """The steps in tables of ``STEPS_A_TABLE`` rows, each with the heading;
    a correction says what it took back (and whose dispute it settled)."""
    steps, read = audit.steps, actions_read(audit)
    undos = said_otherwise(audit, lang, settled, read)
    numbers = action_numbers(audit)
    return [_steps_table(steps[k:k + STEPS_A_TABLE], read, width, lang, undos, numbers)
            for k in range(0, len(steps), STEPS_A_TABLE)]


def _state_after(step, lang: str) -> str:
    """A step's state after it. A refusal changes nothing: its state is the
    one above, said once (each state drawn again is most of a step's cost,
    and one seat posted 6,000 refusals)."""
    if step.status == "refused":
        return f"<i>{esc(language.gettext(lang, UNCHANGED))}</i>"
    return "<br/>".join(describe_state(step.state, lang))


def _step_action(step, read: dict[int, str], lang: str, undos: dict[int, str]) -> list[str]:
    """A step's action (the deal's, a correction's: what it took back), and
    a show given as a count said as such."""
    _ = words(lang)
    if not step.action:
        return ["<i>" + (_("the deal") if step.status == "setup" else
                         esc(undos.get(step.index) or _("(undo)"))) + "</i>"]
    what = [f"<b>{esc(undos.get(step.index) or _action(_clip(read[step.index]), lang))}</b>"]
    if ": show =" in step.action:
        what.append(f"<i>{esc(_(COUNTED))}</i>")  # the referee saw no cards
    return what


def _step_cell(step, read: dict[int, str], lang: str, undos: dict[int, str]) -> list[str]:
    """A step's action cell, line by line: the action (a correction: what it
    took back), then its status, what it replaced, its ruling and disputes."""
    _ = words(lang)
    what = _step_action(step, read, lang, undos)
    if step.status != "setup":
        status = STATUS_WORDS.get(step.status)
        what.append(language.gettext(lang, status) if status else step.status)
    what.extend(event_marks(step, lang))
    if step.code or (step.message and not restated(step)):
        rule = language.ruled_by(step.error, lang, step.code,
                                 lambda code: f"<b>{esc(code)}</b>") if step.code else ""
        message = _clip(_ruling(step, lang))
        what.append(f"{rule}{': ' if rule and message else ''}{esc(message)}")
    if step.note:
        what.append(f"<i>{esc(language.gettext(lang, step.note))}</i>")
    for d in step.disputes:
        what.append(_("{who}: “{note}”",
                      who="<b>" + _("disputed by {player}", player=esc(d["by"])) + "</b>",
                      note=esc(language.note_words(d["note"], lang))))
    return what


def _steps_table(steps: list, read: dict[int, str], width: float, lang: str,
                 undos: dict[int, str], numbers: dict[int, int]) -> Table:
    _ = words(lang)
    st = styles()
    number, event = STEP_NUMBERS
    head = [Paragraph(h, st["head"]) for h in (number, _(event), _("Action"), _("State after"))]
    rows = [head]
    style = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#CCCCCC")),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    longest = 0
    for step in steps:
        r = len(rows)
        what = _step_cell(step, read, lang, undos)
        longest = max(longest, sum(len(w) for w in what))
        rows.append([
            *step_numbers(step, numbers),
            Paragraph("<br/>".join(what), st["cell"]),
            Paragraph(_state_after(step, lang), st["cell"]),
        ])
        colour = STATUS_COLOURS.get(step.status)
        if colour is None and step.disputes:
            colour = DISPUTED
        if colour is None and step.replaced_by is not None:
            colour = colors.HexColor("#EEEEEE")
        if colour is not None:
            style.append(("BACKGROUND", (0, r), (-1, r), colour))
    style.append(("FONT", (0, 1), (1, -1), "DejaVuSans", 7.5))
    # The event column as wide as its heading in the paper's language
    # ("Événement" was cut to "Événem/ent").
    event_w = max(42.0, pdfmetrics.stringWidth(_(event), FONT_BOLD, 7.5) + 8)
    cw = [18, event_w, 134, width - 152 - event_w]
    # A row may run over a page (a refused 500-character action, quoted again
    # by its refusal): split inside it, where a whole row taller than the page
    # made the audit a 500 (issue 34, the attack again). Only then: a row of
    # everyday words cut in two at a page's end reads as two steps.
    t = Table(rows, colWidths=cw, repeatRows=1, hAlign="LEFT",
              splitInRow=int(longest > LONG_ROW))
    t.setStyle(TableStyle(style))
    return t


def _result_block(audit: HandAudit, width: float, lang: str) -> list:
    _ = words(lang)
    st = styles()
    r = audit.result
    q = audit.quantum
    out: list = []
    winners = ", ".join(r.winners) if r.winners else _("nobody")
    out.append(Paragraph(_("Outcome: {outcome}; winners: {winners}.",
                           outcome=f"<b>{esc(outcome_words(r.outcome, lang))}</b>",
                           winners=esc(winners)), st["body"]))
    counts = ", ".join(f"{esc(p)} {r.counts[p]}" for p in r.players if p in r.counts)
    if counts:
        out.append(Paragraph(_("Counts at the end: {counts}.", counts=counts), st["body"]))
    out.append(Paragraph(_("The payment worked out"), st["h2"]))
    for sentence in story_in(r.settlement, lang):
        out.append(Paragraph(esc(sentence), st["bullet"], bulletText="•"))
    lines = payment_lines(audit, lang)
    if lines:
        out.append(Paragraph(_("Payment by payment:"), st["body"]))
        for line in lines:
            out.append(Paragraph(esc(line), st["bullet"], bulletText="–"))
    if r.side_bets:
        out.append(Paragraph(_("Side bets"), st["h2"]))
        for said in r.side_bets:
            out.append(Paragraph(esc(language.say(said, lang)),
                                 st["bullet"], bulletText="•"))
    unit = unit_of(audit.session.log, audit.session.rules, lang)
    data = [[Paragraph(_("Player"), st["head"]), Paragraph(_("Net ({unit})", unit=esc(unit)),
                                                           st["head"])]]
    for p in r.players:
        data.append([Paragraph(esc(p), st["body"]), amount(r.net.get(p, Decimal(0)), q, lang)])
    t = Table(data, colWidths=[70 * mm, 35 * mm], hAlign="LEFT")
    t.setStyle(TableStyle([
        ("FONT", (1, 1), (1, -1), "DejaVuSans", 9.5),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]))
    out.append(Paragraph(_("Net for the hand"), st["h2"]))
    out.append(t)
    return out
