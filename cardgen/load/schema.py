"""load/schema: every key of game.yaml, cards.yaml and setups.yaml, with its type and whether it
is required: the one declaration both the loader and the editor schema are made from.

The loader reads each mapping against its `Fields` (unknown, duplicate and missing keys come from
here) and each scalar through its declared type (`Values.read`: the type's `read` calls the
Reader's converter with the type's own limits). `json_schema()` turns the same declarations into
the JSON Schema (draft-07) that editors use through a `# yaml-language-server: $schema=` line;
the files in cardgen/schemas/ are its output (`cardgen schema --write cardgen/schemas`, kept in
step by the tests).

A JSON Schema sees YAML as an editor's YAML 1.2 parser does: `1.10` is a number, `yes` text. The
loader keeps every scalar as typed, so where it reads text the schema accepts any scalar.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

import yaml

from cardgen.model import expressions
from cardgen.model.fields import FIELD_TYPES, TRANSLATABLE_BUILTINS
from cardgen.model.game import AUTO, LEVELS, PILE_ROLES, CountSpec
from cardgen.model.sizes import CARD_SIDE_MM, CARD_SIZES_MM, MAX_PLAYERS
from cardgen.model.turns import SAVED_PLACES

MAX_TEXT = 4000
MAX_NAME = 80
MAX_COUNT = 1000
MAX_NUMBER = 10**6
MAX_TURNS = 20  # a turn's draws, a card's extra turns or peeked cards
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
HEX_PATTERN = re.compile(r"^#[0-9a-fA-F]{6}$")
INT_PATTERN = re.compile(r"^[+-]?[0-9]+$")
LOW_RES = ("ok",)  # a card's low_res: the one value that says its art may print below 150 ppi
KIND_ROLES = ("losing", "saving")
ATTRIBUTE_SOURCES = ("number",)
DIGITS = ("tens", "ones")
DRAFT = "http://json-schema.org/draft-07/schema#"
SCALAR = ["string", "number", "boolean", "null"]


# --------------------------------------------------------------------------- types

Json = dict[str, Any]  # a piece of JSON Schema (free JSON data)
V = TypeVar("V", covariant=True)
T = TypeVar("T", bound="Type")


class ScalarReader(Protocol):
    """The converters of a Reader (load/reader.py) a scalar type reads its values with."""

    def text(self, node: yaml.Node | None, what: str, default: str = "", limit: int = MAX_TEXT) -> str: ...
    def identifier(self, node: yaml.Node | None, what: str) -> str | None: ...
    def hex_color(self, node: yaml.Node | None, what: str) -> str | None: ...
    def integer(self, node: yaml.Node | None, what: str, low: int = 0, high: int = MAX_COUNT,
                allow_null: bool = False) -> int | None: ...
    def number(self, node: yaml.Node | None, what: str, low: float, high: float) -> float | None: ...
    def boolean(self, node: yaml.Node | None, what: str, default: bool = False) -> bool: ...
    def condition(self, node: yaml.Node | None) -> str | None: ...
    def text_list(self, node: yaml.Node | None, what: str) -> tuple[str, ...]: ...
    def count_spec(self, node: yaml.Node | None, what: str, by: str = "player") -> CountSpec | None: ...


class Type:
    """A value's type: its JSON Schema; a scalar's (`Scalar`) also how the loader reads it. Lists,
    tables and mappings are read by the loader's own code."""

    def json(self, defs: Json) -> Json:
        raise NotImplementedError

    def as_(self, kind: type[T]) -> T:
        """This type as the kind the caller reads it with (a declaration that says otherwise is a bug)."""
        if not isinstance(self, kind):
            raise TypeError(f"a value declared as {type(self).__name__} read as {kind.__name__}")
        return self


class Scalar(Type, Generic[V]):
    """A type the loader reads in one step: `read` calls the Reader's converter with the type's limits."""

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> V:
        raise NotImplementedError


@dataclass(frozen=True)
class Text(Scalar[str]):
    limit: int = MAX_TEXT
    choices: tuple[str, ...] = ()  # the loader reports other values with its own code and hint

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> str:
        return reader.text(node, what, limit=self.limit)

    def json(self, defs: Json) -> Json:
        if self.choices:
            return {"enum": list(self.choices)}
        return {"type": SCALAR, "maxLength": self.limit}


