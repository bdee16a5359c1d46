"""The settlement paper's notes on the night's events: when the table opened
and closed, the stake's changes, the void hands, the hands counted, who left
and who sat down, and the disputes with how each was settled."""

from __future__ import annotations

from reportlab.platypus import Paragraph

from .. import language
from ..record.kinds import EventKind
from .common import esc, plurals, styles, words
from .words import time_text as _when
from .words import void_reason_in


def open_disputes_line(still_open: list[int], lang: str) -> Paragraph:
    """The settlement's plain word that disputes are open (under the table's
    facts and again above the signatures)."""
    ngettext = plurals(lang)
    return Paragraph("<b>" + ngettext(
        "{count} dispute is still open (hand {hands}): settle it before signing, or sign "
        "knowing it is open.",
        "{count} disputes are still open (hands {hands}): settle them before signing, or "
        "sign knowing they are open.", len(still_open), count=len(still_open),
        hands=", ".join(str(n) for n in sorted(set(still_open)))) + "</b>", styles()["body"])


def disputes_section(sec, lang: str) -> list:
    """Every dispute of the night (``Sections.disputes``) with how it was
    settled, or that it is open."""
    if not sec.disputes:
        return []
    _ = words(lang)
    st = styles()
    out = [Paragraph(_("Disputes"), st["h2"])]
    for d in sec.disputes:
        what = (_("hand {n}, action {action}", n=d.hand, action=d.action) if d.action
                else _("hand {n}", n=d.hand))
        out.append(Paragraph(_("{what}, by {player}: “{note}”", what=what,
                               player=f"<b>{esc(d.by)}</b>",
                               note=esc(language.note_words(d.note, lang)))
                             + " · <b>" + _settled_words(d.settled, sec.started, lang) + "</b>",
                             st["bullet"], bulletText="•"))
    return out


def _settled_words(done: dict | None, started: str | None, lang: str) -> str:
    _ = words(lang)
    if done is None:
        return _("open")
    if done["how"] == "corrected":
        return _("settled by a correction ({by}, {time})", by=esc(done["by"]),
                 time=_when(done.get("at"), lang, started) or "")
    return _("settled: the record stands ({by}, {time})", by=esc(done["by"]),
             time=_when(done.get("at"), lang, started) or "")


def comings_and_goings(log: dict, lang: str,
                       moves: dict[tuple[str, str], list[str]]) -> list:
    """Who left the table and who sat down, and from which hand: read from the
    hands' seats (a hand lists them when the table changed); ``moves``: when
    each ``leave`` and ``seat`` event of a stored session was kept, in order
    (a leave after the last hand is in its events only)."""
    _ = words(lang)
    st = styles()
    lines = []
    left = {k: list(v) for k, v in moves.items()}

    def at(kind: str, player: str) -> str:
        times = left.get((kind, player))
        when = _when(times.pop(0), lang, log.get("started")) if times else None
        return f" ({esc(when)})" if when else ""

    before = list(log["players"])
    hands = log.get("hands", ())
    for n, h in enumerate(hands, 1):
        seats = h.get("players") or before
        for p in before:
            if p not in seats:
                lines.append((_("{player} left the table after hand {n}",
                                player=f"<b>{esc(p)}</b>", n=n - 1) if n > 1 else
                              _("{player} left the table before the first hand",
                                player=f"<b>{esc(p)}</b>")) + at(EventKind.LEAVE, p))
        for p in seats:
            if p not in before:
                lines.append(_("{player} sat down from hand {n}", player=f"<b>{esc(p)}</b>",
                               n=n) + at(EventKind.SEAT, p))
        before = list(seats)
    for (kind, p), times in left.items():
        while kind == EventKind.LEAVE and hands and times:  # ``at`` takes each time off
            lines.append(_("{player} left the table after hand {n}",
                           player=f"<b>{esc(p)}</b>", n=len(hands)) + at(EventKind.LEAVE, p))
    if not lines:
        return []
    return [Paragraph(_("Who left, who sat down"), st["h2"]),
            *[Paragraph(line, st["bullet"], bulletText="•") for line in lines]]


def night_rows(log: dict, lang: str) -> list[list[str]]:
    """When the table opened and closed, and whether this paper is final."""
    _ = words(lang)
    rows = []
    if log.get("started"):
        rows.append([_("Opened"), _when(log["started"], lang, log["started"])])
    if log.get("closed"):
        rows.append([_("Closed"), _("{time}: this settlement is final",
                                    time=_when(log["closed"], lang, log.get("started")))])
    else:
        rows.append([_("Status"), _("provisional: the table has not been closed")])
    return rows


def hands_count(sec, lang: str) -> str:
    _ = words(lang)
    void = sum(1 for h in sec.hands if h.reason is not None)
    played = len(sec.hands) - void
    if void:
        ngettext = plurals(lang)  # each count agrees with its own word ("1 annulée")
        return _("{played}, {void}",
                 played=ngettext("{n} played", "{n} played", played),
                 void=ngettext("{n} void", "{n} void", void))
    return str(played)


def void_and_stake_notes(sec, stake, lang: str) -> list:
    """Under the hand table: the void hands with their reasons, the side
    bets, and the hands whose stake was not the session's (``stake``: a
    stake as the paper writes it)."""
    _ = words(lang)
    st = styles()
    out: list = []
    void = [h for h in sec.hands if h.reason is not None]
    if void:
        out.append(Paragraph(_("Void hands (nobody paid; the same dealer dealt again)"),
                             st["h2"]))
        out += [Paragraph(_("Hand {n} (dealt by {dealer}): {reason}", n=h.number,
                            dealer=esc(h.dealer), reason=esc(void_reason_in(h.reason, lang))),
                          st["bullet"], bulletText="•") for h in void]
    bets = [h for h in sec.hands if h.side_bets]
    if bets:
        out.append(Paragraph(_("Side bets"), st["h2"]))
        out += [Paragraph(_("Hand {n}", n=h.number) + ": " + esc(language.say(
            said, lang)), st["bullet"], bulletText="•")
            for h in bets for said in h.side_bets]
    runs = sec.stake_runs()
    if runs:
        out.append(Paragraph(_("Hands at another stake"), st["h2"]))
    for first, last, own in runs:
        span = (_("Hand {n}", n=first) if first == last
                else _("Hands {first}–{last}", first=first, last=last))
        out.append(Paragraph(_("{hands}: stake {stake} (the session's: {base})", hands=span,
                               stake=esc(stake(own)), base=esc(stake(sec.stake))),
                             st["bullet"], bulletText="•"))
    return out
