"""ttf_metrics: the measures ReportLab takes of a TrueType font (each character's advance, the
default advance, the ascent and the descent), read straight from the font's tables as ReportLab's
TTFontFile reads them, without importing ReportLab or parsing the rest of the font (the check
measures texts with these; only setting a text in a Paragraph or drawing needs ReportLab's font).

Only a font ReportLab reads without an error, in the common way, is read here: `ttf_metrics`
answers None for anything else (a collection, PostScript outlines, a table read past the end of
the file, a character map other than formats 4 and 12, a font whose license limits embedding,
a PostScript name ReportLab refuses...), and the caller registers that font with ReportLab,
its numbers or its error. tests/layout/test_ttf_metrics.py holds the two to each other."""
from __future__ import annotations

import struct
from dataclasses import dataclass

_UNPACK_H, _UNPACK_h, _UNPACK_L = struct.Struct(">H").unpack_from, struct.Struct(">h").unpack_from, \
    struct.Struct(">L").unpack_from
TRUETYPE = (0x00010000, 0x74727565)  # the sfnt versions ReportLab reads as one font ("true": Apple's)
_NAMES = (1, 2, 3, 4, 6)  # the name ids ReportLab looks for
_BAD_NAME_BYTES = b" [](){}<>/%"  # what a PostScript name may not hold (ReportLab refuses the font)
_MOST_CODES = 0x110000  # a character map claiming more code points is left to ReportLab


@dataclass(frozen=True)
class Metrics:
    """A font's measures as ReportLab's TTFontFace holds them (1/1000 of the font size)."""

    char_widths: dict[int, float]  # TTFontFace.charWidths: code point -> advance
    default_width: float  # TTFontFace.defaultWidth: glyph 0's advance, for a character the font lacks
    ascent: float
    descent: float


class _Unusual(Exception):
    """Something ReportLab reads otherwise than here, or refuses."""


class _Font:
    """The font file's bytes and its table directory, read as ReportLab's TTFontParser does."""

    def __init__(self, data: bytes):
        self.data = data
        if self.u32(0) not in TRUETYPE:  # a collection, PostScript outlines, not a font
            raise _Unusual
        self.tables: dict[str, tuple[int, int]] = {}
        for index in range(self.u16(4)):
            at = 12 + 16 * index
            tag = self.bytes(at, 4).decode("utf-8")  # ReportLab refuses a tag that is not UTF-8
            if tag in self.tables:
                raise _Unusual
            self.tables[tag] = self.u32(at + 8), self.u32(at + 12)

    def table(self, tag: str) -> int:
        if tag not in self.tables:
            raise _Unusual
        return self.tables[tag][0]

    def u16(self, at: int) -> int:
        self.within(at, 2)
        return int(_UNPACK_H(self.data, at)[0])

    def s16(self, at: int) -> int:
        self.within(at, 2)
        return int(_UNPACK_h(self.data, at)[0])

    def u32(self, at: int) -> int:
        self.within(at, 4)
        return int(_UNPACK_L(self.data, at)[0])

    def bytes(self, at: int, length: int) -> bytes:
        self.within(at, length)
        return self.data[at:at + length]

    def within(self, at: int, length: int) -> None:
        if at < 0 or at + length > len(self.data):
            raise _Unusual


def ttf_metrics(data: bytes) -> Metrics | None:
    """The font's measures as ReportLab would take them, or None where ReportLab must read it."""
    try:
        return _metrics(_Font(data))
    except (_Unusual, UnicodeDecodeError, KeyError, OverflowError, MemoryError):
        return None


