"""The request's database handle: one connection per thread of the server."""

from __future__ import annotations

import threading
from typing import Any

from flask import current_app

from ..service import database
from ..service.database import Database


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
            db = self._local.db = database.connect(super().__getitem__("path"))
        return db


def get_db() -> Database:
    return current_app.extensions["referee"]["db"]
