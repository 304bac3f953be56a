"""check/games: many games of one setup at one player count played at once, a row of numpy arrays
per game, turn by turn while any game goes on (simulate/simulation.py says what is played and why).

Cards are codes (simulate.Rules): the draw pile is a row of codes from the bottom, its first
`size` places in use; a hand counts the cards of each code; what the players know of the draw
pile is a bit per player at each place; the players still in are a ring of seats, each seat
naming the next one either way round. The arrays are read and written through flat views, a
game's row at `row number * row length`, so that each step is a handful of one-dimensional
gathers and scatters over the games that take it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardgen.simulate.deal import Dealt

INERT, LOSE, SAVE, PLAYS = 0, 1, 2, 3  # card codes: playable cards are PLAYS and up


@dataclass(frozen=True)
class Codes:
    """What the simulator needs of a game's cards and turns, by code."""

    of_card: np.ndarray  # the code of each card number, and `size` last: a hand's padding (-1) counts there
    size: int  # codes in all
    draw: int
    saved: str
    ends: np.ndarray  # per code: playing it ends the turn
    extra_turns: np.ndarray
    shuffles: np.ndarray
    peeks: np.ndarray
    reverses: np.ndarray
    avoid: slice  # the codes that end a turn, in the order a player plays them
    shufflers: slice
    peekers: slice


@dataclass(frozen=True)
class Played:
    """What a batch of games came to, a row per game (wins: the winner's seat, -1 for none)."""

    turns: np.ndarray
    winner: np.ndarray
    early: int  # players out during their first turn, in all
    ran_out: np.ndarray  # every saving card in play was spent
    first_loses: np.ndarray
    safe: np.ndarray  # cards above the first losing card of the draw pile as dealt
    saving: np.ndarray  # games x players: saving cards dealt


