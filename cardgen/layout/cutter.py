"""layout/cutter: print-then-cut on a cutting machine. The registration marks its software prints
and its optical sensor looks for, the areas kept clear around them, and the outline of every card
to cut, all in the sheet's coordinates (PDF points, origin at the bottom left).

Silhouette Studio's marks, type 1 (Cameo and Portrait), at the settings it starts with, as the
open tools draw them (inkscape-silhouette's registration-mark template): a 5 mm square at the top
left, filled and outlined with a 0.5 mm line, and an L of two 20 mm arms at the top right and the
bottom left, stroked 0.5 mm wide (square caps) along lines 10 mm in from the page's edges (the
least inset Studio allows). Nothing prints outside those lines or in the 20 x 20 mm square inside
each mark's corner. In Studio: Page Setup with the same paper and orientation, Registration Marks
on, Style Type 1, length 20 mm, thickness 0.5 mm, inset 10 mm; then open the cut file on that page."""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.layout.sheet import Rect, Room, Sheet, fit_sheet
from cardgen.model.sizes import MM

XY = tuple[float, float]


@dataclass(frozen=True)
class Machine:
    """A cutting machine's registration marks (millimetres)."""

    name: str
    inset: float  # from each page edge to the line of the marks
    square: float  # the square at the top left
    length: float  # each arm of the corner marks
    thickness: float  # the line the marks are stroked with
    keep: float  # the side of the square inside each mark's corner where nothing prints


MACHINES = {
    "silhouette": Machine("Silhouette Studio, registration marks type 1 (length 20 mm, thickness 0.5 mm, inset 10 mm)",
                          inset=10.0, square=5.0, length=20.0, thickness=0.5, keep=20.0),
}


def machine(name: str) -> Machine:
    if name not in MACHINES:
        raise ValueError(f"unknown cutting machine '{name}' (use {', '.join(MACHINES)})")
    return MACHINES[name]


@dataclass(frozen=True)
class Marks:
    """The marks as drawn: the square (filled and outlined), each L as the three points of its
    stroked line (the corner in the middle), and the width of the line."""

    square: Rect
    corners: tuple[tuple[XY, XY, XY], ...]
    line: float


def registration_marks(spec: Machine, page_w: float, page_h: float) -> Marks:
    """The square at the top left; the L at the top right (arms pointing left and down) and at the
    bottom left (pointing right and up), their corners on the lines `inset` in from the edges."""
    inset, square, length = (v * MM for v in (spec.inset, spec.square, spec.length))
    right, top = page_w - inset, page_h - inset
    return Marks(Rect(inset, top - square, square, square),
                 (((right - length, top), (right, top), (right, top - length)),
                  ((inset + length, inset), (inset, inset), (inset, inset + length))), spec.thickness * MM)


def keep_out(spec: Machine, page_w: float, page_h: float) -> list[Rect]:
    """Where nothing may print beside the marks: the `keep` square inside the corner of each mark,
    from the outer edge of its line."""
    side, edge = (spec.keep + spec.thickness) * MM, (spec.inset - spec.thickness / 2) * MM
    return [Rect(edge, page_h - edge - side, side, side), Rect(page_w - edge - side, page_h - edge - side, side, side),
            Rect(edge, edge, side, side)]


def clear_of_marks(sheet: Sheet, spec: Machine) -> bool:
    """No card (with its bleed) prints where a mark keeps clear."""
    zones = keep_out(spec, sheet.page_w, sheet.page_h)
    cells = [sheet.cell(i) for i in range(sheet.per_page)]
    return not any(_overlap(cell, zone) for cell in cells for zone in zones)


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def margin_mm(spec: Machine) -> float:
    """From the page edge to where the cards' bleed may start: inside the marks' lines."""
    return spec.inset + spec.thickness / 2


@dataclass(frozen=True)
class Outline:
    """A card's cut: its trim box with rounded corners."""

    box: Rect
    radius: float


def outlines(sheet: Sheet, corner_mm: float, count: int | None = None) -> list[Outline]:
    """The trim line of each of the first `count` slots (all of them when None), the cards of a
    sheet, as the machine cuts it."""
    radius = min(corner_mm * MM, sheet.slot_w / 2, sheet.slot_h / 2)
    return [Outline(sheet.slot(i), radius) for i in range(sheet.per_page if count is None else count)]


def sheet_counts(cards: int, per_page: int) -> list[int]:
    """The cards on each sheet, filled in order."""
    return [min(per_page, cards - start) for start in range(0, cards, per_page)]


def make_machine_sheet(paper: str, card_size: object, bleed_mm: float, offset_mm: tuple[float, float], mode: str,
                       spacing: str, name: str) -> Sheet:
    """As many cards as fit inside the machine's marks, clear of them, on the paper upright or
    turned (landscape; upright on a tie); each card cut on its own, so never a shared cut. A
    folded (gutterfold) sheet is not cut by a machine."""
    spec = machine(name)
    if mode == "gutterfold":
        raise ValueError(f"--marks {name}: a machine cuts the printed side of a flat sheet; print double-sided "
                         "(--mode long-edge or short-edge) or faces only (--no-backs)")
    if spacing == "shared-cuts":
        raise ValueError(f"--marks {name}: a machine cuts around each card, so neighbours need bleed between them; "
                         "use --layout dense or gutter")
    room = Room(margin_mm(spec) + bleed_mm, lambda sheet: clear_of_marks(sheet, spec), name)
    sheets = []
    for landscape in (False, True):
        try:
            sheets.append(fit_sheet(paper, card_size, bleed_mm, offset_mm, mode, spacing, room, landscape))
        except ValueError:
            if landscape and not sheets:
                raise
    return max(sheets, key=lambda sheet: sheet.per_page)
