"""A series' art by pattern: `art: art/gold-{number}.png` gives each card of the series its own
picture (and a single card's art may name its fields: art/{rarity}.png)."""
from __future__ import annotations

from conftest import TEST_DATA
from PIL import Image

from cardgen.load import load_game

SERIES = '  - series: "Gold {number}"\n    numbers: {from: 1, to: 3}\n    color: water\n    art: art/gold-{number}.png\n'


def with_pictures(folder, names):
    (folder / "art").mkdir()
    for name in names:
        Image.new("RGB", (400, 300), "#c8a000").save(folder / "art" / name)


def add_cards(folder, text):
    with (folder / "cards.yaml").open("a", encoding="utf-8") as f:
        f.write(text)


def test_each_card_of_a_series_gets_the_art_its_number_names(game_copy):
    folder = game_copy(TEST_DATA / "creature_mini")
    with_pictures(folder, ["gold-1.png", "gold-2.png", "gold-3.png"])
    add_cards(folder, SERIES)
    result = load_game(folder)
    assert [f for f in result.findings if f.level == "error"] == []
    assert {c.name: c.art_file.name for c in result.game.cards if c.art_file} == {
        "Gold 1": "gold-1.png", "Gold 2": "gold-2.png", "Gold 3": "gold-3.png"}


def test_a_missing_picture_of_a_series_is_an_error_naming_the_card_and_the_file(game_copy):
    folder = game_copy(TEST_DATA / "creature_mini")
    with_pictures(folder, ["gold-1.png", "gold-3.png"])
    add_cards(folder, SERIES)
    [found] = [f for f in load_game(folder).findings if f.level == "error"]
    assert found.code == "art-not-found" and "'Gold 2'" in found.message and "art/gold-2.png" in found.message
    assert (found.where.line, found.where.column) == (57, 10)  # the series' art: line


def test_an_art_pattern_naming_no_value_is_a_bad_pattern(game_copy):
    folder = game_copy(TEST_DATA / "creature_mini")
    add_cards(folder, SERIES.replace("{number}.png", "{numbr}.png"))
    [found] = [f for f in load_game(folder).findings if f.level == "error"]
    assert found.code == "bad-pattern" and "{numbr}" in found.message


def test_a_single_cards_art_may_name_its_fields(game_copy):
    folder = game_copy(TEST_DATA / "creature_mini")
    with_pictures(folder, ["legendary.png"])
    add_cards(folder, "  - name: Kraken\n    color: water\n    rarity: legendary\n    art: art/{rarity}.png\n")
    kraken = load_game(folder).game.card("kraken")
    assert kraken.art_file.name == "legendary.png"
