"""render/documents/webfonts: what the HTML edition's fonts are cut to. Its whole page is read in
test_html_edition.py; here, the characters a page can show that its HTML does not spell out, and
what is left whole."""
from __future__ import annotations

import io

from conftest import ROOT
from fontTools.ttLib import TTFont

from cardgen.render.documents import webfonts

LATO = ROOT / "art" / "fonts" / "Lato-Regular.ttf"


def characters_of(font: bytes) -> set[str]:
    return {chr(code) for code in TTFont(io.BytesIO(font)).getBestCmap()}


def test_a_page_keeps_its_capitals_its_character_references_and_what_a_browser_adds():
    """`text-transform: uppercase` shows É for é and, on a Turkish page, İ for i; a Greek capital
    loses its accent (Η for ή); `&ensp;` is a character the HTML does not hold as such; a list's
    bullet comes from the browser."""
    html = ('<li style="text-transform: uppercase">été straße&ensp;</li>'
            '<p lang="tr" style="text-transform: uppercase">bilgi</p><p lang="el">ήρωας</p>')
    kept = characters_of(webfonts.subset(LATO.read_bytes(), webfonts.shown_characters(html)))
    shown, unwritten = set("éßή"), set("ÉİΗ\u2002\u2022")
    assert shown <= set(html) and not unwritten & set(html)
    assert shown | unwritten <= kept
    assert not set("ŁĄœ") & kept  # Lato has them; the page shows none
    assert len(kept) < 200


def test_every_opentype_feature_a_kept_glyph_takes_part_in_and_every_name_is_kept():
    """Kerning, ligatures, the tabular figures of `font-variant-numeric` (the list markers'); and
    the font's names, its copyright and license among them."""
    cut = TTFont(io.BytesIO(webfonts.subset(LATO.read_bytes(), webfonts.shown_characters("fi 10 AV"))))
    features = {record.FeatureTag for table in ("GSUB", "GPOS") for record in cut[table].table.FeatureList.FeatureRecord}
    assert {"kern", "liga", "tnum", "onum", "sups"} <= features
    names = [(name.nameID, name.toUnicode()) for name in cut["name"].names]
    assert names == [(name.nameID, name.toUnicode()) for name in TTFont(LATO)["name"].names]
    assert any(number == 13 and "Open Font License" in text for number, text in names)


def test_what_harfbuzz_cannot_cut_comes_back_whole():
    shown = webfonts.shown_characters("abc")
    svg = (ROOT / "art" / "symbols").glob("*.svg")
    for other in [next(svg).read_bytes(), b"wOFF" + bytes(100), LATO.read_bytes()[:5000]]:
        assert webfonts.subset(other, shown) == other
