"""textfit (layout stage): a card's texts set in their boxes, with ReportLab's own font metrics.

Each text gets the largest size, on a FIT_STEP grid, at which its lines fit its box (a name
first tries one line, then wraps, then splits words). The card renderer draws the paragraphs
set here, and the check stage sets every card the same way before anything is drawn: a text
that does not fit even at its smallest allowed size is an error there, with the size it would
need, so a game that passes `check` draws.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT

from cardgen.inputs import symbols
from cardgen.inputs.paths import ART
from cardgen.layout.fonts import Fonts, advances, ascent_descent, string_width
from cardgen.layout.sheet import Rect
from cardgen.model import markup
from cardgen.model.faces import Element, fill_in
from cardgen.model.game import Card, Game
from cardgen.model.layout import Layout, Region, Spot
from cardgen.model.sizes import MM

if TYPE_CHECKING:  # the rest of ReportLab is imported when a text is first set (_fits): a check whose
    # texts all fit by their glyph widths alone (CardText.surely_fits) only measures them (layout/fonts.py)
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

__all__ = ["FAMILY", "INLINE_SYMBOL", "MEASURE_COLOR", "SMALLEST", "CardText", "Fonts", "Scale", "fit_paragraph",
           "ink_extent", "ink_height", "line_bounds", "run_role"]

# a font's paragraph styles by font size
StyleAt = Callable[[float], "ParagraphStyle"]
# whether a text fits at a size (in at most so many lines), if known without setting it
Verdict = Callable[[float, int | None], bool | None]

FIT_STEP = 0.25  # font sizes tried when shrinking text to fit, in points
SMALLEST = 1.0  # the smallest size a finding measures: the layout's min_size cannot go below it
SPACER = ART / "spacer.png"  # 1x1 transparent: reserves an inline symbol's room in a line
INLINE_SYMBOL = "cg-symbol"  # the onDraw callback that draws an inline symbol in its room
MEASURE_COLOR = "#000000"  # color does not change a text's size: the check sets texts in black
FIT_SLACK = 1e-6  # points: how much higher than its box a set text may be and still fit (_fits)
MARGIN = 1e-6  # points: a verdict only answers beyond the float error of ReportLab's sums
# other spaces than " " (ReportLab does not break at a no-break space, which str.split does) and
# soft hyphens (where ReportLab may break a word): no verdict
_NO_VERDICT = re.compile(r"[^\S ]|\xad")

# the layout's text family: font role -> (bold, italic), as ReportLab's family mapping sees it
FAMILY = {"text": (False, False), "bold": (True, False), "italic": (False, True), "bold_italic": (True, True)}
ROLE_OF = {flags: role for role, flags in FAMILY.items()}
ALIGNMENTS = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}


# --------------------------------------------------------------------------- fonts and scale


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

    def box(self, region: Region | Element) -> Rect:
        if isinstance(region, Element) and region.anchor == "center":
            return self._about_centre(region)
        w, h = region.width * self.sx * MM, region.height * self.sy * MM
        if isinstance(region, Element) and region.insets:
            return self._inset(region)
        return Rect(region.x * self.sx * MM, self.card_h - region.y * self.sy * MM - h, w, h)

    def _inset(self, element: Element) -> Rect:
        """The box with the distances from its `insets` edges scaled by the smaller ratio (a frame
        inset alike on every side), the others as every box."""
        s, insets = self.s * MM, element.insets
        design_w, design_h = self.card_w / (self.sx * MM), self.card_h / (self.sy * MM)
        left = element.x * (s if "left" in insets else self.sx * MM)
        top = element.y * (s if "top" in insets else self.sy * MM)
        right = self.card_w - (design_w - element.x - element.width) * s if "right" in insets \
            else (element.x + element.width) * self.sx * MM
        bottom = self.card_h - (design_h - element.y - element.height) * s if "bottom" in insets \
            else (element.y + element.height) * self.sy * MM
        return Rect(left, self.card_h - bottom, right - left, bottom - top)

    def _about_centre(self, element: Element) -> Rect:
        """The element scaled by the smaller ratio about the card's centre: its shape kept."""
        s = self.s * MM
        design_w, design_h = self.card_w / (self.sx * MM), self.card_h / (self.sy * MM)
        cx = self.card_w / 2 + (element.x + element.width / 2 - design_w / 2) * s
        cy = self.card_h / 2 - (element.y + element.height / 2 - design_h / 2) * s
        w, h = element.width * s, element.height * s
        return Rect(cx - w / 2, cy - h / 2, w, h)

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
    """The texts of a game's card faces at one card size, each set in its face element's box."""

    def __init__(self, game: Game, card_w: float, card_h: float, measure_only: bool = False):
        """`measure_only`: the fonts are registered with ReportLab only when a text is set (the check)."""
        self.game, self.design = game, game.design
        self.fonts = Fonts(self.design, measure_only)
        self.scale = Scale.of(self.design, card_w, card_h)
        self._deck_sizes: dict[int, float] = {}
        self._rooms: dict[int, Rect] = {}  # by element: every card asks again

    # -- boxes

    def room(self, element: Element) -> Rect:
        """The box a text element's lines are set in (its own frame, before rotation): the
        element's box less its padding and its shadow's room, at the origin."""
        room = self._rooms.get(id(element))
        if room is None:
            box = self.scale.box(element)
            width, height = (box.h, box.w) if element.turned else (box.w, box.h)
            inner = Rect(0, 0, width, height).inset(self.scale.length(element.padding))
            offset = self.scale.points(element.shadow)
            room = self._rooms[id(element)] = inner.grow(0, -offset, -offset, 0)
        return room

    # -- the texts: a Paragraph, or None when the text does not fit at `min_size`

    def value(self, element: Element, card: Card) -> str:
        """The element's text on this card, as typed (markup not yet applied)."""
        return fill_in(element.text, card.value)

    def paragraph(self, element: Element, value: str, hex_color: str, min_size: float | None = None) -> Paragraph | None:
        """The text set in the element's room: at the deck's one size where it keeps to one (or
        two lines); else on one line while it stays big enough; else shrunk to fit; else, where
        the element allows, with words split."""
        box = self.room(element)
        text_at = self.markup_at(value) if element.markup else _constant(markup.escape(value))
        verdict = self.verdict(element, value)
        if element.same_size:
            size = self.deck_size(element)
            if verdict(size, 2) is not False:
                fitted = _fits(text_at(size), self.style(element, hex_color)(size), box.w, box.h, max_lines=2)
                if fitted:
                    return fitted
        if element.one_line_min and not element.markup:
            fitted = self._one_line(value, element, box, hex_color)
            if fitted:
                return fitted
        return self._fit(text_at, element, box, hex_color, min_size, verdict=verdict) or \
            (self._fit(text_at, element, box, hex_color, min_size, split_words=True) if element.split_words else None)

    def line_size(self, element: Element, value: str, min_size: float | None = None) -> float | None:
        """A one-line text's size: the element's (never below min_size, which a smaller card size
        does not scale, as for a paragraph), shrunk to the box's width; None below min_size."""
        smallest = element.min_size if min_size is None else min_size
        font, size = self.fonts[element.font], max(self.scale.points(element.size), smallest)
        room = self.room(element).w
        size = min(size, size * room / max(string_width(value, font, size), 0.01))
        return size if size >= smallest - 1e-9 else None

    def deck_size(self, element: Element) -> float:
        """One size for the whole deck: the largest at which every printed card's text fits the
        box on one or two lines, leaving out the few that only fit below one_line_min (they get
        their own smaller size)."""
        key = id(element)
        if key not in self._deck_sizes:
            box = self.room(element)
            style, font = self.style(element, MEASURE_COLOR), self.fonts[element.font]
            best = self.scale.points(element.size)
            values = {self.value(element, card) for card in self.game.cards if card.printed}
            # widest first, and a text that fits at the size found so far cannot lower it: most
            # texts cost one wrap, not a search
            for value in sorted(values, key=lambda n: (-string_width(n, font, 1), n)):
                text, verdict = markup.escape(value), self.verdict(element, value)
                known = verdict(best, 2)
                if known or known is None and _fits(text, style(best), box.w, box.h, max_lines=2):
                    continue
                fitted = fit_paragraph(_constant(text), style, box.w, box.h, best, element.one_line_min or
                                       element.min_size, max_lines=2, verdict=verdict)
                if fitted is not None:
                    best = fitted.style.fontSize
            self._deck_sizes[key] = best
        return self._deck_sizes[key]

    def surely_fits(self, element: Element, value: str) -> bool:
        """True when a text surely fits its element's box at the smallest size, known from glyph
        widths alone, without setting a Paragraph. Greedy line breaking fills every line but the
        last beyond the box width less one space and the longest word, which bounds the number
        of lines. False means: set it to know (inline symbols, line breaks, emphasis in a font
        outside the body family)."""
        box = self.room(element)
        runs = _font_runs(value, self.fonts, element.font, markup_applies=element.markup)
        if runs is None:
            return False
        size: float = element.min_size
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
        return ink_height(self.fonts[element.font], size, size * element.leading, lines) <= box.h + 1e-6

    def style(self, element: Element, hex_color: str, split_words: bool = False) -> StyleAt:
        """The element's Paragraph styles by size, each given with ReportLab's font mapping made
        this game's (a Paragraph sets its text through it): so with the fonts registered, and only
        when a text is to be set."""
        styled = _style_factory(self.fonts[element.font], self.fonts.family, element.leading, hex_color, split_words,
                                ALIGNMENTS[element.align])

        def at(size: float) -> ParagraphStyle:
            self.fonts.use()
            return styled(size)

        return at

    def markup_at(self, text: str) -> Callable[[float], str]:
        """The text's Paragraph markup at a given font size (inline symbols scale with it)."""
        return lambda size: markup.to_paragraph(text, lambda symbol: self._inline_markup(symbol, size))

    def _inline_markup(self, symbol: str, size: float) -> str | None:
        if symbols.symbol_path(self.game, symbol) is None:
            return None
        # the image only reserves room in the line; the renderer's callback draws the symbol there
        return (f'<onDraw name="{INLINE_SYMBOL}" label="{symbol}"/>'
                f'<img src="{markup.escape(str(SPACER))}" width="{1.05 * size:.2f}" height="{0.8 * size:.2f}" valign="baseline"/>')

    def _fit(self, text_at: Callable[[float], str], element: Element, box: Rect, hex_color: str,
             min_size: float | None = None, split_words: bool = False, verdict: Verdict | None = None) -> Paragraph | None:
        min_size = element.min_size if min_size is None else min_size
        return fit_paragraph(text_at, self.style(element, hex_color, split_words), box.w, box.h,
                             max(self.scale.points(element.size), min_size), min_size, verdict=verdict)

    def verdict(self, element: Element, value: str) -> Verdict:
        """Whether the text fits the element's room at a size (and in at most so many lines), as
        far as glyph widths alone tell: True or False where bounds on its number of lines settle
        it, None where only setting it in a Paragraph does (see `line_bounds`)."""
        box = self.room(element)
        runs = None if _NO_VERDICT.search(value) else _font_runs(value, self.fonts, element.font, element.markup)
        words, space = _word_widths(runs, 1.0) if runs else ([], 0.0)
        if not words:
            return _unknown
        font, leading, longest, total = self.fonts[element.font], element.leading, max(words), sum(words)

        def verdict(size: float, max_lines: int | None = None) -> bool | None:
            bounds = line_bounds([w * size for w in words], space * size, box.w, longest * size, total * size)
            if bounds is None:
                return None
            fewest, most = bounds
            if (max_lines is None or most <= max_lines) and \
                    ink_height(font, size, size * leading, most) <= box.h + FIT_SLACK - MARGIN:
                return True
            if max_lines is not None and fewest > max_lines or \
                    ink_height(font, size, size * leading, fewest) > box.h + FIT_SLACK + MARGIN:
                return False
            return None

        return verdict

    def _one_line(self, text: str, element: Element, box: Rect, hex_color: str) -> Paragraph | None:
        """Plain text on one line at the largest size that fits, if not below `one_line_min`
        (measured directly: one wrap instead of a search)."""
        font = self.fonts[element.font]
        size = min(self.scale.points(element.size), box.w / max(string_width(text, font, 1), 1e-6))
        size = math.floor(size / FIT_STEP) * FIT_STEP
        if size < element.one_line_min:
            return None
        return _fits(markup.escape(text), self.style(element, hex_color)(size), box.w, box.h, max_lines=1)


