"""``referee ledger`` and ``referee season``: the club's money and numbers
from a database, as the club's pages show them."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date

from ..rules.errors import RefereeError
from ..rules.words import LANGUAGES
from .errors import fail
from .service import _open

DEFAULT = LANGUAGES[0]  # English; the words module, not babel: every command starts faster


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ledger", help="everyone's balance over every session, and who pays "
                       "whom now (each debt at the table where it is owed)")
    p.add_argument("--db", metavar="PATH_OR_URL")
    p.add_argument("--currency", help="the currency (needed when sessions use several)")
    p.add_argument("--json", action="store_true", help='{"balances": {...}, "transfers": '
                   "[...]} with decimal strings")
    p.add_argument("--csv", metavar="OUT", help="also write the ledger as CSV")
    p.add_argument("--lang", choices=LANGUAGES, default=DEFAULT,
                   help="the language of the text")
    p.add_argument("--take-out", metavar="SESSION", help="first take this copy (a night "
                   "imported again with --copy) out of the club's books, so that the "
                   "night counts once; for good")
    p.set_defaults(func=cmd_ledger)
    p = sub.add_parser("season", help="each player's numbers over a date range; the season "
                       "PDF and every hand as CSV")
    p.add_argument("--db", metavar="PATH_OR_URL")
    p.add_argument("--currency")
    p.add_argument("--from", dest="start", metavar="YYYY-MM-DD", type=_day)
    p.add_argument("--to", dest="end", metavar="YYYY-MM-DD", type=_day)
    p.add_argument("--json", action="store_true")
    p.add_argument("--pdf", metavar="OUT", help="write the season PDF")
    p.add_argument("--csv", metavar="OUT", help="write every hand, one row per player")
    p.add_argument("--lang", choices=LANGUAGES, default=DEFAULT,
                   help="the language of the text and the PDF")
    p.set_defaults(func=cmd_season)


def _day(text: str) -> date:
    try:
        if len(text) != 10:
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date as YYYY-MM-DD") from None


def _write(path: str, data: str | bytes) -> None:
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode, **({} if mode == "wb" else {"newline": "", "encoding": "utf-8"})) as f:
        f.write(data)


def cmd_ledger(args: argparse.Namespace) -> int:
    from ..service import club

    try:
        db = _open(args)
        if args.take_out is not None:
            from ..service.club.copies import take_out

            _taken_out(db, take_out(db, args.take_out)["session"], args.lang)
        rows = club.tables(db)
        led = club.ledger(db, args.currency, rows)
        if args.csv:
            _write(args.csv, club.ledger_csv(db, led["currency"]))
    except RefereeError as err:
        return fail(err)
    if args.json:
        # The shape exactly: who pays whom and how much (the pages add since when).
        print(json.dumps({"balances": led["balances"], "transfers": [
            {k: t[k] for k in ("from", "to", "amount")} for t in led["transfers"]]}))
        return 0
    from ..reports.words import money_text, owed_at, pays_words, words

    _ = words(args.lang)
    currency = led["currency"]
    print(_("Balances ({currency}; positive: the club owes them)", currency=currency))
    for name, amount in led["balances"].items():
        print(f"  {name}: {money_text(amount, currency, args.lang)}")
    print(_("Who pays whom now") if led["transfers"] else _("Nobody owes anybody"))
    for t in led["transfers"]:
        where, params = owed_at(t, args.lang, {r["id"]: r for r in rows})
        print("  " + pays_words(t["from"], t["to"], money_text(t["amount"], currency, args.lang),
                                args.lang) + (" · " + _(where, **params) if t["since"] else ""))
    return 0


def _taken_out(db, sid: str, lang: str) -> None:
    """What ``--take-out`` did, said on stderr as the pages say it (the
    ledger that follows is the output)."""
    from ..reports.sections import TableRef
    from ..reports.words import table_named, words
    from ..service.club.copies import TAKEN_OUT
    from ..service.table.sessions import session_row

    print(words(lang)(TAKEN_OUT, table=table_named(TableRef.of(session_row(db, sid)), lang)),
          file=sys.stderr)


def cmd_season(args: argparse.Namespace) -> int:
    from ..service import club

    try:
        db = _open(args)
        data = club.season(db, args.currency, args.start, args.end)
        if args.csv:
            _write(args.csv, club.hands_csv(db, data["currency"], args.start, args.end))
        if args.pdf:
            from ..reports.season import render_season

            _write(args.pdf, render_season(data, args.lang))
    except RefereeError as err:
        return fail(err)
    if args.json:
        print(json.dumps(data))
        return 0
    from ..reports.season import each_player, season_span
    from ..reports.words import plurals, words

    lang = args.lang
    _ = words(lang)
    currency = data["currency"]
    ngettext = plurals(lang)
    # The span is the season paper's own sentence: a language needs its own
    # words around a date and around "the first table".
    print(ngettext("{n} session in {currency}: {span}", "{n} sessions in {currency}: {span}",
                   data["sessions"], currency=currency, span=season_span(data, lang)))
    # Each player as the page and the paper say them: their headings, their
    # figures, a loss with its sign.
    head, rows = each_player(data, lang)
    for name, *cells in rows:
        print(f"  {name}: " + ", ".join(f"{h.replace('- ', '-')} {v}"
                                        for h, v in zip(head[1:], cells, strict=True)))
    if args.pdf:
        print(_("season PDF written to {path}", path=args.pdf), file=sys.stderr)
    return 0