def _metrics(font: _Font) -> Metrics:
    _check_name(font)
    head = font.table("head")
    if font.u16(head) != 1 or font.u32(head + 12) != 0x5F0F3CF5:
        raise _Unusual
    units = font.u16(head + 18)
    if not units:
        raise _Unusual
    per_unit = 1000 / units

    def scale(value: int) -> float:  # TTFontFile.extractInfo's
        return value if units == 1000 else value * per_unit

    y_min, y_max = font.s16(head + 38), font.s16(head + 42)
    index_to_loc, glyph_data = font.u16(head + 50), font.u16(head + 52)
    if "OS/2" in font.tables:
        os2 = font.table("OS/2")
        embedding = font.u16(os2 + 8)
        if embedding == 0x0002 or embedding & 0x0300:  # ReportLab may refuse or embed it whole
            raise _Unusual
        ascent, descent = scale(font.s16(os2 + 68)), scale(font.s16(os2 + 70))
    else:
        ascent, descent = scale(y_max), scale(y_min)
    post = font.table("post")
    if font.u16(post) not in (1, 2, 3, 4):
        raise _Unusual
    font.within(post, 16)
    hhea = font.table("hhea")
    if font.u16(hhea) != 1 or font.u16(hhea + 32) != 0:
        raise _Unusual
    metrics = font.u16(hhea + 34)
    maxp = font.table("maxp")
    if font.u16(maxp) != 1 or not metrics or glyph_data != 0:
        raise _Unusual
    glyphs = font.u16(maxp + 4)
    char_to_glyph = _character_map(font)
    widths, default = _advances(font, metrics, glyphs, units, per_unit)
    loca = font.table("loca")
    if index_to_loc not in (0, 1):
        raise _Unusual
    font.within(loca, (glyphs + 1) * (2 if index_to_loc == 0 else 4))
    widths += [widths[-1]] * (glyphs - len(widths))  # the glyphs past hmtx's metrics: the last advance
    char_widths = {char: widths[glyph] for char, glyph in char_to_glyph.items() if glyph < len(widths)}
    if 0x20 in char_to_glyph:
        char_widths[0xA0] = char_widths[0x20]  # a KeyError (no width for the space) is ReportLab's too
    elif 0xA0 in char_to_glyph:
        char_widths[0x20] = char_widths[0xA0]
    return Metrics(char_widths, default, ascent, descent)


def _check_name(font: _Font) -> None:
    """ReportLab's reading of the name table: it refuses a font whose PostScript name it cannot
    find or that holds what a PDF name may not."""
    name = font.table("name")
    if font.u16(name) != 0:
        raise _Unusual
    strings = name + font.u16(name + 4)
    found: dict[int, bytes] = {}
    for index in range(font.u16(name + 2)):
        at = name + 6 + 12 * index
        platform, encoding, language, name_id, length, offset = (font.u16(at + 2 * k) for k in range(6))
        if name_id not in _NAMES:
            continue
        text = None
        if (platform, encoding, language) == (3, 1, 0x409):
            if length % 2:
                raise _Unusual  # "PostScript name is UTF-16BE string of odd length"
            text = _name_bytes(font.data[strings + offset:strings + offset + length], "utf_16_be")
        elif (platform, encoding, language) == (1, 0, 0):
            text = _name_bytes(font.data[strings + offset:strings + offset + length], "mac_roman")
        if text and name_id not in found:
            found[name_id] = text
            if len(found) == len(_NAMES):
                break
    postscript = found.get(6) or found.get(4) or found.get(1)
    if not postscript or any(byte > 126 or byte in _BAD_NAME_BYTES for byte in postscript.replace(b" ", b"-")):
        raise _Unusual


def _name_bytes(raw: bytes, encoding: str) -> bytes:
    """ReportLab's TTFNameBytes: the name decoded (as Latin-1 where it is not in its encoding), in UTF-8."""
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError:
        text = raw.decode("latin1")
    return text.encode("utf8")


