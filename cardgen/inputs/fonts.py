"""Fonts as the documents read them: a font file's @font-face names and its characters.

Reading a font's tables takes fontTools most of a `cardgen check` (its import and the parse of
every font, each time): what the documents take from a font file is kept in the user's cache
(`$XDG_CACHE_HOME/cardgen/fonts/`), a small JSON file named by the SHA-256 of the font's bytes
and fontTools' version. A cache file is read like any input (a regular file, bounded, checked
field by field); one that is not right is read as no cache, and the font is parsed again. A
font that cannot be read is never cached: each check names it."""
from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from cardgen.inputs.files import MAX_FONT_BYTES, UnreadableInput, read_input
from cardgen.inputs.paths import ART
from cardgen.model.game import Game

FONT_SUFFIXES = (".ttf", ".otf", ".woff", ".woff2")
CACHE_FORMAT = 1
MAX_CACHE_BYTES = 4 * 1024 * 1024  # a font's facts: its characters as ranges (all of Unicode is well under this)


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
    cached = cache_file(hashlib.sha256(data).hexdigest())
    font = _cached(cached, path.stem) if cached else None
    if font is None:
        font = _parsed(data, path.stem)
        if cached:
            _keep(cached, font)
    return font


def _parsed(data: bytes, stem: str) -> DocumentFont:
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


# --------------------------------------------------------------------------- the cache


def cache_file(digest: str) -> Path | None:
    """Where the facts of the font with this SHA-256 are kept (None: no cache folder)."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(root):
        return None
    return Path(root) / "cardgen" / "fonts" / f"{digest}-{CACHE_FORMAT}-{_fonttools_version()}.json"


@lru_cache(maxsize=1)
def _fonttools_version() -> str:
    try:
        return "".join(c for c in metadata.version("fonttools") if c.isalnum() or c == ".")[:20]
    except metadata.PackageNotFoundError:
        return "none"


def _cached(file: Path, stem: str) -> DocumentFont | None:
    """The font's facts from its cache file, or None if there is none or it is not right."""
    try:
        record = json.loads(read_input(file, MAX_CACHE_BYTES, [file.parent]))
    except (UnreadableInput, ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or set(record) != {"family", "weight", "italic", "characters"}:
        return None
    family, weight, italic, ranges = record["family"], record["weight"], record["italic"], record["characters"]
    if not (isinstance(family, str) and len(family) <= 1000 and type(weight) is int and type(italic) is bool
            and isinstance(ranges, list)):
        return None
    characters: set[str] = set()
    for pair in ranges:
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(n) is int for n in pair)
                and 0 <= pair[0] <= pair[1] <= 0x10FFFF):
            return None
        characters.update(map(chr, range(pair[0], pair[1] + 1)))
    return DocumentFont(family, weight, italic, frozenset(characters))


def _keep(file: Path, font: DocumentFont) -> None:
    """Write the font's facts to its cache file (atomically); a cache that cannot be written is none."""
    record = {"family": font.family, "weight": font.weight, "italic": font.italic,
              "characters": _ranges(sorted(map(ord, font.characters)))}
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=file.parent, prefix=".font-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(record, out, separators=(",", ":"))
            os.replace(temporary, file)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass


def _ranges(codes: list[int]) -> list[list[int]]:
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return ranges
