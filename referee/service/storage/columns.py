"""How the storage's rows are written and read, whatever their table: a
JSON column's text, the times kept, a statement's rows read by column name,
a new session's many rows inserted at once, the ids and numbers a database
can hold. The groups' modules share these; callers outside the storage use
``to_json`` and ``now_seconds`` (the package offers them)."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

import orjson

from .handle import Database
from .pg import is_pg


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_seconds() -> str:
    """A time for the log (``started``, ``closed``, a payment's ``at``): UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def to_json(data: Any) -> str:
    """A row's JSON column, as every JSON column is written (also made by
    callers outside the write, so that the writer thread only inserts).
    orjson: a 10,000-hand import encodes 40,000 columns (its results, running
    rows, seats and setups), which took ``json.dumps`` 0.5-0.7 s and orjson
    a tenth of that; verify compares the stored text with this again. What
    orjson refuses (an integer past 64 bits, a lone surrogate) is written
    by ``json.dumps``, which reads back the same."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data)


def insert_rows(db: Database, table: str, columns: tuple[str, ...], rows: list[tuple],
                shared: dict[str, Any]) -> None:
    """A new session's many rows of ``table`` at once (an import): ``rows``
    give ``columns``, ``shared`` what every row holds alike. SQLite takes
    one ``executemany``, with the shared values written once in the
    statement (binding them for each of 143,000 events was a sixth of their
    insert); PostgreSQL one COPY (its ``executemany`` sends a statement a row:
    4 s for those events)."""
    if is_pg(db):
        alike = tuple(shared.values())
        db.conn.copy_rows(table, (*columns, *shared), (row + alike for row in rows))
        return
    values = ", ".join(["?"] * len(columns) + [_literal(v) for v in shared.values()])
    db.conn.executemany(
        f"INSERT INTO {table} ({', '.join((*columns, *shared))}) VALUES ({values})", rows)


def _literal(value: str | int | None) -> str:
    """``value`` as an SQL literal (both databases quote alike)."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(int(value))
    return "'" + value.replace("'", "''") + "'"


class NamedRow(tuple):
    """A row read by position or by column name, as ``sqlite3.Row`` is (on
    PostgreSQL, whose rows come as plain tuples)."""

    __slots__ = ()
    names: dict[str, int] = {}

    def __getitem__(self, key):
        return tuple.__getitem__(self, self.names[key] if isinstance(key, str) else key)

    def keys(self) -> list[str]:
        return list(self.names)


def named(db: Database, sql: str, params: tuple) -> list:
    """A statement's rows, each read by position or column name: SQLite's own
    ``sqlite3.Row`` (made in C: verify reads 140,000 at a time), else
    ``NamedRow``."""
    if is_pg(db):
        cur = db.conn.execute(sql, params)
        names = {d[0]: i for i, d in enumerate(cur.description)}
        row = type("Row", (NamedRow,), {"__slots__": (), "names": names})
        return [row(values) for values in cur.fetchall()]
    cur = db.conn.cursor()
    cur.row_factory = sqlite3.Row
    return cur.execute(sql, params).fetchall()


def one_row(cur: Any) -> dict | None:
    values = cur.fetchone()
    if values is None:
        return None
    return dict(zip([d[0] for d in cur.description], values, strict=True))


def an_id(text: str) -> bool:
    """Text that may be a stored id: a URL's may hold a NUL, which no id has
    (PostgreSQL refuses it outright, where the session is simply not found)."""
    return "\x00" not in text


def fits(n: int) -> bool:
    """A number the database can hold (SQLite's INTEGER, PostgreSQL's BIGINT):
    a hand number from a URL may be any size, and none beyond this is stored."""
    return -(2**63) <= n < 2**63
