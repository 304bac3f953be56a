"""sfnt: what the documents take from a TrueType or OpenType font file (its family, weight, style
and characters), read straight from its tables, as fontTools reads them, without importing
fontTools (its import and its parse were most of a `cardgen check`).

Only a plain font whose tables fontTools would read without an error or a warning is read here:
`font_facts` answers None for anything else (a WOFF, a collection, a table too short or too long,
a cmap subtable format other than 4 and 12, a name in an encoding only fontTools knows...), and
the caller lets fontTools read that file, with its own error messages and warnings. So the
answer is always fontTools' (tests/check/test_font_tables.py holds the two to each other on the
shipped fonts and on broken copies of them)."""
from __future__ import annotations

import struct
import sys
from array import array

SFNT_VERSIONS = (b"\x00\x01\x00\x00", b"OTTO", b"true")  # what fontTools reads as a plain font
OS2_SIZES = {0: 78, 1: 86, 2: 96, 3: 96, 4: 96, 5: 100}  # the OS/2 table of each version, in bytes
# fontTools' getBestCmap: the cmap subtable read, the first (platform, encoding) present
BEST_CMAPS = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))
# the encodings of name records (fontTools' encodingTools): platform -> encoding id -> codec, or
# -> language id -> codec for Mac Roman (None: the default for a language not listed); the codecs
# fontTools adds itself (x_mac_..._ttx) are not here: such a name is left to fontTools
_MAC_ROMAN = {15: "mac_iceland", 17: "mac_turkish", 18: "mac_croatian", 24: "mac_latin2", 25: "mac_latin2",
              26: "mac_latin2", 27: "mac_latin2", 28: "mac_latin2", 36: "mac_latin2", 37: "mac_romanian",
              38: "mac_latin2", 39: "mac_latin2", 40: "mac_latin2", None: "mac_roman"}
_ENCODINGS: dict[int, dict[int, str | dict[int | None, str]]] = {
    0: dict.fromkeys(range(7), "utf_16_be"),
    1: {0: _MAC_ROMAN, 6: "mac_greek", 7: "mac_cyrillic", 29: "mac_latin2", 35: "mac_turkish", 37: "mac_iceland"},
    2: {0: "ascii", 1: "utf_16_be", 2: "latin1"},
    3: {0: "utf_16_be", 1: "utf_16_be", 2: "shift_jis", 3: "gb2312", 4: "big5", 5: "euc_kr", 6: "johab",
        10: "utf_16_be"},
}
_FONTTOOLS_CODECS = {1: {1, 2, 3, 25}}  # Mac encodings whose codec only fontTools registers


class _Unusual(Exception):
    """Something only fontTools reads as fontTools does: an error, a warning, a rare format."""


def font_facts(data: bytes, stem: str) -> tuple[str, int, bool, frozenset[str]] | None:
    """(family, weight, italic, characters) of a font file as the documents read it with
    fontTools (inputs.fonts), or None where fontTools must read it (see the module's doc)."""
    try:
        tables = _tables(data)
        num_glyphs = _num_glyphs(tables[b"maxp"])
        _check_metrics(tables[b"hhea"], tables[b"hmtx"], num_glyphs)
        names = _name_records(tables[b"name"])
        family = (_debug_name(names, 16) or _debug_name(names, 1) or stem).replace('"', "")
        if b"OS/2" in tables:
            weight, italic = _style(tables[b"OS/2"])
        else:
            weight, italic = 400, "italic" in stem.lower()
        return family, weight, italic, frozenset(map(chr, _characters(tables[b"cmap"])))
    except (_Unusual, KeyError, IndexError, ValueError, struct.error):
        return None


def _tables(data: bytes) -> dict[bytes, bytes]:
    """The bytes of the tables read here by tag, from the table directory of a plain (not WOFF,
    not collection) font."""
    if len(data) < 12 or data[:4] not in SFNT_VERSIONS:
        raise _Unusual
    count = int.from_bytes(data[4:6], "big")
    if len(data) < 12 + 16 * count:
        raise _Unusual
    places: dict[bytes, tuple[int, int]] = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        if tag in places or offset + length > len(data):
            raise _Unusual
        places[tag] = offset, length
    return {tag: data[offset:offset + length] for tag, (offset, length) in places.items() if tag in _READ}


