"""The options explain themselves: CLI and reference page from the same data."""

from pathlib import Path

import pytest

from referee.cli import main
from referee.commands.rules_doc import documented_groups_cover_every_option, markdown
from referee.rules.catches import CATCH_SCHEMES
from referee.rules.options import OPTION_DOCS, OPTION_NAMES, OPTION_VALUES, PRESETS

DOC = Path(__file__).resolve().parents[1] / "docs" / "house-rules.md"


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_option_has_its_explanation(name):
    assert len(OPTION_DOCS[name]) > 20 and OPTION_DOCS[name].endswith(".")
    assert OPTION_VALUES[name]


def test_reference_page_is_generated_from_the_options():
    assert documented_groups_cover_every_option() == set(OPTION_NAMES)
    assert DOC.read_text() == markdown(), "run: referee rules --markdown > docs/house-rules.md"


def test_rules_command_lists_presets_and_explains_one(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in PRESETS)
    assert "Catch schemes (option caught): pagat, double_to_beaters, " in out
    assert main(["rules", "washington"]) == 0
    out = capsys.readouterr().out
    for name in OPTION_NAMES:
        assert f"{name} = " in out
    assert '*caught_pays = "2n"' in out
    assert 'values: "pagat", "double_to_beaters", "low_collects_double"' in out
    for scheme in CATCH_SCHEMES.values():
        assert f"{scheme.name:<20} {scheme.said()}" in out
    assert main(["rules", "nowhere"]) == 2
