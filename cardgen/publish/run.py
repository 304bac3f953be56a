"""publish/run: renders the outputs of a command's plans, each in a worker process under a CPU-time,
memory and wall-clock ceiling, stages them and publishes them all together or not at all; and
the driver's half that does it (`built`: check, plan in each language, render, publish), which
`publish/driver.py` imports by its name only when the last run's outputs cannot be reused.

`render_and_publish` runs every building command: `cardgen build` with a plan of every output for
each of the game's languages, all rendered on one pool of workers and each language published
into its own folder, `cardgen rulebook` (and the others) with a plan of one.

Publishing, the promise a reader of the output folder can rely on:

1. every output is written into a staging folder inside the output folder,
   `.cardgen-build-<id>.tmp/`; a failed or killed build leaves the old outputs untouched, and
   the next run removes the staging folder;
2. when every output succeeded, the size and SHA-256 of each staged file are written into the
   staging folder, and it is renamed `.cardgen-publish-<id>.tmp/`: that one rename commits
   the build;
3. its files are moved over the old outputs, each by one atomic rename, and then
   `cardgen-manifest.json` is written (atomically), listing each output with its size and
   SHA-256 as staged. A run killed during step 3 is finished by the next run writing to the
   folder, before it does anything else (the files moved before the kill are in the manifest
   too: their entries were committed with the rest).

So each output file is always complete, and the outputs form one build exactly when each of
them matches the manifest. Runs writing to the same folder take turns (a lock on the folder).
"""
from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cardgen.check.languages import report_in
from cardgen.check.results import GameReport
from cardgen.errors import UsageError
from cardgen.layout.fonts import register_pending
from cardgen.model.game import Game
from cardgen.model.texts import counted
from cardgen.publish import cache
from cardgen.publish import limits as ceilings
from cardgen.publish.check import accepted, check_folder
from cardgen.publish.folder import (
    commit,
    current_outputs,
    locked,
    made_output_folder,
    new_stage,
    publish_committed,
    recover,
)
from cardgen.publish.kinds import kind_of, output_key, to_render
from cardgen.publish.limits import Limits
from cardgen.publish.plan import Output, Plan
from cardgen.publish.request import Built, Request
from cardgen.publish.result import Event, Result
from cardgen.publish.workers import Done, render_all
from cardgen.render.write import language_dir

PLAYS = "cardgen.publish.simulate"  # the simulated figures of a document that shows them: `add_how_it_plays`


@dataclass(frozen=True)
class Job:
    """A plan of one of the game's languages: `game` and `report` in that language."""

    game: Game
    report: GameReport
    plan: Plan
    others: tuple[str, ...] = ()  # the other languages the command makes, each in its folder inside this one's


PLACEHOLDERS_NAMED = 8  # cards named in the warning about cards drawn without art

# --------------------------------------------------------------------------- the driver's half


