"""The loader on the real Exploding Puppy data and on broken YAML (tests/data/broken)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import TEST_DATA, cardgen, loaded

from cardgen.load import load_game
from cardgen.load.cards import fill_pattern

# Chapter 3 of the Exploding Puppy rules v1.1: (name, color, associated number).
CHAPTER_3 = [
    ("Exploding Puppy", "black", None), ("Imploding Puppy", "black", None),
    ("Confusing Puppy", "black", None), ("Hobo Puppy", "black", 3), ("Lonely Puppy", "black", 2),
    ("Angry Twin Puppys", "black", None), ("Armageddog", "black", 4), ("Black Hole", "black", None),
    ("Greedy Catty", "black", 5), ("Grave Revenge", "black", None), ("Doomed", "black", None),
    ("Dog", "gray", None), ("Trap", "gray", None),
    ("Defuse", "green", None), ("Demonic Defuse", "green", None), ("Binding Defuse", "green", None),
    ("Attack", "orange", None), ("Targeted Attack", "orange", None), ("Personal Attack", "orange", 2),
    ("Attack from the Past", "orange", 2),
    ("See the future", "pink", 5), ("Share the future", "pink", 3), ("Clairvoyance", "pink", None),
    ("Favor the Future", "pink", 2), ("Insight", "pink", 2), ("Mark", "pink", 2),
    ("Change the timeline", "pink", 3), ("Share the Past", "pink", 3),
    ("Nope", "red", None), ("Force Will", "red", None), ("Now", "red", None),
    ("Blast from the Past", "blue", 3), ("Bury", "blue", None), ("Clone", "blue", None),
    ("Cut", "blue", None), ("Dig Deeper", "blue", None), ("Dog-Plosion", "blue", None),
    ("Garbage Collection", "blue", None), ("Jack of all Trades", "blue", 1), ("Madness", "blue", 1),
    ("Double", "blue", None), ("Reverse", "blue", None), ("Recycle", "blue", 1), ("Scaling", "blue", 1),
    ("Shuffle", "blue", None), ("Skip", "blue", 2), ("Submerge", "blue", None),
    ("Swap Top and Bottom", "blue", 1),
    ("Change Seats", "yellow", None), ("Draw from Bottom", "yellow", None), ("Flavor", "yellow", 2),
    ("Grave Robber", "yellow", 1), ("Greed", "yellow", 2), ("Haggle", "yellow", None),
    ("I'll take that", "yellow", None), ("Living Target", "yellow", None), ("Switcheroo", "yellow", 2),
    ("Favor", "yellow", 1), ("Wish", "yellow", 1),
    ("Alliance", "special", None), ("Basket", "special", None), ("Bazooka", "special", 5),
    ("Blood Feud", "special", None), ("Equality", "special", 1), ("Isolation", "special", None),
    ("Kleptomaniac", "special", None), ("Nay Sayer", "special", None), ("Revitalize", "special", None),
    ("Split the Party", "special", None), ("Stalker", "special", None),
    ("Open Protection", "special", None), ("Haunt", "special", None), ("Zombieland", "special", None),
]


@pytest.fixture(scope="module")
def puppy():
    return loaded("exploding_puppy").game


def test_every_chapter_3_card_is_present_with_color_and_number(puppy):
    assert len(puppy.cards) == 73
    by_name = {c.name: c for c in puppy.cards}
    for name, color, number in CHAPTER_3:
        card = by_name[name]
        assert (card.color, card.number) == (color, number), name
        assert card.text and card.details and card.flavor, name


def test_colors_tags_and_kinds_follow_the_rules(puppy):
    assert [c.id for c in puppy.colors] == [
        "black", "gray", "green", "orange", "pink", "red", "blue", "yellow", "special"]
    assert {t.id for t in puppy.tags} == {"now", "static"}
    by_name = {c.name: c for c in puppy.cards}
    assert "now" in by_name["Nope"].tags and "now" in by_name["Shuffle"].tags
    assert "static" in by_name["Greed"].tags and "static" in by_name["Kleptomaniac"].tags
    assert set(by_name["Exploding Puppy"].kinds) == {"puppy", "exploding"}
    assert set(by_name["Imploding Puppy"].kinds) == {"puppy"}
    assert all(c.star == (c.color == "special") for c in puppy.cards)
    assert puppy.title_hex(by_name["Imploding Puppy"]) != puppy.title_hex(by_name["Black Hole"])


def test_setups_are_transcribed_as_printed(puppy):
    totals = {s.name: sum(line.count for line in s.lines) for s in puppy.setups}
    assert totals == {"Basic": 90, "Default": 89, "Darkness": 93, "Mind Games": 92,
                      "Fight": 91, "Life and Death": 90}
    darkness = puppy.setup("Darkness")
    assert (darkness.min_players, darkness.max_players) == (3, 5)
    assert darkness.hand.deal == 6 and darkness.hand.extras == ()
    assert puppy.setup("Basic").hand.extras == (("defuse", 1),)
    assert len(puppy.setup("Fight").extra_rules) == 1


def test_setup_names_match_cards_ignoring_case_but_display_the_card_name(puppy):
    basic = puppy.setup("basic")
    names = {puppy.card(line.card).name for line in basic.lines}
    assert "See the future" in names  # the table says "See the Future"


def test_text_fields_keep_what_was_typed(game_copy):
    folder = game_copy()
    cards = (folder / "cards.yaml").read_text()
    (folder / "cards.yaml").write_text(cards.replace('flavor: "no"', "flavor: no").replace(
        'text: "Cancel an action."', "text: 1.10"))
    game = load_game(folder).game
    card = game.card("no")
    assert (card.flavor, card.text) == ("no", "1.10")


def test_patterns_cannot_reach_python_attributes():
    assert fill_pattern("Pup {number:02d}", {"number": 7}) == "Pup 07"
    assert fill_pattern("{number.__class__}", {"number": 7}) == "{number.__class__}"
    with pytest.raises(ValueError):
        fill_pattern("{secret}", {"number": 7})


BROKEN = sorted((TEST_DATA / "broken").glob("*.yaml"))
EXPECT = re.compile(r'# expect: (?P<code>[a-z-]+) at (?:(?P<file>[a-z]+\.yaml) )?line (?P<line>\d+)'
                    r'(?: (?P<kind>hint|message) "(?P<text>[^"]+)")?')


@pytest.mark.parametrize("case", BROKEN, ids=[p.name for p in BROKEN])
def test_broken_yaml_names_file_and_line(case: Path, game_copy):
    """Each file in tests/data/broken replaces one file of the tiny game (case.<file>.yaml)."""
    expect = EXPECT.match(case.read_text().splitlines()[0])
    assert expect, f"{case.name} needs an '# expect:' first line"
    folder = game_copy()
    target = case.name.split(".")[1] + ".yaml"
    (folder / target).write_text(case.read_text())
    code, out, err = cardgen("check", folder)  # in this process; never a traceback
    output = out + err
    assert code == 1, output
    where = f"{expect['file'] or target}:{expect['line']}:"
    matching = [line for line in output.splitlines() if where in line and f"[{expect['code']}]" in line]
    assert matching, f"no [{expect['code']}] at {where} in:\n{output}"
    if expect["text"]:
        assert expect["text"] in output


def test_all_problems_are_reported_in_one_run(game_copy):
    folder = game_copy()
    (folder / "cards.yaml").write_text(
        "cards:\n"
        "  - {name: Boom, color: rde, kind: hazard}\n"
        "  - {name: Shield, color: blue, kind: sheild}\n"
        "  - {name: Peek, color: blue, numbr: 2}\n"
        "  - {name: 'No', color: blue}\n")
    result = load_game(folder)
    in_cards = [f for f in result.findings if f.where.file.endswith("cards.yaml")
                and not f.where.file.endswith("setups.yaml")]
    assert sorted(f.code for f in in_cards) == ["unknown-color", "unknown-key", "unknown-kind"]
    lines = sorted(f.where.line for f in in_cards)
    assert lines == [2, 3, 4]


@pytest.mark.parametrize("character", ["\x01", "\x7f", "\ufffe"])
def test_a_control_character_typed_into_a_yaml_file_is_an_error_at_its_line_and_column(game_copy, character):
    """PyYAML's reader refuses it before any line is parsed: the finding named the file alone."""
    folder = game_copy()
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("You are out.", f"Vous êtes éliminé{character}.", 1),
                     encoding="utf-8")  # letters of two bytes before it: the column counts characters
    [line] = [(number, text.index(character)) for number, text in
              enumerate(cards.read_text(encoding="utf-8").splitlines(), start=1) if character in text]
    [found] = [f for f in load_game(folder).findings if f.code == "yaml-syntax"]
    assert (found.where.line, found.where.column) == (line[0], line[1] + 1)
    assert f"the character U+{ord(character):04X} cannot be in a YAML file" in found.message
