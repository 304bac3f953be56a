"""terminal: how the command line shows a build. On a terminal: a live progress display of the
outputs being rendered (rich) and a summary table. Anywhere else (a pipe, a file, a CI log):
nothing while it works and a plain summary, never an escape code.

Text from game data goes through errors.printable first, and into rich as Text (never markup),
so a title like `[bold]` or an escape character stays as typed."""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from cardgen.check.results import GameDiff
from cardgen.errors import printable
from cardgen.model.texts import counted
from cardgen.publish.result import Event, Result


def display(stream: TextIO, title: str, outputs: int) -> PlainDisplay:
    """The display for a build of `outputs` outputs, shown on `stream`."""
    cls = LiveDisplay if is_terminal(stream) else PlainDisplay
    return cls(stream, title, outputs)


@contextmanager
def progress(stream: TextIO, description: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of work done in parts, shown on `stream` if it is a terminal (else nothing):
    the function given out takes how many parts of how many are done."""
    if not is_terminal(stream):
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    bar = Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), BarColumn(),
                   MofNCompleteColumn(), TimeElapsedColumn(), console=Console(file=stream), transient=True)
    task = bar.add_task(printable(description), total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # a closed or fake stream
        return False


def _size(path: Path) -> str:
    """A file's size, or a folder's (an export's files) with how many files it holds."""
    try:
        if path.is_dir():
            files = [p for p in path.rglob("*") if p.is_file()]
            return f"{len(files)} files, {_size_text(sum(p.stat().st_size for p in files))}"
        size = path.stat().st_size
    except OSError:
        return "?"
    return _size_text(size)


def _size_text(size: int) -> str:
    return f"{size / 1024:.0f} KB" if size < 1 << 20 else f"{size / (1 << 20):.1f} MB"


def _heading(title: str, folder: Path, result: Result) -> str:
    failed = len(result.failures) + len(result.bugs)
    done = [f"{len(result.written)} written" if result.written else "", f"{len(result.reused)} up to date"
            if result.reused else "", f"{failed} failed" if failed else ""]
    files = counted(len(result.written) + len(result.reused), "file")
    return f"{title}: {files} in {folder}/ ({', '.join(filter(None, done)) or 'nothing to do'})"


class PlainDisplay:
    """Lines of plain text, written when the build is over."""

    def __init__(self, stream: TextIO, title: str, outputs: int):
        self.stream, self.title, self.outputs = stream, title, outputs

    def __enter__(self) -> PlainDisplay:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def event(self, event: Event) -> None:
        pass

    def written(self, result: Result) -> None:
        """What a one-output command wrote, or skipped."""
        for reason in result.skipped:
            self._say(f"skipped {reason}")
        if result.ok:
            for path in result.written:
                self._say(f"wrote {path}")
            for path in result.reused:
                self._say(f"up to date: {path}")

    def summary(self, folder: Path, result: Result) -> None:
        """`cardgen build`'s closing report: the files in the output folder, what was skipped and why."""
        if result.ok:
            for path in result.written:
                self._say(f"wrote {path}")
        self._say(f"\n{_heading(self.title, folder, result)}")
        for path in sorted(result.written):
            self._say(f"  {path.name:<32} {_size(path):>8}")
        for reason in result.skipped:
            self._say(f"skipped {reason}")

    def _say(self, text: str) -> None:
        print(printable(text), file=self.stream)


class LiveDisplay(PlainDisplay):
    """A progress bar over the outputs, a spinner for each one rendering, a line for each one done."""

    def __init__(self, stream: TextIO, title: str, outputs: int):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        super().__init__(stream, title, outputs)
        self.console = Console(file=stream, highlight=False)
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=self.console, transient=True)
        self.tasks: dict = {}
        self.started: dict = {}

    def __enter__(self) -> LiveDisplay:
        self.progress.start()
        self.overall = self.progress.add_task(self._plain(f"building {self.title}"), total=self.outputs)
        return self

    def __exit__(self, *exc) -> None:
        self.progress.stop()

    def event(self, event: Event) -> None:
        label = event.output.label
        if event.kind == "reused":
            self.progress.advance(self.overall)
            return
        if event.kind == "started":
            self.started[label] = time.monotonic()
            self.tasks[label] = self.progress.add_task(self._plain(f"  {label}"), total=None)
            return
        self.progress.remove_task(self.tasks.pop(label))
        self.progress.advance(self.overall)
        seconds = time.monotonic() - self.started.pop(label)
        mark, style = ("✓", "green") if event.kind == "finished" else ("✗", "red")
        self.console.print(self._text(f"{mark} {label}", style), self._text(f"{seconds:.1f} s", "dim"))

    def summary(self, folder: Path, result: Result) -> None:
        from rich.table import Table

        table = Table(box=None, padding=(0, 2), show_header=False)
        table.add_column()
        table.add_column(justify="right")
        for path in sorted(result.written):
            table.add_row(self._text(path.name, "green"), _size(path))
        self.console.print()
        self.console.print(self._text(_heading(self.title, folder, result), "bold"))
        self.console.print(table)
        for reason in result.skipped:
            self.console.print(self._text(f"skipped {reason}", "yellow"))

    @staticmethod
    def _plain(text: str) -> str:
        return printable(text)

    @staticmethod
    def _text(text: str, style: str):
        from rich.text import Text

        return Text(printable(text), style=style)


def diff_lines(game_id: str, since: str, diff: GameDiff) -> list[str]:
    """`cardgen diff` for people: the cards, then each setup's counts, the settings and rules."""
    versions = f"{diff.old_version or '?'} → {diff.new_version or '?'}"
    if diff.empty:
        return [f"{game_id}: nothing changed since {since} ({versions})"]
    lines = [f"{game_id}: changes since {since} ({versions})"]
    tally = [counted(len(diff.changed(status)), "card") + f" {status}" for status in ("changed", "added", "removed")
             if diff.changed(status)]
    if tally:
        lines.append("cards: " + ", ".join(tally))
    for change in diff.cards:
        renamed = f" (was {change.old_name})" if change.old_name else ""
        fields = f": {', '.join(change.fields)}" if change.fields else ""
        lines.append(f"  {change.status:<8} {printable(change.name)}{printable(renamed)}{fields}")
    for name in diff.setups_added:
        lines.append(f"setup added: {printable(name)}")
    for name in diff.setups_removed:
        lines.append(f"setup removed: {printable(name)}")
    for setup in dict.fromkeys(c.setup for c in diff.counts):
        lines.append(f"setup {printable(setup)}:")
        lines += [f"  {where}: {moved}" for where, moved in _count_lines(diff, setup)]
    lines += [f"setting: {printable(setting)}" for setting in diff.settings]
    if any(diff.rules):
        lines.append(f"rules.md: {counted(diff.rules[0], 'line')} removed, {counted(diff.rules[1], 'line')} added")
    if diff.layout:
        lines.append("the card layout changed (layout.yaml or its fonts)")
    return lines


def _count_lines(diff: GameDiff, setup: str) -> list[tuple[str, str]]:
    """A setup's count changes: the printed copies, then the decks, player counts with the same
    changes together ('3–8 players')."""
    by_players: dict[int | None, str] = {}
    for change in (c for c in diff.counts if c.setup == setup):
        moved = f"{printable(change.name)} {change.old} → {change.new}"
        by_players[change.players] = f"{by_players[change.players]}, {moved}" if change.players in by_players else moved
    groups: dict[str, list[int]] = {}
    for players, moved in by_players.items():
        if players is not None:
            groups.setdefault(moved, []).append(players)
    out = [("printed", by_players[None])] if None in by_players else []
    out += [(f"{_players(counts)} players", moved) for moved, counts in groups.items()]
    return out


def _players(counts: list[int]) -> str:
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts))