def built(request: Request, folder: Path, inputs: cache.Snapshot) -> Built:
    """Check the game (unless the request carries its check), plan its outputs in each language
    asked for, render them all on one pool of workers and publish each language's into its folder
    (`publish.driver.drive`, when the last run's outputs are no answer)."""
    checked = request.checked or check_folder(folder)
    game, report = accepted(checked, folder)
    languages = languages_to_build(game, request.language, request.every_language)
    jobs = []
    for language in languages:
        in_language = report_in(report, language)
        others = () if in_language.game.is_translation else tuple(other for other in languages if other != language)
        jobs.append(Job(in_language.game, in_language, request.plan(in_language.game, in_language), others))
    with request.progress(jobs[0].game.title, sum(len(job.plan.outputs) for job in jobs)) as on_event:
        results = render_and_publish(jobs, request.out, request.limits, on_event, clean=request.clean, inputs=inputs,
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


# --------------------------------------------------------------------------- running plans


def render_and_publish(jobs: Sequence[Job], out: str | os.PathLike | None = None, limits: Limits | None = None,
        on_event: Callable[[Event], None] = lambda event: None, *, clean: bool = False,
        inputs: cache.Snapshot | None = None, request: Any = None) -> tuple[Result, ...]:
    """Render the outputs of every job (a plan in each of the game's languages) on one pool of
    workers, each language's into a staging folder in its own folder (`out`, default
    output/<game>/, and <lang>/ inside it), and publish each language's outputs when every one
    of them succeeded (see the module's docstring). `on_event` hears of each output as it starts
    and ends, or that it was up to date.

    Outputs whose inputs are unchanged since they were published are not rendered again
    (unless `clean`). `inputs` is the snapshot of the input files taken before the game was
    loaded (taken here if not given); `request`, the command's options, lets `reuse` answer
    the same command on unchanged files without loading the game."""
    limits = ceilings.current(limits)
    inputs = inputs or cache.snapshot(jobs[0].game.folder)
    with ExitStack() as stack:
        runs: list[_Run] = []
        for job in jobs:  # each folder locked, the source's first (the others are inside it)
            folder = made_output_folder(language_dir(job.game, out))
            stack.enter_context(locked(folder))
            recover(folder)
            runs.append(_Run(job, folder, inputs, clean, limits, on_event))
            stack.callback(shutil.rmtree, runs[-1].stage, ignore_errors=True)
        todo = [(index, output) for index, each in enumerate(runs) for output in each.todo]
        for _, output in todo:  # each renderer imported before the workers fork: each worker has it
            kind_of(output).renderer()
        if todo:
            _before_the_workers([output for _, output in todo])
        sources = [(each.game, each.report, each.stage) for each in runs]
        for index, done in render_all(sources, todo, limits, lambda index, output: runs[index].event("started", output)):
            runs[index].finished(done)
        return tuple(each.published(request) for each in runs)


def _before_the_workers(outputs: list[Output]) -> None:
    """What the workers share, made before they fork: the fonts the check only measured, registered
    with ReportLab; what each kind's renderers share (kind.share: the documents' templates
    compiled); and, when several outputs render (each worker would import them for itself), the
    PDF libraries the renderers import where they use them: pikepdf (the documents' structure,
    PDF/X) and pypdfium2 (pages counted or drawn: a sheet's PNGs, the documents' pictures). A
    card sheet needs neither."""
    register_pending()
    for kind in {kind.shared: kind for kind in map(kind_of, outputs)}.values():  # once for all that share it
        kind.share()
    if len(outputs) > 1:
        import pikepdf  # noqa: F401
        import pypdfium2  # noqa: F401


class _Run:
    """One language's part of a run: what it renders and reuses, and then what it publishes."""

    def __init__(self, job: Job, folder: Path, inputs: cache.Snapshot, clean: bool, limits: Limits,
                 on_event: Callable[[Event], None]):
        game, report, plan = job.game, job.report, job.plan
        self.job, self.folder, self.inputs, self.on_event = job, folder, inputs, on_event
        self.game = game
        self.keys = {output: output_key(inputs, game, report, output) for output in plan.outputs}
        known = {} if clean else current_outputs(folder)
        self.todo = to_render(plan.outputs, self.keys, known)
        self.reused: list[Path] = []
        self.placeholders: set[str] = set()
        self.warnings: list[str] = []
        self.failures: list[str] = []
        self.bugs: list[str] = []
        self.made: dict[str, dict] = {}
        for output in plan.outputs:
            if output not in self.todo:
                entry = known[self.keys[output]]
                self.reused += [folder / name for name in entry["files"]]
                self.placeholders.update(entry["placeholders"])
                self.warnings += entry.get("warnings", [])
                self.event("reused", output)
        if any(kind_of(output).plays for output in self.todo):  # the simulator (numpy) only then
            report = importlib.import_module(PLAYS).add_how_it_plays(game, report, folder, limits, clean)
        self.report = report
        self.stage = new_stage(folder)

    def event(self, kind: str, output: Output) -> None:
        """An output's event; another language's output named with its language (the same outputs
        of two languages render at once)."""
        if self.game.is_translation:
            output = replace(output, label=f"{self.game.language}: {output.label}")
        self.on_event(Event(kind, output))

    def finished(self, done: Done) -> None:
        self.event("failed" if done.problem or done.bug else "finished", done.output)
        self.placeholders |= done.placeholders
        self.warnings += done.warnings
        if done.problem:
            self.failures.append(done.problem)
        if done.bug:
            self.bugs.append(done.bug)
        self.made[self.keys[done.output]] = {"files": sorted(done.files), "placeholders": sorted(done.placeholders),
                                             "warnings": done.warnings}

    def published(self, request: Any) -> Result:
        """Publish the staged outputs when every one succeeded; what the run did."""
        game, plan = self.game, self.job.plan
        warnings = list(self.warnings)
        if self.placeholders:  # one warning for all the card sheets, not one per sheet
            warnings.append(placeholder_warning(game, sorted(self.placeholders, key=str.casefold)))
        written: list[Path] = []
        if not self.failures and not self.bugs:
            runs = {} if request is None else {cache.request_key(self.inputs, request): {
                "outputs": [self.keys[o] for o in plan.outputs], "warnings": warnings,
                "skipped": list(plan.skipped), "title": game.title, "languages": list(self.job.others),
                "revisions": _revisions(game, self.report)}}
            written = publish_committed(commit(self.stage, self.made, runs), self.folder)
        return Result(self.folder, tuple(written), tuple(self.reused), plan.notes, tuple(self.failures),
                      tuple(self.bugs), tuple(warnings), plan.skipped, game.title)


def _revisions(game: Game, report: GameReport) -> dict[str, str]:
    """The git revisions a run read, each with the commit it resolved to."""
    return {game.changes_since: report.changes.revision} if report.changes and report.changes.revision else {}


def placeholder_warning(game: Game, names: Iterable[str]) -> str:
    """The warning about cards that have no art and are drawn with placeholders: the first few
    names, so that a deck with no art yet gets one readable line, not a hundred names."""
    names = list(names)
    shown = ", ".join(names[:PLACEHOLDERS_NAMED])
    if len(names) > PLACEHOLDERS_NAMED:
        shown += f" and {len(names) - PLACEHOLDERS_NAMED} more"
    return (f"warning: {game.id}: {counted(len(names), 'card')} {'has' if len(names) == 1 else 'have'} no art, "
            f"drawn with placeholders: {shown}")
