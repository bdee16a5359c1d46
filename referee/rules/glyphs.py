"""The characters the papers can print: those the fonts they embed
(``referee/fonts``, DejaVu Sans and its bold) both have a glyph for. One
statement of it for the names' rule (``table.check_printable``: a name the
papers cannot print is refused where it enters) and for the papers (each
character without a glyph printed as its code, never as an empty box).

Read from the fonts' own ``cmap`` tables with the standard library alone
(the rules import nothing else), once, when a name is first checked or a
paper first drawn: a few milliseconds."""

from __future__ import annotations

import functools
import os.path  # not pathlib: a replay's start-up would load it for this alone
import struct

#: The fonts every paper embeds (``reports.common.register_fonts``).
FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
FONT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fonts")


def unprintable(text: str) -> list[str]:
    """The characters of ``text`` the papers cannot print, each once, in
    the order they come (spaces and line ends print as such)."""
    if text.isascii():  # every printable ASCII character has its glyph
        return []
    covered = printable()
    out: list[str] = []
    for char in text:
        if ord(char) not in covered and not char.isspace() and char not in out:
            out.append(char)
    return out


def code(char: str) -> str:
    """How a paper names a character it cannot print: its code point."""
    return f"U+{ord(char):04X}"


@functools.cache
def printable() -> frozenset[int]:
    """The code points both paper fonts have a glyph for."""
    sets = [_cmap(os.path.join(FONT_DIR, name)) for name in FONTS]
    return frozenset.intersection(*sets)


def _cmap(path: str) -> frozenset[int]:
    """The code points a TrueType font maps to a glyph: its Unicode ``cmap``
    subtable of format 12 (the whole of Unicode) if it has one, else of
    format 4 (the Basic Multilingual Plane)."""
    with open(path, "rb") as f:
        data = f.read()
    (tables,) = struct.unpack_from(">H", data, 4)
    cmap = next(offset for tag, offset in
                (struct.unpack_from(">4s4xI", data, 12 + 16 * i) for i in range(tables))
                if tag == b"cmap")
    (count,) = struct.unpack_from(">H", data, cmap + 2)
    subtables = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        subtables[platform, encoding] = cmap + offset
    if (3, 10) in subtables:
        return _format12(data, subtables[3, 10])
    return _format4(data, subtables[3, 1])


def _format12(data: bytes, at: int) -> frozenset[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    out: set[int] = set()
    for i in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
        out.update(range(first + (glyph == 0), last + 1))
    return frozenset(out)


def _format4(data: bytes, at: int) -> frozenset[int]:
    (seg2,) = struct.unpack_from(">H", data, at + 6)
    segs = seg2 // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + seg2)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * seg2)
    range_at = at + 16 + 3 * seg2
    ranges = struct.unpack_from(f">{segs}H", data, range_at)
    out: set[int] = set()
    for i, (first, last) in enumerate(zip(starts, ends, strict=True)):
        for char in range(first, min(last, 0xFFFE) + 1):
            if ranges[i] == 0:
                glyph = (char + deltas[i]) & 0xFFFF
            else:
                (glyph,) = struct.unpack_from(
                    ">H", data, range_at + 2 * i + ranges[i] + 2 * (char - first))
            if glyph:
                out.add(char)
    return frozenset(out)
