"""render/diffpdf: the visual diff of a playtest round. Each changed card old and new side by
side as printed, the words of its changed texts struck (old) and inserted (new), and a box
around the part of the new face whose pixels changed; added and removed cards on pages of their
own."""
from __future__ import annotations

import difflib
from collections.abc import Iterator

from PIL import Image, ImageChops
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.check.results import CardChange, GameDiff
from cardgen.layout.reportlab_config import reproducible
from cardgen.layout.sheet import pages
from cardgen.layout.textfit import Fonts
from cardgen.model.fields import translatable_fields
from cardgen.model.game import Card, Game
from cardgen.model.sizes import MM, paper_size_mm
from cardgen.model.texts import counted
from cardgen.render import card_images, pdfpages
from cardgen.render.cards.subsets import save_tagged
from cardgen.render.compact import CompactCanvas

DPI = 110  # the faces' pictures: enough to read them, small enough to draw a few hundred
SIZE = 9.0
OLD_INK, NEW_INK, MARK = (0.75, 0.1, 0.1), (0.05, 0.5, 0.15), (0.9, 0.0, 0.3)
MARGIN = 15 * MM


def diff_pdf(old: Game, new: Game, diff: GameDiff, since: str, paper: str) -> bytes:
    """The visual diff: a page per changed card, then the added and the removed cards."""
    width, height = (side * MM for side in paper_size_mm(paper))
    fonts = Fonts(new.design)
    with reproducible():
        canvas = CompactCanvas((width, height), initialFontName=fonts["text"])
        canvas.setTitle(f"{new.title}: changes since {since}")
        canvas.setCreator("cardgen")
        pictures = _Pictures(old, new)
        for change in diff.changed("changed"):
            _changed_page(canvas, fonts, pictures, change, old.card(change.card_id), new.card(change.card_id))
        for status, game in (("added", new), ("removed", old)):
            cards = [game.card(c.card_id) for c in diff.changed(status)]
            for page in pages(cards, 6):
                _cards_page(canvas, fonts, pictures, game, status, page)
        if not diff.cards:
            _heading(canvas, fonts, f"No card changed since {since}")
            canvas.showPage()
        return save_tagged(canvas)


class _Pictures:
    """Each version's faces as printed. Each face is shown once: none is kept (a reprint of a
    thousand cards would hold them all)."""

    def __init__(self, old: Game, new: Game):
        self.games = {"old": old, "new": new}

    def face(self, version: str, card: Card) -> Image.Image:
        return pdfpages.page_image(card_images.face_pdf(self.games[version], card), 1, DPI / 72)


def _changed_page(canvas: Canvas, fonts: Fonts, pictures: _Pictures, change: CardChange, was: Card,
                  card: Card) -> None:
    page_w, page_h = canvas._pagesize
    renamed = f" (was {change.old_name})" if change.old_name else ""
    _heading(canvas, fonts, f"Changed: {card.name}{renamed}: {', '.join(change.fields)}")
    before, after = pictures.face("old", was), pictures.face("new", card)
    box_w = (page_w - 3 * MARGIN) / 2
    scale = min(box_w / before.width, (page_h * 0.55) / before.height)  # points a pixel
    top = page_h - MARGIN - 30
    for column, (label, image) in enumerate((("old", before), ("new", after))):
        w, h = image.width * scale, image.height * scale
        x = MARGIN + column * (box_w + MARGIN) + (box_w - w) / 2
        canvas.setFont(fonts["bold"], SIZE)
        canvas.drawString(x, top, label)
        canvas.drawImage(ImageReader(image), x, top - 6 - h, w, h)
        if label == "new":
            _mark_changed_pixels(canvas, before, image, x, top - 6 - h, scale)
    y = top - 6 - before.height * scale - 24
    fields = pictures.games["new"].fields
    own = {f.id: f.name for f in fields}
    for field_name in translatable_fields(fields):
        old_text, new_text = str(was.value(field_name) or ""), str(card.value(field_name) or "")
        if old_text != new_text:
            y = _text_change(canvas, fonts, own.get(field_name, field_name), old_text, new_text, y, page_w)
    canvas.showPage()


