"""layout: the pure geometry of card sheets."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from cardgen.layout import cutter
from cardgen.layout import sheet as layout
from cardgen.layout.sheet import Rect
from cardgen.model import sizes
from cardgen.model.sizes import MM

DOCS = Path(__file__).parents[2] / "docs"

TOL = 0.1 * MM


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right - 1e-6 and b.x < a.right - 1e-6 and a.y < b.top - 1e-6 and b.y < a.top - 1e-6


def segment_hits(line, rect: Rect) -> bool:
    (x1, y1), (x2, y2) = line
    return overlaps(Rect(min(x1, x2), min(y1, y2), abs(x2 - x1) + 1e-3, abs(y2 - y1) + 1e-3), rect)


# cards a sheet: dense (the default), gutter, shared cuts, gutterfold; at bleed 0, 3 and 5 mm
PER_PAGE = {
    ("a4", "poker"): [(9, 9, 9, 4), (9, 6, 9, 4), (9, 4, 9, 4)],
    ("a4", "bridge"): [(9, 9, 9, 4), (9, 9, 9, 4), (9, 6, 9, 4)],
    ("a4", "tarot"): [(4, 4, 4, 2), (4, 4, 4, 2), (4, 4, 4, 2)],
    ("a4", "mini"): [(18, 16, 16, 8), (18, 16, 16, 8), (18, 12, 16, 8)],
    ("letter", "poker"): [(9, 9, 9, 4), (8, 4, 9, 4), (8, 4, 9, 3)],
    ("letter", "bridge"): [(8, 6, 6, 4), (8, 6, 6, 4), (8, 6, 6, 4)],
    ("letter", "tarot"): [(4, 4, 4, 2), (4, 4, 4, 2), (4, 4, 4, 2)],
    ("letter", "mini"): [(18, 16, 16, 8), (16, 12, 16, 8), (16, 9, 16, 6)],
}
COMBOS = [(paper, size, bleed) for paper, size in PER_PAGE for bleed in (0, 3, 5)]
SHEETS = [(paper, size, bleed, mode, spacing) for paper, size, bleed in COMBOS
          for mode in sizes.PRINT_MODES for spacing in sizes.SPACINGS]


@pytest.mark.parametrize("paper, size", PER_PAGE)
def test_cards_a_sheet(paper, size):
    got = [(layout.make_sheet(paper, size, bleed).per_page,
            layout.make_sheet(paper, size, bleed, spacing="gutter").per_page,
            layout.make_sheet(paper, size, bleed, spacing="shared-cuts").per_page,
            layout.make_sheet(paper, size, bleed, mode="gutterfold").per_page) for bleed in (0, 3, 5)]
    assert got == PER_PAGE[paper, size]


def test_dense_keeps_a_safe_bleed_between_neighbours():
    """Gaps of twice the bleed where they cost no card, else narrower down to a bleed of
    SAFE_BLEED_MM each side: never a shared cut (with bleed)."""
    for paper, size in PER_PAGE:
        for bleed in (1, 3, 5):
            sheet = layout.make_sheet(paper, size, bleed)
            assert not sheet.shares_cuts
            assert sheet.shared_bleed >= min(bleed, layout.SAFE_BLEED_MM) * MM - 1e-6
    a4 = layout.make_sheet("a4", "bridge", 3)
    assert (a4.cols, a4.rows, a4.sideways) == (3, 3, False)  # gaps of twice the bleed cost no card
    assert (a4.gutter_x, a4.gutter_y) == (pytest.approx(6 * MM), pytest.approx(6 * MM))
    poker = layout.make_sheet("a4", "poker", 3)  # 3 mm between columns; the grid moves up to leave the ruler room
    assert (poker.per_page, poker.gutter_x / MM, poker.gutter_y / MM) == (9, pytest.approx(3), pytest.approx(6))
    assert poker.shift[1] > 0 and poker.info_side == "bottom"
    mini = layout.make_sheet("a4", "mini", 3)
    assert (mini.cols, mini.rows, mini.sideways, mini.face_turn) == (3, 6, True, 90)


def test_what_gutters_cost_is_said():
    gutter = layout.make_sheet("letter", "poker", 3, spacing="gutter")
    assert layout.spacing_note(gutter, "letter", "gutter") == (
        "note: --layout gutter: 4 63x88 mm cards a sheet on letter, each with its bleed on every side "
        "(8 a sheet without --layout gutter)")
    dense = layout.make_sheet("a4", "poker", 3)
    assert layout.spacing_note(dense, "a4", "dense") == (
        "note: 9 63x88 mm cards a sheet on a4 with 1.5 mm of bleed towards their neighbours (a cut 0.5 mm off the "
        "line shows no neighbour); --layout gutter: 6 a sheet, with 3 mm everywhere")
    shared = layout.make_sheet("letter", "poker", 3, spacing="shared-cuts")
    assert layout.spacing_note(shared, "letter", "shared-cuts") == (
        "note: --layout shared-cuts: neighbouring cards share one cut line, with no bleed towards each other: a cut "
        "0.5 mm off the line shows a sliver of the neighbour (the default layout: 8 cards a sheet with bleed between "
        "them; --layout gutter: 4)")
    assert layout.spacing_note(layout.make_sheet("a4", "tarot", 3), "a4", "dense") is None


def test_the_docs_table_of_cards_a_sheet_is_the_layouts():
    text = (DOCS / "printing.md").read_text(encoding="utf-8")
    table = text.split("<!-- cards-a-sheet -->")[1].split("<!-- /cards-a-sheet -->")[0].strip().splitlines()[2:]
    documented = {row.split("|")[1].strip(): [cell.strip() for cell in row.split("|")[3:-1]] for row in table}
    assert set(documented) == set(sizes.CARD_SIZES_MM)
    for size, cells in documented.items():
        made = [layout.make_sheet(paper, size, 3, **options) for paper in ("a4", "letter")
                for options in ({}, {"spacing": "gutter"}, {"mode": "gutterfold"})]
        assert cells == [f"{s.per_page}" + (" (on their side)" if s.sideways else "") for s in made], size


def test_the_docs_table_of_cards_inside_a_machines_marks_is_the_layouts():
    text = (DOCS / "printing.md").read_text(encoding="utf-8")
    table = text.split("<!-- machine-cards-a-sheet -->")[1].split("<!-- /machine-cards-a-sheet -->")[0]
    documented = {row.split("|")[1].strip(): [cell.strip() for cell in row.split("|")[2:-1]]
                  for row in table.strip().splitlines()[2:]}
    assert set(documented) == set(sizes.CARD_SIZES_MM)
    for size, cells in documented.items():
        made = [cutter.make_machine_sheet(paper, size, bleed, (0, 0), "long-edge", "dense", "silhouette")
                for paper in ("a4", "letter") for bleed in (3, 1)]
        assert cells == [f"{s.per_page}" + (" (on their side)" if s.sideways else "")
                         + (" (landscape)" if s.page_w > s.page_h else "") for s in made], size


def test_cards_are_grouped_by_edge_color_in_the_order_they_come():
    cards = ["r1", "b1", "r2", "g1", "b2", "r3"]
    assert layout.edge_order(cards, lambda card: card[0]) == ["r1", "r2", "r3", "b1", "b2", "g1"]


def test_page_and_card_sizes_are_true_size():
    sheet = layout.make_sheet("a4", "poker")
    assert sheet.page_w == pytest.approx(210 * MM) and sheet.page_h == pytest.approx(297 * MM)
    assert sheet.card_w == pytest.approx(63 * MM) and sheet.card_h == pytest.approx(88 * MM)
    letter = layout.make_sheet("letter", "tarot")
    assert (letter.page_w, letter.page_h) == (pytest.approx(612), pytest.approx(792))
    assert (letter.cols, letter.rows) == (2, 2)


@pytest.mark.parametrize("spec, expected", [
    ("poker", (63, 88)), ("Bridge", (57, 89)), ("tarot", (70, 120)), ("mini", (44, 63)),
    ("60x90", (60, 90)), ({"width_mm": "50", "height_mm": 70}, (50, 70)), (None, (63, 88)),
])
def test_card_sizes(spec, expected):
    assert sizes.card_size_mm(spec) == expected


@pytest.mark.parametrize("spec", ["huge", "63x", "x88", "0x88", "63x900", {"width_mm": 63}])
def test_bad_card_sizes_are_refused(spec):
    with pytest.raises(ValueError):
        sizes.card_size_mm(spec)


def test_offsets():
    assert layout.parse_offset(None) == (0, 0)
    assert layout.parse_offset("0.5,-1") == (0.5, -1)
    for bad in ("1", "a,b", "1,2,3", "30,0"):
        with pytest.raises(ValueError):
            layout.parse_offset(bad)


@pytest.mark.parametrize("offset", [(25, 0), (0, -21), (float("nan"), 0)])
def test_offsets_have_a_range(offset):
    with pytest.raises(ValueError, match="offset"):
        layout.make_sheet("a4", "poker", offset_mm=offset)


@pytest.mark.parametrize("bleed", [-1, 11, float("nan")])
def test_bleed_has_a_range(bleed):
    with pytest.raises(ValueError, match="bleed"):
        layout.make_sheet("a4", "poker", bleed)


def test_card_too_big_for_the_paper():
    with pytest.raises(ValueError, match="does not fit"):
        layout.make_sheet("a4", "250x300")


def test_card_size_out_of_range_says_so():
    with pytest.raises(ValueError, match=r"300x400 mm is out of range \(20 to 300 mm\)"):
        sizes.card_size_mm("300x400")


def sheet_of(paper, size, bleed, mode, spacing, offset=(0.0, 0.0)):
    return layout.make_sheet(paper, size, bleed, offset, mode, spacing)


def every_cell(sheet) -> list[Rect]:
    """The bleed boxes of the page that carries the faces (and the backs beside them)."""
    cells = [sheet.cell(i) for i in range(sheet.per_page)]
    return cells + ([sheet.back_cell(i) for i in range(sheet.per_page)] if sheet.backs_beside_faces else [])


@pytest.mark.parametrize("paper, size, bleed, mode, spacing", SHEETS)
def test_every_card_has_its_bleed_and_nothing_overlaps(paper, size, bleed, mode, spacing):
    sheet = sheet_of(paper, size, bleed, mode, spacing)
    assert (sheet.gutter_x, sheet.gutter_y) == (2 * bleed * MM, 2 * bleed * MM) or spacing != "gutter"
    for i in range(sheet.per_page):
        slot, cell = sheet.slot(i), sheet.cell(i)
        sides = (slot.x - cell.x, slot.y - cell.y, cell.right - slot.right, cell.top - slot.top)
        row, col = divmod(i, sheet.cols)
        outside = (col == 0, row == sheet.rows - 1, col == sheet.cols - 1, row == 0)
        halves = (sheet.gutter_x / 2, sheet.gutter_y / 2) * 2
        # full bleed on the sheet's outer edges; towards a neighbour up to the middle of the gap
        assert [pytest.approx(bleed * MM if out else min(bleed * MM, half))
                for out, half in zip(outside, halves)] == list(sides)
    cells = every_cell(sheet)
    trim_margin = (layout.PRINT_EDGE_MM + layout.MARK_GAP_MM + layout.MARK_MIN_MM) * MM
    for cell in cells:
        assert cell.x >= -1e-6 and cell.y >= -1e-6 and cell.right <= sheet.page_w + 1e-6
        assert cell.top <= sheet.page_h + 1e-6
    for slot in map(sheet.slot, range(sheet.per_page)):  # room for crop marks outside the printer's edge
        assert slot.x >= trim_margin - 1e-6 and slot.y >= trim_margin - 1e-6
        assert slot.right <= sheet.area.right - trim_margin + 1e-6 and slot.top <= sheet.page_h - trim_margin + 1e-6
    for a, b in itertools.combinations(cells, 2):
        assert not overlaps(a, b)


@pytest.mark.parametrize("paper, size, bleed, mode, spacing", SHEETS)
def test_crop_marks_sit_on_cut_lines_inside_the_printable_area_and_never_on_a_card(
        paper, size, bleed, mode, spacing):
    """Outside every bleed where there is room; else over the outer bleed only (the cut takes it away)."""
    sheet = sheet_of(paper, size, bleed, mode, spacing)
    xs, ys = sheet.cut_lines()
    marks = sheet.crop_marks()
    assert len(marks) == 2 * (len(xs) + len(ys))
    edge = layout.PRINT_EDGE_MM * MM
    area = sheet.area  # gutterfold: the faces' half; marks keep 5 mm from the fold too
    for (x1, y1), (x2, y2) in marks:
        assert any(abs(x1 - x) < TOL and abs(x2 - x) < TOL for x in xs) or \
            any(abs(y1 - y) < TOL and abs(y2 - y) < TOL for y in ys)
        assert min(x1, x2) >= edge - 1e-6 and max(x1, x2) <= area.right - edge + 1e-6
        assert min(y1, y2) >= edge - 1e-6 and max(y1, y2) <= sheet.page_h - edge + 1e-6
        assert layout.MARK_MIN_MM * MM - 1e-6 <= abs(x2 - x1) + abs(y2 - y1) <= layout.MARK_MAX_MM * MM + 1e-6
    grid = sheet.grid
    for mark in marks:
        assert not segment_hits(mark, grid.inset(-layout.MARK_GAP_MM * MM + 1e-3))
        if not sheet.marks_over_bleed():
            assert not any(segment_hits(mark, cell) for cell in every_cell(sheet))


@pytest.mark.parametrize("paper, size, bleed", COMBOS)
def test_the_fold_runs_between_the_faces_and_the_backs(paper, size, bleed):
    sheet = sheet_of(paper, size, bleed, "gutterfold", "dense")
    (x, y1), (_, y2) = sheet.fold_line
    assert x == pytest.approx(sheet.page_w / 2)
    assert (y1, y2) == pytest.approx((sheet.outer.y, sheet.outer.top))  # the height of the cards' bleed
    assert y1 >= 0 and y2 <= sheet.page_h
    for i in range(sheet.per_page):
        assert sheet.cell(i).right <= x + 1e-6 <= sheet.back_cell(i).x + 2e-6
        assert x - sheet.slot(i).right >= (layout.PRINT_EDGE_MM + layout.MARK_MIN_MM) * MM
    assert sheet_of(paper, size, bleed, "long-edge", "gutter").fold_line is None


def test_every_trim_edge_has_a_cut_line():
    sheet = layout.make_sheet("a4", "poker")
    xs, ys = sheet.cut_lines()
    for i in range(sheet.per_page):
        slot = sheet.slot(i)
        assert min(abs(slot.x - x) for x in xs) < 1e-6 and min(abs(slot.right - x) for x in xs) < 1e-6
        assert min(abs(slot.y - y) for y in ys) < 1e-6 and min(abs(slot.top - y) for y in ys) < 1e-6


def through_the_sheet(sheet, rect: Rect) -> Rect:
    """Where a rectangle of the back side is seen from the front after the mode's flip or fold."""
    if sheet.mode == "short-edge":
        return Rect(rect.x, sheet.page_h - rect.top, rect.w, rect.h)
    return Rect(sheet.page_w - rect.right, rect.y, rect.w, rect.h)


