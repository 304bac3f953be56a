"""render/documents/diagram: the rulebook's "structure of a card" diagram, drawn from the face in
use: the example card (the one whose face shows the most labelled elements), drawn as the sheets
print it, and a numbered callout for each element of its face with a `label:` that some card of
that face shows, in the face's order, sitting where the element places it on the card. The
shipped face's labels are the diagram's own parts (SHIPPED_PARTS), which the template words in
the output's language; any other label is the face's own words."""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.errors import BuildError
from cardgen.model.faces import Element, Face, shows
from cardgen.model.game import Card, Game
from cardgen.render import card_images

DIAGRAM_WIDTH_MM, DIAGRAM_DPI = 56, 300
SHIPPED_PARTS = ("name", "symbol", "star", "number", "flavor", "art", "tags", "text")


@dataclass(frozen=True)
class Callout:
    number: int
    label: str  # one of SHIPPED_PARTS (cardgen words it) or the face's own words
    shown: bool  # on the example card (else the legend says it is not on this one)
    left: float  # where it sits, in % of the card's width and height
    top: float


def example_card_png(game: Game) -> bytes:
    """The example card as the sheets print it (trimmed), at the diagram's width."""
    card = example_card(game)
    if card is None:
        raise BuildError(f"{game.title}: the card diagram needs a card to show, and the game has none")
    width_mm, height_mm = game.deck_of(card).size_mm
    width = round(DIAGRAM_WIDTH_MM / 25.4 * DIAGRAM_DPI)
    return card_images.card_png(game, card, (width, round(width * height_mm / width_mm)), DIAGRAM_DPI)


def labelled_elements(face: Face) -> list[Element]:
    return [element for element in face.elements if element.label]


def shown_on(card: Card, face: Face) -> list[Element]:
    """The labelled elements of the face this card shows."""
    return [element for element in labelled_elements(face) if shows(element, card.value)]


def callouts(game: Game) -> list[Callout]:
    """The example card's face's labelled elements that a card of that face shows, numbered, each
    with where its callout sits and whether the example card shows it."""
    card = example_card(game)
    if card is None:
        return []
    faces = game.design.faces
    face = faces.of(card)
    alike = [other for other in game.cards if faces.of(other).id == face.id]
    on_example = {id(element) for element in shown_on(card, face)}
    used = [element for element in labelled_elements(face) if any(shows(element, other.value) for other in alike)]
    width, height = game.design.design.width, game.design.design.height
    return [Callout(number, element.label, id(element) in on_example,
                    round(100 * (element.x + element.callout_x * element.width) / width, 2),
                    round(100 * (element.y + element.callout_y * element.height) / height, 2))
            for number, element in enumerate(used, start=1)]


def numbers_in_brackets(game: Game) -> bool:
    """Whether the effect texts quote their card's number in brackets, as in 'Draw (2) cards'."""
    return any(c.number is not None and f"({c.number})" in c.text for c in game.cards)


def example_card(game: Game) -> Card | None:
    """The card that shows the most labelled elements of its face in the diagram."""
    faces = game.design.faces
    return max(game.cards, key=lambda card: len(shown_on(card, faces.of(card))), default=None)
