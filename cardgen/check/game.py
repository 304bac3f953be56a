"""check/game: `check_game`, the whole check of a loaded game: the engine plays out every setup,
and every other check of the data runs: the text lint, glyph coverage, text fit and art
resolution. It is pure: the full check of a game folder (load, check_game, the game's own
templates, the changes since game.yaml's changes_since) is `publish.check.check_folder`."""
from __future__ import annotations

from collections.abc import Iterable

from cardgen.check import artfit, faces, fit, glyphs, lint, safezone, visibility
from cardgen.check.engine import play_out
from cardgen.check.languages import language_findings
from cardgen.check.results import GameReport
from cardgen.inputs.files import folder_files
from cardgen.inputs.paths import display_path, game_roots
from cardgen.model.game import ERROR, Finding, Game
from cardgen.model.where import Where


def check_game(game: Game, load_findings: Iterable[Finding] = (), all_translated: bool = False) -> GameReport:
    """The engine's report on a loaded game, with the findings of every check (in each of its
    languages; `all_translated`: a text a translation lacks is an error)."""
    reports, findings = play_out(game)
    findings = list(load_findings) + findings
    findings += lint.check_text(game, reports)
    findings += lint.image_findings(game)
    findings += glyphs.check_glyphs(game)
    findings += faces.check_faces(game)
    findings += fit.check_fit(game)
    findings += artfit.check_art(game)
    findings += safezone.check_safe_zone(game)
    findings += input_file_findings(game)
    findings += visibility.invisible_colors(game)
    findings += language_findings(game, findings, all_translated)
    return GameReport(game, tuple(reports), tuple(findings))


def input_file_findings(game: Game) -> list[Finding]:
    """A file in the game folder a build must not read: a link out of the allowed folders (to
    /proc, to another user's files) or a pipe or device, which could hang the build."""
    return [Finding(ERROR, "bad-input-file", f"{relative} {problem}", Where(display_path(path, game.folder)),
                    "remove it from the game folder, or copy the file it names into it")
            for relative, path, problem in folder_files(game.folder, game_roots(game.folder)) if problem]
