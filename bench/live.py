"""Action on one device -> updated page on another (run by hand, not a test).

``referee serve`` in processes of its own (``--servers 2`` on PostgreSQL:
the action through the first, the watching pages served by the second);
a table made through the API, its hand played by a simulated tablet (the
acting device, which posts each action through the API); WATCHERS headless
Chromium contexts (each its own browser profile, as separate phones) show
the hand's page. Each action is timed from just before its POST to the
moment each watcher's page shows the hand's new number of actions
(``#seq``; a MutationObserver in the page notes the time). Before: the hand
page asked every second and reloaded (median about 1.07 s); now the table's
stream pushes each change and live.js fetches the page and swaps it in.

    .venv/bin/python bench/live.py [--actions 40] [--watchers 3]
    .venv/bin/python bench/live.py --db postgresql://... --servers 2

Target: median under 250 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.devtools.loadgen import Client, Tablet, free_port, start_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

# Notes in window.__seenAt the time (ms since the epoch) at which #seq first reads ``want``.
WATCH_FOR_SEQ = """(want) => {
  window.__seenAt = null;
  const now = () => performance.timeOrigin + performance.now();
  const seen = () => { const e = document.querySelector('#seq');
                       return e && e.textContent.trim() === String(want); };
  const watch = new MutationObserver(() => {
    if (seen()) { watch.disconnect(); window.__seenAt = now(); } });
  watch.observe(document, {subtree: true, childList: true, characterData: true});
}"""


# The page shows the new number: swapped in (noted by the observer above), or a
# new page loaded (the old pages reloaded: the moment its document was parsed).
SHOWN = """(want) => window.__seenAt != null ||
  (document.querySelector('#seq')?.textContent.trim() === String(want) &&
   window.__seenAt === undefined)"""
SHOWN_AT = """() => window.__seenAt ??
  performance.timeOrigin + performance.getEntriesByType('navigation')[0].domInteractive"""


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(p / 100 * len(values)) - 1))]


def fresh_schema(url: str) -> str:
    from urllib.parse import quote

    from referee.service import storage

    name = f"bench_live_{int(time.time())}"
    storage.connect(url).execute(f"CREATE SCHEMA {name}")
    return f"{url}{'&' if '?' in url else '?'}options={quote(f'-c search_path={name}')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--watchers", type=int, default=3)
    parser.add_argument("--db", help="a postgresql:// URL (default: a new SQLite file)")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    target = fresh_schema(args.db) if args.db else \
        str(Path(tempfile.mkdtemp(prefix="referee-live-")) / "live.sqlite3")
    ports = [free_port() for _ in range(args.servers)]
    servers = [start_server(target, port) for port in ports]
    try:
        acting = Tablet(Client("127.0.0.1", ports[0]), seed=3)
        acting.open()
        acting.prepare(args.actions + 1)
        acting.step()  # the hand starts (and its first action): the pages open on it
        watch_base = f"http://127.0.0.1:{ports[-1]}"
        token = acting.client.token
        took: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = []
            for _ in range(args.watchers):
                pg = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                pg.goto(f"{watch_base}/s/{acting.sid}/unlock")
                pg.fill("input[name=pin]", token)
                pg.locator("form button[type=submit]").first.click()
                pg.wait_for_load_state("load")
                pg.goto(f"{watch_base}/s/{acting.sid}/hands/{acting.n}")
                if args.verbose:
                    print(pg.url, pg.locator("#seq").inner_text(), acting.seq, flush=True)
                pages.append(pg)
            time.sleep(1.0)  # the streams open
            done = 0
            while done < args.actions:
                if acting.script and acting.script[-1][0] == "hand":
                    acting.step()  # a new hand: the pages move to it
                    for pg in pages:
                        pg.goto(f"{watch_base}/s/{acting.sid}/hands/{acting.n}")
                    time.sleep(0.5)
                    continue
                want = acting.seq + 1
                for pg in pages:
                    pg.evaluate(WATCH_FOR_SEQ, want)
                t0 = time.time() * 1000
                status, _ = acting.step()
                if status != 201:
                    raise RuntimeError(f"action: {status}")
                for pg in pages:
                    pg.wait_for_function(SHOWN, arg=want, timeout=10_000)
                    took.append(pg.evaluate(SHOWN_AT) - t0)
                if args.verbose:
                    print(f"action {acting.n}.{acting.seq}: "
                          f"{[round(x) for x in took[-len(pages):]]}", flush=True)
                done += 1
                time.sleep(0.05)
            browser.close()
    finally:
        for server in servers:
            server.kill()
            server.wait()
    backend = "PostgreSQL" if args.db else "SQLite"
    print(f"{backend}, {args.servers} app process(es), {args.watchers} watching devices, "
          f"{len(took)} updates: median {statistics.median(took):.0f} ms, "
          f"p95 {pct(took, 95):.0f} ms, max {max(took):.0f} ms (target: median < 250 ms)")


if __name__ == "__main__":
    main()
