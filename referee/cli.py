"""The ``referee`` command line."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from importlib import import_module

from .rules.errors import MalformedInput, RefereeError

# Modules that add their own subcommands: each has register(subparsers).
EXTENSIONS = ("referee.service_cli", "referee.reports.cli")


def _print_json(doc: object) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def read_log_file(path: str) -> dict:
    from .log import parse_log_text

    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError as err:
        raise MalformedInput("malformed_log", f"cannot read {path}: {err.strerror}") from None
    return parse_log_text(text)


def error_exit(err: RefereeError, as_json: bool) -> int:
    if as_json:
        _print_json({"error": err.to_dict()})
    else:
        kind = "malformed log" if err.exit_status == 2 else "rule broken"
        print(f"{kind} [{err.code}]: {err.message}", file=sys.stderr)
    return err.exit_status


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
    from .replay import replay
    from .replay_split import replay_json_text

    try:
        log = read_log_file(args.log)
        if args.json:
            # Only the numbers are printed: a long log is replayed on two cores.
            sys.stdout.write(replay_json_text(log))
            return 0
        session = replay(log)
        result = session.result()
    except RefereeError as err:
        return error_exit(err, args.json)
    print(format_report(session, result))
    return 0


def format_report(session, result) -> str:
    from .ledger.money import fmt

    log = session.log
    q = result.quantum
    unit = log.get("currency") or ("points" if session.rules.scoring != "push_ups" else "push-ups")
    lines = []
    title = log.get("table") or "Tonk session"
    lines.append(f"{title}: {len(result.hands)} hand(s), rules {session.rules.preset}, "
                 f"stake {log['stake']} {unit}")
    players = result.players
    width = max(8, *(len(p) for p in players))
    lines.append("")
    lines.append(f"{'hand':>4}  {'dealer':<{width}}  {'outcome':<10}  " +
                 "  ".join(f"{p:>{width}}" for p in players))
    for h in result.hands:
        nets = "  ".join(f"{fmt(h.net[p], q) if p in h.net else '':>{width}}" for p in players)
        lines.append(f"{h.number:>4}  {h.dealer:<{width}}  {h.outcome:<10}  {nets}")
        for sentence in h.settlement.story:
            lines.append(f"{'':>6}{sentence}")
    lines.append("")
    lines.append(f"{'':>4}  {'totals':<{width}}  {'':<10}  " +
                 "  ".join(f"{fmt(result.totals[p], q):>{width}}" for p in players))
    lines.append("")
    if result.transfers:
        lines.append("To settle up:")
        for t in result.transfers:
            lines.append(f"  {t.payer} pays {t.payee} {fmt(t.amount, q)} {unit}")
    elif session.rules.scoring == "push_ups":
        low = min(result.totals.values(), default=0)
        best = [p for p in players if result.totals[p] == low]
        lines.append(f"Push-up scores: lowest is best ({', '.join(best)}).")
    else:
        lines.append("Nobody owes anything.")
    return "\n".join(lines)


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
        from .rules_doc import markdown

        sys.stdout.write(markdown())
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
        print(err.message, file=sys.stderr)
        return 2
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
    status = args.func(args)
    if getattr(args, "exit_at_once", False):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
