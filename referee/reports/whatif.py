"""What-if: the same actions settled again under other house rules.

The log's actions are replayed from the start under the new rules (the seats
and the deal's rotation matter to every hand), and each player's net is
compared hand by hand and in total. A log that is not legal under the other
rules (a card a 40-card deck does not have, a drop while waiting...) is an
answer in itself: the engine's refusal is reported as it stands.

``rules`` is a preset name, or a JSON object (string or dict). An object with
``preset`` is a complete set of rules, as in a log; without it, it changes
only the options it names, on top of the session's own rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal

from .. import language
from ..ledger.money import fmt
from ..ledger.results import HandResult, SessionResult
from ..record.document import MAX_DEPTH, check_document
from ..replay import Session, replay
from ..replay.sequential import check_log_end, open_session, play_on, start_on
from ..rules.errors import NoSuchHand, RefereeError, RulesError, RuleViolation
from ..rules.hand import OVER
from ..rules.options import HouseRules, resolve
from ..rules.words import N_, Np_, Words
from .common import amount, cash, currency_of, paper_language, rules_in_words, unit_of, words
from .words import pays_words

ZERO = Decimal(0)
NO_SUCH_HAND = Np_("the session has {hands} hand; there is no hand {hand}",
                   "the session has {hands} hands; there is no hand {hand}", "hands")


def parse_rules(text: str | dict, current: HouseRules | None = None) -> object:
    """The ``rules`` value a log would carry for ``text`` (see the module doc)."""
    if isinstance(text, str):
        stripped = text.strip()
        if not stripped.startswith("{"):
            return stripped
        try:
            text = json.loads(stripped)
        except ValueError as err:
            raise RulesError("bad_rules", N_("--rules is neither a preset name nor a JSON "
                                             "object: {error}"), {"error": err}) from None
        except RecursionError:
            raise RulesError("bad_rules", N_("{what} is nested more than {depth} deep"),
                             {"what": "rules", "depth": MAX_DEPTH}) from None
        check_document(text, ["rules"])  # deeper than a log may be: refused, not recursed
    if not isinstance(text, dict):
        raise RulesError("bad_rules", N_("rules must be a preset name or a JSON object"))
    if "preset" in text or current is None:
        return dict(text)
    return {**current.to_json(), **text}


@dataclass
class HandDiff:
    number: int
    old: HandResult
    new: HandResult

    def difference(self, players: list[str]) -> dict[str, Decimal]:
        return {p: self.new.net.get(p, ZERO) - self.old.net.get(p, ZERO) for p in players}

    @property
    def changed(self) -> bool:
        return self.old.net != self.new.net or self.old.outcome != self.new.outcome


@dataclass
class WhatIf:
    old_session: Session
    old_rules: HouseRules
    new_rules: HouseRules | None
    players: list[str]
    hand: int | None  # the one hand compared, or None for the session
    hands: list[HandDiff] = field(default_factory=list)
    old_result: SessionResult | None = None
    new_result: SessionResult | None = None
    error: RefereeError | None = None
    # Told hands these rules cannot settle again, with why: their results are kept.
    unsettled: list[tuple[int, Words]] = field(default_factory=list)

    @property
    def quantum(self) -> Decimal:
        return self.old_session.quantum

    def totals(self, which: str) -> dict[str, Decimal]:
        out = dict.fromkeys(self.players, ZERO)
        for h in self.hands:
            for p, v in getattr(h, which).net.items():
                out[p] = out.get(p, ZERO) + v
        return out

    def total_difference(self) -> dict[str, Decimal]:
        old, new = self.totals("old"), self.totals("new")
        return {p: new[p] - old[p] for p in self.players}

    def to_json(self) -> dict:
        q = self.quantum

        def nets(d: dict[str, Decimal]) -> dict[str, str]:
            return {p: fmt(v, q) for p, v in d.items()}

        doc: dict = {
            "format": "tonk-whatif/1",
            "rules": {
                "old": _rules_summary(self.old_rules),
                "new": _rules_summary(self.new_rules) if self.new_rules else None,
            },
            "hand": self.hand,
        }
        if self.error is not None:
            doc["error"] = self.error.to_dict()
            return doc
        doc["hands"] = [
            {
                "hand": h.number,
                "old": {"outcome": h.old.outcome, "winners": h.old.winners,
                        "net": nets(h.old.net)},
                "new": {"outcome": h.new.outcome, "winners": h.new.winners,
                        "net": nets(h.new.net)},
                "difference": nets(h.difference(list(h.old.players))),
            }
            for h in self.hands
        ]
        if self.unsettled:
            doc["unsettled"] = [{"hand": n, "why": str(why)} for n, why in self.unsettled]
        doc["totals"] = {
            "old": nets(self.totals("old")),
            "new": nets(self.totals("new")),
            "difference": nets(self.total_difference()),
        }
        if self.hand is None and self.new_result is not None:
            doc["transfers"] = {
                "old": _transfers(self.old_result, q),
                "new": _transfers(self.new_result, q),
            }
        return doc


def _transfers(result: SessionResult | None, q: Decimal) -> list[dict]:
    if result is None:
        return []
    return [{"from": t.payer, "to": t.payee, "amount": fmt(t.amount, q)}
            for t in result.transfers]


def _rules_summary(rules: HouseRules) -> dict:
    return {"preset": rules.preset,
            "differences": {name: value for name, value, _std in rules.differences()}}


def what_if(log: dict, rules: str | dict, *, hand: int | None = None) -> WhatIf:
    """Settle ``log`` (or its hand ``hand``) again under ``rules``.

    Raises ``RefereeError`` when the log is not legal under its own rules or
    the new rules cannot be read; a log that the *new* rules refuse is
    reported in ``WhatIf.error``.
    """
    old_session = replay(log)
    old_result = old_session.result()
    players = list(old_result.players)
    n_hands = len(log.get("hands", []))
    if hand is not None and not 1 <= hand <= n_hands:
        raise NoSuchHand("no_such_hand",
                         NO_SUCH_HAND.pick(n_hands),
                         {"hands": n_hands, "hand": hand})
    new_value = parse_rules(rules, old_session.rules)
    try:
        new_rules = resolve(new_value)
    except RefereeError as err:
        raise err.at() from None
    out = WhatIf(old_session, old_session.rules, new_rules, players, hand,
                 old_result=old_result)
    # Hand N depends on hands 1..N-1 only through seats and dealers, but they
    # must be legal under the new rules too: replay them, not just hand N.
    hands = log.get("hands", [])
    new_log = {**log, "rules": new_value, "hands": hands[:hand] if hand else hands}
    old_by_number = {h.number: h for h in old_result.hands}
    try:
        new_session, kept = _replay_keeping_told(new_log, old_session.rules, old_by_number)
    except RefereeError as err:
        out.error = err
        return out
    out.unsettled = [(n, why) for n, (why, _r) in kept.items()]
    new_result = new_session.result({n: r for n, (_w, r) in kept.items()})
    out.new_result = new_result
    for h in new_result.hands:
        if hand is not None and h.number != hand:
            continue
        out.hands.append(HandDiff(h.number, old_by_number[h.number], h))
    return out


def _replay_keeping_told(log: dict, old_rules: HouseRules, old: dict[int, HandResult]
                         ) -> tuple[Session, dict[int, tuple[Words, HandResult]]]:
    """``log`` replayed under its (new) rules, where a hand told by its
    ending that those rules cannot settle again from what was told keeps its
    result (with the reason): its counts were told under other card values
    or another hand size, or the ending lacks a fact the new rules pay by,
    or what it tells is impossible under them."""
    session = open_session(log)
    kept: dict[int, tuple[Words, HandResult]] = {}
    if session.rules.follows_results:
        # A kept hand's winners and nets are its old result's (it has no
        # ending these rules could settle).
        settle = session.table.settle
        session.table.settle = lambda hand: (
            (kept[hand.number][1].winners, kept[hand.number][1].net)
            if hand.number in kept else settle(hand))
    for number, setup in enumerate(log.get("hands", []), 1):
        why = _cannot_resettle(setup, old_rules, session.rules) if "ending" in setup else None
        if why is None:
            try:
                play_on(session.table, setup)
                continue
            except RuleViolation as err:
                if "ending" not in setup:
                    raise
                why = Words(err.template, **err.params)
        # Dealt as it was (the seats and the deal's rotation), its result kept.
        hand = start_on(session.table, {k: v for k, v in setup.items()
                                        if k not in ("ending", "side_bets")})
        hand.phase = OVER
        kept[number] = (why, old[number])
    check_log_end(session.table, closed="closed" in log)
    return session, kept


def _cannot_resettle(setup: dict, old: HouseRules, new: HouseRules) -> Words | None:
    told = setup["ending"]
    if old.hand_size != new.hand_size:
        return Words(N_("it was told with {old} cards a hand, and these rules deal {new}"),
                     old=old.hand_size, new=new.hand_size)
    if "counts" in told and old.deck_info.values != new.deck_info.values:
        return Words(N_("its counts were told under other card values, and its cards were "
                        "not logged"))
    return None


def format_whatif(w: WhatIf, lang: str | None = None) -> str:
    """The comparison for a person: per hand and in total, old, new and the
    difference for each player, in ``lang`` (else the log's language)."""
    from .settlement import outcome_words

    log = w.old_session.log
    lang = paper_language(log, lang)
    _ = words(lang)
    q = w.quantum
    unit = unit_of(log, w.old_rules, lang)
    currency = currency_of(log, w.new_rules) if w.new_rules else None
    lines = []
    old_intro, old_lines = rules_in_words(w.old_rules, lang)
    new_intro, new_lines = rules_in_words(w.new_rules, lang) if w.new_rules else ("", [])
    lines.append(_("Played under:") + " " + _plain(old_intro, old_lines))
    lines.append(_("Settled again under:") + " " + _plain(new_intro, new_lines))
    if w.new_rules and (w.old_rules.scoring == "push_ups") != (w.new_rules.scoring == "push_ups"):
        lines.append(_("Note: one side scores push-ups, the other stakes; the numbers are in "
                       "different units."))
    if w.error is not None:
        from .words import error_in

        lines.append("")
        lines.append(_("The log is not legal under these rules, so it cannot be settled under "
                       "them:"))
        lines.append(f"  [{w.error.code}] {error_in(w.error, lang)}")
        return "\n".join(lines)
    players = w.players
    width = max(8, *(len(p) for p in players))
    kinds = {"old": _("old"), "new": _("new"), "diff": _("diff")}
    kind_w = max(6, *(len(k) for k in kinds.values()))
    hand_w = max(4, len(_("hand")), len(_("all")))
    lines.append("")
    hand_head = _("hand")
    head = f"{hand_head:>{hand_w}}  {'':<{kind_w}}" + "".join(f"  {p:>{width}}"
                                                              for p in players)
    lines.append(head)

    def row(label: str, kind: str, nets: dict[str, Decimal], seated) -> str:
        cells = "".join(
            f"  {(amount(nets.get(p, ZERO), q, lang) if p in seated else ''):>{width}}"
            for p in players)
        return f"{label:>{hand_w}}  {kinds[kind]:<{kind_w}}{cells}"

    for h in w.hands:
        seated = set(h.old.players)
        lines.append(row(str(h.number), "old", h.old.net, seated)
                     + f"  {outcome_words(h.old.outcome, lang)}")
        lines.append(row("", "new", h.new.net, seated)
                     + f"  {outcome_words(h.new.outcome, lang)}")
        diff = h.difference(list(h.old.players))
        lines.append(row("", "diff", diff, seated)
                     + ("" if h.changed else "  " + _("(no change)")))
    for n, why in w.unsettled:
        lines.append(_("Hand {n} was told by its ending and cannot be settled again under "
                       "these rules ({why}): its result is kept.", n=n,
                       why=language.say(why, lang)))
    everyone = set(players)
    lines.append("")
    lines.append(row(_("all"), "old", w.totals("old"), everyone))
    lines.append(row("", "new", w.totals("new"), everyone))
    lines.append(row("", "diff", w.total_difference(), everyone) + f"  ({unit})")
    if w.hand is None and w.new_result is not None:
        lines.append("")
        if w.new_result.transfers:
            lines.append(_("Under the new rules, to settle up:"))
            for t in w.new_result.transfers:
                lines.append("  " + pays_words(t.payer, t.payee,
                                               cash(t.amount, q, currency, unit, lang), lang))
        else:
            lines.append(_("Under the new rules nobody would owe anything."))
    return "\n".join(lines)


def _plain(intro: str, lines: list[str]) -> str:
    import re

    text = intro
    for line in lines:
        text += "\n    - " + re.sub(r"<[^>]+>", "", line)
    return text
