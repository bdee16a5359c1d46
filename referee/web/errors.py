"""The web's one mapping from errors to answers.

A service function raises a domain error (``referee.service.errors``); here
it becomes an HTTP status with the JSON error body under ``/api/``, and a
page (or, after a tablet's form post, a flashed line) everywhere else. The
words are the error's own ``message`` in the reader's language
(``referee.web.lang.current``), so the tablet, the API and the command line
say the same thing; the ``code`` is the same in every language.
"""

from __future__ import annotations

import logging

from flask import Flask, flash, jsonify, render_template, request
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, InternalServerError

from .. import language
from ..language import N_
from ..record.schemas import FIELD_PROBLEM, SEAT_PROBLEM
from ..rules.legality import THE_SHOW, wrong_count
from ..service.errors import (
    AlreadyStored,
    ClientIdReused,
    Closed,
    Locked,
    MalformedInput,
    NotFound,
    NotYourSeat,
    ReadOnly,
    RefereeError,
    StaleSeq,
    TooManyTries,
)
from ..service.money.payable import FINER_STAKE_CODE
from .forward import way_forward
from .lang import _, current, message, sentence

log = logging.getLogger(__name__)

# The first match wins: subclasses before their bases.
STATUSES: tuple[tuple[type[RefereeError], int], ...] = (
    (NotFound, 404),
    (StaleSeq, 409),
    (Closed, 409),  # the table no longer takes anything: not a rule of the game
    (ClientIdReused, 409),  # the id answered another request: a conflict, not a rule
    (AlreadyStored, 409),  # the night is stored: a conflict with what is there
    (TooManyTries, 429),
    (ReadOnly, 403),
    (Locked, 401),
    (MalformedInput, 400),
    (RefereeError, 422),  # the rules refuse it
)

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 413: "too_large",
              415: "unsupported_media_type", 422: "refused", 429: "too_many_requests",
              500: "internal_error"}

# The tablet's page for each kind of error: (title, sentence or None for the error's own).
# English, marked: ``_`` puts them into the reader's language where a page is drawn.
PAGES = {
    404: (N_("Not found"), N_("There is no such table or hand here.")),
    403: (N_("Locked"), N_("Unlock this table with its PIN first.")),
    401: (N_("Locked"), N_("Unlock this table with its PIN first.")),
}
NOT_ACCEPTED = N_("Not accepted")
# A table's page (the tablet's views) for an HTTP error one of them raised:
# the table's words, not Werkzeug's (None: the view's own sentence).
TABLE_PAGES = {
    400: (NOT_ACCEPTED, None),
    403: PAGES[403],
    404: PAGES[404],
    405: (N_("Not here"), N_("This page only takes a form; go back and tap again.")),
}

# Werkzeug's own titles and sentences for an HTTP error (an unknown address, a
# wrong method, a body too large), in its English words (the English answer
# keeps them), marked so that the reader's language has them too.
HTTP_TITLES = {400: N_("Bad request"), 403: N_("Forbidden"), 404: N_("Not found"),
               405: N_("Method not allowed"), 413: N_("Too large"),
               415: N_("Unsupported media type"), 429: N_("Too many requests"),
               503: N_("Busy")}
#: A paper asked for while others are being drawn for too long (reports.py).
BUSY_PAPERS = N_("Other papers are being drawn right now: try again in a few seconds.")
HTTP_SENTENCES = {
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_("The requested URL was not found on the server. If you entered the URL manually "
       "please check your spelling and try again."),
    N_("The method is not allowed for the requested URL."),
    N_("The data value transmitted exceeds the capacity limit."),
    N_("The server does not support the media type transmitted in the request."),
    N_("This user has exceeded an allotted request count. Try again later."),
    N_("You don't have the permission to access the requested resource. It is either "
       "read-protected or not readable by the server."),
    BUSY_PAPERS,
}


def _retry_after(err: HTTPException) -> dict:
    """The Retry-After an error carries (a 503 or 429), kept on its page."""
    return {k: v for k, v in err.get_headers() if k == "Retry-After"}


