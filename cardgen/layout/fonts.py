"""layout/fonts: the layout's fonts as ReportLab knows them, and their measures.

Each font file is registered with ReportLab once per process, under a name made from its content
(so equal fonts give equal PDFs anywhere). Registering parses the whole font; measuring a text
needs only each character's advance, the ascent and the descent. So a `Fonts` made to measure
(`measure_only`: the check) reads those from the font's tables (inputs/ttf_metrics.py, ReportLab's
own numbers) and registers its fonts with ReportLab only when a text is set in a Paragraph
(`Fonts.use`, which the type setter calls first) or the build's workers are about to fork
(`register_pending`: each worker has them then).
Every measure below is ReportLab's, from the font registered or from its tables alike."""
from __future__ import annotations

import hashlib
import importlib.util
import io
from collections.abc import Callable
from functools import cache
from pathlib import Path

from cardgen.errors import BuildError
from cardgen.inputs.files import MAX_FONT_BYTES, UnreadableInput, read_input
from cardgen.inputs.paths import ART
from cardgen.inputs.ttf_metrics import Metrics, ttf_metrics
from cardgen.layout.reportlab_config import reproducible
from cardgen.model.layout import Layout

# ReportLab's C accelerator measures strings its own way: then every font is measured registered
_ACCELERATED = importlib.util.find_spec("_rl_accel") is not None
_MEASURED: dict[str, Metrics] = {}  # fonts measured from their tables, by ReportLab name
_PENDING: list[Fonts] = []  # made to measure, not registered yet
_IN_USE: list[Fonts] = []  # the Fonts whose mapping ReportLab's (global) font mapping is now


class Fonts:
    """The layout's font roles, each a ReportLab font name; registered with ReportLab at once, or
    (`measure_only`) when a text is first set."""

    def __init__(self, design: Layout, measure_only: bool = False):
        self.files = dict(design.fonts)
        self.roles = {role: _font_file(path)[0] for role, path in self.files.items()}
        self.family = self.roles["text"]
        self.registered = False
        if measure_only and all(_measured(path) for path in self.files.values()):
            _PENDING.append(self)
        else:
            self.register()

    def __getitem__(self, role: str) -> str:
        return self.roles[role]

    def register(self) -> None:
        """Register the fonts with ReportLab (each font file once a process)."""
        if self.registered:
            return
        for path in self.files.values():
            _register_font(path)
        self.registered = True

    def use(self) -> None:
        """Register the fonts, and make ReportLab's font mapping this layout's, as a process that
        registers only them has it: each font a family of its own, then the text family (<b>,
        <i>). A Paragraph sets every run of text through that mapping, and it is global: a font
        another layout's family took in (its heavy font as that layout's bold, say) would be set
        as a font of that family."""
        if _IN_USE == [self]:
            return
        from reportlab.pdfbase import pdfmetrics

        self.register()
        for name in self.roles.values():
            pdfmetrics.registerFontFamily(name)
        pdfmetrics.registerFontFamily(self.family, normal=self.roles["text"], bold=self.roles["bold"],
                                      italic=self.roles["italic"], boldItalic=self.roles["bold_italic"])
        _IN_USE[:] = [self]


def register_pending() -> None:
    """Register every font made to measure so far: before the workers fork (each has them then)."""
    while _PENDING:
        _PENDING.pop().register()


@cache
def _font_file(path: Path) -> tuple[str, bytes]:
    """The font's ReportLab name, from its content, and its bytes."""
    try:
        data = read_input(path, MAX_FONT_BYTES, (path.parent.parent, ART))
    except UnreadableInput as exc:
        raise BuildError(f"font {path.name} {exc}", str(path), "replace or remove the file in fonts/") from None
    return f"{path.stem}-{hashlib.sha1(data).hexdigest()[:6]}", data


def _measured(path: Path) -> bool:
    """Whether the font's measures are read from its tables (else it is registered to be measured)."""
    name, data = _font_file(path)
    if name not in _MEASURED and not _ACCELERATED:
        metrics = ttf_metrics(data)
        if metrics is not None:
            _MEASURED[name] = metrics
    return name in _MEASURED


@cache
def _register_font(path: Path) -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    name, data = _font_file(path)
    with reproducible():  # the font keeps the settings it is made with
        pdfmetrics.registerFont(TTFont(name, io.BytesIO(data)))  # load checked that it can
    return name


# --------------------------------------------------------------------------- measures


def advances(font: str) -> tuple[dict[int, float], float]:
    """The font's advance of each character and its default one (a character it lacks), at size 1000."""
    measured = _MEASURED.get(font)
    if measured is not None:
        return measured.char_widths, measured.default_width
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(font).face
    return face.charWidths, face.defaultWidth


def string_width(text: str, font: str, size: float) -> float:
    """pdfmetrics.stringWidth: the text's width at `size`, as ReportLab sums it."""
    measured = _MEASURED.get(font)
    if measured is None:
        from reportlab.pdfbase import pdfmetrics

        return float(pdfmetrics.stringWidth(text, font, size))
    width: Callable[[int, float], float] = measured.char_widths.get
    default = measured.default_width
    return 0.001 * size * sum(width(ord(character), default) for character in text)  # ReportLab's own sum


def ascent_descent(font: str, size: float) -> tuple[float, float]:
    """pdfmetrics.getAscentDescent: the font's ascent and descent at `size`."""
    measured = _MEASURED.get(font)
    if measured is None:
        from reportlab.pdfbase import pdfmetrics

        ascent, descent = pdfmetrics.getAscentDescent(font, size)
        return ascent, descent
    if not size:
        return measured.ascent, measured.descent
    norm = size / 1000.
    return measured.ascent * norm, measured.descent * norm
