"""render/documents/booklet: rulebook-booklet.pdf, the rulebook as a saddle-stitched booklet.

The rulebook is set on pages half the paper's size (A5 for A4, half-letter for Letter) at the
same type sizes, padded with blank pages to a multiple of 4 and imposed two pages to a sheet side
(landscape) in saddle-stitch order (layout.booklet), with a fold mark at the middle of each side.
Printed duplex, flipped on the short edge, the sheets stack into a booklet folded down the middle.
"""
from __future__ import annotations

import io
from pathlib import Path

from cardgen.check.results import GameDiff, GameReport
from cardgen.layout.booklet import saddle_stitch_sides
from cardgen.model.sizes import DEFAULT_PAPER, PAPERS_MM
from cardgen.render.documents.html import render_pdf
from cardgen.render.documents.rulebook import rulebook_context
from cardgen.render.write import atomic_write

PAGE_SIZES = {"a4": "A5", "letter": "5.5in 8.5in"}  # a booklet page: half the sheet, CSS @page size
BOOKLET_COUNT_PAIRS = 2  # (card, count) pairs side by side in a setup's table: three crowd an A5 page
PLAYER_COLUMNS = 5  # player counts a table of figures shows side by side on the narrower page
PT_A_MM = 72 / 25.4
FOLD_MARK_MM = 6.0  # the fold mark's length at the top and the bottom edge


def write_rulebook_booklet(game, report: GameReport, out_dir: Path, paper: str = DEFAULT_PAPER,
                           changes: GameDiff | None = None) -> Path:
    context = dict(rulebook_context(game, report, changes), booklet=True, page_size=PAGE_SIZES[paper],
                   player_columns=PLAYER_COLUMNS, count_pairs=BOOKLET_COUNT_PAIRS)
    pages = render_pdf(game, "rulebook.html", context, paper)
    return atomic_write(Path(out_dir) / "rulebook-booklet.pdf", imposed(pages, paper))


def imposed(pages_pdf: bytes, paper: str) -> bytes:
    """The booklet's pages two to a landscape sheet side, in saddle-stitch order: each page a form
    drawn at full size (half the sheet), named by its number (same input, same bytes)."""
    import pikepdf  # here, not at the top: `cardgen check` reaches this module and makes no PDF

    short, long = (side * PT_A_MM for side in PAPERS_MM[paper])
    width, height = long, short  # landscape
    with pikepdf.open(io.BytesIO(pages_pdf)) as pages, pikepdf.new() as sheets:
        count = len(pages.pages)
        for left, right in saddle_stitch_sides(count):
            side = sheets.add_blank_page(page_size=(width, height))
            drawn = []
            for number, x in ((left, 0.0), (right, width / 2)):
                if number <= count:  # beyond: a blank page
                    form = sheets.copy_foreign(pages.pages[number - 1].as_form_xobject())
                    name = side.add_resource(form, pikepdf.Name.XObject, name=f"/Page{number}")
                    drawn.append(f"q 1 0 0 1 {x:.2f} 0 cm {name} Do Q")
            side.contents_add(sheets.make_stream(" ".join(drawn).encode() + b" " + _fold_mark(width, height)))
        sheets.docinfo["/Title"] = pages.docinfo.get("/Title", "")
        out = io.BytesIO()
        sheets.save(out, deterministic_id=True)
    return out.getvalue()


def _fold_mark(width: float, height: float) -> bytes:
    """A thin dashed line at the middle of the top and the bottom edge: where to fold."""
    mark = FOLD_MARK_MM * PT_A_MM
    middle = width / 2
    return (f"q 0.5 w 0.4 g 0.4 G [2 2] 0 d {middle:.2f} {height:.2f} m {middle:.2f} {height - mark:.2f} l S "
            f"{middle:.2f} 0 m {middle:.2f} {mark:.2f} l S Q").encode()
