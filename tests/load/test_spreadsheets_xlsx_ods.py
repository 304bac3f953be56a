"""cards.xlsx and cards.ods, as the designer keeps them: read like cards.csv (the first sheet, or the
one game.yaml's cards_sheet: names; formulas' values; every column a field), each finding naming
its cell (cards.xlsx: Cards!E3); `cardgen convert` both ways. The workbooks are made here, from
the test game's cards.yaml, by `cardgen convert`."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile

import pytest
from conftest import CARD_DATA, TEST_DATA, edit
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P
from openpyxl import Workbook, load_workbook

from cardgen import cli
from cardgen.load import load_game

CREATURES = TEST_DATA / "creature_mini"
KINDS = ["xlsx", "ods"]


def as_workbook(folder, kind):
    """Replace the folder's cards.yaml by its cards.<kind>, made by cardgen convert."""
    assert cli.main(["convert", str(folder), "--to", kind, "--out", str(folder / f"cards.{kind}")]) == 0
    (folder / "cards.yaml").unlink()
    return folder / f"cards.{kind}"


def check_json(folder, capsys) -> tuple[int, dict]:
    code = cli.main(["check", str(folder), "--json"])
    return code, json.loads(capsys.readouterr().out)


def errors(folder):
    return [f for f in load_game(folder).findings if f.level == "error"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_workbook_gives_the_same_check_as_the_cards_yaml_it_was_made_from(kind, tmp_path, game_copy, capsys):
    source = game_copy(CREATURES)
    expected = check_json(source, capsys)
    twin = game_copy(CREATURES, "twin")
    as_workbook(twin, kind)
    capsys.readouterr()
    code, report = check_json(twin, capsys)
    assert (code, {**report, "game": "creature_mini"}) == expected
    assert expected[1]["setups"][0]["total"] == 18


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_cell_is_reported_at_its_sheet_and_cell(kind, game_copy):
    folder = game_copy(CREATURES)
    edit(folder / "cards.yaml", "    attack: 3\n", "    attack: three\n")  # Flame Hound: row 3; attack: column E
    as_workbook(folder, kind)
    [found] = [f for f in errors(folder) if f.code != "empty-selection"]
    assert (found.code, str(found.where)) == ("wrong-type", f"creature_mini/cards.{kind}: Cards!E3")
    assert "should be a number, not 'three'" in found.message


def test_an_unknown_column_is_reported_once_at_its_header_cell_with_did_you_mean(game_copy):
    folder = game_copy(CREATURES)
    path = as_workbook(folder, "xlsx")
    book = load_workbook(path)
    assert book["Cards"]["F1"].value == "health"
    book["Cards"]["F1"] = "helth"
    book.save(path)
    [found] = [f for f in errors(folder) if f.code == "unknown-key"]
    assert str(found.where) == "creature_mini/cards.xlsx: Cards!F1" and "did you mean 'health'?" in found.hint


def test_the_sheet_game_yaml_names_is_read_and_a_missing_one_is_an_error(game_copy):
    folder = game_copy(CREATURES)
    path = as_workbook(folder, "xlsx")
    book = load_workbook(path)
    book.create_sheet("Notes", 0)["A1"] = "not cards"  # now the first sheet
    book.save(path)
    assert errors(folder)  # the first sheet has no name, color columns
    edit(folder / "game.yaml", "card_size: poker\n", "card_size: poker\ncards_sheet: Cards\n")
    assert errors(folder) == []
    edit(folder / "game.yaml", "cards_sheet: Cards\n", "cards_sheet: Karten\n")
    [found] = errors(folder)
    assert found.code == "file-unreadable" and "no sheet 'Karten' (its sheets: Notes, Cards)" in found.message


def test_a_formulas_value_is_read_as_the_spreadsheet_last_worked_it_out(game_copy):
    folder = game_copy(CREATURES)
    (folder / "cards.yaml").unlink()
    document = OpenDocumentSpreadsheet()
    table = Table(name="Cards")
    rows = [["name", "color", "cost", "attack", "type_line"], ["Imp", "fire", 1, None, "Creature"],
            ["Bolt", "water", 2, 0, "Spell"]]
    for row in rows:
        line = TableRow()
        for cell in row:
            if cell is None:  # attack = cost * 3, worked out to 3
                item = TableCell(valuetype="float", value=3, formula="of:=[.C2]*3")
                item.addElement(P(text="3"))
            elif isinstance(cell, int):
                item = TableCell(valuetype="float", value=cell)
                item.addElement(P(text=str(cell)))
            else:
                item = TableCell(valuetype="string")
                item.addElement(P(text=cell))
            line.addElement(item)
        table.addElement(line)
    document.spreadsheet.addElement(table)
    document.save(str(folder / "cards.ods"))
    game = load_game(folder).game
    assert game.card("imp").value("attack") == 3


@pytest.mark.parametrize("kind", KINDS)
def test_convert_goes_back_to_the_same_cards_yaml(kind, game_copy, capsys):
    folder = game_copy(CREATURES)
    original = load_game(folder).game
    as_workbook(folder, kind)
    capsys.readouterr()
    assert cli.main(["convert", str(folder), "--to", "yaml"]) == 0
    (folder / "cards.yaml").write_text(capsys.readouterr().out, encoding="utf-8")
    (folder / f"cards.{kind}").unlink()
    again = load_game(folder).game
    assert [(c.name, dict(c.fields), c.text) for c in again.cards] == [
        (c.name, dict(c.fields), c.text) for c in original.cards]


def test_two_card_files_are_an_error_naming_both(game_copy):
    folder = game_copy(CREATURES)
    assert cli.main(["convert", str(folder), "--to", "ods", "--out", str(folder / "cards.ods")]) == 0
    [found] = errors(folder)
    assert found.code == "two-card-files" and "cards.yaml and cards.ods" in found.message


@pytest.mark.slow
def test_a_zip_bomb_is_a_clear_error(game_copy):
    folder = game_copy(CREATURES)
    (folder / "cards.yaml").unlink()
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as bomb:
        bomb.writestr("xl/worksheets/sheet1.xml", b"\0" * 120_000_000)
    (folder / "cards.xlsx").write_bytes(data.getvalue())
    [found] = errors(folder)
    assert found.code == "file-unreadable" and "unpacks to more than 100 MB" in found.message


def test_a_sheet_too_large_is_a_clear_error(game_copy):
    folder = game_copy(CREATURES)
    (folder / "cards.yaml").unlink()
    book = Workbook()
    page = book.active
    page.append(["name", "color"])
    page["B20001"] = "fire"
    book.save(folder / "cards.xlsx")
    [found] = errors(folder)
    assert found.code == "file-unreadable" and "has a sheet 'Sheet' reaching cell B20001" in found.message


def rewritten(path, change) -> None:
    """The workbook with its sheets' XML changed (text in, text out)."""
    with zipfile.ZipFile(path) as book:
        members = [(member, book.read(member.filename)) for member in book.infolist()]
    with zipfile.ZipFile(path, "w") as book:
        for member, content in members:
            if member.filename.startswith("xl/worksheets/"):
                content = change(content.decode()).encode()
            book.writestr(member, content)


def cardgen_check(folder) -> subprocess.CompletedProcess:
    """`cardgen check` in a process of its own: a reader that ends its process ends only that one."""
    return subprocess.run([sys.executable, "-m", "cardgen", "check", str(folder)], capture_output=True, text=True,
                          timeout=120)


FAR_ROW = re.compile(r'<row r="1048576".*?</row>')
FILLED = '<c t="inlineStr"><is><t>x</t></is></c>'
# the far value written so that a reading of the XML by patterns would miss it: every one ended the
# process in calamine (a Rust abort, exit 134) while the pattern-based reading of the sheet was in place
FAR_VALUES = {
    "as written": lambda xml: xml,
    "namespace prefix": lambda xml: re.sub(r"<(/?)(\w+)([ >/])", r"<\1x:\2\3", xml).replace("xmlns=", "xmlns:x=", 1),
    "'>' in an attribute": lambda xml: FAR_ROW.sub(f"<row r='1048576'><c s='>' r='XFD1048576'{FILLED[2:]}</row>", xml),
    "a cell in a comment": lambda xml: FAR_ROW.sub(f'<row r="1048576"><c r="XFC1"/><!--<c r="A1"/>-->{FILLED}</row>', xml),
    "lower case": lambda xml: xml.replace('r="XFD1048576"', 'r="xfd1048576"'),
    "cells without positions": lambda xml: FAR_ROW.sub(f'<row r="1048576"><c r="A1"/>{FILLED * 16383}</row>', xml),
}


@pytest.mark.parametrize("written", FAR_VALUES)
def test_a_value_in_a_spreadsheets_last_cell_is_refused_before_the_sheet_is_read(game_copy, written):
    """calamine sets out the rectangle up to a sheet's last value at once: a 5 KB file with a value
    at XFD1048576 asked for 512 GB and ended the process (a Rust abort, exit 134)."""
    folder = game_copy(CREATURES)
    (folder / "cards.yaml").unlink()
    book = Workbook()
    page = book.active
    page.append(["name", "color"])
    page.append(["Ember", "fire"])
    page.cell(1048576, 16384, "x")
    book.save(folder / "cards.xlsx")
    rewritten(folder / "cards.xlsx", FAR_VALUES[written])
    done = cardgen_check(folder)
    assert done.returncode == 1, done.stderr
    assert "has a sheet 'Sheet' reaching cell XFD1048576; cardgen reads up to 10000 rows" in done.stdout, done.stdout


def test_an_ods_row_repeated_a_million_times_is_refused_before_the_sheet_is_read(game_copy):
    """A 1.5 KB cards.ods whose one row of 90 values is repeated a million times asked calamine for
    1.5 GB (ended by the process's memory limit)."""
    folder = game_copy(CREATURES)
    as_workbook(folder, "ods")
    with zipfile.ZipFile(folder / "cards.ods") as book:
        members = [(member, book.read(member.filename)) for member in book.infolist()]
    with zipfile.ZipFile(folder / "cards.ods", "w") as book:
        for member, content in members:
            if member.filename == "content.xml":
                content = content.replace(b"</table:table>", b'<table:table-row table:number-rows-repeated="1000000">'
                                          b'<table:table-cell table:number-columns-repeated="90" office:value-type='
                                          b'"float" office:value="1"><text:p>1</text:p></table:table-cell>'
                                          b"</table:table-row></table:table>", 1)
            book.writestr(member, content)
    done = cardgen_check(folder)
    assert done.returncode == 1 and "reaching cell CL1000" in done.stdout, done.stdout + done.stderr


def test_a_far_cell_of_style_alone_or_a_long_sheet_beside_is_no_reason_to_refuse(game_copy):
    """A designer's formatted sheet (styles far out, no values) and a sheet of notes longer than
    the cards may be (15,000 rows of 40 columns: cells enough, not too many) are read."""
    folder = game_copy(CREATURES)
    as_workbook(folder, "xlsx")
    book = load_workbook(folder / "cards.xlsx")
    book.create_sheet("Notes").cell(15000, 40, "a note far down")
    book.save(folder / "cards.xlsx")
    rewritten(folder / "cards.xlsx", lambda xml: xml.replace("</sheetData>", '<row r="50000"><c r="XFD50000" s="0"/>'
                                                                                "</row></sheetData>", 1))
    assert cardgen_check(folder).returncode == 0


def test_a_workbook_is_not_printed_on_a_terminal(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert cli.main(["convert", str(CREATURES), "--to", "xlsx"]) == 2
    assert "--out" in capsys.readouterr().err


@pytest.mark.parametrize("kind", KINDS)
def test_a_text_that_looks_like_a_formula_is_written_as_text_and_read_back_as_typed(kind, game_copy):
    folder = game_copy(CREATURES)
    edit(folder / "cards.yaml", 'text: "Deal 4 damage to a creature."', 'text: "=HYPERLINK(\\"http://x\\")"')
    as_workbook(folder, kind)
    assert load_game(folder).game.card("fireball").text == '=HYPERLINK("http://x")'


def test_a_value_right_of_the_header_is_an_error_at_its_cell(game_copy):
    folder = game_copy(CREATURES)
    path = as_workbook(folder, "xlsx")
    book = load_workbook(path)
    book["Cards"]["L4"] = "stray"
    book.save(path)
    [found] = errors(folder)
    assert (found.code, str(found.where)) == ("ragged-row", "creature_mini/cards.xlsx: Cards!L4")


def _without_card_file_places(report: dict) -> dict:
    """The report, a finding's place in the card file left out (a line there, a cell here)."""
    for finding in report.get("findings", []):
        if finding.get("where") and "/cards." in finding["where"]:
            finding["where"] = "the card file"
    return report


@pytest.mark.parametrize("game", sorted(p.name for p in CARD_DATA.iterdir() if (p / "cards.yaml").is_file()))
def test_every_shipped_game_checks_the_same_from_its_workbooks(game, game_copy, capsys):
    expected = _without_card_file_places(check_json(game_copy(game), capsys)[1])
    for kind in KINDS:
        folder = game_copy(game, f"{kind}/{game}")
        as_workbook(folder, kind)
        capsys.readouterr()
        assert _without_card_file_places(check_json(folder, capsys)[1]) == expected, kind
