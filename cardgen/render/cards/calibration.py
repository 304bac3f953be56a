"""render/cards/calibration: a sheet to read a printer's duplex offset: scales on the front, cross\nlines on the back, read against a light."""
from __future__ import annotations

from pathlib import Path

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from cardgen.errors import BuildError
from cardgen.layout import cutter
from cardgen.layout import sheet as layout
from cardgen.layout.reportlab_config import reproducible
from cardgen.layout.sheet import Rect, Sheet
from cardgen.layout.textfit import Fonts
from cardgen.model import sizes
from cardgen.model.game import Game
from cardgen.model.sizes import DEFAULT_PAPER, MM
from cardgen.model.words import gettext, marked
from cardgen.render.cards.cutfiles import write_cut_files
from cardgen.render.cards.sheets import draw_registration_marks, new_canvas, write_output
from cardgen.render.cards.subsets import save_tagged
from cardgen.render.write import output_dir

CALIBRATION_REACH_MM = 15  # the calibration scales read offsets up to this many mm


def write_calibration(game: Game, out_dir=None, *, paper: str = DEFAULT_PAPER, offset: tuple[float, float] = (0, 0),
                      mode: str = "long-edge", png: bool = False, marks: str = "") -> Path:
    """calibration-<paper>.pdf: a front with scales and a back with cross lines, to read the
    duplex offset of a printer (flipping on the `mode`'s edge) against a light; with a cutting
    machine's `marks`, its alignment sheet instead."""
    if marks:
        return write_machine_calibration(game, out_dir, paper=paper, marks=marks, png=png)
    try:
        sheet = layout.make_sheet(paper, sizes.DEFAULT_CARD_SIZE, 0, offset, mode)
    except ValueError as exc:
        raise BuildError(str(exc)) from None
    if sheet.backs_beside_faces:
        raise BuildError("a gutterfold sheet is folded, not printed double-sided: it needs no calibration")
    with reproducible():
        fonts = Fonts(game.design)
        canvas = new_canvas(game, sheet, fonts, "duplex calibration", backs=True)
        _draw_calibration_front(canvas, sheet, fonts)
        canvas.showPage()
        _draw_calibration_back(canvas, sheet, fonts)
        canvas.showPage()
        pdf = save_tagged(canvas)
    return write_output(pdf, output_dir(game, out_dir) / f"calibration-{paper}.pdf", png)


def write_machine_calibration(game: Game, out_dir=None, *, paper: str, marks: str, png: bool = False) -> Path:
    """calibration-<machine>-<paper>.pdf and its cut file: the machine's marks and test squares
    printed as thin lines where the cut file cuts them (in the corners of the marks' frame and in
    the middle). Cut it: where the cut leaves each printed line tells the machine's alignment."""
    spec = cutter.machine(marks)
    width, height = sizes.paper_size_mm(paper)
    sheet = Sheet(width * MM, height * MM, width * MM, height * MM, 0, 1, 1, machine=marks)
    squares = _test_squares(spec, sheet)
    with reproducible():
        fonts = Fonts(game.design)
        canvas = new_canvas(game, sheet, fonts, f"{marks} calibration", backs=False)
        draw_registration_marks(canvas, sheet)
        canvas.setLineWidth(0.3)
        for square in squares:
            canvas.rect(square.box.x, square.box.y, square.box.w, square.box.h, stroke=1, fill=0)
        canvas.setFont(fonts["text"], 9)
        for number, line in enumerate(_lines(gettext(MACHINE_STEPS), fonts["text"], 9, sheet.page_w - 50 * MM)):
            canvas.drawCentredString(sheet.page_w / 2, (sheet.page_h - TEST_SQUARE_MM * MM) / 2 - 8 * MM - 12 * number,
                                     line)
        canvas.showPage()
        pdf = save_tagged(canvas)
    path = write_output(pdf, output_dir(game, out_dir) / f"calibration-{marks}-{paper}.pdf",
                        png)
    write_cut_files(path, sheet, squares)
    return path


MACHINE_STEPS = marked("Print at 100 % (actual size), open the .cut.svg in your machine's software on the same page, "
                       "with its registration marks on at the settings in docs/printing.md, and cut. Each cut should "
                       "run on its printed square: a cut beside the line shows the machine's offset.")
TEST_SQUARE_MM = 20


def _lines(text: str, font: str, size: float, width: float) -> list[str]:
    """A paragraph broken into lines of at most `width` points (said in any language's length)."""
    return simpleSplit(text, font, size, width)


