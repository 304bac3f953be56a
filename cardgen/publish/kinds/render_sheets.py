"""publish/kinds/render_sheets: the card sheets' renderers (kinds/sheets.py names them), each an
output's call of render/cards. Imported only when a sheet is rendered."""
from __future__ import annotations

from cardgen.check.results import GameReport
from cardgen.model.game import Game
from cardgen.publish.kinds.kind import Rendering
from cardgen.publish.plan import Output
from cardgen.render import cards


def setup_sheets(output: Output, game: Game, report: GameReport, to: Rendering) -> None:
    cards.write_setup_sheets(game, report.setup(output.setup_name), output.planned_sheet, to.folder,
                             players=output.players, backs=output.sheet.backs, png=output.sheet.png,
                             placeholders=to.placeholders, cmyk=output.sheet.color == "cmyk",
                             swaps=output.sheet.swaps, reprint=dict(output.sheet.reprint) if output.sheet.swaps else None,
                             deck=output.deck)


def all_types(output: Output, game: Game, report: GameReport, to: Rendering) -> None:
    cards.write_proof_sheet(game, output.planned_sheet, to.folder, backs=output.sheet.backs, png=output.sheet.png,
                            placeholders=to.placeholders, cmyk=output.sheet.color == "cmyk", deck=output.deck)


def deck_once(output: Output, game: Game, report: GameReport, to: Rendering) -> None:
    cards.write_proof_sheet(game, output.planned_sheet, to.folder, backs=output.sheet.backs, png=output.sheet.png,
                            placeholders=to.placeholders, cmyk=output.sheet.color == "cmyk", deck=output.deck,
                            name=output.deck)


def calibration(output: Output, game: Game, report: GameReport, to: Rendering) -> None:
    cards.write_calibration(game, to.folder, paper=output.paper, offset=output.sheet.offset, mode=output.sheet.mode,
                            png=output.sheet.png, marks=output.sheet.marks)