def _http_sentence(err: HTTPException) -> str:
    """An HTTP error's sentence in the reader's language (a view's own, given
    to ``abort`` already said, as it is)."""
    said = err.description or err.name
    return language.gettext(current(), said) if said in HTTP_SENTENCES else said
WRONG_HOST_KEY = N_("the host key is wrong")


def status_for(err: RefereeError) -> int:
    return next(status for kind, status in STATUSES if isinstance(err, kind))


class ApiError(Exception):
    """A request the API cannot read or may not make, before any service call
    (a body that is not JSON, a wrong host key). ``template`` and ``params``
    as a ``RefereeError``'s: the answer says it in the reader's language."""

    def __init__(self, status: int, code: str, template: str, params: dict | None = None, *,
                 hand: int | None = None, action: int | None = None) -> None:
        self.template, self.params = template, params or {}
        message = template.format(**self.params) if self.params else template
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.hand, self.action = hand, action


def error_body(code: str, message: str, hand: int | None = None,
               action: int | None = None) -> dict:
    return {"error": {"code": code, "message": message, "hand": hand, "action": action}}


def _json_error(body: dict, status: int):
    response = jsonify(body)
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="referee"'
    return response, status


def error_page(title: str, message: str, status: int):
    """The error page; its callers say the title and message in the reader's
    language."""
    return render_template("error.html", title=title, message=message), status


#: The table forms' fields as they are labelled, by the refusal's ``field``
#: (a service's ``{field}: {problem}``) or, for a refusal worded for a log
#: ("payment 1's amount: ..."), by its code; the create form has its own
#: labels (``forms.create_label``).
FORM_FIELDS = {"stake": N_("New stake"), "payment_amount": N_("Amount"), "reason": N_("Why"),
               "dispute": N_("What is wrong"),
               # a payment's one typed field (a too large amount: "Payment: ...")
               "payment": N_("Amount")}


#: Refusals worded whole (no ``{field}: {problem}``) of one field's value, by
#: their code: the field a form names before the sentence ("Stake per unit:
#: a stake of 0.001 EUR is finer ..." began lowercase, naming no field).
WHOLE_FIELDS = {FINER_STAKE_CODE: "stake", "stake_places": "stake", "unknown_preset": "preset"}


def on_form(err: RefereeError, label_of=lambda key: _(FORM_FIELDS[key])
            if key in FORM_FIELDS else None) -> str | None:
    """A refused form value's sentence with its field named as the form
    labels it ("New stake: a decimal greater than 0, like 0.25, not "0""),
    not by the log's key ("Stake: ..."); None when the form has no label of
    the field."""
    if err.code in WHOLE_FIELDS:
        key, problem = WHOLE_FIELDS[err.code], sentence(err)
    elif "problem" in err.params:
        key = err.params.get("field") if err.template in FIELD_TEMPLATES else err.code
        problem = language.say(err.params["problem"], current())
    else:
        return None
    label = label_of(key) if isinstance(key, str) else None
    if label is None:
        return None
    return _(FIELD_PROBLEM, field=label, problem=problem)


#: A refusal naming a field of a body or a log: its path is the ``field`` of
#: the API's error body, beside the sentence that names it for a reader.
FIELD_TEMPLATES = (FIELD_PROBLEM, SEAT_PROBLEM)


def field_of(template: str, params: dict) -> dict:
    """The error body's ``field`` (``players.1``), when the refusal names one."""
    field = params.get("field")
    return {"field": field} if template in FIELD_TEMPLATES and isinstance(field, str) else {}


def _why(err: RefereeError, then: str | None = None) -> Markup:
    """A refusal's reason as a sentence, ``then`` what to do (a sentence of
    its own), with the rule's code in small print (for a dispute)."""
    words = on_form(err) or sentence(err)
    words = words[:1].upper() + words[1:]
    code = Markup(' <small class="code">({})</small>').format(
        language.ruled_by(err, current())) if err.code else ""
    return Markup("{}.").format(words.rstrip(".")) + (
        Markup(" {}").format(then) if then else "") + code


