"""results: what the engine found for each setup and player count, as the documents, the terminal
and the JSON report read it."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardgen.check.balance import Balance
from cardgen.model.game import ERROR, Component, Finding, Game, Setup, Step

EPSILON = 1e-6


@dataclass(frozen=True)
class StepReport:
    """One setup step as carried out at a player count (steps whose `when` is false are left out)."""

    step: Step
    count: int | None  # the step's count at this player count (each player's when it deals to each); None: all
    moved: float  # the cards it moved in all (on average, where they are picked at random)
    seats: list[float]  # the cards it gave each seat, in turn order (to a pile every player has)
    kinds: dict[str, float] = field(default_factory=dict)  # what it moved by the cards' first kind ('': none)
    values: dict[str, int] = field(default_factory=dict)  # set: component id -> each player's starting value

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.step.action, "from": self.step.source, "to": self.step.target,
                "text": self.step.text, "count": self.count, "moved": figure(self.moved),
                **({"seats": [figure(n) for n in self.seats]} if any(self.seats) else {}),
                **({"values": self.values} if self.values else {}),
                **({"first_player": self.step.first_player} if self.step.first_player else {})}

    @property
    def does_nothing(self) -> bool:
        """A step that would move cards and moves none here (a deal of extras the setup has none of)."""
        return self.step.moves_cards and self.moved < EPSILON


@dataclass(frozen=True)
class SeatReport:
    """One seat after setup, in turn order (seat 1 is the first player)."""

    seat: int
    hand: float  # the cards in its hand
    piles: dict[str, float]  # its own piles besides the hand (each player's): pile id -> cards
    kinds: dict[str, dict[str, float]]  # its hand and own piles by the cards' first kind ('': none)
    expected_kinds: dict[str, frozenset[str]] = field(default_factory=dict)  # pile -> kinds whose count is an expectation

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": figure(self.hand), "piles": {k: figure(v) for k, v in self.piles.items()},
                "by_kind": {pile: {k: figure(v) for k, v in kinds.items()} for pile, kinds in self.kinds.items()}}


@dataclass(frozen=True)
class ComponentCount:
    """A component (coins, tokens...) at one player count; None where its spec could not be evaluated."""

    component: Component
    total: int | None
    each: int | None = None  # each player's share at the start
    to_win: int | None = None
    players: int = 0
    start: int | None = None  # each player's starting value (a set: step); None: not set


    @property
    def supply(self) -> int | None:
        """What stays in the supply once every player has their share (None: no share is given)."""
        if self.total is None or self.each is None:
            return None
        return self.total - self.each * self.players

    def as_dict(self) -> dict[str, Any]:
        return {"total": self.total, "each": self.each, "supply": self.supply, "to_win": self.to_win,
                **({"start": self.start} if self.start is not None else {})}


@dataclass(frozen=True)
class HowItPlays:
    """A player count's simulated games in a line (`cardgen simulate`; game.yaml turns: documents)."""

    games: int
    turns_median: float
    turns_p90: float
    seat_wins: tuple[float, ...]  # by seat
    early: float  # players out before their second turn

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "turns_median": self.turns_median, "turns_p90": self.turns_p90,
                "seat_wins": list(self.seat_wins), "early": self.early}


@dataclass(frozen=True)
class PlayerCount:
    players: int
    copies: int  # how many times the setup's table is laid out
    hand: int | None  # the setup's hand: deal at this player count (None: not declared, or an error)
    extras: dict[str, int]  # card id -> the extra copies each player gets (hand: extras) at this player count
    starting_deck: dict[str, int]  # card id -> copies laid out before the first step (stand-ins too)
    print_counts: dict[str, int]  # card id -> copies to print for this player count (printed cards only)
    steps: list[StepReport]
    dealt_per_player: float
    draw_pile: float
    draw_by_kind: dict[str, float]
    draw_by_color: dict[str, float]
    piles: dict[str, float]  # pile id -> its cards after setup (all players' together for a pile each has)
    set_aside: float = 0.0  # cards out of play: in piles set aside or back in the box
    pile_cards: dict[str, dict[str, float]] = field(default_factory=dict)  # supply pile -> card id -> count
    findings: list[Finding] = field(default_factory=list)
    balance: Balance | None = None
    plays: HowItPlays | None = None  # simulated, for the documents (publish/simulate.py)
    components: dict[str, ComponentCount] = field(default_factory=dict)  # component id -> its counts
    pile_kinds: dict[str, dict[str, float]] = field(default_factory=dict)  # pile id -> its cards by first kind
    # pile id -> the kinds whose count there is an expectation (cards picked at random), not a certainty
    expected_kinds: dict[str, frozenset[str]] = field(default_factory=dict)
    seats: list[SeatReport] = field(default_factory=list)  # in turn order
    first_player: str = ""  # how the first player is chosen ("random", or the game's words); "": not said

    @property
    def seats_differ(self) -> bool:
        """Whether the seats start with different cards (in hand or in their own piles)."""
        return len({(s.hand, tuple(s.piles.items()), repr(s.kinds)) for s in self.seats}) > 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "copies": self.copies,
            "hand": self.hand,
            "extras": self.extras,
            "starting_deck": self.starting_deck,
            "steps": [s.as_dict() for s in self.steps],
            "dealt_per_player": figure(self.dealt_per_player),
            "draw_pile": figure(self.draw_pile),
            "draw_pile_by_kind": {k: figure(v) for k, v in self.draw_by_kind.items()},
            "draw_pile_by_color": {k: figure(v) for k, v in self.draw_by_color.items()},
            "piles": {k: figure(v) for k, v in self.piles.items()},
            "pile_cards": {k: {card: figure(n) for card, n in v.items()} for k, v in self.pile_cards.items()},
            "set_aside": figure(self.set_aside),
            "balance": self.balance.as_dict() if self.balance else None,
            "components": {k: c.as_dict() for k, c in self.components.items()},
            "piles_by_kind": {pile: {k: figure(v) for k, v in kinds.items()} for pile, kinds in self.pile_kinds.items()},
            "seats": [s.as_dict() for s in self.seats],
            "first_player": self.first_player or None,
        }


