"""Card faces as data: a face is a list of elements drawn in order, on the layout's design size in
millimetres (top-left origin). Load resolves each face (its `extends`, the old layout keys) into
the elements here; render draws them and check measures them, element by element.

Kinds: text (a pattern of field values in a font role), image (the card's art or a file pattern),
symbol (by name, by field or the card's own), shape (rect, rounded, circle, ellipse), repeat (one
element N times, N from a field), tags (the card's tags as pills, centred on a line) and pattern
(symbols tiled over the box, tilted). The back is a face too: art/faces/back.yaml, or any face a
back of game.yaml names (a double-faced card); it reads the back's {title} and {emblem}."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

from cardgen.model.conditions import Condition
from cardgen.model.fields import FieldValue
from cardgen.model.where import Where

TEXT, IMAGE, SYMBOL, SHAPE, REPEAT, TAGS, PATTERN = "text", "image", "symbol", "shape", "repeat", "tags", "pattern"
KINDS = (TEXT, IMAGE, SYMBOL, SHAPE, REPEAT, TAGS, PATTERN)
SHAPES = ("rect", "rounded", "circle", "ellipse")
ALIGNS = ("left", "center", "right")
VALIGNS = ("top", "middle", "bottom")
ROTATIONS = (0, 90, 180, 270)
FITS = ("cover", "contain")
ALONG = ("row", "column")
SIDES = ("left", "right", "top", "bottom")
ANCHORS = ("", "center")
COLORS_PATTERN = "colors"  # pattern: the symbols of the game's colors, in turn
ART = "art"  # image: the card's own art (or its placeholder)
CARD_SYMBOL = "card"  # symbol: the card's own symbol (else its color's)
# colors derived from the card's color (else "#rrggbb"): its color, the ink that reads on it, the
# symbol's ink on it, the name's color, and the card's color or its ink where the color is light
CARD_COLORS = ("card", "ink", "symbol-ink", "title", "outline")
# and from the back's design (layout.yaml back:, a back's own colors in game.yaml), each auto
# derived from the game's palette unless set
BACK_COLORS = ("back-background", "back-pattern", "back-border", "back-medallion", "back-title")
DERIVED_COLORS = CARD_COLORS + BACK_COLORS
DEFAULT_FACE = "default"
BACK_FACE = "back"
BACK_FIELDS = ("title", "emblem")  # what a back face reads besides the card: the back's title and emblem symbol
MAX_REPEAT = 100
FIELD_PATTERN = re.compile(r"\{([A-Za-z_][A-Za-z0-9_-]*)\}")  # a {field} in a pattern


class HasValues(Protocol):
    @property
    def face(self) -> str | None: ...

    def value(self, name: str) -> FieldValue: ...


@dataclass(frozen=True)
class Element:
    kind: str  # one of KINDS
    id: str = ""  # what extends and the old layout keys name it by
    x: float = 0.0
    y: float = 0.0
    width: float = 0.0
    height: float = 0.0
    when: Condition | None = None  # drawn only on the cards it holds for
    bleed: bool = False  # decoration meant to run off the edge: touching an edge, it runs on into the bleed
    rotation: int = 0  # degrees anticlockwise, about the box's centre
    # on another card size: the distance from these edges scales by the smaller ratio (an inset
    # alike on every side), or (anchor center) the whole element about the card's centre
    insets: tuple[str, ...] = ()
    anchor: str = ""
    # text
    text: str = ""  # a pattern: "{name}", "Deal {attack} damage"
    font: str = "text"  # a font role
    size: float = 8.0  # points
    min_size: float = 6.0  # shrinks to fit down to this, never cut
    leading: float = 1.18
    align: str = "center"
    valign: str = "middle"
    color: str = "#000000"
    padding: float = 0.0
    line: bool = False  # one line, shrunk to the box's width (ranks, costs, numbers)
    markup: bool = True  # **bold**, *italic*, :symbol: and line breaks in the values (else plain)
    same_size: bool = False  # one size on every card: the largest every card's text fits at
    one_line_min: float = 0.0  # set on one line while it stays at least this big (0: no)
    split_words: bool = False  # as a last resort, split words that fit no line
    shadow: float = 0.0  # drop shadow offset in points (0: none)
    hug: float = 0.0  # mm: fill and border drawn behind the set text, this far above and below its ink
    # image
    image: str = ""  # ART or a file pattern under the game folder: "art/{suit}.png"
    fit: str = "cover"
    # symbol
    symbol: str = ""  # a symbol name, "{field}", or CARD_SYMBOL
    # shape, and the frame of an image or the pills of tags
    shape: str = "rect"
    fill: str = ""  # "" : none
    border: str = ""  # the border's color ("" : none)
    border_width: float = 0.0  # points
    radius: float = 0.0  # corner radius, mm
    # repeat
    count: str = ""  # a number, or a field: "{cost}"
    along: str = "row"
    gap: float = 0.0  # mm between repeats (and between tags)
    columns: int = 0  # repeats per row (a grid); 0: one line
    item: Element | None = None  # the element repeated
    # pattern
    pattern: str = ""  # COLORS_PATTERN, a symbol name or "{field}"
    step: float = 0.0  # mm between the symbols' centres
    tile: float = 0.0  # mm: each symbol's size
    tilt: float = 0.0  # degrees anticlockwise, each symbol
    where: Where | None = None  # its line in the face file
    # the rulebook's card diagram: its callout's words (none: no callout), and where the callout
    # sits on its box, in parts of the box's width and height from its top-left corner
    label: str = ""
    callout_x: float = 0.0
    callout_y: float = 0.0

    @property
    def named(self) -> str:
        return self.id or self.kind

    @property
    def turned(self) -> bool:
        return self.rotation in (90, 270)

    def pattern_fields(self) -> list[str]:
        """The fields its text, image, symbol or count read."""
        sources = (self.text, self.image, self.symbol, self.count, self.pattern)
        return [name for source in sources for name in FIELD_PATTERN.findall(source)]

    def reads_card(self) -> bool:
        """Whether it draws anything of the card (a back face that does not is drawn once per back)."""
        read = {*self.pattern_fields(), *(f.id for f in self.when.fields())} if self.when else set(self.pattern_fields())
        own = read - set(BACK_FIELDS) or {self.color, self.fill, self.border} & set(CARD_COLORS)
        return bool(own) or self.symbol == CARD_SYMBOL or self.image == ART or self.kind == TAGS or \
            self.item is not None and self.item.reads_card()


@dataclass(frozen=True)
class Face:
    id: str
    elements: tuple[Element, ...]
    cards: Condition | None = None  # `for:` the cards that take this face (else: by their own face:)
    where: Where | None = None

    def uses(self, kind: str) -> bool:
        return any(e.kind == kind for e in self.elements)

    def reads_card(self) -> bool:
        return any(e.reads_card() for e in self.elements)


def choose_face(faces: Mapping[str, Face], default: str, card: HasValues) -> Face:
    """A card's face: its own `face:`, else the first face whose `for:` holds, else the default."""
    if card.face is not None and card.face in faces:
        return faces[card.face]
    for face in faces.values():
        if face.cards is not None and face.cards.holds(card.value):
            return face
    return faces[default]


