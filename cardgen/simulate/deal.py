"""simulate/deal: one game's setup carried out with real cards and a real shuffle, for the
simulator. The engine's report of a player count says which steps run and with what counts; here
each step moves actual cards: a shuffle orders a pile at random, a deal gives each player cards in
turn from the top, a step that takes some of a pile's selected cards takes them from the top of a
shuffled pile and at random from one that is not (as the engine's proportional take expects).

The simulator deals many games at once (Dealer.deal_many): each pile is then an array with a row
per game, which holds when every game's piles have the same sizes at every step (a step that
picks cards by what they are from a pile whose contents differ from game to game may break that;
such a setup is dealt game by game)."""
from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cardgen.check.results import PlayerCount, StepReport
from cardgen.model.game import HAND, HANDS, START_PILE, Game, matches


@dataclass(frozen=True)
class _Move:
    source: str
    target: str
    picks: frozenset[int] | None  # the card numbers the step's selector picks (None: every card)
    count: int | None  # cards in all (None: every one picked)
    shuffle: bool = False
    depth: int | None = None  # a shuffle: how many cards from the top need a random order (None: all)
    to_hands: bool = False
    extras: tuple[tuple[int, int], ...] | None = None  # a deal of hand extras: (card number, copies each player gets)


@dataclass(frozen=True)
class _State:
    """The piles, which of them are shuffled, and the hands, part way through a setup."""

    piles: dict[str, list[int]]
    shuffled: set[str]
    hands: list[list[int]]

    def copy(self) -> _State:
        return _State({name: list(pile) for name, pile in self.piles.items()}, set(self.shuffled),
                      [list(hand) for hand in self.hands])


@dataclass(frozen=True)
class Dealt:
    """Many games' setups: row g is game g. The draw pile's card numbers from the bottom, its
    first `sizes[g]` places in use; each player's hand, its card numbers padded with -1."""

    piles: np.ndarray  # games x places
    sizes: np.ndarray  # games
    hands: np.ndarray  # games x players x cards
    players: np.ndarray  # games: the seats in play (a row of hands may have more, empty)


class _Uneven(Exception):
    """The games' piles differ in size: they cannot be dealt as rows of one array."""


class _Chance(Exception):
    """A step needs the random generator: the setup is the same every time only up to it."""


class _NoChance(random.Random):
    def random(self) -> float:
        raise _Chance

    def getrandbits(self, k: int) -> int:
        raise _Chance


class Dealer:
    """A setup at one player count, ready to be dealt again and again. Cards are numbered by
    their place in the game's card list. The steps before the first that needs chance are
    carried out once."""

    def __init__(self, players: int, deck: tuple[int, ...], moves: tuple[_Move, ...], draw_pile: str):
        self.players, self.draw_pile = players, draw_pile
        self.ready = _State({START_PILE: list(deck)}, set(), [[] for _ in range(players)])
        self.moves = moves
        while self.moves:
            before = self.ready.copy()
            try:
                self._carry_out(self.moves[0], self.ready, _NoChance())
            except _Chance:
                self.ready = before
                break
            self.moves = self.moves[1:]
        self.cards = len(deck)
        self.moves = tuple(dataclasses.replace(move, depth=_depth(self.moves[i + 1:], move.source))
                           if move.shuffle else move for i, move in enumerate(self.moves))

    def deal(self, rng: random.Random) -> tuple[list[int], list[list[int]]]:
        """The draw pile (its top last) and each player's hand after one setup."""
        table = self.ready.copy()
        for move in self.moves:
            self._carry_out(move, table, rng)
        return table.piles.get(self.draw_pile, []), table.hands

    def deal_many(self, rng: np.random.Generator, games: int) -> Dealt:
        """`games` setups, dealt together where their piles keep the same sizes."""
        try:
            return self._deal_together(rng, games)
        except _Uneven:
            one = random.Random(int(rng.integers(1 << 62)))
            return _packed([self.deal(one) for _ in range(games)], self.players)

    def _deal_together(self, rng: np.random.Generator, games: int) -> Dealt:
        """Every pile the same in all games (one row) until a shuffle orders it at random in each
        (a row per game)."""
        piles = {name: np.array(pile, dtype=np.int16) for name, pile in self.ready.piles.items()}
        shuffled = set(self.ready.shuffled)
        hands = [[np.array(hand, dtype=np.int16)] for hand in self.ready.hands]
        for move in self.moves:
            source = move.source
            piles.setdefault(source, _NONE)
            if move.shuffle:
                piles[source] = _shuffled(piles[source], games, rng)
                shuffled.add(source)
                continue
            takes: list[tuple[frozenset[int] | None, int | None]] = [(move.picks, move.count)]
            if move.extras is not None:
                takes = [(frozenset((card,)), each) for card, each in move.extras for _ in hands]
            for i, (picks, count) in enumerate(takes):
                taken, piles[source] = _take_rows(piles[source], picks, count, source in shuffled, rng, games)
                if move.to_hands and move.extras is not None:
                    hands[i % len(hands)].append(taken)
                elif move.to_hands:  # one card at a time to each player in turn
                    for p, hand in enumerate(hands):
                        hand.append(taken[..., p::self.players])
                else:
                    piles[move.target] = _joined(games, piles.get(move.target, _NONE), taken)
                    if move.extras is None:
                        shuffled.discard(move.target)
        pile = piles.get(self.draw_pile, _NONE)
        pile = pile if pile.ndim == 2 else np.tile(pile, (games, 1))
        joined = [_joined(games, *hand) for hand in hands]
        dealt = np.full((games, self.players, max([cards.shape[-1] for cards in joined], default=0)), -1, dtype=np.int16)
        for p, cards in enumerate(joined):
            dealt[:, p, :cards.shape[-1]] = cards
        return Dealt(pile, np.full(games, pile.shape[1]), dealt, np.full(games, self.players))

    def _carry_out(self, move: _Move, table: _State, rng: random.Random) -> None:
        piles, shuffled, hands = table.piles, table.shuffled, table.hands
        source = piles.setdefault(move.source, [])
        if move.shuffle:
            shuffle(source, rng.random, move.depth)
            shuffled.add(move.source)
        elif move.extras is not None:
            for card, each in move.extras:
                for hand in hands if move.to_hands else [piles.setdefault(move.target, [])] * self.players:
                    hand += _take(source, frozenset((card,)), each, move.source in shuffled, rng)
        else:
            taken = _take(source, move.picks, move.count, move.source in shuffled, rng)
            if move.to_hands:  # one card at a time to each player in turn
                for i, hand in enumerate(hands):
                    hand += taken[i::self.players]
            else:
                piles.setdefault(move.target, []).extend(taken)
                shuffled.discard(move.target)


