"""render/documents/diagram: the rulebook's "structure of a card" diagram: the example card (the
one that shows the most parts), drawn as the sheets print it, the parts this game's cards use and
where each part's numbered callout sits on the card."""
from __future__ import annotations

from cardgen.errors import BuildError
from cardgen.model.game import Card, Game
from cardgen.model.sizes import card_size_mm
from cardgen.render import card_images

DIAGRAM_WIDTH_MM, DIAGRAM_DPI = 56, 300


def example_card_png(game: Game) -> bytes:
    """The example card as the sheets print it (trimmed), at the diagram's width."""
    card = example_card(game)
    if card is None:
        raise BuildError(f"{game.title}: the card diagram needs a card to show, and the game has none")
    width_mm, height_mm = card_size_mm(game.card_size)
    width = round(DIAGRAM_WIDTH_MM / 25.4 * DIAGRAM_DPI)
    return card_images.card_png(game, card, (width, round(width * height_mm / width_mm)), DIAGRAM_DPI)


def diagram_callouts(game: Game, parts: dict[str, int], shown: set[str]) -> list[tuple[int, float, float]]:
    """The number of each part the example card shows (`shown`) and where its callout sits on the
    card, in % of its width and height: at a corner of the region the card layout gives that part,
    off the letters of a text."""
    design = game.design
    width, height = design.design.width, design.design.height
    name, symbol, star, number = design.name, design.symbol, design.star, design.number
    flavor, art, tags, text = design.flavor, design.art, design.tags, design.text
    spots = {
        "name": (name.x, name.y),
        "symbol": (symbol.x - symbol.radius, symbol.y - symbol.radius),
        "star": (star.x - star.size, star.y),
        "number": (number.x + number.radius, number.y - number.radius),
        "flavor": (flavor.x, flavor.y),
        "art": (art.x + art.width / 2, art.y + art.height / 3),
        "tags": (width / 2 - 12, tags.y - tags.height / 2),
        "text": (text.x, text.y),
    }
    return [(number, round(100 * spots[part][0] / width, 2), round(100 * spots[part][1] / height, 2))
            for part, number in parts.items() if part in shown]


CARD_PARTS = ("name", "symbol", "star", "number", "flavor", "art", "tags", "text")  # the diagram's order
EVERY_CARD_PARTS = {"name", "symbol", "art"}  # every card has these (art: a placeholder without)


def parts_of(card: Card) -> set[str]:
    """The parts of the card face this card shows."""
    optional = {"star": card.star, "number": card.number is not None, "flavor": bool(card.flavor),
                "tags": bool(card.tags), "text": bool(card.text)}
    return EVERY_CARD_PARTS | {part for part, shown in optional.items() if shown}


def card_parts(game: Game) -> dict[str, int]:
    """The parts of a card this game's cards use, numbered in the diagram's order."""
    used = EVERY_CARD_PARTS.union(*(parts_of(card) for card in game.cards))
    return {part: i for i, part in enumerate((p for p in CARD_PARTS if p in used), start=1)}


def numbers_in_brackets(game: Game) -> bool:
    """Whether the effect texts quote their card's number in brackets, as in 'Draw (2) cards'."""
    return any(c.number is not None and f"({c.number})" in c.text for c in game.cards)


def example_card(game: Game) -> Card | None:
    """The card that shows the most regions in the 'structure of a card' diagram."""
    return max(game.cards, key=lambda card: len(parts_of(card)), default=None)

