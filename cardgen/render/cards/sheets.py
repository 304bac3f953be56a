"""render/cards/sheets: print-and-play card sheets with ReportLab.

Each distinct card face (and the one back) is drawn once as a PDF form and placed on the
sheets as often as the setup needs it, clipped to its cell: so a 90-card deck costs about as
much as its 30 distinct cards, and the faces are identical wherever they appear. Positions
come from `layout` (pure geometry), the card design from the game's Layout (checked by load).
"""
from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from cardgen.check.results import SetupReport
from cardgen.errors import BuildError
from cardgen.layout import cutter
from cardgen.layout import sheet as layout
from cardgen.layout.reportlab_config import reproducible
from cardgen.layout.sheet import Rect, Sheet
from cardgen.layout.textfit import Fonts
from cardgen.model.file_names import sheet_file_name
from cardgen.model.game import Card, Game
from cardgen.model.sizes import MM
from cardgen.model.texts import cards as cards_of
from cardgen.model.words import gettext, marked
from cardgen.render import pdfpages, print_color
from cardgen.render.cards.cutfiles import write_cut_files
from cardgen.render.cards.painter import CardPainter
from cardgen.render.cards.subsets import save_tagged
from cardgen.render.compact import CompactCanvas
from cardgen.render.write import atomic_write, output_dir

PNG_DPI = 150
CROP_MARK_WIDTH = 0.3  # points
CROP_MARK_HALO = 1.5  # the white line under marks over the bleed
FOLD_LINE_WIDTH = 0.4
RULER_LINE_WIDTH = 0.25
HINT_SIZE = 5.0  # points: two lines fill the ruler's strip


# --------------------------------------------------------------------------- public entry points


def write_setup_sheets(game: Game, setup_report: SetupReport, sheet: Sheet, out_dir: str | os.PathLike[str] | None = None,
                       *, players: int | None = None, backs: bool = True, png: bool = False,
                       placeholders: set[str] | None = None, cmyk: bool = False, swaps: tuple[str, ...] = (),
                       reprint: dict[str, int] | None = None, deck: str | None = None) -> Path:
    """cards-<setup>.pdf: the setup's print counts (or its deck at `players`) on sheets; a reprint
    (cards-<setup>-reprint.pdf) holds its own counts, after a page with the swap list. With `deck`,
    cards-<setup>-<deck>.pdf: only that deck's cards."""
    setup = setup_report.setup
    if reprint is not None:
        counts = reprint
    elif players is None:
        counts = setup_report.print_counts
    else:
        counts = setup_report.player_count(players).print_counts
    cards = [card for card in _in_deck(game, deck) for _ in range(counts.get(card.id, 0))]
    if not cards and reprint is None:
        raise BuildError(f"{setup.name}: the setup has no cards with a known count to print", setup.where)
    name = sheet_file_name(setup.id, deck)
    path = output_dir(game, out_dir) / (name.replace(".pdf", "-reprint.pdf") if reprint is not None else name)
    return write_sheet(game, render_sheets(game, cards, sheet, backs, placeholders, cmyk, swaps), path, sheet, png,
                       len(cards))


def write_proof_sheet(game: Game, sheet: Sheet, out_dir: str | os.PathLike[str] | None = None, *, backs: bool = True,
                      png: bool = False, placeholders: set[str] | None = None, cmyk: bool = False,
                      deck: str | None = None, name: str | None = None) -> Path:
    """cards-all-types.pdf: one of every card type (cards-all-types-<deck>.pdf: of that deck's); with
    `name`, cards-<name>.pdf (a `print: all` deck's)."""
    cards = _in_deck(game, deck)
    file_name = sheet_file_name(name) if name else sheet_file_name("all-types", deck)
    return write_sheet(game, render_sheets(game, cards, sheet, backs, placeholders, cmyk),
                       output_dir(game, out_dir) / file_name, sheet, png, len(cards))


