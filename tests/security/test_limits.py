"""Huge values and runaway work. Numbers have ranges, inputs have sizes, and the work a
game folder can ask for has a ceiling: each limit gives a clear message, fast.
(The loader's own limits on YAML size, nesting, counts and text are in test_yaml.py.)"""
from __future__ import annotations

import time

import pytest
from conftest import TINY_GAME

from cardgen import load
from cardgen.check import engine
from cardgen.check.game import check_game
from cardgen.errors import UsageError
from cardgen.load.schema import MAX_TEXT
from cardgen.load.setups import MAX_SETUPS
from cardgen.load.yaml_nodes import MAX_FILE_BYTES
from cardgen.publish.kinds.option_types import SheetOptions
from cardgen.publish.kinds.sheets import plan_cards
from security.conftest import attempt, checked, outputs, refused, set_card, timed
from security.test_failures import run


def test_a_setup_that_would_print_a_million_cards_is_refused_fast(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "setups.yaml").write_text(
        "setups:\n  - name: Starter\n    players: {min: 2, max: 3}\n    hand: {deal: 3}\n"
        "    copies: 1000\n    cards: {Boom: 1000, Shield: 1000, Peek: 1000, 'No': 1000}\n")
    out = tmp_path / "out"
    (code, text), seconds = timed(run, "build", folder, "--out", out)
    assert code == 1 and seconds < 10
    assert "4000000 cards to print" in text and f"limit is {engine.MAX_PRINT_CARDS}" in text
    assert outputs(out) == []
    (code, text), seconds = timed(run, "check", folder)
    assert code == 1 and "too-many-to-print" in text and seconds < 5


def test_copies_by_player_count_are_counted_too(game_copy):
    folder = game_copy(TINY_GAME)
    (folder / "setups.yaml").write_text(
        "setups:\n  - name: Starter\n    players: {min: 2, max: 3}\n    hand: {deal: 3}\n"
        "    copies: 'players * 1000'\n    cards: {Boom: 5, Shield: 4, Peek: 6, 'No': 5}\n")
    result = load.load_game(folder)
    report = check_game(result.game, result.findings)
    assert [f.code for f in report.every_finding() if f.level == "error"] == ["too-many-to-print"]


def test_a_rules_md_too_long_to_lay_out_is_refused_before_rendering(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "rules.md").write_text("# Rules\n\n" + ("Lorem ipsum dolor sit amet. " * 40 + "\n\n") * 900)
    assert 1_000_000 < (folder / "rules.md").stat().st_size < MAX_FILE_BYTES  # a legal YAML-sized file
    message, seconds = timed(attempt, "rulebook", folder, tmp_path / "out")
    assert message and "rules.md" in message and "file-too-large" in message
    assert seconds < 5


def test_too_many_setups_are_refused(game_copy):
    folder = game_copy(TINY_GAME)
    setups = "".join(f"  - {{name: S{i}, players: {{min: 2, max: 3}}, cards: {{Boom: 5}}}}\n"
                     for i in range(MAX_SETUPS + 5))
    (folder / "setups.yaml").write_text("setups:\n" + setups)
    codes = [f.code for f in load.load_game(folder).findings if f.level == "error"]
    assert codes == ["too-many-setups"]


@pytest.mark.parametrize("size", ["{width_mm: 100000, height_mm: 88}", "{width_mm: 0, height_mm: 88}",
                                  "{width_mm: .nan, height_mm: 88}"])
def test_card_sizes_have_a_range(size, game_copy):
    folder = game_copy(TINY_GAME)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("card_size: mini", f"card_size: {size}"))
    codes = [f.code for f in load.load_game(folder).findings if f.level == "error"]
    assert codes and set(codes) <= {"number-out-of-range", "wrong-type"}


@pytest.mark.parametrize("option", [{"bleed": 1000}, {"bleed": -1}, {"bleed": float("nan")},
                                    {"size": "100000x88"}, {"offset": (500, 0)}],
                         ids=["bleed-huge", "bleed-negative", "bleed-nan", "size-huge", "offset-huge"])
def test_print_options_have_a_range(option, tmp_path):
    game, _ = checked(TINY_GAME)
    start = time.monotonic()
    with pytest.raises(UsageError):  # refused when the sheet is planned, before anything is drawn
        plan_cards(game, sheet=SheetOptions(**option))
    assert time.monotonic() - start < 5
    assert outputs(tmp_path) == []


def test_text_too_long_to_fit_is_refused_fast(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    set_card(folder, "Peek", text=("A very long effect with **bold** and :bomb: symbols. " * 80)[:MAX_TEXT])
    message, seconds = timed(attempt, "cards", folder, tmp_path / "out")
    assert message and "card 'Peek'" in message and "does not fit" in message
    assert seconds < 10


LAYOUTS = {
    "zero-design": "design: {width: 0, height: 88}",
    "zero-pattern-step": "back: {pattern_step: 0}",
    "tiny-pattern-step": "back: {pattern_step: 0.001}",
    "zero-font-size": "text: {size: 0, min_size: 0}",
    "zero-leading": "text: {leading: 0}",
    "huge-font": "name: {size: 1000, min_size: 999}",
    "not-a-number": "text: {size: .inf}",
}


@pytest.mark.parametrize("case", sorted(LAYOUTS))
def test_layout_numbers_have_ranges(case, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "layout.yaml").write_text(LAYOUTS[case] + "\n")
    message, seconds = timed(refused, "cards+backs", folder, tmp_path / "out")
    assert seconds < 10
    assert "layout" in message or "does not fit" in message
