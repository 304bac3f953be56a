"""publish/driver: the one way from a game folder to its outputs, load -> check -> plan -> render
-> publish, for every building command, serve and the tests; and the one full check of a game
folder (`check_folder`), which `cardgen check` prints and everything else builds on.

A request names the game, how to plan its outputs, its languages, the output folder and the
options; `drive` answers with what was built. When the input files and the command's options are
those of its last run in the output folder, and that run's outputs are unchanged there, nothing
is loaded: the last run's outputs are the answer."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace

from cardgen import load, publish
from cardgen.check import check_game
from cardgen.check.languages import report_in
from cardgen.check.results import Checked, GameReport
from cardgen.diff import changes_since
from cardgen.errors import BuildError, UsageError
from cardgen.model.game import ERROR, Finding, Game
from cardgen.model.texts import counted
from cardgen.publish import Job, Result, cache
from cardgen.publish.plan import Plan
from cardgen.publish.workers import Event, Limits, bounded
from cardgen.render.documents.html import own_templates
from cardgen.render.documents.templates_check import template_findings

PlanOf = Callable[[Game, GameReport], Plan]
# shows a build's progress: opened once the outputs are planned, with the game's title and how
# many outputs there are; it gives the function that hears each output's events
Progress = Callable[[str, int], AbstractContextManager[Callable[[Event], None]]]


# --------------------------------------------------------------------------- the check


def check_folder(game_name: str | os.PathLike[str] | None, all_translated: bool = False) -> Checked:
    """The full check of a game folder, as `cardgen check` prints it and before every build: load
    it and, when it loads cleanly, check it (check_game), find what changed since game.yaml's
    changes_since (kept on the report for the rulebook) and render the game's own templates
    against the report (their errors are findings too)."""
    folder = load.find_game_folder(game_name)
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
    if not own_templates(report.game):
        return report
    try:
        found = bounded(lambda: template_findings(report.game, report), "rendering the game's own templates",
                        publish.LIMITS)  # the build's own ceilings, read now (a test may lower them)
    except BuildError as exc:
        found = [Finding(ERROR, "template-error", exc.message, None, exc.hint)]
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


# --------------------------------------------------------------------------- the driver


@contextmanager
def _unseen(title: str, outputs: int) -> Iterator[Callable[[Event], None]]:
    yield lambda event: None


@dataclass(frozen=True)
class Request:
    """What to build: the game (a name under card_data/ or a folder) and how to plan its outputs
    from its report, in which languages, where, and with what options."""

    game: str | os.PathLike[str] | None
    plan: PlanOf
    language: str | None = None  # the one language asked for (--lang)
    every_language: bool = False  # without one: every language of the game (`cardgen build`), else its source's
    out: str | os.PathLike[str] | None = None  # the output folder (default output/<game>/)
    clean: bool = False  # render every output again, reuse nothing
    limits: Limits | None = None  # each output's ceilings (default publish.LIMITS)
    progress: Progress = _unseen
    # the command's options: a run with the same input files and options as the last one in the
    # output folder reuses its outputs without loading the game (None: never reused that way)
    options: object = None
    # a check made already (a playtest round's, serve's) and the snapshot of the input files taken
    # before it loaded them: the game is not loaded again
    checked: Checked | None = None
    inputs: cache.Snapshot | None = None


@dataclass(frozen=True)
class Built:
    """What a request built: a result for each language, in the order built (the source first);
    or, when nothing changed since the last run, one result of its outputs, reused."""

    results: tuple[Result, ...]
    reused: bool = False  # the last run's outputs: nothing was loaded

    @property
    def ok(self) -> bool:
        return all(result.ok for result in self.results)


def drive(request: Request) -> Built:
    """Load and check the game, plan its outputs in each language asked for, render them all on one
    pool of workers and publish each language's into its folder. Rejected when the check finds an
    error; UsageError for a language the game does not have."""
    folder = load.find_game_folder(request.game)
    inputs = request.inputs or cache.snapshot(folder)  # read before loading: what the outputs are made from
    # with --lang the folder depends on the game's source language: the game is loaded, and the
    # run reuses each output whose inputs did not change
    if request.options is not None and not request.clean and request.language is None:
        reused = publish.reuse(inputs, request.options, request.out)
        if reused is not None:
            return Built((reused,), reused=True)
    checked = request.checked or check_folder(folder)
    game, report = accepted(checked, folder)
    languages = languages_to_build(game, request.language, request.every_language)
    jobs = []
    for language in languages:
        in_language = report_in(report, language)
        others = () if in_language.game.is_translation else tuple(other for other in languages if other != language)
        jobs.append(Job(in_language.game, in_language, request.plan(in_language.game, in_language), others))
    with request.progress(jobs[0].game.title, sum(len(job.plan.outputs) for job in jobs)) as on_event:
        results = publish.render_and_publish(jobs, request.out, request.limits, on_event, clean=request.clean, inputs=inputs,
                              request=request.options)
    return Built(results)


def languages_to_build(game: Game, language: str | None, every: bool) -> list[str]:
    """The languages a command makes: the one asked for, else every one of the game's (`every`, as
    `cardgen build`) or its source's."""
    if language is None:
        return list(game.every_language) if every else [game.language]
    if language not in game.every_language:
        raise UsageError(f"{game.title} is not in '{language}': its languages are {', '.join(game.every_language)}",
                         hint=f"add {language} to game.yaml's languages: and write i18n/{language}.yaml "
                         "(docs/translate.md)")
    return [language]
