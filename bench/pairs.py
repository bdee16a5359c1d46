"""Whole processes measured side by side: the helper of bench/settle.py,
bench/report.py and bench/replay.py's process floor.

Each command runs as a process of its own, the commands taking turns (each
round in the other order from the last, so that neither always runs first
on a host that speeds up or slows down); each run's CPU time (user and
system, from ``wait4``: what the process and any child it waited for used,
which the other agents on a shared host do not take) and wall clock are
kept. Figures: the best and the median of each, and each round's ratio of
CPU time to the first command's.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class Runs:
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def best(self) -> float:
        return min(self.cpu)

    def median(self) -> float:
        return statistics.median(self.cpu)


def run(argv: Sequence[str], **kwargs) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``argv``, which must succeed."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, **kwargs)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(map(str, argv))} failed ({proc.returncode})")
    return usage.ru_utime + usage.ru_stime, wall


def take_turns(commands: dict[str, Sequence[str]], rounds: int, **kwargs) -> dict[str, Runs]:
    runs = {name: Runs() for name in commands}
    names = list(commands)
    for i in range(rounds):
        for name in (names if i % 2 == 0 else names[::-1]):
            cpu, wall = run(commands[name], **kwargs)
            runs[name].cpu.append(cpu)
            runs[name].wall.append(wall)
    return runs


def ratios(runs: dict[str, Runs], name: str, base: str) -> list[float]:
    """Each round's CPU time of ``name`` over ``base``'s."""
    return [a / b for a, b in zip(runs[name].cpu, runs[base].cpu, strict=True)]


def verdict(runs: dict[str, Runs], target: float) -> str:
    """The line each paired benchmark prints: ``this`` against ``against`` by
    CPU time, best runs and the rounds' median, met or not against ``target``."""
    each = ratios(runs, "this", "against")
    best = runs["this"].best() / runs["against"].best()
    return (f"ratio this/against, CPU: best runs {best:.2f}x; rounds median "
            f"{statistics.median(each):.2f}x (range {min(each):.2f}-{max(each):.2f}); "
            f"{'met' if best <= target else 'NOT met'} (target <= {target:.2f}x)")


def show(runs: dict[str, Runs]) -> None:
    for name, r in runs.items():
        print(f"  {name:<22} CPU best {r.best() * 1e3:8.0f} ms, median {r.median() * 1e3:8.0f} ms;"
              f"  wall best {min(r.wall) * 1e3:8.0f} ms, median "
              f"{statistics.median(r.wall) * 1e3:8.0f} ms")
