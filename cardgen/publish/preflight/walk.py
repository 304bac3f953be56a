"""publish/preflight/walk: what each page draws, read from its content with pikepdf (forms,
images, line widths and color operators, with the transformation in force) within the budget,
and the places of its characters read with pypdfium2. Cards are found as the forms placed on a
page: each form's box less the page's bleed (BleedBox around TrimBox) is a card's trim."""
from __future__ import annotations

import math
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import pikepdf
import pypdfium2

from cardgen.layout.sheet import Rect
from cardgen.model.sizes import MM, SAFE_ZONE_MM
from cardgen.publish.preflight.document import color_kind, inherited, number, numbers, page_box
from cardgen.publish.preflight.report import MAX_NESTING, MIN_LINE_PT, Budget, Checking, Malformed, TooComplex
from cardgen.render import pdfpages

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)
MAX_FORM_DEPTH = 8
STROKES = {"S", "s", "B", "B*", "b", "b*"}


@dataclass
class Drawing:
    """What the content of one page draws, in page coordinates."""

    cards: list[Rect] = field(default_factory=list)  # placed forms' boxes (a card with its bleed)
    images: list[tuple[str, float]] = field(default_factory=list)  # (what, ppi)
    thin_lines: list[float] = field(default_factory=list)  # stroke widths under MIN_LINE_PT, in points
    rgb: set[str] = field(default_factory=set)  # what draws in RGB
    malformed: set[str] = field(default_factory=set)  # operators and objects that are not as PDF defines them
    placements: int = 0  # forms and images drawn, counting those inside forms as often as they are drawn


    def add(self, part: Drawing) -> None:
        """What a form draws, placed here (its cards are counted where it is placed)."""
        self.images += part.images
        self.thin_lines += part.thin_lines
        self.rgb |= part.rgb
        self.malformed |= part.malformed
        self.placements += part.placements


class Walker:
    """Walks the pages of one file within its budget. A form drawn again at the same size and
    angle (a symbol on every card) draws the same: what it draws is kept, not walked again, but
    the forms and images inside it count against the budget each time, as a printer draws them."""

    def __init__(self, budget: Budget):
        self.budget = budget
        self.forms: dict[tuple, Drawing] = {}

    def page(self, page: pikepdf.Page) -> Drawing:
        drawing = Drawing()
        self._walk(page.obj, inherited(page.obj, "/Resources"), IDENTITY, drawing, 0)
        return drawing

    def _walk(self, container: pikepdf.Object, resources: pikepdf.Object | None, ctm: Matrix, drawing: Drawing,
              depth: int) -> None:
        """One content stream, and the forms it places (to a bounded depth)."""
        stack: list[tuple[Matrix, float]] = []
        width = 1.0
        for instruction in _instructions(container, self.budget, drawing):
            if not isinstance(instruction, pikepdf.ContentStreamInstruction):
                continue  # an inline image: too small to matter here
            operands, op = instruction.operands, str(instruction.operator)
            try:
                if op == "q":
                    stack.append((ctm, width))
                    if len(stack) > MAX_NESTING:
                        raise TooComplex(f"graphics states nested more than {MAX_NESTING} deep (q)")
                elif op == "Q" and stack:
                    ctm, width = stack.pop()
                elif op == "cm":
                    ctm = _multiply(numbers(operands, 6, "'cm'"), ctm)  # type: ignore[arg-type]
                elif op == "w":
                    width = number(operands[0] if operands else None, "the line width of 'w'")
                elif op in STROKES:
                    drawn = width * _scale(ctm)
                    if drawn < MIN_LINE_PT - 1e-3:
                        drawing.thin_lines.append(round(drawn, 3))
                elif op in ("rg", "RG"):
                    drawing.rgb.add(f"a color set in RGB ({op})")
                elif op in ("cs", "CS") and operands and _space_kind(resources, operands[0]) == "RGB":
                    drawing.rgb.add("a color space in RGB")
                elif op == "Do" and operands:
                    self._place(resources, operands[0], ctm, drawing, depth)
            except Malformed as problem:
                drawing.malformed.add(str(problem))

    def _place(self, resources: pikepdf.Object | None, name: pikepdf.Object, ctm: Matrix, drawing: Drawing,
               depth: int) -> None:
        xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
        xobject = xobjects.get(str(name)) if isinstance(xobjects, pikepdf.Dictionary) else None
        if not isinstance(xobject, pikepdf.Stream):
            return
        self.budget.spend("placed forms and images")
        drawing.placements += 1
        label = str(name)[1:]
        if xobject.get("/Subtype") == "/Image":
            _place_image(xobject, label, ctm, drawing)
        elif xobject.get("/Subtype") == "/Form" and depth < MAX_FORM_DEPTH:
            if "/BBox" not in xobject:
                raise Malformed(f"form {label} without /BBox")
            box = numbers(xobject.BBox, 4, f"the /BBox of form {label}")
            matrix = numbers(xobject.Matrix, 6, f"the /Matrix of form {label}") if "/Matrix" in xobject else IDENTITY
            inner = _multiply(matrix, ctm)  # type: ignore[arg-type]
            if depth == 0:
                drawing.cards.append(_bounds(inner, *box))
            key = (xobject.objgen, *(round(v, 6) for v in inner[:4]), depth)
            if key in self.forms:
                self.budget.spend("placed forms and images", self.forms[key].placements)
            else:
                self.forms[key] = Drawing()
                self._walk(xobject, xobject.get("/Resources", resources), inner, self.forms[key], depth + 1)
            drawing.add(self.forms[key])


