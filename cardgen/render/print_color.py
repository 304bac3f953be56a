"""render/print_color: CMYK for print shops. Colors and images go from sRGB into the shipped
output profile (ISO Coated v2 300 %, FOGRA39) through littleCMS (Pillow's ImageCms); the PDF
then gets the profile as its PDF/X output intent (pikepdf), so that a shop's preflight accepts
it as PDF/X-1a:2003.

Black: text under 12 pt, lines and marks in black or a near-black (a neutral color darker than
L* 20) are printed in black ink alone at 100 %, overprinting what is under them (no four inks to
register at the size of a letter, no white halo where the plates shift); darker grays in black
ink alone; areas and larger text go through the profile, which gives dark fills a rich black
within the profile's 300 % ink limit."""
from __future__ import annotations

import io
import math
import re
import zlib
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageCms
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfgen.textobject import PDFTextObject

from cardgen.inputs.paths import ART
from cardgen.render.compact import CompactCanvas

if TYPE_CHECKING:
    import pikepdf

PROFILE = ART / "icc" / "ISOcoated_v2_300_bas.icc"
CONDITION = "FOGRA39"  # the registered printing condition the profile characterises
CONDITION_NAME = "ISO Coated v2 300% (FOGRA39, basICColor)"
PDFX_VERSION, PDFX_CONFORMANCE = "PDF/X-1:2003", "PDF/X-1a:2003"  # ISO 15930-4: the part, then the conformance level
NEUTRAL_CHROMA = 8.0  # colors this close to gray (CIE C*ab) are printed as a gray in text and lines
DARK = 50.0  # grays darker than this L* are black ink alone in text and lines
BLACK_LIGHTNESS = 20.0  # grays darker than this L* are black: 100 % K, overprinting
SMALL_TEXT_PT = 12.0  # text under this size is ink for lines, not for areas
BLACK = CMYKColor(0, 0, 0, 1)
# the graphics states (ExtGState) black text and lines are drawn in, added to each page and form
# that names them by `pdfx`: black overprints (OPM 1: only its own black plate); other colors knock out
OVERPRINT, KNOCKOUT = "CardgenOverprint", "CardgenKnockout"
STROKE_OVERPRINT, STROKE_KNOCKOUT = "CardgenStrokeOverprint", "CardgenStrokeKnockout"
STATES: dict[str, dict[str, bool | int]] = {OVERPRINT: {"/OP": True, "/op": True, "/OPM": 1}, KNOCKOUT: {"/OP": False, "/op": False},
          STROKE_OVERPRINT: {"/OP": True, "/OPM": 1}, STROKE_KNOCKOUT: {"/OP": False}}
FILL_OP = re.compile(r"(?<![\w.])(-?[\d.]+ -?[\d.]+ -?[\d.]+ -?[\d.]+) k\b")
FONT_SIZE = re.compile(r"/\S+ ([\d.]+) Tf")


@cache
def _transform(intent: ImageCms.Intent) -> ImageCms.ImageCmsTransform:
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE)),
                                   "RGB", "CMYK", renderingIntent=intent,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


@lru_cache(maxsize=4096)
def area_ink(rgb: tuple[float, float, float]) -> CMYKColor:
    """An sRGB color as the profile prints it (relative colorimetric, black point compensated)."""
    pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in rgb))
    c, m, y, k = _converted(pixel, ImageCms.Intent.RELATIVE_COLORIMETRIC).tobytes()
    return CMYKColor(c / 255, m / 255, y / 255, k / 255)


def line_ink(rgb: tuple[float, float, float]) -> CMYKColor:
    """Text and lines: black and near-black as black ink at 100 %, a dark gray in black ink
    alone, any other color as an area."""
    lightness, a, b = lab(rgb)
    if math.hypot(a, b) >= NEUTRAL_CHROMA or lightness >= DARK:
        return area_ink(rgb)
    if lightness < BLACK_LIGHTNESS:
        return BLACK
    return CMYKColor(0, 0, 0, 1 - lightness / 100)


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB color."""
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    xyz = [sum(w * v for w, v in zip(row, linear)) / white for row, white in zip(_SRGB_TO_XYZ, _D65)]
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


_SRGB_TO_XYZ = ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))
_D65 = (0.95047, 1.0, 1.08883)


def _cmyk(color: Any, ink: Any) -> CMYKColor:
    """ReportLab's color-space hook: every color the canvas sets passes through here."""
    value = toColor(color)
    if isinstance(value, CMYKColor):
        return value
    if not isinstance(value, Color):
        raise TypeError(f"not a color: {color!r}")
    return ink((value.red, value.green, value.blue))


def _fill(color: Any) -> CMYKColor:
    return _cmyk(color, area_ink)


def _line(color: Any) -> CMYKColor:
    return _cmyk(color, line_ink)


