"""What every building command does around its plan: load and check the game, build each of its
languages with the progress shown, print what was written (or reuse the last run's outputs)."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from cardgen import load, publish, terminal
from cardgen.check.results import GameReport
from cardgen.commands.options import say
from cardgen.errors import BUG_NOTICE, EXIT_BUG, EXIT_DATA, EXIT_OK
from cardgen.model.game import Game
from cardgen.publish import load_checked
from cardgen.publish.cache import snapshot
from cardgen.render.write import language_dir, output_folder

PlanOf = Callable[[Game, GameReport], publish.Plan]


def built(args, plan_of: PlanOf, summary: bool = False, read: object = None) -> int:
    """Load, check, plan and run a building command, showing its progress on a terminal. The
    input files are read before loading: when they and the options are the same as at the
    command's last run in the output folder, and its outputs are unchanged there, nothing
    needs loading or building (unless --clean). `read` is what the command took from elsewhere
    (a reprint's counts and swap list from an earlier version): part of the options."""
    folder = load.find_game_folder(args.game)
    inputs = snapshot(folder)
    request = (args.command, sorted((k, v) for k, v in vars(args).items() if k not in ("run", "out", "clean")), read)
    # with --lang the folder depends on the game's source language: the game is loaded, and the
    # run reuses each output whose inputs did not change
    reused = None if args.clean or args.lang else publish.reuse(inputs, request, args.out)
    if reused is not None:
        shown = terminal.display(sys.stderr, reused.title, 0)  # nothing to show progress of
        return _said(shown, reused, output_folder(folder.name, args.out), summary)
    _before_the_workers_fork()
    game, checked = load_checked(folder)
    status = EXIT_OK
    languages = publish.languages_to_build(game, args.lang, every=summary)
    for language in languages:
        report = publish.report_in(checked, language)
        plan = plan_of(report.game, report)
        others = [] if report.game.is_translation else [other for other in languages if other != language]
        with terminal.display(sys.stderr, report.game.title, len(plan.outputs)) as shown:
            result = publish.run(report.game, report, plan, args.out, on_event=shown.event, clean=args.clean,
                               inputs=inputs, request=request, languages=others)
        status = max(status, _said(shown, result, language_dir(report.game, args.out), summary))
    return status


def _before_the_workers_fork() -> None:
    """The renderers import pikepdf and pypdfium2 where they use them; imported here, before the
    workers fork, each worker has them already (and a build reusing the last run's outputs, which
    forks none, does without them)."""
    import pikepdf  # noqa: F401
    import pypdfium2  # noqa: F401


def _said(shown, result: publish.Result, folder: Path, summary: bool) -> int:
    """Print what a run did: failures, bugs, warnings, what was written or already up to date
    (for `build`, a summary of the output folder)."""
    for text in result.failures:
        say(text)
    for text in result.bugs:
        say(text)
        say(BUG_NOTICE)
    for text in result.warnings + list(result.notes):
        say(text)
    if not result.ok:
        say("nothing was written: the earlier outputs are unchanged")
    if summary:
        shown.summary(folder, result)
    else:
        shown.written(result)
    return EXIT_BUG if result.bugs else EXIT_DATA if result.failures else EXIT_OK
