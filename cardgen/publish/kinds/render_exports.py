"""publish/kinds/render_exports: the exports' renderer (kinds/exports.py names it): render/exports
draws the cards. Imported only when exports are rendered."""
from __future__ import annotations

from cardgen.check.results import GameReport
from cardgen.model.game import Game
from cardgen.publish.kinds.kind import Rendering
from cardgen.publish.kinds.option_types import ExportPart
from cardgen.publish.plan import Output
from cardgen.render import exports


def export_part(output: Output[ExportPart], game: Game, report: GameReport, to: Rendering) -> None:
    job = output.options
    exports.export(game, job.target, job.deck, dict(job.counts), to.folder, to.published, job.part, job.parts)
