"""publish/preflight: what a print shop's preflight would flag in a PDF, read from the file itself
(any PDF, not only cardgen's): every point with pass or fail and what fails where.

The file is untrusted. It is read once (a regular file, up to MAX_PDF_BYTES, starting with
%PDF- within its first 1024 bytes); its objects and pages are walked in a worker process under
the build's ceilings of CPU time, memory and wall-clock time, within a budget of objects,
pages, operators and placed forms (past it, the points it covers fail "too complex to check");
the ink is measured by ghostscript on its PDF interpreter alone, under the same ceilings
(preflight/ghostscript.py)."""
from __future__ import annotations

import io
import math
import os
import stat
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pikepdf
import pypdfium2

from cardgen.errors import BuildError, UsageError
from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.publish.limits import Limits, current
from cardgen.publish.preflight.document import check_annotations, check_boxes, check_catalog, check_objects, page_box
from cardgen.publish.preflight.ghostscript import check_ink
from cardgen.publish.preflight.report import (
    ACTIONS,
    ANNOTATIONS,
    BLEND,
    BOXES,
    BUDGET,
    CMYK,
    ENCRYPTION,
    FONTS,
    IMAGES,
    INK,
    INTENT,
    KEYS,
    LAB,
    LINES,
    MIN_PPI,
    RGB_SHADING,
    SAFE_ZONE,
    TRANSPARENCY,
    VERSION,
    WELL_FORMED,
    Budget,
    Checking,
    Malformed,
    Point,
    Report,
    TooComplex,
)
from cardgen.publish.preflight.walk import Drawing, Walker, walk_safe_zone
from cardgen.publish.workers import bounded

__all__ = ["Point", "Report", "preflight"]

MAX_PDF_BYTES = 512 << 20
HEADER_WITHIN = 1024  # where PDF readers look for %PDF-
POINTS = (CMYK, RGB_SHADING, LAB, INTENT, KEYS, VERSION, ENCRYPTION, BOXES, FONTS, TRANSPARENCY, BLEND, ACTIONS,
          ANNOTATIONS, IMAGES, LINES, SAFE_ZONE, INK, WELL_FORMED)
FROM_THE_CATALOG = {INTENT, KEYS, VERSION, ENCRYPTION}  # checked before any budget is spent


@dataclass
class _Examined:
    """What the worker found: the points but the ink, and what measuring the ink needs."""

    points: dict[str, Checking] = field(default_factory=lambda: {name: Checking(name) for name in POINTS})
    pages: int = 0
    largest_page: float = 0.0  # square points
    unreadable: str = ""  # why the file is not a PDF pikepdf reads
    cpu_seconds: float = 0.0

    @property
    def ink_measurable(self) -> bool:
        return self.pages > 0 and all(self.points[name].passed for name in (CMYK, WELL_FORMED))


def preflight(path: Path, limits: Limits | None = None) -> Report:
    """Every point of the file, checked (under `limits`, or the build's ceilings)."""
    limits = current(limits)
    data = _read(path)
    try:
        examined = bounded(lambda: examine(data), "its preflight", limits)
    except BuildError as stopped:
        raise BuildError(f"{path} is too complex to check: {stopped.message}",
                         hint="a print shop's preflight would likely refuse it too") from None
    if examined.unreadable:
        raise BuildError(f"{path} is not a PDF cardgen can read ({examined.unreadable})",
                         hint="give the path of a PDF file")
    ink = examined.points[INK]
    if examined.ink_measurable:
        cpu_left = max(1, limits.cpu_seconds - math.ceil(examined.cpu_seconds))
        check_ink(data, examined.pages, examined.largest_page,
                  replace(limits, cpu_seconds=cpu_left), ink)
    elif ink.passed:
        ink.note = "not measured: the file is not CMYK" if not examined.points[CMYK].passed else \
            "not measured: the file is not well-formed" if examined.pages else "not measured: the file has no pages"
    return Report(path, tuple(point.checked() for point in examined.points.values()))


