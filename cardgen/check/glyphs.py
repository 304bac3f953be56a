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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

from cardgen.check.lint import Place, in_file, in_passage
from cardgen.inputs import symbols
from cardgen.inputs.fonts import document_font, document_fonts
from cardgen.inputs.paths import display_path
from cardgen.layout.textfit import run_role
from cardgen.model import markup
from cardgen.model.game import ERROR, Finding, Game, Where

MISSING_GLYPH, BAD_FONT = "missing-glyph", "bad-font"
NAMED = 5  # characters named in one finding


# --------------------------------------------------------------------------- fonts










def _drawn(char: str) -> bool:
    """Whether a character is drawn with a glyph: spaces and control characters are not."""
    return not char.isspace() and unicodedata.category(char) not in ("Cc", "Cf")


# --------------------------------------------------------------------------- the texts


@dataclass(frozen=True)
class Printed:
    """A text the outputs print: its value, its label in findings, where its characters are typed,
    and the layout's font role that draws it on the card faces (None: documents only)."""

    value: str
    label: str
    place: Callable[[int], Where | None]
    role: str | None = None
    emphasis: bool = False  # card markup: **bold** and *italic* switch fonts in the text family


def printed_texts(game: Game) -> Iterator[Printed]:
    yield from _card_texts(game)
    yield from _game_texts(game)
    yield from _setup_texts(game)
    if game.rules_markdown:
        yield Printed(game.rules_markdown, "rules.md", _at(in_file(game.rules_markdown, game.rules_file)))


def _card_texts(game: Game) -> Iterator[Printed]:
    design = game.layout
    roles = {"name": design["name"]["font"], "flavor": design["flavor"]["font"], "text": design["text"]["font"]} \
        if design else {}
    for card in game.cards:
        for field in ("name", "flavor", "text", "details"):
            value = getattr(card, field)
            if value:
                place = _at(in_passage(value, card.places.get(field), card.where))
                role = roles.get(field) if card.printed else None
                yield Printed(value, f"card '{card.name}' ({field})", place, role, field in ("flavor", "text"))
    on_cards = {tag for card in game.cards if card.printed for tag in card.tags}
    for tag in game.tags:
        role = design["tags"]["font"] if design and tag.id in on_cards else None
        yield Printed(tag.name, f"tag '{tag.id}' (name)", place_in_source(game, _game_file(game), tag.name), role)


def _game_texts(game: Game) -> Iterator[Printed]:
    file = _game_file(game)
    title_font = game.layout["back"]["title_font"] if game.layout else None
    yield Printed(game.title, "the game's title", place_in_source(game, file, game.title), title_font)
    for back in game.backs:
        if back.title:
            yield Printed(back.title, f"back '{back.id}' (title)", place_in_source(game, file, back.title, back.where),
                          title_font)
    named = [("author", game.author), ("version", game.version), ("date", game.date)]
    for what, items in (("color", game.colors), ("kind", game.kinds), ("tag", game.tags)):
        for item in items:
            named += [(f"{what} '{item.id}' (meaning)", item.meaning)]
            if what != "tag":  # a tag's name is one of the card texts
                named += [(f"{what} '{item.id}' (name)", item.name)]
    for attribute in game.attributes:
        named += [(f"attribute '{attribute.id}'", attribute.name)]
        named += [(f"attribute '{attribute.id}'", label) for label in attribute.names.values()]
    for variation in game.variations:
        named += [(f"variation '{variation.name}' (name)", variation.name)]
        if variation.text:
            yield Printed(variation.text, f"variation '{variation.name}'",
                          _at(in_passage(variation.text, variation.place, Where(file))))
    for step in game.steps:
        named += [("a setup step", step.text)]
    for check in game.checks:
        named += [(f"check '{check.id}' (message)", check.message)]
    named += [("the cheat sheet", text) for text in _strings(game.cheatsheet)]
    named += [("the reference section", text) for text in _strings(game.extra)]
    for label, value in named:
        if value:
            yield Printed(value, label, place_in_source(game, file, value))


