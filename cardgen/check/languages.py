"""languages (check stage): each of a game's other languages checked as its outputs will print it.
A text the translation lacks is a warning (an error with `all_translated`), rules without a
rules.<lang>.md fall back to the source's with a warning, and the translated texts go through the
same glyph coverage and text fit checks as the source's, each finding naming the language."""
from __future__ import annotations

from dataclasses import replace

from cardgen.check import fit, glyphs
from cardgen.check.engine import play_out
from cardgen.check.results import GameReport
from cardgen.inputs.catalogs import language_name
from cardgen.model.game import ERROR, WARNING, Finding, Game
from cardgen.model.translate import translated
from cardgen.model.where import Where

UNTRANSLATED = "untranslated"


def language_findings(game: Game, source: list[Finding], all_translated: bool = False) -> list[Finding]:
    """The findings of every language after the source's (`source`: the source's own findings,
    which a translated text left as the source's would only repeat)."""
    seen = {(f.code, f.message, f.where) for f in source}
    findings = []
    for language in game.languages[1:]:
        findings += _language_findings(game, language, seen, all_translated)
    return findings


def _language_findings(game: Game, language: str, seen: set[tuple[str, str, Where | None]],
                       all_translated: bool) -> list[Finding]:
    translation = game.translations[language]
    name = language_name(language)
    in_language, missing = translated(game, language)
    level = ERROR if all_translated else WARNING
    findings = [Finding(level, UNTRANSLATED, f"{name}: {miss.what} is not translated in {translation.file}",
                        miss.where, f"add {miss.key} to {translation.file}, or leave it: the {name} outputs print "
                        "the source's text")
                for miss in missing]
    if game.rules_markdown and not translation.rules_markdown:
        findings.append(Finding(level, UNTRANSLATED, f"{name}: the rules are not translated: the {name} rulebook "
                                f"uses {game.rules_file}", Where(translation.rules_file),
                                f"translate {game.rules_file} into {translation.rules_file}"))
    for finding in glyphs.check_glyphs(in_language) + fit.check_fit(in_language):
        if (finding.code, finding.message, finding.where) not in seen:
            findings.append(replace(finding, message=f"{name}: {finding.message}"))
    return findings


def report_in(report: GameReport, language: str) -> GameReport:
    """The report of the game in one of its languages, for its outputs: the engine plays the
    translated game's setups (same cards and counts, the setups' names and texts translated)."""
    game = report.game
    if language == game.language:
        return report
    in_language, _ = translated(game, language)
    setups, _ = play_out(in_language)
    return GameReport(in_language, setups, [], report.changes)

