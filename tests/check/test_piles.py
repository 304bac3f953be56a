"""Piles as the engine's general model: a deck-builder's own decks and supply, a face-up discard
pile, deals to a pile other than the hands, checks on the piles players draw from only, and
every engine check waivable by its code."""
from __future__ import annotations

import re

import pytest
from conftest import TEST_DATA, check, checked, edit, page_texts, report_for

from cardgen.render import documents

MARKET_DAY = TEST_DATA / "market_day"
COLOR_BURST = TEST_DATA / "color_burst"
SUPPLY = {  # card -> supply at 2, 3 and 4 players (the lands by player count, Coins less the starting decks)
    "Coin": [46, 39, 32], "Silver": [40, 40, 40], "Gold": [30, 30, 30],
    "Field": [8, 12, 12], "Farm": [8, 12, 12], "Castle": [8, 12, 12],
    "Village": [10, 10, 10], "Smithy": [10, 10, 10], "Market": [10, 10, 10],
}
BOX = [18, 3, 0]  # Fields, Farms and Castles left over: 24 - 3 x players - 8/12/12, 12 - 8/12/12 twice


@pytest.fixture(scope="module")
def market():
    return checked(MARKET_DAY)


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_a_deck_builder_starts_each_player_with_their_own_deck(market):
    game, report = market
    setup = report.setup("First Game")
    assert setup.all_findings() == []
    for played in setup.players:
        assert played.dealt_per_player == 5
        assert played.piles["own_deck"] / played.players == 5
        assert played.draw_pile == 0  # nobody draws from a shared pile
        assert played.set_aside == BOX[played.players - 2]


def test_the_supply_is_counted_card_by_card_per_player_count(market):
    game, report = market
    setup = report.setup("First Game")
    for card_id, counts in SUPPLY.items():
        card = game.card(card_id.lower())
        assert [p.pile_cards["supply"].get(card.id, 0) for p in setup.players] == counts, card_id


@pytest.mark.slow
def test_the_documents_describe_the_starting_decks_and_supply_truthfully(market, tmp_path, data_document):
    game, report = market
    rulebook = flat(" ".join(page_texts(data_document(MARKET_DAY.name, "rulebook.pdf"))))
    assert "Each player starts with 10 cards: 5 in hand, 5 in their deck." in rulebook
    assert "Left in the box " + " ".join(map(str, BOX)) in rulebook
    assert "Supply: players 2 3 4" in rulebook
    for card, counts in SUPPLY.items():
        assert f"{card} {' '.join(map(str, counts))}" in rulebook
    assert "Set aside" not in rulebook and "Draw pile" not in rulebook
    checklist = flat(" ".join(page_texts(
        documents.write_checklists(game, report, tmp_path, players=2))))
    assert "Give each player 7 Coins and 3 Fields as their own deck. → 10 cards to each player" in checklist
    assert "Each player's deck 5 cards of which ~4 Treasures, ~1 Land" in checklist  # the parts add up to 5
    assert "Supply 170 cards Coin 46 · Silver 40 · Gold 30 · Field 8" in checklist
    assert "Left in the box 18 cards" in checklist



def test_a_draw_pile_that_is_empty_is_an_error_naming_the_pile_and_waivable_by_its_code(game_copy):
    folder = game_copy(MARKET_DAY)
    edit(folder / "game.yaml", "  - {id: deck, name: Left in the box, role: box}\n", "")
    (finding, *_) = [f for f in report_for(folder).every_finding() if f.code == "empty-draw-pile"]
    assert finding.level == "error" and "Draw pile is empty after setup" in finding.message
    edit(folder / "setups.yaml", "    hand: {deal: 5}\n",
          "    hand: {deal: 5}\n    waive:\n      - {check: empty-draw-pile, reason: The box is not drawn from.}\n")
    waived = [f for f in report_for(folder).every_finding() if f.code == "empty-draw-pile"]
    assert waived and all(f.level == "info" and "The box is not drawn from." in f.message for f in waived)


@pytest.mark.parametrize("role", ["bogus", "drw", "true", '""', "null"])
def test_a_pile_role_that_is_none_of_the_roles_is_an_error_at_its_line(game_copy, capsys, role):
    folder = game_copy(MARKET_DAY)
    edit(folder / "game.yaml", "  - {id: deck, name: Left in the box, role: box}",
         f"  - {{id: deck, name: Left in the box, role: {role}}}")
    code, said = check(folder, capsys)  # the text report too, which lists the piles in their roles' order
    assert code == 1
    [line] = [line for line in said.splitlines() if "[bad-role]" in line]
    shown = {'""': "", "null": ""}.get(role, role)
    assert re.search(rf"game\.yaml:\d+:\d+: error: role '{shown}' is not one of draw, supply, discard, aside, box", line)
    assert ("did you mean 'draw'?" in said) == (role == "drw")


