"""Balance figures per setup and player count: worked out by hand from Basic's printed table and
the setup procedure, then compared with the engine's figures, `check --json` and the rulebook."""
from __future__ import annotations

import json

import pytest
from conftest import cardgen, report_for

from cardgen.load import load_game

# Basic's table: 90 cards, of which 8 puppies (6 Exploding, 1 Imploding, 1 Confusing; role losing)
# and 2 Defuse (role saving); every player is also dealt 1 Defuse. The procedure takes out the
# black cards and Defuses, deals each player 1 Defuse and 6 cards, sets 10 aside per player below
# 7, then shuffles the 8 black cards and 2 Defuses in.
NON_BLACK_NON_DEFUSE = 90 - 8 - 2


def hand_figures(players: int) -> dict:
    pile = NON_BLACK_NON_DEFUSE - 6 * players - 10 * max(0, 7 - players) + 8 + 2
    losing = 8
    return {"draw_pile": pile, "first_draw_loses": losing / pile,
            "draws_before_losing": (pile - losing) / (losing + 1),
            "saving_in_hand": 1, "saving_in_draw_pile": 2}


@pytest.mark.parametrize("players", [3, 8])
def test_basic_balance_matches_the_hand_computation(players):
    balance = report_for("exploding_puppy").setup("Basic").player_count(players).balance
    expected = hand_figures(players)
    # 3 players: 80 - 18 - 40 + 10 = 32 cards, 8 puppies; 8 players: 80 - 48 - 0 + 10 = 42
    assert balance.draw_pile == expected["draw_pile"] == {3: 32, 8: 42}[players]
    assert balance.first_draw_loses == pytest.approx(expected["first_draw_loses"])
    assert balance.draws_before_losing == pytest.approx(expected["draws_before_losing"])
    assert balance.saving_in_hand == expected["saving_in_hand"]
    assert balance.saving_in_draw_pile == expected["saving_in_draw_pile"]


def test_a_setup_without_saving_cards_shows_none():
    darkness = report_for("exploding_puppy").setup("Darkness").player_count(3).balance
    assert (darkness.saving_in_hand, darkness.saving_in_draw_pile) == (0, 0)
    assert darkness.losing == 5  # the Imploding Puppys


def test_roles_come_from_the_data(game_copy):
    folder = game_copy("exploding_puppy")
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("    role: losing\n", ""))
    assert all(p.balance is None for p in report_for(folder).setup("Basic").players)


def test_check_json_and_text_show_the_figures():
    code, out, _ = cardgen("check", "exploding_puppy", "--json")
    assert code == 0
    basic = json.loads(out)["setups"][0]
    three = next(p for p in basic["players"] if p["players"] == 3)
    assert three["balance"]["first_draw_loses"] == 0.25
    assert three["balance"]["draws_before_losing"] == round(24 / 9, 2)
    text = cardgen("check", "exploding_puppy")[1]
    assert "1st draw loses" in text and "25%" in text


def test_an_unknown_role_is_an_error_with_its_place(game_copy):
    folder = game_copy("exploding_puppy")
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("    role: saving\n", "    role: saves\n"))
    finding = next(f for f in load_game(folder).findings if f.code == "bad-role")
    assert "'saves'" in finding.message and finding.where.file.endswith("game.yaml") and finding.where.line