def _character_map(font: _Font) -> dict[int, int]:
    """ReportLab's charToGlyph: the subtable it picks (the last Windows one, or a Unicode or Mac
    one after it), every code point of format 4's segments (glyph 0 included) or 12's groups."""
    cmap = font.table("cmap")
    count = font.u16(cmap + 2)
    if not count:
        raise _Unusual
    chosen = None
    kind = 0
    for index in range(count):
        at = cmap + 4 + 8 * index
        platform, encoding, offset = font.u16(at), font.u16(at + 2), font.u32(at + 4)
        if platform == 3:
            kind, chosen = 1, offset
        elif platform == 1 and encoding == 0 and kind != 1:
            kind, chosen = 2, offset
        elif platform == 1 and encoding == 1:
            kind, chosen = 1, offset
        elif platform == 0 and encoding != 5:
            kind, chosen = 1, offset
    if chosen is None:
        raise _Unusual
    start = cmap + chosen
    form = font.u16(start)
    if form == 4:
        return _format_4(font, start, start + font.u16(start + 2))
    if form == 12:
        return _format_12(font, start)
    raise _Unusual


def _format_4(font: _Font, start: int, limit: int) -> dict[int, int]:
    count = int(font.u16(start + 6) / 2.0)
    ends_at = start + 14
    starts_at = ends_at + 2 * count + 2
    deltas_at = starts_at + 2 * count
    offsets_at = deltas_at + 2 * count
    font.within(ends_at, 8 * count + 2)
    ends = struct.unpack_from(f">{count}H", font.data, ends_at)
    starts = struct.unpack_from(f">{count}H", font.data, starts_at)
    deltas = struct.unpack_from(f">{count}h", font.data, deltas_at)
    offsets = struct.unpack_from(f">{count}H", font.data, offsets_at)
    mapping: dict[int, int] = {}
    assigned = 0
    for n in range(count):
        first, last, delta, offset = starts[n], ends[n], deltas[n], offsets[n]
        assigned += max(0, last - first + 1)
        if offset == 0:
            mapping.update((char, (char + delta) & 0xFFFF) for char in range(first, last + 1))
            continue
        if first > last:
            continue
        base = offsets_at + 2 * n + offset  # the glyph of `first`; the others follow
        read = max(0, min(last - first + 1, (limit - base + 1) // 2))  # at or past `limit`: glyph 0 (ReportLab's
        font.within(base, 2 * read)  # workaround for broken fonts)
        found = struct.unpack_from(f">{read}H", font.data, base)
        mapping.update(zip(range(first, last + 1), [(glyph + delta) & 0xFFFF if glyph else 0 for glyph in found]))
        mapping.update((char, 0) for char in range(first + read, last + 1))
    return _once(mapping, assigned)


def _format_12(font: _Font, start: int) -> dict[int, int]:
    groups = font.u32(start + 12)
    font.within(start + 16, 12 * groups)
    mapping: dict[int, int] = {}
    total = 0
    for index in range(groups):
        first, last, glyph = struct.unpack_from(">3L", font.data, start + 16 + 12 * index)
        total += max(0, last - first + 1)
        if total > _MOST_CODES:
            raise _Unusual
        mapping.update((char, char + glyph - first) for char in range(first, last + 1))
    return _once(mapping, total)


def _once(mapping: dict[int, int], assigned: int) -> dict[int, int]:
    """The map, if no code point was given a glyph twice (ReportLab then gives it the width of the
    highest of its glyphs, not of the one it keeps: left to it)."""
    if assigned != len(mapping):
        raise _Unusual
    return mapping


def _advances(font: _Font, metrics: int, glyphs: int, units: int, per_unit: float) -> tuple[list[float], float]:
    """Each glyph's advance, scaled, as hmtx gives it: the first `metrics` glyphs their own, the
    others the last one's (only up to the font's glyph count), and glyph 0's (the default)."""
    hmtx = font.table("hmtx")
    font.within(hmtx, 4 * metrics + 2 * max(0, glyphs - metrics))
    advances = struct.unpack_from(f">{2 * metrics}H", font.data, hmtx)[::2]
    # scaled as ReportLab's extractInfo scales them: kept at 1000 units an em, else times 1000 / units
    widths: list[float] = list(advances) if units == 1000 else [advance * per_unit for advance in advances]
    return widths, widths[0]