def nothing_picked() -> list[str]:
    """A show with nothing picked from a hand of ``k`` cards (item ``k``; none
    for 0, a show of no card), refused as a hand's page says it after the
    action (``flash_refusal``), ``{player}`` left for static/offline.js to
    fill: offline, the page refuses the tap at once in the referee's words
    instead of keeping it to fail when sent (newcomer 46). Up to 20 cards, as
    the offline words' card counts; a hand of more is judged when sent."""
    said = [""]
    for k in range(1, 21):
        err = wrong_count("{player}", k, THE_SHOW, 0)
        said.append(_why(err, way_forward(err, page=True)).striptags())
    return said


def flash_refusal(err: RefereeError, text: str) -> None:
    """A tablet's action or undo that was not logged, said on the hand's screen."""
    # The action as the reader's language says it: the log line (English verbs)
    # only in English.
    said = language.action_words(text, current())
    if isinstance(err, StaleSeq):
        flash(_("Not logged: the hand changed since this screen was loaded (another tablet "
                "logged an action). Check the table below and tap again. ({action})",
                action=said), "error")
    else:
        flash(Markup("{} \u2014 ").format(_("Not logged: {action}", action=said))
              + _why(err, way_forward(err, page=True)), "error")


#: A table's form refused: what it asked for, named (never said as done), then why.
NOT_SAVED = N_("Not saved: {what}")


def flash_refused(err: RefereeError, what: str) -> None:
    """A table's form (a payment, a stake, a seat, a player's details, ...)
    that was refused: ``what`` names what it asked for as a noun ("Ben's
    payment details"), never the sentence its success would have said ("Ben's
    payment details are kept"), which read as refused and done at once."""
    flash(Markup("{} \u2014 ").format(_(NOT_SAVED, what=what)) + _why(err), "error")


def _api(path: str) -> bool:
    return path.startswith("/api/")


def register(app: Flask) -> None:
    """JSON errors for every /api/ URL (also those no view matches); the
    tablet's pages for the rest."""
    app.add_template_global(nothing_picked, "nothing_picked")

    @app.errorhandler(RefereeError)
    def _domain(err: RefereeError):
        status = status_for(err)
        # A 429 says when to come back (a client waits that long, not at once).
        wait = {"Retry-After": str(err.retry_after())} if isinstance(err, TooManyTries) else {}
        if _api(request.path):
            forward = way_forward(err, page=False)
            said = message(err).rstrip(".") + ". " + forward if forward else message(err)
            response, _status = _json_error({"error": {
                **err.to_dict(), "message": said, **field_of(err.template, err.params)}}, status)
            response.headers.update(wait)
            return response, status
        title, words = PAGES.get(status, (NOT_ACCEPTED, None))
        if isinstance(err, NotYourSeat):  # its own sentence: who this phone is
            title, words = NOT_ACCEPTED, None
        page, status = error_page(_(title), _(words) if words else message(err), status)
        return page, status, wait

    @app.errorhandler(ApiError)
    def _api_error(err: ApiError):
        message = language.gettext(current(), err.template, **err.params)
        body = error_body(err.code, message, err.hand, err.action)
        body["error"].update(field_of(err.template, err.params))
        return _json_error(body, err.status)

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):
        code = err.code or 500
        if not _api(request.path):
            if request.blueprint == "tablet" and code in TABLE_PAGES:
                title, words = TABLE_PAGES[code]
                return error_page(_(title), _(words) if words else err.description, code)
            if err.response is not None or code not in HTTP_TITLES:
                return err  # a redirect or a page a view made itself
            page, status = error_page(_(HTTP_TITLES[code]), _http_sentence(err), code)
            valid = getattr(err, "valid_methods", None)
            return page, status, {"Allow": ", ".join(valid)} if code == 405 and valid else \
                _retry_after(err)
        response, _status = _json_error(error_body(HTTP_CODES.get(code, f"http_{code}"),
                                             _http_sentence(err)), code)
        valid = getattr(err, "valid_methods", None)
        if code == 405 and valid:
            response.headers["Allow"] = ", ".join(valid)
        response.headers.update(_retry_after(err))
        return response, code

    @app.errorhandler(Exception)
    def _crash(err: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        if not _api(request.path):
            return InternalServerError()
        return jsonify(error_body("internal_error", language.gettext(
            current(), N_("the referee failed on this request; nothing was logged by "
                               "it")))), 500
