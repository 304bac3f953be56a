"""build/preflight: what a print shop's preflight would flag in a PDF, read from the file itself
(any PDF, not only cardgen's): every point with pass or fail and what fails where.

The page content is walked with pikepdf (forms, images, line widths and color operators, with
the transformation in force), the text's places read with pypdfium2, and the total ink of a
CMYK file measured on ghostscript's CMYK rendering. Cards are found as the forms placed on a
page: each form's box less the page's bleed (BleedBox around TrimBox) is a card's trim."""
from __future__ import annotations

import io
import math
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf
import pypdfium2
from PIL import Image, ImageMath

from cardgen.errors import BuildError
from cardgen.layout.sheet import Rect
from cardgen.model.sizes import MM, SAFE_ZONE_MM

MIN_PPI = 300
MIN_LINE_PT = 0.25
MAX_INK = 300  # percent
INK_DPI = 30  # the CMYK rendering the ink is measured on: areas, not hairlines
RGB_OPERATORS = {"rg", "RG"}
RGB_SPACES = {"/DeviceRGB", "/CalRGB"}

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)


@dataclass
class Point:
    """One point a shop checks: passed, or failed with what fails on which pages."""

    name: str
    failures: dict[str, list[int]] = field(default_factory=dict)  # what fails -> the pages (0: the file)
    note: str = ""  # why it was not checked

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def problems(self) -> list[str]:
        return [problem + _pages(pages) for problem, pages in self.failures.items()]

    def fail(self, problem: str, page: int = 0) -> None:
        pages = self.failures.setdefault(problem, [])
        if page and page not in pages:
            pages.append(page)


def _pages(pages: list[int]) -> str:
    if not pages:
        return ""
    shown = ", ".join(map(str, pages[:8])) + (f" and {len(pages) - 8} more" if len(pages) > 8 else "")
    return f" (page{'s' if len(pages) > 1 else ''} {shown})"


@dataclass
class Report:
    path: Path
    points: list[Point]

    @property
    def passed(self) -> bool:
        return all(point.passed for point in self.points)

    def lines(self, most: int = 5) -> list[str]:
        out = []
        for point in self.points:
            status = "FAIL" if not point.passed else "n/a " if point.note else "pass"
            out.append(f"{status}  {point.name}" + (f" ({point.note})" if point.note else ""))
            out += [f"      {problem}" for problem in point.problems[:most]]
            if len(point.problems) > most:
                out.append(f"      and {len(point.problems) - most} more")
        return out


@dataclass
class _Walk:
    """What the content of one page draws, in page coordinates."""

    cards: list[Rect] = field(default_factory=list)  # placed forms' boxes (a card with its bleed)
    images: list[tuple[str, float]] = field(default_factory=list)  # (what, ppi)
    thin_lines: list[float] = field(default_factory=list)  # stroke widths under MIN_LINE_PT, in points
    rgb: set[str] = field(default_factory=set)  # what draws in RGB


def preflight(path: Path) -> Report:
    """Every point of the file, checked."""
    try:
        data = path.read_bytes()
        return _preflight(path, data)
    except OSError as exc:
        raise BuildError(f"{path}: {exc.strerror or exc}") from None
    except (pikepdf.PdfError, pypdfium2.PdfiumError) as exc:
        raise BuildError(f"{path} is not a PDF cardgen can read ({exc})", hint="give the path of a PDF file") from None


def _preflight(path: Path, data: bytes) -> Report:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        points = {name: Point(name) for name in (
            "CMYK only (no RGB color or image)", "PDF/X output intent", "TrimBox and BleedBox on every page",
            "every font embedded", "no transparency", f"images at {MIN_PPI} ppi or more",
            f"no line under {MIN_LINE_PT:g} pt", f"text inside the {SAFE_ZONE_MM:g} mm safe zone",
            f"total ink at most {MAX_INK} %")}
        p = list(points.values())
        _check_intent(pdf, p[1])
        _check_fonts(pdf, p[3])
        _check_transparency(pdf, p[4])
        walks = []
        for number, page in enumerate(pdf.pages, start=1):
            _check_boxes(page, number, p[2])
            walk = _walk_page(page)
            walks.append(walk)
            for what in sorted(walk.rgb):
                p[0].fail(what, number)
            for what, ppi in walk.images:
                if ppi < MIN_PPI - 0.5:
                    p[5].fail(f"{what} at {ppi:.0f} ppi", number)
            for width in sorted(set(walk.thin_lines)):
                p[6].fail(f"a line {width:.2f} pt wide", number)
        _check_safe_zone(data, pdf, walks, p[7])
    _check_ink(path, p[0].passed, p[8])
    return Report(path, p)


