"""texts (check stage): the one walk over every text of a game, for every check that reads texts.

Each text comes once, with what the checks ask of it: how findings name it, where a span of it
is typed, the font role that draws it on the card faces, and whether it is prose the text lint
reads for card names and figures (rules, card texts and details, setup texts, variations).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass

from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.inputs.paths import display_path
from cardgen.load.yaml_nodes import MAX_FILE_BYTES
from cardgen.model.faces import FIELD_PATTERN, REPEAT, TAGS, TEXT, Face, Faces, single_field
from cardgen.model.fields import markup_fields, translatable_fields
from cardgen.model.game import Card, Game, Setup, Step
from cardgen.model.where import Passage, Where

# where a span (start, end) of a text is typed; None for texts of a game built without places
Place = Callable[[int, int], Where | None]


@dataclass(frozen=True)
class GameText:
    value: str
    label: str  # e.g. "card 'Scaling' (details)"
    place: Place
    role: str | None = None  # the layout's font role drawing it on the card faces (None: documents only)
    emphasis: bool = False  # card markup: **bold** and *italic* switch fonts in the text family
    prose: bool = False  # the text lint reads it
    card: Card | None = None  # the card whose own text this is
    setup: Setup | None = None  # the setup it belongs to (None: every setup)
    changes_rules: bool = False  # a variation: its figures may differ from the setup on purpose
    step: Step | None = None  # the setup step whose text this is
    cards_only: bool = False  # drawn on the cards alone (a face's own words), never in the documents


def game_texts(game: Game) -> Iterator[GameText]:
    yield from _card_texts(game)
    yield from _game_texts(game)
    yield from _setup_texts(game)
    if game.rules_markdown:
        yield GameText(game.rules_markdown, game.rules_name, in_file(game.rules_markdown, game.rules_file), prose=True)


def in_passage(value: str, passage: Passage | None, fallback: Where | None) -> Place:
    def place(start: int, end: int) -> Where | None:
        if passage is None:
            return fallback
        phrase = value[start:end]
        return passage.locate(phrase, value.count(phrase, 0, start))
    return place


def in_file(value: str, file: str) -> Place:
    def place(start: int, end: int) -> Where | None:
        line = value.count("\n", 0, start) + 1
        return Where(file, line, start - value.rfind("\n", 0, start))
    return place


def place_in_source(game: Game, file: str, value: str, after: Where | None = None) -> Callable[[int], Where | None]:
    """Where a character of a value sits in its file, for values load keeps no position of: the
    first line of the file (from `after` on) holding the value's line around the character."""
    def place(index: int) -> Where:
        source = _source(game, file)
        begin = _line_offset(source, after.line) if after and after.line else 0
        start = value.rfind("\n", 0, index) + 1
        end = value.find("\n", index)
        line = value[start:end if end >= 0 else len(value)]
        found = source.find(line, begin) if line.strip() else -1
        if found < 0:
            return after or Where(file)
        offset = found + index - start
        return Where(file, source.count("\n", 0, offset) + 1, offset - source.rfind("\n", 0, offset))
    return place


def _in_source(game: Game, file: str, value: str, after: Where | None = None) -> Place:
    """place_in_source for a span: where its first character sits."""
    at = place_in_source(game, file, value, after)
    return lambda start, end: at(start)


def game_file(game: Game) -> str:
    return display_path(game.folder / "game.yaml", game.folder)


def _face_roles(face: Face) -> dict[str, str]:
    """The font role each field is drawn in on a face (the first text element made of it alone)."""
    roles: dict[str, str] = {}
    for element in face.elements:
        field = single_field(element.text) if element.kind == TEXT else None
        if field:
            roles.setdefault(field, element.font)
    return roles


def _card_texts(game: Game) -> Iterator[GameText]:
    design = game.layout
    faces = {face.id: _face_roles(face) for face in design.faces.by_id.values()} if design else {}
    own = {f.id: f.name for f in game.fields}  # the game's own fields, named by their names
    markup = markup_fields(game.fields)
    for card in game.cards:
        roles = faces[design.faces.of(card).id] if design else {}
        for field in translatable_fields(game.fields):
            value = card.value(field)
            if isinstance(value, str) and value:
                yield GameText(value, f"card '{card.name}' ({own.get(field, field)})",
                               in_passage(value, card.places.get(field), card.where),
                               roles.get(field) if card.printed else None, field in markup,
                               prose=field in ("text", "details"), card=card)
    if design:
        yield from _face_words(design.faces)
    on_cards = {tag for card in game.cards if card.printed for tag in card.tags}
    for tag in game.tags:
        role = _tags_font(design.faces) if design and tag.id in on_cards else None
        yield GameText(tag.name, f"tag '{tag.id}' (name)", _in_source(game, game_file(game), tag.name), role)


