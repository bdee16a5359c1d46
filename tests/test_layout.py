"""The layout's rules: the nine layers and what each may import (the core
imports the standard library alone), no import cycles among the referee's
modules, the service's contexts one way (and their private names their
own), the devtools stay out of what a request can reach, SQL stays in the
storage and HTTP statuses in the web."""

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "referee"


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}


def _from_module(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from ... import`` in ``package`` names, made absolute."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(name: str) -> set[str]:
    """The referee modules ``name`` imports, anywhere in it (lazy imports too)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    tree = ast.parse(path.read_text())
    # An import only for annotations (under ``if TYPE_CHECKING:``) never runs:
    # rules/legality.py and rules/offers.py name the Hand they judge so.
    typing_only = {id(sub) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING"
                   for stmt in node.body for sub in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _from_module(node, package)
            # "from package import module" depends on the module, not the package.
            subs = [f"{module}.{alias.name}" for alias in node.names]
            targets = [s for s in subs if s in MODULES]
            if len(targets) < len(subs):
                targets.append(module)
        else:
            continue
        out.update(t for t in targets if t in MODULES and t != name)
    return out


GRAPH = {name: _imports(name) for name in MODULES}


def _cycle_from(start: str) -> list[str] | None:
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for nxt in GRAPH[node]:
            # A module's own package (imported first by Python) is not a dependency.
            if start.startswith(nxt + "."):
                continue
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


def test_no_import_cycle():
    cycles = [" -> ".join(_cycle_from(name)) for name in sorted(MODULES) if _cycle_from(name)]
    assert cycles == []


# ---------------------------------------------------------------- the layers
# The layering rules (nine layers, and the speed tricks below them): what
# each layer of the referee may import of the others (lowest first; a layer
# imports only layers below it) and from outside the standard library. The
# core (rules, ledger) imports the standard library alone. The devtools are
# no layer: tests and benchmarks use them, nothing of the referee does.
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # The speed tricks that more than one layer uses (referee/speed): the
    # standard library alone, below everything that pauses or exits with them.
    "speed": ((), ()),
    "rules": ((), ()),
    "ledger": (("rules",), ()),
    # the localised face of numbers and money, over the ledger's plain one
    "language": (("rules", "ledger"), ("babel",)),
    "record": (("rules", "ledger"), ("marshmallow", "orjson")),
    "replay": (("rules", "ledger", "record"), ()),
    "service": (("speed", "rules", "ledger", "record", "replay"),
                ("orjson", "sqlite_utils", "psycopg", "psycopg_pool",
                 "schwifty",  # payable.py: a player's IBAN checked before it is kept
                 "babel")),  # payable.py: a currency's smallest coin (its ISO 4217 digits)
    "reports": (("rules", "ledger", "language", "record", "replay", "service"),
                ("reportlab", "babel", "segno")),
    "web": (("speed", "rules", "ledger", "language", "record", "replay", "service", "reports"),
            ("flask", "flask_babel", "jinja2", "werkzeug", "markupsafe", "marshmallow", "apispec",
             "segno")),
    # The command line: referee/cli.py, referee/commands/, python -m referee.
    "commands": (("speed", "rules", "ledger", "language", "record", "replay", "service",
                  "reports", "web", "cli", "commands"), ("waitress", "segno")),
}
LAYER_OF = {"cli": "commands", "__main__": "commands"}


def _layer(name: str) -> str | None:
    top = name.split(".")[1] if "." in name else None
    return LAYER_OF.get(top, top) if top in LAYERS or top in LAYER_OF else None


def _outside(name: str) -> set[str]:
    """The top-level modules from outside the referee that ``name`` imports."""
    out = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out - {"referee"}


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_imports_only_what_lies_below_it(layer):
    below, outside = LAYERS[layer]
    wrong = []
    for name in sorted(n for n in MODULES if _layer(n) == layer):
        for dep in sorted(GRAPH[name]):
            if _layer(dep) not in (layer, *below) and dep != "referee":
                wrong.append(f"{name} imports {dep}")
        wrong += [f"{name} imports {m}" for m in sorted(_outside(name) - STDLIB - set(outside))]
    assert wrong == []


def test_every_module_is_in_a_layer_or_the_devtools():
    assert [n for n in MODULES if n != "referee" and _layer(n) is None
            and not n.startswith("referee.devtools")] == []


# The service is one folder per context (docs/architecture.md); beside them,
# only what every context shares. A new module goes into the context it
# serves, or a new context's folder is named here and in the architecture.
SERVICE_CONTEXTS = {"table", "money", "club", "trust", "access", "storage"}
SERVICE_SHARED = {"errors", "kinds", "beside", "database"}


def test_the_service_is_its_contexts():
    top = {name.split(".")[2] for name in MODULES if name.startswith("referee.service.")}
    assert top == SERVICE_CONTEXTS | SERVICE_SHARED
    packages = {n.split(".")[2] for n in MODULES
                if n.startswith("referee.service.") and n.count(".") == 2
                and MODULES[n].name == "__init__.py"}
    assert packages == SERVICE_CONTEXTS


def _context(name: str) -> str | None:
    """The service's context (or shared module) ``name`` lies in; None outside the service."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "service" else None


CONTEXT_GRAPH = {a: {b for name in MODULES if _context(name) == a
                     for b in map(_context, GRAPH[name]) if b in SERVICE_CONTEXTS and b != a}
                 for a in SERVICE_CONTEXTS}


def _ties(a: str, b: str) -> list[str]:
    return sorted(f"{name} imports {dep}" for name in MODULES if _context(name) == a
                  for dep in GRAPH[name] if _context(dep) == b)


def test_no_two_contexts_import_each_other():
    """The service's contexts depend one way (docs/architecture.md): the
    table over its money and its access, the club over the table, trust
    over them all. Two contexts that import each other are one context
    split in two folders, and a newcomer cannot tell which one to open."""
    both = sorted((a, b) for a in CONTEXT_GRAPH for b in CONTEXT_GRAPH[a]
                  if a < b and a in CONTEXT_GRAPH[b])
    assert [f"{a} <-> {b}: {_ties(a, b) + _ties(b, a)}" for a, b in both] == []


def test_the_contexts_lie_in_one_order():
    """Nor round a longer loop (money over the club, the club over the
    table, the table over money): the contexts can be stacked, each over
    only those it imports."""
    placed: list[str] = []
    left = dict(CONTEXT_GRAPH)
    while left:
        ready = sorted(c for c, deps in left.items() if deps <= set(placed))
        if not ready:
            break
        placed += ready
        for c in ready:
            del left[c]
    assert {c: sorted(deps - set(placed)) for c, deps in left.items()} == {}


def _private_names_taken(name: str) -> list[str]:
    """The private names (a leading underscore) ``name`` takes from a module
    of another context of the service (or of a module they share):
    ``from ..table.table_events import _event``, or ``table_events._event``
    on a module it imported."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    modules: dict[str, str] = {}  # a local name -> the referee module it is bound to
    taken = []
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in MODULES:
                    modules[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            module = _from_module(node, package)
            for alias in node.names:
                if f"{module}.{alias.name}" in MODULES:
                    modules[alias.asname or alias.name] = f"{module}.{alias.name}"
                elif alias.name.startswith("_") and not alias.name.startswith("__"):
                    taken.append((module, alias.name))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in modules and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            taken.append((modules[node.value.id], node.attr))
    return sorted(f"{name} takes {module}.{private}" for module, private in set(taken)
                  if _context(module) not in (None, _context(name)))


def test_no_private_name_crosses_a_context():
    """A name with a leading underscore is its module's own business: another
    context that needs it needs a function of the context it belongs to
    (or the function belongs in its context)."""
    assert [taken for name in sorted(MODULES) if _context(name) in SERVICE_CONTEXTS
            for taken in _private_names_taken(name)] == []


def test_the_web_never_imports_the_storage():
    """A page or route asks the service (``service/database.py`` for the
    handle, a context for what it reads): the storage's rows and statements
    stay behind the service's functions."""
    assert [f"{name} imports {dep}" for name in sorted(MODULES) if name.startswith("referee.web")
            for dep in sorted(GRAPH[name]) if dep.startswith("referee.service.storage")] == []


# The storage's facade: a caller names the group it stores in or reads from
# (``storage.hands.update``, ``storage.replies.store``), one module each; the
# package offers the groups and the engine's few names (``connect``,
# ``write``, ``snapshot``, ...), never a group's function flat under a second
# name (a hundred flat names told nobody where a statement lives).
STORAGE = "referee.service.storage"
# The modules whose names the package offers flat: the engine, the handle's
# type, the PostgreSQL seam, how a JSON column and a time are written.
STORAGE_ENGINE = ("engine", "changes", "handle", "pg", "columns")


def _storage_facade():
    import importlib

    storage = importlib.import_module(STORAGE)
    groups = set(getattr(storage, "GROUPS", ()))
    return storage, groups, set(storage.__all__) - groups


def test_the_storage_offers_its_groups_and_the_engine_alone():
    import importlib
    from types import ModuleType

    storage, groups, flat = _storage_facade()
    assert groups, "the storage names its groups (storage.GROUPS)"
    assert sorted(g for g in groups if not isinstance(getattr(storage, g, None), ModuleType)
                  or getattr(storage, g).__name__ != f"{STORAGE}.{g}") == []
    engine = {name for m in STORAGE_ENGINE
              for name in vars(importlib.import_module(f"{STORAGE}.{m}"))} | set(STORAGE_ENGINE)
    assert sorted(flat - engine) == []
    # No group's own function or class is on the package itself.
    own = {id(v): f"{g}.{name}" for g in groups for name, v in vars(getattr(storage, g)).items()
           if getattr(v, "__module__", None) == f"{STORAGE}.{g}"}
    assert sorted(f"storage.{name} is {own[id(v)]}" for name, v in vars(storage).items()
                  if id(v) in own) == []


def test_the_storage_reaches_no_context_above_it():
    """The storage imports of the service above it only what every context
    shares (``errors``), never a context: a commit's news goes to whoever
    listens (``storage.changes.on_commit``: the tables' bells), and the
    running totals are worked out by the ledger (``ledger/running.py``) and
    written by money (``money/totals.refresh``)."""
    contexts = tuple(f"referee.service.{c}" for c in sorted(SERVICE_CONTEXTS - {"storage"}))
    assert [f"{name} imports {dep}" for name in sorted(MODULES)
            if name == STORAGE or name.startswith(STORAGE + ".")
            for dep in sorted(GRAPH[name]) if dep.startswith(contexts)] == []


def _storage_uses(path: Path) -> set[str]:
    """What ``path`` names of the storage: ``storage.X``, ``from ...storage
    import X`` and ``from ...storage.X import ...``."""
    name = _name(path) if path.is_relative_to(PACKAGE) else ""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "storage"):
            out.add(node.attr)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "setattr"
              and len(node.args) > 1 and getattr(node.args[0], "id", "") == "storage"
              and isinstance(node.args[1], ast.Constant)):  # monkeypatch.setattr(storage, "x")
            out.add(node.args[1].value)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            if module == STORAGE:
                out |= {alias.name for alias in node.names}
            elif module.startswith(STORAGE + "."):
                out.add(module[len(STORAGE) + 1:].split(".")[0])
    return out


