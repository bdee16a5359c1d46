"""The engine's shortcuts (registered in ``referee/speed``) held to what
they stand for. The turn-end gate: a discard checks the end of a turn only
when ``HouseRules.checks_turn_end`` says so, so every option that check
reads must turn the gate on, at every value but its "off" one. The options
are found by reading ``_verify_turn_end`` itself: a new option checked there
cannot slip past the gate."""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import fields, replace

import pytest

from referee.rules import legality
from referee.rules.options import HouseRules

OPTIONS = {f.name: f for f in fields(HouseRules)}


def _options_read(function) -> set[str]:
    """The options ``function`` reads (``rules.x`` or ``hand.rules.x``)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    read = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in OPTIONS:
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id == "rules" or \
                    isinstance(owner, ast.Attribute) and owner.attr == "rules":
                read.add(node.attr)
    return read


TIED = sorted(_options_read(legality._verify_turn_end))
OFF = HouseRules()  # every option at its default: no turn-end check


def test_the_turn_end_check_reads_the_options_it_is_known_for():
    # read from the code, so the check above cannot be empty by mistake
    assert {"take_must_meld", "must_spread"} <= set(TIED)
    assert not OFF.checks_turn_end


@pytest.mark.parametrize("name", TIED)
def test_every_value_of_a_turn_end_option_turns_the_gate_on(name):
    allowed = OPTIONS[name].metadata["allowed"]
    values = [v for v in allowed.standard if v != getattr(OFF, name)]
    assert values, f"{name}: no value but its default"
    for value in values:
        rules = replace(OFF, **{name: allowed.check(name, value)})
        assert rules.checks_turn_end, f"{name}={value!r} is checked at a turn's end, but " \
                                      "checks_turn_end leaves the check out"
