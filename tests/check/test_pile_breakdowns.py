"""Each pile's breakdown by kind counts that pile only: for every shipped game and every test game,
at every player count of every setup, the breakdown of each pile (and of each seat's hand and own
piles) sums to that pile's size, and the rows every document prints say the same."""
from __future__ import annotations

import pytest
from conftest import CARD_DATA, TEST_DATA, checked

from cardgen.check.tables import pile_rows
from cardgen.render.documents.cheatsheet import setup_table

GAMES = sorted(p for root in (CARD_DATA, TEST_DATA) for p in root.iterdir() if (p / "game.yaml").is_file()
               and p.name != "broken")


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_each_piles_breakdown_by_kind_sums_to_that_pile(folder):
    game, report = checked(folder)
    for setup in report.setups:
        for played in setup.players:
            where = f"{setup.setup.name}, {played.players} players"
            assert set(played.pile_kinds) == set(played.piles), where
            for pile, size in played.piles.items():
                assert sum(played.pile_kinds[pile].values()) == pytest.approx(size, abs=1e-6), f"{where}: {pile}"
            for seat in played.seats:
                sizes = {"hands": seat.hand, **seat.piles}
                assert set(seat.kinds) == set(sizes)
                for pile, size in sizes.items():
                    assert sum(seat.kinds[pile].values()) == pytest.approx(size, abs=1e-6), f"{where}: {seat.seat}"
            assert sum(s.hand for s in played.seats) == pytest.approx(played.piles["hands"], abs=1e-6)
        for row in pile_rows(game, setup):
            for value, kinds in zip(row.values, row.kinds):
                assert sum(kinds.values()) == pytest.approx(value or 0.0, abs=1e-6), f"{setup.setup.name}: {row.label}"


def test_two_draw_piles_each_have_their_own_breakdown(game_copy):
    """Two shared draw piles, one per color: each pile's breakdown is its own cards, not both piles',
    and the cheat sheet's table gives each pile its own rows once."""
    folder = game_copy(TEST_DATA / "faction_duel")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    text = text.replace("  - {id: library, name: Deck, role: draw, each_player: true}\n",
                        "  - {id: fire_deck, name: Fire deck, role: draw}\n  - {id: water_deck, name: Water deck, role: draw}\n")
    start = text.index("    - deal: {from: deck, to: library")
    end = text.index("    - set:")
    text = text[:start] + ("    - move: {from: deck, to: fire_deck, select: {color: fire}}\n"
                           "    - move: {from: deck, to: water_deck, select: {color: water}}\n"
                           "    - deal: {from: reserve, seat: 2, select: {card: Spark}}\n") + text[end:]
    game_yaml.write_text(text, encoding="utf-8")
    game, report = checked(folder)
    played = report.setups[0].players[0]
    assert played.pile_kinds["fire_deck"] == {"creature": 6, "spell": 2}
    assert played.pile_kinds["water_deck"] == {"creature": 6, "spell": 3}
    rows = {row.label: row.kinds[0] for row in pile_rows(game, report.setups[0])}
    assert rows["Fire deck"] == {"creature": 6, "spell": 2} and rows["Water deck"] == {"creature": 6, "spell": 3}
    sheet = [(row.label, row.values) for row in setup_table(game, report.setups[0], "").rows]
    start = sheet.index(("Fire deck", ["8"]))
    assert sheet[start:start + 6] == [("Fire deck", ["8"]), ("Creatures", ["6"]), ("Spells", ["2"]),
                                      ("Water deck", ["9"]), ("Creatures", ["6"]), ("Spells", ["3"])]