def _constant(text: str) -> Callable[[float], str]:
    return lambda size: text


@cache
def _style_factory(font: str, family: str, leading: float, hex_color: str, split_words: bool = False,
                   alignment: int = TA_CENTER) -> StyleAt:
    """Paragraph styles by size, for one font and color (styles are reused across cards).
    Words are only split across lines when `split_words` (a last resort for names)."""

    @cache
    def at(size: float) -> ParagraphStyle:
        from reportlab.lib.colors import HexColor
        from reportlab.lib.styles import ParagraphStyle

        # <b>/<i> inside the text map through the body family; the base font may differ (titles)
        return ParagraphStyle(f"{font}-{size}", fontName=font, fontSize=size, leading=size * leading,
                              alignment=alignment, textColor=HexColor(hex_color), splitLongWords=int(split_words))

    return at


def fit_paragraph(text_at: Callable[[float], str], style_at: StyleAt, width: float, height: float, size: float,
                  min_size: float, max_lines: int | None = None, verdict: Verdict | None = None) -> Paragraph | None:
    """The largest Paragraph, on a FIT_STEP grid from `size` down to `min_size`, whose lines and
    words fit the box; None if even the smallest does not. `text_at(size)` gives the markup.
    A `verdict` (CardText.verdict) answers the sizes it can without setting the text: the
    search tries the same sizes in the same order and finds the same size, setting a Paragraph
    only where the verdict cannot tell, and at the size found."""
    sizes = [size - i * FIT_STEP for i in range(int((size - min_size) / FIT_STEP + 1e-6) + 1)]
    if not sizes:
        return None
    if sizes[-1] - min_size > 1e-6:  # off the grid: the smallest allowed size is tried too
        sizes.append(min_size)

    def fits(at: float) -> Paragraph | bool | None:
        known = verdict(at, max_lines) if verdict else None
        return _fits(text_at(at), style_at(at), width, height, max_lines) if known is None else known

    best: Paragraph | bool | None = fits(sizes[0])
    found = sizes[0]
    if not best:
        low, high, best = 1, len(sizes) - 1, None
        while low <= high:  # binary search: the largest size that fits
            middle = (low + high) // 2
            paragraph = fits(sizes[middle])
            if paragraph:
                best, found, high = paragraph, sizes[middle], middle - 1
            else:
                low = middle + 1
    if best is True:  # told, not set: set it (and should the verdict have erred, search without it)
        best = _fits(text_at(found), style_at(found), width, height, max_lines) or \
            fit_paragraph(text_at, style_at, width, height, size, min_size, max_lines)
    return best or None


