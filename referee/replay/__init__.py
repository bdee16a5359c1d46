"""Replaying a ``tonk-log/1`` session: judging every action and settling it.

``sequential`` replays a log hand after hand, the one way to judge it;
``two_cores`` gives the same ``tonk-result/1`` text for a long log by
replaying it in segments on two cores (see docs/decisions.md, "Replay speed").
"""

from .sequential import (
    Session,
    check_log_end,
    iter_replay,
    open_session,
    own_stake,
    play_on,
    replay,
    replay_document,
    replay_text,
    settle_logged,
    side_bet_outcomes,
    start_hand,
    start_on,
)
from .two_cores import can_split, replay_document_json_text, replay_json_text

__all__ = [
    "Session", "can_split", "check_log_end", "iter_replay", "open_session", "own_stake",
    "play_on", "replay", "replay_document", "replay_document_json_text", "replay_json_text",
    "replay_text", "settle_logged", "side_bet_outcomes", "start_hand", "start_on",
]
