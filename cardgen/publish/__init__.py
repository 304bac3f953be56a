"""build: plans the outputs of a command, renders each in a worker process under a CPU-time,
memory and wall-clock ceiling, stages them and publishes them all together or not at all.

Every building command goes through here, `cardgen build` with a plan of every output and
`cardgen rulebook` (and the others) with a plan of one, as do the tests and the benches.

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

import os
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen import check
from cardgen.check import Checked
from cardgen.check.languages import report_in
from cardgen.check.results import GameReport
from cardgen.errors import BuildError, UsageError
from cardgen.inputs.gitrefs import commit_of
from cardgen.inputs.unpack import BadRef
from cardgen.model.game import ERROR, Finding, Game
from cardgen.publish import cache
from cardgen.publish.folder import (
    MANIFEST,
    commit,
    current_outputs,
    left_behind,
    locked,
    made_output_folder,
    new_stage,
    output_error,
    publish_committed,
    read_manifest,
    recover,
)
from cardgen.publish.kinds import KINDS, Kind, kind_of, output_key, plan_all, to_render
from cardgen.publish.kinds.documents import plan_cheatsheet, plan_checklists, plan_rulebook
from cardgen.publish.kinds.exports import plan_export
from cardgen.publish.kinds.sheets import plan_cards
from cardgen.publish.plan import ExportPart, Output, Plan, SheetOptions
from cardgen.publish.simulate import add_how_it_plays
from cardgen.publish.workers import LIMITS, Event, Limits, bounded, render_all
from cardgen.render import cards
from cardgen.render.documents.html import own_templates
from cardgen.render.documents.templates_check import template_findings
from cardgen.render.write import language_dir, output_folder

__all__ = [
    "KINDS", "LIMITS", "MANIFEST", "check_folder", "load_checked", "Event", "ExportPart", "Kind", "Limits", "Output", "Plan", "Result", "SheetOptions", "output_error",
    "kind_of",
    "languages_to_build", "plan_all", "plan_cards", "plan_cheatsheet", "plan_checklists", "plan_export", "plan_rulebook",
    "recover", "report_in", "reuse",
    "run",
]


# --------------------------------------------------------------------------- load and check


def check_folder(game_name: str | os.PathLike[str], all_translated: bool = False) -> Checked:
    """`cardgen check`, and the check before every build: load and check the game, and render the
    game's own templates against the report (their errors are findings too)."""
    checked = check.check_folder(game_name, all_translated)
    report = checked.report
    if report is not None and own_templates(report.game):
        try:
            report.findings += bounded(lambda: template_findings(report.game, report),
                                       "rendering the game's own templates", LIMITS)  # the build's own ceilings
        except BuildError as exc:
            report.findings.append(Finding(ERROR, "template-error", exc.message, None, exc.hint))
    return checked


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


def load_checked(game_name: str | os.PathLike[str]) -> tuple[Game, GameReport]:
    """The game and report of check_folder; Rejected when it finds an error."""
    return check.accepted(check_folder(game_name), game_name)


# --------------------------------------------------------------------------- running a plan


@dataclass
class Result:
    written: list[Path] = field(default_factory=list)
    reused: list[Path] = field(default_factory=list)  # outputs already up to date: not rebuilt
    notes: tuple[str, ...] = ()
    failures: list[str] = field(default_factory=list)  # one clean message per failed output
    bugs: list[str] = field(default_factory=list)  # tracebacks of unexpected exceptions
    warnings: list[str] = field(default_factory=list)
    skipped: tuple[str, ...] = ()
    title: str = ""  # the game's

    @property
    def ok(self) -> bool:
        return not self.failures and not self.bugs