def _depth(later: Sequence[_Move], pile: str) -> int | None:
    """How many cards from the top of a pile just shuffled are taken, in order, before it is
    shuffled again (None when the order of every card may matter): the rest need no shuffling."""
    depth = 0
    for i, move in enumerate(later):
        if move.shuffle and move.source == pile:
            return depth
        if move.source == pile:
            if move.picks is not None or move.count is None or move.extras is not None:
                return None
            depth += move.count
        if move.target == pile and not move.shuffle:
            return None if any(m.source == pile and not m.shuffle for m in later[i + 1:]) else depth
    return None


def shuffle(cards: list[int], random: Callable[[], float], depth: int | None = None) -> None:
    """Fisher and Yates' shuffle from uniform floats (a third faster than random.shuffle's
    integer draws: a simulation deals a game a million times), from the top down: the top
    `depth` cards get a random order, drawn from all, and the rest are left as they are."""
    stop = 0 if depth is None else max(0, len(cards) - 1 - depth)
    for i in range(len(cards) - 1, stop, -1):
        j = int(random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _take(pile: list[int], picks: frozenset[int] | None, count: int | None, from_top: bool,
          rng: random.Random) -> list[int]:
    """Remove and return `count` picked cards (all when None or fewer are there)."""
    if picks is None and count is not None and from_top:
        count = min(count, len(pile))
        taken = pile[len(pile) - count:]
        del pile[len(pile) - count:]
        taken.reverse()  # drawn one at a time from the top
        return taken
    places = [i for i, card in enumerate(pile) if picks is None or card in picks]
    if count is not None and count < len(places):
        alike = len({pile[i] for i in places}) == 1  # copies of one card: which ones is no matter
        places = places[len(places) - count:] if from_top or alike else sorted(rng.sample(places, count))
    chosen = set(places)
    taken = [pile[i] for i in places]
    pile[:] = [card for i, card in enumerate(pile) if i not in chosen]
    return taken


_NONE = np.zeros(0, dtype=np.int16)


def _shuffled(pile: np.ndarray, games: int, rng: np.random.Generator) -> np.ndarray:
    """The pile (one row, or a row per game) in a random order in each game: sorted by random
    keys, each card number in its key's low bits, so that sorting the keys sorts the cards (the
    48 random bits above them tie between two cards about once in 10^12 games)."""
    keys = rng.bit_generator.random_raw((games, pile.shape[-1]))
    low_bits(keys, np.int16)[...] = pile  # card numbers are int16, never negative
    keys.sort(axis=1)
    cards: np.ndarray = low_bits(keys, np.int16).copy()
    return cards


def low_bits(keys: np.ndarray, kind: type) -> np.ndarray:
    """A view of the low bits of 64-bit keys, as many as a `kind` holds."""
    size = np.dtype(kind).itemsize
    view: np.ndarray = keys.view(kind)[..., 0 if sys.byteorder == "little" else 8 // size - 1::8 // size]
    return view


def _joined(games: int, *parts: np.ndarray) -> np.ndarray:
    """The parts one after the other: one row when each is the same in every game, else a row per game."""
    if all(part.ndim == 1 for part in parts):
        return np.concatenate(parts)
    return np.concatenate([np.broadcast_to(part, (games, part.shape[-1])) for part in parts], axis=1)


def _take_rows(pile: np.ndarray, picks: frozenset[int] | None, count: int | None, from_top: bool,
               rng: np.random.Generator, games: int) -> tuple[np.ndarray, np.ndarray]:
    """_take in every game: the cards taken, and the pile left (each one row when the pile is
    the same in every game and the cards taken are too)."""
    size = pile.shape[-1]
    if picks is None and count is not None and from_top:
        count = min(count, size)
        return pile[..., size - count:][..., ::-1], pile[..., :size - count]
    if pile.ndim == 1:
        places = np.array([i for i, card in enumerate(pile.tolist()) if picks is None or card in picks], dtype=np.int64)
        if count is not None and count < len(places) and not from_top and len(set(pile[places].tolist())) > 1:
            pile = np.broadcast_to(pile, (games, size))  # which cards are taken differs from game to game
        else:
            places = places[len(places) - count:] if count is not None and count < len(places) else places
            return pile[places], np.delete(pile, places)
    picked = np.ones(pile.shape, dtype=bool) if picks is None else np.isin(pile, list(picks))
    per_game = picked.sum(axis=1)
    if games and (per_game != per_game[0]).any():
        raise _Uneven
    found = int(per_game[0]) if games else 0
    places = np.nonzero(picked)[1].reshape(games, found)
    if count is not None and count < found:
        cards = np.take_along_axis(pile, places, axis=1)
        alike = (cards == cards[:, :1]).all(axis=1)  # copies of one card: which ones is no matter
        top = places[:, found - count:]
        if from_top or alike.all():
            places = top
        else:
            chosen = np.sort(rng.random((games, found)).argsort(axis=1)[:, :count], axis=1)
            places = np.where(alike[:, None], top, np.take_along_axis(places, chosen, axis=1))
    keep = np.ones(pile.shape, dtype=bool)
    np.put_along_axis(keep, places, False, axis=1)
    return np.take_along_axis(pile, places, axis=1), pile[keep].reshape(games, size - places.shape[1])


def _packed(deals: Sequence[tuple[list[int], list[list[int]]]], players: int) -> Dealt:
    """Games dealt one by one, as rows."""
    places = max([len(pile) for pile, _ in deals], default=0)
    width = max([len(hand) for _, hands in deals for hand in hands], default=0)
    piles = np.full((len(deals), places), -1, dtype=np.int16)
    hands = np.full((len(deals), players, width), -1, dtype=np.int16)
    for g, (pile, dealt) in enumerate(deals):
        piles[g, :len(pile)] = pile
        for p, hand in enumerate(dealt):
            hands[g, p, :len(hand)] = hand
    return Dealt(piles, np.array([len(pile) for pile, _ in deals], dtype=np.int64), hands, np.full(len(deals), players))


def stacked(deals: Sequence[Dealt]) -> Dealt:
    """Several setups' games as one batch: each draw pile padded to the widest, each hand to the
    most players and cards."""
    if len(deals) == 1:
        return deals[0]
    games, places = sum(len(d.sizes) for d in deals), max(d.piles.shape[1] for d in deals)
    piles = np.full((games, places), -1, dtype=np.int16)
    hands = np.full((games, max(d.hands.shape[1] for d in deals), max(d.hands.shape[2] for d in deals)), -1,
                    dtype=np.int16)
    row = 0
    for d in deals:
        piles[row:row + len(d.sizes), :d.piles.shape[1]] = d.piles
        hands[row:row + len(d.sizes), :d.hands.shape[1], :d.hands.shape[2]] = d.hands
        row += len(d.sizes)
    return Dealt(piles, np.concatenate([d.sizes for d in deals]), hands, np.concatenate([d.players for d in deals]))


def dealer(game: Game, played: PlayerCount, draw_pile: str, picked: dict[int, frozenset[int]] | None = None) -> Dealer:
    """The steps the engine carried out at this player count, as moves of numbered cards. `picked`:
    the cards each step's selector picks, kept for the other player counts of the setup (a step's
    selector is the same object at each)."""
    number = {card.id: i for i, card in enumerate(game.cards)}
    deck = tuple(number[card_id] for card_id, n in played.starting_deck.items() for _ in range(n))
    moves = tuple(_move(game, step, number, played, {} if picked is None else picked) for step in played.steps
                  if step.step.moves_cards or step.step.action == "shuffle")  # not a text, set or first player
    return Dealer(played.players, deck, moves, draw_pile)


def _move(game: Game, done: StepReport, number: dict[str, int], played: PlayerCount,
          picked: dict[int, frozenset[int]]) -> _Move:
    step = done.step
    if step.action == "shuffle":
        return _Move(step.source, step.source, None, None, shuffle=True)
    to_hands = step.target == HANDS or game.pile(step.target).role == HAND
    if step.extras:
        extras = tuple((number[card_id], each) for card_id, each in played.extras.items())
        return _Move(step.source, step.target, None, None, to_hands=to_hands, extras=extras)
    if step.select is not None and id(step.select) not in picked:
        picked[id(step.select)] = frozenset(i for i, card in enumerate(game.cards) if matches(card, step.select))
    picks = None if step.select is None else picked[id(step.select)]
    count = None if done.count is None else done.count * (played.players if step.per_player else 1)
    return _Move(step.source, step.target, picks, count, to_hands=to_hands)
