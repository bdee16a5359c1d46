"""The tablet's form plumbing: CSRF tokens, per-form idempotency keys, the PIN
rate limit, and turning posted fields into a log header or an action line.

Nothing here knows the rules of Tonk: the engine (through the service layer)
judges every header and action; this module only reads what a form sent.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import uuid
from typing import Any
from urllib.parse import urlsplit

from flask import abort, request, session

from ..language import LANGUAGES, N_, currency_code, is_currency_code
from ..record.document import MAX_DEPTH, check_document
from ..record.schemas import FIELD_PROBLEM
from ..rules.actions import Action, CountedShow
from ..rules.allowed import Choice, Limit
from ..rules.cards import (  # noqa: F401 (templates use the first five)
    JOKERS,
    RANKS,
    SUITS,
    UNKNOWN,
    card_label,
    parse_card,
)
from ..rules.errors import MalformedInput
from ..rules.numbers import is_whole, whole
from ..rules.options import (
    OPTION_ALLOWED,
    OPTION_DEFAULTS,
    OPTION_DOCS,
    OPTION_NAMES,
    OPTION_VALUES,
)
from ..rules.table import normal_text
from ..service.table.sessions import HOME_TABLES
from .lang import (
    DECIMAL_WIDTH,
    _,
    current,
    option_label,
    option_value,
    say,
    typed_decimal,
)

# ------------------------------------------------------------------ CSRF

CSRF_FIELD = "csrf_token"


def csrf_token() -> str:
    """The token for this browser, kept in the signed session cookie: a
    cross-site page can make the browser send the cookie but cannot read it,
    so it cannot put the token into a form."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def check_csrf() -> None:
    expected = session.get("csrf")
    sent = request.form.get(CSRF_FIELD, "")
    if not expected or not sent or not hmac.compare_digest(expected, sent):
        abort(400, description=_("This form has expired or did not come from this device "
                                 "(missing or wrong CSRF token). Go back, reload the page "
                                 "and try again."))


def csrf_header_ok() -> bool:
    """A request of the tablet's own page script (the offline queue posting a
    kept tap to the JSON API) carries this browser's CSRF token in the
    ``X-CSRF-Token`` header, which another site's page can neither read nor
    (without a CORS preflight this service never answers) send."""
    expected = session.get("csrf")
    sent = request.headers.get("X-CSRF-Token", "")
    return bool(expected and sent and hmac.compare_digest(expected, sent))


def new_client_id() -> str:
    """A fresh key for one rendering of a form: a double tap sends the same
    key twice and the service logs the action once."""
    return uuid.uuid4().hex


# ------------------------------------------------------------------ PIN

PIN_RE = re.compile(r"^[0-9]{4,12}$")


def here() -> str:
    """This request's path with its query, as an unlock page's ``next``: a
    deep link (``/s/ID/hands/new?hand=2``) is where the PIN leads back to,
    query and all (newcomer 46: the path alone lost ``?hand=2``)."""
    return request.full_path.rstrip("?")


