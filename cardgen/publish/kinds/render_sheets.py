"""publish/kinds/render_sheets: the card sheets' renderers (kinds/sheets.py names them), each an
output's call of render/cards. Imported only when a sheet is rendered."""
from __future__ import annotations

from cardgen.check.results import GameReport
from cardgen.model.game import Game
from cardgen.publish.kinds.kind import Rendering
from cardgen.publish.kinds.option_types import CalibrationOptions, CardSheetOptions, SetupSheetOptions
from cardgen.publish.plan import Output
from cardgen.render import cards


def setup_sheets(output: Output[SetupSheetOptions], game: Game, report: GameReport, to: Rendering) -> None:
    options, sheet = output.options, output.options.sheet
    cards.write_setup_sheets(game, report.setup(options.setup), options.planned, to.folder, players=options.players,
                             backs=sheet.backs, png=sheet.png, placeholders=to.placeholders, cmyk=sheet.color == "cmyk",
                             swaps=sheet.swaps, reprint=dict(sheet.reprint) if sheet.swaps else None, deck=options.deck)


def all_types(output: Output[CardSheetOptions], game: Game, report: GameReport, to: Rendering) -> None:
    options, sheet = output.options, output.options.sheet
    cards.write_proof_sheet(game, options.planned, to.folder, backs=sheet.backs, png=sheet.png,
                            placeholders=to.placeholders, cmyk=sheet.color == "cmyk", deck=options.deck)


def deck_once(output: Output[CardSheetOptions], game: Game, report: GameReport, to: Rendering) -> None:
    options, sheet = output.options, output.options.sheet
    cards.write_proof_sheet(game, options.planned, to.folder, backs=sheet.backs, png=sheet.png,
                            placeholders=to.placeholders, cmyk=sheet.color == "cmyk", deck=options.deck,
                            name=options.deck)


def calibration(output: Output[CalibrationOptions], game: Game, report: GameReport, to: Rendering) -> None:
    sheet = output.options.sheet
    cards.write_calibration(game, to.folder, paper=output.options.paper, offset=sheet.offset, mode=sheet.mode,
                            png=sheet.png, marks=sheet.marks)