@dataclass(frozen=True)
class SetupReport:
    setup: Setup
    total: int
    by_color: dict[str, float]
    by_kind: dict[str, float]
    print_counts: dict[str, int]  # card id -> copies to print so that every player count can be played
    unknown_counts: list[str]
    players: list[PlayerCount]
    findings: list[Finding]

    @property
    def print_total(self) -> int:
        return sum(self.print_counts.values())

    def player_count(self, players: int) -> PlayerCount:
        self.setup.require_players(players)
        return next(p for p in self.players if p.players == players)

    def all_findings(self) -> list[Finding]:
        return self.findings + [f for p in self.players for f in p.findings]

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.setup.name,
            "total": self.total,
            "by_color": self.by_color,
            "by_kind": self.by_kind,
            "players": [p.as_dict() for p in self.players],
            "print_counts": self.print_counts,
            "print_total": self.print_total,
            "unknown_counts": self.unknown_counts,
            "findings": [f.as_dict() for f in self.all_findings()],
        }


@dataclass(frozen=True)
class CardChange:
    card_id: str
    name: str  # the new version's name (the old one's for a removed card)
    status: str  # added | removed | changed
    fields: tuple[str, ...] = ()  # what changed (changed cards)
    old_name: str = ""  # a renamed card's old name

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.card_id, "name": self.name, "status": self.status, "fields": list(self.fields),
                **({"old_name": self.old_name} if self.old_name else {})}


@dataclass(frozen=True)
class CountChange:
    """A card's copies in a setup: printed (players None), or in the deck at a player count."""

    setup: str
    players: int | None
    card_id: str
    name: str
    old: int
    new: int

    def as_dict(self) -> dict[str, Any]:
        return {"setup": self.setup, "players": self.players, "card": self.name, "id": self.card_id,
                "old": self.old, "new": self.new}


@dataclass(frozen=True)
class GameDiff:
    old_version: str
    new_version: str
    cards: tuple[CardChange, ...]
    counts: tuple[CountChange, ...]
    setups_added: tuple[str, ...] = ()
    setups_removed: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()  # what changed in the game's own settings, as sentences
    rules: tuple[int, int] = (0, 0)  # rules.md: lines removed, lines added
    layout: bool = False
    revision: str = ""  # the commit of game.yaml's changes_since the earlier version was read from

    @property
    def empty(self) -> bool:
        return not (self.cards or self.counts or self.setups_added or self.setups_removed or self.settings
                    or any(self.rules) or self.layout)

    def changed(self, status: str) -> list[CardChange]:
        return [c for c in self.cards if c.status == status]

    @property
    def to_reprint(self) -> set[str]:
        """The ids of the cards a reprint holds: the changed and the added ones."""
        return {c.card_id for c in self.cards if c.status in ("added", "changed")}

    def as_dict(self) -> dict[str, Any]:
        return {"old_version": self.old_version, "new_version": self.new_version,
                "cards": [c.as_dict() for c in self.cards], "counts": [c.as_dict() for c in self.counts],
                "setups_added": list(self.setups_added), "setups_removed": list(self.setups_removed),
                "settings": list(self.settings), "rules": {"removed": self.rules[0], "added": self.rules[1]},
                "layout": self.layout}


@dataclass(frozen=True)
class GameReport:
    """What check found, made once and never changed: a later stage that adds to it (the game's
    own templates' findings, the simulated figures) makes a new one (dataclasses.replace)."""

    game: Game
    setups: tuple[SetupReport, ...]
    findings: tuple[Finding, ...]
    changes: GameDiff | None = None  # since game.yaml's changes_since, for the rulebook

    def every_finding(self) -> list[Finding]:
        return [*self.findings, *(f for s in self.setups for f in s.all_findings())]

    @property
    def has_errors(self) -> bool:
        return any(f.level == ERROR for f in self.every_finding())

    def setup(self, name: str) -> SetupReport:
        return self.setup_by_id(self.game.setup(name).id)

    def setup_by_id(self, setup_id: str) -> SetupReport:
        return next(s for s in self.setups if s.setup.id == setup_id)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "title": self.game.title,
            "setups": [s.as_dict() for s in self.setups],
            "findings": [f.as_dict() for f in self.findings],
        }


@dataclass(frozen=True)
class Checked:
    """A game loaded and checked: the engine's report, or only load's findings when the game
    does not load cleanly (the engine runs on clean data; its findings would only echo them)."""

    name: str  # the game folder's name
    load_findings: tuple[Finding, ...]
    report: GameReport | None

    @property
    def ok(self) -> bool:
        return self.report is not None and not self.report.has_errors

    def errors(self) -> list[Finding]:
        findings = self.report.every_finding() if self.report else self.load_findings
        return [f for f in findings if f.level == ERROR]


def settle(value: float) -> float:
    """Drop the float noise of proportional takes, so whole counts compare equal to integers."""
    return round(value, 9) + 0.0


def settle_all(values: Mapping[str, float]) -> dict[str, float]:
    return {k: settle(v) for k, v in values.items()}


def figure(value: float) -> float | int:
    """A count as the report gives it: a whole number as an int, any other to two decimals."""
    rounded = round(value, 2)
    return int(rounded) if abs(rounded - round(rounded)) < EPSILON else rounded
