"""layout: the pure geometry of card sheets."""
from __future__ import annotations

import itertools

import pytest

from cardgen import layout
from cardgen.layout import MM, Rect

TOL = 0.1 * MM


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right - 1e-6 and b.x < a.right - 1e-6 and a.y < b.top - 1e-6 and b.y < a.top - 1e-6


def segment_hits(line, rect: Rect) -> bool:
    (x1, y1), (x2, y2) = line
    return overlaps(Rect(min(x1, x2), min(y1, y2), abs(x2 - x1) + 1e-3, abs(y2 - y1) + 1e-3), rect)


@pytest.mark.parametrize("paper, size, bleed", [("a4", "poker", 3), ("letter", "poker", 3), ("a4", "bridge", 3),
                                                ("letter", "bridge", 2)])
def test_nine_cards_per_page(paper, size, bleed):
    sheet = layout.make_sheet(paper, size, bleed)
    assert (sheet.cols, sheet.rows) == (3, 3)
    assert sheet.per_page == 9


def test_bridge_cards_with_full_bleed_leave_no_room_for_marks_on_letter():
    assert layout.make_sheet("letter", "bridge", 3).rows == 2


def test_page_and_card_sizes_are_true_size():
    sheet = layout.make_sheet("a4", "poker")
    assert sheet.page_w == pytest.approx(210 * MM) and sheet.page_h == pytest.approx(297 * MM)
    assert sheet.card_w == pytest.approx(63 * MM) and sheet.card_h == pytest.approx(88 * MM)
    letter = layout.make_sheet("letter", "tarot")
    assert (letter.page_w, letter.page_h) == (pytest.approx(612), pytest.approx(792))
    assert (letter.cols, letter.rows) == (2, 2)
    assert layout.make_sheet("a4", "mini").per_page == 16


@pytest.mark.parametrize("spec, expected", [
    ("poker", (63, 88)), ("Bridge", (57, 89)), ("tarot", (70, 120)), ("mini", (44, 63)),
    ("60x90", (60, 90)), ({"width_mm": "50", "height_mm": 70}, (50, 70)), (None, (63, 88)),
])
def test_card_sizes(spec, expected):
    assert layout.card_size_mm(spec) == expected


@pytest.mark.parametrize("spec", ["huge", "63x", "x88", "0x88", "63x900", {"width_mm": 63}])
def test_bad_card_sizes_are_refused(spec):
    with pytest.raises(ValueError):
        layout.card_size_mm(spec)


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
        layout.card_size_mm("300x400")


@pytest.mark.parametrize("paper, size, bleed", [("a4", "poker", 3), ("letter", "poker", 3), ("a4", "mini", 3),
                                                ("letter", "tarot", 2), ("a4", "bridge", 0)])
def test_grid_is_centred_on_the_page_and_cells_never_overlap(paper, size, bleed):
    sheet = layout.make_sheet(paper, size, bleed)
    grid = sheet.grid
    assert grid.x == pytest.approx(sheet.page_w - grid.right)
    assert grid.y == pytest.approx(sheet.page_h - grid.top)
    cells = [sheet.cell(i) for i in range(sheet.per_page)]
    for cell in cells:
        assert cell.x >= 0 and cell.y >= 0 and cell.right <= sheet.page_w and cell.top <= sheet.page_h
    for a, b in itertools.combinations(cells, 2):
        assert not overlaps(a, b)


def test_bleed_extends_every_card_where_there_is_room():
    sheet = layout.make_sheet("a4", "poker", 3)
    outer = sheet.cell(0)  # top-left card: full bleed on its outer edges
    slot = sheet.slot(0)
    assert slot.x - outer.x == pytest.approx(3 * MM)
    assert outer.top - slot.top == pytest.approx(3 * MM)
    # A4 height leaves room for a full 6 mm gutter, so the inner bleed is full there too
    assert sheet.gutter_y == pytest.approx(6 * MM)
    assert slot.y - outer.y == pytest.approx(3 * MM)
    # Letter height does not: neighbours share one cut line
    assert layout.make_sheet("letter", "poker").gutter_y == 0


def test_slots_in_reading_order():
    sheet = layout.make_sheet("a4", "poker")
    first, second, fourth = sheet.slot(0), sheet.slot(1), sheet.slot(3)
    assert second.x > first.x and second.y == first.y
    assert fourth.x == first.x and fourth.y < first.y


@pytest.mark.parametrize("paper, size", [("a4", "poker"), ("letter", "poker"), ("a4", "mini")])
def test_crop_marks_sit_on_cut_lines_and_never_touch_a_card(paper, size):
    sheet = layout.make_sheet(paper, size)
    xs, ys = sheet.cut_lines()
    assert len(xs) == 2 * sheet.cols or sheet.gutter_x == 0
    marks = sheet.crop_marks()
    assert len(marks) == 2 * (len(xs) + len(ys))
    for (x1, y1), (x2, y2) in marks:
        assert any(abs(x1 - x) < TOL and abs(x2 - x) < TOL for x in xs) or \
            any(abs(y1 - y) < TOL and abs(y2 - y) < TOL for y in ys)
        assert 0 <= min(x1, x2) and max(x1, x2) <= sheet.page_w
        assert 0 <= min(y1, y2) and max(y1, y2) <= sheet.page_h
        assert 2 * MM < abs(x2 - x1) + abs(y2 - y1) <= layout.MARK_MAX_MM * MM + 1e-6
    for mark, i in itertools.product(marks, range(sheet.per_page)):
        assert not segment_hits(mark, sheet.cell(i))


def test_every_trim_edge_has_a_cut_line():
    sheet = layout.make_sheet("a4", "poker")
    xs, ys = sheet.cut_lines()
    for i in range(sheet.per_page):
        slot = sheet.slot(i)
        assert min(abs(slot.x - x) for x in xs) < 1e-6 and min(abs(slot.right - x) for x in xs) < 1e-6
        assert min(abs(slot.y - y) for y in ys) < 1e-6 and min(abs(slot.top - y) for y in ys) < 1e-6


def test_backs_mirror_the_faces_for_a_long_edge_flip():
    sheet = layout.make_sheet("a4", "poker")
    for i in range(sheet.per_page):
        face, back = sheet.slot(i), sheet.back_slot(i)
        assert back.x == pytest.approx(sheet.page_w - face.right)
        assert back.y == pytest.approx(face.y)
    # the first card's back is on the right of the back page
    assert sheet.back_slot(0).x == pytest.approx(sheet.slot(2).x)


def test_back_offset_is_applied_as_seen_from_the_front():
    plain = layout.make_sheet("a4", "poker")
    shifted = layout.make_sheet("a4", "poker", offset_mm=(1.0, -2.0))
    back, moved = plain.back_slot(4), shifted.back_slot(4)
    # 1 mm to the right seen from the front is 1 mm to the left on the back page
    assert moved.x - back.x == pytest.approx(-1.0 * MM)
    assert moved.y - back.y == pytest.approx(-2.0 * MM)
    assert shifted.slot(4) == plain.slot(4)  # faces never move


def test_pages():
    assert [len(p) for p in layout.pages(list(range(20)), 9)] == [9, 9, 2]
    assert list(layout.pages([], 9)) == []
