"""cache: what each output is made from, as one key, so that a build redoes only what changed.

A key is a SHA-256 over the content of an output's inputs, never over times or sizes:

- every output: cardgen's version and its own source, the versions of the libraries that draw
  (ReportLab, WeasyPrint, pypdfium2, Pillow), and the output (its kind, its label and its kind's
  options: the paper, a setup, the sheet options...);
- card sheets (and the serve preview's card images): the loaded model without the prose
  (the cards and setup the sheet prints, colors, tags, layout, card size...) and the files the
  loader does not parse: art/ (fonts, symbols, card-layout.yaml), the game's symbols, fonts and
  art. So a rules.md edit rebuilds no card sheet, and a card's edit only the sheets that show it;
- the documents (rulebook, checklists, cheat sheet): every file of the game folder, templates/
  and art/, and the commit game.yaml's changes_since resolved to.

`request_key` covers a whole command before anything is loaded (every input file and the
command's options): when it matches the last run's and the outputs on disk are the ones that
run published, a build has nothing to do and need not even load the game, unless a revision it
read (changes_since) now resolves to another commit.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardgen import __version__
from cardgen.inputs.files import UnreadableInput, folder_files, input_digest
from cardgen.inputs.paths import ART, TEMPLATES, game_roots

# the files of a game folder that load parses: their content reaches a key through the model
DATA_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx", ".ods", ".md")  # parsed into the model
DRAWING_LIBRARIES = ("reportlab", "weasyprint", "pypdfium2", "pillow", "svglib")


@dataclass(frozen=True)
class Snapshot:
    """The digest of every input file of a game, taken before the game is loaded: an output
    made after it is at least as new as its key says."""

    folder: Path
    files: tuple[tuple[str, str], ...]  # (label, SHA-256 of the content)

    def digest(self, keep=lambda label: True) -> str:
        return _digest(*(f"{label}\0{content}" for label, content in self.files if keep(label)))


def snapshot(folder: Path) -> Snapshot:
    return Snapshot(folder, tuple((label, "" if label.endswith(REFUSED) else _file_digest(path))
                                  for label, path in input_files(folder)))


def request_key(inputs: Snapshot, request: Any) -> str:
    """The key of a command on a game folder: every input file and the command's options."""
    return _digest(_toolchain(), repr(request), inputs.digest())


def document_key(inputs: Snapshot, output: Any, revision: str = "") -> str:
    """A document shows everything: every input file is an input, and the commit of game.yaml's
    changes_since (the rulebook's changes; a branch moves while the game's files stay)."""
    return _digest(_toolchain(), repr(output), inputs.digest(), revision)


def sheet_key(inputs: Snapshot, game, output: Any, cards: Iterable, setups: Iterable = ()) -> str:
    """A card sheet (or one card's image): the model without the prose and with only the cards
    and setups it prints, the drawing files, and the output's options."""
    model = dataclasses.replace(game, cards=tuple(cards), setups=tuple(setups), rules_markdown="", rules_file="",
                                variations=(), text_checks=None)
    return _digest(_toolchain(), repr(output), repr(model), inputs.digest(_draws))


def simulation_key(game, games: int, seed: str) -> str:
    """The documents' simulation: the game's data without its prose and looks, and the run's size."""
    model = dataclasses.replace(game, rules_markdown="", rules_file="", variations=(), text_checks=None, layout=None,
                                cheatsheet=None, extra={}, backs=(), export_targets={})
    return _digest(_toolchain(), repr(model), str(games), seed)


def input_files(folder: Path) -> list[tuple[str, Path]]:
    """Every file a build of the game may read, each with a label independent of where the
    game folder is: the game folder's files (dot files too, links within the allowed folders
    followed, cardgen's output folders left out), templates/ and art/. A file that cannot be an
    input (a link out of them, a pipe) is labelled as refused and never read: check reports it."""
    roots = game_roots(folder)
    return [*_walk(folder, "game", roots), *_walk(TEMPLATES, "templates", roots), *_walk(ART, "art", roots)]


def _walk(root: Path, label: str, roots: list[Path]) -> Iterator[tuple[str, Path]]:
    if not root.is_dir():
        return
    for relative, path, problem in folder_files(root, roots):
        yield f"{label}/{relative}" + (REFUSED if problem else ""), path


REFUSED = "\0refused"  # a file's label when it is not read (see input_files)


def _draws(label: str) -> bool:
    """Whether a file is read by the card renderer itself rather than parsed into the model:
    all but the data files at the top of the game folder (and its templates)."""
    if not label.startswith("game/"):
        return label.startswith("art/")
    name = label[len("game/"):]
    if name.startswith("templates/"):
        return False
    return "/" in name or not name.lower().endswith(DATA_SUFFIXES)


def _file_digest(path: Path) -> str:
    """A file's SHA-256: "unreadable" for one that vanished or cannot be read (load reports it;
    the key just differs)."""
    try:
        return input_digest(path)
    except UnreadableInput:
        return "unreadable"


@lru_cache(maxsize=1)
def _toolchain() -> str:
    """cardgen's version, its source and the drawing libraries' versions, as one digest."""
    package = Path(__file__).resolve().parent.parent  # cardgen/
    installed = _installed()
    versions = [f"{name}={installed.get(_normal(name), 'none')}" for name in DRAWING_LIBRARIES]
    source = (f"{p.relative_to(package).as_posix()}\0{_file_digest(p)}"
              for p in sorted([*package.rglob("*.py"), *package.glob("locale/*.po")]))
    return _digest(__version__, *versions, *source)


def _installed() -> dict[str, str]:
    """The version of each installed distribution (normalized name -> version), the first on
    sys.path, as its metadata folder names it (name-version.dist-info): one listing of each
    folder of sys.path instead of importlib.metadata (its import and its searches cost a `cardgen
    build` with nothing to do as much as all the rest of it)."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            children = os.listdir(entry or ".")
        except OSError:  # not a folder (a zip), or gone
            continue
        for child in children:
            stem, dot, suffix = child.rpartition(".")
            if dot and suffix.lower() in ("dist-info", "egg-info"):
                name, _, version = stem.partition("-")
                found.setdefault(_normal(name), version)
    return found


def _normal(name: str) -> str:
    """A distribution's name as its metadata folder and a requirement may both write it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _digest(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()
