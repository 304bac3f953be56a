"""render/cards/elements: a face's elements drawn on a card (the face painter's drawing half). Each
draws in its box on the card in points; a turned element draws in its own frame about the box's
centre."""
from __future__ import annotations

from PIL import Image as PILImage
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.errors import BuildError
from cardgen.inputs import images, symbols
from cardgen.inputs.paths import game_roots
from cardgen.layout import sheet as layout
from cardgen.layout.colors import back_design, ink_of, luminance, mix, name_color, symbol_ink
from cardgen.layout.sheet import Rect
from cardgen.layout.textfit import CardText, ink_extent
from cardgen.model import markup
from cardgen.model.faces import (
    ART,
    BACK_COLORS,
    CARD_SYMBOL,
    COLORS_PATTERN,
    IMAGE,
    PATTERN,
    REPEAT,
    SHAPE,
    SYMBOL,
    TAGS,
    TEXT,
    Element,
    count_of,
    fill_in,
    repeated,
)
from cardgen.model.game import Card, Color, Game
from cardgen.render import print_color

PILL_UNDER = 0.55  # a hugging box is a pill while lower than this part of its width (two lines of the back's title)


def hex_of(name: str, game: Game, card: Card, color: Color) -> str:
    """A face's color: "#rrggbb", or one derived from the card's color (model.faces.DERIVED_COLORS)."""
    if name.startswith("#"):
        return name
    if name == "card":
        return color.hex
    if name == "ink":
        return ink_of(color.hex)
    if name == "symbol-ink":
        return symbol_ink(color)
    if name == "title":
        return name_color(game, card)
    if name in BACK_COLORS:
        spec = back_design(game, game.back_of(card))
        return {"back-background": spec.background, "back-pattern": spec.pattern, "back-border": spec.border,
                "back-medallion": spec.medallion, "back-title": spec.title_color}[name]
    return color.hex if luminance(color.hex) < 0.6 else ink_of(color.hex)  # outline


def is_static(element: Element) -> bool:
    """Whether an element looks the same on every card of one color and symbol (when it shows):
    drawn once per color and symbol as a form."""
    colors = {element.color, element.fill, element.border}
    return element.kind in (SHAPE, SYMBOL) and "{" not in element.symbol and not colors & {"title", *BACK_COLORS}


def symbol_name(element: Element, game: Game, card: Card) -> str:
    if element.symbol == CARD_SYMBOL:
        return game.symbol_of(card)
    return fill_in(element.symbol, card.value)


def pattern_symbols(element: Element, game: Game, card: Card) -> list[str]:
    """The symbols a pattern tiles, in turn: the game's colors' (those it has), or one by name or field."""
    if element.pattern == COLORS_PATTERN:
        return [s for s in dict.fromkeys(c.symbol for c in game.colors) if symbols.symbol_path(game, s)]
    return [fill_in(element.pattern, card.value)]


def image_path(element: Element, game: Game, card: Card):
    """The file an image element shows on a card (not its art)."""
    return game.folder / fill_in(element.image, card.value)


