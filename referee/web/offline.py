"""The tablet as an installable web app that keeps going through a dropped
network: its manifest (name, icons, the pages it opens), its service worker
(the pages of a table as last seen, opened from the device while offline)
and the page a device shows for a table page it has never seen.

The offline queue itself lives in the browser (``static/offline.js``): a
tap made offline is kept in IndexedDB with its ``client_id`` and
``expected_seq`` and posted to the JSON API's action endpoint when the
network is back, where the service's idempotency and sequence checks make it
count once and in order. Nothing here is needed for the pages to work: a
browser without JavaScript or without service workers (a plain-HTTP LAN
address is not a secure context) gets the pages as always, online only.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Response, render_template, url_for

from .lang import _

bp = Blueprint("offline", __name__)

STATIC = Path(__file__).with_name("static")
# The worker must be served from the top of the site: its scope (the pages it
# may answer for) is the folder of its own URL, and the table pages are /s/...
WORKER = STATIC / "sw.js"
ICONS = (("icon-192.png", "192x192", "image/png"), ("icon-512.png", "512x512", "image/png"),
         ("icon.svg", "any", "image/svg+xml"))
# The top bar's blue: the installed app's title bar matches the page.
THEME = "#102a43"


@bp.get("/manifest.webmanifest")
def manifest():
    body = {
        "name": _("Tonk referee"),
        "short_name": _("Tonk"),
        "start_url": url_for("tablet.home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [{"src": url_for("tablet.static", filename=name), "sizes": sizes,
                   "type": kind, "purpose": "any"} for name, sizes, kind in ICONS],
    }
    answer = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/sw.js")
def worker():
    answer = Response(WORKER.read_bytes(), mimetype="text/javascript")
    # Asked again on every visit: a new worker reaches the devices at once.
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/offline")
def offline_page():
    """What a device shows for a table page it has not seen before while the
    network is down (the worker keeps a copy in the reader's language)."""
    return render_template("offline.html")
