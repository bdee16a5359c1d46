"""The rules engine and the ledger import nothing of the web, storage or PDF layers."""

import ast
from pathlib import Path

import pytest

PURE = ["referee/rules", "referee/ledger"]
FORBIDDEN = {"flask", "marshmallow", "sqlite_utils", "reportlab", "waitress", "apispec",
             "sqlite3", "werkzeug", "jinja2"}
ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level >= 2:
            # "from ..x import" inside a pure package must stay inside the pure packages
            yield f"relative:{node.module}"


@pytest.mark.parametrize("path", sorted(p for d in PURE for p in (ROOT / d).rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_no_frameworks(path):
    for name in _imports(path):
        assert name not in FORBIDDEN, f"{path.name} imports {name}"
        if name.startswith("relative:"):
            module = name.split(":", 1)[1] or ""
            assert module.split(".")[0] in ("rules", "ledger"), f"{path.name} imports ..{module}"
