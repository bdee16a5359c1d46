"""Event kinds are named by their enums (``referee.record.kinds``), never by
their text: a kind's text written anywhere else is a second statement of it,
which a renamed or a new kind would miss. Read from the code's syntax: a
kind's text where a kind is meant (compared with an event's kind, passed to
an event's writer or reader, kept as a ``kind``, or in SQL that reads
kinds) is refused outside the enum module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from referee.record.kinds import TABLE_EVENTS, ClubKind, EventKind

ROOT = Path(__file__).resolve().parents[1] / "referee"
ENUMS = ROOT / "record" / "kinds.py"
KINDS = {str(k) for k in EventKind} | {str(k) for k in ClubKind}
# Where a call's arguments are kinds: the writers and readers of events.
_KIND_CALL = re.compile(r"event|kind|^_append$|^club\.append$", re.I)


def _strings(node: ast.AST) -> list[ast.Constant]:
    """The string constants of ``node`` itself or of the tuple, list or set it is."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [c for e in node.elts for c in _strings(e)]
    return []


def _names_a_kind(node: ast.AST) -> bool:
    """``ev["kind"]``, ``x.kind``, ``kind``, ``kinds``, ``ev.get("kind")``."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "kind"
    if isinstance(node, ast.Attribute):
        return "kind" in node.attr.lower()
    if isinstance(node, ast.Name):
        return "kind" in node.id.lower()
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "get" and node.args:
        return isinstance(node.args[0], ast.Constant) and node.args[0].value == "kind"
    return False


def _call_name(node: ast.Call) -> str:
    """The called name with its owner (``events.append``: the storage's
    groups name what they store)."""
    f = node.func
    if isinstance(f, ast.Attribute):
        owner = f.value
        return f"{getattr(owner, 'attr', getattr(owner, 'id', ''))}.{f.attr}"
    return getattr(f, "id", "")


def literal_kinds(source: str) -> list[tuple[int, str]]:
    """Where ``source`` writes a kind's text where a kind is meant."""
    found: list[ast.Constant] = []
    sql: list[ast.Constant] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_a_kind(s) for s in sides):
                found += [c for s in sides for c in _strings(s)]
        elif isinstance(node, ast.Call) and _KIND_CALL.search(_call_name(node)):
            found += [c for a in node.args for c in _strings(a)]
            found += [c for k in node.keywords if k.arg and "kind" in k.arg
                      for c in _strings(k.value)]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if node.value is not None and any(_names_a_kind(t) for t in targets):
                found += [c for sub in ast.walk(node.value) for c in _strings(sub)]
        elif isinstance(node, ast.Dict):
            found += [c for k, v in zip(node.keys, node.values, strict=True)
                      if isinstance(k, ast.Constant) and k.value == "kind"
                      for c in _strings(v)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                "kind" in node.value and "'" in node.value:  # SQL naming kinds
            sql += [node] if any(f"'{k}'" in node.value for k in KINDS) else []
    return sorted({(c.lineno, c.value) for c in found if c.value in KINDS} |
                  {(c.lineno, c.value) for c in sql})


def test_no_kind_is_written_as_text_outside_its_enum():
    wrong = [f"{path.relative_to(ROOT.parent)}:{line}: {text!r}"
             for path in sorted(ROOT.rglob("*.py")) if path != ENUMS
             for line, text in literal_kinds(path.read_text())]
    assert wrong == []


def test_the_check_finds_each_way_of_writing_a_kind():
    """Each shape the check reads, written wrongly and rightly."""
    wrong = '''
if ev["kind"] == "action": pass
if kind in ("correction", "refusal"): pass
if ev.get("kind") != "session": pass
storage.events.append(w, sid, n, "hand_start", {})
storage.club.append(w, "merge", {})
kinds = ("action", "correction")
x = {"kind": "merge"}
sql = "SELECT 1 FROM events WHERE kind IN ('action', 'correction')"
'''
    assert [line for line, _ in literal_kinds(wrong)] == [2, 3, 3, 4, 5, 6, 7, 7, 8, 9]
    right = '''
if ev["kind"] == EventKind.ACTION: pass
storage.events.append(w, sid, n, EventKind.HAND_START, {})
if body["outcome"] == "void": pass
setup["stake"] = "0.50"
x = {"kind": "suit_high"}
'''
    assert literal_kinds(right) == []


def test_the_table_events_are_the_answers_of_their_requests():
    """TABLE_EVENTS is what the API's event answers name (its document says so)."""
    from referee.web.openapi import build_spec

    answer = build_spec()["components"]["schemas"]["EventAnswer"]["properties"]["event"]
    assert set(answer["enum"]) == {*map(str, TABLE_EVENTS), str(EventKind.UNLINK)}
