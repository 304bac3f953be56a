"""A game whose hand size, coins and win target depend on the player count (tests/data/courtly_coins,
a 16-card deduction game with a coin treasury): it checks clean, and its rulebook, the checklist of
every player count and its cheat sheet state the engine's numbers. Mistakes in those counts are
check errors at file:line."""
from __future__ import annotations

import re
import shutil

import pytest
from conftest import TEST_DATA, check, edit, page_lines, report_for
from test_check_finds import assert_finding, line_of

from cardgen import cli

GAME = TEST_DATA / "courtly_coins"
HAND = {2: 3, 3: 2, 4: 1}
COINS = {2: 24, 3: 26, 4: 28}  # 20 + 2 * players
TO_WIN = {2: 7, 3: 5, 4: 4}


def pdf_text(path) -> str:
    return "\n".join(page_lines(path))


def run(*args: str) -> None:
    assert cli.main(list(args)) == 0


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    """The rulebook, the checklists' page of each player count and the cheat sheet, built once by
    `cardgen build` (each count deals a different hand here: a page of its own)."""
    out = tmp_path_factory.mktemp("courtly")
    run("build", str(GAME), "--out", str(out))
    texts = {"rulebook": pdf_text(out / "rulebook.pdf"), "cheatsheet": pdf_text(out / "cheatsheet.pdf")}
    pages = page_lines(out / "checklists.pdf")
    for players in HAND:
        [texts[players]] = [page for page in pages if f"Set up for {players} players" in page]
    return texts


def row(*values) -> str:
    return " ".join(str(v) for v in values)


def test_the_game_checks_clean(capsys):
    code, out = check(GAME, capsys)
    assert code == 0
    assert "ok: 0 errors, 0 warnings" in out


@pytest.mark.slow
def test_the_rulebook_gives_the_hand_by_player_count_the_components_and_the_win_target(documents):
    text = documents["rulebook"]
    assert "Each player starts with:" in text
    for players, hand in HAND.items():
        assert f"{players} players {hand} card{'s' if hand > 1 else ''}\n" in text
    assert "• 13 Tokens of Affection: one for the winner of each round" in text
    assert "Coins: " + ", ".join(f"{n} with {p} players" for p, n in COINS.items()) + ": the treasury" in text
    assert row("Each hand", *HAND.values()) in text
    assert row("Tokens of Affection to win", *TO_WIN.values()) in text
    assert row("Coins", *COINS.values()) in text
    assert row("Coins each", 2, 2, 2) in text


@pytest.mark.parametrize("players", HAND)
def test_each_checklist_has_the_exact_counts_of_its_player_count(documents, players):
    text = documents[players]
    hand = HAND[players]
    cards = f"{hand} card{'s' if hand > 1 else ''}"
    assert f"Each hand {cards}" in text and f"Each hand {cards} (" not in text  # said once: nothing more to it
    assert f"→ {cards} to each player" in text
    assert re.search(r"Tokens of Affection 13\b", text)
    assert re.search(rf"Coins {COINS[players]}\b", text)
    assert f"To win {TO_WIN[players]} Tokens of Affection" in text
    assert f"Each player 2 Coins ({COINS[players] - 2 * players} stay in the supply)" in text


def test_the_cheat_sheet_gives_the_figures_by_player_count(documents):
    text = documents["cheatsheet"]
    assert row("Each hand", *HAND.values()) in text
    assert row("Tokens of Affection to win", *TO_WIN.values()) in text
    assert row("Coins", *COINS.values()) in text
    assert row("Set aside", 3, 0, 0) in text  # face up with two players
    assert "back in the box 1, coins each 2 at every player count" in text


# --------------------------------------------------------------------------- mistakes, found at check


@pytest.fixture
def courtly(tmp_path):
    return shutil.copytree(GAME, tmp_path / "courtly_coins")


