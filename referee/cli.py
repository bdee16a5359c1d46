"""The ``referee`` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import import_module

from .rules.errors import RefereeError
from .rules.words import LANGUAGES

# Modules that add their own subcommands: each has register(subparsers).
EXTENSIONS = ("referee.commands.service", "referee.commands.reports", "referee.commands.club")


def _print_json(doc: object) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def cmd_replay(args: argparse.Namespace) -> int:
    # A replay makes no reference cycles (a collection after a 10,000-hand
    # replay finds none), but its many small objects set off the cyclic
    # collector, which rescans the whole log and every hand kept so far: 40%
    # of the run. So the replay runs without it (restored for callers in-process).
    from .speed.collector import paused

    with paused():
        return _replay(args)


def _replay(args: argparse.Namespace) -> int:
    from .commands.errors import fail
    from .record import read_log_file
    from .replay import replay, replay_json_text

    log = None
    try:
        log = read_log_file(args.log)
        if args.json:
            # Only the numbers are printed: a long log is replayed on two cores.
            sys.stdout.write(replay_json_text(log))
            return 0
        session = replay(log)
        result = session.result()
    except RefereeError as err:
        return fail(err, as_json=args.json, lang=args.lang or _log_language(log, args.log))
    print(format_report(session, result, args.lang))
    return 0


def _log_language(log: dict | None, path: str) -> str | None:
    """The table's language of a log that was refused: as read, or (a log
    whose shape was refused) as written, if it names one we speak."""
    if log is None:
        from .record import read_file

        try:
            log = json.loads(read_file(path))
        except (RefereeError, ValueError, RecursionError):
            return None
    named = log.get("language") if isinstance(log, dict) else None
    return named if named in LANGUAGES else None


class _Forms:
    """How the replay's report writes numbers, money and stakes in its
    language: English keeps plain decimals (``1.50``) and the log's own
    stake text, as scripts have always read them; another language its
    locale's forms, money as on the papers (``1,75 €``)."""

    def __init__(self, session, result, lang: str) -> None:
        # Imported here, once a report is asked for (not by `replay --json`,
        # whose start-up never loads babel), and kept: ``num`` is called for
        # every player of every hand.
        from . import language
        from .ledger.money import fmt, parse_stake
        from .reports.words import outcome_words, words

        self.log, self.lang, self.q = session.log, lang, result.quantum
        self.language, self.fmt, self.parse_stake = language, fmt, parse_stake
        self.outcome_words = outcome_words
        self.plain = lang == language.DEFAULT
        self.push_ups = session.rules.scoring == "push_ups"
        self._ = _ = words(lang)
        self.unit = self.log.get("currency") or (
            _("push-ups") if self.push_ups else language.gettext(lang, language.POINTS))

    def num(self, value, quantum=None) -> str:
        quantum = self.q if quantum is None else quantum
        if self.plain:
            return self.fmt(value, quantum)
        return self.language.amount(value, quantum, self.lang)

    def amount(self, value, quantum=None) -> str:
        language = self.language
        quantum = self.q if quantum is None else quantum
        currency = self.log.get("currency")
        if not currency:
            return language.quantity(value, self.num(value, quantum), self.unit, self.lang)
        if self.plain:
            return f"{self.num(value, quantum)} {self.unit}"
        return language.money(value.quantize(quantum), currency, self.lang)

    def outcome(self, code: str) -> str:
        return self.outcome_words(code, self.lang)

    def stake_words(self, text: str) -> str:
        """A stake as written ("1 point", not "1 points")."""
        language = self.language
        value = self.parse_stake(text)
        if not self.plain:
            text = language.decimal_text(value, max(0, -value.as_tuple().exponent), self.lang)
        if self.log.get("currency"):
            return f"{text} {self.unit}"
        return language.quantity(value, text, self.unit, self.lang)

    def time(self, value: str) -> str:
        """English keeps the log's own time (scripts read it); a person's language its form."""
        return value if self.plain else self.language.time_text(value, self.lang)


def format_report(session, result, lang: str | None = None) -> str:
    """The replay's report for a person, in ``lang`` (else the log's language)."""
    from .reports.words import paper_language

    said = _Forms(session, result, paper_language(session.log, lang))
    columns = _columns(result, said)  # each hand's outcome said once, for both tables
    lines = _head_lines(session, result, said)
    lines += _hand_lines(session, result, said, columns)
    lines += _end_lines(session, result, said, columns)
    return "\n".join(lines)


