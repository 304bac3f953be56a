"""render/exports: cards for print services and Tabletop Simulator, drawn by the same card painter
as the sheets (never cut out of a sheet).

- png: one image per card type at the target's exact pixel size with its bleed, dpi-tagged,
  one image per back the cards use, the copies in the name and in index.csv, which pairs each
  front with its own back;
- 1up-pdf: one page per card copy (trim + bleed, TrimBox and BleedBox set), front then its back;
- tts: Tabletop Simulator deck sheets of at most columns x rows slots, the last slot the hidden
  card's image, within max_pixels, an image of each back, and a saved object that imports them.
  Cards with different backs go on different sheets: each sheet is a custom deck whose BackURL
  is its cards' back, and the one deck object holds them all (Tabletop Simulator shows each
  card with its own custom deck's back), so no back sheet (UniqueBack) is needed.

A target's card images may be rendered in parts (`part` of `parts`), one per worker process.
"""
from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from cardgen.errors import BuildError
from cardgen.model.decks import Deck
from cardgen.model.game import Card, Game
from cardgen.model.sizes import SAFE_ZONE_MM
from cardgen.model.targets import CardPixels, Target
from cardgen.model.texts import spreadsheet_cell
from cardgen.render import card_images
from cardgen.render.write import atomic_write

TTS_FIRST_ID = 100  # TTS card ids are deck number * 100 + slot
JPEG_QUALITY = 92
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


def export(game: Game, target: Target, deck: str, counts: dict[str, int], out_dir: Path,
           published: Path | None = None, part: int = 0, parts: int = 1) -> None:
    """Write this part of the target's files into out_dir/export-<target>-<deck>/; `published`
    is the folder they will end up in (default: out_dir), for files that name each other."""
    chosen = entries(game, counts)
    if not chosen:
        raise BuildError(f"{deck}: no printed cards to export")
    folder = Path(out_dir) / folder_name(target, deck)
    folder.mkdir(parents=True, exist_ok=True)
    pixels = card_pixels(target, deck_of(game, chosen))
    if target.format == "png":
        backs = with_distinct_backs(game, chosen) if part == 0 else []  # one part draws the backs
        _export_pngs(game, target, pixels, chosen[part::parts], backs, folder)
        if part == 0:
            _write_index(game, chosen, folder)
    elif target.format == "1up-pdf":
        if part == 0:
            atomic_write(folder / f"{game.id}-{deck}.pdf", one_up_pdf(game, target, pixels, chosen))
    else:
        _export_tts(game, target, chosen, folder, Path(published or out_dir) / folder.name, deck, part, parts)


def parts_of(game: Game, target: Target, counts: dict[str, int]) -> int:
    """How many parts the target's work splits into: the build's workers share them, and each
    stays well under a worker's ceilings however large the deck."""
    if target.format == "1up-pdf":
        return 1
    if target.format == "tts":
        return max(1, len(tts_sheets(game, target, entries(game, counts))[1]))
    return max(1, math.ceil(len(entries(game, counts)) / CARDS_PER_PART))


# --------------------------------------------------------------------------- per-card images


def _export_pngs(game: Game, target: Target, pixels: CardPixels, chosen: list[Entry], backs: list[Entry],
                 folder: Path) -> None:
    """The fronts of `chosen`, and the backs of `backs` (one part draws them)."""
    if not chosen and not backs:
        return
    sheet = card_images.one_card_sheet(pixels, target.dpi)
    sides = [(e.card, "front") for e in chosen] + [(e.card, "back") for e in backs]
    images = card_images.rasterise(card_images.card_pdf(game, sheet, sides), pixels.full, target.dpi)
    names = [f"{e.stem}-front.png" for e in chosen] + [back_name(game, e.card, "png") for e in backs]
    for name, image in zip(names, images):
        atomic_write(folder / name, card_images.png(image, target.dpi))


def _write_index(game: Game, chosen: list[Entry], folder: Path) -> None:
    """index.csv: each front, the back it goes with, its copies and the card's name."""
    data = io.StringIO()
    writer = csv.writer(data, lineterminator="\n")
    writer.writerow(["front", "back", "copies", "name"])
    for entry in chosen:
        writer.writerow([spreadsheet_cell(cell) for cell in (
            f"{entry.stem}-front.png", back_name(game, entry.card, "png"), str(entry.copies), entry.card.name)])
    atomic_write(folder / "index.csv", data.getvalue().encode("utf-8"))


