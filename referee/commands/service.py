"""``referee serve``, ``import``, ``export`` and ``verify``: the service's commands."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..rules.errors import RefereeError
from .errors import fail

# os.path, not pathlib: this module is loaded by every ``referee`` command,
# replays included, and pathlib (with logging, imported where used) cost 18 ms.
# Relative to where the command runs (a checkout, or any folder a host serves
# from): an installed package must not keep a table's money inside the venv.
DEFAULT_DB = os.path.join("instance", "referee.sqlite3")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the live-table service (tablet pages and JSON API)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", metavar="PATH", help=f"the database (default {DEFAULT_DB})")
    p.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("import", help="store a session log; prints the new session's id")
    p.add_argument("log", help="a tonk-log/1 file")
    p.add_argument("--db", metavar="PATH")
    p.set_defaults(func=cmd_import)
    p = sub.add_parser("export", help="print a stored session's log")
    p.add_argument("id")
    p.add_argument("--db", metavar="PATH")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("verify", help="check every stored session's hash chain")
    p.add_argument("--db", metavar="PATH")
    p.set_defaults(func=cmd_verify)


def _db_path(args: argparse.Namespace) -> str:
    return str(args.db or DEFAULT_DB)


def _open(args: argparse.Namespace, *, must_exist: bool = True):
    from ..service import storage

    path = _db_path(args)
    if must_exist and not os.path.exists(path):
        print(f"no database at {path}", file=sys.stderr)
        raise SystemExit(2)
    return storage.connect(path)


def cmd_serve(args: argparse.Namespace) -> int:
    from ..web import create_app

    path = _db_path(args)
    return run_server(create_app({"DATABASE": path}), args.host, args.port, args.threads,
                      path)


def run_server(app, host: str, port: int, threads: int, path: str) -> int:
    """Serve ``app`` until interrupted (also bench/floor.py's server, so that the
    benchmark measures the same server)."""
    import logging

    from waitress import create_server

    # "Task queue depth is N" on every request that waits for a free thread:
    # normal with many tablets, and a flood in the log under load.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    # waitress, not Flask's development server: threaded, production-grade.
    server = create_server(app, host=host, port=port, threads=threads,
                           ident="referee", connection_limit=200)
    shown = host if ":" not in host else f"[{host}]"
    print(f"Tonk referee serving on http://{shown}:{server.effective_port}/ "
          f"(database {path})", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from ..record import read_log_file
    from ..service import sessions

    try:
        log = read_log_file(args.log)
        info = sessions.import_log(_open(args, must_exist=False), log)
    except RefereeError as err:
        return fail(err)
    print(info.id)
    print(f"table_token {info.table_token}", file=sys.stderr)
    print(f"audit_token {info.audit_token}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from ..service import sessions

    try:
        doc = sessions.get_log(_open(args), args.id)
    except RefereeError as err:
        return fail(err)
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from ..service import storage

    report = storage.verify_chain(_open(args))
    bad = 0
    for sid, fault in report.items():
        if fault is None:
            continue
        bad += 1
        print(f"session {sid}: event {fault['seq']} (id {fault['id']}, {fault['kind']}, "
              f"hand {fault['hand']}): {fault['reason']}")
    print(f"{len(report)} session(s) checked, {bad} with a broken chain",
          file=sys.stderr if not bad else sys.stdout)
    return 1 if bad else 0