def test_each_players_draw_pile_is_checked_by_its_name(game_copy):
    folder = game_copy(MARKET_DAY)
    edit(folder / "game.yaml", "count: hand}", "count: 10}")
    findings = [f for f in report_for(folder).every_finding() if f.code == "empty-draw-pile"]
    assert findings and all("Deck (each player) is empty" in f.message for f in findings)


@pytest.mark.slow
def test_a_face_up_discard_card_is_the_discard_pile_not_set_aside(data_document):
    text = flat(" ".join(page_texts(data_document(COLOR_BURST.name, "checklists.pdf"))))
    assert "Discard pile 1 card" in text and "Set aside" not in text
    assert "Each hand 7 cards" in text


@pytest.mark.slow
def test_kind_counts_a_player_reads_are_whole_and_plural(data_document):
    text = flat(" ".join(page_texts(data_document(COLOR_BURST.name, "checklists.pdf"))))
    assert "of which ~26 Number cards, ~8 Action cards, ~3 Wild cards (~: expected after shuffling)" in text
    assert not re.search(r"\d\.\d", text.replace("v1.0", ""))


def test_a_count_left_to_chance_is_expected_even_when_whole_and_a_count_kept_out_of_the_deal_is_exact():
    """Exploding Puppy at 8 players: the hands are dealt from the shuffled deck without its Puppies
    and Defuses, so the draw pile holds exactly 8 Puppies and 2 Defuses, and 10 Dogs only on
    average (25 Dogs x 32 of the 80 cards dealt from): an expectation, though a whole one. A deal
    from a pile of one kind leaves that kind's count exact (Task Tricks' deck)."""
    basic = report_for("exploding_puppy").setup("Basic")
    eight = next(p for p in basic.players if p.players == 8)
    assert eight.pile_kinds["deck"]["dog"] == 10 and eight.pile_kinds["deck"]["puppy"] == 8
    assert eight.expected_kinds["deck"] == {"dog", ""} and all(s.expected_kinds["hands"] == {"dog", ""} for s in eight.seats)
    tricks = report_for(TEST_DATA / "task_tricks").setups[0].players[0]
    assert tricks.pile_kinds["deck"] == {"suit": 3} and tricks.expected_kinds["deck"] == frozenset()


def test_the_checklists_mark_a_whole_expected_count_as_expected(puppy_checklists):
    _, _, pdf = puppy_checklists
    pages = [flat(text) for text in page_texts(pdf)]
    basic_for_eight = next(text for text in pages if "deck-setup checklist Basic" in text and "Set up for 8 players" in text)
    assert "of which 8 Puppies, ~10 Dogs, 2 Defuses (~: expected after shuffling)" in basic_for_eight


def test_a_pile_of_one_kind_alone_gets_no_breakdown_a_pile_of_several_does(data_document):
    """Task Tricks' draw pile holds playing cards only: 'of which 3 Playing cards' would say the
    count again. Color Burst's holds three kinds and says which."""
    alone = flat(" ".join(page_texts(data_document("task_tricks", "checklists.pdf"))))
    assert "Draw pile 3 cards" in alone and "of which" not in alone
    several = flat(" ".join(page_texts(data_document(COLOR_BURST.name, "checklists.pdf"))))
    assert "of which ~26 Number cards" in several


def test_a_pile_emptied_and_filled_again_counts_its_new_cards_afresh(game_copy):
    """Two Booms are set aside, the hands are dealt at random from the deck (how many Booms stay
    in it is chance), the rest of the deck goes to the box, and the two Booms come back: the deck
    holds two Booms for certain, not two on average."""
    folder = game_copy()
    steps = """setup:
  steps:
    - move: {from: deck, to: hazards, select: {kind: hazard}, count: 2}
    - deal: {from: deck, count: hand}
    - move: {from: deck, to: box}
    - move: {from: hazards, to: deck}
checks:"""
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text[:text.index("setup:")] + steps + text.split("checks:", 1)[1], encoding="utf-8")
    for played in report_for(folder).setups[0].players:
        assert played.pile_kinds["deck"] == {"hazard": 2} and played.expected_kinds["deck"] == frozenset()
        assert {"hazard", "shield", ""} <= played.expected_kinds["box"]  # what the box holds of each is chance
