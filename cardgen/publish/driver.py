"""publish/driver: the one way from a game folder to its outputs, load -> check -> plan -> render
-> publish, for every building command, serve and the tests.

A request names the game, how to plan its outputs, its languages, the output folder and the
options; `drive` answers with what was built. When the input files and the command's options are
those of its last run in the output folder, and that run's outputs are unchanged there, nothing
is loaded: the last run's outputs are the answer (`publish/reuse.py`). Only otherwise is the
build's half imported, by its name (RUN, below): the check, the output kinds' planning, the
worker pool and the renderers. So this module, and a build with nothing to do, import none of
them. The full check of a game folder is `publish/check.py`'s `check_folder`."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

from cardgen.check.results import Checked, GameReport
from cardgen.inputs.games import find_game_folder
from cardgen.model.game import Game
from cardgen.publish import cache
from cardgen.publish.imports import import_kept
from cardgen.publish.limits import Limits
from cardgen.publish.plan import Plan
from cardgen.publish.result import Event, Result
from cardgen.publish.reuse import reuse

PlanOf = Callable[[Game, GameReport], Plan]
# shows a build's progress: opened once the outputs are planned, with the game's title and how
# many outputs there are; it gives the function that hears each output's events
Progress = Callable[[str, int], AbstractContextManager[Callable[[Event], None]]]
RUN = "cardgen.publish.run"  # the build's half: `built(request, folder, inputs)`


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
    limits: Limits | None = None  # each output's ceilings (default publish.limits.LIMITS)
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
    folder = find_game_folder(request.game)
    inputs = request.inputs or cache.snapshot(folder)  # read before loading: what the outputs are made from
    # with --lang the folder depends on the game's source language: the game is loaded, and the
    # run reuses each output whose inputs did not change
    if request.options is not None and not request.clean and request.language is None:
        reused = reuse(inputs, request.options, request.out)
        if reused is not None:
            return Built((reused,), reused=True)
    made: Built = import_kept(RUN).built(request, folder, inputs)
    return made
