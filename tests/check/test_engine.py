"""The rules engine: setup procedures played out per player count, checks from the game's data."""
from __future__ import annotations

import re

import pytest
from conftest import report_for


@pytest.fixture(scope="module")
def puppy():
    return report_for("exploding_puppy")


def codes(findings, level=None):
    return sorted(f.code for f in findings if level in (None, f.level))


def test_basic_follows_the_rule_of_thumb_and_raises_nothing(puppy):
    basic = puppy.setup("Basic")
    assert basic.total == 90
    assert basic.by_kind["puppy"] == 8 and basic.by_kind["defuse"] == 2
    assert basic.all_findings() == []


def test_basic_played_out_for_three_and_eight_players(puppy):
    basic = puppy.setup("Basic")
    three = basic.player_count(3)
    # 80 non-black, non-defuse cards - 3 x 6 dealt - 40 set aside + 8 black + 2 Defuse
    assert (three.dealt_per_player, three.draw_pile) == (7, 32)
    assert three.piles["box"] == 40
    assert three.draw_by_kind["puppy"] == 8 and three.draw_by_kind["defuse"] == 2
    eight = basic.player_count(8)
    assert (eight.draw_pile, eight.piles["box"]) == (42, 0)


def test_print_counts_include_the_defuse_each_player_is_dealt(puppy):
    basic = puppy.setup("Basic")
    assert basic.print_counts["defuse"] == 2 + 8
    assert basic.print_total == 98
    life = puppy.setup("Life and Death")
    assert life.print_counts["defuse"] == 8 and life.print_counts["demonic-defuse"] == 2


def test_departures_from_the_rule_of_thumb_are_warnings_with_numbers(puppy):
    default = puppy.setup("Default")
    (warning,) = default.all_findings()
    assert (warning.level, warning.code) == ("warning", "total-cards")
    assert "89" in warning.message and "90" in warning.message
    assert codes(puppy.setup("Mind Games").all_findings()) == ["total-cards"]
    assert codes(puppy.setup("Fight").all_findings()) == ["total-cards"]
    assert codes(puppy.setup("Life and Death").all_findings()) == ["puppy-count"]


def test_a_setup_can_waive_a_guideline_with_a_reason(puppy):
    darkness = puppy.setup("Darkness")
    assert codes(darkness.all_findings(), "warning") == ["puppy-count", "total-cards"]
    (info,) = [f for f in darkness.all_findings() if f.level == "info"]
    assert info.code == "defuse-count" and "unnecessary" in info.message
    assert darkness.player_count(5).dealt_per_player == 6


def test_too_few_puppies_to_end_the_game_is_an_error(game_copy):
    folder = game_copy("exploding_puppy")
    text = (folder / "setups.yaml").read_text()
    (folder / "setups.yaml").write_text(re.sub(r'"?Exploding Puppy"?: 6', "Exploding Puppy: 1", text, count=1))
    report = report_for(folder)
    basic = report.setup("Basic")
    errors = [f for f in basic.all_findings() if f.code == "enough-puppies"]
    # 3 puppies remain: fine up to 4 players, an error for 5 to 8
    assert len(errors) == 4 and "5 players" in errors[0].message
    assert report.has_errors


def test_a_different_game_needs_no_code(game_copy):
    report = report_for(game_copy())
    starter = report.setup("Starter")
    two, three = starter.player_count(2), starter.player_count(3)
    # 15 non-hazards - 2 shields - 6 dealt - 4 boxed + 3 hazards
    assert (two.dealt_per_player, two.draw_pile, two.piles["box"]) == (4, 6, 4)
    assert two.draw_by_kind == {"hazard": 3, "shield": pytest.approx(4 - 2 - 6 * 2 / 13 - 4 * (2 - 12 / 13) / 7)}
    assert (three.draw_pile, three.draw_by_kind["hazard"]) == (5, 4)
    assert not report.has_errors


def test_unknown_counts_are_findings_not_crashes(game_copy):
    folder = game_copy()
    text = (folder / "setups.yaml").read_text()
    (folder / "setups.yaml").write_text(text.replace("Peek: 6", "Peek: null"))
    report = report_for(folder)
    starter = report.setup("Starter")
    assert starter.total == 14 and starter.unknown_counts == ["Peek"]
    assert "unknown-count" in codes(starter.all_findings(), "warning")


def test_copies_scale_the_table_with_the_player_count(game_copy):
    folder = game_copy()
    text = (folder / "setups.yaml").read_text()
    (folder / "setups.yaml").write_text(text.replace("hand: {deal: 3}", 'hand: {deal: 3}\n    copies: "1 if players <= 2 else 2"'))
    report = report_for(folder)
    starter = report.setup("Starter")
    assert starter.print_counts["boom"] == 10
    assert starter.player_count(3).draw_by_kind["hazard"] == 4
    assert starter.player_count(3).piles["hazards"] == 6


def test_checks_can_have_conditions_and_span_piles(game_copy):
    folder = game_copy()
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text + """  - id: two-player-box
    level: warning
    on: [draw_pile, box]
    when: players == 2
    at_most: 9
    message: With two players the deck and the box hold at most 9 cards.
""")
    report = report_for(folder)
    (finding,) = [f for f in report.setup("Starter").all_findings() if f.code == "two-player-box"]
    assert "2 players" in finding.message and "is 10" in finding.message
    assert "the draw pile + Back in the box" in finding.message


def test_shortages_in_a_setup_with_unknown_counts_are_warnings(game_copy):
    folder = game_copy()
    text = (folder / "setups.yaml").read_text()
    (folder / "setups.yaml").write_text(text.replace("Peek: 6", "Peek: null"))
    report = report_for(folder)
    shortages = [f for f in report.setup("Starter").all_findings() if f.code == "not-enough-cards"]
    assert shortages and all(f.level == "warning" and "cannot be confirmed" in f.message for f in shortages)
    assert not report.has_errors


def test_the_engine_publishes_the_deck_and_each_step_per_player_count():
    setup = report_for("exploding_cards").setup("Playing cards")
    three, nine = setup.player_count(3), setup.player_count(9)
    assert (three.copies, nine.copies) == (1, 2)
    assert three.starting_deck["ace"] == 4 and nine.starting_deck["ace"] == 8
    assert sum(nine.starting_deck.values()) == 108
    counts = [(s.step.action, s.count) for s in nine.steps]
    assert counts == [("move", None), ("move", None), ("deal", 1), ("shuffle", None), ("deal", 2),
                      ("move", None), ("move", 9), ("move", None), ("shuffle", None)]
    bombs_in = next(s for s in nine.steps if s.count == 9)
    assert bombs_in.moved == 9 and not any(bombs_in.seats)
    assert nine.set_aside == 16 - 9 and nine.print_counts == nine.starting_deck


def test_steps_whose_condition_is_false_are_not_carried_out():
    setup = report_for("zombie_kittens").setup("Full box")
    texts = {n: [s.step.text for s in setup.player_count(n).steps] for n in (2, 3, 4)}
    assert any(t.startswith("2 players") for t in texts[2]) and not any(t.startswith("3 players") for t in texts[2])
    assert any(t.startswith("3 players") for t in texts[3]) and not any(t.startswith("2 players") for t in texts[3])
    assert not any(t.startswith(("2 players", "3 players")) for t in texts[4])


def test_stand_in_cards_are_laid_out_but_not_printed():
    report = report_for("zombie_kittens")
    played = report.setup("Full box").player_count(5)
    stand_ins = set(played.starting_deck) - set(played.print_counts)
    assert stand_ins == {c.id for c in report.game.cards if not c.printed}
