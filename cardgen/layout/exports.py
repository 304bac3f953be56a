"""layout/exports: what an export of a deck for a print service or Tabletop Simulator holds,
before anything is drawn: the card types and their copies, the backs they use, each card's pixels
at the target's size, the Tabletop Simulator sheets' grid and the cards on each sheet, and how
many parts the work splits into (render/exports draws them; the export kind plans by them)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from cardgen.errors import BuildError
from cardgen.model.decks import Deck
from cardgen.model.game import Card, Game
from cardgen.model.sizes import SAFE_ZONE_MM
from cardgen.model.targets import CardPixels, Target

CARDS_PER_PART = 48  # card images one worker renders at a time


@dataclass(frozen=True)
class Entry:
    """A card type to export and how many copies of it the deck has."""

    card: Card
    copies: int
    number: int  # 1-based, in the game's card order

    @property
    def stem(self) -> str:
        return f"{self.number:03d}-{self.card.id}-x{self.copies}"


def entries(game: Game, counts: dict[str, int]) -> list[Entry]:
    """The printed cards with their copies (card id -> count), in the game's order."""
    printed = [c for c in game.cards if c.printed and counts.get(c.id)]
    return [Entry(card, counts[card.id], i) for i, card in enumerate(printed, start=1)]


def back_name(game: Game, card: Card, extension: str) -> str:
    """The file of the card's back: back.<ext> for the game's back, back-<id>.<ext> for another."""
    ident = back_id(game, card)
    return f"back-{ident}.{extension}" if ident else f"back.{extension}"


def back_id(game: Game, card: Card) -> str:
    """The id of the card's back; "" for the game's."""
    back = game.back_of(card)
    return back.id if back else ""


def with_distinct_backs(game: Game, chosen: list[Entry]) -> list[Entry]:
    """The first entry of each back the entries use, in their order."""
    return list({back_id(game, e.card): e for e in reversed(chosen)}.values())[::-1]


def folder_name(target: Target, deck: str) -> str:
    return f"export-{target.id}-{deck}"


def card_pixels(target: Target, deck: Deck) -> CardPixels:
    """The trim, bleed and safe zone of the deck's cards in pixels at the target's dpi: the
    vendor's product of the deck's size (turned for a landscape deck)."""
    if not target.sizes:
        width, height = deck.size_mm
        px = target.dpi / 25.4
        return CardPixels((width * px, height * px), target.bleed_mm * px, SAFE_ZONE_MM * px)
    size = deck.preset
    if size is None or size not in target.sizes:
        problem = target.missing_product(deck.card_size) or f"{target.name} has no product for this card size"
        raise BuildError(problem, hint=target.product_hint())
    pixels = target.sizes[size]
    return CardPixels(pixels.trim[::-1], pixels.bleed, pixels.safe) if deck.landscape else pixels


def deck_of(game: Game, chosen: list[Entry]) -> Deck:
    """The deck the entries are of (an export holds one deck's cards)."""
    return game.deck_of(chosen[0].card) if chosen else game.deck(None)


def parts_of(game: Game, target: Target, counts: dict[str, int]) -> int:
    """How many parts the target's work splits into: the build's workers share them, and each
    stays well under a worker's ceilings however large the deck."""
    if target.format == "1up-pdf":
        return 1
    if target.format == "tts":
        return max(1, len(tts_sheets(game, target, entries(game, counts))[1]))
    return max(1, math.ceil(len(entries(game, counts)) / CARDS_PER_PART))


@dataclass(frozen=True)
class TtsGrid:
    columns: int
    rows: int
    card: tuple[int, int]  # pixels of one slot

    @property
    def slots(self) -> int:
        return self.columns * self.rows - 1  # the last slot holds the hidden card's image


def tts_sheets(game: Game, target: Target, chosen: list[Entry]) -> tuple[TtsGrid, list[list[Entry]]]:
    """The grid of a sheet and the card types on each sheet: the cards of each back on sheets of
    their own, in the order the backs first appear."""
    spec = target.sheet
    per_sheet = spec.columns * spec.rows - 1
    columns = min(spec.columns, max(2, len(chosen) + 1))
    rows = min(spec.rows, max(2, math.ceil((len(chosen) + 1) / columns)))
    if len(chosen) > per_sheet:
        columns, rows = spec.columns, spec.rows
    width, height = deck_of(game, chosen).size_mm
    slot_w = min(spec.max_pixels // columns, math.floor(spec.max_pixels / rows * width / height))
    slot_h = math.floor(slot_w * height / width)
    grid = TtsGrid(columns, rows, (slot_w, slot_h))
    by_back: dict[str, list[Entry]] = {}
    for entry in chosen:
        by_back.setdefault(back_id(game, entry.card), []).append(entry)
    return grid, [group[i:i + grid.slots] for group in by_back.values() for i in range(0, len(group), grid.slots)]
