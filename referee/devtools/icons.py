"""Draw the web app's home-screen icons (``python -m referee.devtools.icons``).

The PNGs a phone puts on its home screen are shipped in
``referee/web/static`` beside the SVG they are drawn after (a card on the
top bar's blue, a ``T`` on it): run this again only when the drawing
changes.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
FONT = Path(__file__).resolve().parents[1] / "fonts" / "DejaVuSans-Bold.ttf"
BLUE, PAPER, INK = "#102a43", "#ffffff", "#111111"
SIZES = (192, 512)


def draw(size: int) -> Image.Image:
    # Drawn four times larger and scaled down: the edges come out smooth.
    big = size * 4
    image = Image.new("RGB", (big, big), BLUE)
    pen = ImageDraw.Draw(image)
    u = big / 64  # the SVG's unit
    pen.rounded_rectangle((16 * u, 8 * u, 48 * u, 56 * u), radius=4 * u, fill=PAPER)
    font = ImageFont.truetype(str(FONT), int(30 * u))
    pen.text((32 * u, 33 * u), "T", fill=INK, font=font, anchor="mm")
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    for size in SIZES:
        draw(size).save(STATIC / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