def test_callers_name_the_storage_groups():
    """Outside the storage (the service, the commands, the benchmarks, the
    tests) a name of the storage is a group or one of the engine's."""
    _, groups, flat = _storage_facade()
    callers = [p for p in (*PACKAGE.rglob("*.py"), *ROOT.joinpath("bench").glob("*.py"),
                           *ROOT.joinpath("tests").glob("*.py"))
               if not _name(p).startswith(STORAGE)]
    assert sorted(f"{p.relative_to(ROOT)}: storage.{used}" for p in callers
                  for used in _storage_uses(p)
                  if used not in groups | flat and not used.startswith("__")) == []


def test_devtools_are_for_tests_and_benchmarks_only():
    assert [name for name in sorted(MODULES) if not name.startswith("referee.devtools")
            and any(m.startswith("referee.devtools") for m in GRAPH[name])] == []


# The storage package holds every statement (its pg module runs them on
# PostgreSQL, a driver for them with no SQL of its own). devtools.killing wraps
# the storage's connection in a crash test's child to see its COMMIT start: it
# passes the storage's statements on and writes none of its own.
PASSES_SQL_ON = {"referee.devtools.killing"}


def test_sql_only_in_the_storage():
    assert [name for name in sorted(MODULES) if not name.startswith("referee.service.storage")
            and name not in PASSES_SQL_ON
            and re.search(r"\.execute(many)?\(", MODULES[name].read_text())] == []


def test_no_http_below_the_web():
    below = ("referee.service", "referee.record", "referee.replay", "referee.rules",
             "referee.ledger")
    assert [name for name in sorted(MODULES) if name.startswith(below) and re.search(
        r"\bflask\b|\bwerkzeug\b|\b(?:40[0-9]|422)\b", MODULES[name].read_text())] == []


def test_no_merge_conflict_markers_are_left_anywhere():
    """A page head once shipped a rebase's markers: nothing tracked holds them."""
    import subprocess

    found = subprocess.run(["git", "grep", "-n", "-I", "-E", r"^(<{7}|>{7}) ", "--", "."],
                           cwd=ROOT, capture_output=True, text=True)
    if found.returncode not in (0, 1):  # not a git checkout (an installed copy): nothing to do
        pytest.skip("not a git checkout")
    assert found.stdout == "", found.stdout
