"""render/cards: print-and-play card sheets with ReportLab.

Each distinct card face (and the one back) is drawn once as a PDF form and placed on the
sheets as often as the setup needs it, clipped to its cell: so a 90-card deck costs about as
much as its 30 distinct cards, and the faces are identical wherever they appear. Positions
come from `layout` (pure geometry), the card design from the game's Layout (checked by load).
"""
from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from reportlab.graphics import renderPDF
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.check.reports import SetupReport
from cardgen.inputs import images, symbols
from cardgen.inputs.paths import game_roots
from cardgen.layout import sheet as layout
from cardgen.layout.reportlab_config import reproducible
from cardgen.layout.sheet import Rect, Sheet
from cardgen.layout.textfit import INLINE_SYMBOL, CardText, Fonts, ink_extent
from cardgen.model import markup, sizes
from cardgen.model.game import AUTO, Back, BuildError, Card, Color, Game, sheet_file_name
from cardgen.model.sizes import MM
from cardgen.render.write import atomic_write, output_dir

PNG_DPI = 150
CALIBRATION_REACH_MM = 15  # the calibration scales read offsets up to this many mm
CROP_MARK_WIDTH = 0.3  # points
FOLD_LINE_WIDTH = 0.4
RULER_LINE_WIDTH = 0.25
HINT_SIZE = 5.0  # points: two lines fill the ruler's strip
PLACEHOLDERS_NAMED = 8  # cards named in the warning about cards drawn without art


# --------------------------------------------------------------------------- public entry points


def write_setup_sheets(game: Game, setup_report: SetupReport, out_dir=None, *, players: int | None = None,
                       **options) -> Path:
    """cards-<setup>.pdf: the setup's print counts (or its deck at `players`) on sheets."""
    setup = setup_report.setup
    if players is None:
        counts = setup_report.print_counts
    else:
        counts = setup_report.player_count(players).print_counts
    cards = [card for card in game.cards for _ in range(counts.get(card.id, 0))]
    if not cards:
        raise BuildError(f"{setup.name}: the setup has no cards with a known count to print", setup.where)
    return _write(game, cards, output_dir(game, out_dir) / sheet_file_name(setup.name), **options)


def write_proof_sheet(game: Game, out_dir=None, **options) -> Path:
    """cards-all-types.pdf: one of every card type."""
    return _write(game, list(game.cards), output_dir(game, out_dir) / "cards-all-types.pdf", **options)


def write_calibration(game: Game, out_dir=None, *, paper: str = "a4", offset: tuple[float, float] = (0, 0),
                      mode: str = "long-edge", png: bool = False) -> Path:
    """calibration-<paper>.pdf: a front with scales and a back with cross lines, to read the
    duplex offset of a printer (flipping on the `mode`'s edge) against a light."""
    try:
        sheet = layout.make_sheet(paper, sizes.DEFAULT_CARD_SIZE, 0, offset, mode)
    except ValueError as exc:
        raise BuildError(str(exc)) from None
    if sheet.backs_beside_faces:
        raise BuildError("a gutterfold sheet is folded, not printed double-sided: it needs no calibration")
    with reproducible():
        fonts = Fonts(game.layout)
        canvas, buffer = _canvas(game, sheet, fonts, "duplex calibration", backs=True)
        _draw_calibration_front(canvas, sheet, fonts)
        canvas.showPage()
        _draw_calibration_back(canvas, sheet, fonts)
        canvas.showPage()
        canvas.save()
    return _output(buffer.getvalue(), output_dir(game, out_dir) / f"calibration-{paper}.pdf", png)


def render_sheets(game: Game, cards: list[Card], sheet: Sheet, backs: bool = True,
                  placeholders: set[str] | None = None) -> bytes:
    """The PDF bytes: face pages, each followed by its back page (or with the backs beside the
    faces, gutterfold). The names of cards
    drawn with placeholders (no art) go into `placeholders` when given."""
    with reproducible():
        return _render_sheets(game, cards, sheet, backs, placeholders)


