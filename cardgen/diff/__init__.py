"""diff: what changed between two versions of a game. `games.diff_games` compares two checked
versions (a playtest round, `cardgen diff`, the reprint's swap list); `earlier_report` loads and
checks the game as it was at a ref (a folder, a zip, a git revision); `changes_since` is what
changed since game.yaml's changes_since, which the full check puts on its report for the
rulebook."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from cardgen import load
from cardgen.check.game import check_game
from cardgen.check.results import Checked, GameDiff, GameReport
from cardgen.diff.games import diff_games
from cardgen.errors import BuildError
from cardgen.inputs.refs import BadRef, earlier_version
from cardgen.model.game import ERROR, Finding, Game
from cardgen.model.texts import counted

EARLIER_ERRORS_SHOWN = 5


class EarlierBroken(BuildError):
    """The earlier version of a game does not load or check cleanly."""


@contextmanager
def earlier_report(ref: str, game: Game, git_only: bool = False) -> Iterator[tuple[GameReport, str]]:
    """The game as it was at `ref` (see inputs.refs), loaded and checked, while the context lasts,
    and the commit it was read from ('' unless a git revision); EarlierBroken naming its first
    errors when it does not load cleanly."""
    with earlier_version(ref, game.folder, git_only) as version, load.collector_paused():
        result = load.load_game(version.folder)
        report = check_game(result.game, result.findings) if result.ok and result.game else None
        errors = Checked(version.folder.name, tuple(result.findings), report).errors()
        if report is None or errors:
            shown = "\n".join(f"  {finding}" for finding in errors[:EARLIER_ERRORS_SHOWN])
            raise EarlierBroken(f"the version at {ref} does not load cleanly ({counted(len(errors), 'error')}):\n"
                                f"{shown}", hint="compare with a version that `cardgen check` accepts")
        yield report, version.commit


def changes_since(report: GameReport) -> tuple[GameDiff | None, list[Finding]]:
    """What changed since game.yaml's changes_since, with the commit it resolved to, for the
    rulebook; or an error when that revision's version of the game does not load cleanly."""
    game = report.game
    try:
        with earlier_report(game.changes_since, game, git_only=True) as (old, commit):
            return dataclasses.replace(diff_games(old, report), revision=commit), []
    except (BadRef, EarlierBroken) as exc:
        return None, [Finding(ERROR, "bad-changes-since", f"changes_since: {str(exc).splitlines()[0]}",
                              game.changes_where, "name a git tag or commit of the repository holding the game "
                              "(e.g. v1.1), or remove changes_since")]
