"""The club's pages: people across tables, the ledger across weeks, the
season's numbers, and their exports (CSV, the season's PDF). The API and the
host key's guard are ``club_api``'s; a browser unlocks the pages once with
the host key (kept in the signed session cookie).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from flask import (
    Blueprint,
    Response,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from .. import language
from ..ledger.club import AVERAGE_SHOW
from ..rules.errors import MalformedInput, RefereeError
from ..rules.numbers import whole
from ..service import access, club
from ..service.club import copies, pay
from ..service.errors import TooManyTries
from ..service.money.payable import from_form
from ..service.table import sessions
from .club_api import _date, _key
from .db import get_db
from .errors import error_page, on_form
from .forms import check_csrf, here, local_path
from .lang import _, current, message, money, table_title, typed_decimal
from .reports import paper_turn

pages = Blueprint("club", __name__, url_prefix="/club")


# ---------------------------------------------------------------- access


@pages.before_request
def _page_guard():
    if request.method == "POST":
        check_csrf()
    if request.endpoint == "club.unlock":
        return None
    if not _key():
        return error_page(_("The club is shut"), _("This referee has no host key "
                          "(REFEREE_HOST_KEY), so no one may see every table's money.") + " "
                          + _("Whoever runs the referee opens the club by starting it "
                              "again with a host key of their choice: "
                              "REFEREE_HOST_KEY=… referee serve"), 403)
    if not session.get("club"):
        return redirect(url_for("club.unlock", next=here()), 303)
    return None


@pages.route("/unlock", methods=["GET", "POST"])
def unlock():
    error = None
    if request.method == "POST":
        key = _key()
        try:
            # No key: the pages are shut, and an empty one is no key.
            right = bool(key) and access.host_key(
                get_db(), key or "", request.form.get("host_key") or "", "club",
                request.remote_addr or "?")
        except TooManyTries as err:
            right, error = False, message(err)
        if right:
            session["club"] = True
            target = request.args.get("next", "")
            # Only this blueprint's own pages: nothing else is a place to go.
            path = (local_path(target) or "").partition("?")[0]
            ours = path == "/club" or path.startswith("/club/")
            return redirect(target if ours else url_for("club.ledger_page"), 303)
        if error is None:
            error = _("The host key is wrong: ask the person who runs this referee.")
    return render_template("club_unlock.html", error=error,
                           shut=not _key()), 403 if error else 200


# ---------------------------------------------------------------- pages

def _range() -> tuple[date | None, date | None]:
    """The season's dates the query names (none: the whole season); a date
    that is not one, or a season that ends before it starts, is refused
    (``MalformedInput``), never ignored."""
    start, end = _date("from"), _date("to")
    club.season_range(start, end)
    return start, end


def _field(err: MalformedInput) -> str:
    """The date field a refusal names ("from" or "to")."""
    return next(k for k, v in club.DATE_FIELDS.items() if err.params["field"].template == v)


def _to_the_form():
    """A download (the season's paper, its hands) asked with dates that are
    refused: to the season's page with the same query, whose form says why
    beside what was typed."""
    return redirect(url_for("club.season_page", **request.args), 303)


def _currency(rows: list[dict]) -> str | None:
    """The currency a club page shows: the one asked for, else the one most
    tables play in (its page links the others)."""
    return request.args.get("currency") or club.usual_currency(rows)


@pages.get("")
def ledger_page():
    db = get_db()
    rows = club.tables(db)  # once: the currencies, the people and the ledger read them
    led = club.ledger(db, _currency(rows), rows)
    return render_template("club_ledger.html", ledger=led, people=club.people(db, rows),
                           tables={row["id"]: row for row in rows},
                           currencies=club.currencies(rows), history=club.club_history(db))


def _kept(back: str, call) -> Response:
    """A club form's one service call, then back to its page (303) with what
    was kept, or the refusal as a sentence there: a post never draws a page."""
    try:
        target, said = call()
    except RefereeError as err:
        flash(on_form(err) or message(err), "error")
        return redirect(back, 303)
    flash(said, "ok")
    return redirect(target, 303)


@pages.post("/paid")
def paid():
    f = request.form

    def call():
        done = club.mark_paid(get_db(), f.get("from", ""), f.get("to", ""),
                              typed_decimal(f.get("amount"), "payment_amount"),
                              f.get("currency") or None,
                              f.get("session") or None)
        [at] = sessions.list_sessions(get_db(), [done["session"]])
        return (url_for("club.ledger_page", currency=done["currency"]),
                _("Recorded: {payer} paid {payee} {amount} at {table}.",
                  payer=done["from"], payee=done["to"],
                  amount=money(done["amount"], done["currency"]), table=table_title(at)))
    return _kept(url_for("club.ledger_page"), call)


@pages.post("/merge")
def merge():
    def call():
        done = club.merge(get_db(), request.form.get("spelling", ""),
                          request.form.get("into", ""))
        return url_for("club.ledger_page"), _("{spelling} is {name} from now on (undo "
                                              "below).", spelling=done["spelling"],
                                              name=done["into"])
    return _kept(url_for("club.ledger_page"), call)


@pages.post("/nickname")
def nickname():
    def call():
        done = club.nickname(get_db(), request.form.get("person", ""),
                             request.form.get("nickname") or None)
        return (url_for("club.player_page", name=done["person"]),
                _("{name}'s nickname is saved.", name=done["person"]))
    return _kept(url_for("club.ledger_page"), call)


@pages.post("/undo")
def undo():
    event = whole(request.form.get("event", "")) or 0

    def call():
        club.undo(get_db(), event)
        return url_for("club.ledger_page"), _("Undone.")
    return _kept(url_for("club.ledger_page"), call)


@pages.get("/copies/<session_id>")
def copy_page(session_id: str):
    """The confirmation before a copy leaves the club's books (from the
    copy's own page): what it changes, or why it cannot be done."""
    try:
        row, refused = copies.copy_in_books(get_db(), session_id), None
    except RefereeError as err:
        row, refused = None, message(err)
    return render_template("club_copy.html", row=row, refused=refused,
                           session_id=session_id), 200 if row else 422


@pages.post("/copies/<session_id>")
def take_out(session_id: str):
    def call():
        copies.take_out(get_db(), session_id)
        [row] = sessions.list_sessions(get_db(), [session_id])
        return url_for("club.ledger_page"), _(copies.TAKEN_OUT, table=table_title(row))
    return _kept(url_for("club.ledger_page"), call)


@pages.get("/people/<name>")
def player_page(name: str):
    p = club.player(get_db(), name)
    # Which details the club keeps, not what they are: the numbers are shown
    # only beside a payment to the person.
    words = {"iban": _("an IBAN"), "paypal": _("a PayPal.me name"), "note": _("a line")}
    kept = pay.club_details(get_db()).get(p["name"], {})
    return render_template("club_player.html", p=p,
                           kept={k: words[k] for k in words if k in kept})


@pages.post("/people/<name>/pay")
def pay_details_page(name: str):
    doc = from_form(request.form, request.form.getlist("remove"))
    try:
        pay.set_club_details(get_db(), name, doc)
    except RefereeError as err:
        flash(message(err), "error")
    else:
        flash(_("{player}'s payment details are kept", player=name), "ok")
    return redirect(url_for("club.player_page", name=name), 303)


@pages.get("/season")
def season_page():
    a, b = request.args.get("a") or None, request.args.get("b") or None
    db = get_db()
    rows = club.tables(db)
    try:
        start, end = _range()
    except MalformedInput as err:
        # Said on the form, above what was typed, and nothing shown as if
        # asked: a bare page led away from the form (newcomer45 P10b).
        return render_template(
            "club_season.html", s={"currency": _currency(rows), "from": None, "to": None},
            chart="", a=a or "", b=b or "", average_show=AVERAGE_SHOW,
            currencies=club.currencies(rows), error=message(err), wrong=_field(err),
            typed={k: request.args.get(k, "") for k in ("from", "to")}), 400
    data = club.season(db, _currency(rows), start, end, a, b, rows)
    return render_template("club_season.html", s=data, chart=chart_svg(data["running"], current()),
                           a=a or "", b=b or "", average_show=AVERAGE_SHOW,
                           currencies=club.currencies(rows), error=None, wrong=None, typed={})


def _download(text: str | bytes, mimetype: str, filename: str) -> Response:
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@pages.get("/hands.csv")
def hands_csv():
    try:
        start, end = _range()
    except MalformedInput:
        return _to_the_form()
    db = get_db()
    rows = club.tables(db)
    return _download(club.hands_csv(db, _currency(rows), start, end, rows),
                     "text/csv", "hands.csv")


@pages.get("/ledger.csv")
def ledger_csv():
    db = get_db()
    rows = club.tables(db)
    return _download(club.ledger_csv(db, _currency(rows), rows),
                     "text/csv", "ledger.csv")


@pages.get("/season.pdf")
def season_pdf():
    from ..reports.season import render_season

    try:
        start, end = _range()
    except MalformedInput:
        return _to_the_form()
    db = get_db()
    rows = club.tables(db)
    data = club.season(db, _currency(rows), start, end,
                       request.args.get("a") or None, request.args.get("b") or None, rows)
    # The club's paper has no table, so it is in the reader's language.
    with paper_turn():
        paper = render_season(data, current())
    return _download(paper, "application/pdf", "season.pdf")


COLOURS = ("#1b6ca8", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d",
           "#2c3e50")


def chart_svg(running: list[dict], lang: str = language.DEFAULT, width: int = 400,
              height: int = 220) -> str:
    """Each player's balance after each session as lines (inline SVG: no
    script, no image library), and under it the key: each player's colour,
    name and last balance, as an HTML list. The names are not drawn at the
    lines' ends, where players who stand alike drew over each other and a
    long name ran off the chart; the key wraps as the page does. The chart
    scales with the page, its words with it: ``width`` is chosen so that at a
    phone's width (390 px) they read at about 10 px, and the sessions' labels
    are thinned so that they never meet at any size.

    Newcomer N13: the left axis marks round amounts (``chart_lines.ticks``);
    one day's sessions are told apart by the hour their tables opened
    (``season_chart.session_labels``); players who stand alike are drawn a
    line's width apart (``chart_lines.apart``), as six players at 0 drew
    one line; each point names its table and the player's balance when
    pointed at."""
    if not running:
        return ""
    from ..reports.chart_lines import apart, ticks
    from ..reports.season_chart import balances, session_labels

    lines = balances(running)
    marks = ticks(min(min(v) for v in lines.values()), max(max(v) for v in lines.values()))
    bottom, top = marks[0], marks[-1]
    labels = session_labels(running, lang)
    written = [language.decimal_text(m, -m.as_tuple().exponent, lang) for m in marks]
    # Room for the amounts on the left, the labels' lines below, half a label
    # beside the first and last sessions.
    left, edge, top_pad = 6 + 6.5 * max(map(len, written)), _DATE_ROOM / 2, 8
    foot = 8 + 13 * max(label.count("\n") + 1 for label in labels)
    n = len(running)
    inner = width - left - 2 * edge

    def x(i: int) -> float:
        return left + edge + inner * (i / (n - 1) if n > 1 else 0.5)

    def y(v: Decimal) -> float:
        return float(top_pad + (height - top_pad - foot) * (top - v) / (top - bottom))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'role="img" aria-labelledby="running-balance" class="season-chart">',
             *_amounts(marks, written, left, width, y)]
    key = []
    shift = apart(lines)
    for k, p in enumerate(lines):
        colour = COLOURS[k % len(COLOURS)]
        pts = [(x(i), y(v) + _APART * shift[p][i]) for i, v in enumerate(lines[p])]
        said = [f"{running[i].get('table') or labels[i]}: {p} {money(v)}"
                for i, v in enumerate(lines[p])]
        parts += _line(p, colour, pts, said)
        key.append(f'<li><svg width="14" height="14" aria-hidden="true"><rect width="14" '
                   f'height="14" rx="2" fill="{colour}"/></svg> {_esc(p)} '
                   f'<span class="num">{money(lines[p][-1])}</span></li>')
    parts += _dates(labels, x, height - foot + 16, inner / max(n - 1, 1))
    parts.append("</svg>")
    return "".join(parts) + f'<ul class="plain chart-key">{"".join(key)}</ul>'


