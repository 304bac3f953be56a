"""layout: pure print geometry — card sizes, bleed, sheet grid, crop marks, duplex mirroring.

Everything is in PDF points with the origin at the bottom-left of the page, as ReportLab and
PDF readers see it. Nothing here draws; `render.cards` paints into these rectangles.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from cardgen.model.sizes import (
    DEFAULT_BLEED_MM,
    DEFAULT_CARD_SIZE,
    DEFAULT_PAPER,
    MM,
    PRINT_MODES,
    SPACINGS,
    card_size_mm,
    paper_size_mm,
)

PRINT_EDGE_MM = 5.0  # home printers leave the paper's edge blank: nothing is drawn this close to it
MARK_GAP_MM = 0.5  # crop marks start this far outside the bleed...
MARK_MIN_MM = 2.0  # ...are at least this long (else a row or column of cards gives way)...
MARK_MAX_MM = 5.0  # ...and at most this long
MAX_OFFSET_MM = 20.0  # a duplex drift beyond this is a misreading, not a printer
INFO_MM = 4.5  # the strip of the scale ruler and print hint, along the printer's blank edge
INFO_CLEAR_MM = 0.5  # between the strip and the crop marks' tips



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

    def grow(self, left: float, bottom: float, right: float, top: float) -> Rect:
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def inset(self, d: float) -> Rect:
        return self.grow(-d, -d, -d, -d)

    def moved(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


Line = tuple[tuple[float, float], tuple[float, float]]


def cover(box: Rect, width: float, height: float) -> Rect:
    """Where an image of width x height goes to cover the box, centred (what sticks out is
    cropped): the card art as printed."""
    zoom = max(box.w / width, box.h / height)
    w, h = width * zoom, height * zoom
    return Rect(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)


# --------------------------------------------------------------------------- options








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
    """Cards of one size on one paper size: where each card, its back and each cut goes."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    mode: str = "long-edge"  # one of PRINT_MODES
    spacing: str = "gutter"  # one of SPACINGS
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, as seen from the front

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def gutter(self) -> float:
        """The gap between neighbouring cards' trim lines: twice the bleed, or none."""
        return 2 * self.bleed if self.spacing == "gutter" else 0.0

    @property
    def inner_bleed(self) -> float:
        """The bleed a card has towards its neighbours."""
        return self.bleed if self.spacing == "gutter" else 0.0

    @property
    def area(self) -> Rect:
        """The part of the page the faces and their crop marks take: the left half when the
        backs are folded behind them, else the whole page."""
        width = self.page_w / 2 if self.mode == "gutterfold" else self.page_w
        return Rect(0, 0, width, self.page_h)

    @property
    def grid(self) -> Rect:
        """The trim boxes of all slots together, centred in the area."""
        w = self.cols * self.card_w + (self.cols - 1) * self.gutter
        h = self.rows * self.card_h + (self.rows - 1) * self.gutter
        area = self.area
        return Rect(area.x + (area.w - w) / 2, area.y + (area.h - h) / 2, w, h)

    @property
    def outer(self) -> Rect:
        """The grid with its outer bleed: everything the faces paint."""
        return self.grid.inset(-self.bleed)

    def slot(self, index: int) -> Rect:
        """Trim box of a slot; slots run in reading order (left to right, top row first)."""
        row, col = divmod(index, self.cols)
        grid = self.grid
        x = grid.x + col * (self.card_w + self.gutter)
        y = grid.top - (row + 1) * self.card_h - row * self.gutter
        return Rect(x, y, self.card_w, self.card_h)

    def cell(self, index: int) -> Rect:
        """A slot's trim box plus the bleed it paints: the full bleed on every side, except
        towards neighbours it shares a cut line with."""
        row, col = divmod(index, self.cols)
        b, inner = self.bleed, self.inner_bleed
        return self.slot(index).grow(b if col == 0 else inner, b if row == self.rows - 1 else inner,
                                     b if col == self.cols - 1 else inner, b if row == 0 else inner)

    # -- the backs

    def turn(self, rect: Rect) -> Rect:
        """Where a rectangle of the face side lies on the back side, through the sheet: the
        mode's flip on the short edge, or on the long edge, which mirrors the page about its
        middle just as folding along the middle does."""
        if self.mode == "short-edge":
            return Rect(rect.x, self.page_h - rect.top, rect.w, rect.h)
        return Rect(self.page_w - rect.right, rect.y, rect.w, rect.h)

    @property
    def backs_upside_down(self) -> bool:
        """A short-edge flip turns the back side upside down: backs are drawn turned half round so
        each card's back stands the same way up as in the other modes."""
        return self.mode == "short-edge"

    @property
    def backs_beside_faces(self) -> bool:
        return self.mode == "gutterfold"

    def back_slot(self, index: int) -> Rect:
        """Where the back of slot `index` is drawn: the slot shifted by the offset (given as seen
        from the front), then turned through the sheet."""
        return self.turn(self.slot(index).moved(*self.back_offset))

    def back_cell(self, index: int) -> Rect:
        return self.turn(self.cell(index).moved(*self.back_offset))

    @property
    def fold_line(self) -> Line | None:
        """The line to fold along (gutterfold): in the middle of the gap between faces and backs,
        the height of the cards' bleed."""
        if self.mode != "gutterfold":
            return None
        x, outer = self.page_w / 2, self.outer
        return (x, outer.y), (x, outer.top)

    # -- cutting

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x of every vertical cut and the y of every horizontal cut."""
        xs = sorted({v for i in range(self.cols) for v in (self.slot(i).x, self.slot(i).right)})
        ys = sorted({v for i in range(0, self.per_page, self.cols) for v in (self.slot(i).y, self.slot(i).top)})
        return xs, ys

    def _margin(self, side: str) -> float:
        """Room between the outer bleed and the printer's blank edge on one side of the area."""
        outer, area, edge = self.outer, self.area, PRINT_EDGE_MM * MM
        return {"left": outer.x - area.x, "right": area.right - outer.right,
                "bottom": outer.y - area.y, "top": area.top - outer.top}[side] - edge

    def mark_length(self, side: str) -> float:
        """The crop marks' length on one side of the grid: as long as the room outside the bleed
        allows (less the ruler's strip on its side), up to MARK_MAX_MM."""
        room = self._margin(side) - MARK_GAP_MM * MM
        if side == self.info_side:
            room -= (INFO_MM + INFO_CLEAR_MM) * MM
        return min(MARK_MAX_MM * MM, room)

    def crop_marks(self) -> list[Line]:
        """Short lines on every cut line, outside the bleed: they never touch a card."""
        outer, gap = self.outer, MARK_GAP_MM * MM
        top, bottom = self.mark_length("top"), self.mark_length("bottom")
        left, right = self.mark_length("left"), self.mark_length("right")
        xs, ys = self.cut_lines()
        marks: list[Line] = []
        for x in xs:
            marks.append(((x, outer.top + gap), (x, outer.top + gap + top)))
            marks.append(((x, outer.y - gap), (x, outer.y - gap - bottom)))
        for y in ys:
            marks.append(((outer.x - gap, y), (outer.x - gap - left, y)))
            marks.append(((outer.right + gap, y), (outer.right + gap + right, y)))
        return marks

    # -- the ruler and print hint

    @property
    def info_side(self) -> str | None:
        """The side of the grid where the scale ruler and print hint go, in a strip along the
        printer's blank edge, with crop marks of at least MARK_MIN_MM still beside it: below the
        cards if there is room, else beside or above them."""
        need = (MARK_GAP_MM + MARK_MIN_MM + INFO_CLEAR_MM + INFO_MM) * MM
        sides = ("bottom", "left", "top") if self.mode == "gutterfold" else ("bottom", "right", "left", "top")
        return next((side for side in sides if self._margin(side) >= need - 1e-6), None)

    def info_box(self) -> Rect | None:
        """The ruler's strip: along the whole printable width (or height) of the page."""
        side, edge, thick = self.info_side, PRINT_EDGE_MM * MM, INFO_MM * MM
        if side is None:
            return None
        width, height = self.page_w - 2 * edge, self.page_h - 2 * edge
        return {"bottom": Rect(edge, edge, width, thick), "top": Rect(edge, self.page_h - edge - thick, width, thick),
                "left": Rect(edge, edge, thick, height),
                "right": Rect(self.page_w - edge - thick, edge, thick, height)}.get(side)