class _Games:
    """The state of the games still going on, a row each."""

    def __init__(self, codes: Codes, dealt: Dealt):
        games, players = dealt.hands.shape[:2]
        self.codes, self.players = codes.size, players
        self.row = np.arange(games)  # each game's place in the batch
        self.pile = codes.of_card[dealt.piles].astype(np.int8)
        self.size = dealt.sizes.astype(np.int64)
        width = codes.size + 1
        held = (np.arange(games * players)[:, None] * width + codes.of_card[dealt.hands].reshape(games * players, -1))
        self.hands = np.bincount(held.ravel(), minlength=games * players * width).astype(np.int16).reshape(
            games, players, width)[:, :, :-1].copy()
        self.known = np.zeros((*self.pile.shape, (players + 7) // 8), dtype=np.uint8)
        seats = np.arange(players)  # the next seat still in, the way seats count and the other way round:
        self.ring = np.tile(np.array([(seats + 1) % players, (seats - 1) % players], dtype=np.int16), (games, 1, 1))
        self.started = np.zeros((games, players), dtype=bool)  # the player has had a turn
        self.left = np.full(games, players)
        self.seat = np.zeros(games, dtype=np.int64)
        self.step = np.ones(games, dtype=np.int64)
        self.owed = np.ones(games, dtype=np.int64)
        self.turns = np.zeros(games, dtype=np.int64)
        in_pile = np.arange(self.pile.shape[1]) < self.size[:, None]
        self.saving_left = self.hands[:, :, SAVE].sum(axis=1) + ((self.pile == SAVE) & in_pile).sum(axis=1)
        self._views()

    def _views(self) -> None:
        games, places = self.pile.shape
        self.pile_at, self.seat_at = np.arange(games) * places, np.arange(games) * self.players
        self.ring_at = 2 * self.seat_at
        self.piles, self.knowns, self.words = self.pile.reshape(-1), self.known.reshape(-1), self.known.shape[2]
        self.held, self.rings, self.starteds = self.hands.reshape(-1), self.ring.reshape(-1), self.started.reshape(-1)

    def keep(self, rows: np.ndarray) -> None:
        for name in ("row", "pile", "size", "hands", "known", "ring", "started", "left", "seat", "step", "owed", "turns",
                     "saving_left"):
            setattr(self, name, getattr(self, name)[rows])
        self._views()


def play(codes: Codes, dealt: Dealt, rng: np.random.Generator, looks: bool) -> Played:
    games, players = dealt.hands.shape[:2]
    g = _Games(codes, dealt)
    first = _first_draw(g)
    saving = g.hands[:, :, SAVE].copy()
    had_saving = g.saving_left > 0
    turns, winner, ran_out = np.zeros(games, dtype=np.int64), np.full(games, -1), np.zeros(games, dtype=bool)
    early, going = 0, games
    while going:
        at = g.seat_at + g.seat
        g.turns += 1
        ended, passed = np.zeros(len(at), dtype=bool), np.zeros(len(at), dtype=np.int64)
        if looks:
            _choose(codes, g, at, ended, passed, rng)
        out = np.zeros(len(at), dtype=bool)
        drawing = ~ended
        for _ in range(codes.draw):
            drawing &= (g.size > 0) & ~out
            out[_draw(codes, g, at, drawing.nonzero()[0], rng)] = True
        gone = out.nonzero()[0]
        early += int(len(gone) - g.starteds[at[gone]].sum())
        g.starteds[at] = True
        _leave(g, gone, at[gone])
        stalled = ~ended & ~out & (g.size == 0)
        passes = passed > 0  # the next player takes the turns owed, and more
        g.owed -= 1
        moves = (out | passes | (g.owed <= 0)).nonzero()[0]
        g.owed = np.where(passes, 1 + passed, g.owed)
        g.owed[moves[~passes[moves]]] = 1
        g.seat[moves] = g.rings[g.ring_at[moves] + (g.step[moves] < 0) * g.players + g.seat[moves]]
        over = ((stalled | (g.left == 1)) & (g.left > 0)).nonzero()[0]
        if len(over):
            done = g.row[over]
            turns[done] = g.turns[over]
            winner[done] = np.where(stalled[over], -1, g.seat[over])
            ran_out[done] = had_saving[done] & (g.saving_left[over] == 0)
            g.size[over], g.left[over], going = 0, 0, going - len(over)  # no more draws, never over again
            if going < len(g.row) * 7 // 8:  # the games over are left out of the arrays now and then
                g.keep(g.left.nonzero()[0])
    return Played(turns, winner, early, ran_out, *first, saving)


def _first_draw(g: _Games) -> tuple[np.ndarray, np.ndarray]:
    """Whether the first draw loses, and the cards above the first losing card, as dealt."""
    losing = (g.pile == LOSE) & (np.arange(g.pile.shape[1]) < g.size[:, None])
    any_losing = losing.any(axis=1)
    top_losing = losing.shape[1] - 1 - losing[:, ::-1].argmax(axis=1)
    safe = np.where(any_losing, g.size - 1 - top_losing, g.size)
    return any_losing & (safe == 0), safe


def _leave(g: _Games, rows: np.ndarray, at: np.ndarray) -> None:
    """These games' players are out: the seats either side of theirs name each other."""
    at = g.ring_at[rows] + g.seat[rows]
    after, before = g.rings[at], g.rings[at + g.players]
    g.rings[at - g.seat[rows] + g.players + after] = before
    g.rings[at - g.seat[rows] + before] = after
    g.left[rows] -= 1


def _choose(codes: Codes, g: _Games, at: np.ndarray, ended: np.ndarray, passed: np.ndarray,
            rng: np.random.Generator) -> None:
    """The new player's plays before drawing, each game until it draws or a play ends its turn:
    a top card they do not know is looked at with a peek card; a top card they know to be losing
    is avoided with a card that ends the turn, else shuffled away (and the new top card looked at)."""
    rows = (g.size > 0).nonzero()[0]
    while len(rows):
        top, seat, hand = g.pile_at[rows] + g.size[rows] - 1, g.seat[rows], at[rows] * g.codes
        knows = (g.knowns[top * g.words + (seat >> 3)] >> (seat & 7)) & 1 == 1
        unknown = (~knows).nonzero()[0]
        peek = _first_held(g, hand[unknown], codes.peekers)
        looks = unknown[peek > 0]
        _play(codes, g, rows[looks], hand[looks], peek[peek > 0], rng)
        knows[looks] = True
        losing = (knows & (g.piles[top] == LOSE)).nonzero()[0]
        code = _first_held(g, hand[losing], codes.avoid)
        code = np.where(code > 0, code, _first_held(g, hand[losing], codes.shufflers))
        playing = code > 0
        rows, code = rows[losing[playing]], code[playing]
        _play(codes, g, rows, hand[losing[playing]], code, rng)
        ending = codes.ends[code]
        ended[rows[ending]] = True
        passed[rows[ending]] = codes.extra_turns[code[ending]]
        g.step[rows[ending & codes.reverses[code]]] *= -1
        rows = rows[~ending]


def _play(codes: Codes, g: _Games, rows: np.ndarray, hand: np.ndarray, code: np.ndarray,
          rng: np.random.Generator) -> None:
    """These games' players play a card from the hand (its place in g.held): its shuffle and its
    peek here, the rest by the caller."""
    g.held[hand + code] -= 1
    shuffling = rows[codes.shuffles[code]]
    if len(shuffling):
        _shuffle(g, shuffling, rng)
    _peek(g, rows, codes.peeks[code])


def _first_held(g: _Games, hand: np.ndarray, group: slice) -> np.ndarray:
    """The first code of the group that each hand (its place in g.held) holds, 0 for none."""
    code = np.zeros(len(hand), dtype=np.int64)
    for each in reversed(range(group.start, group.stop)):
        code[g.held[hand + each] > 0] = each
    return code


def _shuffle(g: _Games, rows: np.ndarray, rng: np.random.Generator) -> None:
    """The draw piles of these games in a random order; what anyone knew of them is lost."""
    size = g.size[rows]
    width = int(size.max())
    keys = rng.random((len(rows), width))
    keys[np.arange(width) >= size[:, None]] = 2.0  # the unused places stay above
    g.pile[rows, :width] = np.take_along_axis(g.pile[rows, :width], keys.argsort(axis=1), axis=1)
    g.known[rows] = 0


def _peek(g: _Games, rows: np.ndarray, cards: np.ndarray) -> None:
    """These games' players look at the top cards of the draw pile."""
    looked = np.minimum(cards, g.size[rows])
    seat = np.repeat(g.seat[rows], looked)
    places = _spans(g.pile_at[rows] + g.size[rows] - looked, looked)
    g.knowns[places * g.words + (seat >> 3)] |= (1 << (seat & 7)).astype(np.uint8)


def _draw(codes: Codes, g: _Games, at: np.ndarray, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """These games' players draw a card: kept, or losing and saved, or out (the rows returned)."""
    g.size[rows] -= 1
    place = g.pile_at[rows] + g.size[rows]
    card = g.piles[place].astype(np.int64)
    g.knowns[_words(g, place)] = 0
    hand = at[rows] * g.codes
    kept = card != LOSE
    g.held[hand[kept] + card[kept]] += 1
    losing, hand = rows[~kept], hand[~kept] + SAVE
    saved = g.held[hand] > 0
    g.held[hand[saved]] -= 1
    g.saving_left[losing[saved]] -= 1
    if codes.saved != "discard" and saved.any():
        _put_back(codes.saved, g, losing[saved], rng)
    out: np.ndarray = losing[~saved]
    return out


def _put_back(saved: str, g: _Games, rows: np.ndarray, rng: np.random.Generator) -> None:
    """The saved losing card goes back where the rules say, the cards above it one place up; its
    owner knows where."""
    size = g.size[rows]
    if saved == "top":
        place = size
    elif saved == "bottom":
        place = np.zeros(len(rows), dtype=np.int64)
    else:
        place = (rng.random(len(rows)) * (size + 1)).astype(np.int64)
    place += g.pile_at[rows]
    above = _spans(place, g.pile_at[rows] + size - place)
    g.piles[above + 1], g.knowns[_words(g, above + 1)] = g.piles[above], g.knowns[_words(g, above)]
    seat = g.seat[rows]
    g.piles[place], g.knowns[_words(g, place)] = LOSE, 0
    g.knowns[place * g.words + (seat >> 3)] = (1 << (seat & 7)).astype(np.uint8)
    g.size[rows] += 1


def _words(g: _Games, places: np.ndarray) -> np.ndarray:
    """Where in g.knowns the bits of these places are."""
    words: np.ndarray = (places[:, None] * g.words + np.arange(g.words)).reshape(-1)
    return words


def _spans(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The places start, start + 1, ... of each span, one after the other."""
    ends = np.cumsum(lengths)
    places: np.ndarray = np.arange(ends[-1] if len(ends) else 0) + np.repeat(starts - ends + lengths, lengths)
    return places
