"""Seats: a deal that gives each seat its own count, one seat a card, each seat the deck of its
faction; the first player; steps that are only text or set a component's starting value. The
two-player battler tests/data/faction_duel: Fire (6 creatures, 2 spells) against Water (6
creatures, 3 spells), the first player draws 3, the second 4 and the Spark, health 20 each."""
from __future__ import annotations

import json

import jsonschema
import pytest
import yaml
from conftest import TEST_DATA, check, checked, edit

from cardgen import cli
from cardgen.load import editor_schemas, load_game

FACTION_DUEL = TEST_DATA / "faction_duel"


def report_json(folder, capsys) -> dict:
    assert cli.main(["check", str(folder), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_each_seat_has_its_hand_and_its_own_deck_in_the_json_report(capsys):
    two = report_json(FACTION_DUEL, capsys)["setups"][0]["players"][0]
    first, second = two["seats"]
    assert (first["seat"], first["hand"], second["seat"], second["hand"]) == (1, 3, 2, 5)  # 4 and the Spark
    assert first["piles"] == {"library": 5} and second["piles"] == {"library": 5}  # 8 - 3 and 9 - 4
    assert first["by_kind"]["library"] == {"creature": 3.75, "spell": 1.25}  # 6 : 2, less 3 drawn in proportion
    assert second["by_kind"]["library"] == {"creature": 3.33, "spell": 1.67}  # 6 : 3, less 4
    assert second["by_kind"]["hands"]["spell"] == pytest.approx(1 + 4 / 3, abs=0.01)  # the Spark and ~1.33 drawn
    assert two["first_player"] == "random"
    assert two["components"]["health"]["start"] == 20


def test_the_seats_steps_are_reported_seat_by_seat_in_order(capsys):
    steps = report_json(FACTION_DUEL, capsys)["setups"][0]["players"][0]["steps"]
    assert [s["action"] for s in steps] == ["move", "deal", "first_player", "deal", "deal", "set", "text"]
    assert [s.get("seats") for s in steps[1:5]] == [[8, 9], None, [3, 4], [0, 1]]
    assert steps[5]["values"] == {"health": 20} and steps[6]["moved"] == 0


def test_a_count_by_seat_may_be_an_expression_of_the_seat(game_copy):
    folder = game_copy(FACTION_DUEL)
    edit(folder / "game.yaml", "by_seat: {1: 3, 2: 4}", 'by_seat: "2 + seat"')
    _, report = checked(folder)
    assert [s.hand for s in report.setups[0].players[0].seats] == [3, 5]


def test_a_deal_to_a_seat_the_player_count_lacks_is_an_error(game_copy, capsys):
    folder = game_copy(FACTION_DUEL)
    edit(folder / "game.yaml", "seat: 2,", "seat: players + 1,")
    code, out = check(folder, capsys)
    assert code == 1
    assert "deals to seat 3, but the seats are 1 to 2 [no-such-seat]" in out


def test_more_seats_than_factions_is_an_error(game_copy, capsys):
    folder = game_copy(FACTION_DUEL)
    edit(folder / "setups.yaml", "players: {min: 2, max: 2}", "players: {min: 2, max: 3}")
    edit(folder / "game.yaml", "by_seat: {1: 3, 2: 4}", "count: 3")
    code, out = check(folder, capsys)
    assert code == 1
    assert "Duel, 3 players: 'Each player takes the deck of their faction and shuffles it.' gives each player the " \
           "cards of one color, but the deck pile holds 2 colors for 3 players [not-enough-cards]" in out
    assert "Duel, 2 players" not in out


def test_a_by_seat_table_without_a_seat_is_an_error(game_copy, capsys):
    folder = game_copy(FACTION_DUEL)
    edit(folder / "game.yaml", "by_seat: {1: 3, 2: 4}", "by_seat: {1: 3}")
    code, out = check(folder, capsys)
    assert code == 1 and "by_seat has no entry for seat 2 [bad-expression]" in out


@pytest.mark.parametrize("old, new, message", [
    ("set: {health: 20}", "set: {helth: 20}", "set: no component 'helth' [unknown-component]"),
    ("by_seat: {1: 3, 2: 4}", "by_seat: {1: 3, 2: 4}, count: 3", "a deal counts by one of count, by_seat and "
                                                                 "extras, not count and by_seat [bad-step]"),
    ("    - text: Place your deck", "    - when: players == 2\n      text: Place your deck", None),
    ("    - text: Place your deck face down on your side of the table.", "    - when: players == 2",
     "a step needs exactly one of: move, deal, shuffle, set, first_player [bad-step]"),
])
def test_what_a_step_may_not_say_is_an_error_at_its_line(game_copy, capsys, old, new, message):
    folder = game_copy(FACTION_DUEL)
    edit(folder / "game.yaml", old, new)
    code, out = check(folder, capsys)
    if message is None:
        assert code == 0, out
        return
    assert code == 1 and message in out
    assert "game.yaml:" in out.split(message)[0].splitlines()[-1]


def test_the_editor_schema_accepts_the_seats_steps_and_rejects_what_the_loader_rejects():
    validator = jsonschema.Draft7Validator(editor_schemas.json_schema(editor_schemas.files()["game.yaml"],
                                                                      "game.yaml"))
    data = yaml.safe_load((FACTION_DUEL / "game.yaml").read_text(encoding="utf-8"))
    assert list(validator.iter_errors(data)) == []
    data["setup"]["steps"].append({"when": "players == 2"})  # neither an action nor a text
    data["setup"]["steps"].append({"text": "Say it.", "set": {"health": 20}, "first_player": "random"})
    assert len(list(validator.iter_errors(data))) == 2
    assert load_game(FACTION_DUEL).ok