def _fits(text: str, style: ParagraphStyle, width: float, height: float,
          max_lines: int | None = None) -> Paragraph | None:
    from reportlab.platypus import Paragraph

    paragraph = Paragraph(text, style)  # its style's fonts registered and mapped by CardText.style
    paragraph.wrap(width, height)
    bottom, top = ink_extent(paragraph)
    too_wide = not style.splitLongWords and paragraph.minWidth() > width + 1e-6
    if top - bottom > height + FIT_SLACK or too_wide:
        return None
    if max_lines is not None and len(paragraph.blPara.lines) > max_lines:
        return None
    return paragraph


def line_bounds(words: list[float], space: float, width: float, longest: float, total: float) -> tuple[int, int] | None:
    """The fewest and the most lines ReportLab's line breaking can set words of these widths in
    (`space`: the widest space among their fonts; `longest`, `total`: of the words) within
    `width`; None when a word may not fit a line. A line holds words up to the width (plus a
    little of its spaces' width, ReportLab's space shrinkage, never a whole space), so no fewer
    lines than the words' total over the width; and a line ends only where the next word
    would not fit, so every line but the last holds more than the width less a space and the
    longest word. Both bounds are rounded outwards against the float sums' error."""
    if not words or longest > width - MARGIN:
        return None
    fewest = max(1, math.ceil(total / width - MARGIN))
    spaced = total + space * (len(words) - 1)
    if spaced <= width - MARGIN:
        return 1, 1
    full = width - space - longest  # what every line but the last holds more than
    if full <= MARGIN:
        return None
    return fewest, max(fewest, math.ceil(spaced / full + MARGIN))


