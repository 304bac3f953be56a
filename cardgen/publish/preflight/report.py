"""publish/preflight/report: the points a shop checks, each passed or failed with what fails on
which pages, and the budget that keeps the reading of an untrusted PDF bounded."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.model.sizes import SAFE_ZONE_MM


@dataclass
class Checking:
    """One point being checked, in the worker: what fails on which pages so far, and a note."""

    name: str
    failures: dict[str, list[int]] = field(default_factory=dict)  # what fails -> the pages (0: the file)
    note: str = ""  # why it was not checked ("not ..."), or how much of the file it covers

    @property
    def passed(self) -> bool:
        return not self.failures

    def fail(self, problem: str, page: int = 0) -> None:
        pages = self.failures.setdefault(problem, [])
        if page and page not in pages:
            pages.append(page)

    def checked(self) -> Point:
        return Point(self.name, tuple((problem, tuple(pages)) for problem, pages in self.failures.items()), self.note)


@dataclass(frozen=True)
class Point:
    """One point a shop checks: passed, or failed with what fails on which pages."""

    name: str
    failures: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (what fails, the pages), as they were found
    note: str = ""

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def problems(self) -> list[str]:
        return [problem + _pages(pages) for problem, pages in self.failures]


def _pages(pages: tuple[int, ...]) -> str:
    if not pages:
        return ""
    shown = ", ".join(map(str, pages[:8])) + (f" and {len(pages) - 8} more" if len(pages) > 8 else "")
    return f" (page{'s' if len(pages) > 1 else ''} {shown})"


@dataclass(frozen=True)
class Report:
    path: Path
    points: tuple[Point, ...]

    @property
    def passed(self) -> bool:
        return all(point.passed for point in self.points)

    def point(self, name: str) -> Point:
        return next(point for point in self.points if point.name == name)

    def lines(self, most: int = 5) -> list[str]:
        out = []
        for point in self.points:
            status = "FAIL" if not point.passed else "n/a " if point.note.startswith("not ") else "pass"
            out.append(f"{status}  {point.name}" + (f" ({point.note})" if point.note else ""))
            out += [f"      {problem}" for problem in point.problems[:most]]
            if len(point.problems) > most:
                out.append(f"      and {len(point.problems) - most} more")
        return out


class TooComplex(Exception):
    """The file asks for more work than the budget allows; the message says what."""


class Malformed(Exception):
    """One object or operator of the file is not what PDF says it must be; the message says how."""


# What the reading of one file may do. The largest shipped game's card sheets and DriveThruCards
# export use a few per cent of it (up to 200 pages, 16,000 forms and images placed, 41,000
# operators and operands parsed); a hostile file runs out of it in a few seconds and a few
# hundred MB.
BUDGET = {
    "objects": 1_000_000,
    "pages": 2_000,
    "content operators and operands": 2_000_000,
    "bytes of page content": 64 << 20,
    "placed forms and images": 500_000,
}
MAX_NESTING = 256  # q within q; PDF's own guideline is 28


class Budget:
    """What is left of BUDGET while one file is read."""

    def __init__(self) -> None:
        self.spent: Counter[str] = Counter()

    def left(self, what: str) -> int:
        return BUDGET[what] - self.spent[what]

    def spend(self, what: str, count: int = 1) -> None:
        if count > self.left(what):
            raise TooComplex(f"more than {BUDGET[what]:,} {what}")
        self.spent[what] += count


# The points, in the order they are listed
CMYK = "CMYK only (no RGB color or image)"
RGB_SHADING = "no RGB shading (gradient)"
LAB = "no Lab color"
INTENT = "PDF/X output intent"
KEYS = "PDF/X-1a:2003 keys (GTS_PDFXVersion, GTS_PDFXConformance, Title, dates, Trapped)"
VERSION = "PDF 1.4 or earlier (PDF/X-1a:2003)"
ENCRYPTION = "no encryption"
BOXES = "TrimBox inside BleedBox inside MediaBox on every page"
FONTS = "every font embedded"
TRANSPARENCY = "no transparency (opacity, soft mask, group)"
BLEND = "no blend mode"
ACTIONS = "no JavaScript or other actions"
ANNOTATIONS = "no annotation inside the bleed"
MIN_PPI = 300
MIN_LINE_PT = 0.25
MAX_INK = 300  # percent
IMAGES = f"images at {MIN_PPI} ppi or more"
LINES = f"no line under {MIN_LINE_PT:g} pt"
SAFE_ZONE = f"text inside the {SAFE_ZONE_MM:g} mm safe zone"
INK = f"total ink at most {MAX_INK} %"
WELL_FORMED = "well-formed (every operator and object as PDF defines it)"