def _place_image(image: pikepdf.Stream, label: str, ctm: Matrix, drawing: Drawing) -> None:
    # the image's unit square drawn through the matrix: its sides' lengths, however turned
    across, down = math.hypot(ctm[0], ctm[1]), math.hypot(ctm[2], ctm[3])
    pixels = [_required(image, key, f"image {label}") for key in ("/Width", "/Height")]
    ppi = min(pixels[0] / max(across / 72, 1e-9), pixels[1] / max(down / 72, 1e-9))
    drawing.images.append((f"image {label}", ppi))
    if "/ColorSpace" in image and color_kind(image.ColorSpace) == "RGB":
        drawing.rgb.add(f"an RGB image (image {label})")


def _instructions(container: pikepdf.Object, budget: Budget, drawing: Drawing) -> list:
    """The content's instructions, once its size is known to be within the budget: parsing
    takes about 300 bytes of memory an instruction, so the words are counted first."""
    contents = container.get("/Contents") if isinstance(container, pikepdf.Dictionary) else container
    streams = contents if isinstance(contents, pikepdf.Array) else [contents]
    for stream in streams:
        if not isinstance(stream, pikepdf.Stream):
            continue
        _within_size(stream, budget)
        try:
            data = stream.read_bytes()
        except pikepdf.PdfError as exc:
            drawing.malformed.add(f"a content stream that cannot be decoded ({exc})")
            return []
        budget.spend("bytes of page content", len(data))
        budget.spend("content operators and operands", sum(data.count(c) for c in (b" ", b"\n", b"\r", b"\t")) + 1)
    try:
        return pikepdf.parse_content_stream(container)
    except pikepdf.PdfError as exc:
        drawing.malformed.add(f"content that cannot be parsed ({exc})")
        return []


def _within_size(stream: pikepdf.Stream, budget: Budget) -> None:
    """A Flate stream inflating past the budget (a compression bomb) is stopped before it is
    held in memory; other filters are left to the memory ceiling."""
    if stream.get("/Filter") != "/FlateDecode" or "/DecodeParms" in stream:
        return
    left = budget.left("bytes of page content")
    try:
        inflated = len(zlib.decompressobj().decompress(stream.read_raw_bytes(), left + 1))
    except zlib.error:
        return  # qpdf says what is wrong with it
    if inflated > left:
        budget.spend("bytes of page content", inflated)


def _required(obj: pikepdf.Object, key: str, what: str) -> float:
    if key not in obj:
        raise Malformed(f"{what} without {key}")
    return number(obj[key], f"the {key} of {what}")


def _space_kind(resources: pikepdf.Object | None, name: pikepdf.Object) -> str:
    if str(name) in ("/DeviceRGB", "/DeviceCMYK", "/DeviceGray"):
        return color_kind(name)
    spaces = resources.get("/ColorSpace") if isinstance(resources, pikepdf.Dictionary) else None
    return color_kind(spaces.get(str(name)) if isinstance(spaces, pikepdf.Dictionary) else None)


def walk_safe_zone(data: bytes, pdf: pikepdf.Pdf, drawings: list[Drawing], point: Checking) -> None:
    """Each character drawn on a card (or its bleed) lies inside the card's trim less the safe
    zone; the card's trim is its placed box less the page's bleed."""
    with pdfpages.opened(data) as document:
        for number_, (page, drawing) in enumerate(zip(pdf.pages, drawings), start=1):
            if not drawing.cards:
                continue
            bleed = _page_bleed(page)
            safe = [card.inset(bleed + SAFE_ZONE_MM * MM) for card in drawing.cards]
            for text, box in _characters(document[number_ - 1]):
                for card, inner in zip(drawing.cards, safe):
                    if _centre_in(box, card) and not _inside(box, inner):
                        point.fail(f"'{text}' at ({box.x / MM:.1f}, {box.y / MM:.1f}) mm from the page's bottom left",
                                   number_)


def _page_bleed(page: pikepdf.Page) -> float:
    try:
        trim, bleed = page_box(page, "/TrimBox"), page_box(page, "/BleedBox")
    except Malformed:
        return 0.0
    return max(0.0, trim[0] - bleed[0]) if trim and bleed else 0.0


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
