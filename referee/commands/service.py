"""``referee serve``, ``import``, ``export`` and ``verify``: the service's commands."""

from __future__ import annotations

import argparse
import os
import re
import sys

from ..rules.errors import RefereeError
from ..rules.words import Np_
from .errors import fail, log_language, whole_argument

# os.path, not pathlib: this module is loaded by every ``referee`` command,
# replays included, and pathlib (with logging, imported where used) cost 18 ms.
# Relative to where the command runs (a checkout, or any folder a host serves
# from): an installed package must not keep a table's money inside the venv.
DEFAULT_DB = os.path.join("instance", "referee.sqlite3")


def register(sub: argparse._SubParsersAction) -> None:
    from ..rules.words import LANGUAGES

    p = sub.add_parser("serve", help="run the live-table service (tablet pages and JSON API)")
    p.add_argument("--host", default=None,
                   help="the address to listen on (default 127.0.0.1: this machine only; "
                   "0.0.0.0 lets the table's tablets and phones on the local network in: "
                   "--lan does that and says the address)")
    p.add_argument("--port", type=whole_argument, default=8000, help="the port (default 8000)")
    p.add_argument("--lan", action="store_true",
                   help="open the table to the room: listen on every address, print the "
                   "address phones on the same network open, and its QR code")
    p.add_argument("--public-url", metavar="URL",
                   help="the address phones open, used by every QR code and link (default: "
                   "REFEREE_PUBLIC_URL, else with --lan the LAN address, else the address "
                   "each request came in by)")
    p.add_argument("--db", metavar="PATH_OR_URL",
                   help=f"the database: a file, or a postgresql:// URL (default: "
                   f"REFEREE_DATABASE_URL, else {DEFAULT_DB})")
    p.add_argument("--threads", type=whole_argument, default=8,
                   help="worker threads for requests (default 8)")
    p.add_argument("--streams", type=whole_argument, default=None,
                   help="live streams open at once, each with a thread of its own (default "
                   "200); one more is answered 503 and its page asks every few seconds")
    p.add_argument("--trusted-proxies", type=whole_argument, metavar="N",
                   help="how many reverse proxies stand in front of the service: the "
                   "client's address is then the one in X-Forwarded-For N hops back "
                   "(default REFEREE_TRUSTED_PROXIES, else 0: the header is ignored)")
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("import", help="store a session log; prints the new session's id")
    p.add_argument("log", help="a tonk-log/1 file")
    p.add_argument("--db", metavar="PATH_OR_URL")
    p.add_argument("--copy", action="store_true", help="store it even if its night is stored "
                   "already (a log already stored is refused: its hands and debts would count "
                   "twice)")
    p.add_argument("--finer-stake", action="store_true", help="a log without hands opens a "
                   "table now: one for a stake finer than its currency's smallest coin is "
                   "refused (stake_finer_than_coin) unless this confirms it")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="the language of a refusal (default: the table's, from the log)")
    p.set_defaults(func=cmd_import)
    p = sub.add_parser("export", help="print a stored session's log")
    p.add_argument("id")
    p.add_argument("--db", metavar="PATH_OR_URL")
    p.add_argument("--chain", action="store_true", help="add the receipt: the head and the "
                   "events that hash to it, for 'referee verify LOG'")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("verify", help="check every stored session's hash chain and what is "
                       "read from it; or a receipt's head; or an exported log")
    p.add_argument("log", nargs="?", help="an exported tonk-log/1 file carrying its head")
    p.add_argument("--db", metavar="PATH_OR_URL")
    p.add_argument("--session", metavar="ID", help="check this session only")
    p.add_argument("--head", metavar="HASH", help="a receipt: the session's chain (with "
                   "--session), else the database, must still hold this hash (its 64 hex "
                   "digits, or the first 16 or more as a paper prints them)")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="the report's language (default: with --session or a log, the "
                   "table's; else English)")
    p.set_defaults(func=cmd_verify)


def _db_path(args: argparse.Namespace) -> str:
    return database_path(args.db)


def database_path(given: str | None) -> str:
    """``--db`` (``given``), else the URL in REFEREE_DATABASE_URL, else the
    embedded file."""
    return str(given or os.environ.get("REFEREE_DATABASE_URL") or DEFAULT_DB)


def no_database(path: str) -> bool:
    """No database file at ``path`` (a URL names a server, asked when opened)."""
    from ..service.storage import pg

    return not pg.is_url(path) and not os.path.exists(path)


