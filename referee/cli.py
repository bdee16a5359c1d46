"""The ``referee`` command line."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from importlib import import_module

from .language import LANGUAGES
from .rules.errors import RefereeError

# Modules that add their own subcommands: each has register(subparsers).
EXTENSIONS = ("referee.commands.service", "referee.commands.reports", "referee.commands.club")


def _print_json(doc: object) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def cmd_replay(args: argparse.Namespace) -> int:
    # A replay makes no reference cycles (a collection after a 10,000-hand
    # replay finds none), but its many small objects set off the cyclic
    # collector, which rescans the whole log and every hand kept so far: 40%
    # of the run. So the replay runs without it (restored for callers in-process).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _replay(args)
    finally:
        if collecting:
            gc.enable()


def _replay(args: argparse.Namespace) -> int:
    from .commands.errors import fail
    from .record import read_log_file
    from .replay import replay, replay_json_text

    try:
        log = read_log_file(args.log)
        if args.json:
            # Only the numbers are printed: a long log is replayed on two cores.
            sys.stdout.write(replay_json_text(log))
            return 0
        session = replay(log)
        result = session.result()
    except RefereeError as err:
        return fail(err, as_json=args.json)
    print(format_report(session, result))
    return 0


def format_report(session, result) -> str:
    from .ledger.money import fmt, parse_stake

    log = session.log
    q = result.quantum
    unit = log.get("currency") or ("points" if session.rules.scoring != "push_ups" else "push-ups")
    lines = []
    title = log.get("table") or "Tonk session"
    lines.append(f"{title}: {len(result.hands)} hand(s), rules {session.rules.preset}, "
                 f"stake {log['stake']} {unit}")
    for key in ("started", "closed"):
        if key in log:
            lines.append(f"{key.capitalize()} {log[key]}")
    players = result.players
    width = max(8, *(len(p) for p in players))
    lines.append("")
    lines.append(f"{'hand':>4}  {'dealer':<{width}}  {'outcome':<10}  " +
                 "  ".join(f"{p:>{width}}" for p in players))
    setups = log.get("hands", [])
    for h in result.hands:
        nets = "  ".join(f"{fmt(h.net[p], q) if p in h.net else '':>{width}}" for p in players)
        lines.append(f"{h.number:>4}  {h.dealer:<{width}}  {h.outcome:<10}  {nets}")
        setup = setups[h.number - 1] if h.number <= len(setups) else {}
        if h.reason is not None:
            lines.append(f"{'':>6}void: {h.reason} (nobody pays; the deal does not pass)")
            continue
        if "stake" in setup and parse_stake(setup["stake"]) != session.stake:
            lines.append(f"{'':>6}stake {setup['stake']} {unit} for this hand")
        for sentence in h.settlement.story:
            lines.append(f"{'':>6}{sentence}")
    lines.append("")
    lines.append(f"{'':>4}  {'totals':<{width}}  {'':<10}  " +
                 "  ".join(f"{fmt(result.totals[p], q):>{width}}" for p in players))
    lines.append("")
    if result.balances is not None:
        lines.extend(_money_lines(log, result, unit))
        lines.append("")
    if result.transfers:
        lines.append("Still owed:" if result.balances is not None else "To settle up:")
        for t in result.transfers:
            amount = fmt(t.amount, q if result.balances is None else result.balance_quantum)
            lines.append(f"  {t.payer} pays {t.payee} {amount} {unit}")
    elif session.rules.scoring == "push_ups":
        low = min(result.totals.values(), default=0)
        best = [p for p in players if result.totals[p] == low]
        lines.append(f"Push-up scores: lowest is best ({', '.join(best)}).")
    else:
        lines.append("Nobody owes anything.")
    return "\n".join(lines)


def _money_lines(log: dict, result, unit: str) -> list[str]:
    """Brought forward, the payments made at the table, and the balances."""
    from .ledger.money import fmt

    bq = result.balance_quantum
    lines = []
    carried = result.money.brought_forward
    if carried:
        lines.append("Brought forward: " + ", ".join(
            f"{p} {fmt(carried[p], bq)}" for p in result.players if p in carried))
    for (payer, payee, amount), doc in zip(result.money.payments, log.get("payments", []),
                                           strict=True):
        extra = [doc[k] for k in ("at", "note") if k in doc]
        lines.append(f"Paid: {payer} pays {payee} {fmt(amount, bq)} {unit}"
                     + (f" ({', '.join(extra)})" if extra else ""))
    lines.append("Balances (brought forward + totals + paid - received): " + ", ".join(
        f"{p} {fmt(v, bq)}" for p, v in result.balances.items()))
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
    if not args.name:
        print("Presets (referee rules NAME shows one in full):")
        for name, source in PRESET_SOURCES.items():
            diff = ", ".join(sorted(PRESETS[name])) or "the standard game"
            print(f"  {name:<12} {source}: {diff}")
        print(f"Catch schemes (option caught): {', '.join(CATCH_SCHEMES)}")
        return 0
    try:
        rules = resolve(args.name)
    except RefereeError as err:
        from .commands.errors import fail

        return fail(err)
    if args.json:
        _print_json(rules.to_json())
        return 0
    print(f"Preset {args.name} ({PRESET_SOURCES[args.name]}):")
    data = rules.to_json()
    for name, doc in OPTION_DOCS.items():
        mark = "*" if name in PRESETS[args.name] else " "
        print(f" {mark}{name} = {json.dumps(data[name])}\n     {doc}\n"
              f"     values: {OPTION_VALUES[name]}")
    print("(* differs from the standard game)")
    print("Catch schemes (caught):")
    for scheme in CATCH_SCHEMES.values():
        print(f"  {scheme.name:<20} {scheme.description}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="Referee and settlement for "
                                     "live Tonk tables.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a session log and settle it")
    p.add_argument("log", help="a tonk-log/1 file")
    p.add_argument("--json", action="store_true", help="print the tonk-result/1 document")
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
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
