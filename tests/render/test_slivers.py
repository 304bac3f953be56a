"""No sliver at a miscut: the default sheets of every shipped game, rasterised at 150 dpi. For each
card placed, the band from 0.1 to 0.5 mm outside its trim line (where a cut 0.5 mm off the line
leaves paper on the card) shows the color just inside the trim, never a neighbour's color or the
white of an empty slot. The cards are found on the page (their forms), their trim from the layout."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pypdfium2
import pypdfium2.raw as pdfium
import pytest
from conftest import CARD_DATA, cardgen

from cardgen.layout import sheet as layout
from cardgen.layout.sheet import Rect, Sheet
from cardgen.model.sizes import MM

DPI = 150
SCALE = DPI / 72
OUTSIDE_MM = (0.15, 0.3, 0.45)  # the band a cut up to 0.5 mm off the line leaves on the card
INSIDE_MM = 0.3
ALONG = [n / 10 for n in range(1, 10)]  # where on each side, away from the rounded corners
SAME = 24  # channel difference still the same color (antialiasing, JPEG art)
GAMES = sorted(path.name for path in CARD_DATA.iterdir() if (path / "game.yaml").is_file())
CASES = [(game, paper, size) for game in GAMES for paper in ("a4", "letter") for size in ("poker", "mini")]


def filled_slots(page: pypdfium2.PdfPage, sheet: Sheet) -> list[int]:
    """The slots a card form is placed on."""
    boxes = [obj.get_bounds() for obj in page.get_objects(filter=(pdfium.FPDF_PAGEOBJ_FORM,), max_depth=1)]
    return [index for index in range(sheet.per_page)
            if any(x0 <= sheet.slot(index).x + sheet.slot(index).w / 2 <= x1
                   and y0 <= sheet.slot(index).y + sheet.slot(index).h / 2 <= y1 for x0, y0, x1, y1 in boxes)]


def probes(trim: Rect) -> list[list[tuple[tuple[float, float], list[tuple[float, float]]]]]:
    """For each side of the trim, points just inside it, each with the points of the band outside it."""
    sides: list[list] = [[], [], [], []]
    for t in ALONG:
        x, y = trim.x + t * trim.w, trim.y + t * trim.h
        for side, (inner, outward) in zip(sides, (((trim.x, y), (-1, 0)), ((trim.right, y), (1, 0)),
                                                  ((x, trim.y), (0, -1)), ((x, trim.top), (0, 1)))):
            (px, py), (dx, dy) = inner, outward
            side.append(((px - dx * INSIDE_MM * MM, py - dy * INSIDE_MM * MM),
                         [(px + dx * d * MM, py + dy * d * MM) for d in OUTSIDE_MM]))
    return sides


def pixel_colors(page: pypdfium2.PdfPage, pixels: np.ndarray) -> np.ndarray:
    """The RGB colors of these pixels (columns, rows) of the page rasterised at DPI. Only the
    rectangle of pixels holding them is rendered: the page drawn at the same scale with its origin
    moved by whole pixels, so each pixel is the one a render of the whole page has."""
    width, height = math.ceil(page.get_width() * SCALE), math.ceil(page.get_height() * SCALE)
    (c0, r0), (c1, r1) = pixels.min(axis=0), pixels.max(axis=0) + 1
    assert c0 >= 0 and r0 >= 0 and c1 <= width and r1 <= height, "a probe off the page"
    # render() rounds each amount cut off up to whole pixels: half a pixel less is exactly that many
    crop = [(n - 0.5) / SCALE for n in (c0, height - r1, width - c1, r0)]
    image = page.render(scale=SCALE, crop=crop, rev_byteorder=True).to_numpy()
    assert image.shape[:2] == (r1 - r0, c1 - c0)
    return image[pixels[:, 1] - r0, pixels[:, 0] - c0].astype(np.int16)


def sliver_cards(pdf: Path, sheet: Sheet) -> tuple[int, int]:
    """How many cards of the (faces only) sheets show another color in the band outside their
    trim, and how many cards there are."""
    document = pypdfium2.PdfDocument(pdf)
    slivers = cards = 0
    try:
        for page in document:
            for index in filled_slots(page, sheet):
                cards += 1
                sliver = False
                for side in probes(sheet.slot(index)):
                    points = [point for inside, band in side for point in (inside, *band)]
                    pixels = np.array([(int(x * SCALE), int((sheet.page_h - y) * SCALE)) for x, y in points])
                    colors = pixel_colors(page, pixels).reshape(len(side), -1, 3)  # inside, then its band
                    sliver |= bool((np.abs(colors[:, 1:] - colors[:, :1]).max(axis=2) > SAME).any())
                slivers += sliver
    finally:
        document.close()
    return slivers, cards


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    """The default card sheets (faces) of a game, paper and size, built and measured once (the quick
    test and its case among all the games read the same sheets): each file's slivers and cards."""
    made: dict[tuple[str, str, str], list[tuple[str, int, int]]] = {}

    def measure(game: str, paper: str, size: str) -> list[tuple[str, int, int]]:
        if (game, paper, size) not in made:
            out = tmp_path_factory.mktemp(f"{game}-{paper}-{size}")
            code, _, err = cardgen("cards", game, "--paper", paper, "--size", size, "--no-backs", "--out", out)
            assert code == 0, err
            sheet = layout.make_sheet(paper, size, 3)
            made[game, paper, size] = [(pdf.name, *sliver_cards(pdf, sheet)) for pdf in sorted(out.glob("cards-*.pdf"))]
        return made[game, paper, size]

    return measure


def check(measured, game: str, paper: str, size: str) -> None:
    files = measured(game, paper, size)
    assert files
    for name, slivers, cards in files:
        assert cards and not slivers, f"{name}: {slivers} of {cards} cards show a sliver"


def test_exploding_puppy_on_a4_shows_no_sliver(measured):
    check(measured, "exploding_puppy", "a4", "poker")


@pytest.mark.slow  # every shipped game, poker and mini, A4 and Letter
@pytest.mark.parametrize("game, paper, size", CASES)
def test_no_card_of_a_default_sheet_shows_a_sliver(measured, game, paper, size):
    check(measured, game, paper, size)


@pytest.mark.slow
def test_the_measure_finds_the_slivers_of_shared_cuts(tmp_path):
    """Shared cuts (by choice) still show them: the band test sees a neighbour."""
    code, _, err = cardgen("cards", "exploding_puppy", "--layout", "shared-cuts", "--no-backs", "--out", tmp_path)
    assert code == 0, err
    slivers, cards = sliver_cards(tmp_path / "cards-default.pdf", layout.make_sheet("a4", "poker", 3,
                                                                                   spacing="shared-cuts"))
    assert cards > 90 and slivers > 0
