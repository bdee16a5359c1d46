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
    from .record import load_log, parse_json, read_file
    from .replay import replay, replay_document_json_text
    from .speed.exit import keep

    doc = None
    try:
        doc = parse_json(read_file(args.log))
        keep(doc)
        if args.json:
            # Only the numbers are printed: a long log is replayed on two
            # cores, the second starting while this one reads the log.
            sys.stdout.write(replay_document_json_text(doc))
            return 0
        session = replay(load_log(doc))
        result = session.result()
        keep((session, result))
    except RefereeError as err:
        from .commands.errors import fail, log_language  # a refusal's words alone

        return fail(err, as_json=args.json, lang=args.lang or log_language(doc, args.log))
    from .reports.text import format_report  # the text report's alone

    print(format_report(session, result, args.lang))
    return 0


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
        print(f"  {scheme.name:<20} {language.say(scheme.said(), lang)}")
    return 0


# The commands this module defines; the others are the extensions'.
OWN_COMMANDS = ("replay", "rules")


class _NotOwn(Exception):
    """A command line the parser of one command alone does not read as it is."""


class _OneCommand(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise _NotOwn(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. For ``command`` (one of ``OWN_COMMANDS``),
    a parser of that command alone, which reads a well-formed command line
    as the whole one does and raises ``_NotOwn`` at anything else (``_parse``
    then asks the whole parser, whose usage and errors name every command)."""
    parser = (_OneCommand if command else argparse.ArgumentParser)(
        prog="referee", description="Referee and settlement for live Tonk tables.")
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
    if command in OWN_COMMANDS:
        return parser
    for module in EXTENSIONS:
        try:
            mod = import_module(module)
        except ModuleNotFoundError as err:
            if not module.startswith(err.name or "?"):
                raise
            continue
        mod.register(sub)
    return parser


def _parse(argv: list[str]) -> argparse.Namespace:
    """``argv`` read. A replay's or the rules' command line is read by its
    own command's parser: importing the other commands and adding their
    seventy arguments was 5% of a one-hand replay's instructions. Help, and
    anything that parser does not read, is the whole parser's to say."""
    if argv and argv[0] in OWN_COMMANDS and "-h" not in argv and "--help" not in argv:
        try:
            return build_parser(argv[0]).parse_args(argv)
        except _NotOwn:
            pass
    return build_parser().parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    return args.func(args)


def run() -> None:
    """The ``referee`` command (and ``python -m referee``): ``main``, then exit.

    A replay (and a settle) exits at once once its output is written:
    freeing a long log's objects one by one at interpreter exit took 60 ms,
    a tenth of the run, and neither holds anything else to close
    (``exit_at_once`` on the command's parser; speed/exit.py).
    """
    args = _parse(sys.argv[1:])
    if getattr(args, "exit_at_once", False):
        from .speed.exit import leave_at_once

        leave_at_once()
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
