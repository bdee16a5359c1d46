"""Where a request says it came from: its ``Host`` header, and behind a
trusted proxy the client's own address.

A Host no URL can be built with (a label over 63 characters, which IDNA
refuses) left Flask without a URL adapter: every page that links anything
answered 500 with an 80-line traceback in the log, no token needed. Such a
request is refused (400) through the app's own error pages instead.

Behind a reverse proxy every request comes from the proxy's address, and
wrong tries at a PIN or the host key are counted per address: five wrong
host keys from a stranger locked out everyone. ``TRUSTED_PROXIES`` (the
environment's ``REFEREE_TRUSTED_PROXIES``, ``referee serve
--trusted-proxies N``) says how many proxies stand in front of the service;
the client's address is then the one the outermost of them saw
(``X-Forwarded-For``, read from the right, N entries: anything further left
was written by the client and is not believed), and the scheme the one it
was asked with (``X-Forwarded-Proto``). Without it (0, the default) those
headers are ignored: a client could write them itself.
"""

from __future__ import annotations

import os

from flask import Flask, request
from werkzeug.exceptions import BadHost
from werkzeug.middleware.proxy_fix import ProxyFix

from ..rules.errors import MalformedInput
from ..rules.numbers import whole
from ..rules.words import N_

TRUSTED_PROXIES_ENV = "REFEREE_TRUSTED_PROXIES"

#: The most proxies in front of the service that can be trusted (a CDN, a
#: load balancer and a local nginx are three).
MOST_PROXIES = 5

# The name an answer to a request with a bad Host builds its links with.
_STAND_IN_HOST = "localhost"


class App(Flask):
    """Flask, answering a bad Host header 400 instead of 500."""

    def create_url_adapter(self, asked):
        try:
            return super().create_url_adapter(asked)
        except BadHost as err:
            if asked is None:
                raise
            # The error page still needs links (its stylesheet): built for a
            # stand-in name, and the request refused before any view runs.
            asked.environ["HTTP_HOST"] = _STAND_IN_HOST
            asked.__dict__.pop("host", None)
            adapter = super().create_url_adapter(asked)
            asked.routing_exception = err
            return adapter

    def preprocess_request(self):
        # Refused before any guard asks for a token or a key: the request
        # names no host, whoever sends it.
        if isinstance(request.routing_exception, BadHost):
            raise request.routing_exception
        return super().preprocess_request()


def trusted_proxies(value: object = None) -> int:
    """How many proxies to trust: ``value`` (a number or its digits), else the
    environment's ``REFEREE_TRUSTED_PROXIES``, else 0. Anything but a whole
    number from 0 to ``MOST_PROXIES`` is refused, saying so."""
    if value is None:
        value = os.environ.get(TRUSTED_PROXIES_ENV) or 0
    hops = value if type(value) is int else whole(value)
    if hops is None or not 0 <= hops <= MOST_PROXIES:
        raise MalformedInput("bad_setting", N_("{name} is how many proxies stand in front of "
                                               "the service, from 0 to {most}, not {value}"),
                             {"name": TRUSTED_PROXIES_ENV, "most": MOST_PROXIES,
                              "value": repr(value)})
    return hops


def trust(app: Flask, hops: int) -> None:
    """Believe ``hops`` proxies' ``X-Forwarded-For`` and ``X-Forwarded-Proto``."""
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
