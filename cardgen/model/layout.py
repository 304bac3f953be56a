"""The card design as typed sections: art/card-layout.yaml with a game's layout.yaml merged over
it, checked by load. Lengths are millimetres of the design's own size (`design`), which the
card sheets scale to the card size; font sizes are points; colors "#rrggbb" (or `auto` on the
back: derived from the game's palette)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.model.faces import Faces
from cardgen.model.where import Where


@dataclass(frozen=True)
class DesignSize:
    width: float
    height: float
    corner: float = 3.0  # the radius of the card's cut corners (a cutting machine's outline), mm


@dataclass(frozen=True)
class FontFiles:
    """The TrueType file of each font role (names under fonts/)."""

    title: str
    text: str
    bold: str
    italic: str
    bold_italic: str
    heavy: str


@dataclass(frozen=True)
class Frame:
    panel: str  # the light panel inside the frame
    inset: float  # frame width inside the trim line
    radius: float  # panel corner radius
    header: float  # the colored header band (from the top edge)


@dataclass(frozen=True)
class Spot:
    """A point on the card (top-left origin)."""

    x: float
    y: float


@dataclass(frozen=True)
class SymbolBadge(Spot):
    radius: float
    size: float
    badge: str


@dataclass(frozen=True)
class Star(Spot):
    size: float
    fill: str
    outline: str


@dataclass(frozen=True)
class NumberBadge(Spot):
    radius: float
    font: str
    size: float
    badge: str


@dataclass(frozen=True)
class Region(Spot):
    """A box on the card: its top-left corner, width and height."""

    width: float
    height: float


@dataclass(frozen=True)
class TextBox(Region):
    """A box a text is set in: the largest size that fits, never below min_size."""

    font: str  # a font role
    size: float
    min_size: float
    leading: float


@dataclass(frozen=True)
class NameBox(TextBox):
    one_line_min: float  # below this size the name may take two lines
    shadow: float  # drop shadow offset in points (0: none)


@dataclass(frozen=True)
class FlavorBox(TextBox):
    color: str


@dataclass(frozen=True)
class EffectBox(TextBox):
    padding: float
    radius: float
    border: float  # points
    fill: str
    color: str


@dataclass(frozen=True)
class ArtBox(Region):
    radius: float
    border: float  # points


@dataclass(frozen=True)
class Tags:
    """The NOW! / Static pills, centred on the art's bottom edge."""

    y: float
    height: float
    gap: float
    font: str
    size: float
    fill: str
    color: str


@dataclass(frozen=True)
class BackDesign:
    background: str
    pattern: str
    pattern_size: float
    pattern_step: float
    border: str
    inset: float
    radius: float
    title_font: str
    title_size: float
    title_color: str
    medallion: str
    emblem: str  # a symbol name ("": the first color's symbol)
    emblem_radius: float
    emblem_distance: float


@dataclass(frozen=True)
class Layout:
    """The card design, and the font file of each font role."""

    design: DesignSize
    font_files: FontFiles
    frame: Frame
    symbol: SymbolBadge
    star: Star
    number: NumberBadge
    name: NameBox
    flavor: FlavorBox
    art: ArtBox
    tags: Tags
    text: EffectBox
    back: BackDesign
    fonts: Mapping[str, Path] = field(default_factory=dict)
    places: Mapping[str, Where] = field(default_factory=dict)  # "section" and "section.key" the game's file sets
    faces: Faces = field(default_factory=Faces)  # the card faces (the shipped default, drawn from these sections)

    def place(self, section: str, keys: tuple[str, ...] = ()) -> Where | None:
        """Where the game's layout.yaml sets the first of these keys of a section, or the
        section; None when it sets neither (the shipped design's value)."""
        return next((self.places[f"{section}.{key}"] for key in keys if f"{section}.{key}" in self.places),
                    self.places.get(section))
