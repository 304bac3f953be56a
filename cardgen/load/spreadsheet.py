"""load/spreadsheet: cards.csv, as a spreadsheet exports it, read as the same nodes cards.yaml gives.

Each data row becomes a mapping node whose keys are the header's column names, so the loader
converts and checks CSV cards with exactly the code it uses for YAML: every finding names
cards.csv, the spreadsheet row (the header is row 1) and the column (1 = A). A cell is text as
typed, except in the list columns (`kind`, `tags`: comma-separated ids), `numbers`
(a series' range, `FROM-TO`) and `play` (comma-separated primitives, each with its number if it
has one: `skip, extra_turns 1`). Empty cells are left out, as if the key were not written.

Also the way back and forth: cards.yaml's entries as CSV rows, and CSV rows as cards.yaml.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from cardgen.errors import UsageError
from cardgen.load.reader import Reader
from cardgen.load.schema import CARD, CARDS, INT_PATTERN, RANGE, Boolean, Integer
from cardgen.load.turns import read_play
from cardgen.load.yaml_nodes import MAX_NODES
from cardgen.model.game import Finding
from cardgen.model.texts import UNUSABLE_CHARACTER, spreadsheet_cell, spreadsheet_text, unusable_character

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


def cards_file(folder: Path) -> Path:
    """The game's cards file: cards.yaml, or cards.csv when there is no cards.yaml."""
    yaml_path, csv_path = folder / "cards.yaml", folder / "cards.csv"
    return csv_path if csv_path.is_file() and not yaml_path.is_file() else yaml_path


def cards_reader(folder: Path) -> Reader:
    path = cards_file(folder)
    if path.suffix == ".csv":
        return CsvReader(path)
    reader = Reader(path)
    if (folder / "cards.csv").is_file():
        reader.error(None, "two-card-files", "the game folder has both cards.yaml and cards.csv",
                     "keep one of them: cardgen reads the cards from one file")
    return reader


class CsvReader(Reader):
    """A reader whose document is cards.csv turned into the node tree of a cards.yaml."""

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
        known = self.mapping(node, CARD, "cards.csv header")
        return {i: name for i, name in keys if name in known and known[name].start_mark.column == i}

    def _row(self, number: int, cells: list[str], columns: dict[int, str], width: int) -> yaml.MappingNode:
        line = number - 1
        if len(cells) > width and any(cell.strip() for cell in cells[width:]):
            self.error(_scalar("", line, width), "ragged-row",
                       f"row {number} has {len(cells)} cells, the header {width} columns: a text with a "
                       "comma in it was cut into two cells", "put the text in quotes: \"..., ...\"")
        pairs = [(_scalar(name, line, i), self._cell(cells[i], name, line, i))
                 for i, name in columns.items() if i < len(cells) and cells[i].strip()]
        return _mapping(pairs, line, 0)

    def _cell(self, text: str, column: str, line: int, col: int) -> yaml.Node:
        if column in LIST_COLUMNS:
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
        if column in TYPED_COLUMNS:
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
    tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))
    return yaml.ScalarNode(tag, value, _mark(line, column), _mark(line, column))


def _text(value: str, line: int, column: int) -> yaml.ScalarNode:
    """A text cell: text as typed ('No', '~', '012' included), never a boolean, nothing or a number."""
    return yaml.ScalarNode(STR_TAG, value, _mark(line, column), _mark(line, column))


def _mapping(pairs, line: int, column: int) -> yaml.MappingNode:
    return yaml.MappingNode(MAP_TAG, pairs, _mark(line, column), _mark(line, column))


# --------------------------------------------------------------------------- conversion


@dataclass(frozen=True)
class Conversion:
    """`cardgen convert`: the converted text (None when the source has errors, in `findings`)."""

    source: Path
    target: Path
    text: str | None
    findings: tuple[Finding, ...]


