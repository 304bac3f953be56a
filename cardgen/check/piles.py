"""piles: what the engine moves cards between. Cards sorted into groups that always move together
(Groups), and the piles of expected counts of each group (Piles): a shared pile once, a pile every
player has (the hands, each player's own deck) once per seat, in turn order."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from cardgen.check.results import EPSILON, settle
from cardgen.model.game import HANDS, Card, Game, Selector, Setup, matches

SeatValue = tuple[str, str]  # (field, value): the cards of one value of a field, e.g. ("color", "fire")


def seat_value(card: Card, field: str) -> str | None:
    """A card's value of the field a deal splits by (split_by): its color, its first kind or tag,
    an attribute, or a field of the game; None: it has none."""
    if field == "color":
        return card.color
    if field in ("kind", "tag"):
        values = card.kinds if field == "kind" else card.tags
        return values[0] if values else None
    if field in card.attributes:
        return card.attributes[field]
    value = card.value(field)
    if isinstance(value, tuple):
        return value[0] if value else None
    return None if value is None or value == "" else str(value)


def split_values(game: Game, field: str) -> list[str]:
    """The values of a field in the order seats take them: the game's colors, kinds or tags as
    declared; any other field's in the order of the cards."""
    declared = {"color": [c.id for c in game.colors], "kind": [k.id for k in game.kinds],
                "tag": [t.id for t in game.tags]}.get(field, [])
    found = [v for v in (seat_value(card, field) for card in game.cards) if v is not None]
    return [v for v in declared if v in found] + list(dict.fromkeys(v for v in found if v not in declared))


class Groups:
    """A setup's cards sorted by all the engine asks of them: color, kinds, whether each selector of
    the game picks them (the steps', the checks', the hand extras') and their value of each field a
    step splits by. The cards of a group always move together, in proportion to their starting
    counts, so the engine plays out groups: a step costs the same for 50 card types as for 5000."""

    def __init__(self, game: Game, setup: Setup, picks: dict[tuple[str, str], bool] | None = None):
        """`picks`: whether each card (by id) is picked by each selector (by repr), kept across
        the setups of one game (they share the steps' and the checks' selectors)."""
        selectors: list[Selector | None] = [None, *(s.select for s in game.steps), *(c.select for c in game.checks),
                                            *({"card": [card_id]} for card_id, _ in setup.hand.extras)]
        unique = {repr(s): s for s in selectors}
        self.fields = sorted({s.split_by for s in game.steps if s.split_by})
        picks = {} if picks is None else picks
        members: dict[tuple[object, ...], list[str]] = {}
        for card in game.cards:
            for key, selector in unique.items():
                if (card.id, key) not in picks:
                    picks[card.id, key] = matches(card, selector)
            signature = (card.color, card.kinds, tuple(seat_value(card, f) for f in self.fields),
                         *(picks[card.id, key] for key in unique))
            members.setdefault(signature, []).append(card.id)
        self.members = list(members.values())
        self.kinds: list[tuple[str, ...]] = [game.card(ids[0]).kinds for ids in self.members]
        self.values: list[dict[str, str | None]] = [{f: seat_value(game.card(ids[0]), f) for f in self.fields}
                                                    for ids in self.members]
        self.group_of = {card_id: g for g, ids in enumerate(self.members) for card_id in ids}
        self.picked = {key: frozenset(g for g, signature in enumerate(members) if signature[3 + i])
                       for i, key in enumerate(unique)}

    def picked_by(self, selector: Selector | None, value: SeatValue | None = None) -> frozenset[int]:
        """The groups a selector picks (a selector not listed above fails here, loudly), of one value
        of a field where given."""
        picked = self.picked[repr(selector)]
        if value is None:
            return picked
        return frozenset(g for g in picked if self.values[g].get(value[0]) == value[1])


class Counts(dict[int, float]):
    """Expected counts by group: a group not there counts 0 (as in a Counter, without adding it)."""

    def __missing__(self, key: int) -> float:
        return 0