_READ = (b"hhea", b"maxp", b"hmtx", b"name", b"OS/2", b"cmap")  # the tables fontTools reads for inputs.fonts


def _num_glyphs(maxp: bytes) -> int:
    """maxp's glyph count; its table exactly as long as its version has it (fontTools asserts it)."""
    if len(maxp) != (6 if maxp[:4] == b"\x00\x00\x50\x00" else 32):
        raise _Unusual
    return int.from_bytes(maxp[4:6], "big")


def _check_metrics(hhea: bytes, hmtx: bytes, num_glyphs: int) -> None:
    """hhea and hmtx as fontTools decompiles them without a word: hhea of its one size, hmtx of
    exactly the size its metrics count says, no advance over 32767."""
    if len(hhea) != 36:
        raise _Unusual
    metrics = int.from_bytes(hhea[34:36], "big")
    if not 0 < metrics <= num_glyphs or len(hmtx) != 4 * metrics + 2 * (num_glyphs - metrics):
        raise _Unusual
    advances = array("H", hmtx[:4 * metrics])
    if sys.byteorder != "big":
        advances.byteswap()
    if max(advances[::2]) > 32767:
        raise _Unusual


def _name_records(name: bytes) -> list[tuple[int, int, int, int, bytes]]:
    """(platform, encoding, language, name id, bytes) of each name record, in the table's order."""
    if len(name) < 6:
        raise _Unusual
    _, count, strings = struct.unpack_from(">HHH", name)
    if strings != 6 + 12 * count or len(name) < strings:
        raise _Unusual
    records = []
    for index in range(count):
        platform, encoding, language, name_id, length, offset = struct.unpack_from(">6H", name, 6 + 12 * index)
        if strings + offset + length > len(name):
            raise _Unusual
        records.append((platform, encoding, language, name_id, name[strings + offset:strings + offset + length]))
    return records


def _debug_name(records: list[tuple[int, int, int, int, bytes]], name_id: int) -> str | None:
    """fontTools' getDebugName: the Windows English name, else the Mac English one, else any."""
    english = mac = some = None
    for platform, encoding, language, found, string in records:
        if found != name_id:
            continue
        try:
            text = _decoded(string, _encoding(platform, encoding, language))
        except UnicodeDecodeError:
            continue
        some = text
        if (platform, language) == (3, 0x409):
            english = text
            break
        if (platform, language) == (1, 0) and mac is None:
            mac = text
    return english or mac or some or None


def _encoding(platform: int, encoding: int, language: int) -> str:
    if encoding in _FONTTOOLS_CODECS.get(platform, ()):
        raise _Unusual
    codec = _ENCODINGS.get(platform, {}).get(encoding, "ascii")
    return codec.get(language, codec[None]) if isinstance(codec, dict) else codec


def _decoded(string: bytes, encoding: str) -> str:
    """A name record's text as fontTools' NameRecord.toUnicode makes it (its repairs included)."""
    if encoding == "utf_16_be" and len(string) % 2 == 1:
        if string[-1] == 0:
            string = string[:-1]
        elif all(b == 0 if i % 2 else _ascii(b) for i, b in enumerate(string)):
            string = b"\0" + string
        elif string[0] == 0 and all(_ascii(b) for b in string[1:]):
            string = b"".join(b"\0" + bytes([b]) for b in string[1:])
    text = string.decode(encoding)
    if all(ord(c) == 0 if i % 2 == 0 else _ascii(ord(c)) for i, c in enumerate(text)):
        text = text[1::2]
    return text


def _ascii(code: int) -> bool:
    return 0x20 <= code <= 0x7E or code in (0x09, 0x0A, 0x0D)


def _style(os2: bytes) -> tuple[int, bool]:
    """OS/2's weight class and italic bit, the table exactly as long as its version has it."""
    if len(os2) < 2 or OS2_SIZES.get(int.from_bytes(os2[:2], "big")) != len(os2):
        raise _Unusual
    weight, selection = struct.unpack_from(">H", os2, 4)[0], struct.unpack_from(">H", os2, 62)[0]
    return weight, bool(selection & 1)


# --------------------------------------------------------------------------- the character map


