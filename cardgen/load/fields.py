"""load/fields: game.yaml's `fields:` (the game's own card fields) and their values: a card's in
cards.yaml or a cell of cards.csv, a selector's, a default. Each value is read through the field's
type; a wrong one is a finding at its place."""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from cardgen.load import schema
from cardgen.load.reader import Reader, did_you_mean
from cardgen.load.schema import (
    MAX_NAME,
    MAX_NUMBER,
    NUMBER_RANGE,
    AnyOf,
    Boolean,
    Field,
    Fields,
    ListOf,
    Number,
    Table,
    Text,
    TextList,
    Type,
)
from cardgen.load.yaml_nodes import is_null, top_value
from cardgen.model.fields import (
    BUILTIN_FIELDS,
    CHOICE,
    FIELD_TYPES,
    LIST,
    NUMBER,
    TEXT,
    YESNO,
    CardField,
    FieldValue,
    NumberRange,
)
from cardgen.model.game import Finding

MAX_FIELDS = 60
MAX_CHOICES = 200
# the names a game's own field may not take: the keys a card or a selector already has
TAKEN = frozenset((*BUILTIN_FIELDS, *schema.CARD.fields, *schema.SELECT.fields))
_NUMBER = Number(-MAX_NUMBER, MAX_NUMBER)


@dataclass(frozen=True)
class CardSettings:
    """What game.yaml says of how its cards are read: its own fields, the workbook's sheet."""

    fields: tuple[CardField, ...] = ()
    sheet: str | None = None  # cards_sheet: (None: the first)
    findings: tuple[Finding, ...] = ()


def card_settings(folder: Path, reader: Reader | None = None, document: yaml.Node | None = None) -> CardSettings:
    """game.yaml's settings of the cards, read ahead of the rest of it (from its document when
    given: load reads game.yaml once)."""
    if reader is None:
        reader = Reader(folder / "game.yaml")
        if not reader.path.is_file():
            return CardSettings()
        document = reader.document()
    fields = read_fields(reader, top_value(document, "fields"))
    sheet = reader.text(top_value(document, "cards_sheet"), "cards_sheet", limit=MAX_NAME) or None
    return CardSettings(fields, sheet, tuple(reader.findings))


def read_fields(reader: Reader, node: yaml.Node | None) -> tuple[CardField, ...]:
    """game.yaml's fields: each `id: type` or `id: {type, choice, name, default}`."""
    if node is None or is_null(node):
        return ()
    out: list[CardField] = []
    for key_node, value_node in reader.free_mapping(node, "fields")[:MAX_FIELDS + 1]:
        if len(out) == MAX_FIELDS:
            reader.error(key_node, "too-many-fields", f"fields: more than {MAX_FIELDS} card fields")
            break
        ident = reader.identifier(key_node, "field id")
        if ident is None:
            continue
        if ident in TAKEN:
            reader.error(key_node, "field-name-taken", f"fields: '{ident}' is a built-in key of a card or a selector",
                         "give the field another name, e.g. card_" + ident)
            continue
        found = _field(reader, ident, value_node)
        if found is not None:
            out.append(found)
    return tuple(out)


def _field(reader: Reader, ident: str, node: yaml.Node) -> CardField | None:
    where = reader.where(node)
    label = ident.replace("_", " ").capitalize()
    if isinstance(node, yaml.ScalarNode):
        kind = _type_name(reader, node, reader.text(node, f"field '{ident}'"))
        if kind is None:
            return None
        if kind == CHOICE:
            reader.error(node, "missing-field", f"field '{ident}': a choice field lists its values",
                         f"write {ident}: {{choice: [first, second]}}")
            return None
        return CardField(ident, kind, label, where=where)
    m = reader.mapping(node, schema.FIELD, f"field '{ident}'")
    choices = tuple(reader.text(item, "choice", limit=MAX_NAME) for item in reader.sequence(m.get("choice"), "choice"))
    kind = _type_name(reader, m["type"], m.read("type", Text, "")) if "type" in m else (CHOICE if choices else TEXT)
    if kind is None:
        return None
    if (kind == CHOICE) != bool(choices):
        reader.error(node, "missing-field", f"field '{ident}': choice: lists the values of a choice field, and only "
                     "of one", f"write {ident}: {{choice: [first, second]}}")
        return None
    if len(choices) > MAX_CHOICES or len(set(choices)) < len(choices) or not all(choices):
        reader.error(m["choice"], "bad-choice", f"field '{ident}': the choices must be different, non-empty and at "
                     f"most {MAX_CHOICES}")
        return None
    field = CardField(ident, kind, m.read("name", Text) or label, choices, where=where)
    if "default" in m:
        default = read_value(reader, field, m["default"])
        return CardField(ident, kind, field.name, choices, default, where) if default is not None else None
    return field


