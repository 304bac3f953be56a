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
from pathlib import Path

from PIL import Image

from cardgen.errors import BuildError
from cardgen.layout.exports import (
    Entry,
    TtsGrid,
    back_id,
    back_name,
    card_pixels,
    deck_of,
    entries,
    folder_name,
    tts_sheets,
    with_distinct_backs,
)
from cardgen.model.game import Game
from cardgen.model.targets import CardPixels, Target
from cardgen.model.texts import spreadsheet_cell
from cardgen.render import card_images
from cardgen.render.write import atomic_write

TTS_FIRST_ID = 100  # TTS card ids are deck number * 100 + slot
JPEG_QUALITY = 92


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
