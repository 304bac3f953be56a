"""The game model: frozen dataclasses built by `load` and read by every later stage."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TypeVar, Union

from cardgen.errors import UsageError
from cardgen.model.decks import DEFAULT_DECK, Deck
from cardgen.model.fields import BUILTIN_FIELDS, CardField, FieldValue, selects
from cardgen.model.file_names import slugify
from cardgen.model.layout import Layout
from cardgen.model.sizes import CardSize
from cardgen.model.targets import Target
from cardgen.model.translation import Translation
from cardgen.model.turns import Play, Turns
from cardgen.model.where import Passage, Where
from cardgen.model.words import ENGLISH, SOURCE_LANGUAGE, Words, marked

ERROR, WARNING, INFO = "error", "warning", "info"
AUTO = "auto"  # a layout color the card renderer derives from the game's palette
LEVELS = (ERROR, WARNING, INFO)
T = TypeVar("T")

# A count as the data gives it: a number, an expression of `players` (and `hand`), or a table
# of numbers by player count.
CountSpec = Union[int, str, Mapping[int, int]]
# Which cards a step or check takes: each key narrows (color, kind, tag, card: names; star: a
# flag; attribute: values by attribute; any: a list of selectors; not: a selector).
Selector = Mapping[str, object]
# Free data from game.yaml's reference: for a game's own templates.
PlainData = Union[str, list["PlainData"], dict[str, "PlainData"]]


@dataclass(frozen=True)
class Finding:
    level: str
    code: str
    message: str
    where: Where | None = None
    hint: str = ""

    def as_dict(self) -> dict[str, str | None]:
        return {
            "level": self.level,
            "code": self.code,
            "message": self.message + (f" ({self.hint})" if self.hint else ""),
            "where": str(self.where) if self.where else None,
        }

    def __str__(self) -> str:
        place = f"{self.where}: " if self.where else ""
        hint = f"\n    hint: {self.hint}" if self.hint else ""
        return f"{place}{self.level}: {self.message} [{self.code}]{hint}"


@dataclass(frozen=True)
class Color:
    id: str
    name: str
    meaning: str
    hex: str
    symbol: str
    text_hex: str | None = None
    title_hex: str | None = None
    back: str | None = None  # Back.id: the back of this color's cards


@dataclass(frozen=True)
class Tag:
    id: str
    name: str
    meaning: str = ""


@dataclass(frozen=True)
class Kind:
    id: str
    name: str
    meaning: str = ""
    plural: str = ""  # the name of several ("" : made by the English rule, in English)
    role: str = ""  # "losing" (drawing one loses the game) | "saving" (saves from a losing card) | ""
    back: str | None = None  # Back.id: the back of this kind's cards


@dataclass(frozen=True)
class Attribute:
    """A field derived from the card number, e.g. breed = tens digit."""

    id: str
    name: str
    digit: str | None = None  # "tens" | "ones"
    divide: int | None = None
    modulo: int | None = None
    names: Mapping[int, str] = field(default_factory=dict)

    def value_of(self, number: int) -> int:
        if self.digit == "tens":
            return (number // 10) % 10
        if self.digit == "ones":
            return number % 10
        value = number
        if self.divide:
            value //= self.divide
        if self.modulo:
            value %= self.modulo
        return value

    def label_of(self, number: int) -> str:
        value = self.value_of(number)
        return self.names.get(value, f"{self.name} {value}")


@dataclass(frozen=True)
class Card:
    id: str  # slug of the name, unique in the game
    name: str
    color: str  # Color.id
    kinds: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    number: int | None = None
    star: bool = False
    symbol: str | None = None  # the card's own symbol; None: its color's
    flavor: str = ""
    text: str = ""
    details: str = ""
    art_file: Path | None = None  # the art's image, checked by load; None: drawn with a placeholder
    low_res: bool = False  # the card's art may print below artfit.ERROR_PPI (`low_res: ok`)
    attributes: Mapping[str, str] = field(default_factory=dict)
    printed: bool = True  # False: a stand-in the engine counts but no sheet prints
    back: str | None = None  # Back.id: this card's own back
    face: str | None = None  # the id of one of the layout's faces: this card's own face
    deck: str | None = None  # Deck.id: the deck it belongs to (None: the game declares no decks)
    play: Play | None = None  # what playing it does, for the simulator; None: the simulator never plays it
    where: Where | None = None
    places: Mapping[str, Passage] = field(default_factory=dict, compare=False)  # "text", "details" -> where typed
    fields: Mapping[str, FieldValue] = field(default_factory=dict)  # the game's own fields (Game.fields) by id
    # the source language's values of the fields a translation changed: selectors pick by them, so that a
    # setup picks the same cards in every language
    source_fields: Mapping[str, FieldValue] = field(default_factory=dict, compare=False)

    def value(self, name: str) -> FieldValue:
        """The card's value of the field called `name`, built-in or the game's own (None: not set, or
        no such field)."""
        if name in self.fields:
            return self.fields[name]
        if name == "kind":
            return self.kinds
        if name in BUILTIN_FIELDS:
            value: FieldValue = getattr(self, name)
            return value
        return None

    def source_value(self, name: str) -> FieldValue:
        """The value in the game's source language (what selectors compare)."""
        return self.source_fields[name] if name in self.source_fields else self.value(name)