def run(game: Game, report: GameReport, plan: Plan, out: str | os.PathLike | None = None,
        limits: Limits | None = None, on_event: Callable[[Event], None] = lambda event: None, *, clean: bool = False,
        inputs: cache.Snapshot | None = None, request: Any = None, languages: Sequence[str] = ()) -> Result:
    """Render the plan's outputs into a staging folder in `out` (default output/<game>/) and
    publish them when every one succeeded (see the module's docstring). `on_event` hears of
    each output as it starts and ends, or that it was up to date.

    Outputs whose inputs are unchanged since they were published are not rendered again
    (unless `clean`). `inputs` is the snapshot of the input files taken before the game was
    loaded (taken here if not given); `request`, the command's options, lets `reuse` answer
    the same command on unchanged files without loading the game, with `languages`: the other
    languages the command makes, each in its folder inside this one."""
    out = language_dir(game, out)
    limits = limits or LIMITS
    inputs = inputs or cache.snapshot(game.folder)
    result = Result(skipped=plan.skipped, title=game.title, notes=plan.notes)
    placeholders: set[str] = set()
    with locked(made_output_folder(out)):
        recover(out)
        keys = {output: output_key(inputs, game, report, output) for output in plan.outputs}
        known = {} if clean else current_outputs(out)
        todo = to_render(plan.outputs, keys, known)
        for output in plan.outputs:
            if output not in todo:
                result.reused += [out / name for name in known[keys[output]]["files"]]
                placeholders.update(known[keys[output]]["placeholders"])
                result.warnings += known[keys[output]].get("warnings", [])
                on_event(Event("reused", output))
        if any(kind_of(output).plays for output in todo):
            add_how_it_plays(game, report, out, limits, clean)
        made: dict[str, dict] = {}
        stage = new_stage(out)
        try:
            outputs = render_all(game, report, todo, stage, limits,
                                  lambda output: on_event(Event("started", output)))
            for done in outputs:
                on_event(Event("failed" if done.problem or done.bug else "finished", done.output))
                placeholders |= done.placeholders
                result.warnings += done.warnings
                if done.problem:
                    result.failures.append(done.problem)
                if done.bug:
                    result.bugs.append(done.bug)
                made[keys[done.output]] = {"files": sorted(done.files), "placeholders": sorted(done.placeholders),
                                           "warnings": done.warnings}
            if placeholders:  # one warning for all the card sheets, not one per sheet
                result.warnings.append(cards.placeholder_warning(game, sorted(placeholders, key=str.casefold)))
            if result.ok:
                runs = {} if request is None else {cache.request_key(inputs, request): {
                    "outputs": [keys[o] for o in plan.outputs], "warnings": result.warnings,
                    "skipped": list(plan.skipped), "title": game.title, "languages": list(languages),
                    "revisions": _revisions(game, report)}}
                result.written = publish_committed(commit(stage, made, runs), out)
        finally:
            shutil.rmtree(stage, ignore_errors=True)
    return result


def reuse(inputs: cache.Snapshot, request: Any, out: str | os.PathLike | None = None) -> Result | None:
    """What the last run of the same command published, if every input file and option is the
    same and its outputs are unchanged on disk; None if anything needs building. Loads nothing:
    a build with nothing to do costs a digest of the input files and outputs. A folder a killed
    run left behind is no answer: the run that removes it (`recover`) is a full one."""
    out = output_folder(inputs.folder.name, out)
    if any(left_behind(out)):
        return None
    manifest = read_manifest(out)
    last = manifest["cache"]["runs"].get(cache.request_key(inputs, request))
    known = current_outputs(out, manifest)
    if not isinstance(last, dict) or not all(key in known for key in last.get("outputs", ())):
        return None
    if not _same_revisions(last.get("revisions", {}), inputs.folder):
        return None
    files = [out / name for key in last["outputs"] for name in known[key]["files"]]
    result = Result(reused=files, warnings=list(last.get("warnings", ())), skipped=tuple(last.get("skipped", ())),
                    title=str(last.get("title", "")))
    for language in last.get("languages", ()):  # the same command's other languages: up to date too?
        if not isinstance(language, str) or not _LANGUAGE_FOLDER.fullmatch(language):
            return None
        other = reuse(inputs, request, out / language)
        if other is None:
            return None
        result.reused += other.reused
        result.warnings += other.warnings
    return result


def _revisions(game: Game, report: GameReport) -> dict[str, str]:
    """The git revisions a run read, each with the commit it resolved to."""
    return {game.changes_since: report.changes.revision} if report.changes and report.changes.revision else {}


def _same_revisions(revisions: Any, folder: Path) -> bool:
    """Whether every revision a run read still resolves to the same commit (a branch moves)."""
    if not isinstance(revisions, dict):
        return False
    try:
        return all(commit == commit_of(ref, folder)[1] for ref, commit in revisions.items())
    except BadRef:
        return False


_LANGUAGE_FOLDER = re.compile(r"[A-Za-z0-9_-]{1,20}")  # what a manifest may name as a language's folder


# --------------------------------------------------------------------------- the workers


# --------------------------------------------------------------------------- the renderers


# --------------------------------------------------------------------------- staging and publishing

