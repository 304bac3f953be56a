"""textfit (layout stage): a card's texts set in their boxes, with ReportLab's own font metrics.

Each text gets the largest size, on a FIT_STEP grid, at which its lines fit its box (a name
first tries one line, then wraps, then splits words). The card renderer draws the paragraphs
set here, and the check stage sets every card the same way before anything is drawn: a text
that does not fit even at its smallest allowed size is an error there, with the size it would
need, so a game that passes `check` draws.
"""
from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph

from cardgen.errors import BuildError
from cardgen.inputs import symbols
from cardgen.inputs.files import MAX_FONT_BYTES, UnreadableInput, read_input
from cardgen.inputs.paths import ART
from cardgen.layout.reportlab_config import reproducible
from cardgen.layout.sheet import Rect
from cardgen.model import markup
from cardgen.model.game import Card, Game
from cardgen.model.layout import Layout, NameBox, Region, Spot, TextBox
from cardgen.model.sizes import MM

# a font's paragraph styles by font size
StyleAt = Callable[[float], ParagraphStyle]

FIT_STEP = 0.25  # font sizes tried when shrinking text to fit, in points
SMALLEST = 1.0  # the smallest size a finding measures: the layout's min_size cannot go below it
BACK_TITLE_MIN = 6.0  # the game title on the back shrinks down to this (scaled with the card)
SPACER = ART / "spacer.png"  # 1x1 transparent: reserves an inline symbol's room in a line
INLINE_SYMBOL = "cg-symbol"  # the onDraw callback that draws an inline symbol in its room
MEASURE_COLOR = "#000000"  # color does not change a text's size: the check sets texts in black

# the layout's text family: font role -> (bold, italic), as ReportLab's family mapping sees it
FAMILY = {"text": (False, False), "bold": (True, False), "italic": (False, True), "bold_italic": (True, True)}
ROLE_OF = {flags: role for role, flags in FAMILY.items()}


# --------------------------------------------------------------------------- fonts and scale


class Fonts:
    """The layout's font roles, registered with ReportLab (each file once per process)."""

    def __init__(self, design: Layout):
        self.roles = {role: _register_font(path) for role, path in design.fonts.items()}
        self.family = self.roles["text"]
        pdfmetrics.registerFontFamily(self.family, normal=self.roles["text"], bold=self.roles["bold"],
                                      italic=self.roles["italic"], boldItalic=self.roles["bold_italic"])

    def __getitem__(self, role: str) -> str:
        return self.roles[role]


@cache
def _register_font(path: Path) -> str:
    """ReportLab font name from the file's content, so equal fonts give equal PDFs anywhere."""
    try:
        data = read_input(path, MAX_FONT_BYTES, (path.parent.parent, ART))
    except UnreadableInput as exc:
        raise BuildError(f"font {path.name} {exc}", str(path), "replace or remove the file in fonts/") from None
    name = f"{path.stem}-{hashlib.sha1(data).hexdigest()[:6]}"
    with reproducible():  # the font keeps the settings it is made with
        pdfmetrics.registerFont(TTFont(name, io.BytesIO(data)))  # load checked that it can
    return name


@dataclass(frozen=True)
class Scale:
    """Maps layout millimetres (top-left origin, design size) to card points (bottom-left origin)."""

    card_w: float
    card_h: float
    sx: float
    sy: float

    @classmethod
    def of(cls, design: Layout, card_w: float, card_h: float) -> Scale:
        size = design.design
        return cls(card_w, card_h, card_w / (size.width * MM), card_h / (size.height * MM))

    @property
    def s(self) -> float:
        return min(self.sx, self.sy)

    def box(self, region: Region) -> Rect:
        w, h = region.width * self.sx * MM, region.height * self.sy * MM
        return Rect(region.x * self.sx * MM, self.card_h - region.y * self.sy * MM - h, w, h)

    def point(self, region: Spot) -> tuple[float, float]:
        return region.x * self.sx * MM, self.card_h - region.y * self.sy * MM

    def y(self, mm_from_top: float) -> float:
        return self.card_h - mm_from_top * self.sy * MM

    def length(self, mm: float) -> float:
        return mm * self.s * MM

    def points(self, size: float) -> float:
        """A font size or line width of the design, at this card size (minimum sizes do not
        scale: they are what stays legible)."""
        return size * self.s