def _amounts(marks: list[Decimal], written: list[str], left: float, width: int,
             y) -> list[str]:
    """The left axis: each amount marked, its grid line (0's dashed)."""
    out = []
    for m, said in zip(marks, written, strict=True):
        line = 'stroke="#999" stroke-dasharray="4 3"' if not m else 'stroke="#ddd"'
        out.append(f'<line x1="{left:.1f}" x2="{width:.1f}" y1="{y(m):.1f}" y2="{y(m):.1f}" '
                   f'{line}/><text x="{left - 5:.1f}" y="{y(m) + 4:.1f}" font-size="11" '
                   f'text-anchor="end" class="amount">{_esc(said)}</text>')
    return out


def _line(player: str, colour: str, pts: list[tuple[float, float]],
          said: list[str]) -> list[str]:
    """A player's line, and a dot at each session (a season of one session
    draws its points) that says its table and the balance when pointed at."""
    return [f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in pts)}">'
            f'<title>{_esc(player)}</title></polyline>',
            *(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3.5" fill="{colour}" class="point">'
              f'<title>{_esc(text)}</title></circle>' for (a, b), text in zip(pts, said,
                                                                             strict=True))]


def _dates(labels: list[str], x, baseline: float, apart: float) -> list[str]:
    """The sessions' labels under the chart (``apart``: units between two
    sessions), a line each of a label's lines, one label every
    ``_DATE_ROOM`` units at least (more for a wider label), the newest
    always."""
    room = max(_DATE_ROOM, 6.5 * max(len(line) for label in labels
                                     for line in label.split("\n")) + 8)
    step = max(1, -(-int(room) // max(int(apart), 1)))
    last = len(labels) - 1
    return [f'<text x="{x(i):.1f}" y="{baseline}" font-size="11" text-anchor="middle" '
            f'class="day">' + "".join(
                f'<tspan x="{x(i):.1f}" dy="{13 if k else 0}">{_esc(line)}</tspan>'
                for k, line in enumerate(label.split("\n"))) + "</text>"
            for i, label in enumerate(labels) if (last - i) % step == 0]


#: The room a date ("21.11.", 11 units high: about 36 wide) takes on the
#: chart's axis, with a gap to the next.
_DATE_ROOM = 44
#: How far apart two players who stand alike are drawn: a line's width and a gap.
_APART = 3


def _esc(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))