def _in_deck(game: Game, deck: str | None) -> list[Card]:
    """The game's cards of one deck (None: every card)."""
    return [card for card in game.cards if deck is None or card.deck == deck]



def render_sheets(game: Game, cards: list[Card], sheet: Sheet, backs: bool = True,
                  placeholders: set[str] | None = None, cmyk: bool = False, swaps: tuple[str, ...] = ()) -> bytes:
    """The PDF bytes: face pages, each followed by its back page (or with the backs beside the
    faces, gutterfold); in CMYK as PDF/X-1a when `cmyk`. The names of cards drawn with
    placeholders (no art) go into `placeholders` when given."""
    with reproducible():
        pdf = _render_sheets(game, cards, sheet, backs, placeholders, cmyk, swaps)
    return print_color.pdfx(pdf) if cmyk else pdf


def _render_sheets(game: Game, cards: list[Card], sheet: Sheet, backs: bool,
                   placeholders: set[str] | None, cmyk: bool, swaps: tuple[str, ...]) -> bytes:
    fonts = Fonts(game.design)
    canvas = new_canvas(game, sheet, fonts, "cards", backs, cmyk)
    if swaps:
        _draw_swap_list(canvas, sheet, fonts, swaps, len(cards))
        canvas.showPage()
        if backs and not sheet.backs_beside_faces:
            canvas.showPage()  # its back stays blank: every sheet of faces keeps its backs behind it
    painter = CardPainter(game, canvas, sheet)
    _note_placeholders(cards, placeholders)
    again = _Again(canvas)
    slots: dict[int, tuple[list[tuple[Rect, Rect]], list[tuple[Rect, Rect]]]] = {}  # by the cards on a page
    for page in layout.pages(placing_order(game, cards, sheet), sheet.per_page):
        if len(page) not in slots:
            slots[len(page)] = ([(sheet.slot(i), sheet.cell(i, len(page))) for i in range(len(page))],
                                [(sheet.back_slot(i), sheet.back_cell(i, len(page))) for i in range(len(page))]
                                if backs else [])
        faces, placed = slots[len(page)]
        _set_boxes(canvas, faces + (placed if sheet.backs_beside_faces else []))
        for card, (slot, cell) in zip(page, faces):
            again.place(painter.face_form(card), slot, cell, sheet.face_turn)
        again.draw("marks", lambda: _draw_marks(canvas, sheet, fonts, backs))
        if placed and sheet.backs_beside_faces:
            _place_backs(again, painter, sheet, page, placed)
            again.draw("fold", lambda: _draw_fold_line(canvas, sheet))
        canvas.showPage()
        if placed and not sheet.backs_beside_faces:
            _set_boxes(canvas, placed)
            _place_backs(again, painter, sheet, page, placed)
            canvas.showPage()
    pdf = save_tagged(canvas)
    painter.done()  # the canvas and every page it holds go at once, not at the next garbage collection
    return pdf