class Piles:
    """Named piles of expected counts of each group of cards (see Groups); a pile every player has
    is held seat by seat."""

    def __init__(self, groups: Groups, deck: Mapping[str, float], players: int, seated: Iterable[str]):
        self.groups = groups
        self.players = players
        start = Counts()
        for card, n in deck.items():
            start[groups.group_of[card]] += n
        self.shared: dict[str, Counts] = {"deck": start}
        self.seats: dict[str, list[Counts]] = {name: [Counts() for _ in range(players)]
                                               for name in {HANDS, *seated}}
        # (pile, seat) -> the kinds whose count there is an expectation: a random pick (dealing
        # from a shuffled pile holding cards of several kinds) split them, here or before
        self._expected: dict[tuple[str, int | None], set[str]] = {}

    def is_seated(self, name: str) -> bool:
        return name in self.seats

    def pile(self, name: str, seat: int | None = None) -> Counts:
        """A pile's counts: one seat's, or all of them together (a copy) for a pile every player has."""
        if name not in self.seats:
            return self.shared.setdefault(name, Counts())
        if seat is not None:
            return self.seats[name][seat]
        total = Counts()
        for counts in self.seats[name]:
            for group, n in counts.items():
                total[group] += n
        return total

    def by_group(self, name: str, seat: int | None = None) -> dict[str, float]:
        """The pile as card id -> count, each group's first card standing for the whole group:
        exact for every figure that reads only colors, kinds and selections (by color, by kind,
        balance)."""
        return {self.groups.members[g][0]: n for g, n in self.pile(name, seat).items() if n > EPSILON}

    def selected(self, name: str, selector: Selector | None, seat: int | None = None,
                 value: SeatValue | None = None) -> dict[int, float]:
        picked = self.groups.picked_by(selector, value)
        return {g: n for g, n in self.pile(name, seat).items() if n > EPSILON and g in picked}

    def take(self, name: str, selector: Selector | None, amount: float | None, seat: int | None = None,
             value: SeatValue | None = None) -> tuple[dict[int, float], float, frozenset[str]]:
        """Take `amount` selected cards (all when None), in proportion, from one seat's pile or from
        the pile (every seat's share alike); returns (taken, available, the kinds whose count
        among the taken cards is an expectation)."""
        chosen = self.selected(name, selector, seat, value)
        available = sum(chosen.values())
        amount = available if amount is None else min(amount, available)
        taken = {g: n * amount / available for g, n in chosen.items()} if available else {}
        places = self._places(name, seat)  # one seat's pile, a shared one, or every seat's share alike
        sources = [self.pile(*place) for place in places]
        for group, n in taken.items():
            share = n / chosen[group]
            for source in sources:
                source[group] -= source[group] * share
        kinds = {self.first_kind(group) for group in chosen}
        if len(kinds) > 1 and EPSILON < amount < available - EPSILON:  # which kinds come is chance
            for place in places:
                self._expected.setdefault(place, set()).update(kinds)
            return taken, available, frozenset(kinds)
        # a count taken from one that is an expectation is one too (the pile may hold fewer)
        moved = frozenset(kinds & self.expected_kinds(name, seat))
        if amount >= available - EPSILON:
            self._forget_gone(name, seat)
        return taken, available, moved

    def put(self, name: str, cards: Mapping[int, float], seat: int | None = None,
            expected_kinds: frozenset[str] = frozenset()) -> None:
        """Put cards on a pile: on one seat's, or shared evenly among the seats of a pile every
        player has; `expected_kinds`: the kinds whose count among them is an expectation."""
        if name in self.seats and seat is None:
            for each in range(self.players):
                self.put(name, {g: n / self.players for g, n in cards.items()}, each, expected_kinds)
            return
        target = self.pile(name, seat)
        for group, n in cards.items():
            target[group] += n
        if expected_kinds:
            self._expected.setdefault(self._places(name, seat)[0], set()).update(expected_kinds)

    def expected_kinds(self, name: str, seat: int | None = None) -> frozenset[str]:
        """The kinds whose count in a pile (one seat's, or every seat's together) is an expectation."""
        return frozenset(kind for place in self._places(name, seat) for kind in self._expected.get(place, ()))

    def _forget_gone(self, name: str, seat: int | None) -> None:
        """A kind a pile no longer holds has no count left to be uncertain of: cards of it put
        there later are counted afresh."""
        for place in self._places(name, seat):
            if place in self._expected:
                held = {self.first_kind(g) for g, n in self.pile(*place).items() if n > EPSILON}
                self._expected[place] &= held

    def _places(self, name: str, seat: int | None) -> list[tuple[str, int | None]]:
        if name not in self.seats:
            return [(name, None)]
        return [(name, seat)] if seat is not None else [(name, each) for each in range(self.players)]

    def first_kind(self, group: int) -> str:
        """The first kind of a group's cards ('' for a card of no kind): what a pile's cards are counted by."""
        kinds = self.groups.kinds[group]
        return kinds[0] if kinds else ""

    def size(self, name: str, seat: int | None = None) -> float:
        return sum(n for n in self.pile(name, seat).values() if n > EPSILON)

    def count(self, name: str, each_player: bool, selector: Selector | None) -> float:
        """Selected cards in a pile: each player's share of a pile every player has."""
        total = sum(self.selected(name, selector).values())
        return total / self.players if each_player else total

    def kinds_of(self, cards: Mapping[int, float]) -> dict[str, float]:
        """Cards (by group) counted by their first kind ('' for a card of no kind)."""
        out: dict[str, float] = {}
        for group, n in cards.items():
            kind = self.first_kind(group)
            out[kind] = out.get(kind, 0.0) + n
        return out

    def cards_in(self, name: str, deck: Mapping[str, int], seat: int | None = None) -> dict[str, float]:
        """The pile as card id -> expected count: each group's count shared among its cards in
        proportion to their starting counts (the way the steps moved them)."""
        start: Counter[int] = Counter()
        for card, count in deck.items():
            start[self.groups.group_of[card]] += count
        out: dict[str, float] = {}
        for group, n in self.pile(name, seat).items():
            if n > EPSILON:
                for card in self.groups.members[group]:
                    if deck.get(card):
                        out[card] = settle(n * deck[card] / start[group])
        return out
