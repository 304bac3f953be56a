"""rulebook-booklet.pdf (`cardgen rulebook --booklet`): A5 pages (half-letter on Letter) at the
rulebook's type sizes, padded to a multiple of 4, two to a landscape sheet side in saddle-stitch
order, with a fold mark; read back."""
from __future__ import annotations

import re
from collections import Counter

import pytest
from conftest import CARD_DATA, cardgen, checked, page_chars

from cardgen.layout.booklet import padded_count, saddle_stitch_sides
from cardgen.render.documents.booklet import write_rulebook_booklet

pytestmark = pytest.mark.slow

MM = 72 / 25.4
FOOTER_MM = 14  # the page numbers sit in the bottom margin of each half


@pytest.fixture(scope="module")
def booklets(tmp_path_factory):
    """Zombie Kittens' booklets: an 8-page A4 rulebook, more A5 pages than a multiple of 4 (Exploding
    Puppy's 22-page rulebook shows nothing more, at four times the layout work). The A4 one as
    `cardgen rulebook --booklet` writes it; the Letter one by the booklet's renderer alone (the
    command would lay out the rulebook and its HTML edition again, which this file does not read)."""
    out = tmp_path_factory.mktemp("a4")
    code, _, err = cardgen("rulebook", CARD_DATA / "zombie_kittens", "--booklet", "--paper", "a4", "--out", out)
    assert code == 0, err
    game, report = checked("zombie_kittens")
    letter = write_rulebook_booklet(game, report, tmp_path_factory.mktemp("letter"), "letter")
    return {"a4": out / "rulebook-booklet.pdf", "letter": letter}


def test_the_saddle_stitch_order():
    assert padded_count(45) == 48 and padded_count(4) == 4 and padded_count(1) == 4
    assert saddle_stitch_sides(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]


def footer_number(chars, x0, x1) -> int | None:
    digits = "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"])
                     if x0 <= c["x0"] < x1 and c["y1"] < FOOTER_MM * MM)
    return int(digits) if re.fullmatch(r"\d+", digits) else None


@pytest.mark.parametrize("paper, size", [("a4", (841.89, 595.28)), ("letter", (792.0, 612.0))])
def test_two_half_size_pages_a_landscape_side_in_saddle_stitch_order(booklets, paper, size):
    import pdfplumber

    with pdfplumber.open(booklets[paper]) as pdf:
        sides = len(pdf.pages)
        assert {(round(p.width), round(p.height)) for p in pdf.pages} == {(round(size[0]), round(size[1]))}
    assert (2 * sides) % 4 == 0
    order = saddle_stitch_sides(2 * sides)
    numbered = 0
    for (left, right), chars in zip(order, page_chars(booklets[paper])):
        for expected, x0, x1 in ((left, 0, size[0] / 2), (right, size[0] / 2, size[0])):
            shown = footer_number(chars, x0, x1)
            if shown is not None:
                assert shown == expected, (paper, left, right, shown)
                numbered += 1
    assert numbered > sides  # most halves carry their number (not the title page, nor the blank ones)


def test_body_text_at_least_9_pt_and_a_fold_mark(booklets):
    sizes = Counter(round(c["size"], 1) for page in page_chars(booklets["a4"]) for c in page)
    body, _ = sizes.most_common(1)[0]
    assert body >= 9
    import pikepdf

    with pikepdf.open(booklets["a4"]) as pdf:
        for page in pdf.pages:
            drawn = b"".join(c.read_bytes() for c in page.obj.Contents) if isinstance(page.obj.Contents, pikepdf.Array) \
                else page.obj.Contents.read_bytes()
            assert b"420.94 595.28 m 420.94" in drawn  # the dashed fold line at the middle of the top edge
