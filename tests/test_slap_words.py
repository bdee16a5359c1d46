"""A slap names the card slapped and the spread it went onto (newcomer45
P11): "✓ Chloé tape sur S1." named no card, though the log's line has none
(the top discard is the referee's to know, as a take's card is)."""

from __future__ import annotations

from html import unescape

import pytest

from tests.test_tablet import act, create, flashes, start

SAID = {"en": "\u2713 Ben slaps K♣ on S1.", "de": "\u2713 Ben schlägt K♣ auf S1.",
        "fr": "\u2713 Ben tape K♣ sur S1.", "pt": "\u2713 Ben dá um tapa e põe K♣ em S1."}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_a_slaps_confirmation_and_history_name_the_card(client, lang):
    sid = create(client, opt_slapping='"on"', language=lang)
    start(client, sid, deal={"Ben": ["Ks", "Kh", "Kd", "4c", "5c"]}, upcard="7d")
    act(client, sid, 1, "draw", ["2c"])
    act(client, sid, 1, "spread", ["Ks", "Kh", "Kd"])
    act(client, sid, 1, "discard", ["2c"])
    act(client, sid, 2, "draw", ["Kc"])
    act(client, sid, 2, "discard", ["Kc"])
    page = act(client, sid, 1, "slap", spread="S1")
    said = [unescape(text).strip() for kind, text in flashes(page) if kind == "ok"]
    assert said == [SAID[lang]], said
    # The hand's history says it as the confirmation did.
    assert SAID[lang][2:-1] in unescape(page)
