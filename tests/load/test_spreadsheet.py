"""cards.csv, as spreadsheets export it: the same cards and the same findings as cards.yaml,
each finding naming the row and the column; `cardgen convert` both ways."""
from __future__ import annotations

import dataclasses

import pytest
from conftest import CARD_DATA, TEST_DATA, loaded

from cardgen import cli
from cardgen.load import load_game

SHIPPED = sorted(p.name for p in CARD_DATA.iterdir() if (p / "game.yaml").is_file())


def cards_of(folder):
    result = loaded(folder)
    return [dataclasses.replace(card, where=None) for card in result.game.cards]


def convert(capsys, folder, to: str) -> str:
    code = cli.main(["convert", str(folder), "--to", to])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def into_csv(capsys, folder):
    """Replace the folder's cards.yaml by its CSV twin."""
    (folder / "cards.csv").write_text(convert(capsys, folder, "csv"), encoding="utf-8")
    (folder / "cards.yaml").unlink()


@pytest.mark.parametrize("dialect", ["google-sheets", "excel-semicolon"])
def test_a_typo_in_the_color_column_names_the_row_and_the_column(dialect, game_copy):
    folder = game_copy("starter")
    (folder / "cards.yaml").unlink()
    rows = [["name", "color", "kind", "tags", "text"],
            ["Dragon", "red", "dragon", "", "Burns, then leaves."],
            ["Shield", "blue", "tool", "now", "Stops a **Dragon**."],
            ["Crown", "gld", "treasure", "", 'The "big" one;\nworth 5.']]
    if dialect == "google-sheets":  # comma-separated, quoted where needed, CRLF line ends
        data = "\r\n".join(",".join(f'"{c}"' if any(x in c for x in ',"\n') else c for c in row)
                           for row in rows).replace('"The "big" one', '"The ""big"" one')
        raw = data.encode("utf-8")
    else:  # Excel's "CSV UTF-8" in a locale where the comma is the decimal sign: BOM and semicolons
        data = "\r\n".join(";".join(f'"{c}"' if any(x in c for x in ';"\n') else c for c in row)
                           for row in rows).replace('"The "big" one', '"The ""big"" one')
        raw = "\ufeff".encode("utf-8") + data.encode("utf-8")
    (folder / "cards.csv").write_bytes(raw)
    result = load_game(folder)
    errors = [f for f in result.findings if f.level == "error"]
    assert [(f.code, f.where.file.endswith("cards.csv"), f.where.line, f.where.column) for f in errors] == [
        ("unknown-color", True, 4, 2)]
    assert "did you mean 'gold'" in errors[0].hint


def test_unknown_columns_are_reported_once_in_the_header(game_copy):
    folder = game_copy("starter")
    (folder / "cards.yaml").unlink()
    (folder / "cards.csv").write_text("name,colour,txt\nDragon,red,x\nShield,blue,y\n", encoding="utf-8")
    findings = [(f.where.line, f.where.column, f.code, f.hint) for f in load_game(folder).findings]
    assert findings == [(1, 2, "unknown-key", "did you mean 'color'?"), (1, 3, "unknown-key", "did you mean 'text'?"),
                        (1, 1, "missing-field", "")]


def test_a_game_reads_one_cards_file(game_copy):
    folder = game_copy("starter")
    (folder / "cards.csv").write_text("name,color\nDragon,red\n", encoding="utf-8")
    assert [f.code for f in load_game(folder).findings] == ["two-card-files"]


@pytest.mark.parametrize("game", SHIPPED)
def test_every_shipped_game_has_the_same_cards_from_its_csv_twin_and_back(game, game_copy, capsys):
    folder = game_copy(game)
    expected = cards_of(folder)
    into_csv(capsys, folder)
    assert cards_of(folder) == expected
    (folder / "cards.yaml").write_text(convert(capsys, folder, "yaml"), encoding="utf-8")
    (folder / "cards.csv").unlink()
    assert cards_of(folder) == expected


def test_a_csv_game_builds_the_same_card_sheets_as_its_yaml_twin(game_copy, capsys, tmp_path):
    yaml_twin = game_copy("starter", "starter")
    csv_twin = game_copy(yaml_twin, "csv_twin")
    into_csv(capsys, csv_twin)
    for folder, out in ((yaml_twin, tmp_path / "out-yaml"), (csv_twin, tmp_path / "out-csv")):
        assert cli.main(["cards", str(folder), "--all-types", "--out", str(out)]) == 0
    capsys.readouterr()
    from_yaml, from_csv = tmp_path / "out-yaml" / "cards-all-types.pdf", tmp_path / "out-csv" / "cards-all-types.pdf"
    assert from_yaml.read_bytes() == from_csv.read_bytes()


def test_convert_refuses_what_a_cell_cannot_hold(game_copy, capsys):
    folder = game_copy("starter")
    (folder / "cards.yaml").write_text("cards:\n  - name: X\n    color: red\n    text: {a: 1}\n", encoding="utf-8")
    assert cli.main(["convert", str(folder), "--to", "csv"]) == 1
    err = capsys.readouterr().err
    assert "cards.yaml:4:11" in err and "not-a-cell" in err


def test_a_range_in_other_digits_than_ascii_ones_is_refused_at_its_cell(game_copy):
    """'0-٩' (an Arabic-Indic nine) is refused where it is typed, as in counts and conditions."""
    folder = game_copy(TEST_DATA / "color_burst")
    text = (folder / "cards.csv").read_text(encoding="utf-8")
    (folder / "cards.csv").write_text(text.replace(",Yellow {number},0-9,", ",Yellow {number},0-٩,"), encoding="utf-8")
    errors = [(f.code, f.message, f.where.line, f.where.column) for f in load_game(folder).findings if f.level == "error"]
    assert errors == [("not-a-whole-number", "to should be a whole number, not '٩'", 3, 3)]
