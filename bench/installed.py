"""This checkout installed as the README's first line installs it, for the
benchmarks that time the ``referee`` command as a whole process.

The test set-up installs the package editable, and an editable install puts
an import hook in every process (``pathlib``, ``fnmatch`` and ``urllib``
imported before the first line of the program: about 25 ms of a one-hand
replay's 140 here). A user who followed the README has a plain install,
byte-compiled by pip, and pays none of it. So the command is timed from a
plain install of this very checkout: a venv of its own under the temporary
directory, keyed by the hash of the package's files (made again when they
change), whose dependencies are this interpreter's (a ``.pth`` line; ``pip
install --no-deps``: seconds, not the minute a full install takes).
"""

from __future__ import annotations

import hashlib
import site
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _source_hash() -> str:
    h = hashlib.sha256()
    for path in sorted([ROOT / "pyproject.toml", *(ROOT / "referee").rglob("*")]):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def referee_command() -> list[str]:
    """The ``referee`` console script of a plain install of this checkout."""
    home = Path(tempfile.gettempdir()) / f"tonk-bench-install-{_source_hash()}"
    script = home / "bin" / "referee"
    if not script.exists():
        venv.EnvBuilder(with_pip=False, clear=True).create(home)
        target = next((home / "lib").glob("python*/site-packages"))
        # The dependencies as this interpreter has them; the editable
        # install's own .pth files are not read from a path added so.
        deps = [p for p in site.getsitepackages() if Path(p).is_dir()]
        (target / "bench-deps.pth").write_text("\n".join(deps) + "\n")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                        "--target", str(target), str(ROOT)],
                       check=True)
        script.write_text(f"#!{home / 'bin' / 'python'}\n"
                          "import sys\nfrom referee.cli import run\nsys.exit(run())\n")
        script.chmod(0o755)
        import compileall

        compileall.compile_dir(str(target / "referee"), quiet=1)
    return [str(script)]