@dataclass(frozen=True)
class Back:
    """A card back other than the game's own, for the cards, kinds or colors that name it."""

    id: str
    title: str = ""  # the text on the back; "" for the game's title
    background: str | None = None  # colors of the layout's back this back changes
    pattern: str | None = None
    border: str | None = None
    emblem: str | None = None  # a symbol name
    face: str | None = None  # the face printed on it (a double-faced card); None: the shipped back
    where: Where | None = field(default=None, compare=False)  # its title in game.yaml (else its id)


@dataclass(frozen=True)
class Hand:
    deal: CountSpec | None = None  # None: not declared
    extras: tuple[tuple[str, CountSpec], ...] = ()  # (card id, the copies each player gets)
    where: Where | None = None  # where `deal` is written
    places: Mapping[str, Where] = field(default_factory=dict, compare=False)  # card id -> where its extras are


COMPONENT_COUNTS = ("count", "each", "to_win")  # a component's counts, each by player count


@dataclass(frozen=True)
class Component:
    """A part of the game that is not a card (coins, tokens, a board, dice, score pads), counted by
    player count like the cards: each count is a count spec (int, expression or player table)."""

    id: str
    name: str  # one of them, e.g. "Coin"
    plural: str  # several, e.g. "Coins"
    count: CountSpec | None  # how many the game uses (None: unreadable, reported by load)
    meaning: str = ""
    each: CountSpec | None = None  # how many each player starts with (the rest stays in the supply); None: not said
    to_win: CountSpec | None = None  # how many a player needs to win; None: not a win target
    where: Where | None = None
    places: Mapping[str, Where] = field(default_factory=dict, compare=False)  # "count", "each", "to_win"

    def noun(self, n: float) -> str:
        return self.name if n == 1 else self.plural


@dataclass(frozen=True)
class SetupLine:
    card: str  # Card.id
    count: int | None  # None: unknown in the source
    where: Where | None = None


# what the engine finds about a setup that a setup may waive (with its reason), besides the game's checks
ENGINE_CHECKS = ("empty-draw-pile", "not-enough-cards", "not-enough-components", "unknown-count")


@dataclass(frozen=True)
class Waiver:
    check: str
    reason: str
    where: Where | None = None
    inside: str = ""  # text checks only: waive just the findings inside this quoted passage


