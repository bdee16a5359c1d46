"""The table's pages byte for byte, this checkout against another: the check
of a pure move of the pages (ids, CSRF tokens and other random keys aside).

    .venv/bin/python bench/page_bytes.py --against DIR [--keep DIR]

Run by hand, never as a test. Each side (its checkout's own ``.venv``,
started outside the checkout) opens the app on a fresh SQLite database with
the clock stopped, imports every sample log that imports over the API, then
makes the live tables a night meets (payments made, one taken back, a debt
carried into a new table, a dispute open and one settled, a closed table),
unlocks each table as a browser does, and reads its pages: the table, the
standings, settle up, the TV, manage and its hands' pages (the first three
and the last), in English and German, and in French and Portuguese for
every fourth table and the live ones. Each page is kept with the session
ids, CSRF tokens, client ids and long hex keys (hashes of chained times)
replaced by placeholders; the sides' pages are then compared, and each
difference printed (the first lines that differ). Exit 1 when any differs.
"""

from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Only names both sides have: the app factory, the public API, the unlock form.
CHILD = r"""
import datetime as _dt, json, re, sys, tempfile
from pathlib import Path

class _Stopped(_dt.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2026, 11, 28, 20, 15, 30, 250000, tzinfo=tz)

import referee.service.storage as _storage
for _name, _mod in list(sys.modules.items()):
    if _name.startswith("referee.service.storage") and \
            getattr(_mod, "datetime", None) is _dt.datetime:
        _mod.datetime = _Stopped

from referee.web import create_app
samples, out = Path(sys.argv[1]), Path(sys.argv[2])
tmp = Path(tempfile.mkdtemp(prefix="tonk-bytes-"))
app = create_app({"DATABASE": str(tmp / "pages.sqlite3"), "TESTING": True, "OPENINGS": None})
client = app.test_client()
tables = []  # (name, sid, token, hands, languages)

def bearer(token):
    return {"Authorization": f"Bearer {token}"}

def api(method, path, token=None, **body):
    r = client.open(path, method=method, json=body if body or method == "POST" else None,
                    headers=bearer(token) if token else {})
    assert r.status_code < 300, (path, r.status_code, r.get_data(as_text=True)[:400])
    return r.get_json()

for i, path in enumerate(sorted(samples.glob("*.json"))):
    if path.name.endswith(".expected.json"):
        continue
    # Two samples may hold the same night: each is served, a copy if need be.
    r = client.post("/api/sessions", json={**json.loads(path.read_text()), "copy": True})
    if r.status_code != 201:
        continue
    made = r.get_json()
    hands = len(json.loads(path.read_text()).get("hands") or ())
    langs = ("en", "de", "fr", "pt") if i % 4 == 0 else ("en", "de")
    tables.append((path.stem, made["id"], made["table_token"], hands, langs))

# A live night: a table with hands, payments (one taken back), a dispute open
# and one settled; a debt carried into a new table; a closed table.
ALL = ("en", "de", "fr", "pt")
def night(name, doc, **extra):
    made = api("POST", "/api/sessions", **{**doc, **extra})
    return name, made["id"], made["table_token"], len(doc.get("hands") or ()), ALL

src = None
for path in sorted(samples.glob("*.json")):
    if path.name.endswith(".expected.json") or path.stem.startswith("err_"):
        continue
    doc = json.loads(path.read_text())
    if len(doc.get("hands") or ()) >= 3 and "closed" not in doc and not doc.get("payments") \
            and not doc.get("brought_forward") and doc.get("currency"):
        src = doc
        break
assert src is not None
players = src["players"]
live = night("live", {**src, "table": "Live night"})
sid, tok = live[1], live[2]
a, b = players[0], players[1]
api("POST", f"/api/sessions/{sid}/payments", tok,
    **{"from": a, "to": b, "amount": "1.25", "note": "cash"})
api("POST", f"/api/sessions/{sid}/payments", tok, **{"from": b, "to": a, "amount": "0.50"})
api("POST", f"/api/sessions/{sid}/payments/2/undo", tok)
api("POST", f"/api/sessions/{sid}/hands/1/disputes", tok, by=a, note="not that card")
api("POST", f"/api/sessions/{sid}/hands/2/disputes", tok, by=b, note="miscounted", action=1)
api("POST", f"/api/sessions/{sid}/hands/2/disputes/1/settle", tok, how="stands", by=a)
tables.append(live)
# a table closed with its debts still owed
closed = night("closed", {**src, "table": "Closed night"})
api("POST", f"/api/sessions/{closed[1]}/close", closed[2])
tables.append(closed)
# the live table's debts carried into a new one, with a payment there
carried = night("carried", {"format": src["format"], "rules": src["rules"], "stake": src["stake"],
                            "currency": src["currency"], "players": players, "table": "Next night"},
                brought_forward_from=sid, brought_forward_token=tok)
api("POST", f"/api/sessions/{carried[1]}/payments", carried[2],
    **{"from": b, "to": a, "amount": "0.10"})
tables.append(carried)

sids = {t[1]: f"SID{k}" for k, t in enumerate(tables)}
def clean(text):
    for s, mark in sids.items():
        text = text.replace(s, mark)
    text = re.sub(r'(name="csrf_token" value="|data-csrf=")[^"]+', r"\1CSRF", text)
    text = re.sub(r"\b[0-9a-f]{16,}\b", "HEX", text)
    return text

pages = {}
for name, sid, token, hands, langs in tables:
    page = client.get(f"/s/{sid}/unlock").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    done = client.post(f"/s/{sid}/unlock", data={"csrf_token": csrf, "pin": token})
    assert done.status_code in (302, 303), (name, done.status_code)
    paths = ["", "/standings", "/settle", "/tv", "/manage"]
    paths += [f"/hands/{n}" for n in sorted({*range(1, min(hands, 3) + 1), hands} - {0})]
    for lang in langs:
        for tail in paths:
            r = client.get(f"/s/{sid}{tail}?lang={lang}")
            pages[f"{name} {lang} {tail or '/'}"] = \
                f"{r.status_code}\n" + clean(r.get_data(as_text=True))
out.write_text(json.dumps(pages, ensure_ascii=False, indent=0, sort_keys=True))
print(len(pages))
"""


