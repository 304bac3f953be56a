"""The documents say what the engine computed seat by seat (the two-player battler
tests/data/faction_duel), show the steps that are not card moves in place, and leave out a step
that does nothing in a setup (Exploding Puppy's Darkness deals no Defuse)."""
from __future__ import annotations

import re

import pytest
from conftest import TEST_DATA, checked, page_texts, report_for

from cardgen.render import documents


def flat(pages: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(pages))


@pytest.fixture(scope="module")
def duel():
    return checked(TEST_DATA / "faction_duel")


def test_the_checklist_says_each_seats_hand_and_deck(duel, tmp_path):
    game, report = duel
    text = flat(page_texts(documents.write_checklists(game, report, tmp_path)))
    assert "First player's hand 3 cards (8 cards: 3 in hand, 5 in their deck)" in text
    assert "Second player's hand 5 cards (10 cards: 4 cards and 1 Spark in hand, 5 in their deck)" in text
    # each seat's own deck, broken down by its own cards: Fire 6 : 2 less 3 drawn, Water 6 : 3 less 4
    assert re.search(r"First player's deck 5 cards of which ~4 Creatures, ~1 Spell\b", text)
    assert re.search(r"Second player's deck 5 cards of which ~3 Creatures, ~2 Spells\b", text)
    assert "Each hand" not in text and "Each player's deck" not in text


def test_the_checklist_shows_every_step_in_order_with_each_seats_numbers(duel, tmp_path):
    game, report = duel
    text = flat(page_texts(documents.write_checklists(game, report, tmp_path)))
    steps = ["Set the Spark aside.",
             "Each player takes the deck of their faction and shuffles it. → 8 cards to the first player, "
             "9 cards to the second player",
             "Choose the first player at random.",
             "Each player draws from their own deck. → 3 cards to the first player, 4 cards to the second player",
             "The second player takes the Spark. → 1 card to the second player",
             "Each player sets their health counter to 20. → Health counters: 20 each",
             "Place your deck face down on your side of the table."]
    places = [text.find(step) for step in steps]
    assert -1 not in places, [s for s, p in zip(steps, places) if p < 0]
    assert places == sorted(places)
    assert "Each player's Health counters 20 at the start" in text


def test_the_rulebook_says_each_seats_start_and_the_steps(duel, tmp_path):
    game, report = duel
    text = flat(page_texts(documents.write_rulebook(game, report, tmp_path)))
    assert ("First player: 8 cards: 3 in hand, 5 in their deck. Second player: 10 cards: 4 cards and 1 Spark in "
            "hand, 5 in their deck.") in text
    assert "Each player starts with" not in text
    for row in ("First player's hand 3", "Second player's hand 5", "First player's deck 5", "Second player's deck 5",
                "Health counters at the start 20"):
        assert row in text
    steps = ["Each player takes the deck of their faction", "Choose the first player at random.",
             "Each player draws from their own deck.", "Each player sets their health counter to 20.",
             "Place your deck face down on your side of the table."]
    places = [text.find(step) for step in steps]
    assert -1 not in places and places == sorted(places)


@pytest.mark.slow
def test_the_darkness_checklist_deals_no_defuse(tmp_path):
    report = report_for("exploding_puppy")
    darkness = flat(page_texts(documents.write_checklists(report.game, report, tmp_path, setup="Darkness")))
    assert "Darkness" in darkness
    assert "deal each player a Defuse" not in darkness and "nothing to deal" not in darkness
    basic = flat(page_texts(documents.write_checklists(report.game, report, tmp_path, setup="Basic")))
    assert "Then deal each player a Defuse card. → 1 Defuse to each player" in basic