def make_sheet(paper: str = DEFAULT_PAPER, card_size: Any = DEFAULT_CARD_SIZE, bleed_mm: float = DEFAULT_BLEED_MM,
               offset_mm: tuple[float, float] = (0.0, 0.0), mode: str = "long-edge",
               spacing: str = "gutter") -> Sheet:
    """As many cards as fit with their bleed, crop marks clear of the printer's blank edge, and
    room for the ruler; centred (in the left half for gutterfold)."""
    if not 0 <= bleed_mm <= 10:
        raise ValueError(f"bleed {bleed_mm:g} mm is out of range (0 to 10 mm)")
    if not all(abs(v) <= MAX_OFFSET_MM for v in offset_mm):  # also refuses NaN
        raise ValueError(f"offset {offset_mm[0]:g},{offset_mm[1]:g} mm is more than {MAX_OFFSET_MM:g} mm")
    if mode not in PRINT_MODES:
        raise ValueError(f"unknown print mode '{mode}' (use {', '.join(PRINT_MODES)})")
    if spacing not in SPACINGS:
        raise ValueError(f"unknown layout '{spacing}' (use {', '.join(SPACINGS)})")
    if mode == "gutterfold" and any(offset_mm):
        raise ValueError("--offset is for double-sided printing: a gutterfold sheet is folded, not flipped")
    page_w, page_h = paper_size_mm(paper)
    card_w, card_h = card_size_mm(card_size)
    gutter = 2 * bleed_mm if spacing == "gutter" else 0.0
    cols = _fit(page_w / 2 if mode == "gutterfold" else page_w, card_w, bleed_mm, gutter)
    rows = _fit(page_h, card_h, bleed_mm, gutter)
    while cols and rows:
        sheet = Sheet(page_w * MM, page_h * MM, card_w * MM, card_h * MM, bleed_mm * MM, cols, rows, mode,
                      spacing, (offset_mm[0] * MM, offset_mm[1] * MM))
        if sheet.info_box() is not None:
            return sheet
        # no room for the ruler: give up a row (or a column, when there are no more rows than columns)
        if rows > cols:
            rows -= 1
        else:
            cols -= 1
    where = " in half the sheet (gutterfold)" if mode == "gutterfold" else ""
    raise ValueError(f"a {card_w:g}x{card_h:g} mm card with {bleed_mm:g} mm bleed does not fit on {paper}{where} "
                     f"with its crop marks {PRINT_EDGE_MM:g} mm inside the paper")


