"""render/cards/painter: one card face or back drawn as a PDF form, from the game's layout."""
from __future__ import annotations

import dataclasses
import hashlib
from functools import lru_cache
from typing import Union

from reportlab.graphics import renderPDF
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardgen.errors import BuildError
from cardgen.inputs import symbols
from cardgen.layout.colors import back_design, ink_of, mix
from cardgen.layout.sheet import Rect, Sheet
from cardgen.layout.textfit import INLINE_SYMBOL, CardText
from cardgen.model import markup
from cardgen.model.faces import ART, BACK_FACE, IMAGE, PATTERN, REPEAT, SYMBOL, TEXT, Element, Face
from cardgen.model.fields import FieldValue
from cardgen.model.game import Back, Card, Color, Game
from cardgen.render.cards.elements import ElementDrawing, hex_of, is_static, pattern_symbols, symbol_name


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
    return f"{kind}-{_digest(keys)}"


@lru_cache(maxsize=1024)  # a sheet asks for the same parts' names on every card: they stay, a thousand faces' names go
def _digest(keys: tuple[str, ...]) -> str:
    return hashlib.sha1("\0".join(keys).encode("utf-8")).hexdigest()[:16]


# a face as drawn: runs of elements alike on every card of a color (one form each), or one element
DrawStep = Union[tuple[str, tuple[Element, ...]], Element]


def back_side(game: Game, card: Card, back: Back | None) -> Card:
    """The card as its back face reads it: with the back's {title} and {emblem} (its symbol, else
    the first color's, where the game has that symbol)."""
    emblem = back_design(game, back).emblem or game.colors[0].symbol
    values: dict[str, FieldValue] = {"title": game.back_title(back)}
    if symbols.symbol_path(game, emblem):
        values["emblem"] = emblem
    return dataclasses.replace(card, fields={**card.fields, **values})


