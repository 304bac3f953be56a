"""Fonts as the documents read them: a font file's @font-face names and its characters."""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cardgen.inputs.files import MAX_FONT_BYTES, UnreadableInput, read_input
from cardgen.inputs.paths import ART
from cardgen.inputs.sfnt import font_facts
from cardgen.model.game import Game

FONT_SUFFIXES = (".ttf", ".otf", ".woff", ".woff2")


def document_fonts(game: Game) -> list[Path]:
    """The font files the documents use: the game's fonts/ and art/fonts/."""
    folders = [game.folder / "fonts", ART / "fonts"]
    return sorted(p for folder in folders if folder.is_dir() for p in folder.iterdir()
                  if p.suffix.lower() in FONT_SUFFIXES)


@dataclass(frozen=True)
class DocumentFont:
    """What the documents take from a font file: its @font-face names and its characters."""

    family: str
    weight: int
    italic: bool
    characters: frozenset[str]


def document_font(path: Path) -> DocumentFont:
    """A font file as the documents use it (ValueError if it cannot be read): the check reads
    each file this way, so a font the documents cannot use is found before the build."""
    stat = path.stat()
    return _document_font(path.resolve(), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _document_font(path: Path, mtime: int, size: int) -> DocumentFont:
    try:
        data = read_input(path, MAX_FONT_BYTES)
    except UnreadableInput as exc:
        raise ValueError(str(exc)) from None
    return _parsed(data, path.stem)


def _parsed(data: bytes, stem: str) -> DocumentFont:
    """The font as fontTools reads it: straight from its tables (inputs/sfnt.py) when they are
    plainly well formed, else by fontTools itself (its errors are the check's messages)."""
    facts = font_facts(data, stem)
    return DocumentFont(*facts) if facts is not None else _read_by_fonttools(data, stem)


def _read_by_fonttools(data: bytes, stem: str) -> DocumentFont:
    from fontTools.ttLib import TTFont

    try:
        with TTFont(io.BytesIO(data), lazy=True, fontNumber=0) as font:
            # glyph names are not needed: numbering the glyphs spares fontTools making a name
            # for each from the character map (the most of a parse); the map itself is the same
            font["hhea"]  # with hmtx and maxp, what a text shaper reads before any glyph
            font.setGlyphOrder([f"glyph{number}" for number in range(font["maxp"].numGlyphs)])
            font["hmtx"]
            name = font["name"]
            family = (name.getDebugName(16) or name.getDebugName(1) or stem).replace('"', "")
            os2 = font["OS/2"] if "OS/2" in font else None
            weight = os2.usWeightClass if os2 else 400
            italic = bool(os2.fsSelection & 1) if os2 else "italic" in stem.lower()
            cmap = font.getBestCmap() or {}
    except KeyError as exc:
        raise ValueError(f"the font has no '{exc.args[0]}' table") from None
    except Exception as exc:  # fontTools raises many kinds of errors on broken files
        raise ValueError(f"{exc.__class__.__name__}: {exc}") from None
    return DocumentFont(family, weight, italic, frozenset(map(chr, cmap)))