def _face_words(faces: Faces) -> Iterator[GameText]:
    """A face's own words in its text elements (the "Deal" of "Deal {attack} damage"), in the
    element's font, found at the element's line. Each field is blanked out: the card's value is
    read with the card's texts."""
    for face in faces.by_id.values():
        for element in face.elements:
            text = element.item if element.kind == REPEAT and element.item is not None else element
            words = FIELD_PATTERN.sub(lambda m: " " * len(m[0]), text.text) if text.kind == TEXT else ""
            if words.strip():
                yield GameText(words, f"face {face.id}, {text.named} (its own words)", _at(text.where),
                               text.font, text.markup, cards_only=True)


def _at(where: Where | None) -> Place:
    return lambda start, end: where


def _tags_font(faces: Faces) -> str | None:
    return next((e.font for face in faces.by_id.values() for e in face.elements if e.kind == TAGS), None)


def _game_texts(game: Game) -> Iterator[GameText]:
    file = game_file(game)
    title_font = game.layout.back.title_font if game.layout else None
    yield GameText(game.title, "the game's title", _in_source(game, file, game.title), title_font)
    for back in game.backs:
        if back.title:
            yield GameText(back.title, f"back '{back.id}' (title)",
                           _in_source(game, file, back.title, back.where), title_font)
    named = [("author", game.author), ("version", game.version), ("date", game.date)]
    for what, items in (("color", game.colors), ("kind", game.kinds), ("tag", game.tags)):
        for item in items:
            named += [(f"{what} '{item.id}' (meaning)", item.meaning)]
            if what != "tag":  # a tag's name is one of the card texts
                named += [(f"{what} '{item.id}' (name)", item.name)]
    for attribute in game.attributes:
        named += [(f"attribute '{attribute.id}'", attribute.name)]
        named += [(f"attribute '{attribute.id}'", label) for label in attribute.names.values()]
    for variation in game.variations:
        named += [(f"variation '{variation.name}' (name)", variation.name)]
        if variation.text:
            yield GameText(variation.text, f"variation '{variation.name}'",
                           in_passage(variation.text, variation.place, Where(file)), prose=True, changes_rules=True)
    for number, step in enumerate(game.steps, 1):
        if step.text:
            yield GameText(step.text, f"setup step {number}", _in_source(game, file, step.text, step.where),
                           prose=True, step=step)
    for check in game.checks:
        named += [(f"check '{check.id}' (message)", check.message)]
    named += [("the cheat sheet", text) for text in _strings(game.cheatsheet)]
    named += [("the reference section", text) for text in _strings(game.extra)]
    for label, value in named:
        if value:
            yield GameText(value, label, _in_source(game, file, value))


def _setup_texts(game: Game) -> Iterator[GameText]:
    for setup in game.setups:
        file = setup.where.file if setup.where else game_file(game)
        yield GameText(setup.name, f"setup '{setup.name}' (name)",
                       _in_source(game, file, setup.name, setup.where))
        parts = [("blurb", setup.blurb)] + [(f"extra_rules[{i}]", r) for i, r in enumerate(setup.extra_rules)]
        for key, value in parts:
            if value:
                yield GameText(value, f"setup '{setup.name}' ({key.split('[')[0].replace('_', ' ')})",
                               in_passage(value, setup.places.get(key), setup.where or Where(file)),
                               prose=True, setup=setup)


def _strings(data: object) -> Iterator[str]:
    """Every string in free data (mappings, lists, dataclasses), keys left out."""
    if isinstance(data, str):
        yield data
    elif is_dataclass(data) and not isinstance(data, type):
        for item in fields(data):
            yield from _strings(getattr(data, item.name))
    elif isinstance(data, Mapping):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from _strings(value)


def _source(game: Game, file: str) -> str:
    """The text of one of the game's data files, read as load reads it ("" when load could not)."""
    try:
        return read_input(game.folder.parent / file, MAX_FILE_BYTES, [game.folder]).decode("utf-8")
    except (UnreadableInput, UnicodeDecodeError):
        return ""


def _line_offset(source: str, line: int) -> int:
    offset = 0
    for _ in range(line - 1):
        offset = source.find("\n", offset) + 1
        if offset == 0:
            return 0
    return offset
