"""The sample logs, and a few of them that between them have every feature
of all of them: for the checks whose risk lies in what a log has (a
sentence, a refusal, an event, an option), not in which log has it. A
check run over every sample in one way (one language, one database) and
over this cover in every other way keeps its risk at a fraction of the
cases; a new sample with something new joins the cover by itself."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "sample_logs"
SAMPLES = sorted(p for p in FOLDER.glob("*.json") if not p.name.endswith(".expected.json"))


def _expected(path: Path) -> dict:
    try:
        return json.loads(path.with_suffix(".expected.json").read_text())
    except (OSError, ValueError):
        return {}


def features(path: Path) -> frozenset[str]:
    """What a sample has that a report or a check could word differently: its
    refusal's code, its hands' outcomes and notes, its log's keys (session and
    hand events), its rules (preset and options), its side bets and the verbs
    of its actions."""
    try:
        doc = json.loads(path.read_text())
    except ValueError:
        return frozenset({"unreadable"})
    out = set()
    want = _expected(path)
    if "error" in want:
        out.add(f"error:{want['error'].get('code')}")
    for hand in want.get("hands", []):
        out.add(f"outcome:{hand.get('outcome')}")
        out.update(f"note:{k}" for k in ("reason", "told") if k in hand)
    if not isinstance(doc, dict):
        return frozenset(out | {"not_an_object"})
    out.update(f"log:{k}" for k in doc)
    out.add(f"currency:{bool(doc.get('currency'))}")
    rules = doc.get("rules")
    if isinstance(rules, dict):
        out.update(f"option:{k}={json.dumps(v, sort_keys=True)}" for k, v in rules.items())
    else:
        out.add(f"preset:{rules}")
    hands = doc.get("hands") if isinstance(doc.get("hands"), list) else []
    for hand in hands:
        if not isinstance(hand, dict):
            continue
        out.update(f"hand:{k}" for k in hand)
        for bet in hand.get("side_bets") or []:
            if isinstance(bet, dict):
                out.add(f"side_bet:{bet.get('kind')}")
        if isinstance(hand.get("ending"), dict):
            out.add(f"ending:{hand['ending'].get('how')}")
        for action in hand.get("actions") or []:
            if isinstance(action, str) and (verb := re.match(r"[^:]*:\s*(\w+)", action)):
                out.add(f"verb:{verb.group(1)}")
    return frozenset(out)


@cache
def cover(paths: tuple[Path, ...] = tuple(SAMPLES)) -> frozenset[Path]:
    """Few of ``paths`` that have every feature any of them has (greedy: the
    sample with the most features not yet covered, then the next)."""
    left = {p: features(p) for p in paths}
    wanted = set().union(*left.values())
    chosen = set()
    while wanted:
        best = max(sorted(left), key=lambda p: len(left[p] & wanted))
        chosen.add(best)
        wanted -= left.pop(best)
    return frozenset(chosen)


def each_once_and_cover_in_all(paths, ways, *, turns: bool = True) -> list[tuple[Path, object]]:
    """Every path in one of ``ways`` (taking turns; ``turns=False``: the first
    way, for ways that may be missing here, as a database), and the cover of
    them in every way."""
    covered = cover(tuple(paths))
    return [(p, way) for i, p in enumerate(paths) for way in ways
            if p in covered or way == ways[i % len(ways) if turns else 0]]