def _unknown(size: float, max_lines: int | None = None) -> bool | None:
    return None


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
    widths, default = advances(font)

    @cache
    def width(character: str) -> float:
        return float(widths.get(ord(character), default)) * 0.001

    return width


def ink_height(font: str, size: float, leading: float, lines: int) -> float:
    """From the lowest descent to the highest ascent of `lines` lines of text."""
    ascent, descent = ascent_descent(font, size)
    return float((lines - 1) * leading + max(ascent, descent + size) - descent)


def ink_extent(paragraph: Paragraph) -> tuple[float, float]:
    """Bottom and top of a wrapped paragraph's glyphs, above its bottom edge. ReportLab sets the
    first baseline one font size below the top and each next one a leading lower; glyphs reach
    from the descent to the ascent (or one font size above the descent, as PDF readers count)."""
    style, lines = paragraph.style, len(paragraph.blPara.lines)
    descent = ascent_descent(style.fontName, style.fontSize)[1]
    bottom = paragraph.height - style.fontSize - (lines - 1) * style.leading + descent
    return bottom, bottom + ink_height(style.fontName, style.fontSize, style.leading, lines)


def run_role(role: str, bold: bool, italic: bool) -> str:
    """The font role drawing a run: emphasis switches within the text family only."""
    if role not in FAMILY:
        return role
    base_bold, base_italic = FAMILY[role]
    return ROLE_OF[(base_bold or bold, base_italic or italic)]