def _open(args: argparse.Namespace, *, must_exist: bool = True):
    from ..service import storage

    path = _db_path(args)
    if must_exist and no_database(path):
        print(f"no database at {path}", file=sys.stderr)
        raise SystemExit(2)
    return storage.connect(path)


def lan_address() -> str:
    """This machine's address on the local network: the one its route to the
    outside leaves by (a UDP socket's connect sends nothing). 127.0.0.1 when
    there is no network."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def cmd_serve(args: argparse.Namespace) -> int:
    from ..web import create_app
    from ..web.links import PUBLIC_URL_ENV

    path = _db_path(args)
    host = args.host or ("0.0.0.0" if args.lan else "127.0.0.1")
    if args.lan and is_loopback(host):
        # The phones would be shown an address this server does not answer on.
        print(f"--lan serves the room, but --host {host} answers this machine alone: the "
              "address shown to the phones could not work. Leave --host out, or give this "
              "machine's LAN address.", file=sys.stderr)
        return 2
    public = args.public_url or os.environ.get(PUBLIC_URL_ENV)
    config = {"DATABASE": path}
    if public:
        config["PUBLIC_URL"] = public
    if args.trusted_proxies is not None:
        config["TRUSTED_PROXIES"] = args.trusted_proxies
    try:
        app = create_app(config)
    except RefereeError as err:
        return fail(err)
    return run_server(app, host, args.port, args.threads, path,
                      show=bool(public) or args.lan,
                      streams=STREAMS if args.streams is None else max(0, args.streams))


def is_loopback(host: str) -> bool:
    """Whether ``host`` only takes connections from this machine."""
    import ipaddress

    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def print_address(url: str) -> None:
    """The address phones open, and its QR code drawn in the terminal."""
    import segno

    print(f"Phones and tablets open {url}  (or scan:)", flush=True)
    segno.make_qr(url, error="m").terminal(compact=True)
    sys.stdout.flush()


# Said on --lan without a host key, after the address and its QR code (the
# last lines on the screen, where it is read): anyone on the network may then
# open tables (about 400 a second over loopback before they were counted per
# address: issue 34).
def no_host_key() -> str:
    from ..service import access  # not at the command line's start-up

    return ("WARNING: no host key is set (REFEREE_HOST_KEY): anyone who reaches this "
            f"address can open tables ({access.OPENINGS} every "
            f"{access.OPENINGS_WINDOW / 60:g} minutes from each address). Set one before "
            "opening the service to a network you do not control.")

# The server's settings (docs/deploy.md, "The server"; measured in docs/decisions.md).
STREAMS = 200  # live streams open at once (each holds a thread while open); more: 503
CONNECTIONS = 4000  # sockets open at once, idle, slow and streaming alike
IDLE_SECONDS = 30  # a connection with no request in progress and no byte for this long closes
OPEN_FILES = 8192  # the soft limit of open files asked for (each socket is one)


def open_files(wanted: int = OPEN_FILES) -> int:
    """Raise this process's soft limit of open files towards ``wanted`` (never
    above the hard limit); the limit now."""
    try:
        import resource
    except ImportError:  # not on this system: as it is
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    goal = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < goal:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (goal, hard))
            soft = goal
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else soft


def server_settings(threads: int, streams: int) -> dict:
    """waitress's settings: ``threads`` for requests plus one per live stream
    (a stream holds its thread while it is open); sockets up to what the
    open-file limit allows, read by poll() (select() stops at descriptor
    1024); an idle or trickling connection closed after ``IDLE_SECONDS`` (a
    half-sent request holds no thread, only a socket)."""
    limit = open_files()
    return {"threads": threads + streams,
            "connection_limit": max(100, min(CONNECTIONS, limit - threads - streams - 64)),
            "channel_timeout": IDLE_SECONDS, "cleanup_interval": 5,
            "asyncore_use_poll": True, "backlog": 2048}


def run_server(app, host: str, port: int, threads: int, path: str,
               show: bool = False, streams: int = STREAMS) -> int:
    """Serve ``app`` until interrupted (also bench/floor.py's server, so that the
    benchmark measures the same server)."""
    import logging

    from waitress import create_server

    from ..service import beside
    from ..service.storage.pg import safe_url
    from ..speed.collector import settle_for_serving
    from . import poller

    # The second process a long import replays in comes from a fork server
    # started now, before waitress's threads: never forked from a request's
    # thread, holding the server's sockets (service/beside.py).
    beside.prepare()
    # "Task queue depth is N" on every request that waits for a free thread:
    # normal with many tablets, and a flood in the log under load.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    app.config["STREAM_LIMIT"] = streams
    # waitress, not Flask's development server: threaded, production-grade.
    try:
        server = create_server(app, map=poller.Map(), host=host, port=port, ident="referee",
                               **server_settings(threads, streams))
    except OSError as err:  # the address is taken, or not this host's
        print(f"cannot serve on {host}:{port}: {err.strerror or err} (another server "
              "there? --host and --port choose another)", file=sys.stderr)
        return 2
    poller.install(server)
    settle_for_serving()
    shown = host if ":" not in host else f"[{host}]"
    print(f"Tonk referee serving on http://{shown}:{server.effective_port}/ "
          f"(database {safe_url(path)})", flush=True)
    if show:
        # --lan without a public URL: the LAN address, with the port really taken.
        if not app.config.get("PUBLIC_URL"):
            app.config["PUBLIC_URL"] = f"http://{lan_address()}:{server.effective_port}/"
        print_address(app.config["PUBLIC_URL"])
        if not app.config.get("REFEREE_HOST_KEY"):
            print(no_host_key(), file=sys.stderr, flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from ..record import read_log_file
    from ..service.money import payable
    from ..service.table import sessions

    log = None
    try:
        log = read_log_file(args.log)
        if isinstance(log, dict) and not log.get("hands") and not args.finer_stake:
            # A table opening now, as the API's without hands: the host confirms
            # a stake finer than a coin (a night already played is kept as given).
            payable.check_opening_stake(log)
        info = sessions.import_log(_open(args, must_exist=False), log, copy=args.copy)
    except RefereeError as err:  # as replay refuses: --lang, else the log's language
        return fail(err, lang=args.lang or log_language(log, args.log))
    print(info.id)
    print(f"table_token {info.table_token}", file=sys.stderr)
    print(f"audit_token {info.audit_token}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from ..service.table import sessions

    try:
        db = _open(args)
        text = sessions.export_text(db, args.id, chain=getattr(args, "chain", False))
    except RefereeError as err:
        return fail(err)
    sys.stdout.write(text)
    _note_hand_in_play(db, args.id)
    return 0


def _note_hand_in_play(db, sid: str) -> None:
    """An open table's log ends in the hand being played, which ``referee
    replay`` refuses (``hand_unfinished``, docs/decisions.md): said where
    the log is made, so that the refusal comes as no surprise (newcomer F32)."""
    from ..service import storage
    from ..service.table import sessions

    n = storage.hands.in_play(db, sid)
    if n is not None:
        print(_said(sessions.table_language(db, sid),
                    N_("note: hand {hand} is still in play, so this log ends in the middle of "
                       "it; 'referee replay' reads it once the hand is finished or void"),
                    hand=n), file=sys.stderr)


def _bad_input(message: str, lang: str | None = None, **params: object) -> int:
    print(_said(lang, N_("malformed input: {message}"),
                message=_said(lang, message, **params)), file=sys.stderr)
    return 2


def N_(text: str) -> str:  # noqa: N802 - the catalogs' marker (importing it costs babel)
    return text


def _said(lang: str | None, template: str, **params: object) -> str:
    """A sentence of the command in ``lang``: English without loading babel."""
    if not lang or lang == "en":
        return template.format(**params)
    from .. import language

    return language.gettext(lang, template, **params)


def cmd_verify(args: argparse.Namespace) -> int:
    """Exit 0 intact, 1 a fault found, 2 a question that cannot be asked (no
    database, not a database, a malformed head): a broken chain and a mistyped
    path must not read alike."""
    import sqlite3

    from ..service import storage, trust
    from ..service.trust import receipt as receipts

    lang = getattr(args, "lang", None)
    head = answer = None
    if args.log is not None:
        return _verify_log(args.log, lang)
    path = _db_path(args)
    if no_database(path):
        return _bad_input(N_("no database at {path}"), lang, path=path)
    try:
        db = _open(args)
        if args.session is not None and lang is None:
            lang = _table_language(db, args.session)  # as its papers speak it
        receipt = _receipt_head(db, args.head, args.session, lang)
        if receipt is False:
            return 2
        if args.session is not None:
            said: list = []
            report = {args.session: trust.verify_session(db, args.session, said)}
            notes = {args.session: said} if said else {}
            if receipt is not None:
                answer = receipts.check(db, receipt, args.session)
        else:
            notes = {}
            # One snapshot: the head printed is the newest event of what was
            # checked, whatever a running service adds meanwhile.
            with storage.snapshot(db):
                report = trust.verify_all(db, notes)
                # A database's receipt (--head alone): the newest session deleted,
                # or its chain rewritten, leaves nothing inside the file to see;
                # the head kept outside it does (docs/decisions.md). Its answer
                # is the receipt's, not a session's: it is not counted as one.
                if receipt is not None:
                    answer = receipts.check(db, receipt)
                head = storage.chain.database_head(db)
    except sqlite3.DatabaseError as err:
        return _bad_input(N_("{path} is not a referee database ({error})"), lang, path=path,
                          error=err)
    except RefereeError as err:
        return fail(err, lang=lang)
    bad = _say_sessions(report, notes, lang)
    # The receipt's answer, held or not (newcomer 43's N12, 45's P1), where
    # the sessions hold: a new head to keep only where the old one held too.
    held = answer is None or answer.held
    if answer is not None and not (held and bad):
        print(_said(lang, answer.words.template, **answer.words.params))
    if args.session is None and head is not None and not bad and held:
        print(_said(lang, N_("database head {head} (keep it: --head checks it later)"),
                    head=head))
    return 1 if bad or not held else 0


def _say_sessions(report: dict[str, list], notes: dict[str, list], lang: str | None) -> int:
    """Each session's faults and the count of sessions checked, said; the
    number of sessions with a fault."""
    # What the chain cannot vouch for is not a fault: said, on stderr.
    for sid, said in notes.items():
        for note in said:
            print(_said(lang, N_("session {session}: {fault}"), session=sid, fault=note),
                  file=sys.stderr)
    bad = 0
    for sid, faults in report.items():
        if faults:
            bad += 1
            for fault in faults:
                print(_said(lang, N_("session {session}: {fault}"), session=sid, fault=fault))
    # The verdict and the head to keep are the command's answer: on stdout
    # (``referee verify > head.txt`` keeps them); notes went to stderr.
    print(checked_sentence(lang, len(report), bad))
    return bad


# Each count agrees with its own words ("1 session checked", "0 avec une anomalie").
CHECKED = Np_("{count} session checked, {faulty}", "{count} sessions checked, {faulty}",
              "count")
FAULTY = Np_("{bad} with a fault", "{bad} with a fault", "bad")


def checked_sentence(lang: str | None, checked: int, bad: int) -> str:
    """``referee verify``'s verdict: the sessions checked, how many with a fault."""
    return _said(lang, CHECKED.pick(checked), count=checked,
                 faulty=_said(lang, FAULTY.pick(bad), bad=bad))


