"""The PostgreSQL side of the storage seam: a database handle that reads and
runs ``storage``'s statements as the sqlite3 connection does.

``storage`` writes every statement once, with sqlite3's ``?`` and ``:name``
placeholders, and calls ``db.conn.execute`` / ``executemany`` and ``BEGIN``,
``COMMIT``, ``ROLLBACK``, savepoints as plain statements. ``PgDatabase`` has
the same surface: placeholders are rewritten for psycopg (once per statement
text), a statement outside a transaction borrows a connection from the
process's pool for itself (its rows fetched before the connection goes
back), and ``BEGIN`` keeps one connection until ``COMMIT`` or ``ROLLBACK``.
Any SQL that differs between the two databases stays in ``storage``, chosen
by ``is_pg``. psycopg is imported only when a PostgreSQL URL is opened: the
embedded SQLite service never loads it.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any, TypeGuard
from urllib.parse import urlsplit, urlunsplit

from ...rules.words import N_
from ..errors import MalformedInput

SCHEMES = ("postgresql://", "postgres://")
POOL_MAX = 20  # connections a process may hold: waitress's threads, the writer, verify


def is_url(target: Any) -> bool:
    return isinstance(target, str) and target.startswith(SCHEMES)


def is_pg(db: Any) -> TypeGuard[PgDatabase]:
    """Whether ``db`` is a PostgreSQL handle (``PgDatabase``), where the few
    statements that differ take PostgreSQL's form (and, for the type checker,
    where the handle has a ``url``)."""
    return getattr(db, "dialect", None) == "postgresql"


def safe_url(url: str) -> str:
    """The URL without its password (for keys, messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    return urlunsplit(parts._replace(netloc=netloc[0].split(":")[0] + ":***@" + netloc[1]))


class IntegrityError(Exception):
    """A key or constraint refused a row (psycopg's ``IntegrityError``, raised
    as ours so that ``storage`` can name it without importing psycopg)."""


class NotStorable(MalformedInput):
    """A value PostgreSQL cannot hold (a NUL character in text, a number
    beyond 64 bits): the caller's input, which no stored row holds either."""

    def __init__(self, why: str) -> None:
        super().__init__("not_storable", N_("a value the database cannot hold ({why})"),
                         {"why": why})


class Unreachable(Exception):
    """No connection to the server could be made."""


_TOKEN = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|::|\?|(?<!:):([A-Za-z_]\w*)|%")


@lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """sqlite3's placeholders as psycopg's: ``?`` -> ``%s``, ``:name`` ->
    ``%(name)s``, a literal ``%`` doubled (in quoted text too: psycopg reads
    it there); ``?`` and ``:name`` in quoted text and ``::`` casts kept."""
    def one(m: re.Match) -> str:
        token = m.group(0)
        if token == "?":
            return "%s"
        if token == "%":
            return "%%"
        if m.group(1):
            return f"%({m.group(1)})s"
        return token.replace("%", "%%")  # psycopg reads % inside quotes too
    return _TOKEN.sub(one, sql)


class Rows:
    """A statement's rows, read whole (its connection is back in the pool):
    what storage uses of a sqlite3 cursor."""

    __slots__ = ("description", "rowcount", "_rows", "_at")

    def __init__(self, description: Any, rows: list[tuple], rowcount: int) -> None:
        self.description = description
        self.rowcount = rowcount
        self._rows = rows
        self._at = 0

    def fetchone(self) -> tuple | None:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[tuple]:
        rows, self._at = self._rows[self._at:], len(self._rows)
        return rows

    def __iter__(self):
        return iter(self.fetchall())


_pools: dict[str, Any] = {}
_pools_guard = threading.Lock()


def pool(url: str) -> Any:
    """This process's connection pool for ``url`` (opened on first use)."""
    found = _pools.get(url)
    if found is None:
        import psycopg
        from psycopg_pool import ConnectionPool

        try:  # one try first: a wrong URL or a server down says so at once
            psycopg.connect(url, connect_timeout=10).close()
        except psycopg.Error as err:
            raise Unreachable(str(err).strip().splitlines()[0]) from None
        with _pools_guard:
            found = _pools.get(url)
            if found is None:
                found = ConnectionPool(url, min_size=1, max_size=POOL_MAX, open=False,
                                       kwargs={"autocommit": True}, name="referee")
                try:
                    found.open(wait=True, timeout=15)
                except Exception as err:
                    found.close()
                    raise Unreachable(str(err).splitlines()[0] if str(err) else
                                      type(err).__name__) from None
                _pools[url] = found
    return found


def close_pool(url: str) -> None:
    """Close this process's pool for ``url`` (the tests' throwaway schemas)."""
    with _pools_guard:
        found = _pools.pop(url, None)
    if found is not None:
        found.close()


def _errors() -> tuple[type[Exception], type[Exception]]:
    import psycopg

    # DataError: a NUL in text, a number out of BIGINT's range, ...
    return psycopg.IntegrityError, psycopg.DataError


class PgConnection:
    """``db.conn`` of a PostgreSQL database: sqlite3's connection surface."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pool = pool(url)
        self._held: Any = None  # the connection of the open transaction

    @property
    def in_transaction(self) -> bool:
        return self._held is not None

    def _run(self, conn: Any, sql: str, params: Any, many: bool) -> Rows:
        integrity, data = _errors()
        try:
            if many:
                with conn.cursor() as cur:
                    cur.executemany(translate(sql), params)
                    return Rows(None, [], cur.rowcount)
            # Always with parameters (maybe none): psycopg then reads the
            # placeholders and the doubled %, which it sends as they are without.
            cur = conn.execute(translate(sql), params)
            rows = cur.fetchall() if cur.description is not None else []
            return Rows(cur.description, rows, cur.rowcount)
        except integrity as err:
            raise IntegrityError(str(err)) from err
        except (data, OverflowError) as err:
            raise NotStorable(str(err).splitlines()[0]) from err

    def begin(self, mode: str = "") -> None:
        """Start a transaction on a connection of the pool's, held until its
        COMMIT or ROLLBACK; ``mode``: what follows ``BEGIN`` (an isolation
        level: storage's words, never input)."""
        if self._held is not None:
            raise RuntimeError("a transaction is open on this handle already")
        self._held = self.pool.getconn()
        try:
            self._held.execute(f"BEGIN {mode}".strip())
        except BaseException:
            self.pool.putconn(self._held)
            self._held = None
            raise

    def execute(self, sql: str, params: Any = ()) -> Rows:
        word = sql.strip().upper() if len(sql) < 12 else ""  # BEGIN, COMMIT, ROLLBACK
        if word == "BEGIN":
            self.begin()
            return Rows(None, [], -1)
        if word in ("COMMIT", "ROLLBACK") and self._held is not None:
            held, self._held = self._held, None
            try:
                held.execute(word)
            finally:
                self.pool.putconn(held)  # the pool rolls back whatever a failure left open
            return Rows(None, [], -1)
        if self._held is not None:
            return self._run(self._held, sql, params, False)
        with self.pool.connection() as conn:
            return self._run(conn, sql, params, False)

    def executemany(self, sql: str, rows: Any) -> Rows:
        rows = list(rows)
        if not rows:
            return Rows(None, [], 0)
        if self._held is not None:
            return self._run(self._held, sql, rows, True)
        with self.pool.connection() as conn, conn.transaction():
            return self._run(conn, sql, rows, True)

    def copy_rows(self, table: str, columns: tuple[str, ...], rows: Any) -> None:
        """Insert ``rows`` (tuples in ``columns``' order) with COPY, inside the
        open transaction: a long import's 143,000 events took ``executemany``
        4 s, each row a statement of its own. ``table`` and ``columns`` are
        storage's names, never input."""
        if self._held is None:
            raise RuntimeError("copy_rows runs inside a write transaction")
        integrity, data = _errors()
        try:
            with self._held.cursor() as cur, cur.copy(
                    f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        except integrity as err:
            raise IntegrityError(str(err)) from err
        except (data, OverflowError) as err:
            raise NotStorable(str(err).splitlines()[0]) from err

    def close(self) -> None:
        if self._held is not None:
            self.execute("ROLLBACK")


class PgDatabase:
    """A PostgreSQL database handle with what ``storage`` uses of sqlite-utils'
    ``Database``: ``conn``, ``execute`` and ``close``."""

    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        self.conn = PgConnection(url)
        self._referee_key = safe_url(url)

    def execute(self, sql: str, params: Any = ()) -> Rows:
        return self.conn.execute(sql, params)

    def close(self) -> None:
        self.conn.close()
