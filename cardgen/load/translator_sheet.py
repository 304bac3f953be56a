"""load/translator_sheet: a game's texts as a translator's spreadsheet, and back.

`cardgen convert GAME --translate de --to csv` prints every text of the source language with its
key, the source text and the translation so far (empty where there is none), for a translator
who works in a spreadsheet; `--to yaml` reads their i18n/de.csv back as i18n/de.yaml."""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import yaml

from cardgen.load.reader import Reader
from cardgen.model.game import ERROR, Finding, Game
from cardgen.model.texts import spreadsheet_cell, spreadsheet_text
from cardgen.model.translate import translatable
from cardgen.model.translation import Translation
from cardgen.model.where import Where

KEY = "key"
# the translation's lists (schema.TRANSLATION), "*" for any one id: the part after one is a place
LISTS = (("setup_steps",), ("setups", "*", "extra_rules"), ("cheatsheet", "sections"),
         ("cheatsheet", "sections", "*", "items"), ("cheatsheet", "combos", "rows"))
MAX_ITEMS = 10_000  # a list's place in a key: more than any game has (a typo must not make a huge list)


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


def translation_as_yaml(path: Path, language: str) -> tuple[str | None, list[Finding]]:
    """A translator's sheet (key, source, `language` columns) as the translation file's YAML; None
    with the findings when a row cannot be read."""
    reader = Reader(path)
    text = reader.read_text("utf-8-sig")
    if text is None:
        return None, reader.findings
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or KEY not in rows[0] or language not in rows[0]:
        reader.error(None, "bad-header", f"{path.name} has no '{KEY}' and '{language}' columns",
                     "write the sheet with cardgen convert GAME --translate LANG --to csv and fill its last column")
        return None, reader.findings
    key_at, text_at = rows[0].index(KEY), rows[0].index(language)
    tree: dict[str, Any] = {}
    for number, row in enumerate(rows[1:], 2):
        if len(row) <= max(key_at, text_at):
            reader.findings.append(Finding(ERROR, "csv-row", f"row {number} has {len(row)} cells, fewer than the header",
                                           Where(reader.name, number), "give every row the header's cells"))
            continue
        key, value = row[key_at].strip(), spreadsheet_text(row[text_at])
        if not key or not value.strip():
            continue
        problem = _place_problem(key.split("/")) or (None if _put(tree, key.split("/"), value)
                                                     else "clashes with another row's")
        if problem:
            reader.findings.append(Finding(ERROR, "csv-row", f"row {number}: the key '{key}' {problem}",
                                           Where(reader.name, number), "keep the keys as the sheet was written"))
    if reader.findings:
        return None, reader.findings
    return yaml.dump(_lists(tree), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100), []


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


def _place_problem(path: list[str]) -> str | None:
    """Why a key cannot be a place in the translation: a list's place that is no number, or too large."""
    for depth in range(1, len(path)):
        part = path[depth]
        if _is_list(path[:depth]) and (not part.isdigit() or int(part) >= MAX_ITEMS):
            return f"has '{part}' where {path[depth - 1]} needs a place from 0 to {MAX_ITEMS - 1}"
    return None


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
