"""render/cards/cutfiles: the cut file of a print-then-cut sheet: every card's outline (its trim
line with rounded corners) in the sheet's own coordinates, so that the machine, aligned on the
printed registration marks, cuts on the printed trim lines. SVG (millimetres, y down, the page's
size: Silhouette Studio opens it on its page) and DXF R12 (millimetres, y up, lines and arcs)."""
from __future__ import annotations

from pathlib import Path

from cardgen.layout.cutter import Outline
from cardgen.layout.sheet import Sheet
from cardgen.model.sizes import MM
from cardgen.render.write import atomic_write


def write_cut_files(pdf_path: Path, sheet: Sheet, outlines: list[Outline]) -> list[Path]:
    """<sheet>.cut.svg and <sheet>.cut.dxf beside the sheet's PDF."""
    stem = pdf_path.with_suffix("")
    return [atomic_write(Path(f"{stem}.cut.svg"), cut_svg(sheet, outlines)),
            atomic_write(Path(f"{stem}.cut.dxf"), cut_dxf(outlines))]


def _mm(value: float) -> str:
    return f"{value / MM:.3f}".rstrip("0").rstrip(".")


def cut_svg(sheet: Sheet, outlines: list[Outline]) -> bytes:
    width, height = _mm(sheet.page_w), _mm(sheet.page_h)
    shapes = [f'  <rect x="{_mm(o.box.x)}" y="{_mm(sheet.page_h - o.box.top)}" width="{_mm(o.box.w)}" '
              f'height="{_mm(o.box.h)}" rx="{_mm(o.radius)}" ry="{_mm(o.radius)}"/>' for o in outlines]
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" viewBox="0 0 {width} {height}">',
        '<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">',
        *shapes, "</g>", "</svg>", ""]).encode("utf-8")


def cut_dxf(outlines: list[Outline]) -> bytes:
    entities: list[str] = []
    for outline in outlines:
        entities += _rounded_box(outline)
    return "\n".join(["0", "SECTION", "2", "HEADER", "9", "$INSUNITS", "70", "4", "0", "ENDSEC",
                      "0", "SECTION", "2", "ENTITIES", *entities, "0", "ENDSEC", "0", "EOF", ""]).encode("ascii")


def _rounded_box(outline: Outline) -> list[str]:
    """Four lines and four quarter arcs (DXF: millimetres, anticlockwise from the start angle)."""
    box, r = outline.box, outline.radius
    x0, y0, x1, y1 = box.x, box.y, box.right, box.top
    lines = [((x0 + r, y0), (x1 - r, y0)), ((x1, y0 + r), (x1, y1 - r)),
             ((x1 - r, y1), (x0 + r, y1)), ((x0, y1 - r), (x0, y0 + r))]
    out: list[str] = []
    for (ax, ay), (bx, by) in lines:
        out += ["0", "LINE", "8", "CUT", "10", _mm(ax), "20", _mm(ay), "11", _mm(bx), "21", _mm(by)]
    if r <= 0:
        return out
    for (cx, cy), start in (((x1 - r, y0 + r), 270), ((x1 - r, y1 - r), 0), ((x0 + r, y1 - r), 90),
                            ((x0 + r, y0 + r), 180)):
        out += ["0", "ARC", "8", "CUT", "10", _mm(cx), "20", _mm(cy), "40", _mm(r), "50", str(start),
                "51", str((start + 90) % 360)]
    return out


