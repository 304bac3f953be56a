"""The glyph check reads each font's family, weight, style and characters straight from its tables
(inputs/sfnt.py), leaving to fontTools any file it does not read exactly as fontTools does: so
the answer, and the bad-font finding's message, are fontTools' own. Here the two readers meet on
the shipped fonts, on fonts with other tables (a format 12 character map, Mac names, no OS/2) and
on hundreds of broken copies: the fast reader either gives fontTools' answer or leaves the file
to it."""
from __future__ import annotations

import io
import logging
import random
import struct

import pytest
from fontTools.misc import sstruct
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables import O_S_2f_2
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from fontTools.ttLib.tables._n_a_m_e import NameRecord
from fontTools.ttLib.tables.DefaultTable import DefaultTable

from cardgen.inputs import fonts, sfnt
from cardgen.inputs.paths import ART

SHIPPED = sorted((ART / "fonts").glob("*.ttf"))


def by_fonttools(data: bytes, stem: str = "Font") -> fonts.DocumentFont | str:
    try:
        return fonts._read_by_fonttools(data, stem)
    except ValueError as exc:  # what the bad-font finding says
        return f"error: {exc}"


def fast(data: bytes, stem: str = "Font") -> fonts.DocumentFont | None:
    facts = sfnt.font_facts(data, stem)
    return None if facts is None else fonts.DocumentFont(*facts)


def saved(font: TTFont) -> bytes:
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def places(data: bytes) -> dict[str, tuple[int, int]]:
    """Each table's offset and length in a font file."""
    count = struct.unpack_from(">H", data, 4)[0]
    found = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        found[tag.decode("latin-1")] = offset, length
    return found


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_a_shipped_font_is_read_from_its_tables_as_fonttools_reads_it(path):
    data = path.read_bytes()
    expected = by_fonttools(data, path.stem)
    assert isinstance(expected, fonts.DocumentFont) and len(expected.characters) > 100
    assert fast(data, path.stem) == expected


def test_the_os2_sizes_are_fonttools_own():
    formats = {0: O_S_2f_2.OS2_format_0, 1: O_S_2f_2.OS2_format_1, 2: O_S_2f_2.OS2_format_2,
               3: O_S_2f_2.OS2_format_2, 4: O_S_2f_2.OS2_format_2, 5: O_S_2f_2.OS2_format_5}
    assert sfnt.OS2_SIZES == {version: sstruct.calcsize(form) for version, form in formats.items()}


def with_format_12(font: TTFont) -> TTFont:
    """The font with a (3, 10) format 12 character map that also maps a character past the BMP
    and starts a group at glyph 0."""
    mapping = dict(font.getBestCmap())
    table = CmapSubtable.newSubtable(12)
    table.platformID, table.platEncID, table.language = 3, 10, 0
    table.cmap = {**mapping, 0x1F600: mapping[ord("A")], 0x1F601: ".notdef"}
    font["cmap"].tables.append(table)
    return font


def with_mac_names_only(font: TTFont) -> TTFont:
    font["name"].names = [n for n in font["name"].names if n.platformID == 1]
    return font


def with_odd_windows_name(font: TTFont) -> TTFont:
    """A Windows family name of an odd number of bytes (fontTools repairs it) and a Mac one first."""
    record = NameRecord()
    record.nameID, record.platformID, record.platEncID, record.langID = 16, 3, 1, 0x409
    record.string = b"\0O\0d\0d\0"  # the last byte zero: dropped
    font["name"].names.append(record)
    return font


def with_double_encoded_name(font: TTFont) -> TTFont:
    """A Windows family name encoded twice over (fontTools narrows it back to 'La')."""
    record = NameRecord()
    record.nameID, record.platformID, record.platEncID, record.langID = 16, 3, 1, 0x409
    record.string = b"\0\0\0L\0\0\0a"
    font["name"].names.insert(0, record)
    return font


def without_os2(font: TTFont) -> TTFont:
    del font["OS/2"]
    return font


def format_4(segments: list[tuple[int, int, int, list[int] | None]]) -> bytes:
    """A format 4 subtable of (start, end, delta, glyph ids or None for none) segments."""
    count = len(segments)
    glyphs: list[int] = []
    offsets = []
    for index, (_, _, _, ids) in enumerate(segments):
        offsets.append(0 if ids is None else 2 * (count - index) + 2 * len(glyphs))
        glyphs += ids or []
    body = struct.pack(f">4H{count}HH{count}H{count}H{count}H{len(glyphs)}H", 2 * count, 0, 0, 0,
                       *(end for _, end, _, _ in segments), 0, *(start for start, _, _, _ in segments),
                       *(delta & 0xFFFF for _, _, delta, _ in segments), *offsets, *glyphs)
    return struct.pack(">HHH", 4, 6 + len(body), 0) + body


