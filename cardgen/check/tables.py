"""tables: the engine's figures by player count as rows of a table, the one way the documents and
the terminal report put them: the piles after setup in the game's own words (each player's
piles per player), the components' counts, and each supply pile card by card."""
from __future__ import annotations

from dataclasses import dataclass, field

from cardgen.check.results import PlayerCount, SetupReport
from cardgen.model.game import ASIDE, BOX, DISCARD, DRAW, HANDS, START_PILE, SUPPLY, Card, Game, Pile
from cardgen.model.texts import apportioned
from cardgen.model.words import gettext, lower_first, marked

PILE_ORDER = (DRAW, SUPPLY, DISCARD, ASIDE, BOX)  # how a table lists the piles after the hands


@dataclass
class FigureRow:
    """A row of figures by player count (None: not known at that count)."""

    label: str
    values: list[float | None]
    pile: Pile | None = None
    kinds: list[dict[str, float]] = field(default_factory=list)  # the pile's cards by first kind, like the values
    expected_kinds: list[frozenset[str]] = field(default_factory=list)  # the kinds whose count is an expectation, like the kinds
    seat: int | None = None  # a row of one seat (1: the first player); None: of every seat alike

    def kind_counts(self, column: int) -> list[tuple[str, int, bool]]:
        """The pile's cards by kind at one player count (kinds of cards only): (kind, count,
        whether the count is an expectation), the counts whole and adding up as their sum does."""
        kinds = [(kind, n) for kind, n in self.kinds[column].items() if kind and n]
        uncertain = self.expected_kinds[column] if self.expected_kinds else frozenset()
        return [(kind, whole, kind in uncertain or abs(n - round(n)) >= 0.005)
                for (kind, n), whole in zip(kinds, apportioned([n for _, n in kinds]))]

    def by_kind(self, column: int) -> list[tuple[str, int, bool]]:
        """kind_counts when it says more than the pile's count: none for a pile of cards of one
        kind alone."""
        kinds = self.kind_counts(column)
        alone = len(kinds) == 1 and abs(self.kinds[column][kinds[0][0]] - (self.values[column] or 0.0)) < 0.005
        return [] if alone else kinds

    @property
    def blank(self) -> str:
        """What a table shows for a value of None: a seat a player count does not have, or an unknown."""
        return "–" if self.seat else "?"


SEAT_NAMES = (marked("First player"), marked("Second player"), marked("Third player"), marked("Fourth player"),
              marked("Fifth player"), marked("Sixth player"), marked("Seventh player"), marked("Eighth player"))


def seat_name(seat: int) -> str:
    """'First player', ... 'Player 9': a seat in turn order (1: the first player)."""
    return gettext(SEAT_NAMES[seat - 1]) if seat <= len(SEAT_NAMES) else gettext("Player %(num)s") % {"num": seat}


def pile_label(pile: Pile, seat: int | None = None) -> str:
    """'Draw pile', or "Each player's deck" for a pile every player has ("First player's deck" for one seat's)."""
    if seat is not None:
        name = gettext("hand") if pile.id == HANDS else lower_first(pile.name)
        return gettext("%(seat)s's %(pile)s") % {"seat": seat_name(seat), "pile": name}
    if pile.id == HANDS:
        return gettext("Each hand")
    return gettext("Each player's %(pile)s") % {"pile": lower_first(pile.name)} if pile.each_player else pile.name


def seat_count(played: PlayerCount, pile_id: str, seat: int) -> float | None:
    """One seat's cards in a pile every player has (None: no such seat at this player count)."""
    if seat > len(played.seats):
        return None
    at = played.seats[seat - 1]
    return at.hand if pile_id == HANDS else at.piles.get(pile_id, 0.0)


def seats_differ(report: SetupReport, pile: Pile) -> bool:
    """Whether the seats hold different cards in a pile every player has (their count or their kinds)
    at some player count."""
    return pile.each_player and any(
        len({(seat_count(p, pile.id, s.seat), repr(s.kinds.get(pile.id))) for s in p.seats}) > 1 for p in report.players)


def pile_rows(game: Game, report: SetupReport) -> list[FigureRow]:
    """Each hand, then every pile that holds cards at some player count, in PILE_ORDER; piles of one
    label (the piles set aside) share a row; a pile every player has is a row per seat where the
    seats hold different counts of it."""
    rows: dict[str, FigureRow] = {}
    piles = [game.pile(HANDS)] + sorted((p for p in game.piles if p.id != HANDS), key=lambda p: PILE_ORDER.index(p.role))
    for pile in piles:
        if seats_differ(report, pile):
            for seat in range(1, report.setup.max_players + 1):
                rows[pile_label(pile, seat)] = FigureRow(
                    pile_label(pile, seat), [seat_count(p, pile.id, seat) for p in report.players], pile,
                    [p.seats[seat - 1].kinds.get(pile.id, {}) if seat <= len(p.seats) else {} for p in report.players],
                    [p.seats[seat - 1].expected_kinds.get(pile.id, frozenset()) if seat <= len(p.seats) else frozenset()
                     for p in report.players], seat)
            continue
        shares = [p.players if pile.each_player else 1 for p in report.players]
        values = [p.piles.get(pile.id, 0.0) / n for p, n in zip(report.players, shares)]
        if pile.id != HANDS and not any(values) and not (pile.id == START_PILE and pile.role == DRAW):
            continue
        kinds = [{k: v / n for k, v in p.pile_kinds.get(pile.id, {}).items()} for p, n in zip(report.players, shares)]
        expected_kinds = [p.expected_kinds.get(pile.id, frozenset()) for p in report.players]
        label = pile_label(pile)
        if label in rows:
            row = rows[label]
            row.values = [(a or 0.0) + (b or 0.0) for a, b in zip(row.values, values)]
            row.kinds = [{k: a.get(k, 0.0) + b.get(k, 0.0) for k in {**a, **b}} for a, b in zip(row.kinds, kinds)]
            row.expected_kinds = [a | b for a, b in zip(row.expected_kinds, expected_kinds)]
        else:
            rows[label] = FigureRow(label, list(values), pile, kinds, expected_kinds)
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
        if any(c.start is not None for c in counts):
            rows.append(FigureRow(gettext("%(components)s at the start") % {"components": component.plural},
                                  [c.start for c in counts]))
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
