"""Print-then-cut: `cards --marks silhouette` prints Silhouette Studio's registration marks as the
type 1 template draws them (a 5 mm square at the top left, filled and outlined 0.5 mm; L marks of
20 mm arms stroked 0.5 mm along the lines 10 mm in from the edges), nothing in the clear corners
inside the marks, no shared cut, and a cut file per sheet whose outlines lie on that sheet's
printed trim lines, read back from the PDF, the SVG and the DXF."""
from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import numpy as np
import pdfplumber
import pypdf
import pypdfium2
import pytest
from conftest import cardgen
from PIL import Image
from pypdf.generic import ContentStream

from cardgen.layout import cutter
from cardgen.layout import sheet as layout
from cardgen.layout.sheet import Rect
from cardgen.model.sizes import MM

TOLERANCE = 0.1  # mm
SVG = "{http://www.w3.org/2000/svg}"


def placed_cards(path, bleed_mm: float, number: int = 0) -> list[Rect]:
    """The trim of each card form placed on a page (mm, from the bottom left): the form's box
    through the matrix in force, less the bleed (drawn clipped to less towards a neighbour)."""
    reader = pypdf.PdfReader(path)
    page = reader.pages[number]
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


def page_marks(path, number: int = 0) -> tuple[list[tuple], list[tuple]]:
    """The page's own drawing (not the cards' forms), in mm from the top left: each rectangle
    filled and stroked (x0, top, x1, bottom, line width) and each stroked polyline (its points,
    line width, line cap)."""
    reader = pypdf.PdfReader(path)
    page = reader.pages[number]
    height = float(page.mediabox.height)
    width, cap, points, rects, lines = 1.0, 0, [], [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"w":
            width = float(operands[0])
        elif op == b"J":
            cap = int(operands[0])
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            points = [("re", x / MM, (height - y - h) / MM, (x + w) / MM, (height - y) / MM)]
        elif op in (b"m", b"l"):
            points = (points if op == b"l" else []) + [(float(operands[0]) / MM, (height - float(operands[1])) / MM)]
        elif op in (b"B", b"B*", b"b", b"b*", b"f", b"S"):
            if points and points[0][0] == "re" and op in (b"B", b"B*", b"b", b"b*"):
                rects.append((*points[0][1:], width / MM))
            elif op == b"S" and len(points) == 3:
                lines.append((points, width / MM, cap))
            points = []
    return rects, lines


def near(a, b) -> bool:
    return abs(a - b) <= TOLERANCE


def test_the_marks_are_the_type_1_template(silhouette):
    """inkscape-silhouette's template: a 5 mm square at 10 mm from the top left edges, filled and
    outlined 0.5 mm; Ls of 20 mm arms stroked 0.5 mm with square caps along the 10 mm lines."""
    pdf = silhouette / "cards-basic.pdf"
    with pdfplumber.open(pdf) as document:
        width, height = document.pages[0].width / MM, document.pages[0].height / MM
    rects, lines = page_marks(pdf)
    assert len(rects) == 1
    x0, top, x1, bottom, line = rects[0]
    assert all(near(a, b) for a, b in zip((x0, top, x1, bottom, line), (10, 10, 15, 15, 0.5))), rects
    right, low = width - 10, height - 10
    template = [[(right - 20, 10), (right, 10), (right, 30)], [(30, low), (10, low), (10, low - 20)]]
    assert len(lines) == 2
    for (points, line, cap), want in zip(lines, template):
        assert near(line, 0.5) and cap == 2
        assert all(near(x, wx) and near(y, wy) for (x, y), (wx, wy) in zip(points, want)), (points, want)


def test_nothing_prints_where_the_marks_keep_clear(silhouette):
    """At 150 dpi, white everywhere outside the marks' lines and in the 20 mm square inside each
    mark's corner, but for the marks themselves."""
    document = pypdfium2.PdfDocument(silhouette / "cards-basic.pdf")
    try:
        image = document[0].render(scale=150 / 72).to_pil().convert("L")
    finally:
        document.close()
    px = 150 / 25.4
    w, h = image.size[0] / px, image.size[1] / px
    # the marks as painted (mm from the top left), grown by a pixel for antialiasing
    grow = 0.25 + 1.5 / px
    painted = [(10 - grow, 10 - grow, 15 + grow, 15 + grow),
               (w - 30 - grow, 10 - grow, w - 10 + grow, 10 + grow), (w - 10 - grow, 10 - grow, w - 10 + grow, 30 + grow),
               (10 - grow, h - 10 - grow, 30 + grow, h - 10 + grow), (10 - grow, h - 30 - grow, 10 + grow, h - 10 + grow)]
    zones = [(9.75, 9.75, 30.25, 30.25), (w - 30.25, 9.75, w - 9.75, 30.25), (9.75, h - 30.25, 30.25, h - 9.75)]
    frame = (9.75, 9.75, w - 9.75, h - 9.75)
    pixels = np.asarray(image)[::2, ::2]  # every other pixel each way
    x = ((np.arange(0, image.size[0], 2) + 0.5) / px)[None, :]
    y = ((np.arange(0, image.size[1], 2) + 0.5) / px)[:, None]

    def within(boxes) -> np.ndarray:
        return np.logical_or.reduce([(a <= x) & (x <= c) & (b <= y) & (y <= d) for a, b, c, d in boxes])

    kept = ~within([frame]) | within(zones)
    rows, cols = np.nonzero(kept & (pixels < 250) & ~within(painted))
    stained = [(round(float(x[0, col]), 1), round(float(y[row, 0]), 1)) for row, col in zip(rows, cols)]
    assert not stained, stained[:10]


def test_no_two_cards_share_a_cut(silhouette):
    cards = placed_cards(silhouette / "cards-basic.pdf", bleed_mm=3)
    assert len(cards) == 6
    for a, b in itertools.combinations(cards, 2):
        gap = max(b.x - a.right, a.x - b.right, b.y - a.top, a.y - b.top)
        assert gap >= 2 - TOLERANCE, (a, b)


def test_a_sheet_is_as_full_upright_or_turned():
    """Letter: the best of the page upright and turned (six poker cards with 3 mm bleed either
    way: eight, as some tools place them, would print in the marks' clear corners)."""
    for paper, size in (("letter", "poker"), ("a4", "poker"), ("letter", "mini"), ("a4", "bridge")):
        made = cutter.make_machine_sheet(paper, size, 3, (0, 0), "long-edge", "dense", "silhouette")
        spec = cutter.machine("silhouette")
        room = layout.Room(cutter.margin_mm(spec) + 3, lambda sheet: cutter.clear_of_marks(sheet, spec), "silhouette")
        both = [layout.fit_sheet(paper, size, 3, (0, 0), "long-edge", "dense", room, turned) for turned in (False, True)]
        assert made.per_page == max(sheet.per_page for sheet in both)
    assert cutter.make_machine_sheet("letter", "poker", 3, (0, 0), "long-edge", "dense", "silhouette").per_page == 6


def test_each_sheet_has_a_cut_file_that_cuts_only_its_cards(silhouette):
    """98 cards, 6 a sheet: 17 sheets, the last with 2 cards and a cut file of 2 outlines."""
    svgs = sorted(silhouette.glob("cards-basic-sheet*.cut.svg"))
    assert [path.name for path in svgs][-1] == "cards-basic-sheet17.cut.svg" and len(svgs) == 17
    for number, face_page in ((1, 0), (17, 32)):
        printed = placed_cards(silhouette / "cards-basic.pdf", bleed_mm=3, number=face_page)
        boxes, radii = svg_boxes(silhouette / f"cards-basic-sheet{number:02d}.cut.svg")
        assert radii == {3.0}  # the layout's corner radius
        assert len(boxes) == len(printed) == (6 if number == 1 else 2)
        for trim in printed:
            assert sum(close(trim, box) for box in boxes) == 1, trim
        lines = dxf_lines(silhouette / f"cards-basic-sheet{number:02d}.cut.dxf")
        assert len(lines) == 4 * len(boxes)
        for box in boxes:  # the bottom edge of each box, between its rounded corners
            assert any(abs(x1 - (box.x + 3)) <= TOLERANCE and abs(y1 - box.y) <= TOLERANCE
                       and abs(x2 - (box.right - 3)) <= TOLERANCE for x1, y1, x2, _ in lines), box


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


@pytest.mark.slow
def test_the_cricut_export_is_trimmed_card_images_for_design_space(tmp_path):
    """Design Space prints its own marks and bleed: each card type trimmed, at 300 dpi."""
    code, _, err = cardgen("export", "starter", "--to", "cricut", "--all-types", "--out", tmp_path)
    assert code == 0, err
    fronts = sorted(tmp_path.glob("export-cricut-*/*-front.png"))
    assert len(fronts) == 7  # the starter's card types (a poker game)
    with Image.open(fronts[0]) as image:
        assert image.size == (round(63 / 25.4 * 300), round(88 / 25.4 * 300))  # 63 x 88 mm, no bleed
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_a_machine_sheet_shares_no_cut():
    code, _, err = cardgen("cards", "exploding_puppy", "--marks", "silhouette", "--layout", "shared-cuts")
    assert code == 2 and "a machine cuts around each card" in err
