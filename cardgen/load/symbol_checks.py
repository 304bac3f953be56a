"""load/symbol_checks: every symbol the data names exists, and every symbol file of the game can
be drawn, with the same code (cardgen/symbols.py) the card sheets and the documents' font use."""
from __future__ import annotations

from collections.abc import Iterable

from cardgen.inputs import symbols
from cardgen.inputs.paths import display_path
from cardgen.load.reader import did_you_mean
from cardgen.model import markup
from cardgen.model.fields import markup_fields
from cardgen.model.game import ERROR, WARNING, Finding, Game
from cardgen.model.where import Where

STAR = "star"  # drawn below the symbol of cards with `star: true`


def symbol_findings(game: Game, references: Iterable[tuple[str, Where, str]]) -> list[Finding]:
    """`references`: (symbol name, where it is named, what names it) from game.yaml and layout.yaml."""
    known = symbols.symbol_names(game)
    findings = [_missing(game, name, where, what, known) for name, where, what in references
                if symbols.symbol_path(game, name) is None]
    findings += card_symbol_findings(game, known)
    findings += _broken_files(game)
    return findings


def _missing(game: Game, name: str, where: Where | None, what: str, known: list[str], level: str = ERROR) -> Finding:
    close = did_you_mean(name, known)
    return Finding(level, "unknown-symbol", f"{what}: no symbol '{name}'", where,
                   f"{close + ' ' if close else ''}add {name}.svg to {game.folder.name}/symbols/ or use a built-in symbol "
                   "(docs/symbols.md lists them)")


def card_symbol_findings(game: Game, known: list[str] | None = None) -> list[Finding]:
    """The star of starred cards (an error when missing), and the `:name:` symbols in card texts:
    an unknown one prints as typed, so it is a warning (the text may mean it literally). Check runs
    it on each translation too."""
    known = symbols.symbol_names(game) if known is None else known
    findings = []
    starred = [card for card in game.cards if card.star]
    if starred and symbols.symbol_path(game, STAR) is None:
        findings.append(_missing(game, STAR, starred[0].where, f"card '{starred[0].name}' (star: true)", known))
    for card in game.cards:
        for field in markup_fields(game.fields):
            for name in dict.fromkeys(markup.symbols_named_in(str(card.value(field) or ""))):
                if symbols.symbol_path(game, name) is None:
                    place = card.places.get(field)
                    where = place.locate(f":{name}:") if place else card.where
                    findings.append(_missing(game, name, where, f"card '{card.name}' {field}", known, WARNING))
    return findings


def _broken_files(game: Game) -> list[Finding]:
    """The game's own symbol files (the shipped ones are cardgen's): each goes into the
    documents' symbol font, and the cards draw the ones they use."""
    findings = []
    folder = game.folder / "symbols"
    own = sorted(folder.glob("*.svg")) if folder.is_dir() else []
    for path in own:
        if symbols.symbol_path(game, path.stem) != path:
            continue  # a name no symbol can have, or a link leading out: never drawn
        problem = symbols.problem(path)
        if problem:
            findings.append(Finding(ERROR, "bad-symbol", problem.message, Where(display_path(path, game.folder)),
                                    problem.hint or "draw symbols with plain filled or stroked shapes"))
    return findings
