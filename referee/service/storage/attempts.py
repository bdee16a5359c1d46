"""The wrong tries at a session's secret (its PIN, a token), counted before
each is checked, and the uses of what is allowed only so often a window.

The rows come in groups (``session_id``): a session's, the host key's
(``HOST_KEY``) and the tables opened (``TABLES_OPENED``). Each group has an
anchor row of its own among them (kind ``ANCHOR``): how many rows the group
holds (``failures``) and the sum of their digests modulo 2**256
(``digest``), moved in the statement that writes a row (issue 34: a row
deleted or edited to lift a lock, or to forget tries, no longer adds up;
``referee verify`` adds them up, a session's with the session). A session's
anchor is written with the session, the two others' by the migration, so a
group deleted whole is seen too. Kept beside the rows, not in a table of its
own, a try writes the page it writes anyway (the anchor's own row cost a
request with the host key a third more: docs/decisions.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

from .handle import Database

HOST_KEY = "host key"
TABLES_OPENED = "tables opened"
#: The groups that are no session's, anchored from the start.
GROUPS = (HOST_KEY, TABLES_OPENED)
#: The kind of a group's anchor row (no try's kind is empty: ``_checked``).
ANCHOR = ""
_MODULUS = 2 ** 256

#: A row of ``attempts``: (session_id, kind, failures, last, locked_until).
Attempt = tuple[str, str, int, float, float]
#: What a group's anchor holds: (rows, sum of their digests).
Anchor = tuple[int, str]
#: A try's own columns: (failures, last, locked_until).
_Columns = tuple[int, float, float]


def _value(row: Attempt) -> int:
    sid, kind, failures, last, until = row
    # Floats as repr writes them: both databases give back the double stored.
    text = f"{sid}\x00{kind}\x00{int(failures)}\x00{float(last)!r}\x00{float(until)!r}"
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


def anchor_of(rows: Iterable[Attempt]) -> Anchor:
    """The anchor of ``rows``: their count and the sum of their digests."""
    n = total = 0
    for row in rows:
        n += 1
        total += _value(row)
    return n, format(total % _MODULUS, "064x")


def _moved(anchor: Anchor, group: str, kind: str, old: _Columns | None,
           new: _Columns | None) -> Anchor:
    n, total = anchor[0], int(anchor[1], 16)
    if old is not None:
        n, total = n - 1, total - _value((group, kind, *old))
    if new is not None:
        n, total = n + 1, total + _value((group, kind, *new))
    return n, format(total % _MODULUS, "064x")


def _checked(kind: str) -> str:
    if kind == ANCHOR:
        raise ValueError("a try's kind is never empty: it is the anchor's")
    return kind


def _read(db: Database, group: str, kind: str) -> tuple[_Columns | None, Anchor | None]:
    """The try's row and its group's anchor, in one statement."""
    row = anchor = None
    for k, failures, last, until, digest in db.conn.execute(
            "SELECT kind, failures, last, locked_until, digest FROM attempts "
            "WHERE session_id = ? AND kind IN (?, ?)", (group, _checked(kind), ANCHOR)):
        if k == ANCHOR:
            anchor = (failures, digest)
        else:
            row = (failures, last, until)
    return row, anchor


_UPSERT = ("INSERT INTO attempts (session_id, kind, failures, last, locked_until, digest) "
           "VALUES {values} ON CONFLICT (session_id, kind) DO UPDATE SET "
           "failures = excluded.failures, last = excluded.last, "
           "locked_until = excluded.locked_until, digest = excluded.digest")
_ONE, _TWO = (_UPSERT.format(values=", ".join(["(?, ?, ?, ?, ?, ?)"] * n)) for n in (1, 2))


def _put(db: Database, group: str, kind: str, old: _Columns | None, new: _Columns | None,
         anchor: Anchor | None) -> None:
    """Write (``new``) or delete (``new`` None) a try's row, its group's
    anchor moved with it: in the same statement when the row is written. A
    group whose anchor is gone stays without one (verify says so), rather
    than be anchored afresh on what is left."""
    if new is None:
        db.conn.execute("DELETE FROM attempts WHERE session_id = ? AND kind = ?", (group, kind))
    if anchor is None:
        if new is not None:
            db.conn.execute(_ONE, (group, kind, *new, None))
        return
    n, digest = _moved(anchor, group, kind, old, new)
    if new is None:
        db.conn.execute("UPDATE attempts SET failures = ?, digest = ? WHERE session_id = ? "
                        "AND kind = ?", (n, digest, group, ANCHOR))
    else:
        db.conn.execute(_TWO, (group, kind, *new, None, group, ANCHOR, n, 0.0, 0.0, digest))


def anchor_group(db: Database, group: str, rows: Iterable[Attempt] = ()) -> None:
    """Anchor a new group (a session's, written with it) on ``rows``."""
    db.conn.execute("INSERT INTO attempts (session_id, kind, failures, last, locked_until, "
                    "digest) VALUES (?, ?, ?, 0.0, 0.0, ?)", (group, ANCHOR, *anchor_of(rows)))


def claim(db: Database, sid: str, kind: str, now: float,
          wait_after: Callable[[int], float]) -> float:
    """Count one try at a session's secret before it is checked (so parallel
    tries from many processes are all counted); 0 if it may go ahead, else the
    time (epoch seconds) until which the session refuses tries.
    ``wait_after(failures)``: the wait that many tries earn."""
    row, anchor = _read(db, sid, kind)
    failures, until = (row[0], row[2]) if row else (0, 0.0)
    if until > now:
        return until
    failures += 1
    _put(db, sid, kind, row, (failures, now, now + wait_after(failures)), anchor)
    return 0.0


def answer(db: Database, sid: str, kind: str, now: float,
           wait_after: Callable[[int], float], right: bool) -> float:
    """A try whose check is already known (``right``: a key compared in
    constant time, cheap enough to come first), answered inside the write
    transaction, after every try before it was counted: 0 if it may go
    ahead, else the time until which tries are refused (right or not, which
    would otherwise tell which try was right). A wrong try is counted as
    ``claim`` counts it; a right one starts the count again, and writes
    nothing where nothing was counted. The same answers as ``claim``, the
    check, then ``clear`` on a right one, in one transaction."""
    row, anchor = _read(db, sid, kind)
    failures, until = (row[0], row[2]) if row else (0, 0.0)
    if until > now:
        return until
    if right:
        if row is not None:
            _put(db, sid, kind, row, None, anchor)
        return 0.0
    failures += 1
    _put(db, sid, kind, row, (failures, now, now + wait_after(failures)), anchor)
    return 0.0


def waiting(db: Database, sid: str, kind: str, now: float) -> float:
    """Until when a try would be refused now (epoch seconds), else 0: read
    before a slow check (a PIN's scrypt) is spent on a try, and before a try
    at one of two counts (``answer``) is counted at the other."""
    row, _anchor = _read(db, sid, kind)
    return row[2] if row and row[2] > now else 0.0


def answered(db: Database, sid: str, kind: str, now: float, right: bool) -> float | None:
    """``answer``'s answer where it would write nothing, read as committed,
    outside the write lock: 0 for a right try with nothing counted, the time
    tries wait until while they wait; None where it would write (a wrong
    try, a right one clearing a count). Every count committed before the
    read is seen; one committed after it is of a try answered after this
    one, as ``answer`` would have ordered them under the lock."""
    row, _anchor = _read(db, sid, kind)
    if row is not None and row[2] > now:
        return row[2]
    return 0.0 if row is None and right else None


def claim_in_window(db: Database, sid: str, kind: str, now: float, most: int,
                    window: float) -> float:
    """Count one use of something allowed ``most`` times a ``window`` of
    seconds (the window starting at its first use), before it is done; 0 if it
    may go ahead, else the time (epoch seconds) the window ends. Kept in the
    ``attempts`` row as ``failures`` (uses), ``last`` (the window's start) and
    ``locked_until`` (its end)."""
    row, anchor = _read(db, sid, kind)
    used, since = row[:2] if row and row[1] > now - window else (0, now)
    if used >= most:
        return since + window
    _put(db, sid, kind, row, (used + 1, since, since + window), anchor)
    return 0.0


def clear(db: Database, sid: str, kind: str) -> None:
    row, anchor = _read(db, sid, kind)
    if row is not None:
        _put(db, sid, kind, row, None, anchor)


# What verify reads: every row of a group (or of every group) as stored,
# the anchor's among them; ``holds`` adds them up.

#: A group's rows as stored: (kind, failures, last, locked_until, digest).
Stored = tuple[str, int, float, float, str | None]


def of_group(db: Database, group: str) -> list[Stored]:
    return [tuple(r) for r in db.conn.execute(
        "SELECT kind, failures, last, locked_until, digest FROM attempts WHERE session_id = ?",
        (group,))]


def by_group(db: Database) -> dict[str, list[Stored]]:
    groups: dict[str, list[Stored]] = {}
    for group, *rest in db.conn.execute(
            "SELECT session_id, kind, failures, last, locked_until, digest FROM attempts"):
        groups.setdefault(group, []).append(tuple(rest))
    return groups


def holds(group: str, rows: list[Stored]) -> bool:
    """Whether a group's rows add up to its anchor, which holds nothing
    else (and no try holds a digest)."""
    anchors = [r for r in rows if r[0] == ANCHOR]
    tries = [r for r in rows if r[0] != ANCHOR]
    if len(anchors) != 1 or any(r[4] is not None for r in tries):
        return False
    _, n, last, until, digest = anchors[0]
    return (last, until) == (0, 0) and (n, digest) == anchor_of(
        (group, kind, failures, last_, until_) for kind, failures, last_, until_, _ in tries)


def anchor_groups(db: Database, sessions: Iterable[str]) -> None:
    """The migration to anchors beside the rows: the digests' column, and
    each group's anchor on the rows it holds now (every session's, the two
    others', and any other group with rows), as ``anchors.create`` started
    the one anchor of the whole table."""
    rows: dict[str, list[Attempt]] = {}
    for r in db.conn.execute("SELECT session_id, kind, failures, last, locked_until "
                             "FROM attempts"):
        rows.setdefault(r[0], []).append((r[0], r[1], r[2], r[3], r[4]))
    db.conn.execute("ALTER TABLE attempts ADD COLUMN digest TEXT")
    for group in dict.fromkeys([*GROUPS, *sessions, *rows]):
        anchor_group(db, group, rows.get(group, ()))


def all_rows(db: Database) -> list[Attempt]:
    """Every row (before the anchors beside them: ``anchors.create``)."""
    return [(r[0], r[1], r[2], r[3], r[4]) for r in db.conn.execute(
        "SELECT session_id, kind, failures, last, locked_until FROM attempts")]

