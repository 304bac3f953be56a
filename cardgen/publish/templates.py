"""publish/templates: a game's own templates rendered against its report at check
(`render.documents.templates_check`), in a bounded worker under the build's own ceilings: an
error in them is a finding. `publish/check.py` imports this module by its name, only for a game
with a templates/ folder: a check of any other game imports no renderer and no worker pool."""
from __future__ import annotations

from cardgen.check.results import GameReport
from cardgen.errors import BuildError
from cardgen.model.game import ERROR, Finding
from cardgen.publish.workers import bounded
from cardgen.render.documents.templates_check import template_findings


def findings(report: GameReport) -> list[Finding]:
    """A finding per document the game's own templates cannot render, or one for the worker that
    ran over a ceiling."""
    try:
        return bounded(lambda: template_findings(report.game, report), "rendering the game's own templates")
    except BuildError as exc:
        return [Finding(ERROR, "template-error", exc.message, None, exc.hint)]
