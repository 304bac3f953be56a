"""publish/request: what a build is asked for (`Request`) and what it answers (`Built`), the
words between the driver (publish/driver.py), the build's half it imports by name
(publish/run.py) and their callers: the building commands, serve and the playtest."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

from cardgen.check.results import Checked, GameReport
from cardgen.model.game import Game
from cardgen.publish import cache
from cardgen.publish.limits import Limits
from cardgen.publish.plan import Plan
from cardgen.publish.result import Event, Result

PlanOf = Callable[[Game, GameReport], Plan]
# shows a build's progress: opened once the outputs are planned, with the game's title and how
# many outputs there are; it gives the function that hears each output's events
Progress = Callable[[str, int], AbstractContextManager[Callable[[Event], None]]]


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
