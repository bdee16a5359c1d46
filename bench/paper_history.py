"""Which commits changed the papers: the settlement PDF, the text report and
the JSON result of one fixed log, commit by commit.

    nice -n 19 .venv/bin/python bench/paper_history.py [--range 47c6fb0..main]
        [--hands 1000] [--cache PATH]

Run by hand, never as a test. Issue 37 asks that speed work leave "the papers
byte-identical to today's"; this shows where the outputs did change, so a
reader can see that each change was meant (new words, new features) and
that no speed commit changed one.

For every first-parent commit of the range, oldest first, and the range's
base before them, it checks the commit out into one scratch worktree of its
own under /tmp (``git worktree add --detach`` once, ``git checkout`` per
commit, the worktree removed at the end), and runs that commit's own CLI
(``python -m referee``, this interpreter, ``PYTHONPATH`` the worktree) on
bench/replay.py's generated log (``--hands`` hands, copied once at start):

    referee settle LOG --pdf OUT     (the settlement paper)
    referee replay LOG               (the text report)
    referee replay LOG --json        (the tonk-result/1 document)

and keeps each output's SHA-256, per commit, in a JSON cache (default
/tmp/tonk-paper-history-<log's sha256>.json; outputs kept by hash beside
it), so that a rerun only runs the commits it has not seen. A command that
fails at a commit is recorded as failed (its exit status and last line),
not fatal; the next commit is compared with the last one that made it.

Before the history it runs each command twice at the base and the tip: if the
two PDFs differ it compares them with /CreationDate, /ModDate and /ID taken
out, and says so.

It prints one line per commit where an output's hash differs from the
previous commit's (with the commit's subject), then for each changed output
the first lines that differ, word by word (the PDF's through its text:
``pdftotext`` if installed, else pypdf; where only the spaces differ, it
says so), then a summary: how many commits changed each output, the
failures, and whether a speed commit (``SPEED_PATHS`` and ``SPEED_WORDS``,
in ``speed_reasons``) changed an output; each such commit with its diff
stat, so that a reader can judge.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

OUTPUTS = ("pdf", "text", "json")
# A commit is a speed commit when it touched one of these (a directory ends
# in "/") or its message names one of these words (case-insensitive).
SPEED_PATHS = ("referee/speed/", "referee/replay/two_cores.py", "referee/record/reading.py",
               "referee/record/result_text.py")
SPEED_WORDS = ("issue 37", "speed")
TIMEOUT = 600  # seconds a command may take on a busy host before it counts as failed
# What reportlab writes that changes from run to run outside invariant mode.
VOLATILE_PDF = re.compile(rb"/(CreationDate|ModDate) \([^)]*\)|/ID\s*\[[^\]]*\]")


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout


def commits(span: str) -> list[str]:
    """The range's base, then its first-parent commits, oldest first."""
    base = span.split("..")[0]
    listed = git("rev-list", "--first-parent", "--reverse", span).split()
    return [git("rev-parse", base).strip(), *listed]


def speed_reasons(rev: str) -> list[str]:
    """Why ``rev`` counts as a speed commit: the speed files it touched and
    the speed words of its message (empty: not a speed commit)."""
    touched = git("diff-tree", "--no-commit-id", "--name-only", "-r", "--root", rev).split()
    reasons = [path for path in touched
               if any(path.startswith(s) if s.endswith("/") else path == s for s in SPEED_PATHS)]
    message = git("log", "-1", "--format=%B", rev).lower()
    reasons += [f'message says "{word}"' for word in SPEED_WORDS if word in message]
    return reasons


