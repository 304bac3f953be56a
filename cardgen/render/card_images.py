"""render/card_images: one card a page, drawn by the card painter of the sheets, and as images
(print services, Tabletop Simulator, the rulebook's card diagram, the live preview)."""
from __future__ import annotations

import io

from PIL import Image

from cardgen.errors import BuildError
from cardgen.layout.fonts import register_pending
from cardgen.layout.reportlab_config import reproducible
from cardgen.layout.sheet import Sheet
from cardgen.layout.textfit import Fonts
from cardgen.model.game import Card, Game
from cardgen.model.sizes import MM
from cardgen.model.targets import CardPixels
from cardgen.render import pdfpages, print_color
from cardgen.render.cards.painter import CardPainter
from cardgen.render.cards.sheets import place
from cardgen.render.cards.subsets import save_tagged
from cardgen.render.compact import CompactCanvas


def ready_to_draw() -> None:
    """What drawing a card's picture loads on first use, loaded now: the fonts check measured
    (registered with ReportLab) and the libraries that read symbols and rasterise pages. A process
    that forks a worker for each round of pictures (the live preview) loads them once, not in every
    worker."""
    register_pending()
    import pypdfium2  # noqa: F401
    import svglib.svglib  # noqa: F401


def one_card_sheet(pixels: CardPixels, dpi: int) -> Sheet:
    """A page of exactly one card with its bleed, in points."""
    pt = 72 / dpi
    full_w, full_h = pixels.full
    bleed_x = (full_w - pixels.trim[0]) / 2 * pt
    bleed_y = (full_h - pixels.trim[1]) / 2 * pt
    return Sheet(full_w * pt, full_h * pt, full_w * pt - 2 * bleed_x, full_h * pt - 2 * bleed_y,
                 min(bleed_x, bleed_y), 1, 1)


def card_pdf(game: Game, sheet: Sheet, sides: list[tuple[Card, str]], boxes: bool = False,
             cmyk: bool = False) -> bytes:
    """One page per (card, 'front'|'back'), each the card with its bleed; in CMYK as PDF/X-1a
    when `cmyk`."""
    with reproducible():
        pdf = _card_pdf(game, sheet, sides, boxes, cmyk)
    return print_color.pdfx(pdf) if cmyk else pdf


def _card_pdf(game: Game, sheet: Sheet, sides: list[tuple[Card, str]], boxes: bool, cmyk: bool) -> bytes:
    canvas = (print_color.CmykCanvas if cmyk else CompactCanvas)(
        (sheet.page_w, sheet.page_h), initialFontName=Fonts(game.design)["text"])  # not Helvetica: every font is embedded
    canvas.setTitle(f"{game.title}: cards")
    canvas.setAuthor(game.author or game.title)
    canvas.setCreator("cardgen")
    painter = CardPainter(game, canvas, sheet)
    slot, cell = sheet.slot(0), sheet.cell(0)
    for card, side in sides:
        if boxes:
            canvas.setTrimBox((slot.x, slot.y, slot.right, slot.top))
            canvas.setBleedBox((cell.x, cell.y, cell.right, cell.top))
        form = painter.face_form(card) if side == "front" else painter.back_form(card)
        place(canvas, form, slot, cell)
        canvas.showPage()
    return save_tagged(canvas)


def rasterise(pdf: bytes, size: tuple[int, int], dpi: int) -> list[Image.Image]:
    """Each page as an RGB image of exactly `size` pixels."""
    images = []
    # a hair under dpi/72: the page is exactly size at dpi, and pdfium rounds its pixels up
    for image in pdfpages.page_images(pdf, dpi / 72 * (1 - 1e-7)):
        if image.size != size:
            raise BuildError(f"a card rendered at {image.size[0]}x{image.size[1]} px, not {size[0]}x{size[1]}")
        images.append(image)
    return images


def png(image: Image.Image, dpi: int) -> bytes:
    data = io.BytesIO()
    image.save(data, "PNG", dpi=(dpi, dpi), compress_level=1)
    return data.getvalue()


def card_png(game: Game, card: Card, size: tuple[int, int], dpi: int) -> bytes:
    """The card's face, trimmed, as a PNG of `size` pixels tagged with `dpi`."""
    sheet = one_card_sheet(CardPixels(size, 0, 0), dpi)
    return png(rasterise(card_pdf(game, sheet, [(card, "front")]), size, dpi)[0], dpi)


def face_pdf(game: Game, card: Card) -> bytes:
    """One card's face, trimmed, on a page of its deck's card size (the live preview's picture)."""
    width, height = (side * MM for side in game.deck_of(card).size_mm)
    return card_pdf(game, Sheet(width, height, width, height, 0, 1, 1), [(card, "front")])
