"""layout: pure print geometry — card sizes, bleed, sheet grid, crop marks, duplex mirroring.

Everything is in PDF points with the origin at the bottom-left of the page, as ReportLab and
PDF readers see it. Nothing here draws; `render.cards` paints into these rectangles.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

MM = 72 / 25.4  # points per millimetre

CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63, 88),
    "bridge": (57, 89),
    "tarot": (70, 120),
    "mini": (44, 63),
}
CARD_SIDE_MM = (20.0, 300.0)  # the range of a custom card's width and height
PAPERS_MM: dict[str, tuple[float, float]] = {
    "a4": (210, 297),
    "letter": (215.9, 279.4),
}
DEFAULT_BLEED_MM = 3.0
SAFE_ZONE_MM = 3.0
MIN_MARGIN_MM = 4.0  # room kept beyond the outer bleed for crop marks (and the printer's grip)
MIN_GUTTER_MM = 2.0  # a narrower gap between cards is not worth a second cut: cards share the cut line
MARK_GAP_MM = 0.5  # crop marks start this far outside the outer bleed...
MARK_EDGE_MM = 0.5  # ...stop this far inside the paper edge...
MARK_MAX_MM = 5.0  # ...and are at most this long
MAX_OFFSET_MM = 20.0  # a duplex drift beyond this is a misreading, not a printer


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grow(self, left: float, bottom: float, right: float, top: float) -> "Rect":
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def inset(self, d: float) -> "Rect":
        return self.grow(-d, -d, -d, -d)

    def mirrored(self, page_width: float) -> "Rect":
        """The same rectangle seen through the sheet: mirrored about the page's vertical axis."""
        return Rect(page_width - self.right, self.y, self.w, self.h)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


Line = tuple[tuple[float, float], tuple[float, float]]


# --------------------------------------------------------------------------- options


def card_size_mm(spec: Any) -> tuple[float, float]:
    """A card size preset name, 'WxH' in mm, or a {width_mm, height_mm} mapping."""
    if isinstance(spec, Mapping):
        try:
            return _positive_size(float(spec["width_mm"]), float(spec["height_mm"]))
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"card size {dict(spec)} needs numbers width_mm and height_mm") from None
    text = str(spec or "poker").strip().lower()
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


def parse_offset(text: str | None) -> tuple[float, float]:
    """'X,Y' in mm (the backs' shift as seen from the front: right and up are positive)."""
    if not text:
        return 0.0, 0.0
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"offset '{text}' should be X,Y in mm, e.g. 0.5,-1") from None
    if not (abs(x) <= MAX_OFFSET_MM and abs(y) <= MAX_OFFSET_MM):
        raise ValueError(f"offset '{text}' is more than {MAX_OFFSET_MM:g} mm: check the calibration reading")
    return x, y


# --------------------------------------------------------------------------- the sheet


