"""load/translator_sheet: a game's texts as a translator's spreadsheet, and back.

`cardgen convert GAME --translate de --to csv` prints every text of the source language with its
key, the source text and the translation so far (empty where there is none), for a translator
who works in a spreadsheet; `--to yaml` reads their i18n/de.csv back as i18n/de.yaml."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import yaml

from cardgen.load.reader import Reader
from cardgen.model.game import ERROR, Finding, Game
from cardgen.model.texts import UNUSABLE_CHARACTER, spreadsheet_cell, spreadsheet_text, unusable_character
from cardgen.model.translate import translatable
from cardgen.model.translation import Translation
from cardgen.model.where import Where

KEY = "key"
# the translation's lists (schema.TRANSLATION), "*" for any one id: the part after one is a place
LISTS = (("setup_steps",), ("setups", "*", "extra_rules"), ("cheatsheet", "sections"),
         ("cheatsheet", "sections", "*", "items"), ("cheatsheet", "combos", "rows"))
MAX_ITEMS = 10_000  # the places of the lists in all: more than any game has (a typo must not make a huge list)
MAX_KEY_PARTS = 8  # a key's parts ("cheatsheet/sections/0/items/2" has 5): the tree is no deeper


def translation_as_csv(game: Game, language: str) -> str:
    """Every source text: its key, the text, and its translation in `language` so far."""
    translation = game.translations.get(language) or Translation(language, "")
    sources = translatable(game, language)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([KEY, game.language, language])
    for source in sources:
        done = translation.texts.get(source.key)
        writer.writerow([source.key, spreadsheet_cell(source.text), spreadsheet_cell(done.text if done else "")])
    return out.getvalue()


def translation_as_yaml(path: Path, language: str, game_folder: Path) -> tuple[str | None, list[Finding]]:
    """A translator's sheet (key, source, `language` columns) of the game in `game_folder` as the
    translation file's YAML; None with the findings when a row cannot be read."""
    reader = Reader(path, game_folder=game_folder)
    text = reader.read_text("utf-8-sig")
    rows = None if text is None else _rows(reader, text)
    if not rows or KEY not in rows[0][1] or language not in rows[0][1]:
        if rows is not None:
            reader.error(None, "bad-header", f"{path.name} has no '{KEY}' and '{language}' columns",
                         "write the sheet with cardgen convert GAME --translate LANG --to csv and fill its last column")
        return None, reader.findings
    twice = [name for name in (KEY, language) if rows[0][1].count(name) > 1]
    if twice:
        reader.findings.append(Finding(ERROR, "bad-header", f"{path.name} has more than one '{twice[0]}' column: "
                                       "which one holds the texts?", Where(reader.name, rows[0][0], 1),
                                       "keep one of them"))
        return None, reader.findings
    key_at, text_at = rows[0][1].index(KEY), rows[0][1].index(language)
    sheet = _Sheet()
    for number, (line, row) in enumerate(rows[1:], 2):
        if not row:
            continue
        if len(row) <= max(key_at, text_at):
            reader.findings.append(Finding(ERROR, "csv-row", f"row {number} has {len(row)} cells, fewer than the header",
                                           Where(reader.name, line, 1), "give every row the header's cells"))
            continue
        key, value = row[key_at].strip(), spreadsheet_text(row[text_at])
        if not value.strip():
            continue
        if not key:
            reader.findings.append(Finding(ERROR, "csv-row", f"row {number} has a translation but no key",
                                           Where(reader.name, line, 1), "keep the keys as the sheet was written"))
            continue
        problem = sheet.put(key.split("/"), value)
        if problem:
            reader.findings.append(Finding(ERROR, "csv-row", f"row {number}: the key '{key[:80]}' {problem}",
                                           Where(reader.name, line, 1), "keep the keys and texts as the sheet was written"))
    if reader.findings:
        return None, reader.findings
    return yaml.dump(_lists(sheet.tree), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100), []


def _rows(reader: Reader, text: str) -> list[tuple[int, list[str]]] | None:
    """The sheet's rows, each with the line it starts on; None (reported, at the line the row
    starts on) when it is not CSV: a cell longer than the csv module reads (131,072 characters),
    a quote left open."""
    cells = csv.reader(io.StringIO(text), strict=True)  # a quote left open is an error, not the rest of the file
    rows, line = [], 1
    try:
        for row in cells:
            rows.append((line, row))
            line = cells.line_num + 1
    except csv.Error as exc:
        reader.findings.append(Finding(ERROR, "csv-syntax", f"{reader.path.name} cannot be read as CSV: {exc}",
                                       Where(reader.name, line, 1), "save the sheet as CSV again"))
        return None
    return rows


class _Sheet:
    """The rows' texts as the translation's tree, its lists' places within bounds."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.longest: dict[tuple[str, ...], int] = {}  # each list's length so far

    def put(self, path: list[str], value: str) -> str | None:
        """Why the row cannot be put in (None when it was)."""
        if len(path) > MAX_KEY_PARTS:
            return f"has more than {MAX_KEY_PARTS} parts"
        unusable = UNUSABLE_CHARACTER.search(value)
        if unusable:
            return f"has a text that cannot be printed: {unusable_character(unusable.group())}"
        places = _places(path)
        if isinstance(places, str):
            return places
        longest = dict(self.longest)
        for at, place in places:
            longest[at] = max(longest.get(at, 0), place + 1)
        if sum(longest.values()) > MAX_ITEMS:
            return f"makes the translation's lists longer than {MAX_ITEMS} places in all"
        if not _put(self.tree, path, value):
            return "clashes with another row's"
        self.longest = longest
        return None


def _put(tree: dict[str, Any], path: list[str], value: str) -> bool:
    """The value at its place in the tree; False when another row holds that place or a part of it."""
    for part in path[:-1]:
        tree = tree.setdefault(part, {})
        if not isinstance(tree, dict):
            return False
    if path[-1] in tree:
        return False
    tree[path[-1]] = value
    return True


_PLACE = re.compile(r"0|[1-9][0-9]{0,3}")  # as a list's place is written (str(n)): '²' and '007' are none


def _places(path: list[str]) -> list[tuple[tuple[str, ...], int]] | str:
    """The (list, place) pairs of a key; why it cannot be a place in the translation instead: a
    list's place that is no number, or too large."""
    places = []
    for depth in range(1, len(path)):
        part = path[depth]
        if _is_list(path[:depth]):
            if not _PLACE.fullmatch(part) or int(part) >= MAX_ITEMS:
                return f"has '{part[:20]}' where {path[depth - 1][:40]} needs a place from 0 to {MAX_ITEMS - 1}"
            places.append((tuple(path[:depth]), int(part)))
    return places


def _is_list(path: list[str]) -> bool:
    return any(len(path) == len(pattern) and all(p in ("*", part) for p, part in zip(pattern, path))
               for pattern in LISTS)


def _lists(tree: Any, path: tuple[str, ...] = ()) -> Any:
    """The lists' numbered places (setup_steps/0) as lists, in order; other keys (a card called
    "2") stay keys."""
    if not isinstance(tree, dict):
        return tree
    if _is_list(list(path)):  # a gap stays a gap: "" is no translation
        return [_lists(tree.get(str(i), ""), (*path, str(i))) for i in range(max(map(int, tree)) + 1)]
    return {key: _lists(value, (*path, key)) for key, value in tree.items()}


class _Dumper(yaml.SafeDumper):
    """Texts of several lines as `|` blocks, the way a person writes them."""


_Dumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))