class Runner:
    """One commit's CLI at a time, in one scratch worktree."""

    def __init__(self, log: Path, store: Path, normalise: bool = False) -> None:
        self.log = log
        self.store = store
        self.normalise = normalise
        self.tree = Path(tempfile.mkdtemp(prefix="tonk-paper-history-")) / "tree"
        self.out = self.tree.parent / "out"
        self.out.mkdir()
        git("worktree", "add", "-q", "--detach", str(self.tree), "HEAD")

    def close(self) -> None:
        git("worktree", "remove", "--force", str(self.tree))
        shutil.rmtree(self.tree.parent, ignore_errors=True)

    def checkout(self, rev: str) -> None:
        # Clean too: no byte-code or file left from the commit before.
        git("checkout", "-q", "--detach", rev, cwd=self.tree)
        git("clean", "-fdxq", cwd=self.tree)

    def _cli(self, args: list[str]) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        return subprocess.run([sys.executable, "-m", "referee", *args], cwd=self.tree, env=env,
                              capture_output=True, timeout=TIMEOUT)

    def imports_own(self) -> bool:
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        where = subprocess.run([sys.executable, "-c", "import referee; print(referee.__file__)"],
                               cwd=self.tree, env=env, capture_output=True, text=True)
        return where.stdout.strip().startswith(str(self.tree))

    def output(self, name: str) -> bytes | str:
        """The output ``name`` of the checked-out commit: its bytes, or why
        it failed (a str)."""
        pdf = self.out / "settlement.pdf"
        pdf.unlink(missing_ok=True)
        args = {"pdf": ["settle", str(self.log), "--pdf", str(pdf)],
                "text": ["replay", str(self.log)],
                "json": ["replay", str(self.log), "--json"]}[name]
        try:
            done = self._cli(args)
        except subprocess.TimeoutExpired:
            return f"timed out after {TIMEOUT} s"
        if done.returncode != 0:
            last = (done.stderr.decode(errors="replace").strip().splitlines() or ["(silent)"])[-1]
            return f"exit {done.returncode}: {last[:160]}"
        if name == "pdf":
            if not pdf.exists():
                return "exit 0 but no PDF written"
            data = pdf.read_bytes()
            return VOLATILE_PDF.sub(b"", data) if self.normalise else data
        return done.stdout

    def record(self, rev: str) -> dict:
        self.checkout(rev)
        if not self.imports_own():
            raise SystemExit(f"{rev[:10]}: `import referee` does not read the worktree")
        row: dict = {"subject": git("log", "-1", "--format=%s", rev).strip()}
        for name in OUTPUTS:
            got = self.output(name)
            if isinstance(got, str):
                row[name] = {"failed": got}
                continue
            digest = hashlib.sha256(got).hexdigest()
            blob = self.store / f"{digest}.{name}"
            if not blob.exists():
                blob.write_bytes(got)
            row[name] = {"sha256": digest}
        return row


def deterministic(runner: Runner, rev: str) -> dict[str, bool]:
    """Whether each command gives the same bytes twice at ``rev``."""
    runner.checkout(rev)
    return {name: runner.output(name) == runner.output(name) for name in OUTPUTS}


def pdf_text(data: bytes) -> list[str]:
    if shutil.which("pdftotext"):
        done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data,
                              capture_output=True, check=True)
        text = done.stdout.decode()
    else:
        from pypdf import PdfReader

        text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)
    return [line.rstrip() for line in text.splitlines()]


