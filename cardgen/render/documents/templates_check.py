"""render/documents/templates_check: a game's own templates rendered at `check`, so that an
error in them (an unknown variable, a bad filter, a loop over the budget) is a finding before
anything is built, with the template's file and line, not a failure of the build."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cardgen.check.results import GameReport
from cardgen.errors import BuildError
from cardgen.model.game import ERROR, Finding, Game
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.model.texts import ascii_digits
from cardgen.model.where import Where
from cardgen.render.documents.cheatsheet import TEMPLATE as CHEATSHEET
from cardgen.render.documents.cheatsheet import sheet_context
from cardgen.render.documents.checklists import checklists_context
from cardgen.render.documents.html import own_templates, render_html
from cardgen.render.documents.rulebook import rulebook_context


def template_findings(game: Game, report: GameReport) -> list[Finding]:
    """A finding per document whose HTML the game's own templates cannot render (none when the
    game has no templates/ folder: the shipped templates are tested)."""
    if not own_templates(game):
        return []
    findings = []
    for template, context in _documents(game, report):
        try:
            render_html(game, template, context(), DEFAULT_PAPER)
        except BuildError as exc:
            findings.append(Finding(ERROR, "template-error", f"{template}: {exc.message}",
                                    _where(exc.where), exc.hint or
                                    "fix the game's own template (templates/ in the game folder) at the line named"))
    return findings


def _documents(game: Game, report: GameReport) -> list[tuple[str, Callable[[], dict[str, Any]]]]:
    documents: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("rulebook.html", lambda: rulebook_context(game, report)),
        ("checklists.html", lambda: checklists_context(game, report)),
    ]
    sheet = game.cheatsheet
    if sheet is not None:
        documents += [(CHEATSHEET, functools.partial(sheet_context, game, report, sheet, DEFAULT_PAPER, pocket))
                      for pocket in (False, True)]
    return documents


def _where(place: object) -> Where | None:
    """The Where of a render error's 'file:line' (or None)."""
    if not isinstance(place, str) or not place:
        return None
    file, _, line = place.rpartition(":")
    return Where(file, int(line)) if file and ascii_digits(line) else Where(place)
