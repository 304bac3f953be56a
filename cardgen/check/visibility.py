"""visibility: colors a player would not see — a symbol whose ink hardly differs from its badge,
a color that hardly differs from the white paper (its bars in the documents, its card's edges), a
title color too light to print card names in on white even darkened."""
from __future__ import annotations

from cardgen.check.texts import game_file, place_in_source
from cardgen.layout.colors import MIN_CONTRAST, PAPER, SEEN_CONTRAST, contrast, darkened_for_paper, symbol_ink
from cardgen.model.game import WARNING, Color, Finding, Game
from cardgen.model.where import Where


def invisible_colors(game: Game) -> list[Finding]:
    if game.layout is None:
        return unreadable_titles(game)
    badge = game.layout.symbol.badge
    used = {card.color for card in game.cards if card.printed}
    findings = []
    for color in (c for c in game.colors if c.id in used):
        ink = symbol_ink(color)
        if contrast(ink, badge) < SEEN_CONTRAST:
            findings.append(Finding(
                WARNING, "invisible-symbol", f"color '{color.id}': its symbol, drawn in {ink} on the badge's "
                f"{badge}, is all but invisible (contrast {contrast(ink, badge):.1f}:1)", _where(game, color),
                "choose a darker or lighter color, or another badge color in layout.yaml (symbol: badge:)"))
        if contrast(color.hex, PAPER) < SEEN_CONTRAST:
            findings.append(Finding(
                WARNING, "invisible-color", f"color '{color.id}' ({color.hex}) is all but white: its bars in "
                f"the documents and its cards' edges hardly show on white paper (contrast "
                f"{contrast(color.hex, PAPER):.2f}:1)", _where(game, color), "choose a darker color"))
    return findings + unreadable_titles(game)


def unreadable_titles(game: Game) -> list[Finding]:
    """Title colors (a color's or a kind style's title_hex) the documents cannot darken to
    MIN_CONTRAST on white without losing the color: they print those names in the dark text."""
    used = {game.title_hex(card) for card in game.cards if card.printed} - {None}
    return [Finding(WARNING, "unreadable-title-color",
                    f"title color {hex_color} reads at {contrast(hex_color, PAPER):.2f}:1 on white paper and cannot "
                    f"be darkened to {MIN_CONTRAST}:1 without losing its color: the documents print those card "
                    "names in the dark text color", place_in_source(game, game_file(game), hex_color)(0),
                    "choose a darker title_hex (a color's or a kind style's in game.yaml)")
            for hex_color in sorted(h for h in used if h and darkened_for_paper(h) is None)]


def _where(game: Game, color: Color) -> Where | None:
    value = color.hex
    return place_in_source(game, game_file(game), value)(0)
