"""safezone (check stage): what every card must show (its name, number, symbol, star, flavor and
effect text) stays inside the safe zone, SAFE_ZONE_MM inside the trim line, where no cut that
is slightly off can reach it. The boxes are the layout's at the game's card size, as the card
painter scales them."""
from __future__ import annotations

from collections.abc import Iterator

from cardgen.layout.sheet import Rect
from cardgen.layout.textfit import Scale
from cardgen.model.game import ERROR, WARNING, Finding, Game
from cardgen.model.layout import Layout
from cardgen.model.sizes import MM, SAFE_ZONE_MM, card_size_mm
from cardgen.model.where import Where

SHIPPED_LAYOUT = "art/card-layout.yaml"
# the keys that place each element, in the order a finding names them
PLACING = ("x", "y", "width", "height", "radius", "size", "padding")


def check_safe_zone(game: Game) -> list[Finding]:
    """A finding for each element that reaches into the safe zone (a warning) or past the trim
    line (an error: part of it is cut off every card)."""
    width, height = card_size_mm(game.card_size)
    scale = Scale.of(game.design, width * MM, height * MM)
    findings = []
    for section, label, box in _elements(game.design, scale):
        margins = {"left": box.x, "bottom": box.y, "right": scale.card_w - box.right, "top": scale.card_h - box.top}
        edge, margin = min(margins.items(), key=lambda item: item[1])
        if margin >= SAFE_ZONE_MM * MM - 0.01 * MM:
            continue
        level, reach = (ERROR, f"{-margin / MM:.1f} mm past the {edge} edge: it is cut off") if margin < 0 else \
            (WARNING, f"{margin / MM:.1f} mm from the {edge} edge, inside the {SAFE_ZONE_MM:g} mm safe zone "
                      "a cut slightly off the line can reach")
        findings.append(Finding(level, "outside-safe-zone", f"layout {section}: every card's {label} reaches {reach}",
                                _where(game, section),
                                f"move it or make it smaller in layout.yaml ({section}: {{x: …, y: …}}), so that "
                                f"it keeps {SAFE_ZONE_MM:g} mm from every edge of a {width:g}x{height:g} mm card"))
    return findings


def _elements(design: Layout, scale: Scale) -> Iterator[tuple[str, str, Rect]]:
    """(section, what it shows, its box on the card in points) for every element to keep safe."""
    yield "name", "name", scale.box(design.name)
    yield "flavor", "flavor line", scale.box(design.flavor)
    yield "text", "effect text", scale.box(design.text).inset(scale.length(design.text.padding))
    for section, label, spot, half in (("symbol", "symbol", design.symbol, design.symbol.size / 2),
                                       ("number", "number badge", design.number, design.number.radius),
                                       ("star", "star", design.star, design.star.size / 2)):
        x, y = scale.point(spot)
        r = scale.length(half)
        yield section, label, Rect(x - r, y - r, 2 * r, 2 * r)


def _where(game: Game, section: str) -> Where:
    """The game's layout.yaml line that places the section, else the shipped design's file."""
    return game.design.place(section, PLACING) or Where(SHIPPED_LAYOUT)
