"""The web service: the app factory, the JSON API and (when present) the tablet pages."""

from __future__ import annotations

import os
import secrets
import threading
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request
from sqlite_utils import Database

from ..service import storage

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

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


class Handles(dict):
    """``app.extensions["referee"]``: its ``"db"`` is this thread's own connection.

    A sqlite3 connection must not be shared by threads that run transactions
    (one thread's BEGIN would swallow another's statements), and opening one
    per request costs more than the request; waitress's threads live long,
    so each keeps its connection.
    """

    def __init__(self, path: str) -> None:
        super().__init__(path=path)
        self._local = threading.local()

    def __getitem__(self, key: str) -> Any:
        if key == "db":
            return self.db()
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self["db"] if key == "db" else super().get(key, default)

    def db(self) -> Database:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = storage.connect(super().__getitem__("path"))
        return db


def get_db() -> Database:
    return current_app.extensions["referee"]["db"]


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
    app = Flask(__name__, instance_path=str(Path(__file__).resolve().parents[2] / "instance"),
                instance_relative_config=True, template_folder=str(TEMPLATES))
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "referee.sqlite3"),
        # An imported log of a long session is a few hundred kilobytes.
        MAX_CONTENT_LENGTH=8 * 1024 * 1024,
        REFEREE_HOST_KEY=os.environ.get("REFEREE_HOST_KEY") or None,
        BENCH_ENDPOINT=False,
        # Writes share fsyncs through one committing thread (storage.GroupCommitter).
        GROUP_COMMIT=True,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if config:
        app.config.update(config)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    path = str(app.config["DATABASE"])
    handles = Handles(path)
    app.extensions["referee"] = handles
    db = handles.db()  # creates and migrates the database now, not on the first request
    if app.config["GROUP_COMMIT"]:
        storage.enable_group_commit(path)
    if app.config["BENCH_ENDPOINT"]:
        storage.create_bench_table(db)

    from . import api, reports, tablet

    app.register_blueprint(api.bp)
    app.register_blueprint(tablet.bp)
    app.register_blueprint(reports.bp)
    api.register_error_handlers(app)

    @app.after_request
    def _headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