class _Again:
    """What every sheet draws alike (its crop marks, print hint, the frame of each slot a card is
    placed in) drawn once on the canvas, then its PDF operators repeated as ReportLab wrote them:
    so a thousand pages cost ReportLab's drawing calls once. Only self-contained drawing is
    repeated: between a saveState and its restoreState, which leave the canvas's state as it was."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.code: dict[object, list[str]] = {}

    def draw(self, key: object, draw) -> None:
        code = self.canvas._code  # the page's operators, as ReportLab keeps them
        if key in self.code:
            code.extend(self.code[key])
            return
        start = len(code)
        draw()
        self.code[key] = code[start:]

    def place(self, form: str, slot: Rect, cell: Rect, turn: int = 0) -> None:
        """`place`, its frame (clip and move, inside a saveState) repeated slot by slot."""
        canvas, code, key = self.canvas, self.canvas._code, (slot, cell, turn)
        if key in self.code:  # the frame's operators, then the form and the restoreState's (the state is as it was)
            code.extend(self.code[key])
            canvas.doForm(form)
            code.append("Q")
            return
        start = len(code)
        canvas.saveState()
        _frame(canvas, slot, cell, turn)
        self.code[key] = code[start:]
        canvas.doForm(form)
        canvas.restoreState()


SWAP_SIZE = 10.0  # points


def _draw_swap_list(canvas: Canvas, sheet: Sheet, fonts: Fonts, swaps: tuple[str, ...], cards: int) -> None:
    """The reprint's first page: its title, then the swap list, line by line (on further columns
    when long)."""
    title, *lines = swaps
    margin, leading = 18 * MM, SWAP_SIZE * 1.4
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(fonts["bold"], 14)
    canvas.drawString(margin, sheet.page_h - margin, gettext("Reprint: %(title)s") % {"title": title})
    canvas.setFont(fonts["text"], SWAP_SIZE)
    canvas.drawString(margin, sheet.page_h - margin - 20,
                      gettext("%(cards)s to print on the next sheets. To update a printed deck:") % {"cards": cards_of(cards)}
                      if lines else gettext("Nothing changed in this setup's deck."))
    per_column = max(1, int((sheet.page_h - 2 * margin - 40) / leading))
    width = (sheet.page_w - 2 * margin) / max(1, math.ceil(len(lines) / per_column))
    for index, line in enumerate(lines):
        column, row = divmod(index, per_column)
        x, y = margin + column * width, sheet.page_h - margin - 40 - row * leading
        canvas.rect(x, y - 1, SWAP_SIZE * 0.7, SWAP_SIZE * 0.7, stroke=1, fill=0)  # a box to tick
        canvas.drawString(x + SWAP_SIZE, y, line)


def placing_order(game: Game, cards: list[Card], sheet: Sheet) -> list[Card]:
    """The cards in the order they fill the slots: grouped by their edge color where cards share
    cut lines (`--layout shared-cuts`), else as given."""
    if not sheet.shares_cuts:
        return cards
    return layout.edge_order(cards, lambda card: game.color(card.color).hex.lower())


def _place_backs(again: _Again, painter: CardPainter, sheet: Sheet, page: list[Card],
                 placed: list[tuple[Rect, Rect]]) -> None:
    """Each card's own back where it lands behind its face."""
    for card, (slot, cell) in zip(page, placed):
        again.place(painter.back_form(card), slot, cell, sheet.back_turn)


def write_sheet(game: Game, pdf: bytes, path: Path, sheet: Sheet, png: bool, cards: int) -> Path:
    """The card sheets' PDF, and beside it, for a print-then-cut sheet, the cut files of each
    sheet (<name>-sheet01.cut.svg ...), cutting only where that sheet has a card."""
    write_output(pdf, path, png)
    if sheet.machine:
        for number, count in enumerate(cutter.sheet_counts(cards, sheet.per_page), start=1):
            outlines = cutter.outlines(sheet, game.design.design.corner, count)
            write_cut_files(path.with_name(f"{path.stem}-sheet{number:02d}.pdf"), sheet, outlines)
    return path


def write_output(pdf: bytes, path: Path, png: bool) -> Path:
    atomic_write(path, pdf)
    if png:
        write_pngs(pdf, path)
    return path


def write_pngs(pdf: bytes, path: Path, dpi: int = PNG_DPI) -> list[Path]:
    """<name>-p01.png ... beside the PDF, one per page."""
    written = []
    for number, image in enumerate(pdfpages.page_images(pdf, dpi / 72), start=1):
        data = io.BytesIO()
        image.save(data, "PNG")
        written.append(atomic_write(path.with_name(f"{path.stem}-p{number:02d}.png"), data.getvalue()))
    return written