def _check_intent(pdf: pikepdf.Pdf, point: Point) -> None:
    intents = pdf.Root.get("/OutputIntents", pikepdf.Array())
    if not any(intent.get("/S") == "/GTS_PDFX" and "/DestOutputProfile" in intent for intent in intents):
        point.fail("no GTS_PDFX output intent with a profile (the printing condition is not named)")
    if "/GTS_PDFXVersion" not in pdf.docinfo:
        point.fail("no GTS_PDFXVersion in the document information")


def _check_boxes(page: pikepdf.Page, number: int, point: Point) -> None:
    for box in ("/TrimBox", "/BleedBox"):
        if box not in page.obj:
            point.fail(f"no {box[1:]}", number)


def _check_fonts(pdf: pikepdf.Pdf, point: Point) -> None:
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/Font" or obj.get("/Subtype") == "/Type3":
            continue
        fonts = obj.get("/DescendantFonts", pikepdf.Array([obj]))
        for font in fonts:
            descriptor = font.get("/FontDescriptor")
            if descriptor is None or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                point.fail(f"{obj.get('/BaseFont', '(no name)')} is not embedded")


def _check_transparency(pdf: pikepdf.Pdf, point: Point) -> None:
    for obj in pdf.objects:
        if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            continue
        if obj.get("/Subtype") == "/Image" and "/SMask" in obj:
            point.fail("an image with a soft mask (alpha)")
        if obj.get("/Type") == "/ExtGState" and (
                any(float(obj.get(key, 1)) < 1 for key in ("/CA", "/ca")) or obj.get("/SMask", "/None") != "/None"):
            point.fail("a graphics state with transparency")
        group = obj.get("/Group")
        if isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency":
            point.fail("a transparency group")


def _walk_page(page: pikepdf.Page) -> _Walk:
    walk = _Walk()
    _walk(page.obj, page.Resources, IDENTITY, walk, depth=0)
    return walk


def _walk(container: pikepdf.Object, resources: pikepdf.Object, ctm: Matrix, walk: _Walk, depth: int) -> None:
    """One content stream, and the forms it places (to a bounded depth)."""
    stack: list[tuple[Matrix, float]] = []
    width = 1.0
    for instruction in pikepdf.parse_content_stream(container):
        if not isinstance(instruction, pikepdf.ContentStreamInstruction):
            continue  # an inline image: too small to matter here
        operands, op = instruction.operands, str(instruction.operator)
        if op == "q":
            stack.append((ctm, width))
        elif op == "Q" and stack:
            ctm, width = stack.pop()
        elif op == "cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif op == "w":
            width = float(operands[0])
        elif op in ("S", "s", "B", "B*", "b", "b*"):
            drawn = width * _scale(ctm)
            if drawn < MIN_LINE_PT - 1e-3:
                walk.thin_lines.append(round(drawn, 3))
        elif op in RGB_OPERATORS:
            walk.rgb.add(f"a color set in RGB ({op})")
        elif op in ("cs", "CS") and _space_name(resources, operands[0]) in RGB_SPACES:
            walk.rgb.add("a color space in RGB")
        elif op == "Do":
            _place(resources, operands[0], ctm, walk, depth)


def _place(resources: pikepdf.Object, name: pikepdf.Object, ctm: Matrix, walk: _Walk, depth: int) -> None:
    xobject = resources.get("/XObject", pikepdf.Dictionary()).get(str(name))
    if xobject is None:
        return
    if xobject.get("/Subtype") == "/Image":
        # the image's unit square drawn through the matrix: its sides' lengths, however turned
        across, down = math.hypot(ctm[0], ctm[1]), math.hypot(ctm[2], ctm[3])
        label = f"image {str(name)[1:]}"
        ppi = min(int(xobject.Width) / max(across / 72, 1e-9), int(xobject.Height) / max(down / 72, 1e-9))
        walk.images.append((label, ppi))
        if xobject.get("/ColorSpace") in RGB_SPACES or _icc_rgb(xobject.get("/ColorSpace")):
            walk.rgb.add(f"an RGB image ({label})")
        return
    if xobject.get("/Subtype") == "/Form" and depth < 8:
        matrix = tuple(float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))
        inner = _multiply(matrix, ctm)  # type: ignore[arg-type]
        if depth == 0:
            walk.cards.append(_bounds(inner, *(float(v) for v in xobject.BBox)))
        _walk(xobject, xobject.get("/Resources", resources), inner, walk, depth + 1)


