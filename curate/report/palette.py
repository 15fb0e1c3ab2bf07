"""One colour and one marker per score column (model · method), for every view of the columns.

The explorer's charts (``explore.js`` reads each column's style from its data) and
``report.html``'s figures draw a column with the same colour and marker, so a reader who learnt
a column's look in one view finds it in the other, and identity never rests on colour alone.
Up to 10 columns take the Tableau 10 colours; more take hues a golden angle apart in three
lightnesses (44 columns: 44 distinct colours). The marker cycles through 10 shapes, drawn
with a Unicode glyph beside a label in text. Two versions of one column differ by the marker's
fill (the first, "before", open) or position, never by colour.
"""

from __future__ import annotations

import math

PALETTE: tuple[str, ...] = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
)  # fmt: skip
#: Plotly marker symbols and the glyph that draws each in text (a legend beside a label).
SYMBOLS: tuple[str, ...] = (
    "circle", "square", "diamond", "triangle-up", "triangle-down",
    "pentagon", "hexagon", "star", "cross", "x",
)  # fmt: skip
GLYPHS: tuple[str, ...] = ("●", "■", "◆", "▲", "▼", "⬟", "⬢", "★", "✚", "✖")
#: The lightness of every third hue, so that neighbouring hues also differ in lightness.
_LIGHTNESS = (0.42, 0.3, 0.55)
_GOLDEN_ANGLE = 137.508


def _hsl_hex(hue: float, saturation: float, lightness: float) -> str:
    """``#rrggbb`` of an HSL colour (the CSS conversion; halves round up, as JavaScript's)."""
    a = saturation * min(lightness, 1 - lightness)

    def channel(n: int) -> str:
        k = (n + hue / 30) % 12
        value = lightness - a * max(-1, min(k - 3, 9 - k, 1))
        return f"{math.floor(255 * value + 0.5):02x}"

    return f"#{channel(0)}{channel(8)}{channel(4)}"


def column_colour(index: int, count: int) -> str:
    """The colour of column ``index`` of ``count``."""
    if count <= len(PALETTE):
        return PALETTE[index]
    return _hsl_hex((index * _GOLDEN_ANGLE) % 360, 0.68, _LIGHTNESS[index % len(_LIGHTNESS)])


def column_symbol(index: int, *, hollow: bool = False) -> str:
    """The plotly marker of column ``index``; ``hollow`` for the first of two versions."""
    return SYMBOLS[index % len(SYMBOLS)] + ("-open" if hollow else "")


def column_glyph(index: int) -> str:
    """The text glyph of column ``index``'s marker."""
    return GLYPHS[index % len(GLYPHS)]


def column_styles(count: int) -> list[dict[str, str]]:
    """Every column's colour, marker and glyph, as the explorer's data carries them."""
    return [
        {"color": column_colour(i, count), "symbol": column_symbol(i), "glyph": column_glyph(i)}
        for i in range(count)
    ]