class CmykCanvas(CompactCanvas):
    """A canvas that sets every color in CMYK: fills as areas, strokes and small text as lines;
    black strokes and small black text overprint."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, enforceColorSpace=_fill, **kwargs)
        self._fill_source: Any = None

    def setFillColor(self, aColor: Any, alpha: float | None = None) -> None:  # noqa: N802 (ReportLab's name)
        self._fill_source = aColor
        super().setFillColor(aColor, alpha)

    def setStrokeColor(self, aColor: Any, alpha: float | None = None) -> None:  # noqa: N802 (ReportLab's name)
        ink = _line(aColor)
        super().setStrokeColor(ink, alpha)
        self._code.append(f"/{STROKE_OVERPRINT if ink == BLACK else STROKE_KNOCKOUT} gs")

    def drawText(self, aTextObject: PDFTextObject) -> None:  # noqa: N802
        """Text under SMALL_TEXT_PT in the ink for lines (its own color changes already are), and
        each black run overprinting."""
        code = aTextObject.getCode()  # once: each call closes the text object again
        sizes = [float(size) for size in FONT_SIZE.findall(code)] or [self._fontsize]
        if max(sizes) >= SMALL_TEXT_PT or self._fill_source is None:
            self._code.append(code)
            return
        first = _line(self._fill_source)
        self._code.append(f"q {_text_ink(first.cyan, first.magenta, first.yellow, first.black)} "
                          f"{FILL_OP.sub(lambda m: _text_ink(*map(float, m.group(1).split())), code)} Q")

    def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:  # noqa: N802
        self.setStrokeColor(Color(r, g, b), alpha)

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PDFTextObject:  # noqa: N802
        text = super().beginText(x, y, direction)
        text._enforceColorSpace = _line
        return text


def _text_ink(c: float, m: float, y: float, k: float) -> str:
    """The fill operator of a text run in CMYK, with its overprint state."""
    state = OVERPRINT if (c, m, y, k) == (0, 0, 0, 1) else KNOCKOUT
    return f"/{state} gs {c:g} {m:g} {y:g} {k:g} k"


def cmyk_image(image: Image.Image, background: tuple[int, int, int]) -> Image.Image:
    """An image as the profile prints it (perceptual), transparency flattened onto the color
    behind it: PDF/X-1a allows no transparency."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, background)
        flat.paste(rgba, mask=rgba.getchannel("A"))
        image = flat
    return _converted(image.convert("RGB"), ImageCms.Intent.PERCEPTUAL)


def _converted(image: Image.Image, intent: ImageCms.Intent) -> Image.Image:
    """The RGB image in CMYK. Through the transform's core: ImageCmsTransform.apply also writes
    the whole 1 MB profile into the result's info, 6 ms a call, for every color of a sheet."""
    out = Image.new("CMYK", image.size)
    _transform(intent).transform.apply(image.getim(), out.getim())
    return out


@cache
def _compressed_profile() -> bytes:
    return zlib.compress(PROFILE.read_bytes(), 6)  # level 9 takes 5 times as long for 0.6 % less


def pdfx(pdf: bytes) -> bytes:
    """The PDF as PDF/X-1a:2003: the output profile as its output intent, the version keys and
    the trapping state in its information; identified deterministically."""
    import pikepdf  # here, not at the top: `cardgen check` reaches this module and never writes a PDF

    with pikepdf.open(io.BytesIO(pdf)) as document:
        profile = pikepdf.Stream(document, _compressed_profile(), Filter=pikepdf.Name.FlateDecode, N=4)
        document.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX, OutputConditionIdentifier=CONDITION,
            OutputCondition=CONDITION_NAME, RegistryName="http://www.color.org", Info=CONDITION_NAME,
            DestOutputProfile=profile)])
        document.docinfo[pikepdf.Name.GTS_PDFXVersion] = PDFX_VERSION
        document.docinfo[pikepdf.Name.GTS_PDFXConformance] = PDFX_CONFORMANCE
        document.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
        _add_states(document)
        out = io.BytesIO()
        document.save(out, deterministic_id=True, min_version="1.4", force_version="1.4")
        return out.getvalue()


def _add_states(document: pikepdf.Pdf) -> None:
    """The overprint graphics states in the resources of every page and form that names them."""
    import pikepdf

    states = {name: document.make_indirect(pikepdf.Dictionary({"/Type": pikepdf.Name.ExtGState, **entries}))
              for name, entries in STATES.items()}
    holders = [*document.pages, *(obj for obj in document.objects
                                  if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Form)]
    for holder in holders:
        content = _content(holder)
        named = [name for name in states if f"/{name} gs".encode() in content]
        if not named:
            continue
        resources = holder.obj if isinstance(holder, pikepdf.Page) else holder
        if "/Resources" not in resources:
            resources.Resources = pikepdf.Dictionary()
        if "/ExtGState" not in resources.Resources:
            resources.Resources.ExtGState = pikepdf.Dictionary()
        for name in named:
            resources.Resources.ExtGState[f"/{name}"] = states[name]


def _content(holder: pikepdf.Page | pikepdf.Stream) -> bytes:
    import pikepdf

    if isinstance(holder, pikepdf.Stream):
        return holder.read_bytes()
    contents = holder.obj.get("/Contents")
    streams = contents if isinstance(contents, pikepdf.Array) else [] if contents is None else [contents]
    return b"".join(stream.read_bytes() for stream in streams)
