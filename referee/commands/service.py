"""``referee serve``, ``import``, ``export`` and ``verify``: the service's commands."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..rules.errors import RefereeError

# os.path, not pathlib: this module is loaded by every ``referee`` command,
# replays included, and pathlib (with logging, imported where used) cost 18 ms.
DEFAULT_DB = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    "instance", "referee.sqlite3")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the live-table service (tablet pages and JSON API)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", metavar="PATH", help=f"the database (default {DEFAULT_DB})")
    p.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
    p.add_argument("--bench", action="store_true",
                   help="enable the benchmark's baseline endpoint (bench/load.py)")
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


def _fail(err: RefereeError) -> int:
    print(f"{err.code}: {err.message}", file=sys.stderr)
    return 1 if err.exit_status == 1 else 2


def cmd_serve(args: argparse.Namespace) -> int:
    import logging

    from waitress import create_server

    from ..web import create_app

    path = _db_path(args)
    app = create_app({"DATABASE": path, "BENCH_ENDPOINT": args.bench})
    # "Task queue depth is N" on every request that waits for a free thread:
    # normal with many tablets, and a flood in the log under load.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    # waitress, not Flask's development server: threaded, production-grade.
    server = create_server(app, host=args.host, port=args.port, threads=args.threads,
                           ident="referee", connection_limit=200)
    host = args.host if ":" not in args.host else f"[{args.host}]"
    port = server.effective_port
    print(f"Tonk referee serving on http://{host}:{port}/ (database {path})", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from .. import live
    from ..cli import read_log_file

    try:
        log = read_log_file(args.log)
        info = live.import_log(_open(args, must_exist=False), log)
    except RefereeError as err:
        return _fail(err)
    print(info.id)
    print(f"table_token {info.table_token}", file=sys.stderr)
    print(f"audit_token {info.audit_token}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .. import live

    try:
        doc = live.get_log(_open(args), args.id)
    except RefereeError as err:
        return _fail(err)
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
