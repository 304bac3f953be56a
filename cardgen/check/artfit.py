"""artfit (check stage): each card's art at the size it prints, and the resolution that gives.

The art covers the layout's art box (centred, cropped: layout.cover, as the card renderer places
it) at the game's card size; its pixels across the printed width are its effective ppi. Below
WARN_PPI a printed card looks soft (a warning); below ERROR_PPI it looks pixelated (an error,
unless the card says `low_res: ok`).
"""
from __future__ import annotations

from cardgen.inputs import images
from cardgen.inputs.paths import game_roots
from cardgen.layout.sheet import Rect, cover
from cardgen.layout.textfit import Scale
from cardgen.model.game import ERROR, WARNING, Card, Finding, Game
from cardgen.model.sizes import MM
from cardgen.model.where import Where

WARN_PPI = 300
ERROR_PPI = 150


def art_box(game: Game, card_w: float, card_h: float) -> Rect:
    """The art box of a card of card_w x card_h points."""
    return Scale.of(game.design, card_w, card_h).box(game.design.art)


def effective_ppi(size: tuple[int, int], box: Rect) -> float:
    """Pixels per inch of an image of `size` pixels covering the box (in points)."""
    placed = cover(box, *size)
    return size[0] / (placed.w / 72)


def check_art(game: Game) -> list[Finding]:
    """A finding for each printed card whose art prints below WARN_PPI at its deck's card size."""
    if game.layout is None:
        return []  # load reported the layout's problem
    boxes = {deck.id: art_box(game, deck.size_mm[0] * MM, deck.size_mm[1] * MM) for deck in game.every_deck}
    findings, seen, roots = [], set(), game_roots(game.folder)
    for card in game.cards:
        if not card.printed or card.art_file is None:
            continue
        box = boxes[game.deck_of(card).id]
        try:
            size = images.pixel_size(card.art_file, roots)
        except images.BadImage:  # changed since load checked it: the renderer reports it
            continue
        ppi = effective_ppi(size, box)
        where = card.places["art"].where if "art" in card.places else card.where
        if ppi < WARN_PPI and where not in seen:  # a series shares its art line: said once
            seen.add(where)
            findings.append(_low_resolution(card, size, ppi, where))
    return findings


def _low_resolution(card: Card, size: tuple[int, int], ppi: float, where: Where | None) -> Finding:
    fails = ppi < ERROR_PPI and not card.low_res
    needed = f"{WARN_PPI} ppi needs {_pixels(size, ppi, WARN_PPI)}"
    return Finding(ERROR if fails else WARNING, "art-low-resolution",
                   f"card '{card.name}': its art prints at {int(ppi)} ppi ({needed})", where,
                   f"use a larger image{', or add low_res: ok to the card to print it anyway' if fails else ''}")


def _pixels(size: tuple[int, int], ppi: float, wanted: int) -> str:
    width, height = size
    return f"{round(width * wanted / ppi)}x{round(height * wanted / ppi)} px, it has {width}x{height}"
