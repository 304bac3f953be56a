"""A game's own card fields (game.yaml's fields:): declared once, a key of a card in cards.yaml and a
column of cards.csv, each value read through its type; selectors, patterns and the editor schema
know them."""
from __future__ import annotations

import json

import pytest
from conftest import TEST_DATA, edit, loaded, report_for

from cardgen import cli
from cardgen.diff.games import diff_games
from cardgen.load import load_game
from cardgen.model.fields import CHOICE, NUMBER, TEXT, YESNO, NumberRange
from cardgen.model.game import matches
from cardgen.model.translate import translated

CREATURES = TEST_DATA / "creature_mini"


def errors(folder):
    """The load's errors, but for a setup's selector that picks no card once a card is broken."""
    return [f for f in load_game(folder).findings if f.level == "error" and f.code != "empty-selection"]


def place(finding) -> tuple[str, str, int, int]:
    return finding.code, finding.where.file.rsplit("/", 1)[-1], finding.where.line, finding.where.column


def test_declared_fields_are_the_games_and_each_card_has_its_values_or_the_defaults():
    game = loaded(CREATURES).game
    declared = {f.id: (f.type, f.name, f.choices, f.default) for f in game.fields}
    assert declared["cost"] == (NUMBER, "Cost", (), None)
    assert declared["health"][:2] == (NUMBER, "Health")
    assert declared["type_line"][:2] == (TEXT, "Type")
    assert declared["rarity"] == (CHOICE, "Rarity", ("common", "rare", "epic", "legendary"), "common")
    assert declared["token"] == (YESNO, "Token", (), False)
    drake, spark = game.card("inferno-drake"), game.card("spark")
    assert [drake.value(k) for k in ("cost", "attack", "rarity", "keywords", "token", "color")] == [
        5, 5, "epic", ("flying", "haste"), False, "fire"]
    assert [spark.value(k) for k in ("attack", "health", "rarity", "token")] == [0, None, "common", True]


def test_an_unknown_field_in_cards_yaml_is_an_error_at_its_line_with_did_you_mean(game_copy):
    folder = game_copy(CREATURES)
    edit(folder / "cards.yaml", "    attack: 3\n", "    atack: 3\n")
    [found] = errors(folder)
    assert place(found) == ("unknown-key", "cards.yaml", 12, 5)
    assert "unknown key 'atack'" in found.message and "did you mean 'attack'?" in found.hint


@pytest.mark.parametrize("old, new, code, line, column, words", [
    ("    attack: 3\n", "    attack: three\n", "wrong-type", 12, 13, "should be a number, not 'three'"),
    ("    rarity: rare\n", "    rarity: rar\n", "unknown-choice", 20, 13, "did you mean 'rare'?"),
    ("    token: yes\n", "    token: maybe\n", "wrong-type", 52, 12, "true or false"),
    ("    keywords: [haste]\n", "    keywords: {a: b}\n", "wrong-type", 15, 15, "should be a list"),
])
def test_a_value_of_the_wrong_type_is_an_error_at_its_place(game_copy, old, new, code, line, column, words):
    folder = game_copy(CREATURES)
    edit(folder / "cards.yaml", old, new)
    [found] = errors(folder)
    assert place(found) == (code, "cards.yaml", line, column)
    assert words in found.message + found.hint


@pytest.mark.parametrize("old, new, code, words", [
    ("  cost: number\n", "  cost: numbr\n", "unknown-field-type", "did you mean 'number'?"),
    ("  cost: number\n", "  color: number\n", "field-name-taken", "built-in key"),
    ("  keywords: list\n", "  keywords: choice\n", "missing-field", "lists its values"),
    ("{choice: [common, rare, epic, legendary], default: common}", "{choice: [common, rare], default: rar}",
     "unknown-choice", "did you mean 'rare'?"),
])
def test_a_wrong_declaration_is_an_error_in_game_yaml(game_copy, old, new, code, words):
    """(The field is then unknown where the cards and selectors use it: errors too.)"""
    folder = game_copy(CREATURES)
    edit(folder / "game.yaml", old, new)
    first = errors(folder)[0]
    assert (first.code, first.where.file.endswith("game.yaml")) == (code, True)
    assert words in first.message + first.hint


