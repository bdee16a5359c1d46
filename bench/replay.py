"""Replay speed: a legal 10,000-hand session through `referee replay`.

Run by hand: `.venv/bin/python bench/replay.py [--hands N] [--repeat N]`.
Generates (and caches) a legal session log with every kind of ending, about
13 actions a hand, then times the whole `referee replay LOG --json` process
(the console script of a plain install of this checkout, byte-compiled, as
the README's first line leaves it: bench/installed.py) against
`json.loads` of the same file, the floor (a replay must at least read its
input), and against a bare ``json.load`` process of the same file, the two
taking turns (CPU time beside the wall clock). Prints the best and the
median run: this host is shared, and the same run varies by 20-40% from one
minute to the next. Targets: 15,000 hands/s or more for the whole process on
a quiet host (issue 21); at most 6x the bare process's wall clock (issue 37).
"""

from __future__ import annotations

import argparse
import collections
import compileall
import gc
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import installed  # noqa: E402
import pairs  # noqa: E402

from referee.devtools.simulate import Dealer  # noqa: E402
from referee.replay import replay  # noqa: E402
from referee.rules.options import resolve  # noqa: E402

TARGET = 15_000  # hands per second: issue 21 keeps the whole process at this or more


def best_of(fn, repeat: int) -> tuple[float, float]:
    """The best and the median wall-clock seconds of ``repeat`` calls: the
    host is shared, so every benchmark here reports both."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def generate(hands: int, seed: int = 7) -> dict:
    rng = random.Random(seed)
    names = ["Ann", "Ben", "Cy", "Dee"]
    # Deal wins are rare but must appear; a short deal-win list keeps them so.
    rules = resolve("pagat")
    dealer = Dealer(rules, names[:3], rng, rig=0.04)
    for _ in range(hands):
        # Most tables drop early; a few play long, for outs, tonk outs and
        # stock-outs. These odds give the "about 13 actions a hand".
        dealer.eager = 0.95 if rng.random() < 0.95 else 0.0
        dealer.play_hand()
    return dealer.log()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    cache = Path(tempfile.gettempdir()) / f"tonk-bench-v2-{args.hands}.json"
    if not cache.exists():
        t = time.perf_counter()
        log = generate(args.hands)
        cache.write_text(json.dumps(log))
        print(f"generated {args.hands} hands in {time.perf_counter() - t:.1f} s -> {cache}")
    text = cache.read_text()
    log = json.loads(text)
    actions = sum(len(h["actions"]) for h in log["hands"])
    result = replay(log).result().to_json()
    endings = collections.Counter(h["outcome"] for h in result["hands"])
    print(f"{len(log['hands'])} hands, {actions} actions "
          f"({actions / len(log['hands']):.1f} per hand), {len(text) / 1e6:.1f} MB")
    print("endings:", dict(sorted(endings.items())))

    def timed(fn):
        return best_of(fn, args.repeat)

    # As installed: the README's set-up byte-compiles the package (pip does
    # for a regular install; here PYTHONDONTWRITEBYTECODE keeps Python from
    # doing it by itself), so no run pays for compiling it.
    compileall.compile_dir(str(ROOT / "referee"), quiet=1)
    floor, _ = timed(lambda: json.loads(cache.read_bytes()))
    gc.disable()  # as `referee replay` runs
    in_process, _ = timed(lambda: replay(json.loads(cache.read_bytes())).result())
    gc.enable()
    # The command as the README's first line installs it (bench/installed.py).
    command = installed.referee_command()
    one_hand = Path(tempfile.gettempdir()) / "tonk-bench-1.json"
    one_hand.write_text(json.dumps({**log, "hands": log["hands"][:1]}))
    startup, _ = timed(lambda: subprocess.run(
        [*command, "replay", str(one_hand), "--json"], check=True, stdout=subprocess.DEVNULL))
    # The floor as a whole process (issue 37: the replay at most 6x it): a
    # bare interpreter reading the same file with json.load. The two take
    # turns (bench/pairs.py), so that a busy minute falls on both; the CPU
    # time (the replay's second process included) beside the wall clock.
    runs = pairs.take_turns({
        "replay": [*command, "replay", str(cache), "--json"],
        "bare": [sys.executable, "-S", "-c", "import json, sys; json.load(open(sys.argv[1]))",
                 str(cache)]}, args.repeat)
    whole, whole_median = min(runs["replay"].wall), statistics.median(runs["replay"].wall)
    bare = min(runs["bare"].wall)
    walls = [a / b for a, b in zip(runs["replay"].wall, runs["bare"].wall, strict=True)]
    cpus = pairs.ratios(runs, "replay", "bare")
    hands = len(log["hands"])
    print(f"json.loads floor:        {floor * 1000:8.1f} ms")
    print(f"bare json.load process:  {bare * 1000:8.1f} ms (wall, best; CPU best "
          f"{runs['bare'].best() * 1000:.0f} ms)")
    print(f"`referee replay --json` over the bare process: wall best runs {whole / bare:.1f}x, "
          f"rounds median {statistics.median(walls):.1f}x (range {min(walls):.1f}-"
          f"{max(walls):.1f}); {'met' if whole / bare <= 6 else 'NOT met'} (target <= 6x, "
          f"wall); CPU best runs {runs['replay'].best() / runs['bare'].best():.1f}x, rounds "
          f"median {statistics.median(cpus):.1f}x (two processes against one)")
    print(f"replay in process:       {in_process * 1000:8.1f} ms  "
          f"{hands / in_process:9.0f} hands/s  ratio to floor {in_process / floor:.1f}x")
    print(f"`referee replay --json`: {whole * 1000:8.1f} ms  "
          f"{hands / whole:9.0f} hands/s  ratio to floor {whole / floor:.1f}x "
          f"(best of {args.repeat}; median {whole_median * 1000:.0f} ms, "
          f"{hands / whole_median:.0f} hands/s)")
    print(f"  of which start-up:     {startup * 1000:8.1f} ms  (a one-hand log, whole process)")
    print(f"target {TARGET} hands/s: {'met' if hands / whole >= TARGET else 'NOT met'} "
          f"({hands / whole / TARGET:.2f} of target; median run "
          f"{hands / whole_median / TARGET:.2f})")


if __name__ == "__main__":
    main()
