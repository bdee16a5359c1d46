"""Reports on the web: settlement and hand-audit PDFs, what-if, and a
read-only auditor view that steps through a hand action by action.

Anyone holding the session's audit token (or table token) may read these,
as may a browser that has unlocked the table; nothing here writes. The token
travels in the query string so that a link can be handed to an auditor.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from contextlib import contextmanager
from urllib.parse import quote

from flask import (
    Blueprint,
    abort,
    current_app,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from werkzeug.exceptions import ServiceUnavailable

from ..replay import replay

# The names of the audit's steps: the PDF's, one list for the paper and the page.
from ..reports.audit import (
    NUMBERED,
    STATUS_WORDS,
    STEP_NUMBERS,
    action_numbers,
    actions_read,
    audit_hand,
    describe_state,
    dispute_lines,
    event_marks,
    payment_lines,
    render_audit,
    retold_of,
    said_otherwise,
    step_numbers,
    tellings,
)
from ..reports.common import rules_in_words, unit_of
from ..reports.settlement import OUTCOME_WORDS, render_settlement
from ..reports.stored import load_stored
from ..reports.whatif import what_if
from ..rules.errors import RefereeError
from ..rules.numbers import whole
from ..rules.options import OPTION_NAMES, PRESET_SOURCES
from ..service.access import seats
from ..service.errors import NotFound
from ..service.table import sessions, sight
from . import forms
from .db import get_db
from .errors import BUSY_PAPERS
from .lang import _, current, say, use_table_language
from .lang import message as _message
from .lang import sentence as _sentence
from .links import external_url
from .tablet.blueprint import page_access

bp = Blueprint("reports", __name__, url_prefix="/reports")
INDEX_PAGE = 20  # hands listed per page of the reports index (2x a 10-hand page's time)


def _allowed(sid: str) -> str | None:
    """The reader's token (to carry on in links), or abort 403/404."""
    db = get_db()
    token = request.args.get("token") or None
    try:
        # Any of the table's tokens reads its papers: table, audit, a seat or the viewer.
        found = seats.token_access(db, sid, token) if token else None
        if found is not None:
            g.reader_access = found
            use_table_language(sessions.table_language(db, sid))
            return token
        here_too = page_access(sid)  # unlocked here, or a phone that joined by its link
        if here_too is not None:
            g.reader_access = here_too
            use_table_language(sessions.table_language(db, sid))
            return None
    except NotFound:
        # A table that is not there is answered as one whose token is not
        # this: an id alone tells nothing (docs/decisions.md).
        pass
    unlock = url_for("tablet.unlock", session_id=sid, next=forms.here())
    if not token:
        # A tablet that has not unlocked the table: to the PIN page and back here.
        abort(redirect(unlock, 303))
    abort(current_app.response_class(render_template(
        "error.html", title=_("Locked"), message=_("This link's token is not this table's. "
                                                   "Unlock the table with its PIN instead."),
        link=(unlock, _("Unlock the table"))), 403))


def _stored(sid: str):
    try:
        return load_stored(get_db(), sid)
    except NotFound:
        abort(404)


#: Papers drawn at once in this process (a settlement, an audit, the sheet,
#: the season): one audit of 6,000 refusals took 201 s, and six of them at
#: once took every core from everyone else's requests (another table's
#: median GET went from 4 to 216 ms). A paper waits ``PAPER_WAIT`` seconds
#: for its turn, then is answered 503 (try again).
PAPERS_AT_ONCE = 2
PAPER_WAIT = 30.0
_papers = threading.BoundedSemaphore(PAPERS_AT_ONCE)


@contextmanager
def paper_turn():
    """Draw a paper in its turn (see ``PAPERS_AT_ONCE``)."""
    if not _papers.acquire(timeout=PAPER_WAIT):
        raise ServiceUnavailable(description=BUSY_PAPERS, retry_after=5)
    try:
        yield
    finally:
        _papers.release()


def _pdf(data: bytes, name: str):
    return current_app.response_class(data, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "no-store",
    })


def _sees_all() -> None:
    """A paper that shows every player's cards, to a reader who sees them all."""
    try:
        sight.check_sees_all(g.get("reader_access"))
    except RefereeError as err:
        abort(make_response(*_error_page(err, 403)))


