"""``referee settle``, ``referee audit`` and ``referee whatif``.

Each reads a log file, or with ``--db`` a stored session by its id. Errors
are the engine's message: exit status 1 for a rule broken, 2 for input that
cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import whole_argument


def _source(p: argparse.ArgumentParser) -> None:
    from ..rules.words import LANGUAGES

    p.add_argument("source", metavar="LOG_OR_SESSION",
                   help="a tonk-log/1 file, or with --db the id of a stored session")
    p.add_argument("--db", metavar="PATH", help="read the session from this service database")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="the paper's language (default: the table's, from the log)")


def _load(args: argparse.Namespace):
    """(log, final hash or None, stored session or None): a log exported with
    its chain, where the chain holds, is read as the stored session was
    (its head, its events); where it does not, as a plain log, said on
    stderr."""
    from ..record import load_log, parse_json, read_file

    db = args.db or _default_db(args.source)
    if db:
        from ..reports.stored import load_stored

        stored = load_stored(db, args.source)
        return stored.log, stored.final_hash, stored
    doc = parse_json(read_file(args.source))
    if isinstance(doc, dict) and ("head" in doc or "chain" in doc):
        from ..record.chain import LogChainError
        from ..reports.stored import chained_log
        from .service import N_, _said

        try:
            chained = chained_log(doc)
        except LogChainError as err:
            lang = args.lang or doc.get("language")
            print(_said(lang if isinstance(lang, str) else None, N_("log {path}: {fault}"),
                        path=args.source, fault=err.words), file=sys.stderr)
        else:
            if chained is not None:
                return chained.log, chained.final_hash, chained
    return load_log(doc), None, None


def _default_db(source: str) -> str | None:
    """The service's own database (as ``serve`` and ``verify`` find it) when
    ``source`` is no file but names a session there: ``referee settle ID``
    after ``referee serve`` said "no such file" of the session's id."""
    import os

    from ..service.table.ids import is_session_id
    from .service import database_path, no_database

    if os.path.exists(source) or not is_session_id(source):
        return None
    path = database_path(None)
    return None if no_database(path) else path


def _said_in(args: argparse.Namespace) -> str | None:
    """The language a paper command's refusal is said in: ``--lang``, else
    the log file's own (as ``referee replay`` says it; a stored session's
    refusals are the service's, in English)."""
    from .errors import log_language

    if args.lang or args.db:
        return args.lang
    return log_language(None, args.source)


def _write(path: str, data: bytes) -> int:
    try:
        if path == "-":
            sys.stdout.buffer.write(data)
        else:
            with open(path, "wb") as f:
                f.write(data)
    except OSError as err:
        print(f"cannot write {path}: {err.strerror}", file=sys.stderr)
        return 2
    return 0


def cmd_settle(args: argparse.Namespace) -> int:
    # As `referee replay` runs: the replay and the paper make no reference
    # cycles, but their many small objects set the cyclic collector off again
    # and again, each time rescanning every hand kept so far (a 10,000-hand
    # paper took 1.5 times as long with it).
    from ..speed.collector import paused

    with paused():
        return _settle(args)


def _settle(args: argparse.Namespace) -> int:
    from ..replay import replay
    from ..reports.settlement import render_settlement
    from ..reports.stored import StoredSession
    from ..rules.errors import RefereeError
    from ..speed.exit import keep
    from .errors import fail

    stored = None
    try:
        try:
            log, final_hash, stored = _load(args)
            session = replay(log)
        except RefereeError as err:
            return fail(err, lang=_said_in(args))
        from ..reports.sections import Sections

        paper = stored.settlement_paper(session) if stored is not None else \
            {"sections": Sections.replayed(session)}
        head = stored.settlement_head() if stored is not None else final_hash
        pdf = render_settlement(session, final_hash=head, date=args.date,
                                table=args.table, lang=args.lang, **paper)
    finally:
        # Read, refused or not: nothing is left open when the command leaves at once.
        if isinstance(stored, StoredSession):
            stored.close()
    keep((log, session, paper))
    return _write(args.pdf, pdf)


