"""publish/kinds/option_types: the shipped kinds' options, the types their plans make (kinds/documents,
sheets, exports) and their renderers read (kinds/render_*, imported by name: each family's two
modules import these from here, not from each other)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardgen.layout import cutter
from cardgen.layout import sheet as layout
from cardgen.model import sizes
from cardgen.model.game import Game
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.model.targets import Target


@dataclass(frozen=True)
class ChecklistOptions:
    """The checklists of every setup at every player count, or of one setup or player count."""

    paper: str = DEFAULT_PAPER
    setup: str | None = None  # a setup's id
    players: int | None = None


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
class CardSheetOptions:
    """Card sheets of a deck's cards (every card when `deck` is None), printed as `sheet` says on
    the sheet it makes (`planned`, planned once)."""

    paper: str
    sheet: SheetOptions
    planned: layout.Sheet
    deck: str | None


@dataclass(frozen=True)
class SetupSheetOptions(CardSheetOptions):
    """A setup's card sheets (of one deck), at every player count or one."""

    setup: str  # the setup's id
    players: int | None = None


@dataclass(frozen=True)
class CalibrationOptions:
    paper: str
    sheet: SheetOptions


@dataclass(frozen=True)
class ExportPart:
    """One part of an export: a deck's cards for a target, split so that workers share the work."""

    target: Target
    deck: str  # the setup's slug, or "all-types"
    counts: tuple[tuple[str, int], ...]  # (card id, copies)
    part: int
    parts: int
