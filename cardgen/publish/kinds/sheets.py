"""publish/kinds/sheets: card sheets. A setup's deck (`cards`), one card of every type
(`all-types`), a `print: all` deck once (`deck`) and the duplex calibration sheet. Each is keyed
on the cards it prints and the drawing files, not on the prose: a rules.md edit redraws none.
Their renderers are in kinds/render_sheets.py, imported by name when a sheet is rendered."""
from __future__ import annotations

from cardgen.check.results import GameReport
from cardgen.errors import UsageError
from cardgen.layout import sheet as layout
from cardgen.model.game import Game, Setup
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.publish import cache
from cardgen.publish.kinds.kind import OutputKind
from cardgen.publish.kinds.option_types import (
    CalibrationOptions,
    CardSheetOptions,
    SetupSheetOptions,
    SheetOptions,
)
from cardgen.publish.plan import BuildOptions, Output, Plan, chosen_setup

_RENDER = "cardgen.publish.kinds.render_sheets"
DEFAULTS = SheetOptions()  # a sheet printed with the default options


def _planned_sheet(game: Game, paper: str, sheet: SheetOptions, deck: str | None = None) -> layout.Sheet:
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


def _setup_key(inputs: cache.Snapshot, game: Game, report: GameReport, output: Output[SetupSheetOptions]) -> str:
    """A setup's sheets: the cards it names or prints, the setup, and its print counts."""
    printed = report.setup(output.options.setup)
    setup = printed.setup
    wanted = ({line.card for line in setup.lines} | {card for card, _ in setup.hand.extras}
              | set(printed.print_counts))
    return cache.sheet_key(inputs, game, (output, printed.print_counts),
                           [c for c in game.cards if c.id in wanted], [setup])


def _every_card(inputs: cache.Snapshot, game: Game, report: GameReport, output: Output[CardSheetOptions]) -> str:
    return cache.sheet_key(inputs, game, output, game.cards)


def _no_card(inputs: cache.Snapshot, game: Game, report: GameReport, output: Output[CalibrationOptions]) -> str:
    return cache.sheet_key(inputs, game, output, ())


def _setups_sheets(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    """Every setup's sheets (none without setups: the proof sheets print every card then)."""
    notes = _sheet_notes(_planned_sheet(game, wanted.paper, DEFAULTS), wanted.paper,
                         DEFAULTS.spacing) if report.setups else ()
    return Plan(tuple(output for s in report.setups for output in _setup_sheets(game, s.setup, wanted.paper)),
                notes=notes)


def _all_types(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    return Plan(() if game.setups else tuple(_proof_sheets(game, wanted.paper, DEFAULTS)))


def _decks_once(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    """Without setups the proof sheets print every deck already."""
    return Plan(tuple(_decks_printed_once(game, wanted.paper)) if game.setups else ())


SETUP_SHEETS = OutputKind(
    "cards", ("cards-*",), _setup_key, f"{_RENDER}:setup_sheets",
    "the number of cards, or the art, symbols and fonts they are drawn with",
    options_type=SetupSheetOptions, preview=False, build=_setups_sheets)
ALL_TYPES = OutputKind(
    "all-types", ("cards-*",), _every_card, f"{_RENDER}:all_types",
    "the number of card types, or the art, symbols and fonts they are drawn with",
    options_type=CardSheetOptions, build=_all_types)
DECK_ONCE = OutputKind(  # a `print: all` deck: one of each of its cards, whatever the setups name
    "deck", ("cards-*",), _every_card, f"{_RENDER}:deck_once",
    "the number of the deck's card types, or the art, symbols and fonts they are drawn with",
    options_type=CardSheetOptions, preview=False, build=_decks_once)
CALIBRATION = OutputKind(
    "calibration", ("calibration-*",), _no_card, f"{_RENDER}:calibration", "the layout's fonts",
    options_type=CalibrationOptions)


def plan_cards(game: Game, paper: str = DEFAULT_PAPER, sheet: SheetOptions = DEFAULTS, setup: str | None = None,
               players: int | None = None, all_types: bool = False, calibration: bool = False) -> Plan:
    """One card sheet: a setup's deck (the game's default setup unless named), one card of each
    type, or the duplex calibration sheet. Options out of range are usage errors."""
    made = _planned_sheet(game, paper, sheet)
    notes = _sheet_notes(made, paper, sheet.spacing)
    if calibration:
        if sheet.mode == "gutterfold" and not sheet.marks:
            raise UsageError("a gutterfold sheet is folded, not printed double-sided: it needs no calibration",
                             hint="calibrate --mode long-edge or short-edge")
        return Plan((Output(CALIBRATION.name, "the calibration sheet", CalibrationOptions(paper, sheet)),))
    if all_types:
        return Plan(tuple(_proof_sheets(game, paper, sheet)), notes=notes)
    if not game.setups:
        raise UsageError(f"{game.title} has no setups yet, so there is no deck to print",
                         hint="use --all-types for a proof sheet of every card type, or add setups.yaml")
    chosen = chosen_setup(game, setup)
    if players is not None:
        chosen.require_players(players)
    return Plan(tuple(_setup_sheets(game, chosen, paper, players, sheet)), notes=notes)


def _setup_sheets(game: Game, setup: Setup, paper: str, players: int | None = None,
                  sheet: SheetOptions = DEFAULTS) -> list[Output[SetupSheetOptions]]:
    """A setup's sheets, named by its id (its name may be a translation that another setup's shares):
    one file of each deck the setup has cards of, each deck at its own card size."""
    named = {line.card for line in setup.lines} | {card for card, _ in setup.hand.extras}
    return [Output(SETUP_SHEETS.name, f"the card sheets of {setup.name}" + _of_deck(game, deck),
                   SetupSheetOptions(paper, sheet, _planned_sheet(game, paper, sheet, deck), deck, setup.id, players))
            for deck in game.sheet_decks
            if deck is None or not game.deck(deck).print_all and any(game.card(c).deck == deck for c in named)]


def _decks_printed_once(game: Game, paper: str, sheet: SheetOptions = DEFAULTS) -> list[Output[CardSheetOptions]]:
    """Each `print: all` deck: one of each of its cards, in cards-<deck id>.pdf."""
    return [Output(DECK_ONCE.name, f"the card sheets of {deck.name}",
                   CardSheetOptions(paper, sheet, _planned_sheet(game, paper, sheet, deck.id), deck.id))
            for deck in game.decks if deck.print_all]


def _proof_sheets(game: Game, paper: str, sheet: SheetOptions) -> list[Output[CardSheetOptions]]:
    """One card of every type: a file of each deck, each at its own card size."""
    return [Output(ALL_TYPES.name, "the sheet of every card type" + _of_deck(game, deck),
                   CardSheetOptions(paper, sheet, _planned_sheet(game, paper, sheet, deck), deck))
            for deck in game.sheet_decks]


def _of_deck(game: Game, deck: str | None) -> str:
    return f" ({game.deck(deck).name})" if deck else ""