# --------------------------------------------------------------------------- the card's texts


class CardText:
    """The texts of a game's card faces at one card size, each set in its box."""

    def __init__(self, game: Game, card_w: float, card_h: float):
        self.game, self.design = game, game.design
        self.fonts = Fonts(self.design)
        self.scale = Scale.of(self.design, card_w, card_h)
        self._deck_name_size: float | None = None

    # -- boxes

    def name_box(self) -> Rect:
        spec = self.design.name
        offset = self.scale.points(spec.shadow)
        return self.scale.box(spec).grow(0, -offset, -offset, 0)  # room for the shadow inside the box

    def flavor_box(self) -> Rect:
        return self.scale.box(self.design.flavor)

    def text_box(self) -> Rect:
        spec = self.design.text
        return self.scale.box(spec).inset(self.scale.length(spec.padding))

    def back_title_box(self) -> Rect:
        """The width the title may take and the height it may reach (placed by the renderer)."""
        return Rect(0, 0, self.scale.card_w * 0.78, self.scale.card_h * 0.3)

    # -- the texts: a Paragraph, or None when the text does not fit at `min_size`

    def name(self, card: Card, hex_color: str, min_size: float | None = None) -> Paragraph | None:
        """The deck's one name size where the name fits (on one or two lines); else one line
        while it stays big enough, else wrapped smaller, else with words split."""
        spec, box = self.design.name, self.name_box()
        text = markup.escape(card.name)
        return _fits(text, self.style(spec, hex_color)(self.deck_name_size()), box.w, box.h, max_lines=2) or \
            self._one_line(card.name, spec, box, hex_color) or \
            self._fit(lambda size: text, spec, box, hex_color, min_size) or \
            self._fit(lambda size: text, spec, box, hex_color, min_size, split_words=True)

    def deck_name_size(self) -> float:
        """One name size for the whole deck: the largest at which every printed name fits its box
        on one or two lines, leaving out the few names that only fit below one_line_min (they
        get their own smaller size)."""
        if self._deck_name_size is None:
            spec, box = self.design.name, self.name_box()
            style, font = self.style(spec, MEASURE_COLOR), self.fonts[spec.font]
            best = self.scale.points(spec.size)
            names = {card.name for card in self.game.cards if card.printed}
            # widest first, and a name that fits at the size found so far cannot lower it: most
            # names cost one wrap, not a search
            for name in sorted(names, key=lambda n: (-pdfmetrics.stringWidth(n, font, 1), n)):
                text = markup.escape(name)
                if _fits(text, style(best), box.w, box.h, max_lines=2):
                    continue
                fitted = fit_paragraph(lambda size: text, style, box.w, box.h, best, spec.one_line_min,
                                       max_lines=2)
                if fitted is not None:
                    best = fitted.style.fontSize
            self._deck_name_size = best
        return self._deck_name_size

    def flavor(self, card: Card, hex_color: str, min_size: float | None = None) -> Paragraph | None:
        return self._fit(self.markup_at(card.flavor), self.design.flavor, self.flavor_box(), hex_color, min_size)

    def text(self, card: Card, hex_color: str, min_size: float | None = None) -> Paragraph | None:
        return self._fit(self.markup_at(card.text), self.design.text, self.text_box(), hex_color, min_size)

    def back_title(self, text: str, hex_color: str, min_size: float | None = None) -> Paragraph | None:
        """A back's title (the game's or a back's own) in the back's title box."""
        spec, box = self.design.back, self.back_title_box()
        style = _style_factory(self.fonts[spec.title_font], self.fonts.family, 1.0, hex_color)
        title = markup.escape(text)
        smallest = self.scale.points(BACK_TITLE_MIN) if min_size is None else min_size
        return fit_paragraph(lambda size: title, style, box.w, box.h, self.scale.points(spec.title_size), smallest)

    def surely_fits(self, field: str, value: str) -> bool:
        """True when a name, flavor or text surely fits its box at the layout's smallest size,
        known from glyph widths alone, without setting a Paragraph. Greedy line breaking fills
        every line but the last beyond the box width less one space and the longest word, which
        bounds the number of lines. False means: set it to know (inline symbols, line breaks,
        emphasis in a font outside the body family)."""
        spec = self.design.text_box(field)
        box: Rect = getattr(self, f"{field}_box")()
        runs = _font_runs(value, self.fonts, spec.font, markup_applies=field != "name")
        if runs is None:
            return False
        size: float = spec.min_size
        words, space = _word_widths(runs, size)
        if not words or max(words) > box.w:
            return False
        total = sum(words) + space * (len(words) - 1)
        if total <= box.w:
            lines = 1
        elif box.w - space - max(words) > 0:
            lines = math.ceil(total / (box.w - space - max(words)))
        else:
            return False
        return ink_height(self.fonts[spec.font], size, size * spec.leading, lines) <= box.h + 1e-6

    def style(self, spec: TextBox, hex_color: str, split_words: bool = False) -> StyleAt:
        return _style_factory(self.fonts[spec.font], self.fonts.family, spec.leading, hex_color, split_words)

    def markup_at(self, text: str) -> Callable[[float], str]:
        """The text's Paragraph markup at a given font size (inline symbols scale with it)."""
        return lambda size: markup.to_paragraph(text, lambda symbol: self._inline_markup(symbol, size))

    def _inline_markup(self, symbol: str, size: float) -> str | None:
        if symbols.symbol_path(self.game, symbol) is None:
            return None
        # the image only reserves room in the line; the renderer's callback draws the symbol there
        return (f'<onDraw name="{INLINE_SYMBOL}" label="{symbol}"/>'
                f'<img src="{markup.escape(str(SPACER))}" width="{1.05 * size:.2f}" height="{0.8 * size:.2f}" valign="baseline"/>')

    def _fit(self, text_at: Callable[[float], str], spec: TextBox, box: Rect, hex_color: str,
             min_size: float | None = None, split_words: bool = False) -> Paragraph | None:
        min_size = spec.min_size if min_size is None else min_size
        return fit_paragraph(text_at, self.style(spec, hex_color, split_words), box.w, box.h,
                             max(self.scale.points(spec.size), min_size), min_size)

    def _one_line(self, text: str, spec: NameBox, box: Rect, hex_color: str) -> Paragraph | None:
        """Plain text on one line at the largest size that fits, if not below `one_line_min`
        (measured directly: one wrap instead of a search)."""
        font = self.fonts[spec.font]
        size = min(self.scale.points(spec.size), box.w / max(pdfmetrics.stringWidth(text, font, 1), 1e-6))
        size = math.floor(size / FIT_STEP) * FIT_STEP
        if size < spec.one_line_min:
            return None
        return _fits(markup.escape(text), self.style(spec, hex_color)(size), box.w, box.h, max_lines=1)


