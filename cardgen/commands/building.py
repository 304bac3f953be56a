"""What every building command does around its plan: a request to the driver (load and check the
game, build each of its languages) with the progress shown, then what was written (or reused from
the last run) printed."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from cardgen import terminal
from cardgen.check.results import Checked
from cardgen.commands.options import say
from cardgen.errors import BUG_NOTICE, EXIT_BUG, EXIT_DATA, EXIT_OK
from cardgen.publish.cache import Snapshot
from cardgen.publish.driver import drive
from cardgen.publish.request import PlanOf, Request
from cardgen.publish.result import Event, Result


def build_outputs(args, plan_of: PlanOf, summary: bool = False, read: object = None, checked: Checked | None = None,
          inputs: Snapshot | None = None) -> int:
    """Build a command's outputs through the driver, showing its progress on a terminal. When the
    input files and the options are the same as at the command's last run in the output folder,
    and its outputs are unchanged there, nothing needs loading or building (unless --clean).
    `read` is what the command took from elsewhere (a reprint's counts and swap list from an
    earlier version): part of the options; `checked` and `inputs`, a check the command made
    already (a reprint's) and the snapshot of the input files taken before it."""
    options = (args.command, sorted((k, v) for k, v in vars(args).items() if k not in ("run", "out", "clean")), read)
    request = Request(args.game, plan_of, language=args.lang, every_language=summary, out=args.out, clean=args.clean,
                      progress=_shown, options=options, checked=checked, inputs=inputs)
    done = drive(request)
    status = EXIT_OK
    for result in done.results:
        shown = terminal.display(sys.stderr, result.title, 0)  # its progress was shown: what it did
        status = max(status, _said(shown, result, summary))
    return status


@contextmanager
def _shown(title: str, outputs: int) -> Iterator[Callable[[Event], None]]:
    with terminal.display(sys.stderr, title, outputs) as shown:
        yield shown.event


def _said(shown, result: Result, summary: bool) -> int:
    """Print what a run did: failures, bugs, warnings, what was written or already up to date
    (for `build`, a summary of the output folder)."""
    for text in result.failures:
        say(text)
    for text in result.bugs:
        say(text)
        say(BUG_NOTICE)
    for text in (*result.warnings, *result.notes):
        say(text)
    if not result.ok:
        say("nothing was written: the earlier outputs are unchanged")
    if summary:
        shown.summary(result.folder, result)
    else:
        shown.written(result)
    return EXIT_BUG if result.bugs else EXIT_DATA if result.failures else EXIT_OK
