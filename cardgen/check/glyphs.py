"""glyphs (check stage): every character of every text against the fonts that will draw it.

One rule for card sheets and documents: a character prints only if a font that draws it has a
glyph for it (in its character map). Card faces draw each field with one font of the layout
(`**bold**` and `*italic*` through the text family) and ReportLab has no fallback font, so a
missing glyph would vanish from the sheet; documents draw with every font of the game's fonts/
and art/fonts/ (the machine's own fonts differ from one computer to the next, so they do not
count). A `:symbol:` of the game is drawn as the symbol, never as characters. A character no
font covers is an error at its file:line:column, naming the text and the character.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from cardgen.check.texts import GameText, game_texts
from cardgen.inputs import symbols
from cardgen.inputs.fonts import document_font, document_fonts
from cardgen.inputs.paths import display_path
from cardgen.layout.textfit import run_role
from cardgen.model import markup
from cardgen.model.game import ERROR, Finding, Game
from cardgen.model.where import Where

MISSING_GLYPH, BAD_FONT = "missing-glyph", "bad-font"
NAMED = 5  # characters named in one finding


# --------------------------------------------------------------------------- fonts










def _drawn(char: str) -> bool:
    """Whether a character is drawn with a glyph: spaces and control characters are not."""
    return not char.isspace() and unicodedata.category(char) not in ("Cc", "Cf")


# --------------------------------------------------------------------------- the texts
























# --------------------------------------------------------------------------- the check


def check_glyphs(game: Game, texts: Iterable[GameText] | None = None) -> list[Finding]:
    """A finding for each text (the game's, or `texts`) with characters a font that draws it lacks
    (see the module's doc)."""
    findings: list[Finding] = []
    layout_fonts = game.layout.fonts if game.layout else {}
    card_fonts = {role: _readable(path, game, findings) for role, path in layout_fonts.items()}
    documents = [(path, _readable(path, game, findings)) for path in document_fonts(game)]
    in_documents = frozenset().union(*(chars for _, chars in documents))
    names = ", ".join(sorted({path.name for path, chars in documents if chars}))
    known = set(symbols.symbol_names(game))
    everywhere = in_documents.intersection(*card_fonts.values())  # a text of these only: nothing to report
    for text in game_texts(game) if texts is None else texts:
        drawn = _without_symbols(text.value, known)
        if everywhere.issuperset(drawn):
            continue
        reported: set[str] = set()
        if text.role:
            for role, missing in _missing_on_cards(text, drawn, card_fonts):
                reported.update(missing.values())
                font = layout_fonts[role].name
                findings.append(_finding(text, missing, f"not in {font}, the layout's {role} font that draws it on "
                                         "the cards", f"use a font that has it (layout.yaml: fonts: {{{role}: a .ttf file in "
                                         f"{game.folder.name}/fonts/}}) or remove the character"))
        missing = {} if text.cards_only else {i: c for i, c in _missing(drawn, in_documents).items() if c not in reported}
        if missing:
            findings.append(_finding(text, missing, f"in none of the documents' fonts ({names})",
                                     f"put a font that has it in {game.folder.name}/fonts/ (the documents use every "
                                     "font there) or remove the character"))
    return findings


def _readable(path: Path, game: Game, findings: list[Finding]) -> frozenset[str]:
    try:
        return document_font(path).characters
    except (OSError, ValueError) as exc:
        findings.append(Finding(ERROR, BAD_FONT, f"font {path.name} cannot be read: {exc}",
                                Where(display_path(path, game.folder)), "replace or remove the font file"))
        return frozenset()


def _without_symbols(value: str, known: set[str]) -> str:
    """The text with the game's :symbol: marks blanked out (they print as symbols, not letters)."""
    if ":" not in value:
        return value
    return markup.SYMBOL.sub(lambda m: " " * len(m[0]) if m[0][1:-1] in known else m[0], value)


def _missing(value: str, chars: frozenset[str], start: int = 0, end: int | None = None) -> dict[int, str]:
    """Index -> character of the drawn characters in value[start:end] that `chars` lacks (the
    first index of each)."""
    part = value[start:end]
    lacking = set(part).difference(chars)
    if not lacking:  # the common case, at the speed of a set operation
        return {}
    # each lacking drawn character at its first place in the part, in the text's order
    return dict(sorted((start + part.index(char), char) for char in lacking if _drawn(char)))


def _missing_on_cards(text: GameText, value: str, fonts: Mapping[str, frozenset[str]]
                      ) -> Iterator[tuple[str, dict[int, str]]]:
    """(font role, missing characters) for each font of the card faces that lacks some."""
    if text.role is None:
        return iter(())
    runs = markup.emphasis_runs(value) if text.emphasis else [(0, len(value), False, False)]
    by_role: dict[str, dict[int, str]] = {}
    for start, end, bold, italic in runs:
        role = run_role(text.role, bold, italic)
        if role in fonts:
            found = _missing(value, fonts[role], start, end)
            seen = by_role.setdefault(role, {})
            seen.update({i: c for i, c in found.items() if c not in seen.values()})
    return ((role, missing) for role, missing in by_role.items() if missing)




def _finding(text: GameText, missing: Mapping[int, str], where_missing: str, hint: str) -> Finding:
    first = min(missing)
    chars = sorted(missing.items())
    named = ", ".join(f"'{c}' ({character_name(c)})" for _, c in chars[:NAMED])
    more = f" and {len(chars) - NAMED} more" if len(chars) > NAMED else ""
    return Finding(ERROR, MISSING_GLYPH, f"{text.label}: {named}{more} {where_missing}", text.place(first, first + 1), hint)


def character_name(char: str) -> str:
    """U+00F6 LATIN SMALL LETTER O WITH DIAERESIS"""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"

