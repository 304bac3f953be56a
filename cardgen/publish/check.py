"""publish/check: the one full check of a game folder (`check_folder`), which `cardgen check`
prints and every build, serve, a playtest round and the tests build on; `load_checked` is it
plus `Rejected` on an error.

It imports load, check and diff, and nothing of the build: no worker pool, no output kind, no
renderer. A game's own templates can only be tried by rendering them (render's work, in a
bounded worker): that half, `publish/templates.py`, is imported by its name (TEMPLATES, below)
only for a game that has a templates/ folder."""
from __future__ import annotations

import importlib
import os
from dataclasses import replace

from cardgen import load
from cardgen.check.game import check_game
from cardgen.check.results import Checked, GameReport
from cardgen.diff import changes_since
from cardgen.errors import BuildError
from cardgen.inputs.games import find_game_folder
from cardgen.inputs.paths import has_own_templates
from cardgen.model.game import Finding, Game
from cardgen.model.texts import counted

TEMPLATES = "cardgen.publish.templates"  # the game's own templates rendered against the report: `findings`


def check_folder(game_name: str | os.PathLike[str] | None, all_translated: bool = False) -> Checked:
    """The full check of a game folder, as `cardgen check` prints it and before every build: load
    it and, when it loads cleanly, check it (check_game), find what changed since game.yaml's
    changes_since (kept on the report for the rulebook) and render the game's own templates
    against the report (their errors are findings too)."""
    folder = find_game_folder(game_name)
    with load.collector_paused():
        result = load.load_game(folder)
        report = (check_game(result.game, result.findings, all_translated)
                  if result.ok and result.game else None)
    if report is not None:
        report = _with_templates(_with_changes(report))
    return Checked(folder.name, tuple(result.findings), report)


def _with_changes(report: GameReport) -> GameReport:
    if not report.game.changes_since:
        return report
    changes, findings = changes_since(report)
    return replace(report, changes=changes, findings=(*report.findings, *findings))


def _with_templates(report: GameReport) -> GameReport:
    if not has_own_templates(report.game.folder):
        return report
    found: list[Finding] = importlib.import_module(TEMPLATES).findings(report)
    return replace(report, findings=(*report.findings, *found))


class Rejected(BuildError):
    """The game has error findings: nothing is built."""

    def __init__(self, findings: list[Finding], game_name: str):
        super().__init__(f"{counted(len(findings), 'error')} in {game_name}")
        self.findings, self.game_name = list(findings), game_name

    def __str__(self) -> str:
        return "\n".join([*(str(f) for f in self.findings),
                          f"{counted(len(self.findings), 'error')}: nothing was built. "
                          f"Run 'cardgen check {self.game_name}' for the full report."])


def accepted(checked: Checked, game_name: str | os.PathLike[str] | None) -> tuple[Game, GameReport]:
    """The game and report of a check without errors; else Rejected."""
    if not checked.ok or checked.report is None:
        raise Rejected(checked.errors(), os.fspath(game_name or checked.name))
    return checked.report.game, checked.report


def load_checked(game_name: str | os.PathLike[str] | None) -> tuple[Game, GameReport]:
    """The game and report of check_folder; Rejected when it finds an error."""
    return accepted(check_folder(game_name), game_name)
