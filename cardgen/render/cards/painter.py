"""render/cards/painter: one card face or back drawn as a PDF form, from the game's layout."""
from __future__ import annotations

import hashlib

from PIL import Image as PILImage
from reportlab.graphics import renderPDF
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.errors import BuildError
from cardgen.inputs import images, symbols
from cardgen.inputs.paths import game_roots
from cardgen.layout import sheet as layout
from cardgen.layout.colors import back_design, ink_of, luminance, mix, name_color, symbol_ink
from cardgen.layout.sheet import Rect, Sheet
from cardgen.layout.textfit import INLINE_SYMBOL, CardText, ink_extent
from cardgen.model import markup
from cardgen.model.game import Card, Color, Game
from cardgen.model.layout import BackDesign, NumberBadge, SymbolBadge
from cardgen.render import print_color


def _recolored(drawing, color):
    """A copy of a one-color symbol drawing painted in `color`."""
    copy = drawing.copy()
    stack = [copy]
    while stack:
        node = stack.pop()
        stack.extend(getattr(node, "contents", []))
        if getattr(node, "fillColor", None) is not None:
            node.fillColor = color
        if getattr(node, "strokeColor", None) is not None:
            node.strokeColor = color
    return copy


def form_name(kind: str, *keys: str) -> str:
    """The PDF name of a form drawn from data (card ids, symbol names, colors). ReportLab writes
    a form's name raw into the page content but encoded into the resources, so a non-ASCII name
    (a card called Böom) leaves every slot of that card empty: names carry a digest instead."""
    digest = hashlib.sha1("\0".join(keys).encode("utf-8")).hexdigest()[:16]
    return f"{kind}-{digest}"


