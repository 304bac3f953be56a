"""publish/result: what a run tells: an Event as each output starts, ends or is reused, and a
Result for each language's folder at the end. Light: the terminal shows them, and a run with
nothing to build answers with a Result, without the worker pool or any renderer."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.publish.plan import Output


@dataclass(frozen=True)
class Event:
    """What `render_and_publish` reports as it works, for a progress display (cli.py shows it): an output
    `started` rendering, `finished`, or `failed` (its message is in the Result), or `reused`:
    up to date, not rendered."""

    kind: str
    output: Output


@dataclass(frozen=True)
class Result:
    """What a run did in one language's folder."""

    folder: Path  # where it published
    written: tuple[Path, ...] = ()
    reused: tuple[Path, ...] = ()  # outputs already up to date: not rebuilt
    notes: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()  # one clean message per failed output
    bugs: tuple[str, ...] = ()  # tracebacks of unexpected exceptions
    warnings: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    title: str = ""  # the game's

    @property
    def ok(self) -> bool:
        return not self.failures and not self.bugs