def _characters(cmap: bytes) -> set[int]:
    """The code points of fontTools' best cmap subtable that map to a glyph other than 0."""
    read: dict[int, set[int]] = {}  # by offset: subtables often share their data
    subtables = _subtables(cmap, read)
    for wanted in BEST_CMAPS:
        for platform, encoding, offset, body in subtables:
            if (platform, encoding) == wanted:
                if offset not in read:
                    read[offset] = _mapped(body)
                return read[offset]
    return set()


def _subtables(cmap: bytes, read: dict[int, set[int]]) -> list[tuple[int, int, int, bytes]]:
    """(platform, encoding, offset, bytes) of each subtable, with the checks fontTools makes of
    each subtable's header when it reads the cmap table (and, for a subtable sharing its data
    with an earlier one, the reading of that one's map, kept in `read`)."""
    if len(cmap) < 4:
        raise _Unusual
    count = int.from_bytes(cmap[2:4], "big")
    subtables: list[tuple[int, int, int, bytes]] = []
    seen: set[int] = set()
    for index in range(count):
        if len(cmap) < 4 + 8 * (index + 1):
            raise _Unusual
        platform, encoding, offset = struct.unpack_from(">HHL", cmap, 4 + 8 * index)
        if offset + 8 > len(cmap):
            raise _Unusual
        form, length = struct.unpack_from(">HH", cmap, offset)
        if form in (12, 13):
            length = struct.unpack_from(">L", cmap, offset + 4)[0]
            header = 16
        elif form in (0, 2, 4, 6):
            header = 6
        else:  # 8, 10, 14, 15 and unknown formats: fontTools reads them
            raise _Unusual
        if length < header or offset + length > len(cmap):
            raise _Unusual
        body = cmap[offset:offset + length]
        if form in (12, 13) and length != 16 + 12 * int.from_bytes(body[12:16], "big"):
            raise _Unusual
        if offset in seen and offset not in read:  # fontTools reads the earlier one's map now
            read[offset] = _mapped(body)
        seen.add(offset)
        subtables.append((platform, encoding, offset, body))
    return subtables


def _mapped(body: bytes) -> set[int]:
    form = int.from_bytes(body[:2], "big")
    if form == 4:
        return _format_4(body[6:])
    if form == 12:
        return _format_12(body[16:])
    raise _Unusual


def _format_4(data: bytes) -> set[int]:
    """fontTools' cmap_format_4.decompile: the segments' code points with a glyph (the last
    segment left out, as fontTools does)."""
    if len(data) < 8 or len(data) % 2:
        raise _Unusual
    count = int.from_bytes(data[:2], "big") // 2
    codes = array("H", data[8:])
    if sys.byteorder != "big":
        codes.byteswap()
    ends = codes[:count]
    rest = codes[count + 1:]
    starts, deltas = rest[:count], rest[count:2 * count]
    offsets, glyphs = rest[2 * count:3 * count], rest[3 * count:]
    mapped: set[int] = set()
    for i in range(len(starts) - 1):
        start, end, delta, offset = starts[i], ends[i], deltas[i], offsets[i]
        if offset == 0:  # code + delta: glyph 0 for one code point at most, which maps nothing here
            missing = -delta & 0xFFFF
            mapped.update(range(start, end + 1) if not start <= missing <= end or missing in mapped else
                          (*range(start, missing), *range(missing + 1, end + 1)))
            continue
        partial = offset // 2 - start + i - len(offsets)
        if start <= end and not (0 <= start + partial and end + partial < len(glyphs)):
            raise _Unusual  # fontTools: the glyph index array offset is out of range
        mapped.update(code for code, glyph in zip(range(start, end + 1), glyphs[start + partial:end + partial + 1])
                      if glyph and (glyph + delta) & 0xFFFF)
    return mapped


def _format_12(data: bytes) -> set[int]:
    """fontTools' cmap_format_12_or_13.decompile for format 12: the groups' code points (the first
    of a group starting at glyph 0 left out); a group past U+10FFFF, inverted or out of order
    makes fontTools warn: left to it."""
    groups = array("I", data)
    if groups.itemsize != 4:
        raise _Unusual
    if sys.byteorder != "big":
        groups.byteswap()
    mapped: set[int] = set()
    last = 0
    for start, end, glyph in zip(*[iter(groups)] * 3):
        if end > 0x10FFFF or start > end or start < last:
            raise _Unusual
        last = end
        mapped.update(range(start + (glyph == 0), end + 1))
    return mapped
