"""build/plan: what a command makes. Each output with its kind, file, options and the inputs it
depends on; checked before anything is drawn (options out of range are usage errors)."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from cardgen.check.results import GameReport
from cardgen.errors import BuildError, UsageError
from cardgen.layout import cutter
from cardgen.layout import sheet as layout
from cardgen.model import sizes
from cardgen.model.game import Game, Setup
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.model.targets import Target
from cardgen.render import exports


class OutputKind(str, Enum):
    """What an output is: each kind has its renderer (build/workers.py) and its file names."""

    RULEBOOK = "rulebook"
    RULEBOOK_HTML = "rulebook-html"
    RULEBOOK_BOOKLET = "rulebook-booklet"
    CHECKLISTS = "checklists"
    CHEATSHEET = "cheatsheet"
    SETUP_SHEETS = "cards"
    ALL_TYPES = "all-types"
    DECK_ONCE = "deck"  # a `print: all` deck: one of each of its cards, whatever the setups name
    CALIBRATION = "calibration"
    EXPORT = "export"


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
    """One output to render: `kind` names its renderer, `label` names it in messages."""

    kind: OutputKind
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
            raise TypeError(f"{self.kind.value} output has no export part")
        return self.export

    @property
    def planned_sheet(self) -> layout.Sheet:
        """The sheet card sheets are rendered from (planned with them)."""
        if self.planned is None:
            raise TypeError(f"{self.kind.value} output has no planned sheet")
        return self.planned

    @property
    def setup_name(self) -> str:
        """The setup this output prints (a setup's card sheets are planned with one)."""
        if self.setup is None:
            raise TypeError(f"{self.kind.value} output has no setup")
        return self.setup


@dataclass(frozen=True)
class Plan:
    outputs: tuple[Output, ...]
    skipped: tuple[str, ...] = ()  # outputs this game does not have, each with the reason
    notes: tuple[str, ...] = ()  # what the user should know about the outputs (fewer cards a sheet)


def plan_all(game: Game, report: GameReport, paper: str = DEFAULT_PAPER, exports: Sequence[str] = (),
             booklet: bool = False) -> Plan:
    """`cardgen build`: the rulebook, the checklists, the cheat sheet when the game has one, the
    card sheets of every setup, and the exports game.yaml names or `exports` asks for (of the
    default setup, or of every card type when the game has no setups)."""
    outputs, skipped = list(plan_rulebook(game, paper, booklet).outputs), []
    if game.setups:
        outputs.append(Output(OutputKind.CHECKLISTS, "the checklists", paper))
    else:
        skipped.append("checklists.pdf and the setups' card sheets: the game has no setups.yaml; "
                       "cards-all-types.pdf proofs every card instead")
        outputs += _proof_sheets(game, paper, SheetOptions())
    if game.cheatsheet is not None:
        outputs.append(Output(OutputKind.CHEATSHEET, "the cheat sheet", paper))
    else:
        skipped.append(f"cheatsheet.pdf: {_NO_CHEATSHEET}")
    outputs += [output for s in report.setups for output in _setup_sheets(game, s.setup, paper)]
    if game.setups:  # without setups the proof sheets print every deck already
        outputs += _decks_printed_once(game, paper)
    for target in dict.fromkeys((*game.exports, *exports)):
        outputs += _export_outputs(game, report, _target(game, target, None), None, all_types=not game.setups)
    notes = _sheet_notes(planned_sheet(game, paper, SheetOptions()), paper, SheetOptions.spacing) if report.setups else ()
    return Plan(tuple(outputs), tuple(skipped), notes)


def plan_rulebook(game: Game, paper: str = DEFAULT_PAPER, booklet: bool = False) -> Plan:
    """The rulebook PDF and its HTML edition (rulebook.html, one self-contained file); with
    `booklet`, also rulebook-booklet.pdf (half-size pages imposed for saddle stitching)."""
    outputs = [Output(OutputKind.RULEBOOK, "the rulebook", paper),
               Output(OutputKind.RULEBOOK_HTML, "the rulebook's HTML edition", paper)]
    if booklet:
        outputs.append(Output(OutputKind.RULEBOOK_BOOKLET, "the rulebook booklet", paper))
    return Plan(tuple(outputs))


def plan_checklists(game: Game, paper: str = DEFAULT_PAPER, setup: str | None = None,
                    players: int | None = None) -> Plan:
    """The checklists of every setup, or of one; at one player count when asked."""
    setups = [_setup(game, setup)] if setup else list(game.setups)
    if players is not None:
        for s in setups:
            s.require_players(players)
    return Plan((Output(OutputKind.CHECKLISTS, "the checklists", paper, setups[0].id if setup else None, players),))


def plan_cheatsheet(game: Game, paper: str = DEFAULT_PAPER) -> Plan:
    if game.cheatsheet is None:
        raise BuildError(f"{game.title} has no cheat sheet: {_NO_CHEATSHEET}",
                         hint="add a 'reference: cheatsheet:' section to its game.yaml")
    return Plan((Output(OutputKind.CHEATSHEET, "the cheat sheet", paper),))


def plan_cards(game: Game, paper: str = DEFAULT_PAPER, sheet: SheetOptions = SheetOptions(), setup: str | None = None,
               players: int | None = None, all_types: bool = False, calibration: bool = False) -> Plan:
    """One card sheet: a setup's deck (the game's default setup unless named), one card of each
    type, or the duplex calibration sheet. Options out of range are usage errors."""
    made = planned_sheet(game, paper, sheet)
    notes = _sheet_notes(made, paper, sheet.spacing)
    if calibration:
        if sheet.mode == "gutterfold" and not sheet.marks:
            raise UsageError("a gutterfold sheet is folded, not printed double-sided: it needs no calibration",
                             hint="calibrate --mode long-edge or short-edge")
        return Plan((Output(OutputKind.CALIBRATION, "the calibration sheet", paper, sheet=sheet),))
    if all_types:
        return Plan(tuple(_proof_sheets(game, paper, sheet)), notes=notes)
    if not game.setups:
        raise UsageError(f"{game.title} has no setups yet, so there is no deck to print",
                         hint="use --all-types for a proof sheet of every card type, or add setups.yaml")
    chosen = chosen_setup(game, setup)
    if players is not None:
        chosen.require_players(players)
    return Plan(tuple(_setup_sheets(game, chosen, paper, players, sheet)), notes=notes)


def planned_sheet(game: Game, paper: str, sheet: SheetOptions, deck: str | None = None) -> layout.Sheet:
    """The sheet the options make for a deck's cards, once: the card sheets are rendered from it.
    Options out of range are usage errors."""
    try:
        return sheet.make_sheet(game, paper, deck)
    except ValueError as exc:
        raise UsageError(str(exc), hint="choose another --size, --bleed, --offset, --mode, --marks or --paper") from None


def _sheet_notes(made: layout.Sheet, paper: str, spacing: str) -> tuple[str, ...]:
    """What the user should know about a sheet: the cards gutters cost, cut lines shared."""
    note = layout.spacing_note(made, paper, spacing)
    return (note,) if note else ()


def plan_export(game: Game, report: GameReport, target: str, setup: str | None = None,
                all_types: bool = False, dpi: int | None = None) -> Plan:
    """`cardgen export`: a deck's cards for a print service or Tabletop Simulator: the named
    setup's print counts (the default setup unless named), or one card of every type."""
    return Plan(tuple(_export_outputs(game, report, _target(game, target, dpi), setup, all_types)))


def _export_outputs(game: Game, report: GameReport, target, setup: str | None, all_types: bool) -> list[Output]:
    if all_types:
        name, counts = "all-types", {c.id: 1 for c in game.cards}
    else:
        if not game.setups:
            raise UsageError(f"{game.title} has no setups yet", hint="use --all-types to export every card type")
        chosen = chosen_setup(game, setup)
        name = chosen.id  # the same folder name in every language
        counts = {card_id: n for card_id, n in report.setup(chosen.name).print_counts.items() if n}
    outputs = []
    for deck in game.sheet_decks:  # each deck at its own size, in a folder of its own (export-<target>-<setup>-<deck>)
        in_deck = {card_id: n for card_id, n in counts.items() if deck is None or game.card(card_id).deck == deck}
        if in_deck or deck is None:
            outputs += _export_parts(game, target, f"{name}-{deck}" if deck else name, in_deck, deck)
    return outputs


def _export_parts(game: Game, target, deck: str, counts: dict[str, int], card_deck: str | None) -> list[Output]:
    exports.card_pixels(target, game.deck(card_deck))  # a size the target has no product for fails here, not in a worker
    parts = exports.parts_of(game, target, counts)
    frozen = tuple(sorted(counts.items()))
    return [Output(OutputKind.EXPORT, f"the {target.id} export of {deck}" + (f" (part {i + 1} of {parts})" if parts > 1 else ""),
                   export=ExportPart(target, deck, frozen, i, parts)) for i in range(parts)]


def _target(game: Game, name: str, dpi: int | None):
    target = game.export_targets.get(name)
    if target is None:
        raise UsageError(f"no export target '{name}'",
                         hint=f"targets are: {', '.join(game.export_targets)} (or add one in the game's "
                              "export-targets.yaml)")
    if dpi is not None:
        if target.sizes:
            raise UsageError(f"{target.name} ({name}) wants fixed pixel sizes: --dpi is for the png target only")
        target = dataclasses.replace(target, dpi=dpi)
    return target


_NO_CHEATSHEET = "game.yaml has no 'reference: cheatsheet:' section"


def _setup_sheets(game: Game, setup: Setup, paper: str, players: int | None = None,
                  sheet: SheetOptions = SheetOptions()) -> list[Output]:
    """A setup's sheets, named by its id (its name may be a translation that another setup's shares):
    one file of each deck the setup has cards of, each deck at its own card size."""
    named = {line.card for line in setup.lines} | {card for card, _ in setup.hand.extras}
    return [Output(OutputKind.SETUP_SHEETS, f"the card sheets of {setup.name}" + _of_deck(game, deck), paper, setup.id,
                   players, sheet, planned=planned_sheet(game, paper, sheet, deck), deck=deck)
            for deck in game.sheet_decks
            if deck is None or not game.deck(deck).print_all and any(game.card(c).deck == deck for c in named)]


def _decks_printed_once(game: Game, paper: str, sheet: SheetOptions = SheetOptions()) -> list[Output]:
    """Each `print: all` deck: one of each of its cards, in cards-<deck id>.pdf."""
    return [Output(OutputKind.DECK_ONCE, f"the card sheets of {deck.name}", paper, sheet=sheet,
                   planned=planned_sheet(game, paper, sheet, deck.id), deck=deck.id)
            for deck in game.decks if deck.print_all]


def _proof_sheets(game: Game, paper: str, sheet: SheetOptions) -> list[Output]:
    """One card of every type: a file of each deck, each at its own card size."""
    return [Output(OutputKind.ALL_TYPES, "the sheet of every card type" + _of_deck(game, deck), paper, sheet=sheet,
                   planned=planned_sheet(game, paper, sheet, deck), deck=deck) for deck in game.sheet_decks]


def _of_deck(game: Game, deck: str | None) -> str:
    return f" ({game.deck(deck).name})" if deck else ""


def chosen_setup(game: Game, name: str | None) -> Setup:
    """The setup named (by a command's --setup), else the game's default setup, else its first;
    the game has setups (each command says otherwise what it does without)."""
    return _setup(game, name or game.default_setup or game.setups[0].name)


def _setup(game: Game, name: str) -> Setup:
    try:
        return game.setup(name)
    except KeyError:
        raise UsageError(f"no setup '{name}' in {game.id} (setups: "
                         f"{', '.join(s.name for s in game.setups) or 'none'})") from None