def _head_lines(session, result, said: _Forms) -> list[str]:
    from .reports.words import plurals

    log, _, ngettext = session.log, said._, plurals(said.lang)  # named for the catalog tool
    title = log.get("table") or _("Tonk session")
    lines = [ngettext("{title}: {n} hand, rules {preset}, stake {stake}",
                      "{title}: {n} hands, rules {preset}, stake {stake}",
                      len(result.hands), title=title, preset=session.rules.preset,
                      stake=said.stake_words(log["stake"]))]
    if "started" in log:
        lines.append(_("Started {time}", time=said.time(log["started"])))
    if "closed" in log:
        lines.append(_("Closed {time}", time=said.time(log["closed"])))
    return lines


def _columns(result, said: _Forms) -> tuple[int, int, int, list[str]]:
    """The table's widths (players' columns, outcome, hand) and each hand's outcome."""
    _ = said._
    width = max(8, *(len(p) for p in result.players))
    outcomes = [said.outcome(h.outcome) for h in result.hands]
    return (width, max(10, len(_("outcome")), *(len(o) for o in outcomes)),
            max(4, len(_("hand"))), outcomes)


def _hand_lines(session, result, said: _Forms, columns) -> list[str]:
    from . import language
    from .ledger.money import parse_stake
    from .reports.words import story_in
    from .rules.told import TOLD

    _, lang, players = said._, said.lang, result.players
    width, ow, hw, outcomes = columns
    hand, dealer, outcome_head = _("hand"), _("dealer"), _("outcome")
    lines = ["", f"{hand:>{hw}}  {dealer:<{width}}  {outcome_head:<{ow}}  " +
             "  ".join(f"{p:>{width}}" for p in players)]
    setups = session.log.get("hands", [])
    indent = " " * (hw + 2)
    for h, words_out in zip(result.hands, outcomes, strict=True):
        nets = "  ".join(f"{said.num(h.net[p]) if p in h.net else '':>{width}}"
                         for p in players)
        lines.append(f"{h.number:>{hw}}  {h.dealer:<{width}}  {words_out:<{ow}}  {nets}")
        setup = setups[h.number - 1] if h.number <= len(setups) else {}
        if h.reason is not None:
            lines.append(indent + _("void: {reason} (nobody pays; the deal does not pass)",
                                    reason=h.reason))
            continue
        if h.told:
            lines.append(indent + language.gettext(lang, TOLD))
        if "stake" in setup and parse_stake(setup["stake"]) != session.stake:
            lines.append(indent + _("stake {stake} for this hand",
                                    stake=said.stake_words(setup["stake"])))
        lines += [indent + sentence for sentence in story_in(h.settlement, lang)]
        # the side bets' pots are in the hand's nets: say where they went
        lines += [indent + language.say(words_said, lang) for words_said in h.side_bets]
    return lines


def _end_lines(session, result, said: _Forms, columns) -> list[str]:
    _, players = said._, result.players
    width, ow, hw, _outcomes = columns
    totals = _("totals")
    lines = ["", f"{'':>{hw}}  {totals:<{width}}  {'':<{ow}}  " +
             "  ".join(f"{said.num(result.totals[p]):>{width}}" for p in players), ""]
    if result.balances is not None:
        lines += _money_lines(session.log, result, said.amount, said.num, _, said.lang)
        lines.append("")
    if result.transfers:
        lines.append(_("Still owed:") if result.balances is not None else _("To settle up:"))
        for t in result.transfers:
            owed = said.amount(t.amount, said.q if result.balances is None
                               else result.balance_quantum)
            lines.append("  " + _("{payer} pays {payee} {amount}", payer=t.payer,
                                  payee=t.payee, amount=owed))
    elif session.rules.scoring == "push_ups":
        low = min(result.totals.values(), default=0)
        best = [p for p in players if result.totals[p] == low]
        lines.append(_("Push-up scores: lowest is best ({players}).", players=", ".join(best)))
    else:
        lines.append(_("Nobody owes anything."))
    match = result.match()
    if match is not None:
        from .reports.words import match_words

        lines.append(match_words(match, said.lang))
    return lines


