"""layout/colors: the inks a card is drawn with, derived from the game's palette: text that
reads on its band (WCAG contrast), symbols that show on their badge, the name's color, the
default back's design. Below check, which warns of a symbol its ink would hide."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import lru_cache

from cardgen.model.game import AUTO, Back, Card, Color, Game
from cardgen.model.layout import BackDesign

# The color functions are pure functions of "#rrggbb" strings, asked the same few questions for
# every card a sheet draws: the answers are kept (a game's palette and the shades derived from it
# are a few hundred colors; `serve` sees many games, hence a bound).
COLORS_KEPT = 4096


@lru_cache(maxsize=COLORS_KEPT)
def _rgb(hex_color: str) -> tuple[float, float, float]:
    value = hex_color.lstrip("#")
    red, green, blue = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return red, green, blue


@lru_cache(maxsize=COLORS_KEPT)
def luminance(hex_color: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(hex_color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@lru_cache(maxsize=COLORS_KEPT)
def mix(hex_color: str, other: str, amount: float) -> str:
    a, b = _rgb(hex_color), _rgb(other)
    return "#" + "".join(f"{round(255 * (x + (y - x) * amount)):02x}" for x, y in zip(a, b))


@lru_cache(maxsize=COLORS_KEPT)
def ink_of(hex_color: str) -> str:
    """The color made dark enough to read on white (symbols, borders on the panel)."""
    ink = hex_color
    while luminance(ink) > 0.22:
        ink = mix(ink, "#000000", 0.15)
    return ink


MIN_CONTRAST = 4.5  # WCAG AA for text: card names against their band
SEEN_CONTRAST = 1.5  # below it a shape on a background is all but invisible
PAPER = "#ffffff"


def symbol_ink(color: Color) -> str:
    """The ink of a color's symbol in its badge (and of the ring around the badge)."""
    return ink_of(color.hex)


DARK_TEXT = "#1b1b1f"


def text_on(color: Color) -> str:
    """Text color on the color's band: the data's choice, else white where it reads (WCAG
    4.5:1), else the dark text; made readable either way."""
    if color.text_hex:
        return readable(color.text_hex, color.hex)
    return "#ffffff" if contrast("#ffffff", color.hex) >= MIN_CONTRAST else readable(DARK_TEXT, color.hex)


@lru_cache(maxsize=COLORS_KEPT)
def readable(text_hex: str, background_hex: str) -> str:
    """The text color, darkened or lightened (whichever reaches it first, keeping the hue as
    long as possible) until it has MIN_CONTRAST against the background."""
    if contrast(text_hex, background_hex) >= MIN_CONTRAST:
        return text_hex
    for step in range(1, 21):
        for target in ("#000000", "#ffffff"):
            candidate = mix(text_hex, target, step / 20)
            if contrast(candidate, background_hex) >= MIN_CONTRAST:
                return candidate
    return "#000000" if contrast("#000000", background_hex) >= contrast("#ffffff", background_hex) else "#ffffff"


MAX_DARKENING = 0.5  # how far towards black a color may go for text on paper and still look like itself


def darkened_for_paper(hex_color: str) -> str | None:
    """The color as text on white paper (the documents' titles): darkened in small steps until
    it has MIN_CONTRAST; None when that takes more than MAX_DARKENING (check warns of it)."""
    for step in range(round(MAX_DARKENING * 20) + 1):
        candidate = mix(hex_color, "#000000", step / 20)
        if contrast(candidate, PAPER) >= MIN_CONTRAST:
            return candidate
    return None


def title_on_paper(game: Game, card: Card) -> str | None:
    """The color the documents print a card's name in on white: its title color made readable,
    the dark text where it cannot be; None for a card without a title color (the text's own)."""
    title = game.title_hex(card)
    return (darkened_for_paper(title) or DARK_TEXT) if title else None


def name_color(game: Game, card: Card) -> str:
    """The color of a card's name on its band: the kind's or color's title color, else the
    color's text color, at least MIN_CONTRAST against the band."""
    color = game.color(card.color)
    return readable(game.title_hex(card) or text_on(color), color.hex)


BACK_DARK = "#15171c"  # the neutral a derived back's background is mostly made of


def back_design(game: Game, back: Back | None) -> BackDesign:
    """The layout's back with a back's own colors and emblem over it, every color still `auto`
    derived from the game's palette: a deep shade of its first color for the background, the
    symbols a little lighter, the first color lightened until it reads there for the border and
    emblems, a darker medallion and a title that reads on it."""
    spec = game.design.back
    if back:
        spec = dataclasses.replace(spec, **{key: value for key in ("background", "pattern", "border", "emblem")
                                            if (value := getattr(back, key))})
    first = game.colors[0].hex
    background = first_set(spec.background, lambda: mix(first, BACK_DARK, 0.8))
    away = "#ffffff" if luminance(background) < 0.18 else "#000000"  # from the background, towards contrast
    medallion = first_set(spec.medallion, lambda: mix(background, "#000000", 0.3))
    return dataclasses.replace(
        spec, background=background,
        pattern=first_set(spec.pattern, lambda: mix(background, away, 0.08)),
        border=first_set(spec.border, lambda: readable(mix(first, away, 0.45), background)),
        medallion=medallion,
        title_color=first_set(spec.title_color, lambda: readable(away, medallion)))


def first_set(value: str, derived: Callable[[], str]) -> str:
    return derived() if value == AUTO else value


@lru_cache(maxsize=COLORS_KEPT)
def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colors (1 to 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