class CardPainter(ElementDrawing):
    """Draws card faces and the back as PDF forms on one canvas (each form once)."""

    def __init__(self, game: Game, canvas: Canvas, sheet: Sheet):
        self.game, self.canvas, self.sheet = game, canvas, sheet
        self.design = game.design
        self.faces = self.design.faces
        self.texts = CardText(game, sheet.card_w, sheet.card_h)
        self.fonts, self.scale = self.texts.fonts, self.texts.scale
        self.sheet_bleed = sheet.bleed
        self.forms: set[str] = set()
        self._plans: dict[str, list[DrawStep]] = {}
        self._backs: dict[str, str] = {}  # each card's back form, by card id
        self._symbol_colors = {c.symbol: c.hex for c in game.colors}
        self._inline_default = "#000000"
        canvas.setNamedCB(INLINE_SYMBOL, self._inline_symbol)

    def done(self) -> None:
        """The canvas is saved: it lets go of the painter (its inline-symbol callback), so that
        neither keeps the other, and all the canvas's pages, alive."""
        self.canvas.setNamedCB(INLINE_SYMBOL, None)

    # -- forms

    def face_form(self, card: Card) -> str:
        name = form_name("face", card.id)
        if name not in self.forms:
            face = self.faces.of(card)
            try:
                steps = self._steps(card, face)
                self._prepare(card, steps)
                self._form(name, lambda: self._draw_face(card, steps))
            except BuildError:
                raise
            except Exception as exc:  # ReportLab and svglib fail with many exception types
                raise BuildError(f"card '{card.name}' cannot be drawn: {exc.__class__.__name__}: {exc}",
                                 card.where) from None
        return name

    def back_form(self, card: Card) -> str:
        """The form of the card's own back: the face its back names (a double-faced card, drawn
        for each card), else the shipped back face (drawn once per back)."""
        if card.id in self._backs:
            return self._backs[card.id]
        back = self.game.back_of(card)
        face = self.faces.back(back.face if back else None)
        keys = (back.id if back else "", *([face.id] if face.id != BACK_FACE else []),
                *([card.id] if face.reads_card() else []))
        name = form_name("back", *keys)
        if name not in self.forms:
            side = back_side(self.game, card, back)
            steps = self._steps(side, face)
            self._prepare(side, steps)
            self._form(name, lambda: self._draw_face(side, steps))
        self._backs[card.id] = name
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

    def _plan(self, face: Face) -> list[DrawStep]:
        """The face as drawn: runs of elements alike on every card of a color and symbol (one
        form each, per color and symbol) and the elements each card draws itself. Made once per
        face: a card only evaluates the `when:`s and fills in the texts."""
        if face.id not in self._plans:
            steps: list[DrawStep] = []
            for index, element in enumerate(face.elements):
                last = steps[-1] if steps else None
                if not is_static(element):
                    steps.append(element)
                elif isinstance(last, tuple) and last[1][-1].when is element.when:
                    steps[-1] = (last[0], (*last[1], element))
                else:
                    steps.append((f"{face.id}-{index}", (element,)))
            self._plans[face.id] = steps
        return self._plans[face.id]

    def _steps(self, card: Card, face: Face) -> list[DrawStep]:
        """The steps of the face's plan the card shows."""
        return [step for step in self._plan(face) if self._shown(step, card)]

    def _shown(self, step: DrawStep, card: Card) -> bool:
        when = step[1][0].when if isinstance(step, tuple) else step.when
        return when is None or when.holds(card.value)

    def _prepare(self, card: Card, steps: list[DrawStep]) -> None:
        """Forms a face uses must exist before its own form starts (forms do not nest)."""
        color = self.game.color(card.color)
        symbol = self.game.symbol_of(card)
        for step in steps:
            for element in step[1] if isinstance(step, tuple) else (step,):
                self._prepare_element(element, card, color)
            if isinstance(step, tuple):
                self._run_form(step, card, color, symbol)

    def _prepare_element(self, element: Element, card: Card, color: Color) -> None:
        if element.kind == SYMBOL:
            self.symbol_form(symbol_name(element, self.game, card), hex_of(element.color, self.game, card, color))
        elif element.kind == TEXT and element.markup:
            for symbol in markup.symbols_named_in(self.texts.value(element, card)):
                self.symbol_form(symbol, self._inline_color(symbol, hex_of(element.color, self.game, card, color)))
        elif element.kind == IMAGE and element.image == ART and card.art_file is None:
            symbol = self.game.symbol_of(card)
            box = self.scale.box(element)
            self._placeholder_form(color, symbol, box)
            self._placeholder_art(element, card, color, box)
        elif element.kind == REPEAT and element.item is not None:
            self._prepare_element(element.item, card, color)
        elif element.kind == PATTERN:
            for symbol in pattern_symbols(element, self.game, card):
                self.symbol_form(symbol, hex_of(element.color, self.game, card, color))

    def _run_form(self, step: tuple[str, tuple[Element, ...]], card: Card, color: Color, symbol: str) -> str:
        run, elements = step

        def draw(on: Color) -> None:
            for element in elements:
                self.draw_element(element, card, on)

        return self._part(run, color, draw, symbol)

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

    def _draw_face(self, card: Card, steps: list[DrawStep]) -> None:
        color = self.game.color(card.color)
        symbol = self.game.symbol_of(card)
        for step in steps:
            if isinstance(step, tuple):
                self.canvas.doForm(self._run_form(step, card, color, symbol))
            else:
                self.draw_element(step, card, color)

    # -- text fitting

    def _inline_color(self, symbol: str, default: str) -> str:
        """An inline symbol's color: its color's ink, else the ink of the text around it."""
        return ink_of(self._symbol_colors.get(symbol, default))

    def _inline_symbol(self, canvas: Canvas, kind: str, label: str) -> None:
        info = canvas._curr_tx_info  # ReportLab's documented onDraw context: position and size
        size = info["tx"]._fontsize or info["xs"].style.fontSize
        x, y = info["cur_x"], info["cur_y"]
        self._draw_symbol(label, self._inline_color(label, self._inline_default), x + 0.525 * size, y + 0.36 * size, 0.95 * size)

    # -- art

    def _placeholder_form(self, color: Color, symbol_name: str, box: Rect) -> str:
        """The color's pattern with the card's symbol large in the middle, drawn once per color,
        symbol and size."""
        name = form_name("placeholder", color.id, symbol_name, f"{box.w:.3f}x{box.h:.3f}")
        if name in self.forms:
            return name
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
