"""layout/sheet: pure print geometry — card sizes, bleed, sheet grid, crop marks, duplex mirroring.

Everything is in PDF points with the origin at the bottom-left of the page, as ReportLab and
PDF readers see it. Nothing here draws; `render.cards` paints into these rectangles.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from cardgen.model.sizes import (
    DEFAULT_BLEED_MM,
    DEFAULT_CARD_SIZE,
    DEFAULT_PAPER,
    DEFAULT_SPACING,
    MM,
    PAPERS_MM,
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
MISCUT_MM = 0.5  # how far off its line a careful cut may land
SAFE_BLEED_MM = 2 * MISCUT_MM  # the least bleed a dense sheet gives a card towards its neighbours
GAP_STEP_MM = 1.0  # the gaps a dense sheet tries between neighbours, from twice the bleed down



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
T = TypeVar("T")


def contain(box: Rect, width: float, height: float) -> Rect:
    """Where an image of width x height goes to fit inside the box, centred (nothing cropped)."""
    zoom = min(box.w / width, box.h / height)
    w, h = width * zoom, height * zoom
    return Rect(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)


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
    card_w: float  # the card as designed (upright), however it lies on the sheet
    card_h: float
    bleed: float
    cols: int
    rows: int
    mode: str = "long-edge"  # one of PRINT_MODES
    gaps: tuple[float, float] | None = None  # between columns' and rows' trim lines; None: twice the bleed
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, as seen from the front
    sideways: bool = False  # the cards lie on their side (top to the left), as more of them fit so
    machine: str = ""  # a cutting machine cuts the sheet along its registration marks: no crop marks, no ruler
    shift: tuple[float, float] = (0.0, 0.0)  # the grid's move from the middle of its area, to make room for the ruler

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def slot_w(self) -> float:
        return self.card_h if self.sideways else self.card_w

    @property
    def slot_h(self) -> float:
        return self.card_w if self.sideways else self.card_h

    @property
    def gutter_x(self) -> float:
        """The gap between neighbouring columns' trim lines: twice the bleed, less on a dense
        sheet, none where they share a cut."""
        return 2 * self.bleed if self.gaps is None else self.gaps[0]

    @property
    def gutter_y(self) -> float:
        return 2 * self.bleed if self.gaps is None else self.gaps[1]

    @property
    def shares_cuts(self) -> bool:
        """Neighbours lie on one cut line: a cut off the line shows a sliver of the neighbour."""
        return self.bleed > 0 and ((self.cols > 1 and self.gutter_x < 1e-6) or (self.rows > 1 and self.gutter_y < 1e-6))

    @property
    def shared_bleed(self) -> float:
        """The least bleed a card has towards a neighbour (the full bleed when it has none)."""
        return min([self.bleed] + [gap / 2 for gap, count in ((self.gutter_x, self.cols), (self.gutter_y, self.rows))
                                   if count > 1])

    @property
    def area(self) -> Rect:
        """The part of the page the faces and their crop marks take: the left half when the
        backs are folded behind them, else the whole page."""
        width = self.page_w / 2 if self.mode == "gutterfold" else self.page_w
        return Rect(0, 0, width, self.page_h)

    @property
    def grid(self) -> Rect:
        """The trim boxes of all slots together, centred in the area."""
        w = self.cols * self.slot_w + (self.cols - 1) * self.gutter_x
        h = self.rows * self.slot_h + (self.rows - 1) * self.gutter_y
        area = self.area
        return Rect(area.x + (area.w - w) / 2 + self.shift[0], area.y + (area.h - h) / 2 + self.shift[1], w, h)

    @property
    def outer(self) -> Rect:
        """The grid with its outer bleed: everything the faces paint."""
        return self.grid.inset(-self.bleed)

    def slot(self, index: int) -> Rect:
        """Trim box of a slot; slots run in reading order (left to right, top row first)."""
        row, col = divmod(index, self.cols)
        grid = self.grid
        x = grid.x + col * (self.slot_w + self.gutter_x)
        y = grid.top - (row + 1) * self.slot_h - row * self.gutter_y
        return Rect(x, y, self.slot_w, self.slot_h)

    def cell(self, index: int, count: int | None = None) -> Rect:
        """A slot's trim box plus the bleed it paints: the full bleed on every side, except
        towards a card in the next slot, where it paints up to the middle of the gap between
        them (nothing where they share a cut). The first `count` slots hold cards (all of them
        when None): towards an empty slot a card keeps its full bleed."""
        row, col = divmod(index, self.cols)
        filled = self.per_page if count is None else count
        b, bx, by = self.bleed, min(self.bleed, self.gutter_x / 2), min(self.bleed, self.gutter_y / 2)

        def towards(neighbour_row: int, neighbour_col: int, shared: float) -> float:
            inside = 0 <= neighbour_row < self.rows and 0 <= neighbour_col < self.cols
            return shared if inside and neighbour_row * self.cols + neighbour_col < filled else b

        return self.slot(index).grow(towards(row, col - 1, bx), towards(row + 1, col, by),
                                     towards(row, col + 1, bx), towards(row - 1, col, by))

    @property
    def face_turn(self) -> int:
        """Degrees the faces are turned on the sheet (anticlockwise)."""
        return 90 if self.sideways else 0

    # -- the backs

    def turn(self, rect: Rect) -> Rect:
        """Where a rectangle of the face side lies on the back side, through the sheet: the
        mode's flip on the short edge, or on the long edge, which mirrors the page about its
        middle just as folding along the middle does."""
        if self.mode == "short-edge":
            return Rect(rect.x, self.page_h - rect.top, rect.w, rect.h)
        return Rect(self.page_w - rect.right, rect.y, rect.w, rect.h)

    @property
    def back_turn(self) -> int:
        """Degrees the backs are turned so that each stands the way its face does once the sheet
        is flipped (or folded): the faces' turn mirrored through the flip. A short-edge flip
        turns upright backs upside down."""
        if self.mode == "short-edge":
            return (180 - self.face_turn) % 360
        return -self.face_turn % 360

    @property
    def backs_beside_faces(self) -> bool:
        return self.mode == "gutterfold"

    def back_slot(self, index: int) -> Rect:
        """Where the back of slot `index` is drawn: the slot shifted by the offset (given as seen
        from the front), then turned through the sheet."""
        return self.turn(self.slot(index).moved(*self.back_offset))

    def back_cell(self, index: int, count: int | None = None) -> Rect:
        return self.turn(self.cell(index, count).moved(*self.back_offset))

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

    def _room(self, side: str) -> float:
        """From the grid's trim line to the printer's blank edge on one side of the area."""
        grid, area, edge = self.grid, self.area, PRINT_EDGE_MM * MM
        return {"left": grid.x - area.x, "right": area.right - grid.right,
                "bottom": grid.y - area.y, "top": area.top - grid.top}[side] - edge

    def marks_span(self, side: str) -> tuple[float, float]:
        """Where the crop marks on one side run, as distances out from the trim line: outside
        the bleed, as long as the room allows (less the ruler's strip on its side) up to
        MARK_MAX_MM; where that leaves less than MARK_MIN_MM (a sheet as full as the paper
        allows), over the outer bleed, which the cut takes away with them."""
        room = self._room(side)
        if side == self.info_side:
            room -= (INFO_MM + INFO_CLEAR_MM) * MM
        start = self.bleed + MARK_GAP_MM * MM
        if room - start < MARK_MIN_MM * MM - 1e-6:
            start = MARK_GAP_MM * MM
        return start, min(start + MARK_MAX_MM * MM, room)

    def marks_over_bleed(self) -> bool:
        return any(self.marks_span(side)[0] < self.bleed for side in ("left", "right", "bottom", "top"))

    def crop_marks(self) -> list[Line]:
        """Short lines on every cut line, outside the trim: they never touch a card."""
        if self.machine:
            return []
        grid = self.grid
        (t0, t1), (b0, b1) = self.marks_span("top"), self.marks_span("bottom")
        (l0, l1), (r0, r1) = self.marks_span("left"), self.marks_span("right")
        xs, ys = self.cut_lines()
        marks: list[Line] = []
        for x in xs:
            marks.append(((x, grid.top + t0), (x, grid.top + t1)))
            marks.append(((x, grid.y - b0), (x, grid.y - b1)))
        for y in ys:
            marks.append(((grid.x - l0, y), (grid.x - l1, y)))
            marks.append(((grid.right + r0, y), (grid.right + r1, y)))
        return marks

    # -- the ruler and print hint

    @property
    def info_side(self) -> str | None:
        """The side of the grid where the scale ruler and print hint go, in a strip along the
        printer's blank edge, clear of the bleed and of crop marks of at least MARK_MIN_MM
        (over the bleed if need be): below the cards if there is room, else beside or above them."""
        if self.machine:
            return None
        need = max(self.bleed, (MARK_GAP_MM + MARK_MIN_MM) * MM) + (INFO_CLEAR_MM + INFO_MM) * MM
        sides = ("bottom", "left", "top") if self.mode == "gutterfold" else ("bottom", "right", "left", "top")
        return next((side for side in sides if self._room(side) >= need - 1e-6), None)

    def info_box(self) -> Rect | None:
        """The ruler's strip: along the whole printable width (or height) of the page."""
        side, edge, thick = self.info_side, PRINT_EDGE_MM * MM, INFO_MM * MM
        if side is None:
            return None
        width, height = self.page_w - 2 * edge, self.page_h - 2 * edge
        return {"bottom": Rect(edge, edge, width, thick), "top": Rect(edge, self.page_h - edge - thick, width, thick),
                "left": Rect(edge, edge, thick, height),
                "right": Rect(self.page_w - edge - thick, edge, thick, height)}.get(side)


@dataclass(frozen=True)
class Room:
    """What a sheet keeps around its cards: the margin from each paper edge to the cards' trim
    (mm), and whether a sheet it made keeps what else must fit (the ruler, a machine's marks)."""

    margin_mm: float
    accept: Callable[[Sheet], bool]
    machine: str = ""


def make_sheet(paper: str = DEFAULT_PAPER, card_size: Any = DEFAULT_CARD_SIZE, bleed_mm: float = DEFAULT_BLEED_MM,
               offset_mm: tuple[float, float] = (0.0, 0.0), mode: str = "long-edge",
               spacing: str = DEFAULT_SPACING) -> Sheet:
    """As many cards as fit, with room for the ruler, centred (in the left half for gutterfold)
    unless moving the grid towards one edge leaves the ruler room at the other. `dense`: upright
    or on their side, with gaps between neighbours of twice the bleed where they cost no card and
    no ruler, else narrower, down to SAFE_BLEED_MM of bleed on each side; `gutter` (twice the
    bleed) and `shared-cuts` (none) use one gap everywhere, upright. Crop marks of MARK_MIN_MM fit outside the
    printer's blank edge (over the bleed, when there is no more room); the bleed may reach it."""
    room = Room(max(MARK_GAP_MM + MARK_MIN_MM + PRINT_EDGE_MM, bleed_mm), lambda sheet: sheet.info_box() is not None)
    return fit_sheet(paper, card_size, bleed_mm, offset_mm, mode, spacing, room)


def unprintable(card_size: Any) -> str | None:
    """Why no paper cardgen prints on holds a card of this size (with the default bleed and crop
    marks, upright or on its side); None when one does."""
    for paper in PAPERS_MM:
        try:
            make_sheet(paper, card_size)
            return None
        except ValueError:
            continue
    width, height = card_size_mm(card_size)
    return (f"a {width:g}x{height:g} mm card with its {DEFAULT_BLEED_MM:g} mm bleed and crop marks fits on no paper "
            f"cardgen prints ({', '.join(PAPERS_MM)})")


def fit_sheet(paper: str, card_size: Any, bleed_mm: float, offset_mm: tuple[float, float], mode: str,
              spacing: str, room: Room, landscape: bool = False) -> Sheet:
    """The fullest sheet the room allows (see make_sheet), on the paper upright or turned."""
    _check_options(bleed_mm, offset_mm, mode, spacing)
    page_w, page_h = paper_size_mm(paper)
    if landscape:
        page_w, page_h = page_h, page_w
    card_w, card_h = card_size_mm(card_size)
    half = mode == "gutterfold"
    candidates = [sheet for sideways in ((False, True) if spacing == "dense" else (False,))
                  if (sheet := _fullest(page_w, page_h, card_w, card_h, bleed_mm, offset_mm, mode, spacing,
                                        sideways, room)) is not None]
    if not candidates:
        where = " in half the sheet (gutterfold)" if half else ""
        keeps = f"{room.margin_mm:g} mm inside the paper" if room.machine else \
            f"its crop marks {PRINT_EDGE_MM:g} mm inside the paper"
        raise ValueError(f"a {card_w:g}x{card_h:g} mm card with {bleed_mm:g} mm bleed does not fit on {paper}{where} "
                         f"with {keeps}")
    return max(candidates, key=lambda sheet: sheet.per_page)  # the first (upright) on a tie


def _check_options(bleed_mm: float, offset_mm: tuple[float, float], mode: str, spacing: str) -> None:
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


def _fullest(page_w: float, page_h: float, card_w: float, card_h: float, bleed_mm: float,
             offset_mm: tuple[float, float], mode: str, spacing: str, sideways: bool, room: Room) -> Sheet | None:
    """The sheet with the most cards lying one way that the room accepts: a row (or column) given
    up only when no gaps and no place of the grid leave room for the ruler (or clear a machine's
    marks)."""
    slot = (card_h, card_w) if sideways else (card_w, card_h)
    length = (page_w / 2 if mode == "gutterfold" else page_w) - 2 * room.margin_mm, page_h - 2 * room.margin_mm
    least = _least_gap(spacing, bleed_mm)
    cols, rows = (_fit(length[axis], slot[axis], least) for axis in (0, 1))
    while cols and rows:
        for gaps in _gap_tries(spacing, bleed_mm, length, slot, (cols, rows)):
            spare = [length[axis] - counts * slot[axis] - (counts - 1) * gaps[axis]
                     for axis, counts in enumerate((cols, rows))]
            for shift in _shifts(spare):
                sheet = Sheet(page_w * MM, page_h * MM, card_w * MM, card_h * MM, bleed_mm * MM, cols, rows, mode,
                              (gaps[0] * MM, gaps[1] * MM), (offset_mm[0] * MM, offset_mm[1] * MM), sideways,
                              room.machine, (shift[0] * MM, shift[1] * MM))
                if room.accept(sheet):
                    return sheet
        if rows > cols:
            rows -= 1
        else:
            cols -= 1
    return None


def _least_gap(spacing: str, bleed_mm: float) -> float:
    """The narrowest gap between neighbours a spacing allows (mm): `dense` keeps SAFE_BLEED_MM
    of bleed on each side of it, so that a cut off the line by MISCUT_MM shows no neighbour."""
    return {"dense": 2 * min(bleed_mm, SAFE_BLEED_MM), "gutter": 2 * bleed_mm, "shared-cuts": 0.0}[spacing]


def _gap_tries(spacing: str, bleed_mm: float, length: tuple[float, float], slot: tuple[float, float],
               counts: tuple[int, int]) -> list[tuple[float, float]]:
    """The gaps between columns and between rows to try, best first (the widest narrowest bleed,
    then the most bleed): `dense` from twice the bleed down to its least gap, GAP_STEP_MM at a
    time, as far as they fit; the other spacings one gap everywhere."""
    least = _least_gap(spacing, bleed_mm)
    if spacing != "dense":
        return [(least, least)]
    steps = [2 * bleed_mm - n * GAP_STEP_MM for n in range(int((2 * bleed_mm - least) / GAP_STEP_MM) + 1)]
    axes = [[gap for gap in [*steps, least] if count * size + (count - 1) * gap <= room + 1e-9]
            if count > 1 else [2 * bleed_mm] for room, size, count in zip(length, slot, counts)]
    tries = {(x, y) for x in axes[0] for y in axes[1]}
    shared = [count > 1 for count in counts]
    return sorted(tries, key=lambda gaps: (min([bleed_mm * 2] + [g for g, s in zip(gaps, shared) if s]),
                                           sum(gaps)), reverse=True)


def _shifts(spare: list[float]) -> list[tuple[float, float]]:
    """Where the grid may go (mm from the middle): the middle, then against the top, the left or
    the right margin, or the bottom, leaving the spare room on the other side for the ruler."""
    x, y = (max(0.0, room) / 2 for room in spare)
    return list(dict.fromkeys([(0.0, 0.0), (0.0, y), (-x, 0.0), (x, 0.0), (0.0, -y)]))


def _fit(length: float, card: float, gap: float) -> int:
    """Cards along a length (mm), with the gaps between them."""
    return max(0, math.floor((length + gap) / (card + gap) + 1e-9))


def edge_order(cards: list[T], edge: Callable[[T], str]) -> list[T]:
    """The cards grouped by the color of their edges, each group where its first card was: on a
    sheet of shared cuts (`--layout shared-cuts`), neighbours then mostly share their edge color,
    and a cut slightly off the line shows fewer slivers of another color."""
    first: dict[str, int] = {}
    for index, card in enumerate(cards):
        first.setdefault(edge(card), index)
    return sorted(cards, key=lambda card: first[edge(card)])


def spacing_note(sheet: Sheet, paper: str, spacing: str) -> str | None:
    """What the spacing costs or risks, for the output summary: the cards a sheet each spacing
    gives, and how much bleed a card has towards its neighbours."""
    if sheet.machine:
        return None
    size = f"{sheet.card_w / MM:g}x{sheet.card_h / MM:g}"
    counts = {other: _count(sheet, paper, other) for other in SPACINGS}
    if spacing == "gutter":
        if counts["dense"] <= sheet.per_page:
            return None
        return (f"note: --layout gutter: {sheet.per_page} {size} mm cards a sheet on {paper}, each with its bleed "
                f"on every side ({counts['dense']} a sheet without --layout gutter)")
    if sheet.shares_cuts:
        return (f"note: --layout shared-cuts: neighbouring cards share one cut line, with no bleed towards each "
                f"other: a cut {MISCUT_MM:g} mm off the line shows a sliver of the neighbour (the default layout: "
                f"{counts['dense']} cards a sheet with bleed between them; --layout gutter: {counts['gutter']})")
    if sheet.shared_bleed < sheet.bleed - 1e-6 and counts["gutter"] < sheet.per_page:
        return (f"note: {sheet.per_page} {size} mm cards a sheet on {paper} with {sheet.shared_bleed / MM:g} mm of "
                f"bleed towards their neighbours (a cut {MISCUT_MM:g} mm off the line shows no neighbour); "
                f"--layout gutter: {counts['gutter']} a sheet, with {sheet.bleed / MM:g} mm everywhere")
    return None


def _count(sheet: Sheet, paper: str, spacing: str) -> int:
    """The cards a sheet of another spacing holds (0: none fits)."""
    size = f"{sheet.card_w / MM:g}x{sheet.card_h / MM:g}"
    try:
        return make_sheet(paper, size, sheet.bleed / MM, mode=sheet.mode, spacing=spacing).per_page
    except ValueError:
        return 0


def pages(items: list[T], per_page: int) -> Iterator[list[T]]:
    for start in range(0, len(items), per_page):
        yield items[start:start + per_page]