@dataclass(frozen=True)
class Setup:
    id: str
    name: str
    blurb: str
    min_players: int
    max_players: int
    hand: Hand
    lines: tuple[SetupLine, ...]
    extra_rules: tuple[str, ...] = ()
    copies: CountSpec = 1
    waivers: tuple[Waiver, ...] = ()
    where: Where | None = None
    places: Mapping[str, Passage] = field(default_factory=dict, compare=False)  # "blurb", "extra_rules[i]" -> where

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    @property
    def players_label(self) -> str:
        """'3–8', or '4' for a setup of one player count: how every output names a setup's range."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}–{self.max_players}"

    def require_players(self, players: int) -> None:
        """UsageError unless the setup is played by `players` (a command's --players)."""
        if players not in self.player_counts:
            raise UsageError(f"{self.name} is for {self.players_label} players, not {players}",
                             hint="choose --players within that range")


@dataclass(frozen=True)
class Step:
    action: str  # move | deal | shuffle | set | first_player | text (a step that is only its text)
    source: str = "deck"
    target: str = "deck"
    select: Selector | None = None  # None: all cards
    count: CountSpec | None = None  # None: all selected
    per_player: bool = False
    extras: bool = False
    up_to: bool = False
    random: bool = False
    when: str | None = None
    text: str = ""
    where: Where | None = None
    seat: CountSpec | None = None  # deal to this seat only (1: the first player); None: every seat
    by_seat: CountSpec | None = None  # deal: each seat's count, a table by seat or an expression of `seat`
    split_by: str = ""  # deal: each seat takes every card of one value of this field (color, kind, tag, a field)
    values: tuple[tuple[str, CountSpec], ...] = ()  # set: (component id, each player's starting value)
    first_player: str = ""  # first_player: "random", or how the first player is chosen, in the game's words

    @property
    def moves_cards(self) -> bool:
        return self.action in ("move", "deal")


DRAW, SUPPLY, DISCARD, ASIDE, BOX, HAND = "draw", "supply", "discard", "aside", "box", "hand"
PILE_ROLES = (DRAW, SUPPLY, DISCARD, ASIDE, BOX)  # a game's piles; HAND is the hands' own
IN_PLAY_ROLES = (DRAW, SUPPLY, DISCARD)  # what a pile of another role holds is out of the game
START_PILE, HANDS = "deck", "hands"  # the setup's cards as laid out, and what the players hold


@dataclass(frozen=True)
class Pile:
    """A place cards are in after setup, in the game's own words: the draw pile, a supply to buy
    from, each player's own deck, a face-up discard pile, cards set aside, the box."""

    id: str
    name: str  # "Draw pile", "Supply", "Starting deck": how the documents label it
    role: str  # one of PILE_ROLES, or HAND
    each_player: bool = False  # every player has one: counts are each player's
    face_up: bool = False
    where: Where | None = None  # where game.yaml declares it (None: a default)


def default_pile(pile_id: str, dealt_to: bool = False) -> Pile:
    """A pile the setup steps use without game.yaml's `piles:` declaring it: the deck is the draw
    pile, the hands each player's, `discard`, `supply` and `box` what they say; a pile dealt to
    is each player's, and any other is set aside."""
    known = {
        START_PILE: Pile(START_PILE, marked("Draw pile"), DRAW),
        HANDS: Pile(HANDS, marked("Hand"), HAND, each_player=True),
        "discard": Pile("discard", marked("Discard pile"), DISCARD, face_up=True),
        "supply": Pile("supply", marked("Supply"), SUPPLY, face_up=True),
        "box": Pile("box", marked("Back in the box"), BOX),
    }
    if pile_id in known:
        return known[pile_id]
    if dealt_to:
        return Pile(pile_id, pile_id.replace("_", " ").replace("-", " ").capitalize(), ASIDE, each_player=True)
    return Pile(pile_id, marked("Set aside"), ASIDE)


@dataclass(frozen=True)
class Check:
    id: str
    level: str
    on: tuple[str, ...]  # ("setup",) or pile names: draw_pile, hand (each player's), hands, box, ...
    message: str
    select: Selector | None = None
    at_least: CountSpec | None = None
    at_most: CountSpec | None = None
    equals: CountSpec | None = None
    source: str = ""
    when: str | None = None
    where: Where | None = None


@dataclass(frozen=True)
class Variation:
    name: str
    text: str
    place: Passage | None = field(default=None, compare=False)


@dataclass(frozen=True)
class TextChecks:
    """game.yaml's text_checks: other names the rules use, and text findings the game accepts."""

    aliases: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # name -> (color|kind|tag|card, id)
    waivers: tuple[Waiver, ...] = ()


@dataclass(frozen=True)
class SheetSection:
    title: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class ComboRow:
    cards: str
    name: str
    effect: str


@dataclass(frozen=True)
class Combos:
    title: str = "Combos"
    intro: str = ""
    rows: tuple[ComboRow, ...] = ()


@dataclass(frozen=True)
class CheatSheet:
    """game.yaml's `reference: cheatsheet:` (the data a cheat sheet does not get from the rules)."""
    title: str
    subtitle: str = ""
    goal: str = ""
    card_heading: str = ""  # "": the documents' own words ("The cards")
    group_by_text: bool = True  # cards of one color with the same text share a line
    sections: tuple[SheetSection, ...] = ()
    combos: Combos | None = None
    copies_label: str = ""  # "": the documents' own words ("Copies")
    players_note: str = ""
    card_decks: tuple[str, ...] = ()  # the decks whose cards the card list shows; (): every deck


@dataclass(frozen=True)
class Game:
    id: str
    folder: Path
    title: str
    version: str
    author: str
    date: str
    card_size: CardSize
    colors: tuple[Color, ...]
    tags: tuple[Tag, ...]
    kinds: tuple[Kind, ...]
    attributes: tuple[Attribute, ...]
    kind_styles: Mapping[str, Mapping[str, str]]
    cards: tuple[Card, ...]
    setups: tuple[Setup, ...]
    steps: tuple[Step, ...]
    checks: tuple[Check, ...]
    variations: tuple[Variation, ...]
    components: tuple[Component, ...] = ()
    default_setup: str | None = None
    rules_markdown: str = ""
    rules_file: str = ""  # rules.md as load named it, for findings' file:line:column
    text_checks: TextChecks = field(default_factory=TextChecks)
    layout: Layout | None = None  # None only for games built by hand (tests); load always sets it
    cheatsheet: CheatSheet | None = None  # None: the game has no cheat sheet
    extra: Mapping[str, PlainData] = field(default_factory=dict)  # reference: data for a game's own templates
    export_targets: Mapping[str, Target] = field(default_factory=dict)
    backs: tuple[Back, ...] = ()
    exports: tuple[str, ...] = ()  # export targets `cardgen build` makes too
    piles: tuple[Pile, ...] = (default_pile(START_PILE), default_pile(HANDS))  # every pile the steps use
    number_name: str = ""  # what the game calls a card's associated number ("Cost"; "": the documents' "Number")
    changes_since: str = ""  # a git revision: the rulebook ends with the changes since it
    changes_where: Where | None = None
    turns: Turns = field(default_factory=Turns)  # how a turn goes, for the simulator
    language: str = SOURCE_LANGUAGE  # the language of the game's texts
    languages: tuple[str, ...] = ()  # game.yaml's languages: the source's first ("" : only the source)
    # by language; like the words, read from files the caches digest (not from the model's repr)
    translations: Mapping[str, Translation] = field(default_factory=dict, compare=False, repr=False)
    words: Words = field(default=ENGLISH, compare=False, repr=False)  # cardgen's own words in the game's language
    fields: tuple[CardField, ...] = ()  # the game's own card fields (game.yaml's fields:)
    decks: tuple[Deck, ...] = ()  # game.yaml's decks (none: one deck of every card at card_size)

    @property
    def rules_name(self) -> str:
        """rules.md, or the language's rules.de.md: how a finding in the prose names its file."""
        return self.rules_file.rsplit("/", 1)[-1] or "rules.md"

    @property
    def every_deck(self) -> tuple[Deck, ...]:
        return self.decks or (Deck(DEFAULT_DECK, self.title, self.card_size),)

    @property
    def sheet_decks(self) -> tuple[str | None, ...]:
        """The decks printed in files of their own: each declared deck when there are several;
        else None, one file of every card."""
        return tuple(d.id for d in self.decks) if len(self.decks) > 1 else (None,)

    def deck(self, deck_id: str | None) -> Deck:
        """The deck of that id (None: the first, the one deck of a game of one)."""
        return next((d for d in self.decks if d.id == deck_id), None) or self.every_deck[0]

    def deck_of(self, card: Card) -> Deck:
        return self.deck(card.deck)

    def pile(self, pile_id: str) -> Pile:
        return next((p for p in self.piles if p.id == pile_id), None) or default_pile(pile_id)

    @property
    def every_language(self) -> tuple[str, ...]:
        """The game's languages, the source's first (only it, for a game that lists none)."""
        return self.languages or (self.language,)

    @property
    def is_translation(self) -> bool:
        """Whether this is the game in another of its languages than the source's."""
        return self.language != self.every_language[0]

    @property
    def shared_draw_piles(self) -> list[Pile]:
        """The piles every player draws from (not a pile each player has)."""
        return [p for p in self.piles if p.role == DRAW and not p.each_player]

    @property
    def design(self) -> Layout:
        """The card layout (load always sets one; only a game built by hand in a test has none)."""
        if self.layout is None:
            raise ValueError(f"{self.title}: the game has no card layout")
        return self.layout

    def color(self, color_id: str) -> Color:
        return self.colors_by_id[color_id]

    def card(self, card_id: str) -> Card:
        return self.cards_by_id[card_id]

    # Built once per Game (the model is frozen): lookups stay O(1) however many cards a game has.
    @cached_property
    def cards_by_id(self) -> Mapping[str, Card]:
        return {c.id: c for c in self.cards}

    @cached_property
    def colors_by_id(self) -> Mapping[str, Color]:
        return {c.id: c for c in self.colors}

    @cached_property
    def backs_by_id(self) -> Mapping[str, Back]:
        return {b.id: b for b in self.backs}

    @cached_property
    def kind_backs(self) -> Mapping[str, str | None]:
        return {k.id: k.back for k in self.kinds}

    def setup(self, name: str) -> Setup:
        """The setup of that id, else of that name (as typed, or in the game's language)."""
        wanted = slugify(name)
        found = next((s for s in self.setups if s.id == wanted), None) or next(
            (s for s in self.setups if slugify(s.name) == wanted), None)
        if found is None:
            raise KeyError(name)
        return found

    def symbol_of(self, card: Card) -> str:
        return card.symbol or self.color(card.color).symbol

    def back_of(self, card: Card) -> Back | None:
        """The card's own back: the card's choice, else its first kind's with one, else its
        color's; None for the game's back."""
        kinds = self.kind_backs
        chosen = card.back or next((kinds[k] for k in card.kinds if kinds.get(k)), None) or self.color(card.color).back
        return self.backs_by_id.get(chosen) if chosen else None

    def back_title(self, back: Back | None) -> str:
        """The text on a back: its own title, else the game's."""
        return back.title if back is not None and back.title else self.title

    def title_hex(self, card: Card) -> str | None:
        """The title color of a card: a kind style wins over the color's own."""
        for kind in card.kinds:
            style = self.kind_styles.get(kind, {})
            if "title_hex" in style:
                return style["title_hex"]
        return self.color(card.color).title_hex


def matches(card: Card, selector: Selector | None) -> bool:
    """Whether a card is picked by a selector (all keys must match; lists mean any of)."""
    if not selector:
        return True
    return all(_matches_key(card, key, wanted) for key, wanted in selector.items())


def _matches_key(card: Card, key: str, wanted: object) -> bool:
    if key == "any":
        return any(matches(card, s) for s in _listed(wanted, dict))
    if key == "not":
        return not matches(card, _selector(wanted))
    if key == "star":
        return card.star == wanted
    if key == "attribute":
        return all(card.attributes.get(k) == v for k, v in _selector(wanted).items())
    if key not in _NAMED:  # a field: the built-in number, or one of the game's own
        return selects(card.source_value(key), wanted)
    names = set(_listed(wanted, str))
    if key == "color":
        return card.color in names
    if key == "kind":
        return bool(set(card.kinds) & names)
    if key == "tag":
        return bool(set(card.tags) & names)
    return card.id in names  # by id: load turns the names a selector gives into ids (a translation renames cards)


_NAMED = ("color", "kind", "tag", "card")  # the selector keys that list names


def _selector(value: object) -> Selector:
    if not isinstance(value, Mapping):
        raise TypeError(f"a selector is a mapping, not {value!r}")
    return value


def _listed(value: object, kind: type[T]) -> list[T]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, kind) for item in value):
        raise TypeError(f"a selector's list holds {kind.__name__} values, not {value!r}")
    return list(value)
