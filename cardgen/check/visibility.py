"""visibility: colors a player would not see — a symbol whose ink hardly differs from its badge,
a color that hardly differs from the white paper (its bars in the documents, its card's edges)."""
from __future__ import annotations

from cardgen.check.texts import game_file, place_in_source
from cardgen.layout.colors import PAPER, SEEN_CONTRAST, contrast, symbol_ink
from cardgen.model.game import WARNING, Color, Finding, Game
from cardgen.model.where import Where


def invisible_colors(game: Game) -> list[Finding]:
    if game.layout is None:
        return []
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
    return findings


def _where(game: Game, color: Color) -> Where | None:
    value = color.hex
    return place_in_source(game, game_file(game), value)(0)
