"""The colours of a heatmap's cells and of the numbers written on them: a cell is a blue from
light to dark by its share of the largest count, and its number black or white, whichever
contrasts more with it (WCAG's contrast ratio). Either of black and white reaches at least
4.58:1 on any colour, so every number keeps the 4.5:1 text asks; black numbers on the dark
navy of the busiest cells did not (1.5:1)."""

from __future__ import annotations

LIGHTEST = (0xF7, 0xFB, 0xFF)  # ColorBrewer's Blues, its two ends
DARKEST = (0x08, 0x30, 0x6B)
BLACK, WHITE = "#000000", "#ffffff"
RGB = tuple[int, int, int]


def cell_fill(share: float) -> str:
    """The colour of a cell holding ``share`` (0 to 1) of the largest count: the two ends of
    the scale mixed in that proportion."""
    share = min(max(share, 0.0), 1.0)
    mixed = (round(light + (dark - light) * share) for light, dark in zip(LIGHTEST, DARKEST, strict=True))
    return "#" + "".join(f"{part:02x}" for part in mixed)


def ink_on(fill: str) -> str:
    """The colour of a number written on ``fill`` (#rrggbb): black or white, whichever
    contrasts more with it."""
    return BLACK if contrast(fill, BLACK) >= contrast(fill, WHITE) else WHITE


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two colours (#rrggbb), from 1 to 21."""
    lighter, darker = sorted((luminance(_rgb(first)), luminance(_rgb(second))), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def luminance(rgb: RGB) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def linear(part: int) -> float:
        value = part / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = (linear(part) for part in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _rgb(colour: str) -> RGB:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
