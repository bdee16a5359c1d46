"""The kinds of event, as the service's modules import them: stated in
``referee.record.kinds`` (the record reads them back from an exported chain,
below the service)."""

from __future__ import annotations

from ..record.kinds import PLAY, TABLE_EVENTS, WHO_IS_WHO, ClubKind, EventKind

__all__ = ["PLAY", "TABLE_EVENTS", "WHO_IS_WHO", "ClubKind", "EventKind"]
