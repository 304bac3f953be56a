"""tables: the engine's figures by player count as rows of a table, the one way the documents and
the terminal report put them: the piles after setup in the game's own words (each player's
piles per player), the components' counts, and each supply pile card by card."""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.check.results import SetupReport
from cardgen.model.game import ASIDE, BOX, DISCARD, DRAW, HANDS, START_PILE, SUPPLY, Card, Game, Pile
from cardgen.model.words import gettext, lower_first

PILE_ORDER = (DRAW, SUPPLY, DISCARD, ASIDE, BOX)  # how a table lists the piles after the hands


@dataclass
class FigureRow:
    """A row of figures by player count (None: not known at that count)."""

    label: str
    values: list[float | None]
    pile: Pile | None = None


def pile_label(pile: Pile) -> str:
    """'Draw pile', or "Each player's deck" for a pile every player has."""
    if pile.id == HANDS:
        return gettext("Each hand")
    return gettext("Each player's %(pile)s") % {"pile": lower_first(pile.name)} if pile.each_player else pile.name


def pile_rows(game: Game, report: SetupReport) -> list[FigureRow]:
    """Each hand, then every pile that holds cards at some player count, in PILE_ORDER; piles of one
    label (the piles set aside) share a row."""
    rows: dict[str, FigureRow] = {}
    piles = [game.pile(HANDS)] + sorted((p for p in game.piles if p.id != HANDS), key=lambda p: PILE_ORDER.index(p.role))
    for pile in piles:
        values = [p.piles.get(pile.id, 0.0) / (p.players if pile.each_player else 1) for p in report.players]
        if pile.id != HANDS and not any(values) and not (pile.id == START_PILE and pile.role == DRAW):
            continue
        label = pile_label(pile)
        if label in rows:
            rows[label].values = [(a or 0.0) + (b or 0.0) for a, b in zip(rows[label].values, values)]
        else:
            rows[label] = FigureRow(label, list(values), pile)
    return list(rows.values())


def component_rows(report: SetupReport) -> list[FigureRow]:
    """The components' figures that a table by player count shows: each share and win target, and
    the count where it changes with the player count (else the components list says it once)."""
    rows = []
    for component_id, first in (report.players[0].components.items() if report.players else ()):
        component = first.component
        counts = [p.components[component_id] for p in report.players]
        totals: list[float | None] = [c.total for c in counts]
        if len(set(totals)) > 1:
            rows.append(FigureRow(component.plural, totals))
        if component.each is not None:
            rows.append(FigureRow(gettext("%(components)s each") % {"components": component.plural},
                                  [c.each for c in counts]))
        if component.to_win is not None:
            rows.append(FigureRow(gettext("%(components)s to win") % {"components": component.plural},
                                  [c.to_win for c in counts]))
    return rows


def supply_piles(game: Game, report: SetupReport) -> list[tuple[Pile, list[tuple[Card, list[float]]]]]:
    """Each supply pile with cards, card by card: (card, its count at each player count)."""
    out = []
    for pile in game.piles:
        if pile.role != SUPPLY:
            continue
        rows = [(card, [p.pile_cards.get(pile.id, {}).get(card.id, 0.0) for p in report.players])
                for card in game.cards]
        rows = [(card, values) for card, values in rows if any(values)]
        if rows:
            out.append((pile, rows))
    return out
