"""load/convert: `cardgen convert`: the game's cards from one of its card files to another format:
cards.yaml as a sheet (CSV, xlsx, ods: a column for every key used, the game's own fields too), and
a sheet (cards.csv, cards.xlsx, cards.ods) as cards.yaml. The source is read by the loader's own
readers, so a conversion refuses what loading would report."""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Union

import yaml

from cardgen.errors import UsageError
from cardgen.load.fields import card_settings, card_spec
from cardgen.load.reader import Reader
from cardgen.load.schema import CARDS, INT_PATTERN, RANGE
from cardgen.load.spreadsheet import CARD_FILES, card_file_reader, list_columns, typed_columns
from cardgen.load.turns import read_play
from cardgen.load.workbook import WORKBOOK_SUFFIXES, Cell, workbook_bytes
from cardgen.model.fields import CardField
from cardgen.model.game import ERROR, Finding
from cardgen.model.texts import spreadsheet_cell

FORMATS = ("yaml", "csv", "xlsx", "ods")
RANGE_COLUMN, PLAY_COLUMN = "numbers", "play"
_FLOAT = re.compile(r"^[+-]?[0-9]+\.[0-9]*$")
# a YAML value as plain data, scalars as a YAML 1.1 reader types them
YamlData = Union[None, bool, int, float, str, list["YamlData"], dict[str, "YamlData"]]
STR_TAG, NULL_TAG = "tag:yaml.org,2002:str", "tag:yaml.org,2002:null"


@dataclass(frozen=True)
class Conversion:
    """The converted file's bytes (None when the source has errors, in `findings`)."""

    source: Path
    target: Path
    data: bytes | None
    findings: tuple[Finding, ...]


def convert(folder: Path, to: str) -> Conversion:
    """The game's cards in the format `to` (one of FORMATS), from its card file of another format."""
    settings = card_settings(folder)
    if any(f.level == ERROR for f in settings.findings):
        return Conversion(folder / "game.yaml", folder / "game.yaml", None, tuple(settings.findings))
    source = _source(folder, to)
    reader = card_file_reader(source, settings.fields, settings.sheet)
    entries = _entries(reader, reader.document())
    if to == "yaml":
        text = None if entries is None else _as_yaml(entries)
        data = None if text is None else text.encode("utf-8")
    else:
        rows = None if entries is None else _rows(reader, entries, settings.fields)
        data = None if rows is None else _as_sheet(rows, f".{to}", settings.fields)
    return Conversion(source, folder / f"cards.{to}", data, tuple(reader.findings))


def _source(folder: Path, to: str) -> Path:
    """cards.yaml for a sheet; for cards.yaml, the game's sheet (cards.csv, cards.xlsx or cards.ods)."""
    wanted = [name for name in CARD_FILES if not name.endswith(f".{to}")]
    if to != "yaml":
        wanted = ["cards.yaml"] + [name for name in wanted if name != "cards.yaml"]
    found = next((folder / name for name in wanted if (folder / name).is_file()), None)
    if found is None:
        raise UsageError(f"{folder.name} has no {' or '.join(wanted)} to convert",
                         hint="convert the cards from one of the game's card files into another format")
    return found


def _entries(reader: Reader, node: yaml.Node | None) -> list[yaml.Node] | None:
    if node is None or any(f.level == ERROR for f in reader.findings):
        return None
    top = reader.mapping(node, CARDS, reader.path.name)
    return reader.sequence(top.get("cards"), "cards")


# --------------------------------------------------------------------------- to a sheet


def _rows(reader: Reader, entries: list[yaml.Node], fields: tuple[CardField, ...]) -> list[dict[str, str]] | None:
    """Each card entry as a row of cell texts by column, or None when a value has no form in a cell
    or the file has errors (reported)."""
    spec, rows = card_spec(fields), []
    for entry in entries:
        row = {}
        for key, value in reader.mapping(entry, spec).items():
            cell = _as_cell(reader, key, value, fields)
            if cell is None:
                return None
            row[key] = cell
        rows.append(row)
    return None if any(f.level == ERROR for f in reader.findings) else rows


def _as_cell(reader: Reader, key: str, node: yaml.Node, fields: tuple[CardField, ...]) -> str | None:
    if key in list_columns(fields) and isinstance(node, yaml.SequenceNode):
        return ", ".join(reader.text(item, key) for item in node.value)
    if key == RANGE_COLUMN and isinstance(node, yaml.MappingNode):
        bounds = reader.mapping(node, RANGE)
        return f"{reader.text(bounds.get('from'), 'from')}-{reader.text(bounds.get('to'), 'to')}"
    if key == PLAY_COLUMN and isinstance(node, yaml.MappingNode):
        play = read_play(reader, node, "")
        return play.words() if play else ""
    if isinstance(node, yaml.ScalarNode):
        return "" if node.tag == NULL_TAG else node.value
    reader.error(node, "not-a-cell", f"{key}: this value has no form in a spreadsheet's cell",
                 "write it as plain text, or keep the cards in cards.yaml")
    return None


def _as_sheet(rows: list[dict[str, str]], suffix: str, fields: tuple[CardField, ...]) -> bytes:
    columns = [*card_spec(fields).fields]
    used = [c for c in columns if any(c in row for row in rows)]
    if suffix in WORKBOOK_SUFFIXES:
        numbers = typed_columns(fields)
        cells = [[_workbook_cell(row.get(c, ""), c in numbers) for c in used] for row in rows]
        header: list[Cell] = list(used)
        return workbook_bytes(suffix, [header, *cells])
    out = io.StringIO()
    writer = csv.DictWriter(out, used, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: spreadsheet_cell(cell) for key, cell in row.items()} for row in rows)
    return out.getvalue().encode("utf-8")


def _workbook_cell(text: str, typed: bool) -> Cell:
    """A number of a number column as a number (the spreadsheet sums it); everything else as text."""
    if typed and INT_PATTERN.match(text.strip()):
        return int(text)
    if typed:
        try:
            return float(text)
        except ValueError:
            return text
    return text


# --------------------------------------------------------------------------- to cards.yaml


def _as_yaml(entries: list[yaml.Node]) -> str:
    """The rows as a cards.yaml: numbers and booleans as typed, lists as lists."""
    cards = [{key.value: _as_plain(value) for key, value in entry.value} for entry in entries]
    return yaml.dump({"cards": cards}, Dumper=_CardsDumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=None)


class _CardsDumper(yaml.SafeDumper):
    """Texts of several lines as `|` blocks, the way a person writes them in cards.yaml."""


_CardsDumper.add_representer(
    str, lambda dumper, text: dumper.represent_scalar(STR_TAG, text, style="|" if "\n" in text else None))


def _as_plain(node: yaml.Node) -> YamlData:
    if isinstance(node, yaml.SequenceNode):
        return [_as_plain(item) for item in node.value]
    if isinstance(node, yaml.MappingNode):
        return {key.value: _as_plain(value) for key, value in node.value}
    text: str = node.value  # a scalar node's value is its text
    if node.tag == NULL_TAG:
        return None
    if node.tag == "tag:yaml.org,2002:int" and INT_PATTERN.match(text):
        return int(text)
    if node.tag == "tag:yaml.org,2002:float" and _FLOAT.match(text):
        return float(text)
    if node.tag == "tag:yaml.org,2002:bool":
        return text.lower() in ("true", "yes", "on")
    return text
