"""publish/playtest: a playtest round. The game as it is (the driver's full check) against an
earlier version (another folder, a zip, a git revision, loaded and checked by diff); what
changed, and the reprint of only the cards to replace with each setup's swap list."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from cardgen import load
from cardgen.check.languages import changes_in, report_in
from cardgen.check.results import Checked, GameDiff, GameReport
from cardgen.diff import earlier_report
from cardgen.diff.games import diff_games, reprint_counts, swap_list
from cardgen.errors import UsageError
from cardgen.inputs.refs import BadRef
from cardgen.model.file_names import slugify
from cardgen.model.game import Game
from cardgen.model.words import gettext, speaking
from cardgen.publish.cache import Snapshot, snapshot
from cardgen.publish.check import accepted, check_folder
from cardgen.publish.imports import import_kept
from cardgen.publish.kinds.option_types import SheetOptions
from cardgen.publish.limits import Limits
from cardgen.publish.plan import chosen_setup
from cardgen.publish.workers import bounded
from cardgen.render.write import atomic_write, output_dir

DIFF_PDF = "cardgen.render.diffpdf"  # imported by name when a PDF is drawn: `cardgen diff` alone draws none


@dataclass(frozen=True)
class Round:
    game: Game
    report: GameReport
    old: GameReport
    diff: GameDiff
    # the game's own check (in its source language) and the input files read before it: a build
    # after the round (a reprint) needs no other
    checked: Checked | None = None
    inputs: Snapshot | None = None

    def reprint(self, sheet: SheetOptions, setup_name: str | None) -> tuple[SheetOptions, list[str]]:
        """The sheet options that print only what the setup's swap list puts in (the game's default
        setup unless named): every copy of the changed and added cards, and the copies a count
        increase adds; and the swap list."""
        if not self.game.setups:
            raise UsageError(f"{self.game.title} has no setups: there is no deck to reprint")
        setup = chosen_setup(self.game, setup_name)
        with speaking(self.game.words):
            swaps = swap_list(self.diff, self.old, self.report, setup.id)
            title = gettext("%(setup)s: from %(old)s to %(new)s") % {
                "setup": setup.name, "old": self.diff.old_version or gettext("the old print"),
                "new": self.diff.new_version or gettext("this one")}
        return dataclasses.replace(sheet, reprint=tuple(reprint_counts(self.diff, self.old, self.report, setup.id)),
                                   swaps=(title, *swaps)), swaps

    def in_language(self, language: str | None) -> Round:
        """The round with the game in one of its languages (its swap list in that language's words)."""
        if language is None or language == self.game.language:
            return self
        report = report_in(self.report, language)
        return Round(report.game, report, self.old, changes_in(self.diff, self.game, report.game), self.checked,
                     self.inputs)

    def write_pdf(self, out_dir: str | Path | None, since: str, paper: str, limits: Limits | None = None) -> Path:
        """diff-since-<ref>.pdf in the game's output folder: the visual diff, drawn in a worker
        under the ceilings of every output (it draws every changed face twice)."""
        path = output_dir(self.game, out_dir) / f"diff-since-{slugify(Path(since).name or since)[:60]}.pdf"
        pdf = bounded(partial(import_kept(DIFF_PDF).diff_pdf, self.old.game, self.game, self.diff, since, paper),
                      f"drawing the changes since {since}", limits)
        return atomic_write(path, pdf)


def write_diff_pdf(game: Game, report: GameReport, since: str, out_dir: Path, paper: str) -> Path:
    """The visual diff of a checked game against its version at `since` (the live preview's)."""
    with _usage(), earlier_report(since, game) as (old, _):
        return Round(game, report, old, diff_games(old, report)).write_pdf(out_dir, since, paper)


@contextmanager
def playtest_round(game_name: str, ref: str) -> Iterator[Round]:
    """The game and its version at `ref`, both checked, and what changed between them."""
    inputs = snapshot(load.find_game_folder(game_name))
    checked = check_folder(game_name)
    game, report = accepted(checked, game_name)
    with _usage(), earlier_report(ref, game) as (old, _):
        yield Round(game, report, old, diff_games(old, report), checked, inputs)


@contextmanager
def _usage() -> Iterator[None]:
    """A REF cardgen cannot read is the command line's problem (exit 2)."""
    try:
        yield
    except BadRef as exc:
        raise UsageError(str(exc), hint="--since takes a game folder, a zip of one or a git revision "
                                        "(a commit, tag or branch) of the repository holding the game") from None
