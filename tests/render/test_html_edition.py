"""The rulebook's HTML edition: rulebook.html beside rulebook.pdf, one self-contained file (fonts
and images inlined, no network), readable in headless Chromium from a phone's width to a desktop's,
with every heading and card name of the PDF."""
from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pikepdf
import pytest
from conftest import ROOT, TINY_GAME, cardgen, headless_chromium, loaded
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont

from cardgen.inputs.fonts import document_font

pytestmark = pytest.mark.slow

WIDTHS = (390, 1280)


@pytest.fixture(scope="module")
def puppy_html(shipped_document) -> Path:
    """`cardgen rulebook exploding_puppy` (English): rulebook.html beside rulebook.pdf."""
    return shipped_document("exploding_puppy", "rulebook.html").parent


@pytest.fixture(scope="module")
def browser():
    with headless_chromium("--hide-scrollbars") as driver:
        yield driver


def flat(text: str) -> str:
    return " ".join(text.split())


def test_beside_the_pdf_one_file_that_names_nothing_outside_itself(puppy_html):
    html = (puppy_html / "rulebook.html").read_text(encoding="utf-8")
    assert (puppy_html / "rulebook.pdf").is_file()
    urls = re.findall(r"""(?:src|href)=["']([^"']+)|url\(\s*["']?([^"')]+)""", html)
    targets = [a or b for a, b in urls]
    assert targets and all(t.startswith(("data:", "#")) for t in targets), [t[:40] for t in targets
                                                                           if not t.startswith(("data:", "#"))]


@pytest.mark.parametrize("width", WIDTHS)
def test_fits_the_width_and_holds_every_heading_and_card_name(puppy_html, browser, width, tmp_path):
    browser.set_window_size(width, 900)
    browser.get((puppy_html / "rulebook.html").as_uri())
    inner = browser.execute_script("return window.innerWidth")
    assert abs(inner - width) < 20
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(name.startswith("data:") for name in resources), resources
    headings = {flat(h) for h in browser.execute_script(
        "return [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => h.textContent)")}
    with pikepdf.open(puppy_html / "rulebook.pdf") as pdf, pdf.open_outline() as outline:
        bookmarks = [flat(item.title) for item in walk(outline.root)]
    assert len(bookmarks) > 40
    for title in bookmarks:  # the PDF's headings (its bookmarks), the symbols aside
        assert any(title.strip() in heading for heading in headings), title
    text = flat(browser.execute_script("return document.body.innerText"))
    cards = loaded("exploding_puppy").game.cards
    for card in cards:
        assert card.name in text, card.name
    pictures = browser.execute_script(  # each card's picture, loaded, beside its explanation
        "return [...document.querySelectorAll('.card-entry img.card-picture')].filter(i => i.naturalWidth > 100).length")
    assert pictures == len(cards)
    browser.save_screenshot(str(tmp_path / f"rulebook-{width}.png"))


def walk(items):
    for item in items:
        yield item
        yield from walk(item.children)


FONT_FACE = re.compile(r'@font-face\s*{\s*font-family:\s*"([^"]+)";\s*src:\s*url\("data:[^;]+;base64,([^"]+)"\);'
                       r"\s*font-weight:\s*(\d+);\s*font-style:\s*(\w+);")


def test_its_fonts_hold_every_character_the_page_shows_drawn_as_the_full_fonts_draw_them(puppy_html, browser):
    """Each font it carries is cut to the characters the page can show: every character of the
    page's text as the browser shows it (capitals of `text-transform` included) that the shipped
    font has is there, its outline the shipped one's, in a small part of the shipped files' size."""
    html = (puppy_html / "rulebook.html").read_text(encoding="utf-8")
    browser.get((puppy_html / "rulebook.html").as_uri())
    shown = set(browser.execute_script("return document.body.innerText")) - set(" \n\t")
    shipped = {(font.family, font.weight, font.italic): path for path in sorted((ROOT / "art" / "fonts").glob("*.ttf"))
               for font in [document_font(path)]}
    carried = {(family, int(weight), style == "italic"): base64.b64decode(data)
               for family, data, weight, style in FONT_FACE.findall(html)}
    assert carried.keys() == shipped.keys()
    assert sum(map(len, carried.values())) < sum(p.stat().st_size for p in shipped.values()) / 5
    checked = 0
    for face, data in carried.items():
        full, cut = TTFont(shipped[face]), TTFont(io.BytesIO(data))
        full_map, cut_map = full.getBestCmap(), cut.getBestCmap()
        for character in sorted(c for c in shown if ord(c) in full_map):
            assert ord(character) in cut_map, (face, character)
            assert outline(full, full_map[ord(character)]) == outline(cut, cut_map[ord(character)]), (face, character)
            checked += 1
    assert checked > 200


def outline(font: TTFont, glyph: str) -> list:
    """The glyph's contours, its components drawn in place (their names differ in a cut font)."""
    glyphs = font.getGlyphSet()
    pen = DecomposingRecordingPen(glyphs)
    glyphs[glyph].draw(pen)
    return pen.value


