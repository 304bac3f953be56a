"""load: a game folder's YAML and Markdown → the model, every problem with file:line:column.

YAML is composed into nodes by PyYAML's safe loader (no object construction), then
converted by hand against the schema below. Working from nodes keeps each value's
position, keeps text exactly as typed (`no`, `1.10`, `012` stay text) and lets the loader
collect every problem in one run instead of stopping at the first.
"""
from __future__ import annotations

import dataclasses
import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import yaml

from cardgen.inputs.games import DEFAULT_GAME, GameNotFound, find_game_folder, list_games
from cardgen.load.fields import card_settings
from cardgen.load.game import NO_SETUPS, GameBuilder
from cardgen.load.reader import Reader, leads_out
from cardgen.load.spreadsheet import cards_reader
from cardgen.load.symbol_checks import symbol_findings
from cardgen.load.targets import check_build_exports, load_targets
from cardgen.load.translations import with_languages
from cardgen.model.game import ERROR, WARNING, Finding, Game

# the game folder is found in inputs/games.py (light: a command finds its game without loading)
__all__ = ["DEFAULT_GAME", "GameNotFound", "LoadResult", "collector_paused", "find_game_folder", "list_games",
           "load_game"]


# --------------------------------------------------------------------------- the game


@dataclass
class LoadResult:
    game: Game | None
    findings: list[Finding]

    @property
    def ok(self) -> bool:
        return self.game is not None and not any(f.level == ERROR for f in self.findings)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Loading allocates a node and a model object per value and frees almost nothing, so the
    cycle collector's passes find no garbage: on a 5000-card game they took a third of `check`.
    Load (and check) inside this."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load_game(game: str | os.PathLike[str] | None = None) -> LoadResult:
    folder = find_game_folder(game)
    readers = {"game": Reader(folder / "game.yaml")}
    docs: dict[str, yaml.Node | None] = {"game": _document(readers["game"], "game", folder)}
    settings = card_settings(folder, readers["game"], docs["game"])  # the cards are read with them
    fields = settings.fields
    readers |= {"cards": cards_reader(folder, fields, settings.sheet), "setups": Reader(folder / "setups.yaml")}
    for name in ("cards", "setups"):
        docs[name] = _document(readers[name], name, folder)
    if any(doc is None for doc in docs.values()):
        return LoadResult(None, [f for r in readers.values() for f in r.findings])

    builder = GameBuilder(folder, readers, fields)
    targets, target_findings = load_targets(folder)
    loaded = dataclasses.replace(builder.build(_all_read(docs)), export_targets=targets)
    check_build_exports(loaded, targets, builder.exports_node, readers["game"])
    loaded, language_findings = with_languages(loaded, builder.languages)
    findings = [f for r in readers.values() for f in r.findings] + builder.extra_findings + target_findings
    findings += language_findings
    findings += symbol_findings(loaded, builder.symbol_refs)
    return LoadResult(loaded, findings)


def _document(reader: Reader, name: str, folder: Path) -> yaml.Node | None:
    """One game file's node tree (None, reported, when it cannot be had)."""
    if name == "setups" and not reader.path.exists():
        reader.findings.append(Finding(WARNING, "no-setups", "the game folder has no setups.yaml: the game has "
                                       "no setups yet", reader.where(None), "the build makes a proof sheet of "
                                       "every card type and the rulebook; add setups.yaml for decks, checklists "
                                       "and setup checks (see docs/data-format.md)"))
        return NO_SETUPS
    if not reader.path.exists():  # anything else there is read, or refused when not a regular file
        reader.error(None, "missing-file", f"the game folder has no {reader.path.name}",
                     f"create {name}.yaml{' (or cards.csv, cards.xlsx, cards.ods)' if name == 'cards' else ''} "
                     "(see docs/data-format.md)")
        return None
    if leads_out(reader, folder):
        return None
    return reader.document()


def _all_read(docs: dict[str, yaml.Node | None]) -> dict[str, yaml.Node]:
    return {name: doc for name, doc in docs.items() if doc is not None}
