"""publish/plan: what a command makes, as values. A Plan is its outputs, each an Output: the name
of its kind (publish/kinds/ holds every kind, and each kind's plan functions), a label for
messages, and its options; planned before anything is drawn (options out of range are usage
errors)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardgen.errors import UsageError
from cardgen.layout import cutter
from cardgen.layout import sheet as layout
from cardgen.model import sizes
from cardgen.model.game import Game, Setup
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.model.targets import Target


@dataclass(frozen=True)
class SheetOptions:
    """How card sheets are printed (see `cardgen cards --help`)."""

    size: Any = None  # None: the game's card size
    bleed: float = sizes.DEFAULT_BLEED_MM
    backs: bool = True
    offset: tuple[float, float] = (0.0, 0.0)
    mode: str = "long-edge"  # sizes.PRINT_MODES
    spacing: str = sizes.DEFAULT_SPACING  # sizes.SPACINGS
    png: bool = False
    color: str = "rgb"  # sizes.COLOR_MODES: cmyk is PDF/X-1a for print shops
    marks: str = ""  # a cutting machine's registration marks (layout.cutter.MACHINES), and a cut file
    reprint: tuple[tuple[str, int], ...] = ()  # a reprint: (card id, copies) to print instead of the setup's
    swaps: tuple[str, ...] = ()  # a reprint: its title, then the swap list, on a page of its own

    def make_sheet(self, game: Game, paper: str, deck: str | None = None) -> layout.Sheet:
        size = self.size or game.deck(deck).sheet_size
        if self.marks:
            return cutter.make_machine_sheet(paper, size, self.bleed, self.offset, self.mode, self.spacing, self.marks)
        return layout.make_sheet(paper, size, self.bleed, self.offset, self.mode, self.spacing)


@dataclass(frozen=True)
class ExportPart:
    """One part of an export: a deck's cards for a target, split so that workers share the work."""

    target: Target
    deck: str  # the setup's slug, or "all-types"
    counts: tuple[tuple[str, int], ...]  # (card id, copies)
    part: int = 0
    parts: int = 1


@dataclass(frozen=True)
class Output:
    """One output to render: `kind` is the name of its kind (publish/kinds/: its renderer, cache key
    and files), `label` names it in messages, the other fields are its options (each kind declares
    those it reads; the others keep their defaults)."""

    kind: str
    label: str
    paper: str = DEFAULT_PAPER
    setup: str | None = None
    players: int | None = None
    sheet: SheetOptions = SheetOptions()
    export: ExportPart | None = None
    planned: layout.Sheet | None = None  # card sheets: the sheet the options make, planned once
    deck: str | None = None  # card sheets of one deck of a game of several (None: every card)

    @property
    def part(self) -> ExportPart:
        """The export part this output draws (an export output is planned with one)."""
        if self.export is None:
            raise TypeError(f"{self.kind} output has no export part")
        return self.export

    @property
    def planned_sheet(self) -> layout.Sheet:
        """The sheet card sheets are rendered from (planned with them)."""
        if self.planned is None:
            raise TypeError(f"{self.kind} output has no planned sheet")
        return self.planned

    @property
    def setup_name(self) -> str:
        """The setup this output prints (a setup's card sheets are planned with one)."""
        if self.setup is None:
            raise TypeError(f"{self.kind} output has no setup")
        return self.setup


@dataclass(frozen=True)
class Plan:
    outputs: tuple[Output, ...]
    skipped: tuple[str, ...] = ()  # outputs this game does not have, each with the reason
    notes: tuple[str, ...] = ()  # what the user should know about the outputs (fewer cards a sheet)


@dataclass(frozen=True)
class BuildOptions:
    """What `cardgen build` was asked for beyond the game: each kind plans its outputs from it."""

    paper: str = DEFAULT_PAPER
    exports: tuple[str, ...] = ()  # export targets besides those game.yaml names
    booklet: bool = False


def planned_sheet(game: Game, paper: str, sheet: SheetOptions, deck: str | None = None) -> layout.Sheet:
    """The sheet the options make for a deck's cards, once: the card sheets are rendered from it.
    Options out of range are usage errors."""
    try:
        return sheet.make_sheet(game, paper, deck)
    except ValueError as exc:
        raise UsageError(str(exc), hint="choose another --size, --bleed, --offset, --mode, --marks or --paper") from None


def sheet_notes(made: layout.Sheet, paper: str, spacing: str) -> tuple[str, ...]:
    """What the user should know about a sheet: the cards gutters cost, cut lines shared."""
    note = layout.spacing_note(made, paper, spacing)
    return (note,) if note else ()


def chosen_setup(game: Game, name: str | None) -> Setup:
    """The setup named (by a command's --setup), else the game's default setup, else its first;
    the game has setups (each command says otherwise what it does without)."""
    return named_setup(game, name or game.default_setup or game.setups[0].name)


def named_setup(game: Game, name: str) -> Setup:
    """The setup of that name; a usage error naming the game's setups if it has none of it."""
    try:
        return game.setup(name)
    except KeyError:
        raise UsageError(f"no setup '{name}' in {game.id} (setups: "
                         f"{', '.join(s.name for s in game.setups) or 'none'})") from None