def _mark_changed_pixels(canvas: Canvas, before: Image.Image, after: Image.Image, x: float, y: float,
                         scale: float) -> None:
    """A box around the pixels of the new face that differ from the old (same size only)."""
    if before.size != after.size:
        return
    box = ImageChops.difference(before, after).point(lambda v: 255 if v > 24 else 0).getbbox()
    if box is None:
        return
    left, upper, right, lower = box
    canvas.saveState()
    canvas.setStrokeColorRGB(*MARK)
    canvas.setLineWidth(1.5)
    canvas.rect(x + left * scale - 2, y + (after.height - lower) * scale - 2, (right - left) * scale + 4,
                (lower - upper) * scale + 4, stroke=1, fill=0)
    canvas.restoreState()


def _text_change(canvas: Canvas, fonts: Fonts, field_name: str, old: str, new: str, y: float,
                 page_w: float) -> float:
    """The field's words in order: kept ones plain, removed ones struck in red, inserted ones
    underlined in green; wrapped to the page. Returns the next line's height."""
    canvas.setFont(fonts["bold"], SIZE)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawString(MARGIN, y, f"{field_name}:")
    y -= SIZE * 1.5
    x = MARGIN
    for word, kind in _word_diff(old, new):
        width = canvas.stringWidth(word + " ", fonts["text"], SIZE)
        if x + width > page_w - MARGIN:
            x, y = MARGIN, y - SIZE * 1.5
        canvas.setFont(fonts["text"], SIZE)
        canvas.setFillColorRGB(*({"removed": OLD_INK, "inserted": NEW_INK}.get(kind, (0, 0, 0))))
        canvas.drawString(x, y, word)
        if kind != "kept":
            canvas.setStrokeColorRGB(*(OLD_INK if kind == "removed" else NEW_INK))
            canvas.setLineWidth(0.8)
            line_y = y + SIZE * 0.3 if kind == "removed" else y - 1.5
            canvas.line(x, line_y, x + canvas.stringWidth(word, fonts["text"], SIZE), line_y)
        x += width
    canvas.setFillColorRGB(0, 0, 0)
    return y - SIZE * 2


def _word_diff(old: str, new: str) -> Iterator[tuple[str, str]]:
    """(word, kept | removed | inserted) in reading order."""
    before, after = old.split(), new.split()
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if op == "equal":
            yield from ((w, "kept") for w in before[a0:a1])
            continue
        yield from ((w, "removed") for w in before[a0:a1])
        yield from ((w, "inserted") for w in after[b0:b1])


def _cards_page(canvas: Canvas, fonts: Fonts, pictures: _Pictures, game: Game, status: str,
                cards: list[Card]) -> None:
    page_w, page_h = canvas._pagesize
    _heading(canvas, fonts, f"{status.capitalize()}: {counted(len(cards), 'card')}")
    version = "new" if status == "added" else "old"
    cell_w, cell_h = (page_w - 2 * MARGIN) / 3, (page_h - 2 * MARGIN - 40) / 2
    for index, card in enumerate(cards):
        row, column = divmod(index, 3)
        image = pictures.face(version, card)
        scale = min((cell_w - 10) / image.width, (cell_h - 24) / image.height)
        x = MARGIN + column * cell_w
        y = page_h - MARGIN - 40 - (row + 1) * cell_h + 16
        canvas.drawImage(ImageReader(image), x, y, image.width * scale, image.height * scale)
        canvas.setFont(fonts["text"], SIZE)
        canvas.drawString(x, y - 12, card.name)
    canvas.showPage()


def _heading(canvas: Canvas, fonts: Fonts, text: str) -> None:
    canvas.setFont(fonts["bold"], 13)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawString(MARGIN, canvas._pagesize[1] - MARGIN, text)
