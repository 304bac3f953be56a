"""load/spreadsheet: cards.csv, as a spreadsheet exports it, read as the same nodes cards.yaml gives.

Each data row becomes a mapping node whose keys are the header's column names, so the loader
converts and checks CSV cards with exactly the code it uses for YAML: every finding names
cards.csv, the spreadsheet row (the header is row 1) and the column (1 = A). A cell is text as
typed, except in the list columns (`kind`, `tags`: comma-separated ids), `numbers`
(a series' range, `FROM-TO`) and `play` (comma-separated primitives, each with its number if it
has one: `skip, extra_turns 1`). Empty cells are left out, as if the key were not written.

A workbook (cards.xlsx, cards.ods: load/workbook.py) is read as its rows of text cells, the same
way; its findings name the cell (cards.xlsx: Cards!C12). load/convert.py goes back and forth.
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.load.fields import card_spec
from cardgen.load.reader import Reader
from cardgen.load.schema import CARD, Boolean, Integer
from cardgen.load.workbook import MAX_WORKBOOK_BYTES, WORKBOOK_SUFFIXES, BadWorkbook, read_sheet
from cardgen.load.yaml_nodes import MAX_NODES
from cardgen.model.fields import LIST, NUMBER, YESNO, CardField
from cardgen.model.texts import UNUSABLE_CHARACTER, spreadsheet_text, unusable_character
from cardgen.model.where import Where

CARD_COLUMNS = tuple(CARD.fields)
LIST_COLUMNS = ("kind", "tags")
# the columns whose cells are numbers or flags as YAML reads them (true, 3); every other cell is text
TYPED_COLUMNS = tuple(name for name, field in CARD.fields.items() if isinstance(field.type, (Integer, Boolean)))
RANGE_COLUMN = "numbers"
PLAY_COLUMN = "play"
_PLAY_ITEM = re.compile(r"^([a-z_]+)(?:\s+(\d+))?$")
_RANGE = re.compile(r"^\s*([+-]?\d+)\s*(?:-|\.\.|–)\s*([+-]?\d+)\s*$")
_RESOLVER = yaml.resolver.Resolver()
MAP_TAG, SEQ_TAG, STR_TAG = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:str"


def list_columns(fields: tuple[CardField, ...]) -> tuple[str, ...]:
    """The columns whose cells list items with commas between them: kind, tags and the game's list fields."""
    return LIST_COLUMNS + tuple(f.id for f in fields if f.type == LIST)


def typed_columns(fields: tuple[CardField, ...]) -> tuple[str, ...]:
    """The columns whose cells are numbers or flags: the built-in ones and the game's number and yes/no fields."""
    return TYPED_COLUMNS + tuple(f.id for f in fields if f.type in (NUMBER, YESNO))


CARD_FILES = ("cards.yaml", "cards.csv", "cards.xlsx", "cards.ods")  # a game keeps its cards in one of them


def cards_files(folder: Path) -> list[Path]:
    """The card files the game folder has, in CARD_FILES' order."""
    return [folder / name for name in CARD_FILES if (folder / name).is_file()]


def cards_file(folder: Path) -> Path:
    """The game's cards file: the first of CARD_FILES it has (cards.yaml when none)."""
    return next(iter(cards_files(folder)), folder / CARD_FILES[0])


def cards_reader(folder: Path, fields: tuple[CardField, ...] = (), sheet: str | None = None) -> Reader:
    """The reader of the game's cards file; `sheet`: the workbook's sheet to read (default: the first)."""
    path = cards_file(folder)
    reader = card_file_reader(path, fields, sheet)
    found = cards_files(folder)
    if len(found) > 1:
        reader.error(None, "two-card-files", f"the game folder has {' and '.join(p.name for p in found)}",
                     "keep one of them: cardgen reads the cards from one file (it would read "
                     f"{path.name})")
    return reader


def card_file_reader(path: Path, fields: tuple[CardField, ...] = (), sheet: str | None = None) -> Reader:
    """The reader of a card file by its kind: YAML, CSV or a workbook."""
    if path.suffix == ".csv":
        return CsvReader(path, fields=fields)
    if path.suffix in WORKBOOK_SUFFIXES:
        return SheetReader(path, fields=fields, sheet=sheet)
    return Reader(path)