def dump(checkout: Path, to: Path) -> dict[str, str]:
    done = subprocess.run([str(checkout / ".venv" / "bin" / "python"), "-c", CHILD,
                           str(ROOT / "sample_logs"), str(to)], capture_output=True, text=True,
                          cwd=tempfile.gettempdir())
    if done.returncode:
        sys.exit(f"{checkout}: {done.stderr[-3000:]}")
    return json.loads(to.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", type=Path, required=True, help="a checkout with its .venv")
    ap.add_argument("--this", type=Path, default=ROOT)
    ap.add_argument("--keep", type=Path, help="a folder to keep both sides' pages in")
    ap.add_argument("--again", action="store_true",
                    help="read the other side's pages kept in --keep, not made again")
    args = ap.parse_args()
    keep = args.keep or Path(tempfile.mkdtemp(prefix="tonk-bytes-"))
    keep.mkdir(parents=True, exist_ok=True)
    mine = dump(args.this, keep / "this.json")
    theirs = json.loads((keep / "against.json").read_text()) if args.again else \
        dump(args.against, keep / "against.json")
    differ = 0
    for key in sorted(set(mine) | set(theirs)):
        if mine.get(key) == theirs.get(key):
            continue
        differ += 1
        if differ <= 10:
            print(f"--- {key}")
            lines = difflib.unified_diff((theirs.get(key) or "").splitlines(),
                                         (mine.get(key) or "").splitlines(), lineterm="", n=1)
            print("\n".join(list(lines)[2:30]))
    print(f"{len(mine)} pages here, {len(theirs)} there, {differ} differ (kept in {keep})")
    return 1 if differ or not mine else 0


if __name__ == "__main__":
    sys.exit(main())
