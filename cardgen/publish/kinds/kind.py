"""publish/kinds/kind: what an output kind declares. Everything the build does with an output
that depends on what it is reads these declarations: no other module names a kind.

A kind is a module of publish/kinds/ holding an `OutputKind` (or a small family of them) with its
plan functions and the type of its outputs' options, and one entry in publish/kinds/__init__.py's
registry. Its renderer (and a plan function that needs render's code) may be named as data,
"module:function", and is imported when first called: the shipped kinds name theirs so
(kinds/render_*.py), so that the registry is light and a command imports only the renderers of
the outputs it renders (none when nothing changed)."""
from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, TypeVar

from cardgen.check.results import GameReport
from cardgen.model.game import Game
from cardgen.publish import cache
from cardgen.publish.imports import import_kept
from cardgen.publish.plan import BuildOptions, Output, PaperOptions, Plan


@dataclass(frozen=True)
class Rendering:
    """Where a renderer writes, and what it reports besides its files."""

    folder: Path  # its own folder in the staging folder
    published: Path  # the output folder its files are published in (files that name each other use it)
    placeholders: set[str]  # cards drawn without art
    warnings: list[str]


Key = Callable[[cache.Snapshot, Game, GameReport, Output[Any]], str]
Renderer = Callable[[Output[Any], Game, GameReport, Rendering], None]
Planner = Callable[[Game, GameReport, BuildOptions], Plan]
Shared = Callable[[], None]
F = TypeVar("F", Renderer, Planner, Shared)


@dataclass(frozen=True)
class OutputKind:
    """An output kind: its outputs are Output(<name>, label, <its options>)."""

    name: str
    # the files its renderer writes, as patterns (fnmatch, `*` crosses folders) of their paths in
    # the output folder: a file outside them is a bug in the renderer, and no output is published
    files: tuple[str, ...]
    # an output's cache key, from the input files' snapshot, the game, the report and the output:
    # it is rendered again when the key changes (publish/cache.py: every_input, cache.sheet_key)
    key: Key
    # writes the output's files into to.folder (a CardgenError is a problem of the data); or its
    # name, "module:function", imported when first called (renderer())
    render: Renderer | str
    likely: str  # the likely cause when its rendering runs over a ceiling or dies ("the likely cause is ...")
    # the type of its outputs' options, a frozen dataclass (its cache key and renderer read them),
    # importable by its module's name (outputs are sent to the workers): an output planned with
    # options of another type is refused
    options_type: type[Any] = PaperOptions
    plays: bool = False  # it shows the simulated figures (how the game plays): they are made before it renders
    preview: bool = True  # `cardgen serve` builds it with the documents (card sheets: the page draws the cards)
    # its outputs in `cardgen build` (None: only its own command makes it); or its name, "module:function"
    build: Planner | str | None = None
    # outputs with the same value are published as one (an export's parts share a folder): one
    # changed renders the others again too
    together: Callable[[Output[Any]], Hashable] | None = None
    # about how long one of its outputs takes to render, in card sheets of a setup: the build
    # starts the longest first, so that no worker is left with a long one while the other idles
    cost: float = 1.0
    # what its outputs' renderers share, made once before the workers fork (the documents: their
    # templates compiled); or its name, "module:function", imported when first called (share())
    shared: Shared | str | None = None

    def __post_init__(self) -> None:
        if not self.files:
            raise ValueError(f"output kind {self.name}: it declares no files")
        params = getattr(self.options_type, "__dataclass_params__", None)
        if params is None or not params.frozen:
            raise ValueError(f"output kind {self.name}: its options ({self.options_type.__name__}) are not a frozen dataclass")

    def renderer(self) -> Renderer:
        """The function that renders an output of this kind (imported now if named)."""
        return _named(self.render)

    def planner(self) -> Planner | None:
        """The function that plans the kind's outputs in `cardgen build`, if any (imported now if named)."""
        return None if self.build is None else _named(self.build)

    def share(self) -> None:
        """What its renderers share, made now, before the workers fork (nothing if it declares none)."""
        if self.shared is not None:
            _named(self.shared)()

    def writes(self, name: str) -> bool:
        """Whether a file of that path (in the output folder) is one the kind declares."""
        return any(fnmatchcase(name, pattern) for pattern in self.files)

    def misplanned(self, output: Output[Any]) -> str | None:
        """What is wrong with an output planned as this kind's, if anything: options of another
        type than the kind's (they would change its cache key, and its renderer could not read them)."""
        if type(output.options) is self.options_type:
            return None
        return f"'{self.name}' outputs take {self.options_type.__name__} as options, not {type(output.options).__name__}"


def _named(function: F | str) -> F:
    """A function, or the one a "module:function" name names (its module imported now)."""
    if not isinstance(function, str):
        return function
    module, _, name = function.partition(":")
    found: F = getattr(import_kept(module), name)
    return found


def every_input(inputs: cache.Snapshot, game: Game, report: GameReport, output: Output[Any]) -> str:
    """The key of an output that shows everything (a document): every input file, the output's
    options, and the commit of game.yaml's changes_since (a branch moves while the files stay)."""
    return cache.document_key(inputs, output, report.changes.revision if report.changes else "")
