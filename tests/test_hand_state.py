"""A hand's state said once: what follows from the rest is not kept beside it.

CPython 3.11 keeps at most 29 attributes of a plain instance in its compact
form; the 30th gives every hand a dict of its own and every look-up of its
state goes through it (issue 37: 4% of a replayed hand's instructions when
``Hand`` had 31). A new piece of state is welcome; one that repeats another
(the deck is the rules', the slapped discard is the last action) is not."""

from __future__ import annotations

import json
from pathlib import Path

from referee.replay import replay

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
COMPACT = 29


def _hands():
    log = json.loads((SAMPLES / "opt_slapping_on_three_ways.json").read_text())
    return replay(log).table.hands


def test_a_hand_keeps_its_state_in_at_most_29_attributes():
    for hand in _hands():
        assert len(vars(hand)) <= COMPACT, sorted(vars(hand))

