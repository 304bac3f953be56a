"""Spreadsheets and files cardgen writes, against hostile input: formulas in cells (CSV injection),
a comma that would cut a text, texts YAML would read as booleans, nothing or numbers, an unclosed
quote, a latin-1 byte, blank lines above the header; `new` and `schema --write` onto links and
files; a card name or art name too long for a file name; a padding that leaves no room."""
from __future__ import annotations

import csv
import io

import pytest
from conftest import CARD_DATA, TEST_DATA, TINY_GAME, cardgen

from cardgen.load import load_game

COLOR_BURST = TEST_DATA / "color_burst"
HOSTILE = {"Null": '=HYPERLINK("http://example.com","x")', "No": "@SUM(1+1)", "~": "+cmd|' /C calc'!A0",
           "012": "-1 to everyone", "On": "\tTabbed"}


@pytest.fixture
def hostile_game(game_copy):
    game = game_copy(COLOR_BURST)
    with open(game / "cards.csv", "a", newline="") as file:
        writer = csv.writer(file)
        for name, text in HOSTILE.items():
            writer.writerow([name, "", "", "red", "action", "", text])
    setups = game / "setups.yaml"
    setups.write_text(setups.read_text() + "".join(f"      '{name}': 1\n" for name in HOSTILE))
    return game


def test_csv_cells_are_text_as_typed_and_formulas_are_written_escaped(hostile_game, tmp_path):
    result = load_game(hostile_game)
    assert result.ok, [str(f) for f in result.findings]
    cards = {card.name: card.text for card in result.game.cards}
    assert {name: cards.get(name) for name in HOSTILE} == HOSTILE  # no card is 'empty', false or 12
    code, text, _ = cardgen("convert", hostile_game, "--to", "yaml")
    assert code == 0
    back = tmp_path / "back"
    back.mkdir()
    for name in ("game.yaml", "setups.yaml"):
        (back / name).write_text((hostile_game / name).read_text())
    (back / "cards.yaml").write_text(text)
    assert {card.name: card.text for card in load_game(back).game.cards} == cards
    code, text, _ = cardgen("convert", back, "--to", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    written = {row["name"]: row["text"] for row in rows}
    for name, formula in HOSTILE.items():
        assert written[name] == "'" + formula  # a spreadsheet shows it, never runs it
    (back / "cards.csv").write_text(text)
    (back / "cards.yaml").unlink()
    assert {card.name: card.text for card in load_game(back).game.cards} == cards


def test_the_exports_index_escapes_formulas(hostile_game, tmp_path):
    code, _, said = cardgen("export", hostile_game, "--to", "png", "--dpi", "50", "--out", tmp_path / "out")
    assert code == 0, said
    (index,) = (tmp_path / "out").rglob("index.csv")
    rows = list(csv.reader(index.open()))
    assert not [cell for row in rows for cell in row if cell.startswith(("=", "+", "-", "@", "\t"))]
    names = [row[3] for row in rows]
    assert "'=HYPERLINK(\"http://example.com\",\"x\")" not in names  # a card's name, not its text
    assert {"Null", "No", "~", "012", "On"} <= set(names)


@pytest.mark.parametrize("case, edit, words", [
    ("ragged", lambda text: text.rstrip("\n").rstrip("\r") + ',"Choose, then",play\n',
     ["cards.csv:19:", "row 19 has 9 cells, the header 7 columns", "[ragged-row]"]),
    ("unclosed quote", lambda text: text + 'Wild Two,,,wild,wild,,"Choose\n', ["cards.csv:20:", "never closed"]),
    ("latin-1", lambda text: text + "Caf\udce9,,,wild,wild,,x\n", ["cards.csv:20:", "not UTF-8", "0xe9"]),
], ids=["ragged", "unclosed-quote", "latin-1"])
def test_a_broken_csv_is_an_error_at_its_row(game_copy, case, edit, words):
    game = game_copy(COLOR_BURST)
    path = game / "cards.csv"
    path.write_bytes(edit(path.read_text()).encode("utf-8", "surrogateescape"))
    code, text, _ = cardgen("check", game)
    assert code == 1 and all(word in text for word in words), text


def test_blank_lines_above_the_header_are_skipped(game_copy):
    game = game_copy(COLOR_BURST)
    path = game / "cards.csv"
    path.write_text("\n\n" + path.read_text())
    assert cardgen("check", game)[0] == 0


def test_every_shipped_game_round_trips_through_csv(tmp_path):
    for game in sorted(p for p in CARD_DATA.iterdir() if (p / "cards.yaml").is_file()):
        code, text, _ = cardgen("convert", game, "--to", "csv")
        assert code == 0
        copy = tmp_path / game.name
        copy.mkdir()
        for name in ("game.yaml", "setups.yaml"):
            if (game / name).is_file():
                (copy / name).write_text((game / name).read_text())
        (copy / "cards.csv").write_text(text)
        fields = ("id", "name", "color", "kinds", "tags", "number", "star", "flavor", "text", "details", "printed")
        assert [[getattr(c, f) for f in fields] for c in load_game(copy).game.cards] == \
            [[getattr(c, f) for f in fields] for c in load_game(game).game.cards], game.name


def test_new_onto_a_dangling_link_or_under_a_file_touches_nothing(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")
    (tmp_path / "file").write_text("x")
    for target in (tmp_path / "link", tmp_path / "file" / "game"):
        code, _, said = cardgen("new", target)
        assert code == 2 and "error:" in said
    assert not (tmp_path / "nowhere").exists() and (tmp_path / "file").read_text() == "x"


def test_schema_write_never_writes_through_a_link_nor_onto_a_file(tmp_path):
    target = tmp_path / "precious.json"
    target.write_text("keep")
    folder = tmp_path / "schemas"
    folder.mkdir()
    (folder / "game.schema.json").symlink_to(target)
    code, _, said = cardgen("schema", "--write", folder)
    assert code == 2 and "is a link" in said and target.read_text() == "keep"
    code, _, said = cardgen("schema", "--write", target)
    assert code == 2 and "not a folder" in said and target.read_text() == "keep"


def test_names_too_long_for_a_file_name_and_a_padding_without_room_are_errors_at_check(game_copy):
    game = game_copy(TINY_GAME)
    cards = game / "cards.yaml"
    name, art = "\u65e5" * 80, "x" * 300 + ".png"
    cards.write_text(cards.read_text().replace("name: Boom", f"name: {name}, art: {art}", 1))
    setups = game / "setups.yaml"
    setups.write_text(setups.read_text().replace("Boom", name))
    (game / "layout.yaml").write_text("text: {padding: 30}\n")
    code, text, _ = cardgen("check", game)
    assert code == 1
    assert "[file-name-too-long]" in text and "longer than 255 bytes" in text
    assert "layout.yaml:1:" in text and "padding 30 leaves no room" in text