@dataclass(frozen=True)
class Identifier(Scalar[str | None]):
    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> str | None:
        return reader.identifier(node, what)

    def json(self, defs: Json) -> Json:
        return {"type": "string", "pattern": ID_PATTERN.pattern}


@dataclass(frozen=True)
class HexColor(Scalar[str | None]):
    auto: bool = False  # "auto" also allowed: the renderer derives the color (from the game's palette)

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> str | None:
        if self.auto and node is not None and reader.text(node, what) == AUTO:
            return AUTO
        return reader.hex_color(node, what)

    def json(self, defs: Json) -> Json:
        if self.auto:
            return {"type": "string", "pattern": f"^({HEX_PATTERN.pattern[1:-1]}|{AUTO})$"}
        return {"type": "string", "pattern": HEX_PATTERN.pattern}


@dataclass(frozen=True)
class Integer(Scalar[int | None]):
    low: int = 0
    high: int = MAX_COUNT
    nullable: bool = False

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> int | None:
        return reader.integer(node, what, self.low, self.high, allow_null=self.nullable)

    def json(self, defs: Json) -> Json:
        return {"type": ["integer", "null"] if self.nullable else "integer",
                "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Number(Scalar[float | None]):
    low: float
    high: float

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> float | None:
        return reader.number(node, what, self.low, self.high)

    def json(self, defs: Json) -> Json:
        return {"type": "number", "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Boolean(Scalar[bool]):
    default: bool = False

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> bool:
        return reader.boolean(node, what, self.default)

    def json(self, defs: Json) -> Json:  # the loader also takes yes/no, which YAML 1.2 reads as text
        return {"anyOf": [{"type": ["boolean", "null"]},
                          {"type": "string", "pattern": "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Yy][Ee][Ss]|[Nn][Oo])$"}]}


def _expression_json() -> Json:
    """The words and signs an expression may hold (expressions.py parses it for real)."""
    words = "|".join((*expressions.VARIABLES, *expressions.FUNCTIONS, "if", "else", "and", "or"))
    return {"type": "string", "maxLength": expressions.MAX_LENGTH,
            "pattern": rf"^(\s|[0-9]|[-+*/%<>=!(),]|{words})*$"}


@dataclass(frozen=True)
class Expression(Scalar[str | None]):
    """A condition on the player count, e.g. `players == 3`."""

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> str | None:
        return reader.condition(node)

    def json(self, defs: Json) -> Json:
        return {"anyOf": [_expression_json(), {"type": "null"}]}


@dataclass(frozen=True)
class TextList(Scalar[tuple[str, ...]]):
    """One text, or a list of them."""

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> tuple[str, ...]:
        return reader.text_list(node, what)

    def json(self, defs: Json) -> Json:
        one = Text().json(defs)
        return {"anyOf": [one, {"type": "array", "items": one}]}


@dataclass(frozen=True)
class CountSpecType(Scalar[CountSpec | None]):
    """A number of cards: a whole number, an expression of `players`, or a table by player count."""

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> CountSpec | None:
        return reader.count_spec(node, what)

    def json(self, defs: Json) -> Json:
        return {"anyOf": [Integer().json(defs), _expression_json(),
                          Table(Integer(1, MAX_PLAYERS), Integer()).json(defs)]}


@dataclass(frozen=True)
class SeatCount(Scalar[CountSpec | None]):
    """A number of cards by seat: a whole number, an expression of `seat` and `players`, or a table by seat."""

    def read(self, reader: ScalarReader, node: yaml.Node | None, what: str) -> CountSpec | None:
        return reader.count_spec(node, what, by="seat")

    def json(self, defs: Json) -> Json:
        return CountSpecType().json(defs)


@dataclass(frozen=True)
class ListOf(Type):
    item: Type

    def json(self, defs: Json) -> Json:
        return {"type": ["array", "null"], "items": self.item.json(defs)}


@dataclass(frozen=True)
class Table(Type):
    """A mapping whose keys are data (card names, player counts), each with a value of one type."""

    key: Type
    value: Type

    def json(self, defs: Json) -> Json:
        out: Json = {"type": "object", "additionalProperties": self.value.json(defs)}
        if isinstance(self.key, Integer):
            out["propertyNames"] = {"pattern": INT_PATTERN.pattern}
        elif isinstance(self.key, Identifier):
            out["propertyNames"] = {"pattern": ID_PATTERN.pattern}
        return out


@dataclass(frozen=True)
class AnyOf(Type):
    options: tuple[Type, ...]

    def json(self, defs: Json) -> Json:
        return {"anyOf": [option.json(defs) for option in self.options]}


def declared(spec: Fields, key: str, kind: type[T]) -> T:
    """The type declared for a key of a mapping, as the kind the caller reads it with."""
    return spec.fields[key].type.as_(kind)


@dataclass(frozen=True)
class Field:
    type: Type
    required: bool = False
    label: str = ""  # how findings name the value (default: the key)
    doc: str = ""  # shown by editors on hover


@dataclass(frozen=True)
class Fields(Type):
    """A mapping with known keys."""

    name: str  # how findings name the mapping
    fields: dict[str, Field]
    exactly_one: tuple[str, ...] = ()  # keys of which a mapping holds exactly one
    alone: str = ""  # a key that may stand without any of exactly_one
    needs: Mapping[str, str] = field(default_factory=dict)  # key -> the key it is only read with
    shared: str = ""  # a name: the JSON Schema defines it once (needed for recursion)
    doc: str = ""
    others: bool = False  # keys it does not name are free data (else they are errors)

    extends: Fields | None = field(default=None, compare=False, repr=False)  # with_fields: the declaration it adds to

    def with_fields(self, extra: Mapping[str, Field]) -> Fields:
        """The declaration with a game's own keys (its card fields) added (load/fields.py)."""
        if not extra:
            return self
        return replace(self, fields={**self.fields, **extra}, extends=self.extends or self)

    def __iter__(self) -> Iterator[str]:
        return iter(self.fields)

    def __contains__(self, key: object) -> bool:
        return key in self.fields

    def required(self) -> list[str]:
        return [key for key, f in self.fields.items() if f.required]

    def json(self, defs: Json) -> Json:
        if self.shared:
            if self.shared not in defs:
                self.define(defs)
            return {"$ref": f"#/definitions/{self.shared}"}
        return self._object(defs)

    def define(self, defs: Json) -> None:
        """Define this shared declaration in `defs`: every reference to its name is to it."""
        defs[self.shared] = {}  # a placeholder while it is being made: recursion ends here
        defs[self.shared] = self._object(defs)

    def _object(self, defs: Json) -> Json:
        out: Json = {"type": "object"}
        if self.doc:
            out["description"] = self.doc
        out["properties"] = {key: _described(f.type.json(defs), f.doc) for key, f in self.fields.items()}
        out["additionalProperties"] = self.others
        if self.required():
            out["required"] = self.required()
        if self.exactly_one:
            out["oneOf"] = [{"required": [key]} for key in self.exactly_one]
            if self.alone:
                out["oneOf"].append({"required": [self.alone], "not": {"anyOf": out["oneOf"][:]}})
        if self.needs:
            out["dependencies"] = {key: [needed] for key, needed in self.needs.items()}
        return out


def _described(schema: Json, doc: str) -> Json:
    if not doc:
        return schema
    if "$ref" in schema:  # draft-07 ignores the siblings of a $ref
        return {"description": doc, "allOf": [schema]}
    return {"description": doc, **schema}


# --------------------------------------------------------------------------- the declarations

def _named(what: str) -> dict[str, Field]:
    return {"id": Field(Identifier(), True, f"{what} id", "the id the other files use: lower-case letters, digits, - or _"),
            "name": Field(Text(), True, f"{what} name", "the name players read"),
            "meaning": Field(Text(), doc="what it means, for the rulebook")}


COLOR = Fields("color", {
    **_named("color"),
    "hex": Field(HexColor(), True, doc="the card's color, \"#rrggbb\" (quoted: # starts a comment)"),
    "symbol": Field(Identifier(), True, doc="a symbol: <game>/symbols/<name>.svg or a built-in one"),
    "text_hex": Field(HexColor(), doc="the text color on this color (default: by contrast)"),
    "title_hex": Field(HexColor(), doc="the card-name color on this color"),
    "back": Field(Text(), doc="the id of one of game.yaml's backs: the back of this color's cards"),
})
TAG = Fields("tag", _named("tag"))
KIND = Fields("kind", {**_named("kind"), "plural": Field(Text(), doc="the name of several (default: made from the name)"),
                       "role": Field(Text(choices=KIND_ROLES), doc="losing: drawing one loses; "
                                                                             "saving: saves a player from one"),
                       "back": Field(Text(), doc="the id of one of game.yaml's backs: the back of this kind's cards")})
BACK = Fields("back", {
    "id": Field(Identifier(), True, "back id", "the id colors, kinds and cards name it by with back:"),
    "title": Field(Text(MAX_NAME), label="back title", doc="the text on the back (default: the game's title)"),
    "background": Field(HexColor(), doc="default: the layout's back background"),
    "pattern": Field(HexColor(), doc="the color of the symbols repeated over the back"),
    "border": Field(HexColor(), doc="the border and emblem color"),
    "emblem": Field(Identifier(), doc="a symbol drawn above and below the title"),
    "face": Field(Identifier(), doc="the face printed on this back (any face of layout.yaml: a double-faced card)"),
})
KIND_STYLE = Fields("kind style", {"title_hex": Field(HexColor()), "hex": Field(HexColor())})
ATTRIBUTE = Fields("attribute", {
    **{key: f for key, f in _named("attribute").items() if key != "meaning"},
    "from": Field(Text(choices=ATTRIBUTE_SOURCES), doc="derived from the card's number"),
    "digit": Field(Text(choices=DIGITS), doc="take one digit of the number"),
    "divide": Field(Integer(1, MAX_NUMBER)), "modulo": Field(Integer(1, MAX_NUMBER)),
    "names": Field(Table(Integer(0, MAX_NUMBER), Text()), doc="a name for each value"),
})
CARD_SIZE = Fields("card_size", {"width_mm": Field(Number(*CARD_SIDE_MM), True, "card width (mm)"),
                                 "height_mm": Field(Number(*CARD_SIDE_MM), True, "card height (mm)")})

NUMBER_RANGE = Fields("range", {"from": Field(Number(-MAX_NUMBER, MAX_NUMBER)), "to": Field(Number(-MAX_NUMBER, MAX_NUMBER))},
                      doc="the numbers from..to (both included)")
SELECT_LISTS = ("color", "kind", "card", "tag")
SELECT: Fields = Fields("select", {}, shared="select", doc="picks cards; every key given must match")
SELECT.fields.update({  # a selector holds selectors (any, not): its fields come after it
    **{key: Field(TextList(), doc=f"one {key} or a list: a card with any of them") for key in SELECT_LISTS},
    "attribute": Field(Table(Text(), Text()), doc="attribute id: value"),
    "star": Field(Boolean()),
    "number": Field(AnyOf((Number(-MAX_NUMBER, MAX_NUMBER), ListOf(Number(-MAX_NUMBER, MAX_NUMBER)), NUMBER_RANGE)),
                    doc="a number, a list of them, or a range {from: 2, to: 5} (either bound may be left out)"),
    "any": Field(ListOf(SELECT), doc="a card any of these selectors picks"),
    "not": Field(SELECT, doc="a card this selector does not pick"),
})

_PILE_MOVE = {"from": Field(Text(), doc="the pile to take from (default: deck)"),
              "select": Field(SELECT), "count": Field(CountSpecType()),
              "extras": Field(Boolean()), "up_to": Field(Boolean()), "random": Field(Boolean())}
MOVE = Fields("move", {**_PILE_MOVE, "to": Field(Text(), True, doc="the pile to put the cards on")})
DEAL = Fields("deal", {
    **_PILE_MOVE, "to": Field(Text(), doc="default: hands"),
    "seat": Field(CountSpecType(), doc="deal to this seat only (1: the first player; an expression of players, "
                                   "e.g. players for the last)"),
    "by_seat": Field(SeatCount(), doc="each seat's count instead of count: a table by seat ({1: 3, 2: 4}) or an "
                                      "expression of seat (and players)"),
    "split_by": Field(Identifier(), doc="each seat takes every card of one value of this field (color, kind, tag "
                                        "or a field of the game), in seat order: each player's own deck"),
})
STEP_ACTIONS = ("move", "deal", "shuffle", "set", "first_player")
STEP = Fields("step", {
    "move": Field(MOVE), "deal": Field(DEAL), "shuffle": Field(Text(), label="pile"),
    "set": Field(Table(Identifier(), CountSpecType()), doc="each player's starting value of components, "
                                                      "e.g. {health: 20}"),
    "first_player": Field(Text(), doc="how the first player is chosen: random, or in the game's words"),
    "text": Field(Text(), doc="the step as the checklist prints it; alone, a step that is only its text"),
    "when": Field(Expression(), doc="only at some player counts, e.g. players >= 4"),
}, exactly_one=STEP_ACTIONS, alone="text")
SETUP_PROCEDURE = Fields("setup", {"steps": Field(ListOf(STEP), True)})
CHECK = Fields("check", {
    "id": Field(Identifier(), True, "check id"),
    "level": Field(Text(choices=LEVELS), True, doc="error stops the build; warning and info are reported"),
    "on": Field(TextList(), True, doc="setup, pile names, or component ids"),
    "message": Field(Text(), True), "select": Field(SELECT),
    **{key: Field(CountSpecType()) for key in ("at_least", "at_most", "equals")},
    "source": Field(Text()), "when": Field(Expression()),
})
VARIATION = Fields("variation", {"name": Field(Text(), True, "variation name"),
                                 "text": Field(Text(), True, "variation text")})
ALIAS_TARGETS = ("color", "kind", "tag", "card")
ALIAS = Fields("alias", {key: Field(Text()) for key in ALIAS_TARGETS}, exactly_one=ALIAS_TARGETS)
GAME_WAIVER = Fields("waive", {"check": Field(Text(), True), "reason": Field(Text(), True),
                               "inside": Field(Text(), doc="only inside this text")})
TEXT_CHECKS = Fields("text_checks", {
    "aliases": Field(Table(Text(), ALIAS), doc="other names the texts use, e.g. Unique Cards: {color: special}"),
    "waive": Field(ListOf(GAME_WAIVER)),
})
CHEATSHEET_GROUP_BY = ("text", "none")
SHEET_SECTION = Fields("cheatsheet: section", {"title": Field(Text(), label="section title"),
                                               "items": Field(ListOf(Text()), True, doc="plain text, no Markdown")})
COMBO_ROW = Fields("combo row", {key: Field(Text(), key == "cards", f"combo {key}") for key in ("cards", "name", "effect")})
COMBOS = Fields("cheatsheet: combos", {"title": Field(Text(), label="combos: title"),
                                       "intro": Field(Text(), label="combos: intro"), "rows": Field(ListOf(COMBO_ROW))})
CHEATSHEET = Fields("cheatsheet", {
    "title": Field(Text(), label="cheatsheet: title", doc="default: the game's title"),
    **{key: Field(Text(), label=f"cheatsheet: {key}") for key in ("subtitle", "goal")},
    "card_heading": Field(Text(), label="cheatsheet: card_heading", doc="default: The cards"),
    "card_group_by": Field(Text(choices=CHEATSHEET_GROUP_BY), label="cheatsheet: card_group_by",
                           doc="text: cards of one color with the same text share a line; none: a line per card"),
    "sections": Field(ListOf(SHEET_SECTION), doc="short lists; the pocket copies show the first"),
    "combos": Field(COMBOS, doc="a table of card combinations"),
    "copies_label": Field(Text(), label="cheatsheet: copies_label", doc="how the table calls a setup's copies"),
    "players_note": Field(Text(), label="cheatsheet: players_note", doc="a line under the player table"),
    "card_decks": Field(ListOf(Identifier()), doc="the decks whose cards the card list shows (default: every deck)"),
}, doc="the one-page cheat sheet and its pocket copies")
PILE = Fields("pile", {
    "id": Field(Identifier(), True, "pile id", "the id the setup steps and checks use (deck: the setup's cards; "
                                                "hands: the players' hands)"),
    "name": Field(Text(), True, "pile name", "how the documents call it, e.g. Supply, Starting deck"),
    "role": Field(Text(choices=PILE_ROLES), True, doc="draw: players draw from it (it must not be empty after "
                  "setup); supply: cards are taken from it face up; discard: face up; aside: out of play for now; "
                  "box: back in the box"),
    "each_player": Field(Boolean(), doc="every player has one (a deal's to: pile is); its counts are each player's"),
    "face_up": Field(Boolean()),
})
COMPONENT = Fields("component", {
    **_named("component"),
    "plural": Field(Text(), doc="the name of several (default: the name with an s)"),
    "count": Field(CountSpecType(), True, "component count", "how many the game uses: a number, an expression of "
                                                           "players or a table by player count"),
    "each": Field(CountSpecType(), label="component each", doc="how many each player starts with; the rest stays "
                                                            "in the supply"),
    "to_win": Field(CountSpecType(), label="component to_win", doc="how many a player needs to win, e.g. {2: 7, 3: 5, 4: 4}"),
})
PLAY = Fields("play", {
    "skip": Field(Boolean(), doc="end the turn without drawing"),
    "extra_turns": Field(Integer(1, MAX_TURNS), doc="end every turn the player still owes: the next player takes "
                                                    "this many turns more than one (an attack)"),
    "shuffle": Field(Boolean(), doc="shuffle the draw pile"),
    "peek": Field(Integer(1, MAX_TURNS), doc="look at this many cards on top of the draw pile"),
    "reverse": Field(Boolean(), doc="the turn passes the other way round"),
}, doc="what playing the card does, for `cardgen simulate` (cards without it are never played there)")
TURNS = Fields("turns", {
    "draw": Field(Integer(1, MAX_TURNS), doc="cards a player draws to end a turn (default 1)"),
    "saved": Field(Text(choices=SAVED_PLACES), doc="where a losing card goes when a saving card is spent: random "
                                                   "(default: anywhere in the draw pile), top, bottom or discard"),
    "documents": Field(Boolean(), doc="the rulebook's setups and the checklists show how each plays, from "
                                      "`cardgen simulate`'s figures"),
}, doc="how a turn goes, for `cardgen simulate`: a card of a losing kind drawn eliminates the player unless "
       "they spend a card of a saving kind; the last player left wins")


def _texts(what: str, *keys: str) -> Fields:
    return Fields(what, {key: Field(Text()) for key in keys})


FIELD = Fields("field", {
    "type": Field(Text(choices=FIELD_TYPES), doc="number, text (markup and :symbol: allowed), choice, list or yes/no"),
    "choice": Field(ListOf(Text(MAX_NAME)), doc="a choice field's values (the type is then choice)"),
    "name": Field(Text(MAX_NAME), label="field name", doc="how the documents label it (default: from the id)"),
    "default": Field(TextList(), doc="the value of a card that does not set it"),
}, doc="one of the game's own card fields")
# a card's texts in a translation: the built-in ones here, a game's own text fields added (load/fields.py)
CARD_TEXTS = replace(_texts("card", *TRANSLATABLE_BUILTINS), shared="card_texts")
LANGUAGE_DOC = "a language code (de, fr, pt-BR): the first is the source's, each other has i18n/<code>.yaml"
_CHEATSHEET_TEXTS = ("title", "subtitle", "goal", "card_heading", "copies_label", "players_note")
TRANSLATION = Fields("translation", {
    "title": Field(Text()), "number_name": Field(Text()), "date": Field(Text(), doc="game.yaml's date, written the "
                                                                                     "language's way"),
    "colors": Field(Table(Identifier(), _texts("color", "name", "meaning"))),
    "tags": Field(Table(Identifier(), _texts("tag", "name", "meaning"))),
    "kinds": Field(Table(Identifier(), _texts("kind", "name", "plural", "meaning"))),
    "piles": Field(Table(Identifier(), _texts("pile", "name"))),
    "fields": Field(Table(Identifier(), _texts("field", "name")), doc="the game's own card fields' display names"),
    "components": Field(Table(Identifier(), _texts("component", "name", "plural", "meaning"))),
    "backs": Field(Table(Identifier(), _texts("back", "title"))),
    "checks": Field(Table(Identifier(), _texts("check", "message"))),
    "cards": Field(Table(Text(), CARD_TEXTS), doc="by card id"),
    "setups": Field(Table(Text(), Fields("setup", {"name": Field(Text()), "blurb": Field(Text()),
                                                   "extra_rules": Field(ListOf(Text()))})), doc="by setup id"),
    "setup_steps": Field(ListOf(Text()), doc="the texts of game.yaml's setup steps that have one, in order"),
    "variations": Field(Table(Text(), _texts("variation", "name", "text")), doc="by the variation's name as an id"),
    "cheatsheet": Field(Fields("cheatsheet", {
        **{key: Field(Text()) for key in _CHEATSHEET_TEXTS},
        "sections": Field(ListOf(Fields("section", {"title": Field(Text()), "items": Field(ListOf(Text()))}))),
        "combos": Field(Fields("combos", {"title": Field(Text()), "intro": Field(Text()),
                                          "rows": Field(ListOf(_texts("combo row", "cards", "name", "effect")))})),
    })),
}, doc="a cardgen game's texts in another language (i18n/<lang>.yaml), keyed by the ids of the source files")
REFERENCE = Fields("reference", {"cheatsheet": Field(CHEATSHEET)}, others=True)
DECK_PRINTS = ("setups", "all")
DECK = Fields("deck", {
    **{key: f for key, f in _named("deck").items() if key != "meaning"},
    "card_size": Field(AnyOf((Text(), CARD_SIZE)), True, doc="a size name, WxH in mm (e.g. 44x63) or {width_mm, height_mm}"),
    "landscape": Field(Boolean(), doc="true: the size turned on its side (width and height swapped)"),
    "face": Field(Identifier(), doc="the id of one of layout.yaml's faces: the face its cards take"),
    "back": Field(Text(), doc="the id of one of game.yaml's backs: its cards' back"),
    "select": Field(SELECT, doc="the cards it holds (besides those whose deck: names it); the first deck that picks a card wins"),
    "print": Field(Text(choices=DECK_PRINTS), doc="all: `cardgen build` prints one of each of its cards in "
                   "cards-<deck id>.pdf, whatever the setups name (reference or rules cards); setups: as the setups count them"),
})
GAME = Fields("game.yaml", {
    "title": Field(Text(), True), "version": Field(Text()), "author": Field(Text()), "date": Field(Text()),
    "card_size": Field(AnyOf((Text(choices=tuple(CARD_SIZES_MM)), CARD_SIZE)), doc="a size name or {width_mm, height_mm}"),
    "default_setup": Field(Text(), doc="the setup `cardgen cards` prints when none is named"),
    "number_name": Field(Text(), doc="what the game calls a card's associated number, e.g. Cost (default: Number)"),
    "changes_since": Field(Text(), doc="a git revision (e.g. a tag, v1.1) of the game's repository: the rulebook "
                                       "ends with what changed since it"),
    "colors": Field(ListOf(COLOR), True), "tags": Field(ListOf(TAG)), "kinds": Field(ListOf(KIND)),
    "kind_styles": Field(Table(Identifier(), KIND_STYLE)), "attributes": Field(ListOf(ATTRIBUTE)),
    "setup": Field(SETUP_PROCEDURE, doc="the setup procedure the engine plays out"),
    "checks": Field(ListOf(CHECK)), "variations": Field(ListOf(VARIATION)),
    "components": Field(ListOf(COMPONENT), doc="what the game has besides its cards: coins, tokens, boards, dice"),
    "piles": Field(ListOf(PILE), doc="the piles of the setup steps in the game's own words, and their roles"),
    "reference": Field(REFERENCE, doc="data for the documents: the cheat sheet, and free data for a game's "
                                      "own templates"),
    "text_checks": Field(TEXT_CHECKS),
    "backs": Field(ListOf(BACK), doc="card backs besides the game's own, named by colors, kinds or cards"),
    "exports": Field(TextList(), doc="export targets `cardgen build` makes too (as `cardgen export --to`): "
                                     "png, tgc, mpc, drivethru, tts or the game's own"),
    "turns": Field(TURNS),
    "decks": Field(ListOf(DECK), doc="the decks the game prints, each at its own card size (none: one deck at card_size)"),
    "languages": Field(TextList(), doc=LANGUAGE_DOC),
    "cards_sheet": Field(Text(MAX_NAME), doc="the sheet of cards.xlsx or cards.ods that holds the cards "
                                             "(default: the first)"),
    "fields": Field(Table(Identifier(), AnyOf((Text(choices=FIELD_TYPES), FIELD))),
                    doc="the game's own card fields, e.g. {cost: number, rarity: {choice: [common, rare]}}: a key of "
                        "a card in cards.yaml, a column in cards.csv"),
}, doc="a cardgen game: its title, colors, kinds, setup procedure and checks")

RANGE = Fields("numbers", {"from": Field(Integer(0, MAX_NUMBER), True), "to": Field(Integer(0, MAX_NUMBER), True)})
CARD = Fields("card", {
    "name": Field(Text(MAX_NAME), label="card name", doc="a card, or a series with {number} in it"),
    "id": Field(Identifier(), doc="a stable id (default: from the name): a card renamed with its id kept "
                                   "is the same card in `cardgen diff` and in its files"),
    "series": Field(Text(MAX_NAME), doc="a name pattern, e.g. 'Coin {number}', with numbers: {from, to}"),
    "numbers": Field(RANGE), "color": Field(Text(), True, doc="a color id from game.yaml"),
    "kind": Field(TextList(), doc="kind ids from game.yaml"), "tags": Field(TextList(), doc="tag ids from game.yaml"),
    "number": Field(Integer(0, MAX_NUMBER, nullable=True), label="associated number"),
    "star": Field(Boolean(), doc="a special card: a star under the symbol"),
    "symbol": Field(Identifier(), doc="the card's own symbol instead of its color's"),
    "flavor": Field(Text()), "text": Field(Text(), doc="the effect; :symbol: and **bold** allowed"),
    "details": Field(Text(), doc="the rulebook's longer explanation"),
    "art": Field(Text(), doc="an image in the game folder or art/, e.g. art/dragon.png"),
    "print": Field(Boolean(True), doc="false: the card is counted but not printed"),
    "back": Field(Text(), doc="the id of one of game.yaml's backs: this card's own back"),
    "face": Field(Identifier(), doc="the id of one of layout.yaml's faces: this card's own face"),
    "deck": Field(Identifier(), doc="the id of one of game.yaml's decks: the deck it belongs to"),
    "low_res": Field(Text(choices=LOW_RES), doc="ok: the art may print below 150 ppi (check still warns)"),
    "play": Field(PLAY),
}, exactly_one=("name", "series"), needs={"series": "numbers", "numbers": "series"}, shared="card")
CARDS = Fields("cards.yaml", {"cards": Field(ListOf(CARD), True)}, doc="a cardgen game's cards")

PLAYERS = Fields("players", {"min": Field(Integer(1, MAX_PLAYERS), True, "players: min"),
                             "max": Field(Integer(1, MAX_PLAYERS), True, "players: max")})
HAND = Fields("hand", {"deal": Field(CountSpecType(), label="hand: deal",
                                     doc="cards dealt to each player: a number, an expression of players or "
                                         "a table by player count, e.g. {2: 10, 3: 9, 4: 8}"),
                       "extras": Field(Table(Text(), CountSpecType()), doc="card name: extra copies each player gets "
                                                                        "(a number, an expression or a player table)")})
EACH = Fields("each", {"select": Field(SELECT, True), "count": Field(Integer(), True)})
SETUP_WAIVER = Fields("waive", {"check": Field(Text(), True), "reason": Field(Text(), True)})
SETUP = Fields("setup", {
    "name": Field(Text(MAX_NAME), True, "setup name"), "blurb": Field(Text()),
    "players": Field(PLAYERS, True), "extra_rules": Field(TextList()), "hand": Field(HAND),
    "cards": Field(Table(Text(), Integer(nullable=True)), doc="card name: copies (empty: the engine decides)"),
    "each": Field(ListOf(EACH), doc="copies of every card a selector picks"),
    "waive": Field(ListOf(SETUP_WAIVER)), "copies": Field(CountSpecType()),
})
SETUPS = Fields("setups.yaml", {"setups": Field(ListOf(SETUP), True)}, doc="a cardgen game's setups")

