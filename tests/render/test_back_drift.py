"""Backs with room for drift: the first back page of every shipped game's card sheet, rasterised at
150 dpi. For each back placed, the trim is shifted by 1 mm left, right, up and down (a printer's
duplex shift) and the cut card's margins are measured: along lines across each side (away from the
corners), the distance from the shifted trim inward to the first pixel of a color the back's bleed
does not have (its border, emblem or title). Within CLEAR_MM of the cut there is only the bleed's
background and pattern, and each margin stays within 60/40 of the opposite one (docs/printing.md)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2
import pypdfium2.raw as pdfium
import pytest
from conftest import CARD_DATA, cardgen, page_texts

from cardgen.layout import sheet as layout
from cardgen.layout.sheet import Rect, Sheet
from cardgen.model.sizes import MM

DPI = 150
PIXEL = 72 / DPI  # points
SHIFT_MM = 1.0
CLEAR_MM = 5.0  # nothing but the bleed's colors this close to a cut 1 mm off the trim
MOST_UNEVEN = 0.6  # the larger of two opposite margins, 1 mm off, as a part of both (60/40)
BLEED_BAND_MM = (0.2, 1.2)  # the bleed sampled between these distances outside the trim
ALONG = [n / 20 for n in range(2, 19)]  # where across each side: away from the rounded corners
SAME = 24  # channel difference still the same color (antialiasing)
SHIFTS = [(-SHIFT_MM, 0.0), (SHIFT_MM, 0.0), (0.0, -SHIFT_MM), (0.0, SHIFT_MM)]
SIDES = {"left": (1, 0), "right": (-1, 0), "bottom": (0, 1), "top": (0, -1)}  # inward, in page points
OPPOSITE = {"left": "right", "right": "left", "bottom": "top", "top": "bottom"}
GAMES = sorted(path.name for path in CARD_DATA.iterdir() if (path / "game.yaml").is_file())


class BackPage:
    """A rasterised back page and the trims of the backs placed on it."""

    def __init__(self, pdf: Path, sheet: Sheet):
        document = pypdfium2.PdfDocument(pdf)
        try:
            page = document[1]  # the first sheet's backs
            self.pixels = page.render(scale=DPI / 72, rev_byteorder=True).to_numpy().astype(np.int16)  # RGB
            forms = [obj.get_bounds() for obj in page.get_objects(filter=(pdfium.FPDF_PAGEOBJ_FORM,), max_depth=1)]
        finally:
            document.close()
        self.page_h = sheet.page_h
        self.trims = [trim for trim in (sheet.back_slot(index) for index in range(sheet.per_page))
                      if any(x0 <= trim.x + trim.w / 2 <= x1 and y0 <= trim.y + trim.h / 2 <= y1
                             for x0, y0, x1, y1 in forms)]

    def colors(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """The colors of the pixels at these points (page points, from the bottom left)."""
        return self.pixels[((self.page_h - ys) / PIXEL).astype(int), (xs / PIXEL).astype(int)]

    def bleed_colors(self, trim: Rect) -> np.ndarray:
        """The colors of the back's bleed: a band just outside its trim along each side."""
        depths = np.arange(*BLEED_BAND_MM, PIXEL / MM)
        seen = []
        for side, (ix, iy) in SIDES.items():
            starts = np.array(edge_points(trim, side, [n / 200 for n in range(10, 191)]))
            seen.append(self.colors(starts[:, :1] - ix * depths * MM, starts[:, 1:] - iy * depths * MM).reshape(-1, 3))
        return np.unique(np.concatenate(seen), axis=0)

    def margins(self, trim: Rect, bleed: np.ndarray) -> dict[tuple[float, float], dict[str, float]]:
        """For the trim cut 1 mm off each way, the least distance (mm) across each side from the
        cut inward to a color the bleed has not."""
        out: dict[tuple[float, float], dict[str, float]] = {shift: {} for shift in SHIFTS}
        for side, (ix, iy) in SIDES.items():
            reach = (trim.w if side in ("left", "right") else trim.h) / 2
            steps = np.arange(int(reach / PIXEL))
            starts = np.array([point for dx, dy in SHIFTS for point in edge_points(trim.moved(dx * MM, dy * MM), side, ALONG)])
            here = self.colors(starts[:, :1] + ix * steps * PIXEL, starts[:, 1:] + iy * steps * PIXEL)  # a line a row
            unseen = not_in(here, bleed)
            found = np.where(unseen.any(axis=1), unseen.argmax(axis=1) * PIXEL / MM, reach / MM)
            for shift, lines in zip(SHIFTS, found.reshape(len(SHIFTS), len(ALONG))):
                out[shift][side] = min(reach / MM, *lines)
        return out