@pytest.mark.parametrize("mode", sizes.PRINT_MODES)
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.0, -2.0)])
def test_each_back_lands_on_its_face_after_the_flip_or_fold(mode, offset):
    if mode == "gutterfold" and any(offset):
        with pytest.raises(ValueError, match="folded, not flipped"):
            layout.make_sheet("a4", "poker", 3, offset, mode)
        return
    sheet = layout.make_sheet("a4", "poker", 3, offset, mode)
    for i in range(sheet.per_page):
        seen = through_the_sheet(sheet, sheet.back_slot(i))
        wanted = sheet.slot(i).moved(offset[0] * MM, offset[1] * MM)
        assert (seen.x, seen.y, seen.w, seen.h) == pytest.approx((wanted.x, wanted.y, wanted.w, wanted.h), abs=1e-6)
    assert sheet.slot(0) == layout.make_sheet("a4", "poker", 3, mode=mode).slot(0)  # faces never move


def test_the_first_cards_back_is_on_the_far_side_of_a_long_edge_back_page():
    sheet = layout.make_sheet("a4", "poker", 0)
    assert sheet.back_slot(0).x == pytest.approx(sheet.slot(2).x)
    short = layout.make_sheet("a4", "poker", 0, mode="short-edge")
    assert short.back_slot(0).y == pytest.approx(short.slot(6).y) and short.back_turn == 180