def _money_lines(log: dict, result, amount, num, _, lang: str) -> list[str]:
    """Brought forward, the payments made at the table, and the balances."""
    bq = result.balance_quantum
    lines = []
    carried = result.money.brought_forward
    if carried:
        lines.append(_("Brought forward: {amounts}", amounts=", ".join(
            f"{p} {num(carried[p], bq)}" for p in result.players if p in carried)))
    from decimal import Decimal

    from .reports.words import time_text

    for doc in log.get("payments", []):
        extra = [doc["at"] if lang == LANGUAGES[0] else time_text(doc["at"], lang)] \
            if "at" in doc else []
        extra += [doc["note"]] if "note" in doc else []
        if "undone" in doc:
            extra.append(_("taken back"))
        elif doc.get("pending"):
            extra.append(_("waiting for {payee} to confirm: it settles nothing yet",
                           payee=doc["to"]))
        lines.append(_("Paid: {payer} pays {payee} {amount}", payer=doc["from"],
                       payee=doc["to"], amount=amount(Decimal(str(doc["amount"]).strip()), bq))
                     + (f" ({', '.join(extra)})" if extra else ""))
    for carry in log.get("carried_forward", []):
        lines.append(_("Carried on to table {session}: {amounts}", session=carry["to"],
                       amounts=", ".join(f"{p} {num(Decimal(str(v)), bq)}"
                                         for p, v in carry["balances"].items())))
    lines.append(_("Balances (brought forward + totals + paid - received): {amounts}",
                   amounts=", ".join(f"{p} {num(v, bq)}" for p, v in result.balances.items())))
    return lines


def cmd_rules(args: argparse.Namespace) -> int:
    from .rules.catches import CATCH_SCHEMES
    from .rules.options import (
        OPTION_DOCS,
        OPTION_VALUES,
        PRESET_SOURCES,
        PRESETS,
        resolve,
    )

    if args.markdown:
        from .commands.rules_doc import markdown

        sys.stdout.write(markdown(args.lang or "en"))
        return 0
    from . import language
    from .reports.words import words

    lang = args.lang or language.DEFAULT
    _ = words(lang)
    if not args.name:
        print(_("Presets (referee rules NAME shows one in full):"))
        for name, source in PRESET_SOURCES.items():
            diff = ", ".join(sorted(PRESETS[name])) or _("the standard game")
            print(f"  {name:<12} {language.gettext(lang, source)}: {diff}")
        print(_("Catch schemes (option caught): {names}", names=", ".join(CATCH_SCHEMES)))
        return 0
    try:
        rules = resolve(args.name)
    except RefereeError as err:
        from .commands.errors import fail

        return fail(err)
    if args.json:
        _print_json(rules.to_json())
        return 0
    print(_("Preset {preset} ({source}):", preset=args.name,
            source=language.gettext(lang, PRESET_SOURCES[args.name])))
    data = rules.to_json()
    for name, doc in OPTION_DOCS.items():
        mark = "*" if name in PRESETS[args.name] else " "
        print(f" {mark}{name} = {json.dumps(data[name])}\n     {language.gettext(lang, doc)}\n"
              "     " + _("values: {values}",
                           values=language.say(OPTION_VALUES[name], lang)))
    print(_("(* differs from the standard game)"))
    print(_("Catch schemes (caught):"))
    for scheme in CATCH_SCHEMES.values():
        print(f"  {scheme.name:<20} {language.gettext(lang, scheme.description)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="Referee and settlement for "
                                     "live Tonk tables.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a session log and settle it")
    p.add_argument("log", help="a tonk-log/1 file")
    p.add_argument("--json", action="store_true", help="print the tonk-result/1 document")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="the language of the report (default: the table's, from the log)")
    p.set_defaults(func=cmd_replay, exit_at_once=True)
    p = sub.add_parser("rules", help="list the presets, or show one preset's options")
    p.add_argument("name", nargs="?")
    p.add_argument("--json", action="store_true", help="the preset's options as JSON")
    p.add_argument("--markdown", action="store_true",
                   help="the reference page of every option and preset (docs/house-rules.md)")
    p.add_argument("--lang", choices=LANGUAGES, help="the language of the explanations")
    p.set_defaults(func=cmd_rules)
    for module in EXTENSIONS:
        try:
            mod = import_module(module)
        except ModuleNotFoundError as err:
            if not module.startswith(err.name or "?"):
                raise
            continue
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


def run() -> None:
    """The ``referee`` command (and ``python -m referee``): ``main``, then exit.

    A replay exits at once once its output is written: freeing a long log's
    objects one by one at interpreter exit took 60 ms, a tenth of the run,
    and a replay holds nothing else to close.
    """
    args = build_parser().parse_args()
    try:
        status = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`referee rules pagat | head -1`): nothing more
        # to say, and no traceback. Python's own flush at exit would raise
        # again, so stdout is pointed at /dev/null first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    if getattr(args, "exit_at_once", False):
        from .speed.exit import exit_now

        exit_now(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
