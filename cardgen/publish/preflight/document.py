"""publish/preflight/document: the points read from the file's objects rather than from what its
pages draw: the PDF/X keys and output intent, the version, encryption, fonts, transparency and
blend modes, Lab color and RGB shadings, actions, and each page's boxes and annotations."""
from __future__ import annotations

import math

import pikepdf

from cardgen.publish.preflight.report import (
    ACTIONS,
    BLEND,
    ENCRYPTION,
    FONTS,
    INTENT,
    KEYS,
    LAB,
    RGB_SHADING,
    TRANSPARENCY,
    VERSION,
    WELL_FORMED,
    Budget,
    Checking,
    Malformed,
)
from cardgen.render.print_color import PDFX_CONFORMANCE, PDFX_VERSION

MAX_VERSION = (1, 4)
NORMAL_BLENDS = ("/Normal", "/Compatible")
OUTSIDE_THE_PRINT = ("/PrinterMark", "/TrapNet")  # the annotations PDF/X allows inside the bleed
DICTIONARIES = (pikepdf.Dictionary, pikepdf.Stream)


def number(value: object, what: str) -> float:
    """A finite number of the file, or Malformed naming what it should have been."""
    try:
        result = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, ArithmeticError):
        raise Malformed(f"{what} is not a number") from None
    if not math.isfinite(result):
        raise Malformed(f"{what} is not a finite number")
    return result


def numbers(values: object, count: int, what: str) -> tuple[float, ...]:
    """`count` numbers of an array or an operator's operands, or Malformed."""
    items = list(values) if isinstance(values, (pikepdf.Array, pikepdf._core._ObjectList)) else None  # operands
    if items is None or len(items) != count:
        raise Malformed(f"{what} has {len(items) if items is not None else 'no list of'} numbers, not {count}")
    return tuple(number(item, what) for item in items)


def color_kind(space: object, depth: int = 0) -> str:
    """What a color space draws in: RGB, CMYK, Gray, Lab or other."""
    if depth > 4:
        raise Malformed("a color space nested more than 4 deep")
    if isinstance(space, pikepdf.Array) and len(space):
        family = space[0]
        if family == "/ICCBased":
            profile = space[1] if len(space) > 1 else None
            components = profile.get("/N") if isinstance(profile, pikepdf.Stream) else None
            if not isinstance(components, int):
                raise Malformed("an ICCBased color space without its number of components (/N)")
            return {1: "Gray", 3: "RGB", 4: "CMYK"}.get(components, "other")
        if family in ("/Indexed", "/Pattern") and len(space) > 1:
            return color_kind(space[1], depth + 1)
        if family in ("/Separation", "/DeviceN") and len(space) > 2:
            return color_kind(space[2], depth + 1)  # the alternate: how it prints without the spot ink
        space = family
    return {"/DeviceRGB": "RGB", "/CalRGB": "RGB", "/DeviceCMYK": "CMYK", "/DeviceGray": "Gray",
            "/CalGray": "Gray", "/Lab": "Lab"}.get(str(space) if isinstance(space, pikepdf.Name) else "", "other")


def check_objects(pdf: pikepdf.Pdf, points: dict[str, Checking], budget: Budget) -> None:
    """Each object of the file, once."""
    for obj in pdf.objects:
        budget.spend("objects")
        if isinstance(obj, DICTIONARIES):
            try:
                _check_object(obj, points)
            except Malformed as problem:
                points[WELL_FORMED].fail(str(problem))


def _check_object(obj: pikepdf.Object, points: dict[str, Checking]) -> None:
    kind = obj.get("/Type")
    if kind == "/Font" and obj.get("/Subtype") != "/Type3":
        _check_font(obj, points[FONTS])
    if kind == "/ExtGState":
        _check_graphics_state(obj, points)
    if obj.get("/Subtype") == "/Image":
        if "/SMask" in obj:
            points[TRANSPARENCY].fail("an image with a soft mask (alpha)")
        if "/ColorSpace" in obj and color_kind(obj.ColorSpace) == "Lab":
            points[LAB].fail("a Lab image")
    if "/ShadingType" in obj:
        _check_shading(obj, points)
    group = obj.get("/Group")
    if isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency":
        points[TRANSPARENCY].fail("a transparency group")
    resources = obj.get("/Resources")
    if isinstance(resources, pikepdf.Dictionary):
        _check_resources(resources, points)
    _check_actions(obj, points[ACTIONS])


