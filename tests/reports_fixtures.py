"""A small hand-made session with accented names, shared by the report tests.

Hand 1: Jürgen drops with 10 and is caught by Zoë and Łukasz (6 each).
Hand 2: Zoë drops with 15, every other count is higher: the drop wins.
In stakes: José -3, Jürgen -7, Zoë +7, Łukasz +3; at 0.25 USD a stake:
José -0.75, Jürgen -1.75, Zoë 1.75, Łukasz 0.75, settled by two payments:
José pays Łukasz 0.75, Jürgen pays Zoë 1.75.
"""

from __future__ import annotations

import copy
import io
import re

PLAYERS = ["José", "Jürgen", "Zoë", "Łukasz"]

HAND_1 = {
    "dealer": "José",
    "deal": {
        "José": ["Kh", "Qs", "9d", "8c", "7s"],
        "Jürgen": ["3c", "3d", "Tc", "8h", "2s"],
        "Zoë": ["4d", "2h", "Jc", "Jh", "9h"],
        "Łukasz": ["5d", "5h", "5c", "Qd", "6h"],
    },
    "upcard": "Js",
    "actions": [
        "Jürgen: draw 3h",
        "Jürgen: spread 3c 3d 3h",
        "Jürgen: discard Tc",
        "Zoë: draw Jd",
        "Zoë: spread Jc Jh Jd",
        "Zoë: discard 9h",
        "Łukasz: draw 5s",
        "Łukasz: spread 5d 5h 5c 5s",
        "Łukasz: discard Qd",
        "José: draw 6c",
        "José: discard Kh",
        "Jürgen: drop",
        "Jürgen: show 8h 2s",
        "Zoë: show 4d 2h",
        "Łukasz: show 6h",
        "José: show Qs 9d 8c 7s 6c",
    ],
}

HAND_2 = {
    "dealer": "Jürgen",
    "deal": {
        "José": ["Kd", "Ks", "Kc", "7c", "9s"],
        "Jürgen": ["9c", "9h", "7h", "Th", "2h"],
        "Zoë": ["Ah", "2d", "3s", "4c", "5c"],
        "Łukasz": ["6d", "6c", "6s", "5h", "Td"],
    },
    "upcard": "Jc",
    "actions": [
        "Zoë: drop",
        "Zoë: show Ah 2d 3s 4c 5c",
        "Łukasz: show 6d 6c 6s 5h Td",
        "José: show Kd Ks Kc 7c 9s",
        "Jürgen: show 9c 9h 7h Th 2h",
    ],
}

LOG = {
    "format": "tonk-log/1",
    "table": "Café Zoë, table 3",
    "started": "2026-11-21T20:00:00Z",
    "currency": "USD",
    "stake": "0.25",
    "rules": "pagat",
    "players": PLAYERS,
    "hands": [HAND_1, HAND_2],
}


def session_log() -> dict:
    return copy.deepcopy(LOG)


def pdf_text(data: bytes) -> str:
    """Every page's text with runs of whitespace made single spaces."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages))


def pdf_reader(data: bytes):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(data))