HOSTILE_TEMPLATE = """{% extends "base.html" %}
{% block body %}<p id="shown">The rules.</p>
<script>document.title = "the script ran"</script>
<svg width="1" height="1" onload="document.title = 'the handler ran'"></svg>
<img srcset="https://example.com/a.png 1x">
{% endblock %}
"""


def test_a_game_templates_script_neither_runs_nor_fetches(game_copy, browser, tmp_path):
    """The HTML edition is sealed (a content security policy is its first element): whatever a
    game's own template writes into it, a browser runs and fetches nothing."""
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "rulebook.html").write_text(HOSTILE_TEMPLATE, encoding="utf-8")
    code, _, err = cardgen("rulebook", folder, "--out", tmp_path / "out")
    assert code == 0, err
    html = (tmp_path / "out" / "rulebook.html").read_text(encoding="utf-8")
    assert re.match(r'<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'none\';', html)
    browser.get((tmp_path / "out" / "rulebook.html").as_uri())
    assert browser.find_element("id", "shown").text == "The rules."
    assert browser.title == "Tiny Hazards"  # neither the script nor the handler ran
    # a resource it names, however its tag is written, is fetched from the game folder or refused
    for tag in ("<img src='https://example.com/x.png'>", '<img alt="a>b" src="https://example.com/x.png">',
                '<IMG SRC="https://example.com/x.png">'):
        (folder / "templates" / "rulebook.html").write_text(HOSTILE_TEMPLATE.replace("<p id", f"{tag}<p id"),
                                                             encoding="utf-8")
        code, _, err = cardgen("rulebook", folder, "--out", tmp_path / "out")
        assert code == 1 and "refused to fetch 'https://example.com/x.png'" in err, tag
    # and a refresh, which no security policy holds back, sends no reader elsewhere
    (folder / "templates" / "rulebook.html").write_text(HOSTILE_TEMPLATE.replace(
        "<p id", '<meta http-equiv="Refresh" content="0;url=https://example.com/"><p id'), encoding="utf-8")
    code, _, err = cardgen("rulebook", folder, "--out", tmp_path / "out")
    assert code == 1 and "would send the HTML edition's reader to another page" in err


def test_the_seal_follows_the_doctype_after_a_comment_so_the_page_stays_in_standards_mode(game_copy, browser,
                                                                                         tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "rulebook.html").write_text(
        "<!-- the game's own page -->\n<!DOCTYPE html>\n<html lang=\"en\"><head><title>Tiny Hazards</title></head>"
        "<body><p id=shown>{{ game.title }}</p></body></html>\n", encoding="utf-8")
    code, _, err = cardgen("rulebook", folder, "--out", tmp_path / "out")
    assert code == 0, err
    html = (tmp_path / "out" / "rulebook.html").read_text(encoding="utf-8")
    assert html.index("<!DOCTYPE html>") < html.index("Content-Security-Policy")
    browser.get((tmp_path / "out" / "rulebook.html").as_uri())
    assert browser.execute_script("return document.compatMode") == "CSS1Compat"



def test_text_that_reads_like_a_resource_is_text(game_copy, tmp_path):
    """Only a tag's src and a style's url() name resources: prose saying "src=" or "url(" (and code
    quoting a tag) is the reader's. The edition had tried to fetch 'boom' and failed the build."""
    folder = game_copy(TINY_GAME)
    prose = 'The card says src=boom. Draw a card (see url(top) of the deck). Write `<img src="x.png">`.'
    (folder / "rules.md").write_text(f"# Rules\n\n{prose}\n", encoding="utf-8")
    code, _, err = cardgen("rulebook", folder, "--out", tmp_path / "out")
    assert code == 0, err
    html = (tmp_path / "out" / "rulebook.html").read_text(encoding="utf-8")
    assert "The card says src=boom. Draw a card (see url(top) of the deck)." in html
    assert '<code>&lt;img src=&quot;x.png&quot;&gt;</code>' in html


def test_a_style_sheet_the_games_css_imports_is_inlined_and_applied(game_copy, browser, tmp_path):
    """game.css may start with @import of a sheet of the game folder: inlined as data:, which the
    seal lets the browser apply (it had kept it out)."""
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "game.css").write_text('@import url("extra.css");\n', encoding="utf-8")
    (folder / "extra.css").write_text("h1 { color: rgb(1, 2, 3); }\n", encoding="utf-8")
    code, _, err = cardgen("rulebook", folder, "--out", tmp_path / "out")
    assert code == 0, err
    assert '@import url("data:text/css;base64,' in (tmp_path / "out" / "rulebook.html").read_text(encoding="utf-8")
    browser.get((tmp_path / "out" / "rulebook.html").as_uri())
    assert browser.execute_script("return getComputedStyle(document.querySelector('h1')).color") == "rgb(1, 2, 3)"

