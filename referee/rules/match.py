"""A match to a score (``match_to``, push-ups only): when it is over and who won.

The session is a match that ends after the hand in which some player's
score reaches ``to`` or more; the lowest score wins it, and players tied for
lowest share the win. The table refuses a hand after it (``match_over``);
the result says where the match stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal


def is_over(to: int, scores: Mapping[str, Decimal]) -> bool:
    """Some player's score has reached ``to``."""
    return any(score >= to for score in scores.values())


def winners(scores: Mapping[str, Decimal]) -> list[str]:
    """The players with the lowest score, in the order ``scores`` lists them."""
    if not scores:
        return []
    low = min(scores.values())
    return [q for q, score in scores.items() if score == low]