def _type_name(reader: Reader, node: yaml.Node, name: str) -> str | None:
    if name in FIELD_TYPES:
        return name
    reader.error(node, "unknown-field-type", f"'{name}' is not a field type",
                 did_you_mean(name, FIELD_TYPES) or f"the types are: {', '.join(FIELD_TYPES)}")
    return None


def field_type(field: CardField) -> Type:
    """The declared type of the field's key in a card (what an editor is told, and what reads it)."""
    return {NUMBER: _NUMBER, TEXT: Text(), CHOICE: Text(choices=field.choices), LIST: TextList(),
            YESNO: Boolean()}[field.type]


@lru_cache(maxsize=16)  # read with for every card entry and selector: made once per game
def card_spec(fields: tuple[CardField, ...]) -> Fields:
    """A card's keys in cards.yaml (a column of cards.csv): the built-in ones and the game's own."""
    return schema.CARD.with_fields({f.id: Field(field_type(f), label=f.id, doc=f.name) for f in fields})


@lru_cache(maxsize=16)
def select_spec(fields: tuple[CardField, ...]) -> Fields:
    """A selector's keys: the built-in ones and one per field of the game."""
    return schema.SELECT.with_fields({f.id: Field(_selection_type(f), label=f"select: {f.id}") for f in fields})


def card_texts_spec(fields: tuple[CardField, ...]) -> Fields:
    """A card's texts in a translation: the built-in ones and the game's own text fields."""
    return schema.CARD_TEXTS.with_fields({f.id: Field(Text()) for f in fields if f.translatable})


def translation_spec(fields: tuple[CardField, ...]) -> Fields:
    """i18n/<lang>.yaml's keys, its cards' texts with the game's own text fields."""
    cards = schema.TRANSLATION.fields["cards"]
    return schema.TRANSLATION.with_fields({"cards": Field(Table(Text(), card_texts_spec(fields)), doc=cards.doc)})


def shared_specs(fields: tuple[CardField, ...]) -> dict[str, Fields]:
    """The shared declarations a game's own fields add keys to, by their JSON Schema name (the editor
    schemas of that game define them so)."""
    return {spec.shared: spec for spec in (card_spec(fields), select_spec(fields), card_texts_spec(fields))}


def _selection_type(field: CardField) -> Type:
    if field.type == NUMBER:
        return AnyOf((_NUMBER, ListOf(_NUMBER), NUMBER_RANGE))
    return Boolean() if field.type == YESNO else TextList()


def read_value(reader: Reader, field: CardField, node: yaml.Node) -> FieldValue:
    """A value of the field (None, reported, when it is not one)."""
    what = field.id
    if field.type == NUMBER:
        return _number(reader, node, what)
    if field.type == YESNO:
        return reader.boolean(node, what) if not is_null(node) else None
    if field.type == LIST:
        return reader.text_list(node, what)
    value = reader.text(node, what, limit=MAX_NAME if field.type == CHOICE else schema.MAX_TEXT)
    if field.type == CHOICE and value not in field.choices:
        reader.error(node, "unknown-choice", f"{what}: '{value}' is not one of its choices",
                     did_you_mean(value, field.choices) or f"the choices are: {', '.join(field.choices)}")
        return None
    return value


def _number(reader: Reader, node: yaml.Node, what: str) -> int | float | None:
    """A whole number stays whole (for patterns such as {attack:02d}); others are decimals."""
    value = _NUMBER.read(reader, node, what)
    if value is None:
        return None
    return int(value) if value.is_integer() and math.isfinite(value) else value


def read_selection(reader: Reader, field: CardField, node: yaml.Node) -> object:
    """What a selector wants of a field: yes/no, a number range, or the values listed (any of)."""
    if field.type == YESNO:
        return reader.boolean(node, f"select: {field.id}")
    if field.type == NUMBER and isinstance(node, yaml.MappingNode):
        bounds = reader.mapping(node, NUMBER_RANGE, f"select: {field.id}")
        return NumberRange(bounds.read("from", Number), bounds.read("to", Number))
    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    values = [read_value(reader, field, item) if field.type != LIST else reader.text(item, field.id)
              for item in items]
    return tuple(value for value in values if value is not None)