def convert(folder: Path, to: str) -> Conversion:
    """The game's cards.yaml as CSV (to="csv") or its cards.csv as cards.yaml (to="yaml")."""
    source = folder / ("cards.yaml" if to == "csv" else "cards.csv")
    if not source.is_file():
        raise UsageError(f"{folder.name} has no {source.name} to convert")
    if to == "csv":
        reader = Reader(source)
        text = cards_as_csv(reader)
    else:
        csv_reader = CsvReader(source)
        text, reader = cards_as_yaml(csv_reader), csv_reader
    return Conversion(source, source.with_suffix(f".{to}"), text, tuple(reader.findings))


def cards_as_csv(reader: Reader) -> str | None:
    """cards.yaml's entries as CSV rows (a column for every key used), or None when the file
    does not read (reported) or holds a value a cell cannot (reported)."""
    node = reader.document()
    entries = _entries(reader, node)
    if entries is None:
        return None
    rows = []
    for entry in entries:
        row = {}
        for key, value in reader.mapping(entry, CARD).items():
            cell = _as_cell(reader, key, value)
            if cell is None:
                return None
            row[key] = cell
        rows.append(row)
    if any(f.level == "error" for f in reader.findings):
        return None
    used = [c for c in CARD_COLUMNS if any(c in row for row in rows)]
    out = io.StringIO()
    writer = csv.DictWriter(out, used, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: spreadsheet_cell(cell) for key, cell in row.items()} for row in rows)
    return out.getvalue()


def cards_as_yaml(reader: CsvReader) -> str | None:
    """cards.csv's rows as a cards.yaml: numbers and booleans as typed, lists as lists."""
    entries = _entries(reader, reader.document())
    if entries is None:
        return None
    cards = [{key.value: _as_plain(value) for key, value in entry.value} for entry in entries]
    return yaml.dump({"cards": cards}, Dumper=_CardsDumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=None)


class _CardsDumper(yaml.SafeDumper):
    """Texts of several lines as `|` blocks, the way a person writes them in cards.yaml."""


_CardsDumper.add_representer(
    str, lambda dumper, text: dumper.represent_scalar(STR_TAG, text, style="|" if "\n" in text else None))


def _entries(reader: Reader, node) -> list[yaml.Node] | None:
    if node is None or any(f.level == "error" for f in reader.findings):
        return None
    top = reader.mapping(node, CARDS, reader.path.name)
    return reader.sequence(top.get("cards"), "cards")


def _as_cell(reader: Reader, key: str, node: yaml.Node) -> str | None:
    if key in LIST_COLUMNS and isinstance(node, yaml.SequenceNode):
        return ", ".join(reader.text(item, key) for item in node.value)
    if key == RANGE_COLUMN and isinstance(node, yaml.MappingNode):
        bounds = reader.mapping(node, RANGE)
        return f"{reader.text(bounds.get('from'), 'from')}-{reader.text(bounds.get('to'), 'to')}"
    if key == PLAY_COLUMN and isinstance(node, yaml.MappingNode):
        play = read_play(reader, node, "")
        return play.words() if play else ""
    if isinstance(node, yaml.ScalarNode):
        return "" if node.tag == "tag:yaml.org,2002:null" else node.value
    reader.error(node, "not-a-cell", f"{key}: this value has no form in a CSV cell",
                 "write it as plain text, or keep the cards in cards.yaml")
    return None


def _as_plain(node: yaml.Node):
    if isinstance(node, yaml.SequenceNode):
        return [_as_plain(item) for item in node.value]
    if isinstance(node, yaml.MappingNode):
        return {key.value: _as_plain(value) for key, value in node.value}
    if node.tag == "tag:yaml.org,2002:null":
        return None
    if node.tag == "tag:yaml.org,2002:int" and INT_PATTERN.match(node.value):
        return int(node.value)
    if node.tag == "tag:yaml.org,2002:bool":
        return node.value.lower() in ("true", "yes", "on")
    return node.value