class CardPainter:
    """Draws card faces and the back as PDF forms on one canvas (each form once)."""

    def __init__(self, game: Game, canvas: Canvas, sheet: Sheet):
        self.game, self.canvas, self.sheet = game, canvas, sheet
        self.design = game.design
        self.texts = CardText(game, sheet.card_w, sheet.card_h)
        self.fonts, self.scale = self.texts.fonts, self.texts.scale
        self.forms: set[str] = set()
        self._symbol_colors = {c.symbol: c.hex for c in game.colors}
        canvas.setNamedCB(INLINE_SYMBOL, self._inline_symbol)

    # -- forms

    def face_form(self, card: Card) -> str:
        name = form_name("face", card.id)
        if name not in self.forms:
            try:
                self._prepare(card)
                self._form(name, lambda: self._draw_face(card))
            except BuildError:
                raise
            except Exception as exc:  # ReportLab and svglib fail with many exception types
                raise BuildError(f"card '{card.name}' cannot be drawn: {exc.__class__.__name__}: {exc}",
                                 card.where) from None
        return name

    def back_form(self, card: Card) -> str:
        """The form of the card's own back (the game's back unless the game gives it another)."""
        back = self.game.back_of(card)
        name = form_name("back", back.id if back else "")
        if name not in self.forms:
            spec = back_design(self.game, back)
            for symbol in self._back_symbols():
                self.symbol_form(symbol, spec.pattern)
            if emblem := self._back_emblem(spec):
                self.symbol_form(emblem, spec.border)
            self._form(name, lambda: self._draw_back(spec, self.game.back_title(back)))
        return name

    def _form(self, name: str, draw) -> None:
        b = self.sheet.bleed
        self.canvas.beginForm(name, -b, -b, self.sheet.card_w + b, self.sheet.card_h + b)
        draw()
        self.canvas.endForm()
        self.forms.add(name)

    def symbol_form(self, symbol: str, hex_color: str) -> str | None:
        """A 1x1 pt form of the symbol in one color; None if the game has no such symbol."""
        name = form_name("symbol", symbol, hex_color)
        if name in self.forms:
            return name
        path = symbols.symbol_path(self.game, symbol)
        if path is None:
            return None
        drawing = _recolored(symbols.drawing(path), HexColor(hex_color))
        drawing.initialFontName = self.fonts["text"]  # not Helvetica, which no PDF here embeds
        self.canvas.beginForm(name, 0, 0, 1, 1)
        self.canvas.scale(1 / drawing.width, 1 / drawing.height)
        renderPDF.draw(drawing, self.canvas, 0, 0)
        self.canvas.endForm()
        self.forms.add(name)
        return name

    def _prepare(self, card: Card) -> None:
        """Forms a face uses must exist before its own form starts (forms do not nest)."""
        color = self.game.color(card.color)
        self.symbol_form(self.game.symbol_of(card), ink_of(color.hex))
        star = self.design.star
        self.symbol_form("star", star.outline)
        self.symbol_form("star", star.fill)
        for symbol in markup.symbol_names(card.text) + markup.symbol_names(card.flavor):
            self.symbol_form(symbol, self._inline_color(symbol))
        symbol = self.game.symbol_of(card)
        self._part("chrome", color, lambda c: self._draw_chrome(c, symbol), symbol)
        if card.number is not None:
            self._part("number-badge", color, lambda c: self._draw_badge(self.design.number, c))
        if card.art_file is None:
            self._placeholder_form(color, symbol)
            self._part("placeholder-art", color, lambda c: self._draw_placeholder_art(c, symbol), symbol)
        self._part("text-box", color, self._draw_text_box)

    def _part(self, part: str, color: Color, draw, *keys: str) -> str:
        """A part of the face that depends on nothing but the card's color (frame, badges, boxes):
        drawn once per color as a form, placed on each face in the order the face draws its parts.
        Curves cost ReportLab most of a face's time: this keeps a face's cost to its own text."""
        name = form_name(part, color.id, *keys)
        if name not in self.forms:
            self._form(name, lambda: draw(color))
        return name

    def _draw_symbol(self, symbol: str, hex_color: str, cx: float, cy: float, size: float) -> None:
        form = self.symbol_form(symbol, hex_color)
        if form is None:
            raise BuildError(f"symbol '{symbol}' not found in {self.game.folder.name}/symbols/ or art/symbols/")
        c = self.canvas
        c.saveState()
        c.translate(cx - size / 2, cy - size / 2)
        c.scale(size, size)
        c.doForm(form)
        c.restoreState()

    # -- the face

    def _draw_face(self, card: Card) -> None:
        color = self.game.color(card.color)
        symbol = self.game.symbol_of(card)
        self.canvas.doForm(self._part("chrome", color, lambda c: self._draw_chrome(c, symbol), symbol))
        if card.star:
            self._draw_star()
        if card.number is not None:
            self._draw_number(card, color)
        self._draw_name(card, color)
        self._draw_flavor(card)
        self._draw_art(card, color)
        self._draw_tags(card)
        self._draw_text(card, color)

    def _draw_chrome(self, color: Color, symbol: str) -> None:
        self._draw_frame(color)
        self._draw_symbol_badge(color, symbol)

    def _draw_frame(self, color: Color) -> None:
        c, s, frame = self.canvas, self.scale, self.design.frame
        b = self.sheet.bleed
        c.setFillColor(HexColor(color.hex))
        c.rect(-b, -b, s.card_w + 2 * b, s.card_h + 2 * b, stroke=0, fill=1)
        inset = s.length(frame.inset)
        top = s.y(frame.header)
        c.setFillColor(HexColor(frame.panel))
        c.roundRect(inset, inset, s.card_w - 2 * inset, top - inset, s.length(frame.radius), stroke=0, fill=1)

    def _draw_badge(self, spec: SymbolBadge | NumberBadge, color: Color) -> tuple[float, float]:
        """The round badge of a corner (symbol, number): filled with the spec's badge color,
        ringed in the color's ink. Returns its centre."""
        c, s = self.canvas, self.scale
        x, y = s.point(spec)
        c.setFillColor(HexColor(spec.badge))
        c.setStrokeColor(HexColor(ink_of(color.hex)))
        c.setLineWidth(s.points(0.8))
        c.circle(x, y, s.length(spec.radius), stroke=1, fill=1)
        return x, y

    def _draw_symbol_badge(self, color: Color, symbol: str) -> None:
        spec = self.design.symbol
        x, y = self._draw_badge(spec, color)
        self._draw_symbol(symbol, symbol_ink(color), x, y, self.scale.length(spec.size))

    def _draw_star(self) -> None:
        s, spec = self.scale, self.design.star
        x, y = s.point(spec)
        size = s.length(spec.size)
        self._draw_symbol("star", spec.outline, x, y, size * 1.3)
        self._draw_symbol("star", spec.fill, x, y, size)

    def _draw_number(self, card: Card, color: Color) -> None:
        c, s, spec = self.canvas, self.scale, self.design.number
        c.doForm(self._part("number-badge", color, lambda c: self._draw_badge(spec, c)))
        x, y = s.point(spec)
        text = str(card.number)
        font, size = self.fonts[spec.font], s.points(spec.size)
        width_room = 1.6 * s.length(spec.radius)
        size = min(size, size * width_room / max(pdfmetrics.stringWidth(text, font, size), 0.01))
        c.setFillColor(HexColor(ink_of(color.hex)))
        c.setFont(font, size)
        c.drawCentredString(x, y - 0.36 * size, text)

    def _draw_name(self, card: Card, color: Color) -> None:
        spec, s = self.design.name, self.scale
        title = name_color(self.game, card)
        offset = s.points(spec.shadow)
        box = self.texts.name_box()
        paragraph = _fitted(self.texts.name(card, title), card, "name")
        if offset:
            # a soft drop shadow in the band's own dark (or light) tone, for layouts that want one
            tone = mix(color.hex, "#000000" if luminance(title) > 0.3 else "#ffffff", 0.55)
            shadow = Paragraph(markup.escape(card.name), self.texts.style(spec, tone)(paragraph.style.fontSize))
            shadow.wrap(box.w, box.h)
            draw_centred(self.canvas, shadow, box.moved(offset, -offset))
        draw_centred(self.canvas, paragraph, box)

    def _draw_flavor(self, card: Card) -> None:
        if not card.flavor:
            return
        paragraph = _fitted(self.texts.flavor(card, self.design.flavor.color), card, "flavor")
        draw_centred(self.canvas, paragraph, self.texts.flavor_box())

    def _draw_art(self, card: Card, color: Color) -> None:
        if card.art_file is None:
            symbol = self.game.symbol_of(card)
            self.canvas.doForm(self._part("placeholder-art", color, lambda c: self._draw_placeholder_art(c, symbol),
                                          symbol))
        else:
            art = self._art(card)
            self._draw_framed_art(color, lambda box: self._draw_image(art, box))

    def _draw_placeholder_art(self, color: Color, symbol: str) -> None:
        c = self.canvas

        def placeholder(box: Rect) -> None:
            c.translate(box.x, box.y)
            c.doForm(self._placeholder_form(color, symbol))

        self._draw_framed_art(color, placeholder)

    def _draw_framed_art(self, color: Color, draw) -> None:
        """The art box: `draw(box)` clipped to its rounded corners, then its border."""
        c, s, spec = self.canvas, self.scale, self.design.art
        box = s.box(spec)
        radius = s.length(spec.radius)
        c.saveState()
        path = c.beginPath()
        path.roundRect(box.x, box.y, box.w, box.h, radius)
        c.clipPath(path, stroke=0, fill=0)
        draw(box)
        c.restoreState()
        if spec.border > 0:  # a line width of 0 is PDF's thinnest line, not none
            c.setStrokeColor(HexColor(ink_of(color.hex)))
            c.setLineWidth(s.points(spec.border))
            c.roundRect(box.x, box.y, box.w, box.h, radius, stroke=1, fill=0)

    def _art(self, card: Card) -> bytes:
        """The bytes of the card's art as checked (load checked the file; were it changed since,
        it is checked again): what is drawn is what was checked."""
        try:
            if card.art_file is None:
                raise images.BadImage("is not there")
            return images.checked(card.art_file, game_roots(self.game.folder))
        except images.BadImage as exc:
            name = card.art_file.name if card.art_file else ""
            raise BuildError(f"card '{card.name}': art '{name}' {exc}", card.where, exc.hint) from None

    def _draw_image(self, data: bytes, box: Rect) -> None:
        """Cover the box, centred, cropping what sticks out."""
        from reportlab.lib.utils import ImageReader

        drawable = images.drawable(data)
        if isinstance(self.canvas, print_color.CmykCanvas):  # what shows through its transparency: the panel
            pixels = drawable if isinstance(drawable, PILImage.Image) else PILImage.open(drawable)
            drawable = print_color.cmyk_image(pixels, HexColor(self.design.frame.panel).bitmap_rgb())
        image = ImageReader(drawable)
        placed = layout.cover(box, *image.getSize())
        self.canvas.drawImage(image, placed.x, placed.y, placed.w, placed.h, mask="auto")

    def _draw_tags(self, card: Card) -> None:
        if not card.tags:
            return
        c, s, spec = self.canvas, self.scale, self.design.tags
        names = {t.id: t.name for t in self.game.tags}
        font, size = self.fonts[spec.font], s.points(spec.size)
        height = s.length(spec.height)
        pad, gap = height * 0.7, s.length(spec.gap)
        widths = [pdfmetrics.stringWidth(names[t], font, size) + 2 * pad for t in card.tags]
        x = (s.card_w - sum(widths) - gap * (len(widths) - 1)) / 2
        y = s.y(spec.y) - height
        c.setLineWidth(s.points(0.9))
        for tag, width in zip(card.tags, widths):
            c.setFillColor(HexColor(spec.fill))
            c.setStrokeColor(HexColor(self.design.frame.panel))
            c.roundRect(x, y, width, height, height / 2, stroke=1, fill=1)
            c.setFillColor(HexColor(spec.color))
            c.setFont(font, size)
            c.drawCentredString(x + width / 2, y + (height - 0.7 * size) / 2, names[tag])
            x += width + gap

    def _draw_text(self, card: Card, color: Color) -> None:
        spec = self.design.text
        self.canvas.doForm(self._part("text-box", color, self._draw_text_box))
        if card.text:
            draw_from_top(self.canvas, _fitted(self.texts.text(card, spec.color), card, "text"), self.texts.text_box())

    def _draw_text_box(self, color: Color) -> None:
        c, s, spec = self.canvas, self.scale, self.design.text
        box = s.box(spec)
        c.setFillColor(HexColor(spec.fill))
        c.setStrokeColor(HexColor(color.hex if luminance(color.hex) < 0.6 else ink_of(color.hex)))
        c.setLineWidth(s.points(spec.border))
        c.roundRect(box.x, box.y, box.w, box.h, s.length(spec.radius), stroke=1 if spec.border > 0 else 0, fill=1)

    # -- text fitting

    def _inline_color(self, symbol: str) -> str:
        return ink_of(self._symbol_colors.get(symbol, self.design.text.color))

    def _inline_symbol(self, canvas: Canvas, kind: str, label: str) -> None:
        info = canvas._curr_tx_info  # ReportLab's documented onDraw context: position and size
        size = info["tx"]._fontsize or info["xs"].style.fontSize
        x, y = info["cur_x"], info["cur_y"]
        self._draw_symbol(label, self._inline_color(label), x + 0.525 * size, y + 0.36 * size, 0.95 * size)

    # -- art


    def _placeholder_form(self, color: Color, symbol_name: str) -> str:
        """The color's pattern with the card's symbol large in the middle, drawn once per color and symbol."""
        name = form_name("placeholder", color.id, symbol_name)
        if name in self.forms:
            return name
        box = self.scale.box(self.design.art)
        ink = ink_of(color.hex)
        symbol = self.symbol_form(symbol_name, ink)
        light = mix(color.hex, "#ffffff", 0.72)
        dots = mix(color.hex, "#ffffff", 0.45)
        small = self.symbol_form(symbol_name, dots)
        c = self.canvas
        c.beginForm(name, 0, 0, box.w, box.h)
        c.setFillColor(HexColor(light))
        c.rect(0, 0, box.w, box.h, stroke=0, fill=1)
        step = self.scale.length(6.5)
        icon = self.scale.length(3.2)
        for row in range(int(box.h / step) + 2):
            for col in range(int(box.w / step) + 2):
                x = col * step + (step / 2 if row % 2 else 0)
                c.saveState()
                c.translate(x - icon / 2, row * step - icon / 2)
                c.scale(icon, icon)
                c.doForm(small)
                c.restoreState()
        radius = min(box.w, box.h) * 0.34
        c.setFillColor(HexColor("#ffffff"))
        c.setStrokeColor(HexColor(ink))
        c.setLineWidth(self.scale.points(1.2))
        c.circle(box.w / 2, box.h / 2, radius, stroke=1, fill=1)
        size = radius * 1.3
        c.saveState()
        c.translate(box.w / 2 - size / 2, box.h / 2 - size / 2)
        c.scale(size, size)
        c.doForm(symbol)
        c.restoreState()
        c.endForm()
        self.forms.add(name)
        return name

    # -- the back

    def _back_symbols(self) -> list[str]:
        return [s for s in dict.fromkeys(c.symbol for c in self.game.colors) if symbols.symbol_path(self.game, s)]

    def _draw_back(self, spec: BackDesign, title: str) -> None:
        c, s = self.canvas, self.scale
        b = self.sheet.bleed
        c.setFillColor(HexColor(spec.background))
        c.rect(-b, -b, s.card_w + 2 * b, s.card_h + 2 * b, stroke=0, fill=1)
        symbols = self._back_symbols()
        step, size = s.length(spec.pattern_step), s.length(spec.pattern_size)
        rows, cols = int((s.card_h + 2 * b) / step) + 2, int((s.card_w + 2 * b) / step) + 2
        for row in range(rows):
            for col in range(cols):
                if not symbols:
                    break
                symbol = symbols[(row + col * 3) % len(symbols)]
                x = -b + col * step + (step / 2 if row % 2 else 0)
                y = s.card_h / 2 + (row - rows // 2) * step * 0.87
                c.saveState()
                c.translate(x, y)
                c.rotate(-15)
                c.scale(size, size)
                c.translate(-0.5, -0.5)
                c.doForm(self.symbol_form(symbol, spec.pattern))
                c.restoreState()
        inset = s.length(spec.inset)
        c.setStrokeColor(HexColor(spec.border))
        c.setLineWidth(s.points(2.2))
        c.roundRect(inset, inset, s.card_w - 2 * inset, s.card_h - 2 * inset, s.length(spec.radius), stroke=1, fill=0)
        self._draw_back_emblems(spec)
        self._draw_back_title(spec, title)

    def _back_emblem(self, spec: BackDesign) -> str | None:
        """The back's emblem symbol: the back's or the layout's choice (checked by load), else
        the first color's (if the game has that symbol)."""
        wanted = spec.emblem or self.game.colors[0].symbol
        return wanted if symbols.symbol_path(self.game, wanted) else None

    def _draw_back_emblems(self, spec: BackDesign) -> None:
        """The emblem above and (upside down) below the title: the back looks the same either way up."""
        emblem = self._back_emblem(spec)
        if emblem is None:
            return
        c, s = self.canvas, self.scale
        radius, distance = s.length(spec.emblem_radius), s.length(spec.emblem_distance)
        for sign in (1, -1):
            c.saveState()
            c.translate(s.card_w / 2, s.card_h / 2 + sign * distance)
            c.rotate(0 if sign > 0 else 180)
            c.setFillColor(HexColor(spec.medallion))
            c.setStrokeColor(HexColor(spec.border))
            c.setLineWidth(s.points(1.6))
            c.circle(0, 0, radius, stroke=1, fill=1)
            self._draw_symbol(emblem, spec.border, 0, 0, radius * 1.25)
            c.restoreState()

    def _draw_back_title(self, spec: BackDesign, text: str) -> None:
        c, s = self.canvas, self.scale
        width = self.texts.back_title_box().w
        paragraph = self.texts.back_title(text, spec.title_color)
        if paragraph is None:
            raise BuildError(f"the title '{text}' does not fit on the card back")
        pad = s.length(3.5)
        bottom, top = ink_extent(paragraph)
        h = top - bottom + 2 * pad
        y = (s.card_h - h) / 2
        c.setFillColor(HexColor(spec.medallion))
        c.setStrokeColor(HexColor(spec.border))
        c.setLineWidth(s.points(1.6))
        c.roundRect(s.card_w * 0.07, y, s.card_w * 0.86, h, h / 2 if h < s.card_w * 0.4 else s.length(4),
                    stroke=1, fill=1)
        paragraph.drawOn(c, (s.card_w - width) / 2, y + pad - bottom)


def _fitted(paragraph, card: Card, what: str):
    """A text set to fit: check measured every card the same way, so only a card size given at
    build time (--size) can leave one that does not fit."""
    if paragraph is None:
        raise BuildError(f"card '{card.name}': the {what} does not fit its box at this card size", card.where,
                         f"shorten the {what} or enlarge the box in layout.yaml")
    return paragraph


def draw_from_top(canvas: Canvas, paragraph, box: Rect) -> None:
    """Draw a wrapped paragraph with its glyphs' top at the top of the box."""
    bottom, top = ink_extent(paragraph)
    paragraph.drawOn(canvas, box.x, box.top - top)


def draw_centred(canvas: Canvas, paragraph, box: Rect) -> None:
    """Draw a wrapped paragraph with its glyphs centred vertically in the box."""
    bottom, top = ink_extent(paragraph)
    paragraph.drawOn(canvas, box.x, box.y + (box.h - (top - bottom)) / 2 - bottom)
