"""The database handle as the storage types it: what a caller may hold and
pass back, whichever database is behind it.

On SQLite the handle is sqlite-utils' ``Database``; on PostgreSQL it is
``pg.PgDatabase``, which has only what the storage uses of it. Both satisfy
``Database`` below, so a signature that takes a handle says this Protocol and
is true of both (it said sqlite-utils' class and received PostgreSQL's
too). Outside the storage a handle is opaque: it is passed to the storage's
functions and to nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol


class Cursor(Protocol):
    """The rows a statement answered (``sqlite3.Cursor``, ``pg.Rows``)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The connection under a handle (``sqlite3.Connection``, ``pg.PgConnection``)."""

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, params: Any = ..., /) -> Cursor: ...

    def executemany(self, sql: str, rows: Any, /) -> Cursor: ...


class Database(Protocol):
    """A database handle: sqlite-utils' ``Database`` or ``pg.PgDatabase``."""

    @property
    def conn(self) -> Any: ...

    def execute(self, sql: str, params: Any = ..., /) -> Cursor: ...

    def close(self) -> None: ...