def local_path(target: str) -> str | None:
    """``target`` if it is a path of this site, else None. Browsers drop tabs
    and newlines from a URL and read a backslash as a slash, so ``/\t/evil``
    and ``/\\evil`` lead off the site: any such character refuses the target."""
    if not target.startswith("/") or target.startswith("//"):
        return None
    if any(c in target for c in "\\") or any(ord(c) < 0x21 or ord(c) == 0x7F for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


def unlocked_ids() -> list[str]:
    return list(session.get("unlocked", []))


def is_unlocked(session_id: str) -> bool:
    return session_id in session.get("unlocked", [])


def link_token(session_id: str) -> str | None:
    """The seat or viewer link this browser joined the table with, if any."""
    return (session.get("links") or {}).get(session_id)


def keep_link(session_id: str, token: str | None) -> None:
    """Remember (None: forget) the link this browser joined ``session_id`` by."""
    links = {k: v for k, v in (session.get("links") or {}).items() if k != session_id}
    if token:
        links[session_id] = token
    session["links"] = dict(list(links.items())[-20:])


def mark_unlocked(session_id: str) -> None:
    unlocked = [s for s in session.get("unlocked", []) if s != session_id]
    # The cookie holds only the most recent tables, so it stays small (the
    # home page lists as many).
    session["unlocked"] = (unlocked + [session_id])[-HOME_TABLES:]


# ------------------------------------------------------------------ cards


def card_grid(deck: int = 52, jokers: int = 0) -> dict:
    """Ranks by suits as the picker lays them out (a 40-card deck has no 8, 9, 10)."""
    ranks = RANKS if deck == 52 else "A234567JQK"
    return {
        "ranks": list(ranks),
        "suits": list(SUITS),
        "jokers": list(JOKERS[:jokers]),
    }


def card_colour(card: str | None) -> str:
    if card and len(card) == 2 and card[1] in "dh":
        return "red"
    return "black"


# ------------------------------------------------------------------ session header

GROUPS = {
    "deck": N_("Deck and deal"),
    "book_extendable": N_("Spreads and the turn"),
    "spread_wait": N_("Waiting (when a player may not drop)"),
    "deal_wins": N_("Deal wins"),
    "tonk_out_pays": N_("Going out"),
    "drop_pays": N_("Dropping and catches"),
    "stock_out": N_("Stock out"),
    "scoring": N_("Scoring"),
    "ace": N_("Rules other tables play"),
}

MAX_SEATS = 8


def option_fields() -> list[dict]:
    """Every house-rule option, explained, with how the form asks for it, in
    the reader's language (the option's name and description are the
    engine's English, translated where the catalogs have them)."""
    out = []
    for name in OPTION_NAMES:
        choices = OPTION_ALLOWED[name].choices
        out.append({
            "name": name,
            "group": _(GROUPS[name]) if name in GROUPS else None,
            "label": option_label(name),
            "doc": _(OPTION_DOCS[name]),
            "allowed": _values_said(name),
            "default": option_value(name, OPTION_DEFAULTS[name]),
            "choices": [(json.dumps(c), option_value(name, c)) for c in choices]
            if choices else None,
        })
    return out


def _values_said(name: str) -> str:
    """An option's allowed values as the reader reads and types them: a
    choice's values in words ("no, yes", not JSON's "false, true"), no limit
    as the reader's "none" (which the form reads back as JSON's null)."""
    allowed = OPTION_ALLOWED[name]
    if isinstance(allowed, Choice):
        return ", ".join(option_value(name, c) for c in allowed.choices)
    said = getattr(allowed, "said", None)
    return say(said() if said else OPTION_VALUES[name])


def _is_none_word(name: str, raw: str) -> bool:
    """Whether ``raw`` is the reader's word for no value (the form shows
    "none" where the log writes null) for an option that may be null."""
    allowed = OPTION_ALLOWED[name]
    if not (isinstance(allowed, Limit) or getattr(allowed, "optional", False)):
        return False
    return raw.casefold() in {_("none").casefold(), "none"}


class FormError(ValueError):
    """A field a person filled in wrongly; the message says which and how,
    ``code`` names the mistake (tests/form_cases.json holds the tablet's
    script to the same codes)."""

    def __init__(self, message: str, code: str = "form") -> None:
        super().__init__(message)
        self.code = code


def parse_option_value(name: str, raw: str) -> Any:
    raw = raw.strip()
    if _is_none_word(name, raw):
        return None
    try:
        value = json.loads(raw)
    except RecursionError:
        raise _too_deep(name) from None
    except ValueError:
        if name == "deal_wins":
            raise FormError(_("{option}: write a JSON list like {example}",
                              option=option_label(name),
                              example='[{"when": "total:49", "pays": 2}]')) from None
        # Bare words like 2n are meant as text.
        return raw
    try:
        check_document(value)  # everything after would recurse into it
    except MalformedInput:
        raise _too_deep(name) from None
    return value


def _too_deep(name: str) -> FormError:
    return FormError(_(FIELD_PROBLEM, field=option_label(name),
                       problem=_("nested more than {depth} deep", depth=MAX_DEPTH)))


#: The create form's fields by the header's keys, as the form labels them: a
#: refusal of the header names its field so ("Stake per unit: ..."), not by
#: the log's key ("stake: ...", "players.0: ...").
CREATE_LABELS = {"players": N_("Players"),
                 "stake": N_("Stake per unit"), "currency": N_("Currency"),
                 "table": N_("Table name"), "rules": N_("House rules"),
                 "preset": N_("Preset"), "pin": N_("PIN"), "pin2": N_("PIN again"),
                 "language": N_("The table's language"), "host_key": N_("Host key"),
                 "carry_from": N_("Carry what is still owed at")}


def create_refusal(field: str, problem: str, **params: object) -> FormError:
    """A refusal of the create form in the one shape every refusal of it
    has: the field's label, then what it takes ("PIN: 4 to 12 digits"); some
    were whole sentences naming no field (newcomer46 N4)."""
    return FormError(_(FIELD_PROBLEM, field=_(CREATE_LABELS[field]),
                       problem=_(problem, **params)))


def create_label(field: str, form) -> str | None:
    """The create form's label of a header's ``field``, in the reader's
    language, as a refusal names it (``players.1``: the second name typed,
    in its seat), or None for a field the form has no label of."""
    key, _dot, index = field.partition(".")
    if key == "players" and index.isdigit():
        typed = [i for i in range(1, MAX_SEATS + 1) if normal_text(form.get(f"player{i}", ""))]
        k = int(index)
        return _("Seat {number}", number=typed[k]) if k < len(typed) else None
    label = CREATE_LABELS.get(field) or CREATE_LABELS.get(key)
    return _(label) if label else None


def header_from_form(form) -> tuple[dict, str]:
    """The ``tonk-log/1`` header (no hands) and the PIN from the create form.

    Only the shape is read here; the service checks names, stake and rules."""
    players = [normal_text(form.get(f"player{i}", "")) for i in range(1, MAX_SEATS + 1)]
    players = [p for p in players if p]
    if len(players) < 2:
        raise create_refusal("players", N_("at least 2, their names in seat order (clockwise)"))
    pin = form.get("pin", "").strip()
    if not PIN_RE.match(pin):
        raise create_refusal("pin", N_("4 to 12 digits"))
    if form.get("pin2", pin).strip() != pin:
        raise create_refusal("pin2", N_("the same PIN as above"))
    rules: dict[str, Any] = {"preset": form.get("preset", "pagat")}
    for name in OPTION_NAMES:
        raw = form.get(f"opt_{name}", "")
        if raw.strip():
            rules[name] = parse_option_value(name, raw)
    header: dict[str, Any] = {
        "format": "tonk-log/1",
        "stake": typed_decimal(form.get("stake"), "stake") or "1",
        "rules": rules,
        "players": players,
    }
    table = normal_text(form.get("table", ""))
    if table:
        header["table"] = table
    # The table's language: its pages' default and its papers' language.
    chosen = form.get("language", "").strip()
    if chosen:
        if chosen not in LANGUAGES:
            raise create_refusal("language", N_("one from the list"))
        header["language"] = chosen
    currency = normal_text(form.get("currency", ""))
    if currency:
        header["currency"] = known_currency(currency)
    header["started"] = opened_now(form.get("utc_offset", ""))
    return header, pin


#: A currency typed that names none (newcomer46 N3: "€€€€", then "Einsatz
#: 1,00 €€€€" on every page): what the field takes instead.
NO_CURRENCY = N_('a currency\'s code, like {example}, or nothing to play for points, '
                 'not "{value}"')


def known_currency(typed: str) -> str:
    """The ISO 4217 code of the currency a host typed: its code in any case,
    its sign or its name as a language of the service writes them
    (``language.currency_code``); anything else is refused, the field named.
    A log and the API take any currency the log format allows (a table may
    play for chips); a host typing at the tablet means money, and "€€€€"
    was a slip kept as a currency of its own."""
    code = currency_code(typed, current())
    if not is_currency_code(code):
        raise create_refusal("currency", NO_CURRENCY, example="EUR",
                             value=typed[:DECIMAL_WIDTH])
    return code


def opened_now(utc_offset: str) -> str:
    """When the table opens, in its time zone (docs/decisions.md): the offset
    the opening device's clock gives (``utc_offset``, minutes east of UTC, set
    by tablet.js), else this machine's (the referee on a LAN runs in the room)."""
    from datetime import UTC, datetime, timedelta, timezone

    now = datetime.now(UTC)
    raw = utc_offset.strip()
    if raw.lstrip("-").isascii() and raw.lstrip("-").isdigit() and abs(int(raw)) <= 14 * 60:
        here = now.astimezone(timezone(timedelta(minutes=int(raw))))
    else:
        here = now.astimezone()
    return here.isoformat(timespec="seconds").replace("+00:00", "Z")


def setup_from_form(form, players: list[str], upcard_rule: bool, hand_size: int) -> dict:
    """A hand's setup from the start form: dealer, and the dealt cards and
    upcard where the table logged them."""
    setup: dict[str, Any] = {"dealer": form.get("dealer", "")}
    deal = {}
    for i, name in enumerate(players):
        cards = [c for c in form.getlist(f"deal{i}") if c]
        if cards:
            # Cards of a hand seen only in part are unknown to the referee: "??".
            deal[name] = cards + [UNKNOWN] * (hand_size - len(cards))
    if deal:
        setup["deal"] = deal
    if upcard_rule:
        up = form.get("upcard", "").strip()
        if up:
            setup["upcard"] = up
    return setup


def told_from_form(form, players: list[str], facts: list[str]) -> dict:
    """A hand told by its ending from the quick-hand form: the dealer, how it
    ended (``how``), who (``by``, a seat number: names never travel in field
    names or values), each count (``count<seat>``), each declared hand
    (``declare<seat>``) and the facts the rules ask (``fact_<name>``: yes or
    no). Only what was given goes in: the referee says what is missing."""
    setup: dict[str, Any] = {"dealer": form.get("dealer", "")}
    ending: dict[str, Any] = {"how": form.get("how", "")}
    by = whole(form.get("by", ""))
    if by is not None and by < len(players):
        ending["by"] = players[by]
    counts = {a.player: a.count for a in count_shows(form, players)}
    if counts:
        ending["counts"] = counts
    declares = {name: form.getlist(f"declare{i}") for i, name in enumerate(players)
                if form.getlist(f"declare{i}")}
    if declares:
        ending["declares"] = declares
    for fact in facts:
        answer = form.get(f"fact_{fact}")
        if answer in ("yes", "no"):
            ending[fact] = answer == "yes"
    setup["ending"] = ending
    return setup


def count_shows(form, players: list[str]) -> list[CountedShow]:
    """The shows given as counts on the pad (``count<seat>``)."""
    out = []
    for i, name in enumerate(players):
        raw = form.get(f"count{i}", "").strip()
        if raw:
            if not is_whole(raw, 3):
                raise FormError(_("{player}'s count is a whole number, not {text}",
                                  player=name, text=repr(raw)), "count_not_whole")
            out.append(CountedShow(name, "show", count=int(raw)))
    return out


def parse_card_or_none(text: str) -> str | None:
    """The canonical card ``text`` names, or None."""
    try:
        return parse_card(text)
    except MalformedInput:
        return None


_PICK_SPREAD = {
    "hit": N_("Choose the spread to hit (tap S1, S2, ... on the table)."),
    "slap": N_("Choose the spread to slap (tap S1, S2, ... on the table)."),
}


PICK_HIT_CARD = N_("Pick the card to hit with among the cards, then tap Hit.")


def _tapped(act: str, players: list[str]) -> tuple[str, str, str]:
    """The player, verb and named card of a button's value ``SEAT:VERB`` (or
    ``SEAT:take:CARD``: a take of the card below the top, pickup_depth 2)."""
    seat, _sep, verb = act.partition(":")
    verb, _sep, named = verb.partition(":")
    number = whole(seat)
    if number is None or number >= len(players) or not verb.isalpha() or \
            named and (verb != "take" or parse_card_or_none(named) != named):
        raise FormError(_("Tap one of the action buttons."), "tap_a_button")
    return players[number], verb, named


def action_from_form(form, players: list[str], legal: list[Action]) -> Action:
    """The action of the button tapped, the cards picked and the spread chosen.

    The button's value is ``SEAT:VERB`` (a seat number, so names never travel
    in button values), or ``SEAT:take:CARD`` for the card below the top of
    the pile. With no cards picked, a show or declare means the cards the
    referee already knows, if it knows them all (it then lists the action
    among the ``legal`` ones). What the fields name is the engine's to judge.
    """
    player, verb, named = _tapped(form.get("act", ""), players)
    cards = (named,) if named else tuple(c for c in form.getlist("card") if c)
    if verb in ("show", "declare") and not cards:
        known = next((a for a in legal if a.player == player and a.verb == verb), None)
        if known is not None:
            return known
    spread = None
    if verb in ("hit", "slap"):
        raw = form.get("spread", "").strip()
        spread = whole(raw[1:]) if raw[:1] == "S" else None
        if not spread:
            raise FormError(_(_PICK_SPREAD[verb]), f"spread_{verb}")
    if verb == "hit" and not cards:
        # Said here, in the player's words: the engine's refusal of the line
        # quotes it ("hit takes 1 card, in 'Ben: hit S3'", newcomer N1).
        raise FormError(_(PICK_HIT_CARD), "card_hit")
    return Action(player, verb, cards, spread)


def tap_actions(form, players: list[str], legal: list[Action]) -> list[Action]:
    """The actions one tap's form names: the button with its cards and spread
    (and, on a drop's second tap, the counts typed on the pad), every show at
    once (those still ``legal``), or the shows given as counts. ``FormError``
    when none (static/taps.js reads the same form the same way, held to it by
    tests/form_cases.json)."""
    act = form.get("act")
    if act == "all:show":
        shows = set(form.getlist("show"))
        actions = [a for a in legal if str(a) in shows]
        if not actions:
            raise FormError(_("Nothing to show: the hand has moved on."), "nothing_to_show")
        return actions
    if act == "all:count":  # shows given as counts on the pad
        actions = count_shows(form, players)
        if not actions:
            raise FormError(_("Type the counts on the pad first."), "no_counts")
        return actions
    actions = [action_from_form(form, players, legal)]
    if form.get("confirm"):  # counts typed on the drop's second tap
        actions += count_shows(form, players)
    return actions