@dataclass
class CsvReader(Reader):
    """A reader whose document is cards.csv turned into the node tree of a cards.yaml."""

    fields: tuple[CardField, ...] = ()  # the game's own card fields: columns too

    def document(self) -> yaml.Node | None:
        text = self.read_text(encoding="utf-8-sig")  # Excel starts its UTF-8 CSV with a byte-order mark
        if text is None:
            return None
        unusable = UNUSABLE_CHARACTER.search(text)
        if unusable:  # as cards.yaml's values are refused (a terminal would obey an escape sequence)
            line = text.count("\n", 0, unusable.start())
            column = unusable.start() - text.rfind("\n", 0, unusable.start()) - 1
            self.error(_scalar("", line, column), "unusable-character", unusable_character(unusable.group()),
                       "remove the character from the cell")
            return None
        records = self._records(text)
        if records is None:
            return None
        return self._cards_document(records)

    def _cards_document(self, records: list[tuple[int, list[str]]]) -> yaml.Node | None:
        """The rows (each with its row number) as cards.yaml's node tree: the first names the columns."""
        while records and not any(cell.strip() for _, cells in records[:1] for cell in cells):
            records.pop(0)  # blank lines above the header
        if not records:
            self.error(None, "empty-file", "the file is empty", "the first row names the columns: name, color, ...")
            return None
        if sum(len(cells) for _, cells in records) > MAX_NODES:
            self.error(None, "file-too-large", f"more than {MAX_NODES} cells in one file")
            return None
        header_line, header = records[0]
        columns = self._columns(header, header_line)
        if not all(name in columns.values() for name in CARD.required()):
            return None  # reported once for the header, not again for every row
        rows = [self._row(number, cells, columns, len(header)) for number, cells in records[1:]
                if any(cell.strip() for cell in cells)]
        return _mapping([(_scalar("cards", 0, 0), yaml.SequenceNode(SEQ_TAG, rows, _mark(1, 0), _mark(1, 0)))],
                        1, 0)

    def _records(self, text: str) -> list[tuple[int, list[str]]] | None:
        """The rows with the line each starts on (1-based, as the spreadsheet numbers them when
        no cell holds a line break); None (reported at its row) when the CSV does not parse."""
        lines = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text), strict=True)
        records: list[tuple[int, list[str]]] = []
        while True:
            start = lines.line_num + 1
            try:
                cells = next(lines)
            except StopIteration:
                return records
            except csv.Error as exc:
                unclosed = "end of data" in str(exc)
                what = (f"a quote opened on row {start} is never closed" if unclosed
                        else f"row {start} does not read as CSV ({exc})")
                self.error(_scalar("", start - 1, 0), "csv-syntax", what,
                           "close the quote (a quote inside a quoted cell is written twice: \"\"), or export "
                           "the sheet again")
                return None
            records.append((start, cells))

    def _columns(self, header: list[str], line: int) -> dict[int, str]:
        """The header's known columns by position; unknown, duplicate and missing ones are
        reported once, here, by the loader's own check of a card's keys."""
        keys = [(i, name.strip()) for i, name in enumerate(header) if name.strip()]
        node = _mapping([(_scalar(name, line - 1, i), _scalar("", line - 1, i)) for i, name in keys], line - 1, 0)
        known = self.mapping(node, card_spec(self.fields), f"{self.path.name} header")
        return {i: name for i, name in keys if name in known and known[name].start_mark.column == i}

    def _row(self, number: int, cells: list[str], columns: dict[int, str], width: int) -> yaml.MappingNode:
        line = number - 1
        if len(cells) > width and any(cell.strip() for cell in cells[width:]):
            self._ragged(number, cells, width)
        pairs = [(_scalar(name, line, i), self._cell(cells[i], name, line, i))
                 for i, name in columns.items() if i < len(cells) and cells[i].strip()]
        return _mapping(pairs, line, 0)

    def _ragged(self, number: int, cells: list[str], width: int) -> None:
        self.error(_scalar("", number - 1, width), "ragged-row",
                   f"row {number} has {len(cells)} cells, the header {width} columns: a text with a "
                   "comma in it was cut into two cells", "put the text in quotes: \"..., ...\"")

    def _cell(self, text: str, column: str, line: int, col: int) -> yaml.Node:
        if column in list_columns(self.fields):
            items = [item.strip() for item in text.split(",") if item.strip()]
            return yaml.SequenceNode(SEQ_TAG, [_scalar(item, line, col) for item in items],
                                     _mark(line, col), _mark(line, col), flow_style=True)
        if column == RANGE_COLUMN:
            match = _RANGE.match(text)
            if not match:
                self.error(_scalar(text, line, col), "bad-range", f"numbers '{text}' is not a range",
                           "write FROM-TO, e.g. 1-10")
                return _mapping([], line, col)
            return _mapping([(_scalar("from", line, col), _scalar(match[1], line, col)),
                             (_scalar("to", line, col), _scalar(match[2], line, col))], line, col)
        if column == PLAY_COLUMN:
            return self._play(text, line, col)
        if column in typed_columns(self.fields):
            return _scalar(text, line, col)
        return _text(spreadsheet_text(text), line, col)

    def _play(self, text: str, line: int, col: int) -> yaml.MappingNode:
        """`skip, extra_turns 1` as {skip: true, extra_turns: 1}; the loader checks the names."""
        pairs = []
        for item in (item.strip() for item in text.split(",") if item.strip()):
            match = _PLAY_ITEM.match(item)
            if not match:
                self.error(_scalar(item, line, col), "bad-play", f"play '{item}' is not a primitive with its number",
                           "write the primitives with commas between them, e.g. skip, extra_turns 1, peek 3")
                continue
            pairs.append((_scalar(match[1], line, col), _scalar(match[2] or "true", line, col)))
        return _mapping(pairs, line, col)