def _render_sheets(game: Game, cards: list[Card], sheet: Sheet, backs: bool,
                   placeholders: set[str] | None) -> bytes:
    fonts = Fonts(game.layout)
    canvas, buffer = _canvas(game, sheet, fonts, "cards", backs)
    painter = CardPainter(game, canvas, sheet)
    _note_placeholders(cards, placeholders)
    for page in layout.pages(cards, sheet.per_page):
        faces = [(sheet.slot(i), sheet.cell(i)) for i in range(len(page))]
        placed = [(sheet.back_slot(i), sheet.back_cell(i)) for i in range(len(page))] if backs else []
        _set_boxes(canvas, faces + (placed if sheet.backs_beside_faces else []))
        for card, (slot, cell) in zip(page, faces):
            place(canvas, painter.face_form(card), slot, cell)
        _draw_crop_marks(canvas, sheet)
        _draw_print_hint(canvas, sheet, fonts, backs)
        if placed and sheet.backs_beside_faces:
            _place_backs(canvas, painter, sheet, page, placed)
            _draw_fold_line(canvas, sheet)
        canvas.showPage()
        if placed and not sheet.backs_beside_faces:
            _set_boxes(canvas, placed)
            _place_backs(canvas, painter, sheet, page, placed)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _place_backs(canvas: Canvas, painter: CardPainter, sheet: Sheet, page: list[Card],
                 placed: list[tuple[Rect, Rect]]) -> None:
    """Each card's own back where it lands behind its face."""
    for card, (slot, cell) in zip(page, placed):
        place(canvas, painter.back_form(card), slot, cell, turned=sheet.backs_upside_down)


def _write(game: Game, cards: list[Card], path: Path, *, paper: str = "a4", size: Any = None,
           bleed: float = sizes.DEFAULT_BLEED_MM, backs: bool = True, offset: tuple[float, float] = (0, 0),
           mode: str = "long-edge", spacing: str = "gutter", png: bool = False,
           placeholders: set[str] | None = None) -> Path:
    try:
        sheet = layout.make_sheet(paper, size or game.card_size, bleed, offset, mode, spacing)
    except ValueError as exc:
        raise BuildError(str(exc)) from None
    return _output(render_sheets(game, cards, sheet, backs, placeholders), path, png)


def _output(pdf: bytes, path: Path, png: bool) -> Path:
    atomic_write(path, pdf)
    if png:
        write_pngs(pdf, path)
    return path


def write_pngs(pdf: bytes, path: Path, dpi: int = PNG_DPI) -> list[Path]:
    """<name>-p01.png ... beside the PDF, one per page."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    written = []
    try:
        for number, page in enumerate(document, start=1):
            image = page.render(scale=dpi / 72).to_pil()
            data = io.BytesIO()
            image.save(data, "PNG")
            written.append(atomic_write(path.with_name(f"{path.stem}-p{number:02d}.png"), data.getvalue()))
    finally:
        document.close()
    return written


DUPLEX = {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge", "gutterfold": "Simplex"}
HINTS = {
    "long-edge": "Print double-sided, flipping on the long edge, then cut on the crop marks.",
    "short-edge": "Print double-sided, flipping on the short edge, then cut on the crop marks.",
    "gutterfold": "Print single-sided, fold on the dashed line (backs behind faces), glue, then cut on the crop marks.",
    "faces": "Print single-sided, then cut on the crop marks.",
}
SCALE_HINT = "Print at 100 % / actual size (no fit to page): the scale must measure 50 mm and 2 in."


def _canvas(game: Game, sheet: Sheet, fonts: Fonts, what: str, backs: bool) -> tuple[Canvas, io.BytesIO]:
    """A canvas whose document says what it is, embeds every font it names (the text font is the
    initial font, not Helvetica) and asks viewers to print at 100 % on the mode's duplex edge."""
    buffer = io.BytesIO()
    # explicit settings win over ~/.reportlab_settings; invariant: fixed date and id
    canvas = Canvas(buffer, pagesize=(sheet.page_w, sheet.page_h), invariant=1, pageCompression=1,
                    initialFontName=fonts["text"], initialFontSize=10, initialLeading=12)
    canvas.setTitle(f"{game.title}: {what}")
    canvas.setAuthor(game.author or game.title)
    canvas.setSubject(f"{game.title} {game.version}".strip() + f": print-and-play {what}, "
                      f"{sheet.card_w / MM:g}x{sheet.card_h / MM:g} mm, {_mode_of(sheet, backs)}")
    canvas.setCreator("cardgen")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", DUPLEX[sheet.mode] if backs else "Simplex")
    return canvas, buffer


def _mode_of(sheet: Sheet, backs: bool) -> str:
    return sheet.mode if backs else "faces only"


def _set_boxes(canvas: Canvas, placed: list[tuple[Rect, Rect]]) -> None:
    """The next page's TrimBox (around the cards' trim lines) and BleedBox (around their bleed)."""
    for name, rects in (("trim", [slot for slot, _ in placed]), ("bleed", [cell for _, cell in placed])):
        canvas.setCropBox((min(r.x for r in rects), min(r.y for r in rects),
                           max(r.right for r in rects), max(r.top for r in rects)), name=name)


