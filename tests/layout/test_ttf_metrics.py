"""The check measures card texts with each font's advances, ascent and descent read straight from
its tables (inputs/ttf_metrics.py), registering the font with ReportLab only to set a text in a
Paragraph or to draw: so the numbers must be ReportLab's own, to the last bit. Here the two meet
on the shipped fonts, on fonts with other tables and on hundreds of broken copies: the fast
reader gives ReportLab's numbers, or leaves the font to ReportLab, and never reads a font that
ReportLab refuses."""
from __future__ import annotations

import io
import random
import struct

import pytest
from fontTools.ttLib import TTFont as Tables
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from fontTools.ttLib.tables._n_a_m_e import NameRecord
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.inputs.paths import ART
from cardgen.inputs.ttf_metrics import Metrics, ttf_metrics

SHIPPED = sorted((ART / "fonts").glob("*.ttf"))


def reportlab(data: bytes) -> Metrics | None:
    """The measures ReportLab takes; None where it refuses the font."""
    try:
        face = TTFont("measured", io.BytesIO(data)).face
    except Exception:  # noqa: BLE001 - ReportLab raises many kinds of errors on broken files
        return None
    return Metrics(face.charWidths, face.defaultWidth, face.ascent, face.descent)


def saved(font: Tables) -> bytes:
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_a_shipped_font_is_measured_as_reportlab_measures_it(path):
    data = path.read_bytes()
    expected = reportlab(data)
    assert expected is not None and len(expected.char_widths) > 100
    assert ttf_metrics(data) == expected


def with_format_12(font: Tables) -> Tables:
    mapping = dict(font.getBestCmap())
    table = CmapSubtable.newSubtable(12)
    table.platformID, table.platEncID, table.language = 3, 10, 0
    table.cmap = {**mapping, 0x1F600: mapping[ord("A")]}
    font["cmap"].tables.append(table)
    return font


def without_os2(font: Tables) -> Tables:
    del font["OS/2"]
    return font


def with_mac_names_only(font: Tables) -> Tables:
    font["name"].names = [n for n in font["name"].names if n.platformID == 1]
    return font


def with_a_spaced_postscript_name(font: Tables) -> Tables:
    """ReportLab writes a space of the PostScript name as '-'."""
    font["name"].setName("Lato Spaced", 6, 3, 1, 0x409)
    return font


def with_a_bad_postscript_name(font: Tables) -> Tables:
    """A name a PDF cannot hold (in both the Mac and the Windows record): ReportLab refuses the font."""
    font["name"].setName("Lato(Bad)", 6, 1, 0, 0)
    font["name"].setName("Lato(Bad)", 6, 3, 1, 0x409)
    return font


def with_an_odd_postscript_name(font: Tables) -> Tables:
    """A UTF-16 name of an odd number of bytes: ReportLab refuses the font."""
    record = NameRecord()
    record.nameID, record.platformID, record.platEncID, record.langID = 6, 3, 1, 0x409
    record.string = b"\0L\0a\0"
    font["name"].names = [n for n in font["name"].names if n.nameID != 6] + [record]
    return font


def with_restricted_embedding(font: Tables) -> Tables:
    font["OS/2"].fsType = 0x0002
    return font


def with_units_of_1000(font: Tables) -> Tables:
    """unitsPerEm 1000: ReportLab keeps the advances as they are (whole numbers)."""
    font["head"].unitsPerEm = 1000
    return font


def without_a_space(font: Tables) -> Tables:
    """No space in the character map, a no-break space: ReportLab gives the space its width."""
    for table in font["cmap"].tables:
        table.cmap.pop(0x20, None)
    return font


def with_a_wide_no_break_space(font: Tables) -> Tables:
    """A no-break space drawn as 'W': ReportLab measures it as the space."""
    for table in font["cmap"].tables:
        if 0xA0 in table.cmap and ord("W") in table.cmap:
            table.cmap[0xA0] = table.cmap[ord("W")]
    return font


@pytest.mark.parametrize("change", [
    with_format_12, without_os2, with_mac_names_only, with_a_spaced_postscript_name, with_a_bad_postscript_name,
    with_an_odd_postscript_name, with_restricted_embedding, with_units_of_1000, without_a_space,
    with_a_wide_no_break_space,
], ids=lambda change: change.__name__)
def test_other_tables_are_measured_as_reportlab_measures_them_or_left_to_it(change):
    data = saved(change(Tables(ART / "fonts" / "Lato-Italic.ttf")))
    measured, expected = ttf_metrics(data), reportlab(data)
    assert measured is None or measured == expected
    if change in (with_format_12, without_os2, with_mac_names_only, with_a_spaced_postscript_name,
                  with_units_of_1000, without_a_space, with_a_wide_no_break_space):
        assert measured is not None  # read here: the comparison looked at something
    if change in (with_a_bad_postscript_name, with_an_odd_postscript_name):
        assert expected is None and measured is None


def places(data: bytes) -> dict[str, tuple[int, int]]:
    count = struct.unpack_from(">H", data, 4)[0]
    found = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        found[tag.decode("latin-1")] = offset, length
    return found


def broken_copies(data: bytes, seed: int) -> list[bytes]:
    """Copies cut short, and with bytes changed in the table directory and in each table ReportLab
    reads (random but reproducible), each header field one more."""
    rng = random.Random(seed)
    copies = [data[:length] for length in (0, 3, 11, 12, 40, 200, len(data) // 2, len(data) - 1)]
    count = struct.unpack_from(">H", data, 4)[0]
    regions = [(0, 12 + 16 * count)] + [place for tag, place in places(data).items()
                                       if tag in ("head", "hhea", "maxp", "hmtx", "name", "OS/2", "post", "cmap", "loca")]
    for offset, length in regions:
        for at in range(offset, offset + min(length, 8)):
            copy = bytearray(data)
            copy[at] = (copy[at] + 1) & 0xFF
            copies.append(bytes(copy))
        for _ in range(10):
            copy = bytearray(data)
            for _ in range(rng.choice((1, 1, 2, 4))):
                copy[offset + rng.randrange(max(length, 1))] = rng.choice((0, 1, 0x7F, 0xFF, rng.randrange(256)))
            copies.append(bytes(copy))
    return copies


@pytest.mark.parametrize("path", [pytest.param(ART / "fonts" / "Lato-Regular.ttf", marks=pytest.mark.slow),  # 2 s
                                  ART / "fonts" / "CabinSketch-Bold.ttf"], ids=lambda path: path.name)
def test_a_broken_copy_is_measured_as_reportlab_measures_it_or_left_to_it(path):
    data = path.read_bytes()
    copies = broken_copies(data, seed=37) + broken_copies(saved(with_format_12(Tables(path))), seed=38)
    read = left = 0
    for number, copy in enumerate(copies):
        measured = ttf_metrics(copy)
        if measured is None:
            left += 1
            continue
        read += 1
        assert measured == reportlab(copy), f"copy {number} is measured otherwise than by ReportLab"
    assert read > 20 and left > 20  # both ways are taken: the comparison looked at something