def _table_language(db, sid: str) -> str | None:
    from ..service.table import sessions

    try:
        return sessions.table_language(db, sid)
    except RefereeError:
        return None


def _receipt_head(db, given: str | None, sid: str | None, lang: str | None
                  ) -> str | None | bool:
    """The head ``--head`` names: its 64 hex digits, or the first
    ``PRINTED_HEAD`` or more as a paper prints them ("dcf83f711d4d8b6b…"),
    found in the session's chain (else the database's); a shortened head
    found nowhere is checked as typed, and said not to be in the chain.
    False: it cannot be read, or begins more than one event's hash (said,
    in ``lang``)."""
    from ..record.chain import PRINTED_HEAD
    from ..service import storage

    if given is None:
        return None
    digits = given.strip().rstrip("…").rstrip(".").lower()
    if not re.fullmatch(rf"[0-9a-f]{{{PRINTED_HEAD},64}}", digits):
        _bad_input(N_("--head takes a receipt's head: its 64 hex digits, or its first {count} "
                      "or more as a paper prints them"), lang, count=PRINTED_HEAD)
        return False
    if len(digits) == 64:
        return digits
    found = storage.chain.heads_from(db, digits, sid)
    if len(found) > 1:
        _bad_input(N_("more than one event's hash begins with {head}: type more of it"),
                   lang, head=digits)
        return False
    return found[0] if found else digits


def _verify_log(path: str, lang: str | None = None) -> int:
    from ..record import load_log, parse_json, read_file
    from ..record.chain import LogChainError
    from ..service.trust import verify_log

    try:
        doc = parse_json(read_file(path))
        load_log(doc)  # the play itself must be a log
        lang = lang or (doc.get("language") if isinstance(doc.get("language"), str) else None)
        head = verify_log(doc)
    except LogChainError as err:
        print(_said(lang, N_("log {path}: {fault}"), path=path, fault=err.words))
        return 1
    except RefereeError as err:
        return fail(err, lang=lang)
    print(_said(lang, N_("log {path}: intact, head {head}"), path=path, head=head))
    return 0