def place(canvas: Canvas, form: str, slot: Rect, cell: Rect, turned: bool = False) -> None:
    """A card's form on its slot, clipped to its cell; `turned` half round (a short-edge back)."""
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(cell.x, cell.y, cell.w, cell.h)
    canvas.clipPath(path, stroke=0, fill=0)
    if turned:
        canvas.translate(slot.right, slot.top)
        canvas.rotate(180)
    else:
        canvas.translate(slot.x, slot.y)
    canvas.doForm(form)
    canvas.restoreState()


def _draw_crop_marks(canvas: Canvas, sheet: Sheet) -> None:
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(CROP_MARK_WIDTH)
    for (x1, y1), (x2, y2) in sheet.crop_marks():
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def _draw_fold_line(canvas: Canvas, sheet: Sheet) -> None:
    """A dashed line the height of the cards' bleed, in the middle of the gap between faces and
    backs."""
    x, outer = sheet.page_w / 2, sheet.outer
    canvas.saveState()
    canvas.setStrokeColorRGB(0.45, 0.45, 0.45)
    canvas.setLineWidth(FOLD_LINE_WIDTH)
    canvas.setDash(4, 3)
    canvas.line(x, outer.y, x, outer.top)
    canvas.restoreState()


def _draw_print_hint(canvas: Canvas, sheet: Sheet, fonts: Fonts, backs: bool) -> None:
    """In the strip outside the cards: a scale of 50 mm above and 2 in below one line, then how
    to print. Upright strips read from bottom to top."""
    box = sheet.info_box()
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
                             ("bold", text_x, upper, SCALE_HINT),
                             ("text", text_x, lower, HINTS[sheet.mode if backs else "faces"])):
        canvas.setFont(fonts[font], HINT_SIZE)
        canvas.drawString(x, y, text)
    canvas.restoreState()


def _note_placeholders(cards: Iterable[Card], placeholders: set[str] | None = None) -> None:
    """The cards drawn with placeholders go into `placeholders` when given: the build warns
    about them once, for all its sheets."""
    if placeholders is not None:
        placeholders.update(card.name for card in cards if card.art_file is None)


def placeholder_warning(game: Game, names: Iterable[str]) -> str:
    """The warning about cards that have no art and are drawn with placeholders: the first few
    names, so that a deck with no art yet gets one readable line, not a hundred names."""
    names = list(names)
    shown = ", ".join(names[:PLACEHOLDERS_NAMED])
    if len(names) > PLACEHOLDERS_NAMED:
        shown += f" and {len(names) - PLACEHOLDERS_NAMED} more"
    return f"warning: {game.id}: {len(names)} card(s) have no art, drawn with placeholders: {shown}"


# --------------------------------------------------------------------------- fonts, symbols, art


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


# --------------------------------------------------------------------------- colors


def _rgb(hex_color: str) -> tuple[float, float, float]:
    value = hex_color.lstrip("#")
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))


