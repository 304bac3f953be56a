"""layout/cutter: print-then-cut on a cutting machine. The registration marks its software prints
and its optical sensor looks for, the white kept around them, and the outline of every card to
cut, all in the sheet's coordinates (PDF points, origin at the bottom left).

Silhouette Studio's marks, type 1 (Cameo and Portrait), at the settings it starts with: a filled
5 mm square at the top left and an L of two 20 mm arms, 0.5 mm thick, at the top right and the
bottom left, each 10 mm in from the page's edges (the least inset Studio allows). In Studio:
Page Setup with the same paper, Registration Marks on, Style Type 1, length 20 mm, thickness
0.5 mm, inset 10 mm; then open the cut file on that page."""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.layout.sheet import Rect, Room, Sheet, fit_sheet
from cardgen.model.sizes import MM


@dataclass(frozen=True)
class Machine:
    """A cutting machine's registration marks (millimetres)."""

    name: str
    inset: float  # from each page edge to the marks' outer edges
    square: float  # the filled square at the top left
    length: float  # each arm of the corner marks
    thickness: float
    clear: float  # white kept around every mark and between the marks' frame and the cards


MACHINES = {
    "silhouette": Machine("Silhouette Studio, registration marks type 1 (length 20 mm, thickness 0.5 mm, inset 10 mm)",
                          inset=10.0, square=5.0, length=20.0, thickness=0.5, clear=3.0),
}


def machine(name: str) -> Machine:
    if name not in MACHINES:
        raise ValueError(f"unknown cutting machine '{name}' (use {', '.join(MACHINES)})")
    return MACHINES[name]


def registration_marks(spec: Machine, page_w: float, page_h: float) -> list[Rect]:
    """The marks as filled rectangles: the square at the top left, the two arms of the L at the
    top right (pointing left and down) and at the bottom left (pointing right and up)."""
    inset, square, length, thick = (v * MM for v in (spec.inset, spec.square, spec.length, spec.thickness))
    right, top = page_w - inset, page_h - inset
    return [Rect(inset, top - square, square, square),
            Rect(right - length, top - thick, length, thick), Rect(right - thick, top - length, thick, length),
            Rect(inset, inset, length, thick), Rect(inset, inset, thick, length)]


def keep_out(spec: Machine, page_w: float, page_h: float) -> list[Rect]:
    """Where nothing may print: each mark with the white its sensor needs around it."""
    clear = spec.clear * MM
    return [mark.inset(-clear) for mark in registration_marks(spec, page_w, page_h)]


def clear_of_marks(sheet: Sheet, spec: Machine) -> bool:
    """No card (with its bleed) prints where a mark or the white around it is."""
    zones = keep_out(spec, sheet.page_w, sheet.page_h)
    cells = [sheet.cell(i) for i in range(sheet.per_page)]
    return not any(_overlap(cell, zone) for cell in cells for zone in zones)


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def margin_mm(spec: Machine) -> float:
    """From the page edge to the outer edge of the cards' bleed: inside the marks' frame."""
    return spec.inset + spec.thickness + spec.clear


@dataclass(frozen=True)
class Outline:
    """A card's cut: its trim box with rounded corners."""

    box: Rect
    radius: float


def outlines(sheet: Sheet, corner_mm: float) -> list[Outline]:
    """Every slot's trim line as the machine cuts it."""
    radius = min(corner_mm * MM, sheet.slot_w / 2, sheet.slot_h / 2)
    return [Outline(sheet.slot(i), radius) for i in range(sheet.per_page)]


def make_machine_sheet(paper: str, card_size: object, bleed_mm: float, offset_mm: tuple[float, float], mode: str,
                       spacing: str, name: str) -> Sheet:
    """As many cards as fit inside the machine's marks, clear of them and of the white around
    them; a folded (gutterfold) sheet is not cut by a machine."""
    spec = machine(name)
    if mode == "gutterfold":
        raise ValueError(f"--marks {name}: a machine cuts the printed side of a flat sheet; print double-sided "
                         "(--mode long-edge or short-edge) or faces only (--no-backs)")
    room = Room(margin_mm(spec) + bleed_mm, lambda sheet: clear_of_marks(sheet, spec), name)
    return fit_sheet(paper, card_size, bleed_mm, offset_mm, mode, spacing, room)
