"""Sizes and the named defaults of printing: card and paper sizes, bleed, safe zone, resolution.

Everything in millimetres unless named otherwise; one place for every default a command, the
loader or a renderer falls back on."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Union

# A card size preset's name, or its {width_mm, height_mm}.
CardSize = Union[str, Mapping[str, float]]

MM = 72 / 25.4  # points per millimetre


CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63, 88),
    "bridge": (57, 89),
    "tarot": (70, 120),
    "mini": (44, 63),
    "square": (89, 89),  # 3.5 x 3.5 in
    "jumbo": (89, 140),  # 3.5 x 5.5 in
}


DEFAULT_CARD_SIZE = "poker"


CARD_SIDE_MM = (20.0, 300.0)  # the range of a custom card's width and height


PAPERS_MM: dict[str, tuple[float, float]] = {
    "a4": (210, 297),
    "letter": (215.9, 279.4),
}


DEFAULT_PAPER = "a4"
DEFAULT_BLEED_MM = 3.0


SAFE_ZONE_MM = 3.0


# How the backs are printed: double-sided flipping on the long or the short edge, or single-sided
# with the backs beside the faces, folded along the middle of the sheet.
PRINT_MODES = ("long-edge", "short-edge", "gutterfold")


# The space between cards: dense (gaps of twice the bleed where they cost no card, else narrower,
# down to 1 mm of bleed on each side), a gutter of twice the bleed everywhere (every card has its
# bleed on every side), or none (neighbours share one cut line and have no bleed there).
SPACINGS = ("dense", "gutter", "shared-cuts")
DEFAULT_SPACING = "dense"


# The color of the card sheets: sRGB for home printers and screens, or CMYK in the shipped output
# profile as PDF/X-1a for print shops.
COLOR_MODES = ("rgb", "cmyk")
MAX_PLAYERS = 100  # the most players a setup (or a command's --players) names
DPI_RANGE = (50, 1200)  # an export target's resolution (export-targets.yaml, `cardgen export --dpi`)


def card_size_mm(spec: CardSize | None) -> tuple[float, float]:
    """A card size preset name, 'WxH' in mm, or a {width_mm, height_mm} mapping."""
    if isinstance(spec, Mapping):
        try:
            return _positive_size(float(spec["width_mm"]), float(spec["height_mm"]))
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"card size {dict(spec)} needs numbers width_mm and height_mm") from None
    text = str(spec or DEFAULT_CARD_SIZE).strip().lower()
    if text in CARD_SIZES_MM:
        return CARD_SIZES_MM[text]
    width, sep, height = text.partition("x")
    try:
        width_mm, height_mm = float(width), float(height)
    except ValueError:
        presets = ", ".join(CARD_SIZES_MM)
        raise ValueError(f"unknown card size '{spec}' (use {presets} or WxH in mm, e.g. 63x88)") from None
    return _positive_size(width_mm, height_mm)


def _positive_size(width: float, height: float) -> tuple[float, float]:
    low, high = CARD_SIDE_MM
    if not (low <= width <= high and low <= height <= high):
        raise ValueError(f"card size {width:g}x{height:g} mm is out of range ({low:g} to {high:g} mm)")
    return width, height


def paper_size_mm(name: str) -> tuple[float, float]:
    try:
        return PAPERS_MM[name.lower()]
    except KeyError:
        raise ValueError(f"unknown paper '{name}' (use {', '.join(PAPERS_MM)})") from None
