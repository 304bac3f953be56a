"""publish/kinds/documents: the rulebook (PDF, HTML edition, booklet), the checklists and the cheat
sheet. Each shows everything, so its cache key is every input file. Their renderers are in
kinds/render_documents.py, imported by name when a document is rendered."""
from __future__ import annotations

from cardgen.check.results import GameReport
from cardgen.errors import BuildError
from cardgen.model.game import Game
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.publish.kinds.kind import OutputKind, every_input
from cardgen.publish.kinds.option_types import ChecklistOptions
from cardgen.publish.plan import BuildOptions, Output, PaperOptions, Plan, named_setup

_RENDER = "cardgen.publish.kinds.render_documents"
_TEMPLATES = "cardgen.render.documents.html:compile_shipped_templates"


def _rulebook(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    return Plan((Output(RULEBOOK.name, "the rulebook", PaperOptions(wanted.paper)),))


def _rulebook_html(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    return Plan((Output(RULEBOOK_HTML.name, "the rulebook's HTML edition", PaperOptions(wanted.paper)),))


def _rulebook_booklet(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    return Plan((Output(RULEBOOK_BOOKLET.name, "the rulebook booklet", PaperOptions(wanted.paper)),) if wanted.booklet else ())


def _checklists(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    if not game.setups:
        return Plan((), ("checklists.pdf and the setups' card sheets: the game has no setups.yaml; "
                         "cards-all-types.pdf proofs every card instead",))
    return Plan((Output(CHECKLISTS.name, "the checklists", ChecklistOptions(wanted.paper)),))


def _cheatsheet(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    if game.cheatsheet is None:
        return Plan((), (f"cheatsheet.pdf: {_NO_CHEATSHEET}",))
    return Plan((Output(CHEATSHEET.name, "the cheat sheet", PaperOptions(wanted.paper)),))


RULEBOOK = OutputKind(
    "rulebook", ("rulebook.pdf",), every_input, f"{_RENDER}:rulebook",
    "rules.md (its length, headings or tables), the game's templates, or the images and symbols it shows",
    plays=True, build=_rulebook, cost=20, shared=_TEMPLATES)
RULEBOOK_HTML = OutputKind(
    "rulebook-html", ("rulebook.html",), every_input, f"{_RENDER}:rulebook_html",
    "rules.md, the game's templates, or the images, fonts and symbols it inlines",
    plays=True, build=_rulebook_html, cost=5, shared=_TEMPLATES)
RULEBOOK_BOOKLET = OutputKind(
    "rulebook-booklet", ("rulebook-booklet.pdf",), every_input, f"{_RENDER}:rulebook_booklet",
    "rules.md (its length, headings or wide tables on the half-size page) or the game's templates",
    plays=True, build=_rulebook_booklet, cost=15, shared=_TEMPLATES)
CHECKLISTS = OutputKind(
    "checklists", ("checklists.pdf",), every_input, f"{_RENDER}:checklists", "the game's templates or its setups",
    options_type=ChecklistOptions, plays=True, build=_checklists, cost=20, shared=_TEMPLATES)
CHEATSHEET = OutputKind(
    "cheatsheet", ("cheatsheet.pdf", "cheatsheet-pocket.pdf"), every_input, f"{_RENDER}:cheatsheet",
    "the cheat-sheet section, the game's templates or its symbols", build=_cheatsheet, cost=5, shared=_TEMPLATES)


def plan_rulebook(game: Game, paper: str = DEFAULT_PAPER, booklet: bool = False) -> Plan:
    """The rulebook PDF and its HTML edition (rulebook.html, one self-contained file); with
    `booklet`, also rulebook-booklet.pdf (half-size pages imposed for saddle stitching)."""
    outputs = [Output(RULEBOOK.name, "the rulebook", PaperOptions(paper)),
               Output(RULEBOOK_HTML.name, "the rulebook's HTML edition", PaperOptions(paper))]
    if booklet:
        outputs.append(Output(RULEBOOK_BOOKLET.name, "the rulebook booklet", PaperOptions(paper)))
    return Plan(tuple(outputs))


def plan_checklists(game: Game, paper: str = DEFAULT_PAPER, setup: str | None = None,
                    players: int | None = None) -> Plan:
    """The checklists of every setup, or of one; at one player count when asked."""
    setups = [named_setup(game, setup)] if setup else list(game.setups)
    if players is not None:
        for s in setups:
            s.require_players(players)
    return Plan((Output(CHECKLISTS.name, "the checklists",
                         ChecklistOptions(paper, setups[0].id if setup else None, players)),))


def plan_cheatsheet(game: Game, paper: str = DEFAULT_PAPER) -> Plan:
    if game.cheatsheet is None:
        raise BuildError(f"{game.title} has no cheat sheet: {_NO_CHEATSHEET}",
                         hint="add a 'reference: cheatsheet:' section to its game.yaml")
    return Plan((Output(CHEATSHEET.name, "the cheat sheet", PaperOptions(paper)),))


_NO_CHEATSHEET = "game.yaml has no 'reference: cheatsheet:' section"
