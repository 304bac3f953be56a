"""languages (check stage): each of a game's other languages checked as its outputs will print it.
A text the translation lacks is a warning (an error with `all_translated`), rules without a
rules.<lang>.md fall back to the source's with a warning, and the translated texts go through the
same glyph coverage and text fit checks as the source's, each finding naming the language."""
from __future__ import annotations

from dataclasses import replace

from cardgen.check import fit, glyphs, lint
from cardgen.check.engine import play_out
from cardgen.check.results import GameDiff, GameReport
from cardgen.check.texts import GameText, Place
from cardgen.inputs.catalogs import language_name
from cardgen.load.symbol_checks import card_symbol_findings
from cardgen.model.game import ERROR, WARNING, Finding, Game
from cardgen.model.translate import translated
from cardgen.model.where import Where
from cardgen.model.words import Words

UNTRANSLATED = "untranslated"


def language_findings(game: Game, source: list[Finding], all_translated: bool = False) -> list[Finding]:
    """The findings of every language after the source's (`source`: the source's own findings,
    which a translated text left as the source's would only repeat), and of each language's own
    words (its catalog's and its locale's)."""
    seen = {(f.code, f.message, f.where) for f in source}
    findings = _words_findings(game, game.words, seen)
    for language in game.languages[1:]:
        findings += _language_findings(game, language, seen, all_translated)
        findings += _words_findings(game, game.translations[language].words, seen)
    return findings


def _words_findings(game: Game, words: Words, seen: set[tuple[str, str, Where | None]]) -> list[Finding]:
    """The characters of a language's own words that no font of the documents has (the documents
    print them as they print the game's texts); a font that cannot be read is the source's finding."""
    texts = [GameText(text, "cardgen's words", _at(where)) for text, where in words.printed]
    found = glyphs.check_glyphs(game, texts) if texts else []
    if not found:  # the language's name only for a message: Babel's locale data is not loaded for nothing
        return []
    name = language_name(words.language)
    named = [replace(f, message=f"{name}: {f.message}") for f in found]
    return [f for f in named if (f.code, f.message, f.where) not in seen]


def _at(where: Where) -> Place:
    return lambda start, end: where


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
    findings += _shared_names(in_language, name, translation.file)
    checked = (glyphs.check_glyphs(in_language) + fit.check_fit(in_language) + card_symbol_findings(in_language)
               + lint.image_findings(in_language))
    for finding in checked:
        if (finding.code, finding.message, finding.where) not in seen:
            findings.append(replace(finding, message=f"{name}: {finding.message}"))
    return findings


def _shared_names(game: Game, language: str, file: str) -> list[Finding]:
    """A warning for setups the translation gives one name: the documents could not tell them apart."""
    by_name: dict[str, list[str]] = {}
    for setup in game.setups:
        by_name.setdefault(setup.name.casefold(), []).append(setup.id)
    return [Finding(WARNING, "duplicate-name", f"{language}: setups {', '.join(ids)} are all called "
                    f"'{game.setup(ids[0]).name}'", Where(file), "give each setup a name of its own")
            for ids in by_name.values() if len(ids) > 1]


def report_in(report: GameReport, language: str) -> GameReport:
    """The report of the game in one of its languages, for its outputs: the engine plays the
    translated game's setups (same cards and counts, the setups' names and texts translated)."""
    game = report.game
    if language == game.language:
        return report
    in_language, _ = translated(game, language)
    setups, _ = play_out(in_language)
    return GameReport(in_language, tuple(setups), (), report.changes and changes_in(report.changes, game, in_language))


def changes_in(diff: GameDiff, source: Game, in_language: Game) -> GameDiff:
    """What changed, its cards and setups named in the game's language (a removed card or setup
    keeps its old name: the translation has none)."""
    cards = {card.id: card.name for card in in_language.cards}
    setups = {setup.name: named.name for setup, named in zip(source.setups, in_language.setups)}
    return replace(diff, cards=tuple(replace(c, name=cards.get(c.card_id, c.name)) for c in diff.cards),
                   counts=tuple(replace(c, name=cards.get(c.card_id, c.name), setup=setups.get(c.setup, c.setup))
                                for c in diff.counts),
                   setups_added=tuple(setups.get(name, name) for name in diff.setups_added))

