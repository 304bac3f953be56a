"""check: the stage between load and render. `check_game` plays out every setup (the engine)
and runs every other check of the data: the text lint, glyph coverage, text fit and art
resolution; `check` loads a game folder and checks it, as `cardgen check`, `build` and `serve`
do."""
from __future__ import annotations

import dataclasses
import gc
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from cardgen import load
from cardgen.check import artfit, faces, fit, glyphs, lint, safezone, visibility
from cardgen.check.diff import diff_games
from cardgen.check.engine import play_out
from cardgen.check.languages import language_findings
from cardgen.check.results import GameReport
from cardgen.errors import BuildError
from cardgen.inputs.files import folder_files
from cardgen.inputs.paths import display_path, game_roots
from cardgen.inputs.refs import BadRef, earlier_version
from cardgen.model.game import ERROR, Finding, Game
from cardgen.model.texts import counted
from cardgen.model.where import Where


def check_game(game: Game, load_findings: Iterable[Finding] = (), all_translated: bool = False) -> GameReport:
    """The engine's report on a loaded game, with the findings of every check (in each of its
    languages; `all_translated`: a text a translation lacks is an error)."""
    reports, findings = play_out(game)
    findings = list(load_findings) + findings
    findings += lint.check_text(game, reports)
    findings += lint.image_findings(game)
    findings += glyphs.check_glyphs(game)
    findings += faces.check_faces(game)
    findings += fit.check_fit(game)
    findings += artfit.check_art(game)
    findings += safezone.check_safe_zone(game)
    findings += input_file_findings(game)
    findings += visibility.invisible_colors(game)
    findings += language_findings(game, findings, all_translated)
    return GameReport(game, reports, findings)


def input_file_findings(game: Game) -> list[Finding]:
    """A file in the game folder a build must not read: a link out of the allowed folders (to
    /proc, to another user's files) or a pipe or device, which could hang the build."""
    return [Finding(ERROR, "bad-input-file", f"{relative} {problem}", Where(display_path(path, game.folder)),
                    "remove it from the game folder, or copy the file it names into it")
            for relative, path, problem in folder_files(game.folder, game_roots(game.folder)) if problem]


class Rejected(BuildError):
    """The game has error findings: nothing is built."""

    def __init__(self, findings: Sequence[Finding], game_name: str):
        super().__init__(f"{counted(len(findings), 'error')} in {game_name}")
        self.findings, self.game_name = list(findings), game_name

    def __str__(self) -> str:
        return "\n".join([*(str(f) for f in self.findings),
                          f"{counted(len(self.findings), 'error')}: nothing was built. "
                          f"Run 'cardgen check {self.game_name}' for the full report."])


@dataclass(frozen=True)
class Checked:
    """A game loaded and checked: the engine's report, or only load's findings when the game
    does not load cleanly (the engine runs on clean data; its findings would only echo them)."""

    name: str  # the game folder's name
    load_findings: tuple[Finding, ...]
    report: GameReport | None

    @property
    def ok(self) -> bool:
        return self.report is not None and not self.report.has_errors

    def errors(self) -> list[Finding]:
        findings = self.report.every_finding() if self.report else self.load_findings
        return [f for f in findings if f.level == ERROR]


def check_folder(game_name: str | os.PathLike[str], all_translated: bool = False) -> Checked:
    """`cardgen check`: load the game and, when it loads cleanly, run the engine."""
    folder = load.find_game_folder(game_name)
    with _collector_paused():
        result = load.load_game(folder)
        report = (check_game(result.game, result.findings, all_translated)
                  if result.ok and result.game else None)
    if report is not None and report.game.changes_since:
        report.findings.extend(record_changes(report))
    return Checked(folder.name, tuple(result.findings), report)


class EarlierBroken(BuildError):
    """The earlier version of a game does not load or check cleanly."""


@contextmanager
def earlier_report(ref: str, game: Game, git_only: bool = False) -> Iterator[tuple[GameReport, str]]:
    """The game as it was at `ref` (see inputs.refs), loaded and checked, while the context lasts,
    and the commit it was read from ('' unless a git revision); EarlierBroken naming its first
    errors when it does not load cleanly."""
    with earlier_version(ref, game.folder, git_only) as version, _collector_paused():
        result = load.load_game(version.folder)
        report = check_game(result.game, result.findings) if result.ok and result.game else None
        errors = Checked(version.folder.name, tuple(result.findings), report).errors()
        if report is None or errors:
            shown = "\n".join(f"  {finding}" for finding in errors[:EARLIER_ERRORS_SHOWN])
            raise EarlierBroken(f"the version at {ref} does not load cleanly ({counted(len(errors), 'error')}):\n"
                                f"{shown}", hint="compare with a version that `cardgen check` accepts")
        yield report, version.commit


EARLIER_ERRORS_SHOWN = 5


def record_changes(report: GameReport) -> list[Finding]:
    """What changed since game.yaml's changes_since, kept on the report for the rulebook with the
    commit it resolved to; an error when that revision's version of the game does not load cleanly."""
    game = report.game
    try:
        with earlier_report(game.changes_since, game, git_only=True) as (old, commit):
            report.changes = dataclasses.replace(diff_games(old, report), revision=commit)
            return []
    except (BadRef, EarlierBroken) as exc:
        return [Finding(ERROR, "bad-changes-since", f"changes_since: {str(exc).splitlines()[0]}", game.changes_where,
                        "name a git tag or commit of the repository holding the game (e.g. v1.1), or remove "
                        "changes_since")]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Loading allocates a node and a model object per value and frees almost nothing, so the
    cycle collector's passes find no garbage: on a 5000-card game they took a third of `check`."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load_checked(game_name: str | os.PathLike[str]) -> tuple[Game, GameReport]:
    """Load and check a game; Rejected when load or the engine finds an error."""
    return accepted(check_folder(game_name), game_name)


def accepted(checked: Checked, game_name: str | os.PathLike[str]) -> tuple[Game, GameReport]:
    """The game and report of a check without errors; else Rejected."""
    if not checked.ok or checked.report is None:
        raise Rejected(checked.errors(), os.fspath(game_name))
    return checked.report.game, checked.report