@cache
def _style_factory(font: str, family: str, leading: float, hex_color: str, split_words: bool = False) -> StyleAt:
    """Paragraph styles by size, for one font and color (styles are reused across cards).
    Words are only split across lines when `split_words` (a last resort for names)."""

    @cache
    def at(size: float) -> ParagraphStyle:
        # <b>/<i> inside the text map through the body family; the base font may differ (titles)
        return ParagraphStyle(f"{font}-{size}", fontName=font, fontSize=size, leading=size * leading,
                              alignment=TA_CENTER, textColor=HexColor(hex_color), splitLongWords=int(split_words))

    return at


def fit_paragraph(text_at: Callable[[float], str], style_at: StyleAt, width: float, height: float, size: float,
                  min_size: float, max_lines: int | None = None) -> Paragraph | None:
    """The largest Paragraph, on a FIT_STEP grid from `size` down to `min_size`, whose lines and
    words fit the box; None if even the smallest does not. `text_at(size)` gives the markup."""
    sizes = [size - i * FIT_STEP for i in range(int((size - min_size) / FIT_STEP + 1e-6) + 1)]
    if not sizes:
        return None
    if sizes[-1] - min_size > 1e-6:  # off the grid: the smallest allowed size is tried too
        sizes.append(min_size)
    first = _fits(text_at(sizes[0]), style_at(sizes[0]), width, height, max_lines)
    if first:
        return first
    low, high, best = 1, len(sizes) - 1, None
    while low <= high:  # binary search: the largest size that fits
        middle = (low + high) // 2
        paragraph = _fits(text_at(sizes[middle]), style_at(sizes[middle]), width, height, max_lines)
        if paragraph:
            best, high = paragraph, middle - 1
        else:
            low = middle + 1
    return best