@pytest.mark.parametrize("size, mode, turn", [("mini", "long-edge", 270), ("mini", "short-edge", 90),
                                              ("poker", "gutterfold", 270)])
def test_backs_of_cards_on_their_side_stand_as_their_faces_after_the_flip(size, mode, turn):
    """A face turned 90 degrees (its top to the left): through a flip about the vertical middle
    its top edge lands on the right, so its back is turned the other way; through a short-edge
    flip it stays on the left."""
    sheet = layout.make_sheet("a4", size, 3, mode=mode)
    assert sheet.sideways and sheet.face_turn == 90 and sheet.back_turn == turn


def test_pages():
    assert [len(p) for p in layout.pages(list(range(20)), 9)] == [9, 9, 2]
    assert list(layout.pages([], 9)) == []


@pytest.mark.parametrize("paper, size", PER_PAGE)
def test_a_card_beside_an_empty_slot_keeps_its_full_bleed(paper, size):
    sheet = layout.make_sheet(paper, size, 3)
    count = sheet.per_page - sheet.cols - 1  # the last row empty, and the slot before it
    cells = [sheet.cell(i, count) for i in range(count)]
    for i, cell in enumerate(cells):
        row, col = divmod(i, sheet.cols)
        slot = sheet.slot(i)
        if i + 1 == count and col < sheet.cols - 1:
            assert cell.right - slot.right == pytest.approx(3 * MM)
        if i + sheet.cols >= count and row < sheet.rows - 1:
            assert slot.y - cell.y == pytest.approx(3 * MM)
    for i, j in itertools.permutations(range(count), 2):  # no card paints where a miscut of another lands
        assert not overlaps(cells[i], sheet.slot(j).inset(-layout.MISCUT_MM * MM))
