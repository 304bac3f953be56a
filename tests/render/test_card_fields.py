"""A game's own card fields in the documents: the rulebook's card chapter and the cheat sheet show
each card's values under the fields' display names."""
from __future__ import annotations

import io
import re

import pdfplumber
import pytest
from conftest import TEST_DATA, checked, edit, page_texts

from cardgen.load import load_game
from cardgen.render import card_images, documents
from cardgen.render.documents.cheatsheet import write_cheatsheet

CREATURES = TEST_DATA / "creature_mini"


def flat(pages: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(pages))


@pytest.mark.slow
def test_the_rulebook_shows_a_cards_fields_under_their_display_names(tmp_path):
    game, report = checked(CREATURES)
    text = flat(page_texts(documents.write_rulebook(game, report, tmp_path)))
    assert "Cost 5 · Attack 5 · Health 4 · Type Creature · Rarity epic · Keywords flying, haste · Token no" in text
    assert "Deal 1 damage." in text  # Ember Imp's "Deal {attack} damage."


def test_the_cheat_sheet_shows_the_fields_and_does_not_merge_cards_whose_fields_differ(tmp_path):
    game, report = checked(CREATURES)
    write_cheatsheet(game, report, tmp_path)
    text = flat(page_texts(tmp_path / "cheatsheet.pdf"))
    assert "Cost 7 · Attack 7 · Health 7 · Type Creature · Rarity legendary" in text
    assert "Cost 1 · Attack 0 · Health 3" in text  # Tide Crab: no text, a row of its own all the same


def test_a_text_field_keeps_its_markup_and_symbols_in_the_documents(game_copy, tmp_path):
    folder = game_copy(CREATURES)
    edit(folder / "cards.yaml", "    type_line: Spell\n    rarity: rare", "    type_line: \"**Spell** :bomb:\"\n    rarity: rare")
    game, report = checked(folder)
    write_cheatsheet(game, report, tmp_path)
    text = flat(page_texts(tmp_path / "cheatsheet.pdf"))
    assert "Type Spell" in text and "**" not in text


def test_a_face_shows_the_games_own_fields(game_copy):
    folder = game_copy(CREATURES)
    (folder / "layout.yaml").write_text(
        "faces:\n  creature:\n    extends: default\n    for: type_line == Creature\n    elements:\n"
        '      - {id: cost, text: "{cost}", line: true, x: 6, y: 6, width: 8, height: 8, font: heavy, size: 14}\n'
        '      - {id: stats, text: "{attack}/{health}", line: true, x: 44, y: 76, width: 12, height: 6, font: heavy, '
        "size: 12}\n", encoding="utf-8")
    game = load_game(folder).game
    with pdfplumber.open(io.BytesIO(card_images.face_pdf(game, game.card("inferno-drake")))) as pdf:
        assert pdf.pages[0].extract_text().split() == ["5", "Inferno", "Drake", "5/4"]
