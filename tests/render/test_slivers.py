"""No sliver at a miscut: the default sheets of every shipped game, rasterised at 150 dpi. For each
card placed, the band from 0.1 to 0.5 mm outside its trim line (where a cut 0.5 mm off the line
leaves paper on the card) shows the color just inside the trim, never a neighbour's color or the
white of an empty slot. The cards are found on the page (their forms), their trim from the layout."""
from __future__ import annotations

from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium
import pytest
from conftest import CARD_DATA, cardgen

from cardgen.layout import sheet as layout
from cardgen.layout.sheet import Rect, Sheet
from cardgen.model.sizes import MM

DPI = 150
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


def probes(trim: Rect) -> list[tuple[tuple[float, float], list[tuple[float, float]]]]:
    """Points just inside each side of the trim, each with the points of the band outside it."""
    out = []
    for t in ALONG:
        x, y = trim.x + t * trim.w, trim.y + t * trim.h
        for inner, outward in (((trim.x, y), (-1, 0)), ((trim.right, y), (1, 0)),
                               ((x, trim.y), (0, -1)), ((x, trim.top), (0, 1))):
            (px, py), (dx, dy) = inner, outward
            out.append(((px - dx * INSIDE_MM * MM, py - dy * INSIDE_MM * MM),
                        [(px + dx * d * MM, py + dy * d * MM) for d in OUTSIDE_MM]))
    return out


def sliver_cards(pdf: Path, sheet: Sheet) -> tuple[int, int]:
    """How many cards of the (faces only) sheets show another color in the band outside their
    trim, and how many cards there are."""
    document = pypdfium2.PdfDocument(pdf)
    slivers = cards = 0
    try:
        for page in document:
            image = page.render(scale=DPI / 72).to_pil().convert("RGB")

            def color(point: tuple[float, float]) -> tuple[int, int, int]:
                return image.getpixel((int(point[0] * DPI / 72), int((sheet.page_h - point[1]) * DPI / 72)))

            for index in filled_slots(page, sheet):
                cards += 1
                slivers += any(max(abs(a - b) for a, b in zip(color(inside), color(point))) > SAME
                               for inside, band in probes(sheet.slot(index)) for point in band)
    finally:
        document.close()
    return slivers, cards


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The default card sheets (faces) of a game, paper and size, built once."""
    made: dict[tuple[str, str, str], list[Path]] = {}

    def build(game: str, paper: str, size: str) -> list[Path]:
        if (game, paper, size) not in made:
            out = tmp_path_factory.mktemp(f"{game}-{paper}-{size}")
            code, _, err = cardgen("cards", game, "--paper", paper, "--size", size, "--no-backs", "--out", out)
            assert code == 0, err
            made[game, paper, size] = sorted(out.glob("cards-*.pdf"))
        return made[game, paper, size]

    return build


def check(built, game: str, paper: str, size: str) -> None:
    sheet = layout.make_sheet(paper, size, 3)
    for pdf in built(game, paper, size):
        slivers, cards = sliver_cards(pdf, sheet)
        assert cards and not slivers, f"{pdf.name}: {slivers} of {cards} cards show a sliver"


def test_exploding_puppy_on_a4_shows_no_sliver(built):
    check(built, "exploding_puppy", "a4", "poker")


@pytest.mark.slow  # every shipped game, poker and mini, A4 and Letter
@pytest.mark.parametrize("game, paper, size", CASES)
def test_no_card_of_a_default_sheet_shows_a_sliver(built, game, paper, size):
    check(built, game, paper, size)


@pytest.mark.slow
def test_the_measure_finds_the_slivers_of_shared_cuts(tmp_path):
    """Shared cuts (by choice) still show them: the band test sees a neighbour."""
    code, _, err = cardgen("cards", "exploding_puppy", "--layout", "shared-cuts", "--no-backs", "--out", tmp_path)
    assert code == 0, err
    slivers, cards = sliver_cards(tmp_path / "cards-default.pdf", layout.make_sheet("a4", "poker", 3,
                                                                                   spacing="shared-cuts"))
    assert cards > 90 and slivers > 0
