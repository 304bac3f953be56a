"""render/print_color: CMYK for print shops. Colors and images go from sRGB into the shipped
output profile (ISO Coated v2 300 %, FOGRA39) through littleCMS (Pillow's ImageCms); the PDF
then gets the profile as its PDF/X output intent (pikepdf), so that a shop's preflight accepts
it as PDF/X-1a:2003.

Black: text, lines and marks in a neutral dark are printed with black ink alone (no four inks
to register at the size of a letter); areas go through the profile, which gives dark fills a
rich black within the profile's 300 % ink limit."""
from __future__ import annotations

import io
import zlib
from functools import cache, lru_cache
from typing import Any

import pikepdf
from PIL import Image, ImageCms
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from cardgen.inputs.paths import ART

PROFILE = ART / "icc" / "ISOcoated_v2_300_bas.icc"
CONDITION = "FOGRA39"  # the registered printing condition the profile characterises
CONDITION_NAME = "ISO Coated v2 300% (FOGRA39, basICColor)"
PDFX_VERSION, PDFX_CONFORMANCE = "PDF/X-1:2003", "PDF/X-1a:2003"  # ISO 15930-4: the part, then the conformance level
NEUTRAL = 8 / 255  # channels this close are a gray
DARK = 0.5  # grays darker than this are black ink alone in text and lines


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
    """Text and lines: a dark gray in black ink alone, any other color as an area."""
    if max(rgb) - min(rgb) <= NEUTRAL and sum(rgb) / 3 < DARK:
        return CMYKColor(0, 0, 0, 1 - sum(rgb) / 3)
    return area_ink(rgb)


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


class CmykCanvas(Canvas):
    """A canvas that sets every color in CMYK: fills as areas, strokes and text as lines."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, enforceColorSpace=_fill, **kwargs)

    def setStrokeColor(self, aColor: Any, alpha: float | None = None) -> None:  # noqa: N802 (ReportLab's name)
        super().setStrokeColor(_line(aColor), alpha)

    def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:  # noqa: N802
        self.setStrokeColor(Color(r, g, b), alpha)

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PDFTextObject:  # noqa: N802
        text = super().beginText(x, y, direction)
        text._enforceColorSpace = _line
        return text


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
    with pikepdf.open(io.BytesIO(pdf)) as document:
        profile = pikepdf.Stream(document, _compressed_profile(), Filter=pikepdf.Name.FlateDecode, N=4)
        document.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX, OutputConditionIdentifier=CONDITION,
            OutputCondition=CONDITION_NAME, RegistryName="http://www.color.org", Info=CONDITION_NAME,
            DestOutputProfile=profile)])
        document.docinfo[pikepdf.Name.GTS_PDFXVersion] = PDFX_VERSION
        document.docinfo[pikepdf.Name.GTS_PDFXConformance] = PDFX_CONFORMANCE
        document.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
        out = io.BytesIO()
        document.save(out, deterministic_id=True, min_version="1.4", force_version="1.4")
        return out.getvalue()
