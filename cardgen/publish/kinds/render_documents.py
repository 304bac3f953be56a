"""publish/kinds/render_documents: the documents' renderers (kinds/documents.py names them), each
an output's call of render/documents. Imported only when a document is rendered."""
from __future__ import annotations

from cardgen.check.results import GameReport
from cardgen.model.game import Game
from cardgen.publish.kinds.kind import Rendering
from cardgen.publish.kinds.option_types import ChecklistOptions
from cardgen.publish.plan import Output, PaperOptions
from cardgen.render import documents
from cardgen.render.documents import booklet
from cardgen.render.documents import cheatsheet as cheatsheets


def rulebook(output: Output[PaperOptions], game: Game, report: GameReport, to: Rendering) -> None:
    documents.write_rulebook(game, report, to.folder, output.options.paper, report.changes)


def rulebook_html(output: Output[PaperOptions], game: Game, report: GameReport, to: Rendering) -> None:
    documents.write_rulebook_html(game, report, to.folder, output.options.paper, report.changes)


def rulebook_booklet(output: Output[PaperOptions], game: Game, report: GameReport, to: Rendering) -> None:
    booklet.write_rulebook_booklet(game, report, to.folder, output.options.paper, report.changes)


def checklists(output: Output[ChecklistOptions], game: Game, report: GameReport, to: Rendering) -> None:
    documents.write_checklists(game, report, to.folder, output.options.paper, output.options.setup, output.options.players)


def cheatsheet(output: Output[PaperOptions], game: Game, report: GameReport, to: Rendering) -> None:
    cheatsheets.write_cheatsheet(game, report, to.folder, output.options.paper, warn=to.warnings.append)
