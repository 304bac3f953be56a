"""Wording: errors in the data's language, plurals through one helper, the game's own names, and
warnings for what a player would not see or a waiver that waives nothing."""
from __future__ import annotations

import re

import pdfplumber
import pytest
from conftest import CARD_DATA, TEST_DATA, TINY_GAME, checked, edit, page_texts, report_for, sheet_for

from cardgen.load import load_game
from cardgen.model import expressions
from cardgen.model.texts import apportioned, counted, plural
from cardgen.render import documents
from cardgen.render.cards import render_sheets


def findings(folder, code):
    result = load_game(folder)
    if not result.ok:
        return [f for f in result.findings if f.code == code]
    return [f for f in report_for(folder).every_finding() if f.code == code]


@pytest.mark.parametrize("n, noun, said", [(1, "setup", "1 setup"), (0, "error", "0 errors"),
                                           (2, "Number card", "2 Number cards"), (26.4, "card", "~26 cards"),
                                           (3, "box", "3 boxes"), (2, "Puppy", "2 Puppies"), (2, "NOW", "2 NOW")])
def test_one_plural_helper(n, noun, said):
    assert counted(n, noun) == said
    assert plural("Firework card") == "Firework cards"


@pytest.mark.parametrize("text, words", [("players / 2", ["'/' (division)", "use '//'"]),
                                         ("players ** 2", ["'**' (a power)"]), ("x.y", ["a '.' (an attribute)"])])
def test_count_errors_name_what_was_written_not_pythons_classes(text, words):
    with pytest.raises(expressions.ExpressionError) as error:
        expressions.parse_expression(text)
    assert all(word in str(error.value) for word in words)
    assert not re.search(r"\b(Div|Pow|Attribute|BinOp)\b", str(error.value))


def test_an_unquoted_hex_color_is_said_to_be_read_as_a_comment(game_copy):
    game = game_copy(TINY_GAME)
    text = (game / "game.yaml").read_text()
    color = re.search(r'- \{id: red, name: Red, meaning: Hazards, hex: "(#[0-9a-fA-F]+)", symbol: bomb\}', text)
    edit(game / "game.yaml", color.group(), f"- id: red\n    name: Red\n    meaning: Hazards\n"
                                           f"    hex: {color.group(1)}\n    symbol: bomb")
    (finding,) = findings(game, "bad-color")
    assert f"YAML read '{color.group(1)}' as a comment" in finding.message and "quotes" in finding.hint


def test_a_near_white_color_is_a_warning(game_copy):
    game = game_copy(TINY_GAME)
    text = (game / "game.yaml").read_text()
    hex_red = re.search(r'id: red, name: Red, meaning: Hazards, hex: "(#[0-9a-fA-F]+)"', text).group(1)
    edit(game / "game.yaml", hex_red, "#fafafa")
    (finding,) = findings(game, "invisible-color")
    assert "'red' (#fafafa) is all but white" in finding.message and finding.where.line > 0


def test_a_symbol_that_draws_nothing_is_an_error(game_copy):
    game = game_copy(TINY_GAME)
    (game / "symbols").mkdir()
    (game / "symbols" / "bomb.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" '
                                               'width="10" height="10"><g/></svg>')
    assert any("draws nothing" in f.message for f in load_game(game).findings)


def test_a_waiver_that_waives_nothing_is_a_warning(game_copy):
    game = game_copy(TINY_GAME)
    edit(game / "setups.yaml", "  - name: Starter\n", "  - name: Starter\n    waive:\n"
                                                   "      - {check: empty-draw-pile, reason: Not needed.}\n")
    (finding,) = findings(game, "unused-waiver")
    assert "the waiver of 'empty-draw-pile' waives nothing" in finding.message
    assert finding.where.file.endswith("setups.yaml")


def test_a_border_of_zero_draws_no_line(game_copy, tmp_path):
    def strokes(folder) -> int:
        game, _ = checked(folder)
        pdf = tmp_path / f"{folder.name}.pdf"
        pdf.write_bytes(render_sheets(game, game.cards[:1], sheet_for(game), backs=False))
        with pdfplumber.open(pdf) as document:
            return sum(1 for c in document.pages[0].curves + document.pages[0].rects if c.get("stroke"))

    plain = game_copy(TINY_GAME, "plain")
    none = game_copy(TINY_GAME, "none")
    (none / "layout.yaml").write_text("text: {border: 0}\nart: {border: 0}\n")
    assert strokes(none) < strokes(plain)


@pytest.mark.slow
def test_the_documents_use_the_games_names_and_no_number_twice(game_copy, tmp_path):
    game = game_copy(TINY_GAME)  # its Peek has a number
    loaded, report = checked(game)
    rulebook = " ".join(page_texts(documents.write_rulebook(loaded, report, tmp_path / "before")))
    assert "Number of the card" in rulebook and "Cost of the card" not in rulebook
    edit(game / "game.yaml", "title: ", "number_name: Cost\ntitle: ")
    loaded, report = checked(game)
    rulebook = " ".join(page_texts(documents.write_rulebook(loaded, report, tmp_path)))
    assert "Cost of the card" in rulebook and "Number of the card" not in rulebook
    burst, burst_report = checked(TEST_DATA / "color_burst")
    text = re.sub(r"\s+", " ", " ".join(page_texts(documents.write_rulebook(burst, burst_report, tmp_path))))
    assert "Red 1" in text and "Red 1 (1)" not in text


def test_a_pattern_counts_its_noun():
    game = load_game(CARD_DATA / "starter").game
    texts = {card.name: card.text for card in game.cards}
    assert any(text == "Worth 1 point." for text in texts.values())
    assert not any("1 points" in text for text in texts.values())


@pytest.mark.parametrize("values, whole", [([3.5, 1.5], [4, 1]), ([8, 6.88, 2], [8, 7, 2]), ([0.4, 0.4], [1, 0]),
                                           ([26.4, 8.2, 2.9], [26, 8, 3]), ([5, 5], [5, 5])])
def test_expected_counts_are_rounded_to_add_up_as_their_sum(values, whole):
    """'of which ~4 Treasures, ~2 Lands' of a deck of 5 would not add up: the parts are rounded
    together, the largest remainders rounded up."""
    assert apportioned(values) == whole and sum(whole) == round(sum(values))