def _fit(paper: float, card: float, bleed: float, gutter: float) -> int:
    """Cards along one paper edge (mm): the cards, the gutters between them, the outer bleed and,
    on both sides, room for crop marks outside the printer's blank edge."""
    margin = MARK_GAP_MM + MARK_MIN_MM + PRINT_EDGE_MM
    room = paper - 2 * margin - 2 * bleed
    return max(0, math.floor((room + gutter) / (card + gutter) + 1e-9))


def fewer_cards_note(sheet: Sheet, paper: str) -> str | None:
    """What the bleed costs, when it costs cards: for the output summary."""
    size = f"{sheet.card_w / MM:g}x{sheet.card_h / MM:g}"
    bare = make_sheet(paper, size, 0, mode=sheet.mode).per_page
    if sheet.per_page >= bare:
        return None
    options = [f"{bare} without bleed"]
    if sheet.spacing == "gutter":
        shared = make_sheet(paper, size, sheet.bleed / MM, mode=sheet.mode, spacing="shared-cuts").per_page
        if shared > sheet.per_page:
            options.insert(0, f"{shared} with --layout shared-cuts")
    return (f"note: {sheet.bleed / MM:g} mm bleed on every side leaves room for {sheet.per_page} {size} mm cards "
            f"a sheet on {paper} ({', '.join(options)})")


T = TypeVar("T")


def pages(items: list[T], per_page: int) -> Iterator[list[T]]:
    for start in range(0, len(items), per_page):
        yield items[start:start + per_page]