def _space_name(resources: pikepdf.Object, name: pikepdf.Object) -> str:
    if str(name) in ("/DeviceRGB", "/DeviceCMYK", "/DeviceGray"):
        return str(name)
    space = resources.get("/ColorSpace", pikepdf.Dictionary()).get(str(name))
    if isinstance(space, pikepdf.Array) and len(space):
        return "/DeviceRGB" if _icc_rgb(space) else str(space[0])
    return str(space)


def _icc_rgb(space: pikepdf.Object | None) -> bool:
    return isinstance(space, pikepdf.Array) and len(space) == 2 and space[0] == "/ICCBased" and int(space[1].N) == 3


def _check_safe_zone(data: bytes, pdf: pikepdf.Pdf, walks: list[_Walk], point: Point) -> None:
    """Each character drawn on a card (or its bleed) lies inside the card's trim less the safe
    zone; the card's trim is its placed box less the page's bleed."""
    document = pypdfium2.PdfDocument(data)
    try:
        for number, (page, walk) in enumerate(zip(pdf.pages, walks), start=1):
            bleed = _page_bleed(page)
            safe = [card.inset(bleed + SAFE_ZONE_MM * MM) for card in walk.cards]
            for text, box in _characters(document[number - 1]):
                for card, inner in zip(walk.cards, safe):
                    if _centre_in(box, card) and not _inside(box, inner):
                        point.fail(f"'{text}' at ({box.x / MM:.1f}, {box.y / MM:.1f}) mm from the page's bottom left", number)
    finally:
        document.close()


def _page_bleed(page: pikepdf.Page) -> float:
    if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj:
        return 0.0
    return max(0.0, float(page.TrimBox[0]) - float(page.BleedBox[0]))


def _characters(page: pypdfium2.PdfPage) -> Iterator[tuple[str, Rect]]:
    """Each visible character with its box, in points from the page's bottom-left."""
    text = page.get_textpage()
    try:
        for index in range(text.count_chars()):
            char = text.get_text_range(index, 1)
            if not char.strip():
                continue
            left, bottom, right, top = text.get_charbox(index)
            yield char, Rect(left, bottom, right - left, top - bottom)
    finally:
        text.close()


def _centre_in(box: Rect, rect: Rect) -> bool:
    x, y = box.x + box.w / 2, box.y + box.h / 2
    return rect.x <= x <= rect.right and rect.y <= y <= rect.top


def _inside(box: Rect, rect: Rect, slack: float = 0.1) -> bool:
    return (box.x >= rect.x - slack and box.right <= rect.right + slack
            and box.y >= rect.y - slack and box.top <= rect.top + slack)


def _check_ink(path: Path, cmyk: bool, point: Point) -> None:
    """The most ink on any spot of a CMYK file, on ghostscript's CMYK rendering."""
    if not cmyk:
        point.note = "not measured: the file is not CMYK"
        return
    gs = shutil.which("gs")
    if gs is None:
        point.note = "not measured: ghostscript (gs) is not installed"
        return
    for number, image in enumerate(_cmyk_pages(gs, path), start=1):
        most = _most_ink(image)
        if most > MAX_INK + 1:
            point.fail(f"{most:.0f} % on the darkest spot", number)


def _cmyk_pages(gs: str, path: Path) -> Iterator[Image.Image]:
    with tempfile.TemporaryDirectory(prefix="cardgen-preflight-") as folder:
        subprocess.run([gs, "-q", "-dSAFER", "-dNOPAUSE", "-dBATCH", "-sDEVICE=tiff32nc", f"-r{INK_DPI}",
                        f"-sOutputFile={folder}/page-%04d.tif", str(path)], capture_output=True, timeout=300,
                       check=True)
        for page in sorted(Path(folder).glob("page-*.tif")):
            with Image.open(page) as image:
                yield image.convert("CMYK")


def _most_ink(image: Image.Image) -> float:
    """The largest sum of the four inks on one pixel, in percent."""
    total = ImageMath.lambda_eval(lambda band: band["c"] + band["m"] + band["y"] + band["k"],
                                  **dict(zip("cmyk", (b.convert("I") for b in image.split()))))
    low, high = total.getextrema()
    return float(high) / 255 * 100


def _multiply(a: Matrix, b: Matrix) -> Matrix:
    """The matrix a then b (PDF order)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _scale(m: Matrix) -> float:
    """How much the matrix scales a line's width (the geometric mean of its axes)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def _bounds(m: Matrix, x0: float, y0: float, x1: float, y1: float) -> Rect:
    points = [(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]) for x in (x0, x1) for y in (y0, y1)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

