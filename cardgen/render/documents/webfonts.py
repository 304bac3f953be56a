"""render/documents/webfonts: the fonts the HTML edition carries, cut down to the characters its
page can show, by HarfBuzz's subsetter (uharfbuzz): Exploding Puppy's Lato is some 65 KB a face
instead of 660 KB, and the page looks the same. The glyphs kept are the font's own, with every
OpenType feature of theirs (kerning, ligatures, tabular figures...); the font's names (its
copyright and license among them) are kept whole."""
from __future__ import annotations

import string
import unicodedata
from html import unescape

import uharfbuzz

# what a browser may show that the HTML does not hold: counters' digits and signs (all of ASCII),
# list bullets, the hyphens of `hyphens: auto`, quotation marks of <q>, the no-break space, and
# the letters of Turkish and Lithuanian capitals and small letters (İ, ı, the dot above of i̇)
BROWSER_ADDS = (string.printable + "\u00a0\u00ad\u2010\u2022\u25e6\u25aa\u2013\u2014\u2018\u2019\u201c\u201d\u2026"
                "\u0130\u0131\u0307")
_SFNT = (b"\x00\x01\x00\x00", b"OTTO", b"true")  # TrueType and OpenType: HarfBuzz reads them (not WOFF)
_NAME_TABLE = int.from_bytes(b"name", "big")  # the font's names: copyright, license


def shown_characters(html: str) -> frozenset[int]:
    """Every character a page of this HTML can show: each one it holds (text, markup, style
    sheet), written or as a character reference (`&ensp;`), in capitals and small letters too
    (`text-transform`), each also as its letter and accents apart (Greek capitals lose their
    accents), and those a browser adds."""
    held = set(unescape(html)) | set(BROWSER_ADDS)  # the characters written stay: a reference's own are ASCII
    cased = {variant for character in held for variant in character.upper() + character.lower()}
    apart = {part for character in held | cased for part in unicodedata.normalize("NFD", character)}
    return frozenset(ord(character) for character in held | cased | apart)


def subset(font: bytes, characters: frozenset[int]) -> bytes:
    """The font with the glyphs of `characters` only (and those its layout makes of them); any
    other file (an image), and a font HarfBuzz cannot read (WOFF, a collection) or cut, whole."""
    if not font.startswith(_SFNT):
        return font
    wanted = uharfbuzz.SubsetInput()
    wanted.unicode_set.update(characters)
    features = wanted.layout_feature_tag_set  # HarfBuzz's default few, made every feature:
    features.clear()
    features.invert()
    wanted.no_subset_table_tag_set.add(_NAME_TABLE)
    try:
        cut = uharfbuzz.subset(uharfbuzz.Face(uharfbuzz.Blob(font)), wanted)
    except RuntimeError:  # HarfBuzz could not cut it (a damaged table, no glyphs)
        return font
    return bytes(cut.blob.data)