def _luminance(hex_color: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(hex_color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _mix(hex_color: str, other: str, amount: float) -> str:
    a, b = _rgb(hex_color), _rgb(other)
    return "#" + "".join(f"{round(255 * (x + (y - x) * amount)):02x}" for x, y in zip(a, b))


def ink_of(hex_color: str) -> str:
    """The color made dark enough to read on white (symbols, borders on the panel)."""
    ink = hex_color
    while _luminance(ink) > 0.22:
        ink = _mix(ink, "#000000", 0.15)
    return ink


MIN_CONTRAST = 4.5  # WCAG AA for text: card names against their band
DARK_TEXT = "#1b1b1f"


def text_on(color: Color) -> str:
    """Text color on the color's band: the data's choice, else white where it reads (WCAG
    4.5:1), else the dark text; made readable either way."""
    if color.text_hex:
        return readable(color.text_hex, color.hex)
    return "#ffffff" if _contrast("#ffffff", color.hex) >= MIN_CONTRAST else readable(DARK_TEXT, color.hex)


def readable(text_hex: str, background_hex: str) -> str:
    """The text color, darkened or lightened (whichever reaches it first, keeping the hue as
    long as possible) until it has MIN_CONTRAST against the background."""
    if _contrast(text_hex, background_hex) >= MIN_CONTRAST:
        return text_hex
    for step in range(1, 21):
        for target in ("#000000", "#ffffff"):
            candidate = _mix(text_hex, target, step / 20)
            if _contrast(candidate, background_hex) >= MIN_CONTRAST:
                return candidate
    return "#000000" if _contrast("#000000", background_hex) >= _contrast("#ffffff", background_hex) else "#ffffff"


def name_color(game: Game, card: Card) -> str:
    """The color of a card's name on its band: the kind's or color's title color, else the
    color's text color, at least MIN_CONTRAST against the band."""
    color = game.color(card.color)
    return readable(game.title_hex(card) or text_on(color), color.hex)


BACK_DARK = "#15171c"  # the neutral a derived back's background is mostly made of


def back_design(game: Game, back: Back | None) -> dict:
    """The layout's back with a back's own colors and emblem over it, every color still `auto`
    derived from the game's palette: a deep shade of its first color for the background, the
    symbols a little lighter, the first color lightened until it reads there for the border and
    emblems, a darker medallion and a title that reads on it."""
    spec = dict(game.layout["back"])
    if back:
        spec.update({key: value for key in ("background", "pattern", "border", "emblem")
                     if (value := getattr(back, key))})
    first = game.colors[0].hex
    background = first_set(spec["background"], lambda: _mix(first, BACK_DARK, 0.8))
    away = "#ffffff" if _luminance(background) < 0.18 else "#000000"  # from the background, towards contrast
    spec["background"] = background
    spec["pattern"] = first_set(spec["pattern"], lambda: _mix(background, away, 0.08))
    spec["border"] = first_set(spec["border"], lambda: readable(_mix(first, away, 0.45), background))
    spec["medallion"] = first_set(spec["medallion"], lambda: _mix(background, "#000000", 0.3))
    spec["title_color"] = first_set(spec["title_color"], lambda: readable(away, spec["medallion"]))
    return spec


def first_set(value: str, derived) -> str:
    return derived() if value == AUTO else value


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colors (1 to 21)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# --------------------------------------------------------------------------- the card painter


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
        self.design = game.layout
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
                self.symbol_form(symbol, spec["pattern"])
            if emblem := self._back_emblem(spec):
                self.symbol_form(emblem, spec["border"])
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
        star = self.design["star"]
        self.symbol_form("star", star["outline"])
        self.symbol_form("star", star["fill"])
        for symbol in markup.symbol_names(card.text) + markup.symbol_names(card.flavor):
            self.symbol_form(symbol, self._inline_color(symbol))
        symbol = self.game.symbol_of(card)
        self._part("chrome", color, lambda c: self._draw_chrome(c, symbol), symbol)
        if card.number is not None:
            self._part("number-badge", color, lambda c: self._draw_badge(self.design["number"], c))
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
        c, s, frame = self.canvas, self.scale, self.design["frame"]
        b = self.sheet.bleed
        c.setFillColor(HexColor(color.hex))
        c.rect(-b, -b, s.card_w + 2 * b, s.card_h + 2 * b, stroke=0, fill=1)
        inset = s.length(frame["inset"])
        top = s.y(frame["header"])
        c.setFillColor(HexColor(frame["panel"]))
        c.roundRect(inset, inset, s.card_w - 2 * inset, top - inset, s.length(frame["radius"]), stroke=0, fill=1)

    def _draw_badge(self, spec: Mapping, color: Color) -> tuple[float, float]:
        """The round badge of a corner (symbol, number): filled with the spec's badge color,
        ringed in the color's ink. Returns its centre."""
        c, s = self.canvas, self.scale
        x, y = s.point(spec)
        c.setFillColor(HexColor(spec["badge"]))
        c.setStrokeColor(HexColor(ink_of(color.hex)))
        c.setLineWidth(s.points(0.8))
        c.circle(x, y, s.length(spec["radius"]), stroke=1, fill=1)
        return x, y

    def _draw_symbol_badge(self, color: Color, symbol: str) -> None:
        spec = self.design["symbol"]
        x, y = self._draw_badge(spec, color)
        self._draw_symbol(symbol, ink_of(color.hex), x, y, self.scale.length(spec["size"]))

    def _draw_star(self) -> None:
        s, spec = self.scale, self.design["star"]
        x, y = s.point(spec)
        size = s.length(spec["size"])
        self._draw_symbol("star", spec["outline"], x, y, size * 1.3)
        self._draw_symbol("star", spec["fill"], x, y, size)

    def _draw_number(self, card: Card, color: Color) -> None:
        c, s, spec = self.canvas, self.scale, self.design["number"]
        c.doForm(self._part("number-badge", color, lambda c: self._draw_badge(spec, c)))
        x, y = s.point(spec)
        text = str(card.number)
        font, size = self.fonts[spec["font"]], s.points(spec["size"])
        width_room = 1.6 * s.length(spec["radius"])
        size = min(size, size * width_room / max(pdfmetrics.stringWidth(text, font, size), 0.01))
        c.setFillColor(HexColor(ink_of(color.hex)))
        c.setFont(font, size)
        c.drawCentredString(x, y - 0.36 * size, text)

    def _draw_name(self, card: Card, color: Color) -> None:
        spec, s = self.design["name"], self.scale
        title = name_color(self.game, card)
        offset = s.points(spec["shadow"])
        box = self.texts.name_box()
        paragraph = _fitted(self.texts.name(card, title), card, "name")
        if offset:
            # a soft drop shadow in the band's own dark (or light) tone, for layouts that want one
            tone = _mix(color.hex, "#000000" if _luminance(title) > 0.3 else "#ffffff", 0.55)
            shadow = Paragraph(markup.escape(card.name), self.texts.style(spec, tone)(paragraph.style.fontSize))
            shadow.wrap(box.w, box.h)
            draw_centred(self.canvas, shadow, box.moved(offset, -offset))
        draw_centred(self.canvas, paragraph, box)

    def _draw_flavor(self, card: Card) -> None:
        if not card.flavor:
            return
        paragraph = _fitted(self.texts.flavor(card, self.design["flavor"]["color"]), card, "flavor")
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
        c, s, spec = self.canvas, self.scale, self.design["art"]
        box = s.box(spec)
        radius = s.length(spec["radius"])
        c.saveState()
        path = c.beginPath()
        path.roundRect(box.x, box.y, box.w, box.h, radius)
        c.clipPath(path, stroke=0, fill=0)
        draw(box)
        c.restoreState()
        c.setStrokeColor(HexColor(ink_of(color.hex)))
        c.setLineWidth(s.points(spec["border"]))
        c.roundRect(box.x, box.y, box.w, box.h, radius, stroke=1, fill=0)

    def _art(self, card: Card) -> bytes:
        """The bytes of the card's art as checked (load checked the file; were it changed since,
        it is checked again): what is drawn is what was checked."""
        try:
            return images.checked(card.art_file, game_roots(self.game.folder))
        except images.BadImage as exc:
            raise BuildError(f"card '{card.name}': art '{card.art}' {exc}", card.where, exc.hint) from None

    def _draw_image(self, data: bytes, box: Rect) -> None:
        """Cover the box, centred, cropping what sticks out."""
        from reportlab.lib.utils import ImageReader

        image = ImageReader(images.drawable(data))
        placed = layout.cover(box, *image.getSize())
        self.canvas.drawImage(image, placed.x, placed.y, placed.w, placed.h, mask="auto")

    def _draw_tags(self, card: Card) -> None:
        if not card.tags:
            return
        c, s, spec = self.canvas, self.scale, self.design["tags"]
        names = {t.id: t.name for t in self.game.tags}
        font, size = self.fonts[spec["font"]], s.points(spec["size"])
        height = s.length(spec["height"])
        pad, gap = height * 0.7, s.length(spec["gap"])
        widths = [pdfmetrics.stringWidth(names[t], font, size) + 2 * pad for t in card.tags]
        x = (s.card_w - sum(widths) - gap * (len(widths) - 1)) / 2
        y = s.y(spec["y"]) - height
        c.setLineWidth(s.points(0.9))
        for tag, width in zip(card.tags, widths):
            c.setFillColor(HexColor(spec["fill"]))
            c.setStrokeColor(HexColor(self.design["frame"]["panel"]))
            c.roundRect(x, y, width, height, height / 2, stroke=1, fill=1)
            c.setFillColor(HexColor(spec["color"]))
            c.setFont(font, size)
            c.drawCentredString(x + width / 2, y + (height - 0.7 * size) / 2, names[tag])
            x += width + gap

    def _draw_text(self, card: Card, color: Color) -> None:
        spec = self.design["text"]
        self.canvas.doForm(self._part("text-box", color, self._draw_text_box))
        if card.text:
            draw_from_top(self.canvas, _fitted(self.texts.text(card, spec["color"]), card, "text"), self.texts.text_box())

    def _draw_text_box(self, color: Color) -> None:
        c, s, spec = self.canvas, self.scale, self.design["text"]
        box = s.box(spec)
        c.setFillColor(HexColor(spec["fill"]))
        c.setStrokeColor(HexColor(color.hex if _luminance(color.hex) < 0.6 else ink_of(color.hex)))
        c.setLineWidth(s.points(spec["border"]))
        c.roundRect(box.x, box.y, box.w, box.h, s.length(spec["radius"]), stroke=1, fill=1)

    # -- text fitting

    def _inline_color(self, symbol: str) -> str:
        return ink_of(self._symbol_colors.get(symbol, self.design["text"]["color"]))

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
        box = self.scale.box(self.design["art"])
        ink = ink_of(color.hex)
        symbol = self.symbol_form(symbol_name, ink)
        light = _mix(color.hex, "#ffffff", 0.72)
        dots = _mix(color.hex, "#ffffff", 0.45)
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

    def _draw_back(self, spec: Mapping, title: str) -> None:
        c, s = self.canvas, self.scale
        b = self.sheet.bleed
        c.setFillColor(HexColor(spec["background"]))
        c.rect(-b, -b, s.card_w + 2 * b, s.card_h + 2 * b, stroke=0, fill=1)
        symbols = self._back_symbols()
        step, size = s.length(spec["pattern_step"]), s.length(spec["pattern_size"])
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
                c.doForm(self.symbol_form(symbol, spec["pattern"]))
                c.restoreState()
        inset = s.length(spec["inset"])
        c.setStrokeColor(HexColor(spec["border"]))
        c.setLineWidth(s.points(2.2))
        c.roundRect(inset, inset, s.card_w - 2 * inset, s.card_h - 2 * inset, s.length(spec["radius"]), stroke=1, fill=0)
        self._draw_back_emblems(spec)
        self._draw_back_title(spec, title)

    def _back_emblem(self, spec: Mapping) -> str | None:
        """The back's emblem symbol: the back's or the layout's choice (checked by load), else
        the first color's (if the game has that symbol)."""
        wanted = spec["emblem"] or self.game.colors[0].symbol
        return wanted if symbols.symbol_path(self.game, wanted) else None

    def _draw_back_emblems(self, spec: Mapping) -> None:
        """The emblem above and (upside down) below the title: the back looks the same either way up."""
        emblem = self._back_emblem(spec)
        if emblem is None:
            return
        c, s = self.canvas, self.scale
        radius, distance = s.length(spec["emblem_radius"]), s.length(spec["emblem_distance"])
        for sign in (1, -1):
            c.saveState()
            c.translate(s.card_w / 2, s.card_h / 2 + sign * distance)
            c.rotate(0 if sign > 0 else 180)
            c.setFillColor(HexColor(spec["medallion"]))
            c.setStrokeColor(HexColor(spec["border"]))
            c.setLineWidth(s.points(1.6))
            c.circle(0, 0, radius, stroke=1, fill=1)
            self._draw_symbol(emblem, spec["border"], 0, 0, radius * 1.25)
            c.restoreState()

    def _draw_back_title(self, spec: Mapping, text: str) -> None:
        c, s = self.canvas, self.scale
        width = self.texts.back_title_box().w
        paragraph = self.texts.back_title(text, spec["title_color"])
        if paragraph is None:
            raise BuildError(f"the title '{text}' does not fit on the card back")
        pad = s.length(3.5)
        bottom, top = ink_extent(paragraph)
        h = top - bottom + 2 * pad
        y = (s.card_h - h) / 2
        c.setFillColor(HexColor(spec["medallion"]))
        c.setStrokeColor(HexColor(spec["border"]))
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


# --------------------------------------------------------------------------- calibration


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
    edge = "short" if sheet.mode == "short-edge" else "long"
    lines = [f"Duplex calibration ({sheet.mode}): print this sheet double-sided, flipping on the {edge} edge.",
             "Hold it against a light: the back shows one long cross.",
             "X is where its vertical line crosses the upper scale, Y where its horizontal line",
             "crosses the right-hand scale (millimetres). Build the cards with",
             f"cardgen cards GAME --mode {sheet.mode} --offset X,Y",
             "adding the readings to the offset this sheet was printed with, if any."]
    y = sheet.page_h - 25 * MM
    for number, line in enumerate(lines):
        canvas.setFont(fonts["bold" if number in (0, 4) else "text"], 11 if number == 0 else 10)
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
    canvas.drawCentredString(sheet.page_w / 2, 12 * MM, "Back of the calibration sheet: one cross through the centre.")
