"""The three games written from the docs alone (a 108-card CSV game, a cooperative game with hands
by player count and tokens, a deck-builder with a supply) build with complete documents: every
card group and total on the checklists, every cheat-sheet section on the sheet and the pocket
copies, read back from the PDFs."""
from __future__ import annotations

import re

import pytest
from conftest import TEST_DATA, checked, page_texts

# Color Burst's 108 cards make its rulebook and cheat sheets some 5 s of WeasyPrint: the whole suite
# reads them, `-m "not slow"` the two smaller games' (the same documents, the same checks).
GAMES = (pytest.param("color_burst", marks=pytest.mark.slow), "starlight", "market_day")


def flat(path) -> str:
    return re.sub(r"\s+", " ", " ".join(page_texts(path)))


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_a_new_game_builds_with_complete_documents(name, data_document):
    game, report = checked(TEST_DATA / name)
    assert not report.has_errors
    checklists = flat(data_document(name, "checklists.pdf"))
    for color in game.colors:
        assert color.name in checklists
    for card in game.cards:
        assert card.name in checklists, card.name
    total = sum(line.count or 0 for line in game.setups[0].lines)
    assert f"All cards gathered {total}" in checklists
    sheet, pocket = flat(data_document(name, "cheatsheet.pdf")), flat(data_document(name, "cheatsheet-pocket.pdf"))
    for section in game.cheatsheet.sections:
        assert section.title.upper() in sheet.upper()
        for item in section.items:
            assert item in sheet
    copies = pocket.count(game.title)  # each pocket copy holds every card
    assert copies >= 1
    for card in game.cards:
        assert card.name in sheet and pocket.count(card.name) >= copies, card.name
    assert pocket.upper().count(game.cheatsheet.sections[0].title.upper()) == copies
    rulebook = flat(data_document(name, "rulebook.pdf"))
    assert all(card.name in rulebook for card in game.cards)