def _changed_lines(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    lines = [line for line in difflib.unified_diff(a, b, lineterm="", n=0)
             if line[:1] in "-+" and not line.startswith(("---", "+++"))]
    return ([line for line in lines if line.startswith("-")],
            [line for line in lines if line.startswith("+")])


def word_diff(store: Path, name: str, before: str, after: str, shown: int = 3) -> list[str]:
    """The first ``shown`` lines gone and come between two kept outputs,
    compared word by word (runs of spaces as one): where only the spaces
    differ (a PDF's columns or chart moved), the lines that moved."""
    old, new = (store / f"{before}.{name}").read_bytes(), (store / f"{after}.{name}").read_bytes()
    if name == "pdf":
        a, b = pdf_text(old), pdf_text(new)
    else:
        a, b = old.decode(errors="replace").splitlines(), new.decode(errors="replace").splitlines()
    gone, come = _changed_lines([" ".join(x.split()) for x in a], [" ".join(x.split()) for x in b])
    said = []
    if not gone and not come:
        gone, come = _changed_lines(a, b)
        said = ["    the same words, only spaced differently (placement on the page)"
                if gone or come else
                "    the same text: the change is in the drawing or the PDF's bytes only"]
    said.append(f"    {len(gone)} lines gone, {len(come)} come")
    said += [f"    {line[:150]}" for line in gone[:shown] + come[:shown]]
    return said


def diff_stat(rev: str, most: int = 25) -> list[str]:
    """``rev``'s diff stat, without its sample logs (a rules commit adds
    dozens), at most ``most`` files, and its total."""
    lines = git("show", "--stat=100", "--format=", rev).rstrip().splitlines()
    files, total = lines[:-1], lines[-1:]
    kept = [line for line in files if "sample_logs/" not in line and not line.startswith(" ...")]
    left = len(files) - len(kept[:most])
    return kept[:most] + ([f" ({left} more files: sample logs and the like)"] if left else []) \
        + total


def changes(revs: list[str], rows: dict) -> list[tuple[str, list[str]]]:
    """Each commit whose outputs differ from the last ones made before it,
    with the names of the outputs changed (a failure is not a change)."""
    last: dict[str, str] = {}
    found = []
    for rev in revs:
        changed = []
        for name in OUTPUTS:
            digest = rows[rev][name].get("sha256")
            if digest is None:
                continue
            if name in last and last[name] != digest:
                changed.append(name)
            last[name] = digest
        if changed:
            found.append((rev, changed))
    return found


def before_of(revs: list[str], rows: dict, rev: str, name: str) -> str:
    """The hash of ``name`` last made before ``rev``."""
    for earlier in reversed(revs[:revs.index(rev)]):
        digest = rows[earlier][name].get("sha256")
        if digest:
            return digest
    raise LookupError(rev)


def report(revs: list[str], rows: dict, store: Path) -> None:
    # Worked out afresh each run (not cached): SPEED_PATHS and SPEED_WORDS may change.
    for rev in revs[1:]:
        rows[rev]["speed"] = speed_reasons(rev)
    rows[revs[0]]["speed"] = []
    found = changes(revs, rows)
    print(f"\n{len(found)} commits changed an output (of {len(revs) - 1} after the base):")
    for rev, changed in found:
        mark = "  SPEED" if rows[rev]["speed"] else ""
        print(f"{rev[:10]} {','.join(changed):<13}{mark} {rows[rev]['subject'][:110]}")
    print("\nWhat changed (first lines gone (-) and come (+); the PDF through its text):")
    for rev, changed in found:
        for name in changed:
            print(f"{rev[:10]} {name}: {rows[rev]['subject'][:90]}")
            for line in word_diff(store, name, before_of(revs, rows, rev, name),
                                  rows[rev][name]["sha256"]):
                print(line)
    summary(revs, rows, found)


def summary(revs: list[str], rows: dict, found: list[tuple[str, list[str]]]) -> None:
    print("\nSummary:")
    for name in OUTPUTS:
        count = sum(name in changed for _, changed in found)
        failed = [rev for rev in revs if "failed" in rows[rev][name]]
        print(f"  {name:<5} changed at {count} commits; failed at {len(failed)}"
              + (f" (first {failed[0][:10]}: {rows[failed[0]][name]['failed']})"
                 if failed else ""))
    speed = [rev for rev in revs[1:] if rows[rev]["speed"]]
    guilty = [(rev, changed) for rev, changed in found if rows[rev]["speed"]]
    print(f"  {len(speed)} speed commits (touching {', '.join(SPEED_PATHS)}, or saying "
          f"{' or '.join(repr(w) for w in SPEED_WORDS)}); {len(guilty)} of them changed an output")
    for rev, changed in guilty:
        print(f"\n  {rev[:10]} changed {', '.join(changed)}: {rows[rev]['subject'][:100]}")
        print(f"    speed because: {'; '.join(rows[rev]['speed'])}")
        print("\n".join(f"    {line}" for line in diff_stat(rev)))


def load_cache(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def save_cache(path: Path, rows: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(rows, indent=1, sort_keys=True))
    tmp.replace(path)


def fixed_log(hands: int, into: Path) -> tuple[Path, str]:
    from engine import log_file  # bench/engine.py: bench/replay.py's log, cached in /tmp

    data = log_file(hands).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    copy = into / f"log-{digest[:12]}.json"
    if not copy.exists():
        copy.write_bytes(data)
    return copy, digest


def run_all(revs: list[str], runner: Runner, rows: dict, cache: Path) -> None:
    started = time.monotonic()
    todo = [rev for rev in revs if rev not in rows]
    print(f"{len(revs)} commits, {len(revs) - len(todo)} cached, {len(todo)} to run",
          file=sys.stderr)
    for i, rev in enumerate(todo, 1):
        rows[rev] = runner.record(rev)
        save_cache(cache, rows)
        failed = [n for n in OUTPUTS if "failed" in rows[rev][n]]
        print(f"[{i}/{len(todo)} {time.monotonic() - started:6.0f} s] {rev[:10]}"
              + (f" failed: {','.join(failed)}" if failed else ""), file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--range", default="47c6fb0..main", dest="span",
                    help="BASE..TIP, walked by first parent (default: 47c6fb0..main)")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--cache", type=Path, help="the results' JSON file")
    args = ap.parse_args()
    home = Path(tempfile.gettempdir()) / "tonk-paper-history"
    home.mkdir(exist_ok=True)
    log, digest = fixed_log(args.hands, home)
    store = home / f"outputs-{digest[:12]}"
    store.mkdir(exist_ok=True)
    cache = args.cache or home / f"results-{digest[:12]}.json"
    revs = commits(args.span)
    print(f"log: {log} ({args.hands} hands, sha256 {digest[:16]}); cache: {cache}")
    runner = Runner(log, store)
    try:
        same = {}
        for rev in (revs[0], revs[-1]):
            same[rev] = deterministic(runner, rev)
            print(f"the same bytes twice at {rev[:10]}: "
                  + ", ".join(f"{n} {'yes' if ok else 'NO'}" for n, ok in same[rev].items()))
        if not all(ok["pdf"] for ok in same.values()):
            runner.normalise = True
            print("the PDF is compared with /CreationDate, /ModDate and /ID taken out")
            cache = cache.with_name(cache.stem + "-normalised.json")
        rows = load_cache(cache)
        run_all(revs, runner, rows, cache)
    finally:
        runner.close()
    report(revs, rows, store)
    return 0


if __name__ == "__main__":
    sys.exit(main())
