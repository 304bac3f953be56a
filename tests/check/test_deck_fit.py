"""Decks (game.yaml's decks:) as load and check see them: every card in one deck, each deck's
face and back, and the fit of each text measured at its own deck's card size."""
from __future__ import annotations

from conftest import TEST_DATA, cardgen, check, edit
from test_check_finds import assert_finding, line_of

from cardgen.load import load_game

TASK_TRICKS = TEST_DATA / "task_tricks"  # 12 poker playing cards and 6 mini task cards
# set at the shipped face's smallest size, this text fits a poker card's effect box, not a mini card's
LONG_TASK = "Win " + " ".join(["the trick with a high card"] * 10)


def test_a_task_text_that_fits_at_poker_but_not_at_mini_is_an_error_at_its_line(game_copy, capsys):
    folder = game_copy(TASK_TRICKS)
    edit(folder / "cards.yaml", '"Win the first trick."', f'"{LONG_TASK}"')
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "task_tricks/cards.yaml", line_of(folder / "cards.yaml", "First Trick"), "text-does-not-fit",
                   "card 'First Trick'", "on a 44x63 mm card (Task cards)")
    edit(folder / "game.yaml", "card_size: mini", "card_size: poker")
    code, out = check(folder, capsys)
    assert code == 0, out


def test_each_card_is_in_the_deck_it_names_else_the_first_whose_select_picks_it(tmp_path):
    game = load_game(TASK_TRICKS).game
    decks = {card.name: card.deck for card in game.cards}
    assert decks["Red 1"] == "playing" and decks["Captain"] == "tasks" and decks["First Trick"] == "tasks"
    assert game.deck_of(game.card("captain")).size_mm == (44, 63)


def test_a_card_in_no_deck_is_an_error_at_its_line(game_copy, capsys):
    folder = game_copy(TASK_TRICKS)
    edit(folder / "game.yaml", "    select: {kind: task}\n", "")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "task_tricks/cards.yaml", line_of(folder / "cards.yaml", "First Trick"), "card-in-no-deck",
                   "card 'First Trick'", "deck:")


def test_an_unknown_deck_face_or_size_is_an_error_with_a_suggestion(game_copy, capsys):
    folder = game_copy(TASK_TRICKS)
    edit(folder / "cards.yaml", "deck: tasks", "deck: task")
    edit(folder / "game.yaml", "card_size: mini", "card_size: minnie\n    face: defalt")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "task_tricks/cards.yaml", line_of(folder / "cards.yaml", "deck: task"), "unknown-deck",
                   "did you mean 'tasks'")
    assert_finding(out, "task_tricks/game.yaml", line_of(folder / "game.yaml", "minnie"), "unknown-size", "mini")
    assert_finding(out, "task_tricks/game.yaml", line_of(folder / "game.yaml", "defalt"), "unknown-face",
                   "did you mean 'default'")


def test_a_card_size_no_paper_holds_is_an_error_at_its_line_not_a_failed_build(game_copy, capsys, tmp_path):
    """In range (20 to 300 mm), but no sheet of A4 or letter holds one such card with its bleed and
    crop marks: the build stopped with a usage error naming no line."""
    folder = game_copy(TASK_TRICKS)
    edit(folder / "game.yaml", "card_size: mini", "card_size: 200x280")
    edit(folder / "game.yaml", "card_size: poker", "card_size: {width_mm: 300, height_mm: 300}")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "task_tricks/game.yaml", line_of(folder / "game.yaml", "200x280"), "unprintable-size",
                   "a 200x280 mm card with its 3 mm bleed and crop marks fits on no paper cardgen prints (a4, letter)")
    assert_finding(out, "task_tricks/game.yaml", line_of(folder / "game.yaml", "300, height_mm"), "unprintable-size",
                   "a 300x300 mm card")
    code, _, err = cardgen("build", folder, "--out", tmp_path / "out")
    assert code == 1 and "fits on no paper" in err and not (tmp_path / "out").exists()
    edit(folder / "game.yaml", "card_size: 200x280", "card_size: 180x250")  # one on a sheet of A4
    edit(folder / "game.yaml", "card_size: {width_mm: 300, height_mm: 300}", "card_size: {width_mm: 150, height_mm: 150}")
    code, out = check(folder, capsys)
    assert "unprintable-size" not in out, out


def test_a_deck_takes_its_face_and_back_where_its_cards_have_none(game_copy):
    folder = game_copy(TASK_TRICKS)
    edit(folder / "game.yaml", "    card_size: mini\n", "    card_size: 44x63\n    back: tasks\n    face: default\n")
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + "backs:\n  - {id: tasks, title: Tasks}\n")
    game = load_game(folder).game
    assert game.back_of(game.card("captain")).id == "tasks" and game.back_of(game.card("red-1")) is None
    assert game.deck_of(game.card("captain")).size_mm == (44, 63)
    assert game.card("captain").face == "default" and game.card("red-1").face is None