CASES = {  # (file, text, replacement, the finding's file, the text of its line, code, words of the finding)
    "hand table without a player count": (
        "setups.yaml", "{2: 3, 3: 2, 4: 1}", "{2: 3, 3: 2}", "setups.yaml", "hand:", "bad-expression",
        ["4 players", "hand: deal", "no entry for 4 players"]),
    "hand table with a bad key": (
        "setups.yaml", "3: 2, 4", "three: 2, 4", "setups.yaml", "hand:", "not-a-whole-number", ["player count", "three"]),
    "hand using itself": (
        "setups.yaml", "{2: 3, 3: 2, 4: 1}", "hand + 1", "setups.yaml", "hand:", "bad-expression", ["cannot use hand"]),
    "hand used but not given": (
        "setups.yaml", "    hand: {deal: {2: 3, 3: 2, 4: 1}}\n", "", "game.yaml", "count: hand", "bad-expression",
        ["'hand' has no value", "no hand: deal"]),
    "extras table without a player count": (
        "setups.yaml", "4: 1}}", "4: 1}, extras: {Guard: {2: 1, 3: 1}}}", "setups.yaml", "hand:", "bad-expression",
        ["4 players", "hand: extras", "no entry for 4 players"]),
    "negative component count": (
        "game.yaml", "count: 13", "count: -13", "game.yaml", "count: -13", "number-out-of-range", ["at least 0"]),
    "component count below 0 at some player count": (
        "game.yaml", "count: 20 + 2 * players", "count: 10 - 3 * players", "game.yaml", "count: 10 - 3", "negative-count",
        ["4 players", "component 'coins'", "-2"]),
    "component table without a player count": (
        "game.yaml", "to_win: {2: 7, 3: 5, 4: 4}", "to_win: {2: 7, 3: 5}", "game.yaml", "to_win:", "bad-expression",
        ["4 players", "tokens", "no entry for 4 players"]),
    "more for each player than there are": (
        "game.yaml", "each: 2", "each: 8", "game.yaml", "each: 8", "not-enough-components",
        ["4 players", "32 in all", "has 28"]),
    "unknown component in a check": (
        "game.yaml", "on: coins", "on: coin", "game.yaml", "on: coin", "unknown-pile", ["'coin'", "did you mean 'coins'"]),
    "components added to cards": (
        "game.yaml", "on: coins", "on: [coins, hand]", "game.yaml", "on: [coins", "bad-check", ["separately"]),
}


@pytest.mark.parametrize("case", CASES)
def test_a_mistake_in_a_count_is_a_check_error_at_its_line(courtly, capsys, case):
    file, old, new, found_in, at, code, words = CASES[case]
    edit(courtly / file, old, new)
    exit_code, out = check(courtly, capsys)
    assert exit_code == 1
    assert_finding(out, f"courtly_coins/{found_in}", line_of(courtly / found_in, at), code, *words)


def test_a_check_on_a_component_counts_it_at_every_player_count(courtly, capsys):
    edit(courtly / "game.yaml", "at_least: 2 * players + 20", "at_least: 2 * players + 21")
    exit_code, out = check(courtly, capsys)
    assert exit_code == 1
    for players, coins in COINS.items():  # reported, like a pile check, at the setup that fails it
        assert re.search(rf"setups\.yaml:2:\d+: error: Court, {players} players: the number of Coins is {coins}, "
                         rf"expected at least {coins + 1}\. Twenty coins .* \[treasury\]", out), out


def test_extras_by_player_count_join_the_starting_deck(courtly):
    edit(courtly / "setups.yaml", "4: 1}}", "4: 1}, extras: {Guard: {2: 2, 3: 1, 4: 0}}}")
    report = report_for(courtly).setup("Court")
    for players, extra in {2: 2, 3: 1, 4: 0}.items():
        played = report.player_count(players)
        assert played.starting_deck["guard"] == 5 + extra * players
        assert played.hand == HAND[players]
