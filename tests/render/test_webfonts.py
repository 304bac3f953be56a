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
    """`text-transform: uppercase` shows É for é and SS for ß; `&ensp;` is a character the HTML
    does not hold as such; a list's bullet and a counter's digits come from the browser."""
    html = '<li style="text-transform: uppercase">été straße&ensp;&#8230;</li>'
    kept = characters_of(webfonts.subset(LATO.read_bytes(), webfonts.shown_characters(html)))
    assert set("étÉTsraßSE\u2002\u2026\u2022" + "0123456789") <= kept
    assert not set("ŁĄœ") & kept  # Lato has them; the page shows none
    assert len(kept) < 150


def test_what_harfbuzz_cannot_cut_comes_back_whole():
    shown = webfonts.shown_characters("abc")
    svg = (ROOT / "art" / "symbols").glob("*.svg")
    for other in [next(svg).read_bytes(), b"wOFF" + bytes(100), LATO.read_bytes()[:5000]]:
        assert webfonts.subset(other, shown) == other