@dataclass(frozen=True)
class Sheet:
    """Cards of one size on one paper size: where each card and each cut goes."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    gutter_x: float  # gap between neighbouring cards' trim lines (0: they share a cut)
    gutter_y: float
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, as seen from the front

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def grid(self) -> Rect:
        """The trim boxes of all slots together, centred on the page."""
        w = self.cols * self.card_w + (self.cols - 1) * self.gutter_x
        h = self.rows * self.card_h + (self.rows - 1) * self.gutter_y
        return Rect((self.page_w - w) / 2, (self.page_h - h) / 2, w, h)

    def slot(self, index: int) -> Rect:
        """Trim box of a slot; slots run in reading order (left to right, top row first)."""
        row, col = divmod(index, self.cols)
        grid = self.grid
        x = grid.x + col * (self.card_w + self.gutter_x)
        y = grid.top - (row + 1) * self.card_h - row * self.gutter_y
        return Rect(x, y, self.card_w, self.card_h)

    def cell(self, index: int) -> Rect:
        """A slot's trim box plus the bleed it may paint: full bleed on the outside of the grid,
        half the gutter between cards (nothing where neighbours share a cut line)."""
        row, col = divmod(index, self.cols)
        inner_x = min(self.bleed, self.gutter_x / 2)
        inner_y = min(self.bleed, self.gutter_y / 2)
        left = self.bleed if col == 0 else inner_x
        right = self.bleed if col == self.cols - 1 else inner_x
        top = self.bleed if row == 0 else inner_y
        bottom = self.bleed if row == self.rows - 1 else inner_y
        return self.slot(index).grow(left, bottom, right, top)

    def back_slot(self, index: int) -> Rect:
        """Where the back of slot `index` goes on the following page: mirrored for a long-edge
        flip, then shifted by the offset (given as seen from the front, so x flips sign)."""
        dx, dy = self.back_offset
        return self.slot(index).mirrored(self.page_w).moved(-dx, dy)

    def back_cell(self, index: int) -> Rect:
        dx, dy = self.back_offset
        return self.cell(index).mirrored(self.page_w).moved(-dx, dy)

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x of every vertical cut and the y of every horizontal cut."""
        xs = sorted({v for i in range(self.cols) for v in (self.slot(i).x, self.slot(i).right)})
        ys = sorted({v for i in range(0, self.per_page, self.cols) for v in (self.slot(i).y, self.slot(i).top)})
        return xs, ys

    def crop_marks(self) -> list[Line]:
        """Short lines on every cut line, in the margin around the grid: they never touch a card."""
        outer = self.grid.grow(self.bleed, self.bleed, self.bleed, self.bleed)
        gap, edge = MARK_GAP_MM * MM, MARK_EDGE_MM * MM
        length_x = min(MARK_MAX_MM * MM, outer.x - gap - edge)
        length_y = min(MARK_MAX_MM * MM, outer.y - gap - edge)
        xs, ys = self.cut_lines()
        marks: list[Line] = []
        for x in xs:
            marks.append(((x, outer.top + gap), (x, outer.top + gap + length_y)))
            marks.append(((x, outer.y - gap), (x, outer.y - gap - length_y)))
        for y in ys:
            marks.append(((outer.x - gap, y), (outer.x - gap - length_x, y)))
            marks.append(((outer.right + gap, y), (outer.right + gap + length_x, y)))
        return marks


def make_sheet(paper: str = "a4", card_size: Any = "poker", bleed_mm: float = DEFAULT_BLEED_MM,
               offset_mm: tuple[float, float] = (0.0, 0.0)) -> Sheet:
    """As many cards as fit with room for crop marks, centred; gutters hold the inner bleed
    where they fit."""
    if not 0 <= bleed_mm <= 10:
        raise ValueError(f"bleed {bleed_mm:g} mm is out of range (0 to 10 mm)")
    if not all(abs(v) <= MAX_OFFSET_MM for v in offset_mm):  # also refuses NaN
        raise ValueError(f"offset {offset_mm[0]:g},{offset_mm[1]:g} mm is more than {MAX_OFFSET_MM:g} mm")
    page_w, page_h = paper_size_mm(paper)
    card_w, card_h = card_size_mm(card_size)
    cols, gutter_x = _fit(page_w, card_w, bleed_mm)
    rows, gutter_y = _fit(page_h, card_h, bleed_mm)
    if not cols or not rows:
        raise ValueError(f"a {card_w:g}x{card_h:g} mm card with {bleed_mm:g} mm bleed does not fit on {paper}")
    return Sheet(page_w * MM, page_h * MM, card_w * MM, card_h * MM, bleed_mm * MM, cols, rows,
                 gutter_x * MM, gutter_y * MM, (offset_mm[0] * MM, offset_mm[1] * MM))


def _fit(paper: float, card: float, bleed: float) -> tuple[int, float]:
    """Cards along one paper edge, and the gutter between them (mm)."""
    room = paper - 2 * bleed - 2 * MIN_MARGIN_MM
    count = int(room // card) if room > 0 else 0
    if count <= 1:
        return count, 0.0
    gutter = min(2 * bleed, (room - count * card) / (count - 1))
    return count, gutter if gutter >= MIN_GUTTER_MM else 0.0


def pages(items: list, per_page: int) -> Iterator[list]:
    for start in range(0, len(items), per_page):
        yield items[start:start + per_page]
