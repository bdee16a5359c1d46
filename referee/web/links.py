"""The addresses other devices open: every QR code and every link a page
offers to another phone is made here, from the public URL when one is set.

A phone cannot open ``127.0.0.1``: behind a proxy, or when the host's own
tablet reaches the service by a name the room does not know, the service is
told its public address (``REFEREE_PUBLIC_URL``, ``referee serve
--public-url``, or the LAN address ``referee serve --lan`` finds), and every
QR code uses it. Without one, the address the request came in by is used."""

from __future__ import annotations

import io

from flask import current_app, url_for

PUBLIC_URL_ENV = "REFEREE_PUBLIC_URL"


def public_base() -> str | None:
    """The configured public URL without its trailing slash (None: not set)."""
    base = current_app.config.get("PUBLIC_URL")
    return base.rstrip("/") if base else None


def external_url(endpoint: str, **values) -> str:
    """The absolute URL of ``endpoint`` that another device can open."""
    base = public_base()
    if base is None:
        return url_for(endpoint, _external=True, **values)
    return base + url_for(endpoint, **values)


def qr_svg(text: str) -> str:
    """``text`` as an inline SVG QR code (a page's <img> data URL is blocked by
    nothing, but an inline SVG scales with the page and needs no request)."""
    import segno

    out = io.BytesIO()
    segno.make_qr(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False,
                                        svgns=True, dark="#000", light="#fff",
                                        omitsize=True)
    return out.getvalue().decode()
