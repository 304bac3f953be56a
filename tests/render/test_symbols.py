"""symbols: the SVG symbols as one font for the documents — shapes, fill rules, strokes, the
rulebook's use of it, and symbol files that cannot be used."""
from __future__ import annotations

import io
from types import SimpleNamespace

import pathops
import pytest
from conftest import TINY_GAME, page_fonts, report_for
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont

from cardgen import load
from cardgen.inputs import symbols
from cardgen.render import documents


def glyph_outline(font: TTFont, character: str) -> pathops.Path:
    glyph_set = font.getGlyphSet()
    pen = DecomposingRecordingPen(glyph_set)
    glyph_set[font.getBestCmap()[ord(character)]].draw(pen)
    path = pathops.Path()
    pen.replay(path.getPen())
    return path


def font_points(svg_x: float, svg_y: float) -> tuple[float, float]:
    """Where a point of a 100 x 100 symbol lands in the font's em square (y up)."""
    scale = (symbols.ASCENT - symbols.DESCENT) / 100
    return svg_x * scale + (symbols.UNITS_PER_EM - 100 * scale) / 2, symbols.ASCENT - svg_y * scale


@pytest.fixture(scope="module")
def puppy_font():
    game = load.load_game("exploding_puppy").game
    return game, TTFont(io.BytesIO(symbols.symbol_font(game)))


def test_every_symbol_has_a_glyph_inside_the_em(puppy_font):
    game, font = puppy_font
    characters = symbols.code_points(game)
    assert {"bomb", "star", "checkbox"} <= set(characters)
    for name, character in characters.items():
        outline = glyph_outline(font, character)
        left, bottom, right, top = outline.bounds
        assert outline.area > 0, name
        assert 0 <= left < right <= symbols.UNITS_PER_EM, name
        assert symbols.DESCENT <= bottom < top <= symbols.ASCENT, name


def test_fill_rules_strokes_and_transforms_become_outlines(puppy_font):
    game, font = puppy_font
    characters = symbols.code_points(game)
    gear = glyph_outline(font, characters["gear"])
    assert gear.contains(font_points(50, 8)) and not gear.contains(font_points(50, 50))  # evenodd hole
    eye = glyph_outline(font, characters["eye"])
    assert eye.contains(font_points(50, 50)) and not eye.contains(font_points(50, 34))  # pupil in the hole
    question = glyph_outline(font, characters["question"])
    assert question.contains(font_points(50, 58))  # the stroked line, 13 wide
    defuse = glyph_outline(font, characters["defuse"])
    assert not defuse.contains(font_points(33, 76))  # the rotate() of its group moved the ring


def test_the_font_is_the_same_bytes_every_time(puppy_font):
    game, _ = puppy_font
    first = symbols.symbol_font(game)
    symbols._font.cache_clear()
    assert symbols.symbol_font(game) == first


@pytest.mark.slow
def test_the_rulebook_sets_each_color_symbol_in_the_symbol_font(puppy_rulebook):
    game, _, path = puppy_rulebook
    wanted = {color.name for color in game.colors}  # a tagged PDF's symbol reads as its color's name
    pages, images = page_fonts(path)
    chars = [(text, font) for page in pages for text, font in page if symbols.FONT_FAMILY in font]
    assert wanted <= {text for text, _ in chars}
    assert len(chars) > len(game.cards)  # one beside each card at least
    assert images == 1  # the card diagram's card; every symbol is a character of the font


@pytest.mark.slow
def test_a_game_with_its_own_symbols_gets_its_own_font_in_the_same_process(game_copy, tmp_path):
    """WeasyPrint's font configuration is shared across documents: a game's replaced symbol
    must not come out in the font of a game rendered before it."""
    fonts = []
    for replace in (False, True):
        folder = game_copy(TINY_GAME, name=f"tiny-{replace}")
        if replace:
            (folder / "symbols").mkdir()
            (folder / "symbols" / "bomb.svg").write_text(
                '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>')
        game = load.load_game(folder).game
        path = documents.write_rulebook(game, report_for(folder), tmp_path / folder.name)
        # symbols in bold headings are the same font under a bold name ("<family>-Bold")
        fonts.append({font.split("+")[-1].split("-Bold")[0] for page in page_fonts(path)[0]
                      for _, font in page if symbols.FONT_FAMILY in font})
    assert len(fonts[0]) == len(fonts[1]) == 1 and fonts[0] != fonts[1]


def test_the_symbols_named_follow_changes_in_the_game_folder_and_in_art(tmp_path, monkeypatch):
    """The names are kept while their folders are unchanged: a symbol added to the game, one gone
    from the shared folder, and a game's own symbol linked to a shared file that was renamed (its
    game folder unchanged) are seen at the next ask."""
    art = tmp_path / "art"
    (art / "symbols").mkdir(parents=True)
    monkeypatch.setattr(symbols, "ART", art)
    monkeypatch.setattr(symbols, "SHARED_SYMBOLS", art / "symbols")
    monkeypatch.setattr(symbols, "_SHARED_PLACE", (art / "symbols", (art,)))
    folder = tmp_path / "game" / "symbols"
    folder.mkdir(parents=True)
    square = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'
    for name in ("coin", "gem"):
        (art / "symbols" / f"{name}.svg").write_text(square)
    (folder / "gold.svg").symlink_to(art / "symbols" / "coin.svg")
    here = SimpleNamespace(folder=tmp_path / "game")  # symbol_names reads only the game's folder
    assert symbols.symbol_names(here) == ["coin", "gem", "gold"]
    (folder / "own.svg").write_text(square)
    assert symbols.symbol_names(here) == ["coin", "gem", "gold", "own"]
    (art / "symbols" / "gem.svg").unlink()
    assert symbols.symbol_names(here) == ["coin", "gold", "own"]
    (art / "symbols" / "coin.svg").rename(art / "symbols" / "coin2.svg")
    assert symbols.symbol_names(here) == ["coin2", "own"]  # gold's link leads nowhere now