def not_in(colors: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Which of the colors differ by more than SAME in some channel from every known color (each
    distinct color compared once)."""
    codes = (colors.astype(np.int32) * (1 << 16, 1 << 8, 1)).sum(axis=-1)
    distinct, where = np.unique(codes, return_inverse=True)
    rgb = np.stack([distinct >> 16, (distinct >> 8) & 255, distinct & 255], axis=-1)
    return (np.abs(known[None] - rgb[:, None]).max(axis=2).min(axis=1) > SAME)[where].reshape(codes.shape)


def edge_points(trim: Rect, side: str, along: list[float]) -> list[tuple[float, float]]:
    """Points on one side of the trim (just inside it), at these parts of its length."""
    inside = PIXEL / 2
    return [{"left": (trim.x + inside, trim.y + t * trim.h), "right": (trim.right - inside, trim.y + t * trim.h),
             "bottom": (trim.x + t * trim.w, trim.y + inside), "top": (trim.x + t * trim.w, trim.top - inside)}[side]
            for t in along]


def drift_margins(pdf: Path) -> list[dict[tuple[float, float], dict[str, float]]]:
    """For each back on the first back page: its margins (mm, by side) when cut 1 mm off each way."""
    page = BackPage(pdf, layout.make_sheet("a4", "poker", 3))
    assert page.trims, f"{pdf.name}: no back found on its back page"
    out = []
    for trim in page.trims:
        bleed = page.bleed_colors(trim)
        out.append(page.margins(trim, bleed))
    return out


def uneven(margins: dict[str, float]) -> float:
    """The larger part two opposite margins make of their sum, the worse of the two pairs."""
    return max(margins[side] / (margins[side] + margins[OPPOSITE[side]]) for side in SIDES)


def build(game: str | Path, out: Path) -> Path:
    code, _, err = cardgen("cards", game, "--paper", "a4", "--size", "poker", "--out", out)
    assert code == 0, err
    return sorted(out.glob("cards-*.pdf"))[0]


def check(pdf: Path) -> None:
    for number, shifted in enumerate(drift_margins(pdf), 1):
        for (dx, dy), margins in shifted.items():
            where = f"{pdf.parent.name}, back {number} cut {dx:+g},{dy:+g} mm off: margins {margins}"
            assert min(margins.values()) >= CLEAR_MM, where
            assert uneven(margins) <= MOST_UNEVEN, where


@pytest.mark.slow
def test_exploding_puppys_backs_show_no_frame_near_a_cut_1_mm_off(tmp_path):
    check(build("exploding_puppy", tmp_path / "exploding_puppy"))


@pytest.mark.slow  # every shipped game's backs
@pytest.mark.parametrize("game", [game for game in GAMES if game != "exploding_puppy"])
def test_no_shipped_back_shows_a_frame_near_a_cut_1_mm_off(tmp_path, game):
    check(build(game, tmp_path / game))


@pytest.mark.slow
def test_the_measure_sees_a_border_near_the_trim(game_copy, tmp_path):
    """The old back (its border 3.6 mm inside the trim): 1 mm off, the border comes within 3 mm of
    the cut on one side and the margins split worse than 60/40."""
    folder = game_copy("exploding_puppy")
    layout_file = folder / "layout.yaml"
    layout_file.write_text(layout_file.read_text(encoding="utf-8").replace("back: {", "back: {inset: 3.6, ", 1),
                           encoding="utf-8")
    shifted = drift_margins(build(folder, tmp_path / "out"))[0]
    assert all(min(margins.values()) < 3 for margins in shifted.values()), shifted
    assert all(uneven(margins) > MOST_UNEVEN for margins in shifted.values()), shifted


def test_a_border_set_past_the_middle_still_leaves_the_title_a_box(game_copy, tmp_path):
    """The title sits just inside the border, but keeps a box however far in a game sets it."""
    folder = game_copy()
    (folder / "layout.yaml").write_text("back: {inset: 40}\n", encoding="utf-8")
    code, out, err = cardgen("cards", folder, "--out", tmp_path / "out")
    assert code == 0, out + err
    (pdf,) = (tmp_path / "out").glob("cards-*.pdf")
    assert "Tiny Hazards" in " ".join(page_texts(pdf)[1].split())
