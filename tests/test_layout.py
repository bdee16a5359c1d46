"""The layout's rules: no import cycles among the referee's modules, the
devtools stay out of what a request can reach, SQL stays in the storage and
HTTP statuses in the web."""

import ast
import re
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


def _imports(name: str) -> set[str]:
    """The referee modules ``name`` imports, anywhere in it (lazy imports too)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
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


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_import_cycle(name):
    assert _cycle_from(name) is None, " -> ".join(_cycle_from(name))


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not n.startswith(
    "referee.devtools")))
def test_devtools_are_for_tests_and_benchmarks_only(name):
    assert not any(m.startswith("referee.devtools") for m in GRAPH[name])


# The storage package holds every statement (its pg module runs them on
# PostgreSQL, a driver for them with no SQL of its own).
@pytest.mark.parametrize("name", sorted(n for n in MODULES if n != "referee.service.storage"
                                        and not n.startswith("referee.service.storage.")))
def test_sql_only_in_the_storage(name):
    assert not re.search(r"\.execute(many)?\(", MODULES[name].read_text())


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith(
    ("referee.service", "referee.record", "referee.replay", "referee.rules",
     "referee.ledger"))))
def test_no_http_below_the_web(name):
    text = MODULES[name].read_text()
    assert not re.search(r"\bflask\b|\bwerkzeug\b|\b(?:40[0-9]|422)\b", text), name