DUPLEX = {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge", "gutterfold": "Simplex"}
HINTS = {  # said in the sheet's language (model.words)
    "long-edge": marked("Print double-sided, flipping on the long edge, then cut on the crop marks."),
    "short-edge": marked("Print double-sided, flipping on the short edge, then cut on the crop marks."),
    "gutterfold": marked("Print single-sided, fold on the dashed line (backs behind faces), glue, then cut on the "
                         "crop marks."),
    "faces": marked("Print single-sided, then cut on the crop marks."),
}
SCALE_HINT = marked("Print at 100 % / actual size (no fit to page): the scale must measure 50 mm and 2 in.")


def new_canvas(game: Game, sheet: Sheet, fonts: Fonts, what: str, backs: bool,
               cmyk: bool = False) -> Canvas:
    """A canvas (setting every color in CMYK when `cmyk`) whose document says what it is, embeds
    every font it names (the text font is the initial font, not Helvetica) and asks viewers to
    print at 100 % on the mode's duplex edge."""
    # explicit settings win over ~/.reportlab_settings; invariant: fixed date and id
    canvas = (print_color.CmykCanvas if cmyk else CompactCanvas)(
        (sheet.page_w, sheet.page_h), initialFontName=fonts["text"], initialFontSize=10, initialLeading=12)
    canvas.setTitle(f"{game.title}: {what}")
    canvas.setAuthor(game.author or game.title)
    canvas.setSubject(f"{game.title} {game.version}".strip() + f": print-and-play {what}, "
                      f"{sheet.card_w / MM:g}x{sheet.card_h / MM:g} mm, {_mode_of(sheet, backs)}")
    canvas.setCreator("cardgen")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", DUPLEX[sheet.mode] if backs else "Simplex")
    return canvas


def _mode_of(sheet: Sheet, backs: bool) -> str:
    return sheet.mode if backs else "faces only"


def _set_boxes(canvas: Canvas, placed: list[tuple[Rect, Rect]]) -> None:
    """The next page's TrimBox (around the cards' trim lines) and BleedBox (around their bleed)."""
    for name, rects in (("trim", [slot for slot, _ in placed]), ("bleed", [cell for _, cell in placed])):
        canvas.setCropBox((min(r.x for r in rects), min(r.y for r in rects),
                           max(r.right for r in rects), max(r.top for r in rects)), name=name)


# where a form's origin goes in its slot, as fractions of the slot's width and height, by turn
_TURN_ORIGIN = {0: (0, 0), 90: (1, 0), 180: (1, 1), 270: (0, 1)}


def place(canvas: Canvas, form: str, slot: Rect, cell: Rect, turn: int = 0) -> None:
    """A card's form on its slot, clipped to its cell, turned `turn` degrees anticlockwise (a
    card on its side, a short-edge back)."""
    canvas.saveState()
    _frame(canvas, slot, cell, turn)
    canvas.doForm(form)
    canvas.restoreState()


def _frame(canvas: Canvas, slot: Rect, cell: Rect, turn: int) -> None:
    """Clip to the cell; the origin at the slot's corner the card's form starts from."""
    path = canvas.beginPath()
    path.rect(cell.x, cell.y, cell.w, cell.h)
    canvas.clipPath(path, stroke=0, fill=0)
    fx, fy = _TURN_ORIGIN[turn]
    canvas.translate(slot.x + fx * slot.w, slot.y + fy * slot.h)
    if turn:
        canvas.rotate(turn)


def _draw_marks(canvas: Canvas, sheet: Sheet, fonts: Fonts, backs: bool) -> None:
    """What a sheet of faces shows besides its cards: crop (or registration) marks, the print hint."""
    _draw_crop_marks(canvas, sheet)
    draw_registration_marks(canvas, sheet)
    _draw_print_hint(canvas, sheet, fonts, backs)


def _draw_crop_marks(canvas: Canvas, sheet: Sheet) -> None:
    """Black crop marks; where they lie over the bleed, on a white line that keeps them seen on
    any card's edge color."""
    canvas.saveState()
    marks = sheet.crop_marks()
    if sheet.marks_over_bleed():
        canvas.setStrokeColorRGB(1, 1, 1)
        canvas.setLineWidth(CROP_MARK_HALO)
        for (x1, y1), (x2, y2) in marks:
            canvas.line(x1, y1, x2, y2)
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(CROP_MARK_WIDTH)
    for (x1, y1), (x2, y2) in marks:
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def draw_registration_marks(canvas: Canvas, sheet: Sheet) -> None:
    """A cutting machine's marks, solid black, where its software looks for them: the square
    filled and outlined, the Ls stroked, square caps and mitred corners."""
    if not sheet.machine:
        return
    marks = cutter.registration_marks(cutter.machine(sheet.machine), sheet.page_w, sheet.page_h)
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(marks.line)
    canvas.setLineCap(2)
    canvas.setLineJoin(0)
    square = marks.square
    canvas.rect(square.x, square.y, square.w, square.h, stroke=1, fill=1)
    for start, corner, end in marks.corners:
        path = canvas.beginPath()
        path.moveTo(*start)
        path.lineTo(*corner)
        path.lineTo(*end)
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def _draw_fold_line(canvas: Canvas, sheet: Sheet) -> None:
    """The layout's fold line, dashed."""
    line = sheet.fold_line
    if line is None:
        return
    (x1, y1), (x2, y2) = line
    canvas.saveState()
    canvas.setStrokeColorRGB(0.45, 0.45, 0.45)
    canvas.setLineWidth(FOLD_LINE_WIDTH)
    canvas.setDash(4, 3)
    canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def _draw_print_hint(canvas: Canvas, sheet: Sheet, fonts: Fonts, backs: bool) -> None:
    """In the strip outside the cards: a scale of 50 mm above and 2 in below one line, then how
    to print. Upright strips read from bottom to top."""
    box = sheet.info_box()
    if box is None:  # no strip on this sheet
        return
    canvas.saveState()
    if box.w >= box.h:
        canvas.translate(box.x, box.y)
    else:
        canvas.translate(box.right, box.y)
        canvas.rotate(90)
    thick = min(box.w, box.h)
    middle = thick / 2
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(RULER_LINE_WIDTH)
    canvas.line(0, middle, 2 * 72, middle)  # 2 in: a little longer than 50 mm
    for mm in range(51):
        tick = (2.0 if mm % 10 == 0 else 1.4 if mm % 5 == 0 else 0.9) * MM
        canvas.line(mm * MM, middle, mm * MM, middle + min(tick, middle))
    for eighth in range(17):
        tick = (2.0 if eighth % 8 == 0 else 1.4 if eighth % 4 == 0 else 1.1 if eighth % 2 == 0 else 0.7) * MM
        canvas.line(eighth * 9, middle, eighth * 9, middle - min(tick, middle))
    canvas.setFillColorRGB(0, 0, 0)
    ascent, descent = pdfmetrics.getAscentDescent(fonts["text"], HINT_SIZE)
    upper, lower = thick - ascent, -descent  # two lines filling the strip's thickness
    label_x, text_x = 2 * 72 + 1.5 * MM, 2 * 72 + 10 * MM
    for font, x, y, text in (("text", label_x, upper, "50 mm"), ("text", label_x, lower, "2 in"),
                             ("bold", text_x, upper, gettext(SCALE_HINT)),
                             ("text", text_x, lower, gettext(HINTS[sheet.mode if backs else "faces"]))):
        canvas.setFont(fonts[font], HINT_SIZE)
        canvas.drawString(x, y, text)
    canvas.restoreState()


def _note_placeholders(cards: Iterable[Card], placeholders: set[str] | None = None) -> None:
    """The cards drawn with placeholders go into `placeholders` when given: the build warns
    about them once, for all its sheets."""
    if placeholders is not None:
        placeholders.update(card.name for card in cards if card.art_file is None)


# --------------------------------------------------------------------------- fonts, symbols, art




# --------------------------------------------------------------------------- colors


























# --------------------------------------------------------------------------- the card painter












# --------------------------------------------------------------------------- calibration