# --------------------------------------------------------------------------- one card a page


def one_up_pdf(game: Game, target: Target, pixels: CardPixels, chosen: list[Entry]) -> bytes:
    """Each copy of each card: its front page, then its own back's page."""
    sheet = card_images.one_card_sheet(pixels, target.dpi)
    sides = [(e.card, side) for e in chosen for _ in range(e.copies) for side in ("front", "back")]
    return card_images.card_pdf(game, sheet, sides, boxes=True, cmyk=target.color == "cmyk")


# --------------------------------------------------------------------------- Tabletop Simulator


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


def _export_tts(game: Game, target: Target, chosen: list[Entry], folder: Path, final: Path,
                deck: str, part: int, parts: int) -> None:
    grid, sheets = tts_sheets(game, target, chosen)
    card_sheet = card_images.one_card_sheet(CardPixels(grid.card, 0, 0), 72)  # trimmed, one point a pixel
    for number in range(part, len(sheets), parts):
        entries_here = sheets[number]
        sides = [(e.card, "front") for e in entries_here] + [(entries_here[0].card, "back")]
        images = card_images.rasterise(card_images.card_pdf(game, card_sheet, sides), grid.card, 72)
        atlas = Image.new("RGB", (grid.columns * grid.card[0], grid.rows * grid.card[1]), "white")
        for slot, image in enumerate(images[:-1]):
            atlas.paste(image, _slot_origin(grid, slot))
        atlas.paste(images[-1], _slot_origin(grid, grid.columns * grid.rows - 1))
        atomic_write(folder / _tts_sheet_name(number), _jpeg(atlas))
        if number == 0 or back_id(game, sheets[number - 1][0].card) != back_id(game, entries_here[0].card):
            # the first sheet of its back: the back's image too
            atomic_write(folder / back_name(game, entries_here[0].card, "jpg"), _jpeg(images[-1]))
    if part == 0:
        saved = tts_saved_object(game, deck, grid, sheets, final)
        atomic_write(folder / f"{game.id}-{deck}.json", (json.dumps(saved, indent=2) + "\n").encode("utf-8"))


def _slot_origin(grid: TtsGrid, slot: int) -> tuple[int, int]:
    row, column = divmod(slot, grid.columns)
    return column * grid.card[0], row * grid.card[1]


def _tts_sheet_name(number: int) -> str:
    return f"sheet-{number + 1:02d}.jpg"


def _jpeg(image: Image.Image) -> bytes:
    data = io.BytesIO()
    image.save(data, "JPEG", quality=JPEG_QUALITY, optimize=False)
    return data.getvalue()


def tts_saved_object(game: Game, deck: str, grid: TtsGrid, sheets: list[list[Entry]], folder: Path) -> dict:
    """A saved object Tabletop Simulator loads (Objects > Saved Objects): one deck whose custom
    decks are the sheets, each with its cards' back, holding every copy of every card, the
    images named by file:// URLs."""
    custom, contained, ids = {}, [], []
    for number, entries_here in enumerate(sheets, start=1):
        custom[str(number)] = {
            "FaceURL": (folder.resolve() / _tts_sheet_name(number - 1)).as_uri(),
            "BackURL": (folder.resolve() / back_name(game, entries_here[0].card, "jpg")).as_uri(),
            "NumWidth": grid.columns,
            "NumHeight": grid.rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
        for slot, entry in enumerate(entries_here):
            card_id = number * TTS_FIRST_ID + slot
            for _ in range(entry.copies):
                ids.append(card_id)
                contained.append({"Name": "Card", "Nickname": entry.card.name, "CardID": card_id,
                                  "CustomDeck": {str(number): custom[str(number)]}, "Transform": _TRANSFORM})
    return {
        "SaveName": f"{game.title}: {deck}",
        "ObjectStates": [{
            "Name": "DeckCustom",
            "Nickname": f"{game.title}: {deck}",
            "Transform": _TRANSFORM,
            "DeckIDs": ids,
            "CustomDeck": custom,
            "ContainedObjects": contained,
        }],
    }


_TRANSFORM = {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180,
              "scaleX": 1, "scaleY": 1, "scaleZ": 1}
