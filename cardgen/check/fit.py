"""fit (check stage): every card text, and the title on each back, set at the game's card size by
the same type setter as the card sheets; a text that does not fit its box at the smallest size
the layout allows is an error at its line."""
from __future__ import annotations

import math

from reportlab.platypus import Paragraph

from cardgen.check.texts import place_in_source
from cardgen.inputs.paths import display_path
from cardgen.layout.textfit import BACK_TITLE_MIN, FAMILY, MEASURE_COLOR, SMALLEST, CardText
from cardgen.model.game import ERROR, Card, Finding, Game
from cardgen.model.sizes import MM, card_size_mm

TEXT_TOO_LONG = "text-does-not-fit"


def check_fit(game: Game) -> list[Finding]:
    """An error for each card text (and the game title on the back) that does not fit its box at
    the smallest size the layout allows, at the game's card size."""
    if game.layout is None or not set(FAMILY) <= set(game.layout.fonts):
        return []  # load reported the layout's problem
    width, height = card_size_mm(game.card_size)
    setter = CardText(game, width * MM, height * MM)
    findings, fits = [], {}
    for card in game.cards:
        for field in ("name", "flavor", "text"):
            value = getattr(card, field)
            if not card.printed or not value:
                continue
            if (field, value) not in fits:  # cards often share a text: set each once
                fits[field, value] = setter.surely_fits(field, value) or _set(setter, field, card) is not None
            if not fits[field, value]:
                findings.append(_card_text_too_long(setter, card, field))
    findings.extend(_back_titles_too_long(game, setter))
    return findings


def _back_titles_too_long(game: Game, setter: CardText) -> list[Finding]:
    """An error for the game's title and each back's own title that does not fit on a back."""
    titles = {game.title: place_in_source(game, display_path(game.folder / "game.yaml", game.folder), game.title)(0)}
    for back in game.backs:
        titles.setdefault(game.back_title(back), back.where)
    findings = []
    for title, where in titles.items():
        if setter.back_title(title, MEASURE_COLOR) is None:
            needed = _size_of(setter.back_title(title, MEASURE_COLOR, SMALLEST))
            findings.append(Finding(ERROR, TEXT_TOO_LONG, f"the title '{title}' does not fit on the card back "
                                    f"{_needs(needed, setter.scale.points(BACK_TITLE_MIN))}", where,
                                    "shorten the title, or use a smaller back title "
                                    "(layout.yaml: back: {title_size: …})"))
    return findings


def _set(setter: CardText, field: str, card: Card, min_size: float | None = None) -> Paragraph | None:
    return getattr(setter, field)(card, MEASURE_COLOR, min_size)


def _card_text_too_long(setter: CardText, card: Card, field: str) -> Finding:
    smallest = setter.design.text_box(field).min_size
    needed = _size_of(_set(setter, field, card, SMALLEST))
    place = card.places.get(field)
    allow = f"allow {needed:g} pt (layout.yaml: {field}: {{min_size: {needed:g}}}), " if needed else ""
    return Finding(ERROR, TEXT_TOO_LONG, f"card '{card.name}': the {field} does not fit its box: "
                   f"{_needs(needed, smallest)}", place.where if place else card.where,
                   f"shorten the {field}, {allow}or enlarge the box in layout.yaml")


def _size_of(paragraph: Paragraph | None) -> float | None:
    """The size a text fits at, rounded down to what a layout can say (two decimals)."""
    return math.floor(paragraph.style.fontSize * 100) / 100 if paragraph is not None else None


def _needs(needed: float | None, smallest: float) -> str:
    if needed is None:
        return f"it does not fit even at {SMALLEST:g} pt"
    return f"it needs {needed:g} pt, the smallest allowed is {smallest:g} pt"
