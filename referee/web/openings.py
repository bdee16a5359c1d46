"""Tables opened without a host key: anyone who reaches the service may open
one, so each address's are counted (service/access.opening), ``OPENINGS``
(most, seconds) of the app's settings allowing so many, then 429 with
Retry-After. With a host key, whoever sends it is the service's own host, and
opens as many tables as they mean to (a wrong key is counted already)."""

from __future__ import annotations

from flask import current_app, request

from ..service import access
from .db import get_db


def count_opening() -> None:
    """Count a table about to be opened from this request's address (behind
    trusted proxies, the client's): raises ``TooManyTries`` past the limit."""
    limit = current_app.config.get("OPENINGS")
    if current_app.config.get("REFEREE_HOST_KEY") or not limit:
        return
    most, window = limit
    access.opening(get_db(), request.remote_addr or "?", most=most, window=window)