def formatted(value: FieldValue) -> str:
    """A field's value as a face prints it."""
    if value is None or value is False:
        return ""
    if value is True:
        return "yes"
    if isinstance(value, tuple):
        return ", ".join(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def fill_in(pattern: str, value: Callable[[str], FieldValue], escape: Callable[[str], str] = lambda text: text) -> str:
    """The pattern with each {field} replaced by the card's value (escaped by `escape`)."""
    if "{" not in pattern:
        return pattern
    return FIELD_PATTERN.sub(lambda match: escape(formatted(value(match.group(1)))), pattern)


def single_field(pattern: str) -> str | None:
    """The field a pattern is made of alone ("{text}" -> text), else None."""
    match = FIELD_PATTERN.fullmatch(pattern)
    return match.group(1) if match else None


def shows(element: Element, value: Callable[[str], FieldValue]) -> bool:
    """Whether the element draws anything on a card: its `when:` holds, and a text or the tags
    have a value, a repeat a count."""
    if element.when is not None and not element.when.holds(value):
        return False
    if element.kind in (TEXT, TAGS):
        return bool(fill_in(element.text, value).strip())
    return count_of(element, value) > 0 if element.kind == REPEAT else True


def count_of(element: Element, value: Callable[[str], FieldValue]) -> int:
    """How many times a repeat draws its element on a card (0 for a value that is not a count)."""
    text = fill_in(element.count, value)
    try:
        number = int(float(text))
    except ValueError:
        return 0
    return max(0, min(number, MAX_REPEAT))


def repeated(element: Element, times: int) -> list[Element]:
    """The repeat's element at each of its places."""
    item = element.item
    if item is None:
        return []
    places = []
    for index in range(times):
        along, across = (index % element.columns, index // element.columns) if element.columns else (index, 0)
        column, row = (along, across) if element.along == "row" else (across, along)
        places.append(_moved(item, column * (item.width + element.gap), row * (item.height + element.gap)))
    return places


def _moved(item: Element, dx: float, dy: float) -> Element:
    return replace(item, x=item.x + dx, y=item.y + dy)


@dataclass(frozen=True)
class Faces:
    """A game's faces by id (the shipped default among them), resolved by load."""

    by_id: Mapping[str, Face] = field(default_factory=dict)
    default: str = DEFAULT_FACE
    where: Where | None = None  # where layout.yaml names the default (`face:`)

    def of(self, card: HasValues) -> Face:
        return choose_face(self.by_id, self.default, card)

    def back(self, face_id: str | None) -> Face:
        """The face printed on a card's back: the one its back names (a double-faced card), else the shipped back."""
        return self.by_id.get(face_id or BACK_FACE) or self.by_id[BACK_FACE]
