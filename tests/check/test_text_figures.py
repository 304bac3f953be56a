"""The text lint reads every text with numbers against the engine's figures: the setup steps'
texts, "deals 7 cards" and component counts and win targets in rules.md; and it takes a quoted
sentence for a sentence, not for a card name."""
from __future__ import annotations

import pytest
from conftest import TEST_DATA, edit, report_for

STARLIGHT = TEST_DATA / "starlight"


def text_findings(folder) -> list:
    return [f for f in report_for(folder).every_finding() if f.code.startswith("text-")]



def test_the_cooperative_game_states_its_figures_truthfully():
    assert text_findings(STARLIGHT) == []


def test_a_step_text_contradicting_its_count_at_some_player_count_is_found(game_copy):
    folder = game_copy(STARLIGHT)
    edit(folder / "game.yaml", "text: Deal each player their hand, held", "text: Deal 5 cards to each player, held")
    (finding,) = text_findings(folder)
    assert finding.message.startswith("setup step 2: says 'Deal 5 cards', but the step deals Display at 4 players: 4")
    assert finding.where.file.endswith("game.yaml") and finding.where.line > 0


@pytest.mark.parametrize("old, new, words", [
    ("deals 5 cards to every player", "deals 7 cards to every player", ["'deals 7 cards'", "Display deals 4, 5"]),
    ("starts with 8 Clue tokens", "starts with 9 Clue tokens", ["'9 Clue tokens'", "the game has 8"]),
    ("needs 20 Stars to win", "needs 30 Stars to win", ["'30 Stars'", "needs to win 20 or 25"]),
], ids=["deal", "component-count", "win-target"])
def test_rules_md_figures_are_read_against_the_engine(game_copy, old, new, words):
    folder = game_copy(STARLIGHT)
    edit(folder / "rules.md", old, new)
    (finding,) = text_findings(folder)
    assert finding.where.file.endswith("rules.md") and all(word in finding.message for word in words), finding


def test_a_quoted_sentence_is_not_a_card_name(game_copy):
    folder = game_copy(STARLIGHT)
    edit(folder / "rules.md", "Build five fireworks", 'Say "This card is a 5" to give a clue. Build five fireworks')
    assert text_findings(folder) == []
    # the same sentence naming a card that is not there, unquoted, is read and found
    edit(folder / "rules.md", 'Say "This card is a 5"', "Say the Purple Card is a 5")
    (finding,) = text_findings(folder)
    assert finding.code == "text-unknown-name" and "'Purple Card' names no card" in finding.message