def _error_page(err: RefereeError, status: int = 422):
    return render_template("error.html", title=_("Cannot make this report"),
                           message=_message(err)), status


@bp.get("/<sid>/")
def index(sid: str):
    token = _allowed(sid)
    page = min(max((whole(request.args.get("page")) or 1), 1), 2**62)
    try:
        listed = sessions.reports_index(get_db(), sid, page, INDEX_PAGE)
    except NotFound:
        abort(404)
    return render_template("reports/index.html", sid=sid, token=token, log=listed["log"],
                           summary=sessions.session_summary(get_db(), sid),
                           disputes=listed["disputes"],
                           result=listed["result"], final_hash=listed["head"],
                           standings=listed["standings"], outcomes=OUTCOME_WORDS,
                           presets=PRESET_SOURCES,
                           sees_all=sight.sees_all(g.get("reader_access")))


@bp.get("/<sid>/settlement.pdf")
def settlement_pdf(sid: str):
    _allowed(sid)
    stored = _stored(sid)
    try:
        session = replay(stored.log, allow_open_last_hand=True)
    except RefereeError as err:
        return _error_page(err)
    with paper_turn():
        data = render_settlement(session, final_hash=stored.settlement_head(),
                                 lang=_paper_language(), **stored.settlement_paper(session))
    return _pdf(data, f"settlement-{sid}.pdf")


@bp.get("/<sid>/log")
def log_file(sid: str):
    """The night's log, the file ``referee export --chain`` writes, for the
    host to take away from the tablet: imported into another referee, or
    checked offline by ``referee verify``. It holds every card, so a seat's
    phone and the viewer link are refused it, as the API's ``/log`` is."""
    _allowed(sid)
    _sees_all()
    db = get_db()
    try:
        text = sessions.export_text(db, sid, chain=True)
        summary = sessions.session_summary(db, sid)
    except NotFound:
        abort(404)
    return current_app.response_class(text, mimetype="application/json", headers={
        "Content-Disposition": attachment(log_file_name(summary)),
        "Cache-Control": "no-store",
    })


def log_file_name(summary: dict) -> str:
    """``<table title>-<date>.tonk-log.json``: the table as the pages name it
    (its name, else who sat at it; the opening time left to the date) and
    the day it opened, so that a folder of nights reads in order."""
    from ..reports.sections import TableRef
    from ..reports.words import table_named

    table = TableRef.of(summary)._replace(opened=None)
    day = str(summary.get("started") or summary.get("created") or "")[:10]
    title = _UNSAFE.sub("-", table_named(table, current())).strip(" .-") or "tonk"
    return f"{title[:80]}-{day}.tonk-log.json" if day else f"{title[:80]}.tonk-log.json"


# What a file name may not hold on some system a host saves to (Windows' list,
# and control characters).
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')


def attachment(name: str) -> str:
    """A Content-Disposition for ``name``: an ASCII ``filename`` for old
    browsers and RFC 6266's ``filename*`` with the name as it is written."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode() or "log"
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def _paper_language() -> str | None:
    """The language asked for with ``?lang=``; None: the table's own. A paper
    is the table's document, so neither the reader's cookie nor their
    browser's language changes it."""
    return request.args.get("lang") or None


@bp.get("/<sid>/house-rules.pdf")
def sheet_pdf(sid: str):
    """The one-page house-rules sheet, its QR code linking to the table's page."""
    from ..reports.sheet import render_sheet

    _allowed(sid)
    stored = _stored(sid)
    url = external_url("tablet.session_page", session_id=sid)
    try:
        with paper_turn():
            data = render_sheet(stored.log, lang=_paper_language(), url=url,
                                stake=stored.stake_in_force())
    except RefereeError as err:
        return _error_page(err)
    return _pdf(data, f"house-rules-{sid}.pdf")


def _audit(sid: str, n: int):
    stored = _stored(sid)
    return stored, audit_hand(stored.log, n, stored.hand_events(n))


@bp.get("/<sid>/hands/<int:n>/audit.pdf")
def audit_pdf(sid: str, n: int):
    _allowed(sid)
    _sees_all()
    try:
        with paper_turn():
            stored, audit = _audit(sid, n)
            data = render_audit(audit, final_hash=stored.final_hash, lang=_paper_language(),
                                settled=stored.audit_settled(n),
                                retold=retold_of(audit, stored))
    except RefereeError as err:
        return _error_page(err, 404 if err.code == "no_such_hand" else 422)
    return _pdf(data, f"audit-{sid}-hand-{n}.pdf")