@dataclass
class SheetReader(CsvReader):
    """A reader whose document is a workbook's sheet (cards.xlsx, cards.ods) read as cards.csv is:
    each finding names the cell as the spreadsheet does (cards.xlsx: Cards!C12)."""

    sheet: str | None = None  # the sheet to read (None: the first); then the one read

    def where(self, node: yaml.Node | None) -> Where:
        found = super().where(node)
        return replace(found, sheet=self.sheet or "") if node is not None else found

    def document(self) -> yaml.Node | None:
        try:
            sheet = read_sheet(read_input(self.path, MAX_WORKBOOK_BYTES), self.sheet)
        except (UnreadableInput, BadWorkbook) as exc:
            self.error(None, "file-unreadable", f"the file {exc}",
                       "save the cards as a workbook of one sheet (or name it in game.yaml's cards_sheet:)")
            return None
        self.sheet = sheet.name
        records = list(enumerate(sheet.rows, 1))
        for number, cells in records:
            for column, cell in enumerate(cells):
                unusable = UNUSABLE_CHARACTER.search(cell)
                if unusable:  # as cards.yaml's values are refused (a terminal would obey an escape sequence)
                    self.error(_scalar("", number - 1, column), "unusable-character",
                               unusable_character(unusable.group()), "remove the character from the cell")
                    return None
        return self._cards_document(records)

    def _ragged(self, number: int, cells: list[str], width: int) -> None:
        column = next(i for i in range(width, len(cells)) if cells[i].strip())
        self.error(_scalar("", number - 1, column), "ragged-row",
                   f"row {number} has a value right of the header's last column", "name the column in row 1, "
                   "or clear the cell")


def _delimiter(text: str) -> str:
    """The header row names plain words: whichever of ; tab , it holds is the delimiter."""
    header = text.split("\n", 1)[0]
    for candidate in (";", "\t"):
        if candidate in header and "," not in header:
            return candidate
    return ","


def _mark(line: int, column: int) -> yaml.Mark:
    return yaml.Mark("cards.csv", 0, line, column, None, None)  # type: ignore[arg-type]  # no buffer: the stubs want one


def _scalar(value: str, line: int, column: int) -> yaml.ScalarNode:
    """A cell as a plain YAML scalar would be: `3` an integer, `yes` a boolean, `null` nothing."""
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))
    return yaml.ScalarNode(tag, value, _mark(line, column), _mark(line, column))


def _text(value: str, line: int, column: int) -> yaml.ScalarNode:
    """A text cell: text as typed ('No', '~', '012' included), never a boolean, nothing or a number."""
    return yaml.ScalarNode(STR_TAG, value, _mark(line, column), _mark(line, column))


def _mapping(pairs: Sequence[tuple[yaml.Node, yaml.Node]], line: int, column: int) -> yaml.MappingNode:
    return yaml.MappingNode(MAP_TAG, pairs, _mark(line, column), _mark(line, column))
