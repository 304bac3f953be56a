"""Hostile YAML and the loader's limits (file size, nesting, counts, text): each refused quickly and clearly."""
from __future__ import annotations

import time

from cardgen.load import load_game
from cardgen.load.yaml_nodes import MAX_FILE_BYTES


def errors(folder):
    return [f for f in load_game(folder).findings if f.level == "error"]


def write_cards(folder, text):
    (folder / "cards.yaml").write_text(text)


def test_only_safe_loading_python_tags_are_not_constructed(game_copy, tmp_path):
    folder = game_copy()
    canary = tmp_path / "canary"
    write_cards(folder, f"cards: !!python/object/apply:os.system ['touch {canary}']\n")
    (found,) = errors(folder)
    assert found.where.line == 1
    assert not canary.exists()


def test_duplicate_keys_are_errors_with_line_and_column(game_copy):
    folder = game_copy()
    write_cards(folder, "cards:\n  - name: Boom\n    color: red\n    color: blue\n")
    (found,) = errors(folder)
    assert (found.code, found.where.line, found.where.column) == ("duplicate-key", 4, 5)


def test_alias_bombs_are_refused_quickly(game_copy):
    folder = game_copy()
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}]"
              for i in range(1, 12)]
    write_cards(folder, "\n".join(lines) + "\ncards: *a11\n")
    start = time.monotonic()
    found = errors(folder)
    assert time.monotonic() - start < 5
    assert found[0].code == "yaml-syntax" and "anchors" in found[0].message


def test_deep_nesting_is_a_clean_error_not_a_recursion_error(game_copy):
    folder = game_copy()
    write_cards(folder, "cards: " + "[" * 5000 + "]" * 5000 + "\n")
    (found,) = errors(folder)
    assert found.code == "yaml-syntax" and "nested" in found.message


def test_text_fields_keep_the_text_the_user_typed(game_copy):
    folder = game_copy()
    write_cards(folder, "cards:\n"
                        "  - {name: Boom, color: red, kind: hazard, flavor: no, text: 1.10}\n"
                        "  - {name: Shield, color: blue, kind: shield, flavor: 012, text: yes}\n"
                        "  - {name: Peek, color: blue, flavor: 0x1F, text: 2001-01-01}\n"
                        "  - {name: 'No', color: blue}\n")
    game = load_game(folder).game
    texts = [(c.flavor, c.text) for c in game.cards[:3]]
    assert texts == [("no", "1.10"), ("012", "yes"), ("0x1F", "2001-01-01")]


def test_numbers_that_yaml_would_read_otherwise_are_rejected_with_a_hint(game_copy):
    folder = game_copy()
    (folder / "setups.yaml").write_text(
        "setups:\n  - name: S\n    players: {min: 2, max: 3}\n    cards: {Boom: 0x10, Shield: 1e3, Peek: yes}\n")
    found = errors(folder)
    assert [f.code for f in found] == ["not-a-whole-number"] * 3
    assert all("write digits only" in f.hint for f in found)


def test_oversized_files_are_refused_before_parsing(game_copy):
    folder = game_copy()
    write_cards(folder, "cards: []\n# " + "x" * MAX_FILE_BYTES + "\n")
    start = time.monotonic()
    (found,) = errors(folder)
    assert found.code == "file-too-large" and time.monotonic() - start < 2


def test_counts_players_and_text_have_ranges(game_copy):
    folder = game_copy()
    (folder / "setups.yaml").write_text(
        "setups:\n  - name: S\n    players: {min: 2, max: 100000}\n    hand: {deal: 3}\n"
        "    cards: {Boom: 99999999999, Shield: 4}\n")
    write_cards(folder, (folder / "cards.yaml").read_text().replace('"Oops."', '"' + "x" * 10_000 + '"'))
    codes = sorted(f.code for f in errors(folder))
    assert codes == ["number-out-of-range", "number-out-of-range", "text-too-long"]


def test_a_huge_card_series_is_refused(game_copy):
    folder = game_copy()
    write_cards(folder, "cards:\n  - {series: 'Card {number}', numbers: {from: 0, to: 100000000}, color: red}\n")
    start = time.monotonic()
    found = errors(folder)
    assert found[0].code == "number-out-of-range" and time.monotonic() - start < 2