@bp.get("/<sid>/hands/<int:n>/audit")
def audit_view(sid: str, n: int):
    """The auditor's view: one step at a time, with links to the previous and next."""
    token = _allowed(sid)
    _sees_all()
    try:
        stored, audit = _audit(sid, n)
    except RefereeError as err:
        return _error_page(err, 404 if err.code == "no_such_hand" else 422)
    last = len(audit.steps) - 1
    step_no = min(max((whole(request.args.get("step")) or 0), 0), last)
    step = audit.steps[step_no]

    def link(k: int) -> str:
        args = {"sid": sid, "n": n, "step": k}
        if token:
            args["token"] = token
        return url_for("reports.audit_view", **args)

    read, settled = actions_read(audit), stored.audit_settled(n)
    return render_template(
        "reports/audit.html", sid=sid, n=n, token=token, audit=audit, step=step,
        step_no=step_no, last=last, read=read, numbers=action_numbers(audit),
        # each step numbered by its action and its event as the paper's rows are
        step_numbers=step_numbers, number_heads=STEP_NUMBERS, numbered=NUMBERED,
        marks=lambda s: event_marks(s, current()),
        # a correction says what it took back and whose dispute it settled,
        # and the hand's disputes are on the page, as on the paper (newcomer F19)
        said=said_otherwise(audit, current(), settled, read),
        disputes=[Markup(line) for line in dispute_lines(
            audit, current(), settled, stored.log.get("started"))],
        state_lines=describe_state(step.state, current()), link=link,
        final_hash=stored.final_hash, outcomes=OUTCOME_WORDS,
        summary={"match": audit.session.result(with_money=False).match()},
        told=tellings(audit, retold_of(audit, stored), current())
        if audit.hand.told is not None else None,
        story=[say(words) for words in audit.result.settlement.words] if audit.result else [],
        payments=payment_lines(audit, current()),
        statuses={k: _(v) for k, v in STATUS_WORDS.items()})


def _whatif_rules(args) -> str | dict | None:
    """The rules to compare with, from the page's controls: a preset from the
    list and single options changed with selects (``rules``, a preset name or
    JSON, still works for links made before)."""
    if args.get("rules", "").strip():
        return args["rules"].strip()
    rules: dict = {}
    if args.get("preset"):
        rules["preset"] = args["preset"]
    for name in OPTION_NAMES:
        raw = args.get(f"opt_{name}", "")
        if raw.strip():
            rules[name] = forms.parse_option_value(name, raw)
    return rules or None


def _plain_lines(rules) -> list[str]:
    intro, lines = rules_in_words(rules, current())
    return [intro] + [re.sub(r"<[^>]+>", "", line) for line in lines]


@bp.get("/<sid>/whatif")
def whatif_view(sid: str):
    token = _allowed(sid)
    stored = _stored(sid)
    hand = whole(request.args.get("hand"))
    comparison = error = None
    try:
        rules = _whatif_rules(request.args)
        if rules is not None:
            w = what_if(stored.log, rules, hand=hand)
            comparison = {"doc": w.to_json(), "old": _plain_lines(w.old_rules),
                          "new": _plain_lines(w.new_rules) if w.new_rules else [],
                          "error": w.error,
                          "error_text": _sentence(w.error) if w.error is not None else None,
                          "unit": unit_of(stored.log, w.old_rules, current()),
                          "players": w.players,
                          "unsettled": [(n, say(why)) for n, why in w.unsettled],
                          "told": {h.number for h in w.old_result.hands if h.told}}
    except (RefereeError, forms.FormError) as err:
        error = _message(err) if isinstance(err, RefereeError) else str(err)
    return render_template("reports/whatif.html", sid=sid, token=token, hand=hand,
                           args=request.args, comparison=comparison, error=error,
                           presets=PRESET_SOURCES, options=forms.option_fields(),
                           currency=stored.log.get("currency"),
                           hands=len(stored.log.get("hands", [])), outcomes=OUTCOME_WORDS,
                           options_open=any(k.startswith("opt_") and v
                                            for k, v in request.args.items()))