def _read(path: Path) -> bytes:
    try:
        kind = os.stat(path).st_mode
    except (OSError, ValueError):
        kind = stat.S_IFREG  # the read below says what is wrong
    if not stat.S_ISREG(kind):
        raise UsageError(f"{path} is not a file (a folder, pipe or device cannot be checked)",
                         hint="give the path of a PDF file")
    try:
        data = read_input(path, MAX_PDF_BYTES)
    except UnreadableInput as exc:
        raise BuildError(f"{path} {exc}") from None
    if b"%PDF-" not in data[:HEADER_WITHIN]:
        raise BuildError(f"{path} is not a PDF (it does not start with %PDF-)", hint="give the path of a PDF file")
    return data


def examine(data: bytes) -> _Examined:
    """Every point but the ink, read from the file's bytes: in the worker."""
    examined = _Examined()
    points = examined.points
    stream = io.BytesIO(data)
    try:
        pdf = pikepdf.open(stream)
    except pikepdf.PasswordError:
        points[ENCRYPTION].fail("the file is encrypted with a password: nothing else could be checked")
        for point in points.values():
            point.note = point.note if point.failures else "not checked: the file needs a password"
        return examined
    except pikepdf.PdfError as exc:
        examined.unreadable = _said(exc, stream)
        return examined
    with pdf:
        try:
            _examine(pdf, data, examined, Budget())
        except TooComplex as exc:
            _unfinished(points, f"too complex to check: {exc}")
        except (pikepdf.PdfError, RecursionError) as exc:
            _unfinished(points, f"could not be checked: qpdf could not read the file ({_said(exc, stream)})")
    examined.cpu_seconds = time.process_time()
    return examined


def _examine(pdf: pikepdf.Pdf, data: bytes, examined: _Examined, budget: Budget) -> None:
    points = examined.points
    check_catalog(pdf, points)
    size = pdf.trailer.get("/Size")
    budget.spend("objects", int(size) if isinstance(size, int) and size > BUDGET["objects"] else 0)
    budget.spend("pages", len(pdf.pages))
    check_objects(pdf, points, budget)
    drawings, walker = [], Walker(budget)
    for number, page in enumerate(pdf.pages, start=1):
        try:
            check_boxes(page, number, points[BOXES])
            check_annotations(page, number, points[ANNOTATIONS])
            media = page_box(page, "/MediaBox") or (0, 0, 0, 0)
            examined.largest_page = max(examined.largest_page, (media[2] - media[0]) * (media[3] - media[1]))
        except Malformed as problem:
            points[WELL_FORMED].fail(str(problem), number)
        drawing = walker.page(page)
        _record(drawing, number, points)
        drawings.append(drawing)
    examined.pages = len(drawings)
    try:
        walk_safe_zone(data, pdf, drawings, points[SAFE_ZONE])
    except pypdfium2.PdfiumError as exc:
        points[SAFE_ZONE].fail(f"could not be checked: PDFium could not read the file ({exc})")


def _record(drawing: Drawing, number: int, points: dict[str, Checking]) -> None:
    for what in sorted(drawing.rgb):
        points[CMYK].fail(what, number)
    for what, ppi in drawing.images:
        if ppi < MIN_PPI - 0.5:
            points[IMAGES].fail(f"{what} at {ppi:.0f} ppi", number)
    for width in sorted(set(drawing.thin_lines)):
        points[LINES].fail(f"a line {width:.2f} pt wide", number)
    for problem in sorted(drawing.malformed):
        points[WELL_FORMED].fail(problem, number)


def _unfinished(points: dict[str, Checking], why: str) -> None:
    for name, point in points.items():
        if name not in FROM_THE_CATALOG:
            point.fail(why)


def _said(exc: Exception, stream: io.BytesIO) -> str:
    """The library's message, without the name it gives the in-memory file."""
    said = str(exc)
    for name in (f"stream {stream!r}: ", f"{stream!r}: ", f"{stream!r}"):
        said = said.replace(name, "")
    return said