def cmd_audit(args: argparse.Namespace) -> int:
    from ..reports.audit import audit_hand, audit_json, render_audit, retold_of
    from ..rules.errors import RefereeError
    from .errors import fail

    try:
        log, final_hash, stored = _load(args)
        events = stored.hand_events(args.hand) if stored else None
        audit = audit_hand(log, args.hand, events)
    except RefereeError as err:
        return fail(err, as_json=args.json, lang=_said_in(args))
    if args.json:
        sys.stdout.write(json.dumps(audit_json(audit), indent=2, ensure_ascii=False) + "\n")
    if args.pdf:
        settled = stored.audit_settled(args.hand) if stored is not None else None
        status = _write(args.pdf, render_audit(audit, final_hash=final_hash, date=args.date,
                                               table=args.table, lang=args.lang,
                                               settled=settled,
                                               retold=retold_of(audit, stored)))
        if status:
            return status
    if not args.json and not args.pdf:
        print("give --pdf OUT (or --json)", file=sys.stderr)
        return 2
    # A hand whose log breaks a rule is audited, but the audit says so in its status.
    return audit.fault.exit_status if audit.fault else 0


def cmd_whatif(args: argparse.Namespace) -> int:
    from ..reports.whatif import format_whatif, what_if
    from ..rules.errors import RefereeError
    from .errors import fail

    try:
        log, _hash, _stored = _load(args)
        result = what_if(log, args.rules, hand=args.hand)
    except RefereeError as err:
        return fail(err, as_json=args.json, lang=_said_in(args))
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        print(format_whatif(result, lang=args.lang))
    return result.error.exit_status if result.error else 0


def cmd_sheet(args: argparse.Namespace) -> int:
    from ..reports.sheet import render_sheet
    from ..rules.errors import RefereeError
    from .errors import fail

    url = args.url
    if url and args.db:
        # A stored session's page is the service's address and /s/ID.
        url = f"{url.rstrip('/')}/s/{args.source}"
    try:
        log, _hash, stored = _load(args)
        pdf = render_sheet(log, lang=args.lang, url=url,
                           stake=stored.stake_in_force() if stored else None)
    except RefereeError as err:
        return fail(err, lang=_said_in(args))
    return _write(args.pdf, pdf)


def _paper_header(p: argparse.ArgumentParser) -> None:
    p.add_argument("--date", help="the date to print (default: the log's started)")
    p.add_argument("--table", help="the table's name to print (default: the log's table)")


def register(sub) -> None:
    p = sub.add_parser("settle", help="the settlement PDF of a session")
    _source(p)
    p.add_argument("--pdf", required=True, metavar="OUT", help="where to write it (- : stdout)")
    _paper_header(p)
    # Leaves at once once the paper is written (speed/exit.py): freeing a
    # long night's hands and the paper's objects at exit took about a
    # seventh of a 10,000-hand settle (under load).
    p.set_defaults(func=cmd_settle, exit_at_once=True)

    p = sub.add_parser("audit", help="the audit PDF of one hand: every action and the ruling")
    _source(p)
    p.add_argument("--hand", type=whole_argument, required=True, metavar="N",
                   help="the hand, from 1")
    p.add_argument("--pdf", metavar="OUT", help="where to write it (- : stdout)")
    p.add_argument("--json", action="store_true", help="print the steps as JSON")
    _paper_header(p)
    p.set_defaults(func=cmd_audit)

    p = sub.add_parser("sheet", help="the one-page house-rules sheet of a table, to print")
    _source(p)
    p.add_argument("--pdf", required=True, metavar="OUT", help="where to write it (- : stdout)")
    p.add_argument("--url", metavar="URL",
                   help="the table's page for the QR code; with --db, the service's address "
                   "(the session's /s/ID is added)")
    p.set_defaults(func=cmd_sheet)

    p = sub.add_parser("whatif", help="settle again under other rules and compare")
    _source(p)
    p.add_argument("--rules", required=True, metavar="PRESET_OR_JSON",
                   help='a preset name, or JSON: {"preset": ..., ...} for complete rules, '
                   'or just the options to change, e.g. {"caught": "double_to_all"}')
    p.add_argument("--hand", type=whole_argument, metavar="N", help="compare this hand only")
    p.add_argument("--json", action="store_true", help="print tonk-whatif/1 JSON")
    p.set_defaults(func=cmd_whatif)