def test_selectors_pick_by_a_field_a_list_of_values_and_a_number_range():
    game = loaded(CREATURES).game
    picked = {name: sorted(c.id for c in game.cards if matches(c, select)) for name, select in {
        "spells": {"type_line": ("Spell",)},
        "cheap": {"cost": NumberRange(None, 1)},
        "hasty": {"keywords": ("haste",)},
        "tokens": {"token": True},
    }.items()}
    assert picked == {"spells": ["fireball", "frost-bolt", "spark"], "cheap": ["ember-imp", "spark", "tide-crab"],
                      "hasty": ["flame-hound", "inferno-drake"], "tokens": ["spark"]}


def test_setups_and_steps_select_by_fields(capsys):
    code = cli.main(["check", str(CREATURES), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    [duel] = report["setups"]
    assert duel["total"] == 18  # 5 creatures x2, 2 spells x3, the token x2
    [two] = duel["players"]
    assert [step["moved"] for step in two["steps"]] == [2, 4, 8]  # the tokens; cost 4 and more; the hands


def test_a_selector_value_of_the_wrong_type_or_an_unknown_choice_is_an_error(game_copy):
    folder = game_copy(CREATURES)
    edit(folder / "setups.yaml", "{select: {token: true}, count: 2}", "{select: {rarity: rar, cost: x}, count: 2}")
    found = sorted((f.code, f.where.line, f.where.column) for f in errors(folder))
    assert found == [("unknown-choice", 9, 27), ("wrong-type", 9, 38)]


def test_a_pattern_fills_a_cards_texts_from_its_fields(game_copy):
    game = loaded(CREATURES).game
    assert game.card("ember-imp").text == "Deal 1 damage."
    assert game.card("frost-bolt").text == "Stop a creature with 2 cost or less."
    folder = game_copy(CREATURES)
    edit(folder / "cards.yaml", "Deal {attack} damage.", "Deal {atack} damage.")
    [found] = errors(folder)
    assert found.code == "bad-pattern" and "{atack}" in found.message and found.where.line == 8


def test_a_series_fills_its_patterns_from_its_fields(game_copy):
    folder = game_copy(CREATURES)
    with (folder / "cards.yaml").open("a", encoding="utf-8") as f:
        f.write('  - series: "Wisp {number}"\n    numbers: {from: 1, to: 2}\n    color: water\n    cost: 1\n'
                '    rarity: rare\n    text: "A {rarity} wisp for {cost}: {number|point}."\n')
    game = loaded(folder).game
    assert [(c.name, c.text, c.value("rarity")) for c in game.cards if c.name.startswith("Wisp")] == [
        ("Wisp 1", "A rare wisp for 1: 1 point.", "rare"), ("Wisp 2", "A rare wisp for 1: 2 points.", "rare")]


def test_cards_csv_reads_the_fields_as_columns_and_a_wrong_cell_names_its_row_and_column(game_copy):
    folder = game_copy(CREATURES)
    (folder / "cards.yaml").unlink()
    (folder / "cards.csv").write_text(
        "name,color,cost,attack,type_line,keywords,token\n"
        "Imp,fire,1,2,Creature,\"flying, haste\",no\n"
        "Bolt,water,2,three,Spell,,yes\n", encoding="utf-8")
    found = errors(folder)
    assert [place(f) for f in found] == [("wrong-type", "cards.csv", 3, 4)]
    (folder / "cards.csv").write_text((folder / "cards.csv").read_text().replace("three", "0").replace(
        "atack", "attack"), encoding="utf-8")
    imp = load_game(folder).game.card("imp")
    assert (imp.value("keywords"), imp.value("attack"), imp.value("token")) == (("flying", "haste"), 2, False)


def test_an_unknown_column_is_reported_once_with_did_you_mean(game_copy):
    folder = game_copy(CREATURES)
    (folder / "cards.yaml").unlink()
    (folder / "cards.csv").write_text("name,color,atack\nImp,fire,1\nBolt,water,2\n", encoding="utf-8")
    [found] = errors(folder)
    assert place(found) == ("unknown-key", "cards.csv", 1, 3) and "did you mean 'attack'?" in found.hint


def test_the_editor_schema_of_a_game_knows_its_fields(tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    assert cli.main(["schema", "--game", str(CREATURES), "--write", str(tmp_path)]) == 0
    capsys.readouterr()
    cards = json.loads((tmp_path / "cards.schema.json").read_text())
    card = {"name": "Imp", "color": "fire", "cost": 1, "rarity": "rare", "keywords": ["haste"]}
    jsonschema.validate({"cards": [card]}, cards)
    for wrong in ({"rarity": "rar"}, {"cost": "three"}, {"atack": 1}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"cards": [{**card, **wrong}]}, cards)
    setups = json.loads((tmp_path / "setups.schema.json").read_text())
    each = {"select": {"any": [{"cost": {"from": 2}}, {"type_line": "Spell"}]}, "count": 1}
    jsonschema.validate({"setups": [{"name": "S", "players": {"min": 2, "max": 2}, "each": [each]}]}, setups)
    translation = json.loads((tmp_path / "translation.schema.json").read_text())
    jsonschema.validate({"cards": {"imp": {"type_line": "Kreatur"}}}, translation)


def test_a_text_field_is_translatable_and_selectors_still_pick_by_the_source_value(game_copy):
    folder = game_copy(CREATURES)
    edit(folder / "game.yaml", "card_size: poker\n", "card_size: poker\nlanguages: [en, de]\n")
    (folder / "i18n").mkdir()
    (folder / "i18n" / "de.yaml").write_text("cards:\n  fireball:\n    type_line: Zauber\n    name: Feuerball\n"
                                             "  spark:\n    type_lin: Zauber\n", encoding="utf-8")
    result = load_game(folder)
    [unknown] = [f for f in result.findings if f.level == "error"]
    assert place(unknown) == ("unknown-key", "de.yaml", 6, 5) and "did you mean 'type_line'?" in unknown.hint
    german, missing = translated(result.game, "de")
    fireball = german.card("fireball")
    assert (fireball.name, fireball.value("type_line")) == ("Feuerball", "Zauber")
    assert matches(fireball, {"type_line": ("Spell",)})
    assert "cards/frost-bolt/type_line" in {m.key for m in missing}


def test_diff_names_a_changed_field_by_its_display_name(game_copy):
    folder = game_copy(CREATURES)
    old = report_for(folder)
    edit(folder / "cards.yaml", "    attack: 3\n", "    attack: 4\n")
    edit(folder / "cards.yaml", "type_line: Spell\n    rarity: rare", "type_line: Sorcery\n    rarity: rare")
    changes = {c.card_id: c.fields for c in diff_games(old, report_for(folder)).cards}
    assert changes == {"flame-hound": ("Attack",), "fireball": ("Type",)}


def test_an_unknown_symbol_in_a_text_field_is_found_at_its_place(game_copy):
    folder = game_copy(CREATURES)
    edit(folder / "cards.yaml", "    type_line: Spell\n    rarity: rare", "    type_line: \"Spell :nosuch:\"\n    rarity: rare")
    [found] = [f for f in load_game(folder).findings if "nosuch" in f.message]
    assert (found.level, found.where.line, found.where.column) == ("warning", 19, 23)


def test_a_fields_display_name_is_translatable(game_copy):
    folder = game_copy(CREATURES)
    edit(folder / "game.yaml", "card_size: poker\n", "card_size: poker\nlanguages: [en, de]\n")
    (folder / "i18n").mkdir()
    (folder / "i18n" / "de.yaml").write_text("fields:\n  attack: {name: Angriff}\n", encoding="utf-8")
    german, missing = translated(loaded(folder).game, "de")
    assert [f.name for f in german.fields][:3] == ["Cost", "Angriff", "Health"]
    assert {"fields/cost/name", "fields/health/name"} <= {m.key for m in missing}