def _fits(text: str, style: ParagraphStyle, width: float, height: float,
          max_lines: int | None = None) -> Paragraph | None:
    paragraph = Paragraph(text, style)
    paragraph.wrap(width, height)
    bottom, top = ink_extent(paragraph)
    too_wide = not style.splitLongWords and paragraph.minWidth() > width + 1e-6
    if top - bottom > height + 1e-6 or too_wide:
        return None
    if max_lines is not None and len(paragraph.blPara.lines) > max_lines:
        return None
    return paragraph


def _font_runs(value: str, fonts: Fonts, role: str, markup_applies: bool) -> list[tuple[str, str]] | None:
    """The text as (characters, ReportLab font) runs as a Paragraph would draw them, or None
    when it holds what only a Paragraph measures."""
    if not markup_applies:
        return [(value, fonts[role])]
    if "\n" in value or markup.SYMBOL.search(value):
        return None
    runs = []
    for start, end, bold, italic in markup.emphasis_runs(value):
        if (bold or italic) and role != "text":
            return None
        runs.append((value[start:end], fonts[run_role(role, bold, italic)]))
    return runs


def _word_widths(runs: list[tuple[str, str]], size: float) -> tuple[list[float], float]:
    """The width of each space-separated word at `size` (a word may change font midway), and
    the widest space among the fonts."""
    words: list[float] = []
    space, joins = 0.0, False  # joins: the last word may go on into the next run
    for characters, font in runs:
        width_of = _character_widths(font)
        space = max(space, width_of(" "))
        pieces = [sum(map(width_of, piece)) * size for piece in characters.split()]
        if pieces and joins and not characters[0].isspace():
            words[-1] += pieces.pop(0)
        words += pieces
        joins = bool(characters) and not characters[-1].isspace()
    return words, space * size


@cache
def _character_widths(font: str) -> Callable[[str], float]:
    """A character's advance at size 1 in a registered font, as ReportLab measures it."""
    face = pdfmetrics.getFont(font).face
    widths, default = face.charWidths, face.defaultWidth

    @cache
    def width(character: str) -> float:
        return float(widths.get(ord(character), default)) * 0.001

    return width


def ink_height(font: str, size: float, leading: float, lines: int) -> float:
    """From the lowest descent to the highest ascent of `lines` lines of text."""
    ascent, descent = pdfmetrics.getAscentDescent(font, size)
    return float((lines - 1) * leading + max(ascent, descent + size) - descent)


def ink_extent(paragraph: Paragraph) -> tuple[float, float]:
    """Bottom and top of a wrapped paragraph's glyphs, above its bottom edge. ReportLab sets the
    first baseline one font size below the top and each next one a leading lower; glyphs reach
    from the descent to the ascent (or one font size above the descent, as PDF readers count)."""
    style, lines = paragraph.style, len(paragraph.blPara.lines)
    descent = pdfmetrics.getAscentDescent(style.fontName, style.fontSize)[1]
    bottom = paragraph.height - style.fontSize - (lines - 1) * style.leading + descent
    return bottom, bottom + ink_height(style.fontName, style.fontSize, style.leading, lines)


def run_role(role: str, bold: bool, italic: bool) -> str:
    """The font role drawing a run: emphasis switches within the text family only."""
    if role not in FAMILY:
        return role
    base_bold, base_italic = FAMILY[role]
    return ROLE_OF[(base_bold or bold, base_italic or italic)]
