"""faces (check stage): what a game's faces name, against its cards. A field a face reads (in a
`when:`, `for:`, a text pattern, an image, a symbol or a count) that is no field at all is an error
with did-you-mean (a typo); a field no card has a value for is a warning (the element never
shows); a word compared with a list or choice field (`kind == creatrue`) that none of the cards
has is an error; a card's own `face:` that no face has is an error; a symbol or an image a card's
face would draw that is not there is an error naming the card. Each at its line."""
from __future__ import annotations

from collections.abc import Iterator

from cardgen.inputs import images, symbols
from cardgen.inputs.paths import game_roots
from cardgen.load.reader import did_you_mean
from cardgen.model.conditions import Condition
from cardgen.model.faces import (
    ART,
    BACK_FACE,
    BACK_FIELDS,
    CARD_SYMBOL,
    DEFAULT_FACE,
    IMAGE,
    REPEAT,
    SYMBOL,
    Element,
    Face,
    fill_in,
)
from cardgen.model.fields import BUILTIN_FIELDS
from cardgen.model.game import ERROR, WARNING, Card, Finding, Game
from cardgen.model.where import Where

LIST_FIELDS = ("kind", "tags", "color")


def check_faces(game: Game) -> list[Finding]:
    if game.layout is None:
        return []
    faces = game.design.faces
    shipped = (DEFAULT_FACE, BACK_FACE)
    findings = [f for face in faces.by_id.values() if face.id not in shipped for f in _face_fields(game, face)]
    findings += _card_faces(game)
    findings += _back_faces(game)
    findings += _drawn_files(game)
    return findings


def printed_faces(game: Game, card: Card) -> list[Face]:
    """The faces a card prints with its own values: its face, and the face its back names (a
    double-faced card; the shipped back is the back's, checked once per back)."""
    back = game.back_of(card)
    faces = game.design.faces
    face_id = back.face if back is not None else None
    own_back = [faces.by_id[face_id]] if face_id is not None and face_id in faces.by_id else []
    return [faces.of(card), *own_back]


def _known_fields(game: Game) -> set[str]:
    return {*BUILTIN_FIELDS, *(f.id for f in game.fields), *BACK_FIELDS}


def _elements(face: Face) -> Iterator[Element]:
    for element in face.elements:
        yield element
        if element.kind == REPEAT and element.item is not None:
            yield element.item


def _face_fields(game: Game, face: Face) -> list[Finding]:
    known, findings = _known_fields(game), []
    conditions: list[tuple[Condition, Where | None]] = [(face.cards, face.where)] if face.cards else []
    for element in _elements(face):
        if element.when is not None:
            conditions.append((element.when, element.where))
        for name in element.pattern_fields():
            findings += _field(game, known, name, f"face {face.id}, {element.named}", element.where)
    for condition, where in conditions:
        for read in condition.fields():
            findings += _field(game, known, read.id, f"face {face.id}: '{condition.text}'", where)
        for field, word in condition.words():
            findings += _word(game, field, word, f"face {face.id}: '{condition.text}'", where)
    return findings


def _field(game: Game, known: set[str], name: str, what: str, where: Where | None) -> list[Finding]:
    if name not in known:
        return [Finding(ERROR, "unknown-field", f"{what}: no field '{name}'", where,
                        did_you_mean(name, sorted(known)) or "fields are: " + ", ".join(sorted(known)))]
    if name not in BACK_FIELDS and not any(card.value(name) not in (None, "", ()) for card in game.cards):
        return [Finding(WARNING, "field-never-set", f"{what}: no card has a value for '{name}'", where,
                        "give some card a value for it, or leave it out of the face")]
    return []


def _word(game: Game, field: str, word: str, what: str, where: Where | None) -> list[Finding]:
    """A bare word compared with a field must be a value some card has (a kind, tag, color or
    choice): else it is a typo that would hide the element on every card."""
    values: set[str] = set()
    for card in game.cards:
        value = card.value(field)
        values.update(value if isinstance(value, tuple) else () if value is None else (str(value),))
    if field in LIST_FIELDS or any(f.id == field and f.choices for f in game.fields):
        if word not in values:
            return [Finding(ERROR, "unknown-value", f"{what}: no card has {field} '{word}'", where,
                            did_you_mean(word, sorted(values)) or f"its values are: {', '.join(sorted(values))}")]
    return []


def _card_faces(game: Game) -> list[Finding]:
    faces = game.design.faces.by_id
    findings = []
    for card in game.cards:
        if card.face is not None and card.face not in faces:
            place = card.places.get("face")
            findings.append(Finding(ERROR, "unknown-face", f"card '{card.name}': no face '{card.face}'",
                                    place.where if place else card.where,
                                    did_you_mean(card.face, list(faces)) or f"faces are: {', '.join(faces)}"))
    return findings


def _back_faces(game: Game) -> list[Finding]:
    faces = game.design.faces.by_id
    return [Finding(ERROR, "unknown-face", f"back '{back.id}': no face '{back.face}'", back.where,
                    did_you_mean(back.face, list(faces)) or f"faces are: {', '.join(faces)}")
            for back in game.backs if back.face is not None and back.face not in faces]


def _drawn_files(game: Game) -> list[Finding]:
    """Each symbol and image a printed card's face draws, there and readable (once each)."""
    findings, seen = [], set()
    looked: dict[tuple[str, str], str | None] = {}  # each file looked for once: cards share their symbols
    for card in game.cards:
        if not card.printed:
            continue
        for face in printed_faces(game, card):
            for element in _elements(face):
                if element.when is not None and not element.when.holds(card.value):
                    continue
                problem = _missing(game, card, element, looked)
                if problem and (element.where, problem) not in seen:
                    seen.add((element.where, problem))
                    findings.append(Finding(ERROR, "face-file-missing", f"card '{card.name}', face {face.id}, "
                                            f"{element.named}: {problem}", element.where,
                                            "add the file, or change the face or the card's value"))
    return findings


def _missing(game: Game, card: Card, element: Element, looked: dict[tuple[str, str], str | None]) -> str | None:
    if element.kind == SYMBOL and element.symbol != CARD_SYMBOL:
        name = fill_in(element.symbol, card.value)
        if (SYMBOL, name) not in looked:
            looked[SYMBOL, name] = None if symbols.symbol_path(game, name) else \
                f"no symbol '{name}' in symbols/ or art/symbols/"
        return looked[SYMBOL, name]
    if element.kind == IMAGE and element.image != ART:
        relative = fill_in(element.image, card.value)
        if (IMAGE, relative) not in looked:
            looked[IMAGE, relative] = _bad_image(game, relative)
        return looked[IMAGE, relative]
    return None


def _bad_image(game: Game, relative: str) -> str | None:
    wrong = images.wrong_extension(relative, drawings=False)
    if wrong:
        return f"image '{relative}' {wrong}"
    try:
        images.checked(game.folder / relative, game_roots(game.folder))
    except images.BadImage as exc:
        return f"image '{relative}' {exc}"
    return None