def format_12(groups: list[tuple[int, int, int]]) -> bytes:
    return struct.pack(f">HHLLL{3 * len(groups)}L", 12, 0, 16 + 12 * len(groups), 0, len(groups),
                       *(value for group in groups for value in group))


# digits (one mapped to glyph 0 by its delta), A-C through the glyph array (B missing, C wrapping
# to glyph 0), the closing segment; then a format 12 map with a group starting at glyph 0
SEGMENTS = [(0x30, 0x39, -0x35, None), (0x41, 0x43, 1, [5, 0, 0xFFFF]), (0xFFFF, 0xFFFF, 1, None)]
GROUPS = [(0x20, 0x22, 0), (0x61, 0x63, 7), (0x1F600, 0x1F601, 9)]


def raw_cmap(*subtables: tuple[int, int, bytes]) -> bytes:
    directory, bodies = b"", b""
    for platform, encoding, body in subtables:
        directory += struct.pack(">HHL", platform, encoding, 4 + 8 * len(subtables) + len(bodies))
        bodies += body
    return struct.pack(">HH", 0, len(subtables)) + directory + bodies


def with_cmap(raw: bytes):
    def change(font: TTFont) -> TTFont:
        table = DefaultTable("cmap")
        table.data = raw
        font["cmap"] = table
        return font

    change.__name__ = "with_raw_cmap"
    return change


@pytest.mark.parametrize("change", [
    with_format_12, with_mac_names_only, with_odd_windows_name, with_double_encoded_name, without_os2,
    with_cmap(raw_cmap((3, 1, format_4(SEGMENTS)))),
    with_cmap(raw_cmap((0, 3, format_4(SEGMENTS)), (3, 1, format_4(SEGMENTS)), (3, 10, format_12(GROUPS)))),
], ids=lambda change: change.__name__)
@pytest.mark.parametrize("path", [ART / "fonts" / "Lato-Italic.ttf", ART / "fonts" / "CabinSketch-Bold.ttf"],
                         ids=lambda path: path.name)
def test_other_well_formed_tables_are_read_as_fonttools_reads_them(path, change):
    data = saved(change(TTFont(path)))
    expected = by_fonttools(data, path.stem)
    assert isinstance(expected, fonts.DocumentFont)
    assert fast(data, path.stem) == expected


def broken_copies(data: bytes, seed: int) -> list[bytes]:
    """Copies of a font cut short, and with bytes changed in its table directory and in each
    table the documents read (random but reproducible)."""
    rng = random.Random(seed)
    copies = [data[:length] for length in (0, 3, 11, 12, 40, 200, len(data) // 2, len(data) - 1)]
    count = struct.unpack_from(">H", data, 4)[0]
    regions = [(0, 12 + 16 * count)] + [place for tag, place in places(data).items()
                                       if tag in ("hhea", "maxp", "hmtx", "name", "OS/2", "cmap")]
    for offset, length in regions:
        for at in range(offset, offset + min(length, 8)):  # each header field, one more
            copy = bytearray(data)
            copy[at] = (copy[at] + 1) & 0xFF
            copies.append(bytes(copy))
        for _ in range(12):
            copy = bytearray(data)
            for _ in range(rng.choice((1, 1, 2, 4))):
                copy[offset + rng.randrange(max(length, 1))] = rng.choice((0, 1, 0x7F, 0xFF, rng.randrange(256)))
            copies.append(bytes(copy))
    return copies


@pytest.mark.parametrize("path", [pytest.param(ART / "fonts" / "Lato-Regular.ttf", marks=pytest.mark.slow),  # 1.5 s
                                  ART / "fonts" / "CabinSketch-Bold.ttf"], ids=lambda path: path.name)
def test_a_broken_copy_is_read_as_fonttools_reads_it_or_left_to_fonttools(path, caplog):
    """...and where the fast reader answers, fontTools reads the copy without a warning (its
    warnings go on the terminal: a file it warns about is left to it)."""
    data = path.read_bytes()
    copies = broken_copies(data, seed=37) + broken_copies(saved(with_format_12(TTFont(path))), seed=38)
    read = left = 0
    for number, copy in enumerate(copies):
        answer = fast(copy)
        if answer is None:
            left += 1
            continue
        read += 1
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="fontTools"):
            assert answer == by_fonttools(copy), f"copy {number} is read otherwise than by fontTools"
        assert caplog.records == [], f"fontTools warns about copy {number}"
    assert read > 20 and left > 20  # both ways are taken: the comparison looked at something
