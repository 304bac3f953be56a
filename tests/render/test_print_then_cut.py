"""Print-then-cut: `cards --marks silhouette` prints Silhouette Studio's registration marks where
Studio looks for them (type 1 at its starting settings: a 5 mm square at the top left, L marks of
20 mm arms 0.5 mm thick at the top right and bottom left, 10 mm in from the edges) and writes cut
files whose outlines lie on the printed trim lines, read back from the PDF, the SVG and the DXF."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pdfplumber
import pypdf
import pytest
from conftest import cardgen
from PIL import Image
from pypdf.generic import ContentStream

from cardgen.layout.sheet import Rect
from cardgen.model.sizes import MM

TOLERANCE = 0.1  # mm
SVG = "{http://www.w3.org/2000/svg}"


def placed_cards(path, bleed_mm: float) -> list[Rect]:
    """The trim of each card form placed on the first page (mm, from the bottom left): the form's
    box through the matrix in force, less the bleed."""
    reader = pypdf.PdfReader(path)
    page = reader.pages[0]
    xobjects = page["/Resources"]["/XObject"]
    ctm, stack, trims = (1, 0, 0, 1, 0, 0), [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            m = ctm
            ctm = (a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2], c * m[1] + d * m[3],
                   e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5])
        elif op == b"Do":
            x0, y0, x1, y1 = (float(v) for v in xobjects[operands[0]].get_object()["/BBox"])
            points = [(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
                      for x in (x0, x1) for y in (y0, y1)]
            xs, ys = [p[0] / MM for p in points], [p[1] / MM for p in points]
            trims.append(Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).inset(bleed_mm))
    return trims


def svg_boxes(path) -> tuple[list[Rect], float, float]:
    """The SVG's rectangles (mm, turned to the PDF's bottom-left origin), and the corner radii."""
    root = ET.parse(path).getroot()
    height = float(root.get("viewBox").split()[3])
    rects = root.iter(f"{SVG}rect")
    boxes, radii = [], set()
    for rect in rects:
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        boxes.append(Rect(x, height - y - h, w, h))
        radii.add(float(rect.get("rx")))
    return boxes, radii


def dxf_lines(path) -> list[tuple[float, float, float, float]]:
    codes = path.read_text().splitlines()
    pairs = list(zip(codes[::2], codes[1::2]))
    lines, i = [], 0
    while i < len(pairs):
        if pairs[i] == ("0", "LINE"):
            values = dict(pairs[i + 1:i + 6])
            lines.append(tuple(float(values[k]) for k in ("10", "20", "11", "21")))
        i += 1
    return lines


def close(a: Rect, b: Rect) -> bool:
    return all(abs(u - v) <= TOLERANCE for u, v in zip((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h)))


@pytest.fixture(scope="module")
def silhouette(tmp_path_factory):
    out = tmp_path_factory.mktemp("silhouette")
    code, _, err = cardgen("cards", "exploding_puppy", "--setup", "Basic", "--marks", "silhouette", "--out", out)
    assert code == 0, err
    return out


def test_the_marks_are_where_silhouette_studio_looks_for_them(silhouette):
    with pdfplumber.open(silhouette / "cards-basic.pdf") as pdf:
        page = pdf.pages[0]
        width, height = page.width / MM, page.height / MM
        black = {tuple(round(v / MM, 2) for v in (r["x0"], r["top"], r["x1"], r["bottom"]))
                 for r in page.rects if r["fill"] and r["non_stroking_color"] in ((0,), (0, 0, 0), [0, 0, 0])}
        lines = [(line["x0"] / MM, (page.height - line["bottom"]) / MM, line["x1"] / MM,
                  (page.height - line["top"]) / MM) for line in page.lines]
    cards = placed_cards(silhouette / "cards-basic.pdf", bleed_mm=0)
    for x0, y0, x1, y1 in lines:  # no crop marks: every line is the cards' own (the machine cuts)
        assert any(c.x - 0.01 <= x0 <= x1 <= c.right + 0.01 and c.y - 0.01 <= y0 <= y1 <= c.top + 0.01
                   for c in cards), (x0, y0, x1, y1)
    right, bottom = round(width - 10, 2), round(height - 10, 2)
    assert black >= {
        (10, 10, 15, 15),  # the square, top left (x0, top, x1, bottom from the top-left corner)
        (right - 20, 10, right, 10.5), (right - 0.5, 10, right, 30),  # the L at the top right
        (10, bottom - 0.5, 30, bottom), (10, bottom - 20, 10.5, bottom),  # the L at the bottom left
    }, black


def test_the_cut_files_outline_the_printed_cards(silhouette):
    printed = placed_cards(silhouette / "cards-basic.pdf", bleed_mm=3)
    assert len(printed) == 8  # the Basic setup's first sheet: 8 poker cards on their side inside the marks
    boxes, radii = svg_boxes(silhouette / "cards-basic.cut.svg")
    assert radii == {3.0}  # the layout's corner radius
    assert len(boxes) == len(printed)
    for trim in printed:
        assert sum(close(trim, box) for box in boxes) == 1, trim
    lines = dxf_lines(silhouette / "cards-basic.cut.dxf")
    assert len(lines) == 4 * len(boxes)
    for box in boxes:  # the bottom edge of each box, between its rounded corners
        assert any(abs(x1 - (box.x + 3)) <= TOLERANCE and abs(y1 - box.y) <= TOLERANCE
                   and abs(x2 - (box.right - 3)) <= TOLERANCE for x1, y1, x2, _ in lines), box


def test_no_card_prints_on_a_mark_or_the_white_around_it(silhouette):
    with pdfplumber.open(silhouette / "cards-basic.pdf") as pdf:
        page = pdf.pages[0]
        height = page.height / MM
        marks = [Rect(r["x0"] / MM - 3, height - r["bottom"] / MM - 3, r["width"] / MM + 6, r["height"] / MM + 6)
                 for r in page.rects if r["fill"] and r["width"] < 25 * MM and r["height"] < 25 * MM
                 and (r["x0"] < 35 * MM or r["bottom"] > page.height - 35 * MM)]
    for card in placed_cards(silhouette / "cards-basic.pdf", bleed_mm=0):  # with its bleed
        for mark in marks:
            assert card.right <= mark.x or mark.right <= card.x or card.top <= mark.y or mark.top <= card.y


def test_the_machine_calibration_cuts_on_its_printed_squares(tmp_path):
    code, _, err = cardgen("cards", "exploding_puppy", "--calibration", "--marks", "silhouette", "--paper", "letter",
                           "--out", tmp_path)
    assert code == 0, err
    with pdfplumber.open(tmp_path / "calibration-silhouette-letter.pdf") as pdf:
        page = pdf.pages[0]
        height = page.height / MM
        printed = [Rect(r["x0"] / MM, height - r["bottom"] / MM, r["width"] / MM, r["height"] / MM)
                   for r in page.rects if r["stroke"] and not r["fill"]]
    boxes, _ = svg_boxes(tmp_path / "calibration-silhouette-letter.cut.svg")
    assert len(printed) == len(boxes) == 5
    for box in boxes:
        assert any(close(box, square) for square in printed)


def test_a_folded_sheet_is_not_for_a_machine():
    code, _, err = cardgen("cards", "exploding_puppy", "--marks", "silhouette", "--mode", "gutterfold")
    assert code == 2 and "a machine cuts the printed side of a flat sheet" in err


def test_the_cricut_export_is_trimmed_card_images_for_design_space(tmp_path):
    """Design Space prints its own marks and bleed: each card type trimmed, at 300 dpi."""
    code, _, err = cardgen("export", "exploding_puppy", "--to", "cricut", "--all-types", "--out", tmp_path)
    assert code == 0, err
    fronts = sorted(tmp_path.glob("export-cricut-*/*-front.png"))
    assert len(fronts) == 73
    with Image.open(fronts[0]) as image:
        assert image.size == (round(63 / 25.4 * 300), round(88 / 25.4 * 300))  # 63 x 88 mm, no bleed
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