def _test_squares(spec: cutter.Machine, sheet: Sheet) -> list[cutter.Outline]:
    """Squares near the corners of the marks' frame (clear of the marks) and one in the middle."""
    side, reach = TEST_SQUARE_MM * MM, (spec.inset + spec.keep + spec.thickness) * MM
    places = [(reach, sheet.page_h - reach - side), (sheet.page_w - reach - side, reach),
              (reach, reach), (sheet.page_w - reach - side, sheet.page_h - reach - side),
              ((sheet.page_w - side) / 2, (sheet.page_h - side) / 2)]
    return [cutter.Outline(Rect(x, y, side, side), 0.0) for x, y in places]


def _draw_calibration_front(canvas: Canvas, sheet: Sheet, fonts: Fonts) -> None:
    """Two scales the back's cross lines run through: the vertical line crosses the horizontal
    scale, the horizontal line the vertical one. Labels are the correction to pass as offset."""
    cx, cy = sheet.page_w / 2, sheet.page_h / 2
    reach = CALIBRATION_REACH_MM
    canvas.setLineWidth(0.3)
    canvas.setFont(fonts["text"], 8)
    scale_y, scale_x = cy + 45 * MM, cx + 45 * MM  # where the two scales sit
    for d in range(-reach, reach + 1):
        tick = (1.5 if d % 5 else 3.5) * MM
        canvas.line(cx + d * MM, scale_y - tick, cx + d * MM, scale_y + tick)
        canvas.line(scale_x - tick, cy + d * MM, scale_x + tick, cy + d * MM)
        if d % 5 == 0:
            canvas.drawCentredString(cx + d * MM, scale_y - 7 * MM, f"{-d:+d}" if d else "0")
            canvas.drawString(scale_x + 5 * MM, cy + d * MM - 3, f"{-d:+d}" if d else "0")
    canvas.setFont(fonts["bold"], 9)
    canvas.drawCentredString(cx, scale_y + 6 * MM, "X")
    canvas.drawCentredString(scale_x, cy + (reach + 4) * MM, "Y")
    heading = (gettext("Duplex calibration (%(mode)s): print this sheet double-sided, flipping on the short edge.")
               if sheet.mode == "short-edge" else
               gettext("Duplex calibration (%(mode)s): print this sheet double-sided, flipping on the long edge.")
               ) % {"mode": sheet.mode}
    steps = gettext("Hold it against a light: the back shows one long cross. X is where its vertical line crosses "
                    "the upper scale, Y where its horizontal line crosses the right-hand scale (millimetres). "
                    "Build the cards with")
    after = gettext("adding the readings to the offset this sheet was printed with, if any.")
    drift = gettext("Each reading is the correction itself: a line 2 mm right of the 0 reads -2. The shift can vary "
                    "from sheet to sheet: print this sheet three times and use the middle reading of each scale. "
                    "The shipped card backs hide a shift of up to 1 mm.")
    width = sheet.page_w - 30 * MM
    lines = [(fonts["bold"], 11, line) for line in _lines(heading, fonts["bold"], 11, width)]
    lines += [(fonts["text"], 10, line) for line in _lines(steps, fonts["text"], 10, width)]
    lines += [(fonts["bold"], 10, f"cardgen cards GAME --mode {sheet.mode} --offset X,Y")]
    lines += [(fonts["text"], 10, line) for line in _lines(f"{after} {drift}", fonts["text"], 10, width)]
    y = sheet.page_h - 25 * MM
    for font, size, line in lines:
        canvas.setFont(font, size)
        canvas.drawCentredString(cx, y, line)
        y -= 15


def _draw_calibration_back(canvas: Canvas, sheet: Sheet, fonts: Fonts) -> None:
    """The cross through the centre, shifted by the offset as seen from the front, through the
    sheet: where the printer puts it tells the offset still needed."""
    dx, dy = sheet.back_offset
    centre = sheet.turn(Rect(sheet.page_w / 2 + dx, sheet.page_h / 2 + dy, 0, 0))
    canvas.setLineWidth(0.5)
    canvas.line(centre.x, 20 * MM, centre.x, sheet.page_h - 20 * MM)
    canvas.line(20 * MM, centre.y, sheet.page_w - 20 * MM, centre.y)
    canvas.setFont(fonts["text"], 9)
    canvas.drawCentredString(sheet.page_w / 2, 12 * MM, gettext("Back of the calibration sheet: one cross through the "
                                                                "centre."))