def _setup_texts(game: Game) -> Iterator[Printed]:
    for setup in game.setups:
        file = setup.where.file if setup.where else _game_file(game)
        yield Printed(setup.name, f"setup '{setup.name}' (name)", place_in_source(game, file, setup.name, setup.where))
        parts = [("blurb", setup.blurb)] + [(f"extra_rules[{i}]", r) for i, r in enumerate(setup.extra_rules)]
        for key, value in parts:
            if value:
                yield Printed(value, f"setup '{setup.name}' ({key.split('[')[0].replace('_', ' ')})",
                              _at(in_passage(value, setup.places.get(key), setup.where or Where(file))))


def _strings(data: Any) -> Iterator[str]:
    """Every string in free data (mappings, lists, dataclasses), keys left out."""
    if isinstance(data, str):
        yield data
    elif is_dataclass(data):
        for item in fields(data):
            yield from _strings(getattr(data, item.name))
    elif isinstance(data, Mapping):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from _strings(value)


def _game_file(game: Game) -> str:
    return display_path(game.folder / "game.yaml", game.folder)


def _at(place: Place) -> Callable[[int], Where | None]:
    return lambda index: place(index, index + 1)


def place_in_source(game: Game, file: str, value: str, after: Where | None = None) -> Callable[[int], Where | None]:
    """Where a character of a value sits in its file, for values load keeps no position of: the
    first line of the file (from `after` on) holding the value's line around the character."""
    def place(index: int) -> Where:
        source = _source(game.folder.parent / file)
        begin = _line_offset(source, after.line) if after and after.line else 0
        start = value.rfind("\n", 0, index) + 1
        end = value.find("\n", index)
        line = value[start:end if end >= 0 else len(value)]
        found = source.find(line, begin) if line.strip() else -1
        if found < 0:
            return after or Where(file)
        offset = found + index - start
        return Where(file, source.count("\n", 0, offset) + 1, offset - source.rfind("\n", 0, offset))
    return place


def _source(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _line_offset(source: str, line: int) -> int:
    offset = 0
    for _ in range(line - 1):
        offset = source.find("\n", offset) + 1
        if offset == 0:
            return 0
    return offset


# --------------------------------------------------------------------------- the check


def check_glyphs(game: Game) -> list[Finding]:
    """A finding for each text with characters a font that draws it lacks (see the module's doc)."""
    findings: list[Finding] = []
    layout_fonts = game.layout.fonts if game.layout else {}
    card_fonts = {role: _readable(path, game, findings) for role, path in layout_fonts.items()}
    documents = [(path, _readable(path, game, findings)) for path in document_fonts(game)]
    in_documents = frozenset().union(*(chars for _, chars in documents))
    names = ", ".join(sorted({path.name for path, chars in documents if chars}))
    known = set(symbols.symbol_names(game))
    for text in printed_texts(game):
        drawn = _without_symbols(text.value, known)
        reported: set[str] = set()
        if text.role:
            for role, missing in _missing_on_cards(text, drawn, card_fonts):
                reported.update(missing.values())
                font = layout_fonts[role].name
                findings.append(_finding(text, missing, f"not in {font}, the layout's {role} font that draws it on "
                                         "the cards", f"use a font that has it (layout.yaml: fonts: {{{role}: a .ttf file in "
                                         f"{game.folder.name}/fonts/}}) or remove the character"))
        missing = {i: c for i, c in _missing(drawn, in_documents).items() if c not in reported}
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
    if set(part) <= chars:  # the common case, at the speed of a set operation
        return {}
    out: dict[int, str] = {}
    seen: set[str] = set()
    for offset, char in enumerate(part):
        if char not in chars and char not in seen and _drawn(char):
            seen.add(char)
            out[start + offset] = char
    return out


def _missing_on_cards(text: Printed, value: str, fonts: Mapping[str, frozenset[str]]
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




def _finding(text: Printed, missing: Mapping[int, str], where_missing: str, hint: str) -> Finding:
    first = min(missing)
    chars = sorted(missing.items())
    named = ", ".join(f"'{c}' ({describe(c)})" for _, c in chars[:NAMED])
    more = f" and {len(chars) - NAMED} more" if len(chars) > NAMED else ""
    return Finding(ERROR, MISSING_GLYPH, f"{text.label}: {named}{more} {where_missing}", text.place(first), hint)


def describe(char: str) -> str:
    """U+00F6 LATIN SMALL LETTER O WITH DIAERESIS"""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"

