"""The web service: the app factory. The blueprints are ``api`` (JSON),
``tablet`` (the pages) and ``reports`` (PDFs and the auditor's view); each
view reads its request, calls one service function and answers; errors are
mapped to statuses and pages in ``errors`` alone."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, request

from ..service import access, database
from . import (
    api,
    bodies,
    club_api,
    club_pages,
    errors,
    lang,
    links,
    live,
    offline,
    proxy,
    reports,
    settle,
    tablet,
)
from .db import Handles


def _templates() -> Path:
    """The tablet's templates: shipped as ``referee/templates`` in an installed
    package (setup.py maps them there), at the repository's top level in a
    checkout."""
    package = Path(__file__).resolve().parents[1]
    shipped = package / "templates"
    return shipped if shipped.is_dir() else package.parent / "templates"


TEMPLATES = _templates()
DATABASE_URL_ENV = "REFEREE_DATABASE_URL"

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def _secret_key(instance: Path) -> str:
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_hex(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key + "\n")
        return key


def create_app(config: dict | None = None) -> Flask:
    # The instance folder (database, secret key) is where the service runs,
    # as the README says, whether from a checkout or an installed package.
    app = proxy.App(__name__, instance_path=os.path.abspath("instance"),
                instance_relative_config=True, template_folder=str(TEMPLATES))
    app.config.from_mapping(
        # A PostgreSQL URL in REFEREE_DATABASE_URL (several app servers on one
        # database), else the embedded SQLite file.
        DATABASE=os.environ.get(DATABASE_URL_ENV)
        or os.path.join(app.instance_path, "referee.sqlite3"),
        # An imported log of a long session is a few hundred kilobytes.
        MAX_CONTENT_LENGTH=8 * 1024 * 1024,
        REFEREE_HOST_KEY=os.environ.get("REFEREE_HOST_KEY") or None,
        # The address phones open (every QR code and shared link): links.py.
        PUBLIC_URL=os.environ.get(links.PUBLIC_URL_ENV) or None,
        # Writes share fsyncs through one committing thread (storage.GroupCommitter).
        GROUP_COMMIT=True,
        # How many reverse proxies stand in front (their X-Forwarded-For believed): proxy.py.
        TRUSTED_PROXIES=None,
        # Tables opened without a host key, per address: (most, in seconds).
        OPENINGS=(access.OPENINGS, access.OPENINGS_WINDOW),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if config:
        app.config.update(config)
    app.config["TRUSTED_PROXIES"] = proxy.trusted_proxies(app.config["TRUSTED_PROXIES"])
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        # App servers behind one proxy sign the same cookies (a table unlocked
        # on one is unlocked on all): they share REFEREE_SECRET_KEY.
        app.config["SECRET_KEY"] = os.environ.get("REFEREE_SECRET_KEY") \
            or _secret_key(instance)

    path = str(app.config["DATABASE"])
    handles = Handles(path)
    app.extensions["referee"] = handles
    if app.config["GROUP_COMMIT"]:
        database.enable_group_commit(path)
    handles.db()  # creates and migrates the database now, not on the first request

    lang.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(tablet.bp)
    app.register_blueprint(reports.bp)
    app.register_blueprint(settle.bp)
    app.register_blueprint(club_api.api)
    app.register_blueprint(club_pages.pages)
    app.register_blueprint(offline.bp)
    errors.register(app)
    app.before_request(bodies.note_request)
    app.teardown_request(bodies.forget_request)
    proxy.trust(app, app.config["TRUSTED_PROXIES"])

    @app.after_request
    def _headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
