"""fit (check stage): every text element of every card's face, and the title on each back, set at
the card size of the card's deck by the same type setter as the card sheets; a text that does not fit its box
at the smallest size the face allows is an error naming the card and the element, at the card's
value's line (a field of its own) or at the element's line in the game's face."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from cardgen.check.faces import printed_faces
from cardgen.check.texts import place_in_source
from cardgen.inputs.paths import display_path
from cardgen.layout.textfit import FAMILY, MEASURE_COLOR, SMALLEST, CardText
from cardgen.model.decks import Deck
from cardgen.model.faces import DEFAULT_FACE, REPEAT, TEXT, Element, Face, fill_in, single_field
from cardgen.model.game import ERROR, Card, Finding, Game
from cardgen.model.sizes import MM

if TYPE_CHECKING:  # set only for a text that does not fit (layout.textfit imports it then)
    from reportlab.platypus import Paragraph

TEXT_TOO_LONG = "text-does-not-fit"


def check_fit(game: Game) -> list[Finding]:
    """An error for each text element of each card's face (and the game title on the back) that
    does not fit its box at the smallest size the face allows, at the card size of its deck."""
    if game.layout is None or not set(FAMILY) <= set(game.layout.fonts):
        return []  # load reported the layout's problem
    setters = {deck.id: CardText(game, deck.size_mm[0] * MM, deck.size_mm[1] * MM, measure_only=True)
               for deck in game.every_deck}
    findings, fits = [], {}
    for card in game.cards:
        if not card.printed:
            continue
        deck = game.deck_of(card)
        setter = setters[deck.id]
        for face in printed_faces(game, card):
            for element in texts_of(face, card):
                value = setter.value(element, card)
                if not value:
                    continue
                if (deck.id, id(element), value) not in fits:  # cards often share a text: set each once
                    fits[deck.id, id(element), value] = _fits(setter, element, value)
                if not fits[deck.id, id(element), value]:
                    findings.append(_card_text_too_long(setter, card, face, element, value, _on(game, deck)))
    for setter in setters.values():
        findings.extend(f for f in _back_titles_too_long(game, setter) if f not in findings)
    return findings


def _on(game: Game, deck: Deck) -> str:
    """Where a text is set, for a game of several decks: on its deck's card size."""
    return f" on a {deck.size_mm[0]:g}x{deck.size_mm[1]:g} mm card ({deck.name})" if len(game.decks) > 1 else ""


def texts_of(face: Face, card: Card) -> list[Element]:
    """The text elements a card's face shows (a repeat's own text among them)."""
    shown = [e for e in face.elements if e.when is None or e.when.holds(card.value)]
    return [e.item if e.kind == REPEAT and e.item is not None else e for e in shown
            if e.kind == TEXT or e.kind == REPEAT and e.item is not None and e.item.kind == TEXT]


def _fits(setter: CardText, element: Element, value: str) -> bool:
    if element.line:
        return setter.line_size(element, value) is not None
    return setter.surely_fits(element, value) or setter.paragraph(element, value, MEASURE_COLOR) is not None


def _back_titles_too_long(game: Game, setter: CardText) -> list[Finding]:
    """An error for the game's title and each back's own title that does not fit the text of its
    back face that shows it."""
    game_title = place_in_source(game, display_path(game.folder / "game.yaml", game.folder), game.title)(0)
    backs = [(game.title, game_title, game.design.faces.back(None))]
    backs += [(game.back_title(back), back.where, game.design.faces.back(back.face)) for back in game.backs]
    findings, seen = [], set()
    for title, where, face in backs:
        for element in (e for e in face.elements if e.kind == TEXT and "{title}" in e.text):
            value = fill_in(element.text, {"title": title}.get)
            if (id(element), value) in seen or _fits(setter, element, value):
                continue
            seen.add((id(element), value))
            needed = _size_of(setter.paragraph(element, value, MEASURE_COLOR, SMALLEST))
            findings.append(Finding(ERROR, TEXT_TOO_LONG, f"the title '{title}' does not fit on the card back "
                                    f"{_needs(needed, element.min_size)}", where,
                                    "shorten the title, or use a smaller back title "
                                    "(layout.yaml: back: {title_size: …})"))
    return findings


def _card_text_too_long(setter: CardText, card: Card, face: Face, element: Element, value: str, on: str) -> Finding:
    if element.line:
        size = setter.line_size(element, value, SMALLEST)
        needed = math.floor(size * 100) / 100 if size is not None else None
    else:
        needed = _size_of(setter.paragraph(element, value, MEASURE_COLOR, SMALLEST))
    which = f"the {element.named}" if face.id == DEFAULT_FACE else \
        f"the {element.named} of face '{face.id}' ({element.where})"
    message = f"card '{card.name}': {which} does not fit its box{on}: {_needs(needed, element.min_size)}"
    field = single_field(element.text)
    place = card.places.get(field) if field else None  # a card's own value: the finding is at its line
    if face.id != DEFAULT_FACE:
        allow = f"allow {needed:g} pt (min_size: {needed:g}), " if needed else ""
        return Finding(ERROR, TEXT_TOO_LONG, message, place.where if place else element.where,
                       f"shorten card '{card.name}''s text, {allow}or enlarge the element's box")
    allow = f"allow {needed:g} pt (layout.yaml: {element.id}: {{min_size: {needed:g}}}), " if needed else ""
    return Finding(ERROR, TEXT_TOO_LONG, message, place.where if place else card.where,
                   f"shorten the {element.named}, {allow}or enlarge the box in layout.yaml")


def _size_of(paragraph: Paragraph | None) -> float | None:
    """The size a text fits at, rounded down to what a layout can say (two decimals)."""
    return math.floor(paragraph.style.fontSize * 100) / 100 if paragraph is not None else None


def _needs(needed: float | None, smallest: float) -> str:
    if needed is None:
        return f"it does not fit even at {SMALLEST:g} pt"
    return f"it needs {needed:g} pt, the smallest allowed is {smallest:g} pt"