def _check_font(font: pikepdf.Object, point: Checking) -> None:
    parts = font.get("/DescendantFonts", pikepdf.Array([font]))
    for part in parts if isinstance(parts, pikepdf.Array) else []:
        descriptor = part.get("/FontDescriptor") if isinstance(part, pikepdf.Dictionary) else None
        if not isinstance(descriptor, pikepdf.Dictionary) or not any(
                key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")):
            point.fail(f"{font.get('/BaseFont', '(no name)')} is not embedded")


def _check_resources(resources: pikepdf.Dictionary, points: dict[str, Checking]) -> None:
    """The graphics states, color spaces, shadings and patterns a page or form may use (a graphics
    state needs no /Type: it is found where it is used)."""
    for _, value in _entries(resources, "/ExtGState"):
        _check_graphics_state(value, points)
    for name, value in _entries(resources, "/ColorSpace"):
        if color_kind(value) == "Lab":
            points[LAB].fail(f"a Lab color space ({name[1:]})")
    for _, value in _entries(resources, "/Shading"):
        _check_shading(value, points)
    for _, value in _entries(resources, "/Pattern"):
        if value.get("/PatternType") == 2 and isinstance(value.get("/Shading"), DICTIONARIES):
            _check_shading(value.Shading, points)
        if isinstance(value.get("/ExtGState"), DICTIONARIES):
            _check_graphics_state(value.ExtGState, points)


def _entries(resources: pikepdf.Dictionary, kind: str) -> list[tuple[str, pikepdf.Object]]:
    entries = resources.get(kind)
    if not isinstance(entries, pikepdf.Dictionary):
        return []
    return [(str(name), entries[name]) for name in entries.keys() if isinstance(entries[name], DICTIONARIES)
            or kind == "/ColorSpace"]


def _check_graphics_state(state: pikepdf.Object, points: dict[str, Checking]) -> None:
    for key, what in (("/ca", "a fill opacity"), ("/CA", "a stroke opacity")):
        if key in state and number(state[key], f"the graphics state's {key}") < 1:
            points[TRANSPARENCY].fail(f"{what} of {float(state[key]):g}")
    if state.get("/SMask", "/None") != "/None":
        points[TRANSPARENCY].fail("a soft mask in a graphics state")
    blends = state.get("/BM", "/Normal")
    for blend in blends if isinstance(blends, pikepdf.Array) else [blends]:
        if blend not in NORMAL_BLENDS:
            points[BLEND].fail(f"blend mode {str(blend).lstrip('/')}")


def _check_shading(shading: pikepdf.Object, points: dict[str, Checking]) -> None:
    kind = color_kind(shading.get("/ColorSpace"))
    if kind == "RGB":
        points[RGB_SHADING].fail("a shading in RGB")
    elif kind == "Lab":
        points[LAB].fail("a shading in Lab")


def _check_actions(obj: pikepdf.Object, point: Checking) -> None:
    if "/JS" in obj:
        point.fail("JavaScript")
    if "/AA" in obj:
        point.fail("actions on events (/AA)")
    for key in ("/A", "/OpenAction"):
        action = obj.get(key)
        if isinstance(action, pikepdf.Dictionary) and "/S" in action:
            point.fail(f"a {str(action.S).lstrip('/')} action")


def check_catalog(pdf: pikepdf.Pdf, points: dict[str, Checking]) -> None:
    """What the catalog, the document information and the trailer say."""
    _check_actions(pdf.Root, points[ACTIONS])
    names = pdf.Root.get("/Names")
    if isinstance(names, pikepdf.Dictionary) and "/JavaScript" in names:
        points[ACTIONS].fail("document JavaScript")
    if pdf.is_encrypted:
        points[ENCRYPTION].fail("the file is encrypted (PDF/X allows no encryption)")
    _check_version(pdf, points[VERSION])
    _check_intent(pdf, points[INTENT])
    _check_keys(pdf, points[KEYS])


def _check_version(pdf: pikepdf.Pdf, point: Checking) -> None:
    versions = [("the header", pdf.pdf_version)]
    if isinstance(pdf.Root.get("/Version"), pikepdf.Name):
        versions.append(("the catalog", str(pdf.Root.Version).lstrip("/")))
    for where, version in versions:
        try:
            parts = tuple(int(part) for part in version.split("."))
        except ValueError:
            point.fail(f"{where} names version {version!r}")
            continue
        if parts > MAX_VERSION:
            point.fail(f"{where} says PDF {version}")


def _check_intent(pdf: pikepdf.Pdf, point: Checking) -> None:
    intents = pdf.Root.get("/OutputIntents")
    pdfx = [intent for intent in (intents if isinstance(intents, pikepdf.Array) else [])
            if isinstance(intent, pikepdf.Dictionary) and intent.get("/S") == "/GTS_PDFX"]
    if not pdfx:
        point.fail("no GTS_PDFX output intent (the printing condition is not named)")
        return
    intent = pdfx[0]
    if len(pdfx) > 1:
        point.fail("more than one GTS_PDFX output intent")
    if not isinstance(intent.get("/OutputConditionIdentifier"), pikepdf.String):
        point.fail("the output intent has no OutputConditionIdentifier")
    profile = intent.get("/DestOutputProfile")
    if not isinstance(profile, pikepdf.Stream):
        point.fail("the output intent has no DestOutputProfile (ICC profile)")
    elif profile.get("/N") != 4:
        point.fail("the output intent's profile is not CMYK (/N 4)")


def _check_keys(pdf: pikepdf.Pdf, point: Checking) -> None:
    info = pdf.trailer.get("/Info")
    info = info if isinstance(info, pikepdf.Dictionary) else pikepdf.Dictionary()
    for key, wanted in (("/GTS_PDFXVersion", PDFX_VERSION), ("/GTS_PDFXConformance", PDFX_CONFORMANCE)):
        value = info.get(key)
        if not isinstance(value, pikepdf.String):
            point.fail(f"no {key[1:]} (it should be ({wanted}))")
        elif str(value) != wanted:
            point.fail(f"{key[1:]} is ({value}), not ({wanted})")
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not isinstance(info.get(key), pikepdf.String):
            point.fail(f"no {key[1:]} in the document information")
    if info.get("/Trapped") not in ("/True", "/False"):
        point.fail("Trapped is not /True or /False in the document information")
    if not isinstance(pdf.trailer.get("/ID"), pikepdf.Array):
        point.fail("no file identifier (/ID in the trailer)")


def inherited(node: pikepdf.Object | None, key: str) -> pikepdf.Object | None:
    """A page's entry, or its nearest ancestor's in the page tree (None when none has it)."""
    for _ in range(32):
        if not isinstance(node, pikepdf.Dictionary):
            return None
        if key in node:
            return node[key]
        node = node.get("/Parent")
    return None


def page_box(page: pikepdf.Page, key: str) -> tuple[float, float, float, float] | None:
    """A box of the page as (left, bottom, right, top), or None when the page has none."""
    box = inherited(page.obj, key) if key == "/MediaBox" else page.obj.get(key)
    if box is None:
        return None
    x0, y0, x1, y1 = numbers(box, 4, key[1:])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def check_boxes(page: pikepdf.Page, number: int, point: Checking) -> None:
    media, trim, bleed = (page_box(page, key) for key in ("/MediaBox", "/TrimBox", "/BleedBox"))
    for key, box in (("TrimBox", trim), ("BleedBox", bleed)):
        if box is None:
            point.fail(f"no {key}", number)
    if media is None:
        point.fail("no MediaBox", number)
        return
    if bleed is not None and not _within(bleed, media):
        point.fail("the BleedBox is not inside the MediaBox", number)
    if trim is not None and not _within(trim, bleed or media):
        point.fail(f"the TrimBox is not inside the {'BleedBox' if bleed else 'MediaBox'}", number)


def _within(inner: tuple[float, ...], outer: tuple[float, ...], slack: float = 0.01) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def check_annotations(page: pikepdf.Page, number: int, point: Checking) -> None:
    """An annotation (a link, a comment, a form field) on the printed area: PDF/X allows only
    printer's marks and trap networks inside the bleed."""
    annotations = page.obj.get("/Annots")
    area = page_box(page, "/BleedBox") or page_box(page, "/TrimBox") or page_box(page, "/MediaBox")
    for annotation in annotations if isinstance(annotations, pikepdf.Array) else []:
        if not isinstance(annotation, pikepdf.Dictionary) or annotation.get("/Subtype") in OUTSIDE_THE_PRINT:
            continue
        x0, y0, x1, y1 = numbers(annotation.get("/Rect"), 4, "an annotation's Rect")
        if area is not None and min(x0, x1) < area[2] and max(x0, x1) > area[0] and min(y0, y1) < area[3] \
                and max(y0, y1) > area[1]:
            color = annotation.get("/C")
            rgb = "an RGB " if isinstance(color, pikepdf.Array) and len(color) == 3 else "a "
            point.fail(f"{rgb}{str(annotation.get('/Subtype', '/Annot')).lstrip('/')} annotation inside the bleed",
                       number)
