"""The database a process opens, as the interfaces ask for it: ``connect``
(a SQLite file or a ``postgresql://`` URL, created or migrated), group
commit turned on for a server's writers, and the handle's type
(``Database``, the storage's Protocol). The web reaches the storage only
through the service: this module, and the contexts' functions."""

from __future__ import annotations

from pathlib import Path

from . import storage
from .storage import Database

__all__ = ["Database", "connect", "enable_group_commit"]


def connect(path: str | Path) -> Database:
    """Open the database at ``path`` (a file, or a PostgreSQL URL)."""
    return storage.connect(path)


def enable_group_commit(path: str) -> storage.GroupCommitter:
    """Writes to the database at ``path`` share their fsyncs through one
    committing thread (``storage.GroupCommitter``)."""
    return storage.enable_group_commit(path)
