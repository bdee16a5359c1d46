"""A hand stored before a sentence was reworded is told in the reader's
language still (``language.retired``): its story keeps the old template."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import language
from referee.language.retired import RETIRED_STORY

ROOT = Path(__file__).resolve().parents[1]
PARAMS = {"winners": "Ann", "losers": "Ben and Cy", "stakes": "2 stakes", "rises": "Ben +14",
          "player": "Ben", "count": 9, "beaters": "Cy has 7", "others": "", "scheme": "pagat"}


def _stored(template: str) -> dict:
    used = set(re.findall(r"{(\w+)}", template))
    return {"story": [template.format(**PARAMS)],
            "story_words": [{"words": template, "params": {k: PARAMS[k] for k in used}}]}


@pytest.mark.parametrize("lang", ["de", "fr", "pt"])
def test_an_older_hand_s_story_is_told_in_the_reader_s_language(lang):
    for template in RETIRED_STORY:
        english = language.story(_stored(template), "en")
        told = language.story(_stored(template), lang)
        assert told != english, (lang, template)
        assert "{" not in told[0]
        for name in re.findall(r"{(\w+)}", template):
            assert str(PARAMS[name]) in told[0], (lang, name, told[0])


def test_the_retired_sentences_are_said_by_no_current_code():
    # A sentence in use belongs where it is said, not in the retired list.
    said = "".join(p.read_text() for p in (ROOT / "referee").rglob("*.py")
                   if p.name != "retired.py")
    said += "".join(p.read_text() for p in (ROOT / "templates").rglob("*.html"))
    said = re.sub(r'"\s+"', "", said)  # a sentence written over several literals
    for template in RETIRED_STORY:
        assert f'"{template}"' not in said, template
    assert '"Push-ups, nothing is paid: {winners} scores 0 with a double win ' in said