class ElementDrawing:
    """The drawing of each element kind; the painter gives the canvas, scale, texts and forms."""

    game: Game
    canvas: Canvas
    texts: CardText

    def symbol_form(self, symbol: str, hex_color: str) -> str | None:
        raise NotImplementedError

    def _part(self, part: str, color: Color, draw, *keys: str) -> str:
        raise NotImplementedError

    def _placeholder_form(self, color: Color, symbol_name: str, box: Rect) -> str:
        raise NotImplementedError

    def _draw_symbol(self, symbol: str, hex_color: str, cx: float, cy: float, size: float) -> None:
        raise NotImplementedError

    _inline_default: str

    def draw_element(self, element: Element, card: Card, color: Color) -> None:
        box = self.texts.scale.box(element)
        if not element.rotation and not element.anchor:  # else drawn in its own frame about its centre
            self._draw_kind(element, card, color, box)
            return
        c = self.canvas
        c.saveState()
        c.translate(box.x + box.w / 2, box.y + box.h / 2)
        c.rotate(element.rotation)
        width, height = (box.h, box.w) if element.turned else (box.w, box.h)
        self._draw_kind(element, card, color, Rect(-width / 2, -height / 2, width, height))
        c.restoreState()

    def _draw_kind(self, element: Element, card: Card, color: Color, box: Rect) -> None:
        if element.kind == SHAPE:
            self._draw_shape(element, card, color, box)
        elif element.kind == SYMBOL:
            self._draw_symbol(symbol_name(element, self.game, card), hex_of(element.color, self.game, card, color),
                              box.x + box.w / 2, box.y + box.h / 2, min(box.w, box.h))
        elif element.kind == TEXT:
            self._draw_text(element, card, color, box)
        elif element.kind == IMAGE:
            self._draw_image_element(element, card, color, box)
        elif element.kind == TAGS:
            self._draw_tags(element, card, color, box)
        elif element.kind == REPEAT:
            for item in repeated(element, count_of(element, card.value)):
                self.draw_element(item, card, color)
        elif element.kind == PATTERN:
            self._draw_pattern(element, card, color, box)

    def _draw_pattern(self, element: Element, card: Card, color: Color, box: Rect) -> None:
        """Symbols tiled over the box in staggered rows from its left edge and middle, each tilted."""
        names = pattern_symbols(element, self.game, card)
        if not names:
            return
        c, s = self.canvas, self.texts.scale
        box = self._into_bleed(box) if element.bleed else box
        hex_color = hex_of(element.color, self.game, card, color)
        step, size = s.length(element.step), s.length(element.tile)
        rows, columns = int(box.h / step) + 2, int(box.w / step) + 2
        for row in range(rows):
            for column in range(columns):
                c.saveState()
                c.translate(box.x + column * step + (step / 2 if row % 2 else 0),
                            box.y + box.h / 2 + (row - rows // 2) * step * 0.87)
                c.rotate(element.tilt)
                c.scale(size, size)
                c.translate(-0.5, -0.5)
                c.doForm(self.symbol_form(names[(row + column * 3) % len(names)], hex_color))
                c.restoreState()

    # -- shapes

    def _draw_shape(self, element: Element, card: Card, color: Color, box: Rect) -> None:
        c, s = self.canvas, self.texts.scale
        if element.bleed:
            box = self._into_bleed(box)
        fill = bool(element.fill)
        stroke = bool(element.border) and element.border_width > 0  # a width of 0 is PDF's thinnest line, not none
        if fill:
            c.setFillColor(HexColor(hex_of(element.fill, self.game, card, color)))
        if stroke:
            c.setStrokeColor(HexColor(hex_of(element.border, self.game, card, color)))
            c.setLineWidth(s.points(element.border_width))
        flags = {"stroke": int(stroke), "fill": int(fill)}
        if element.shape == "rect":
            c.rect(box.x, box.y, box.w, box.h, **flags)
        elif element.shape == "rounded":
            c.roundRect(box.x, box.y, box.w, box.h, s.length(element.radius), **flags)
        elif element.shape == "circle":
            c.circle(box.x + box.w / 2, box.y + box.h / 2, min(box.w, box.h) / 2, **flags)
        else:
            c.ellipse(box.x, box.y, box.right, box.top, **flags)

    def _into_bleed(self, box: Rect) -> Rect:
        """A bleed element touching an edge runs on to the bleed's edge there."""
        b, s, near = self.sheet_bleed, self.texts.scale, 0.01
        left = box.x - b if box.x <= near else box.x
        bottom = box.y - b if box.y <= near else box.y
        right = box.right + b if box.right >= s.card_w - near else box.right
        top = box.top + b if box.top >= s.card_h - near else box.top
        return Rect(left, bottom, right - left, top - bottom)

    sheet_bleed: float

    # -- texts

    def _draw_text(self, element: Element, card: Card, color: Color, box: Rect) -> None:
        value = self.texts.value(element, card)
        if not value:
            return
        hex_color = hex_of(element.color, self.game, card, color)
        if element.line:
            self._draw_line(element, card, value, hex_color, box)
            return
        self._inline_default = hex_color
        room = self.texts.room(element)
        inner = Rect(box.x + room.x, box.y + room.y, room.w, room.h)
        paragraph = fitted(self.texts.paragraph(element, value, hex_color), card, element)
        offset = self.texts.scale.points(element.shadow)
        if offset:
            # a soft drop shadow in the band's own dark (or light) tone, for layouts that want one
            tone = mix(color.hex, "#000000" if luminance(hex_color) > 0.3 else "#ffffff", 0.55)
            shadow = Paragraph(markup.escape(value), self.texts.style(element, tone)(paragraph.style.fontSize))
            shadow.wrap(inner.w, inner.h)
            draw_in(self.canvas, shadow, inner.moved(offset, -offset), element.valign)
        if element.hug and (element.fill or element.border):
            self._draw_hug(element, card, color, box, ink_bottom(paragraph, inner, element.valign), paragraph)
        draw_in(self.canvas, paragraph, inner, element.valign)

    def _draw_hug(self, element: Element, card: Card, color: Color, box: Rect, bottom: float, paragraph) -> None:
        """The text's fill and border: the box's width, `hug` above and below the lines' ink; a
        pill while it is low (under PILL_UNDER of its width), else rounded by `radius`."""
        c, s = self.canvas, self.texts.scale
        low, high = ink_extent(paragraph)
        pad = s.length(element.hug)
        height = high - low + 2 * pad
        fill, stroke = bool(element.fill), bool(element.border) and element.border_width > 0
        if fill:
            c.setFillColor(HexColor(hex_of(element.fill, self.game, card, color)))
        if stroke:
            c.setStrokeColor(HexColor(hex_of(element.border, self.game, card, color)))
            c.setLineWidth(s.points(element.border_width))
        radius = height / 2 if height < box.w * PILL_UNDER else s.length(element.radius)
        c.roundRect(box.x, bottom - pad, box.w, height, radius, stroke=int(stroke), fill=int(fill))

    def _draw_line(self, element: Element, card: Card, value: str, hex_color: str, box: Rect) -> None:
        size = self.texts.line_size(element, value)
        if size is None:
            raise BuildError(f"card '{card.name}': the {element.named} does not fit its box at this card size",
                             card.where, "shorten it or enlarge the box in the face")
        c, font = self.canvas, self.texts.fonts[element.font]
        room = self.texts.room(element)
        left, width = box.x + room.x, room.w
        baseline = {"top": box.y + room.top - 0.72 * size, "bottom": box.y + room.y + 0.22 * size}.get(
            element.valign, box.y + room.y + room.h / 2 - 0.36 * size)
        c.setFillColor(HexColor(hex_color))
        c.setFont(font, size)
        if element.align == "left":
            c.drawString(left, baseline, value)
        elif element.align == "right":
            c.drawRightString(left + width, baseline, value)
        else:
            c.drawCentredString(left + width / 2, baseline, value)

    # -- images

    def _draw_image_element(self, element: Element, card: Card, color: Color, box: Rect) -> None:
        if element.image == ART and card.art_file is None:
            self.canvas.doForm(self._placeholder_art(element, card, color, box))
            return
        data = self._image_bytes(element, card)
        self._draw_framed(element, card, color, box, lambda inner: self._draw_image(data, inner, element.fit))

    def _placeholder_art(self, element: Element, card: Card, color: Color, box: Rect) -> str:
        """The form of a card's placeholder art in this art box: one per color, symbol and box (two
        faces with art boxes of other sizes or corners each get their own)."""
        symbol = self.game.symbol_of(card)
        frame = f"{box.x:.3f},{box.y:.3f},{box.w:.3f},{box.h:.3f},{element.radius},{element.border},{element.border_width}"
        return self._part("placeholder-art", color, lambda c: self._draw_placeholder_art(element, card, c, symbol, box),
                          symbol, frame)

    def _draw_placeholder_art(self, element: Element, card: Card, color: Color, symbol: str, box: Rect) -> None:
        c = self.canvas

        def placeholder(inner: Rect) -> None:
            c.translate(inner.x, inner.y)
            c.doForm(self._placeholder_form(color, symbol, inner))

        self._draw_framed(element, card, color, box, placeholder)

    def _draw_framed(self, element: Element, card: Card, color: Color, box: Rect, draw) -> None:
        """An image box: `draw(box)` clipped to its rounded corners, then its border."""
        c, s = self.canvas, self.texts.scale
        radius = s.length(element.radius)
        c.saveState()
        path = c.beginPath()
        path.roundRect(box.x, box.y, box.w, box.h, radius)
        c.clipPath(path, stroke=0, fill=0)
        draw(box)
        c.restoreState()
        if element.border and element.border_width > 0:
            c.setStrokeColor(HexColor(hex_of(element.border, self.game, card, color)))
            c.setLineWidth(s.points(element.border_width))
            c.roundRect(box.x, box.y, box.w, box.h, radius, stroke=1, fill=0)

    def _image_bytes(self, element: Element, card: Card) -> bytes:
        """The bytes of the image as checked (load checked the art; check the files a face names;
        were one changed since, it is checked again): what is drawn is what was checked."""
        path = card.art_file if element.image == ART else image_path(element, self.game, card)
        try:
            if path is None:
                raise images.BadImage("is not there")
            return images.checked(path, game_roots(self.game.folder))
        except images.BadImage as exc:
            name = path.name if path else ""
            raise BuildError(f"card '{card.name}': image '{name}' {exc}", card.where, exc.hint) from None

    def _draw_image(self, data: bytes, box: Rect, fit: str) -> None:
        """Cover the box (centred, cropping what sticks out), or fit inside it."""
        drawable = images.drawable(data)
        if isinstance(self.canvas, print_color.CmykCanvas):  # what shows through its transparency: the panel
            pixels = drawable if isinstance(drawable, PILImage.Image) else PILImage.open(drawable)
            drawable = print_color.cmyk_image(pixels, HexColor(self.game.design.frame.panel).bitmap_rgb())
        image = ImageReader(drawable)
        placed = layout.cover(box, *image.getSize()) if fit == "cover" else layout.contain(box, *image.getSize())
        self.canvas.drawImage(image, placed.x, placed.y, placed.w, placed.h, mask="auto")

    # -- tags

    def _draw_tags(self, element: Element, card: Card, color: Color, box: Rect) -> None:
        tags = [t for t in fill_in(element.text, lambda name: card.value(name)).split(", ") if t] \
            if element.text != "{tags}" else list(card.tags)
        if not tags:
            return
        c, s = self.canvas, self.texts.scale
        names = {t.id: t.name for t in self.game.tags}
        labels = [names.get(t, t) for t in tags]
        font, size = self.texts.fonts[element.font], s.points(element.size)
        height = s.length(element.height)  # pills scale with their text, hanging from the box's top
        pad, gap = height * 0.7, s.length(element.gap)
        widths = [pdfmetrics.stringWidth(label, font, size) + 2 * pad for label in labels]
        x = box.x + (box.w - sum(widths) - gap * (len(widths) - 1)) / 2
        y = box.top - height
        c.setLineWidth(s.points(element.border_width))
        for label, width in zip(labels, widths):
            c.setFillColor(HexColor(hex_of(element.fill, self.game, card, color)))
            c.setStrokeColor(HexColor(hex_of(element.border or element.fill, self.game, card, color)))
            c.roundRect(x, y, width, height, height / 2, stroke=int(element.border_width > 0), fill=1)
            c.setFillColor(HexColor(hex_of(element.color, self.game, card, color)))
            c.setFont(font, size)
            c.drawCentredString(x + width / 2, y + (height - 0.7 * size) / 2, label)
            x += width + gap


def fitted(paragraph, card: Card, element: Element):
    """A text set to fit: check measured every card the same way, so only a card size given at
    build time (--size) can leave one that does not fit."""
    if paragraph is None:
        raise BuildError(f"card '{card.name}': the {element.named} does not fit its box at this card size",
                         card.where, "shorten the text or enlarge the box in layout.yaml")
    return paragraph


def draw_in(canvas: Canvas, paragraph, box: Rect, valign: str) -> None:
    """Draw a wrapped paragraph with its glyphs at the top, middle or bottom of the box."""
    bottom, top = ink_extent(paragraph)
    if valign == "top":
        y = box.top - top
    elif valign == "bottom":
        y = box.y - bottom
    else:
        y = box.y + (box.h - (top - bottom)) / 2 - bottom
    paragraph.drawOn(canvas, box.x, y)


def ink_bottom(paragraph, box: Rect, valign: str) -> float:
    """Where the lowest ink of a paragraph drawn in the box at valign lies."""
    bottom, top = ink_extent(paragraph)
    if valign == "top":
        return box.top - (top - bottom)
    if valign == "bottom":
        return box.y
    return box.y + (box.h - (top - bottom)) / 2
