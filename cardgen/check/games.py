"""check/games: many games of one setup at one player count played at once, a row of numpy arrays
per game, turn by turn while any game goes on (check/simulate.py says what is played and why).

Cards are codes (simulate.Rules): the draw pile is a row of codes from the bottom, its first
`size` places in use; a hand counts the cards of each code; what the players know of the draw
pile is a bit per player at each place."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardgen.check.deal import Dealt

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
    avoid: tuple[int, ...]  # the codes that end a turn, in the order a player plays them
    shufflers: tuple[int, ...]
    peekers: tuple[int, ...]


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
        self.row = np.arange(games)  # each game's place in the batch
        self.pile = codes.of_card[dealt.piles].astype(np.int8)
        self.size = dealt.sizes.astype(np.int64)
        width = codes.size + 1
        held = (np.arange(games * players)[:, None] * width + codes.of_card[dealt.hands].reshape(games * players, -1))
        self.hands = np.bincount(held.ravel(), minlength=games * players * width).astype(np.int16).reshape(
            games, players, width)[:, :, :-1].copy()
        self.known = np.zeros(self.pile.shape, dtype=np.int16 if players < 16 else np.int64)
        self.alive = np.ones((games, players), dtype=bool)
        self.left = np.full(games, players)
        self.seat = np.zeros(games, dtype=np.int64)
        self.step = np.ones(games, dtype=np.int64)
        self.owed = np.ones(games, dtype=np.int64)
        self.turns = np.zeros(games, dtype=np.int64)
        self.taken = np.zeros((games, players), dtype=np.int64)
        self.saving_left = self.hands[:, :, SAVE].sum(axis=1) + (
            (self.pile == SAVE) & (np.arange(self.pile.shape[1]) < self.size[:, None])).sum(axis=1)

    def keep(self, rows: np.ndarray) -> None:
        for name in ("row", "pile", "size", "hands", "known", "alive", "left", "seat", "step", "owed", "turns",
                     "taken", "saving_left"):
            setattr(self, name, getattr(self, name)[rows])


def play(codes: Codes, dealt: Dealt, rng: np.random.Generator, looks: bool) -> Played:
    games, players = dealt.hands.shape[:2]
    g = _Games(codes, dealt)
    first = _first_draw(g)
    saving = g.hands[:, :, SAVE].copy()
    had_saving = g.saving_left > 0
    turns, winner, ran_out = np.zeros(games, dtype=np.int64), np.full(games, -1), np.zeros(games, dtype=bool)
    early = 0
    while len(g.row):
        every = np.arange(len(g.row))
        player = g.seat
        g.turns += 1
        g.taken[every, player] += 1
        hand = g.hands[every, player]
        ended, passed = np.zeros(len(every), dtype=bool), np.zeros(len(every), dtype=np.int64)
        if looks:
            _choose(codes, g, hand, player, ended, passed, rng)
        out = np.zeros(len(every), dtype=bool)
        drawing = ~ended
        for _ in range(codes.draw):
            drawing &= (g.size > 0) & ~out
            out |= _draw(codes, g, hand, player, np.flatnonzero(drawing), rng)
        g.hands[every, player] = hand
        early += int((out & (g.taken[every, player] <= 1)).sum())
        stalled = ~ended & ~out & (g.size == 0)
        g.alive[every[out], player[out]] = False
        g.left -= out
        passes = passed > 0  # the next player takes the turns owed, and more
        g.owed -= 1
        moves = out | passes | (g.owed <= 0)
        g.owed = np.where(passes, 1 + passed, np.where(moves, 1, g.owed))
        g.seat[moves] = _next_alive(g, np.flatnonzero(moves), player[moves])
        over = stalled | (g.left == 1)
        if over.any():
            done = g.row[over]
            turns[done] = g.turns[over]
            winner[done] = np.where(stalled[over], -1, g.alive[over].argmax(axis=1))
            ran_out[done] = had_saving[done] & (g.saving_left[over] == 0)
            g.keep(np.flatnonzero(~over))
    return Played(turns, winner, early, ran_out, *first, saving)


def _first_draw(g: _Games) -> tuple[np.ndarray, np.ndarray]:
    """Whether the first draw loses, and the cards above the first losing card, as dealt."""
    losing = (g.pile == LOSE) & (np.arange(g.pile.shape[1]) < g.size[:, None])
    any_losing = losing.any(axis=1)
    top_losing = losing.shape[1] - 1 - losing[:, ::-1].argmax(axis=1)
    safe = np.where(any_losing, g.size - 1 - top_losing, g.size)
    return any_losing & (safe == 0), safe


def _choose(codes: Codes, g: _Games, hand: np.ndarray, player: np.ndarray, ended: np.ndarray, passed: np.ndarray,
            rng: np.random.Generator) -> None:
    """The new player's plays before drawing, each game until it draws or a play ends its turn:
    a top card they do not know is looked at with a peek card; a top card they know to be losing
    is avoided with a card that ends the turn, else shuffled away."""
    rows = np.flatnonzero(g.size > 0)
    while len(rows):
        top = g.size[rows] - 1
        knows = (g.known[rows, top] >> player[rows]) & 1 == 1
        losing = knows & (g.pile[rows, top] == LOSE)
        held = hand[rows]
        code = _first_held(held, codes.peekers, ~knows)
        if losing.any():
            code = _first_held(held, codes.shufflers, losing, code)
            code = _first_held(held, codes.avoid, losing, code)
        rows, code = rows[code > 0], code[code > 0]
        hand[rows, code] -= 1
        shuffling = rows[codes.shuffles[code]]
        if len(shuffling):
            _shuffle(g, shuffling, rng)
        _peek(g, rows, codes.peeks[code], player[rows])
        ending = codes.ends[code]
        ended[rows[ending]] = True
        passed[rows[ending]] = codes.extra_turns[code[ending]]
        g.step[rows[ending & codes.reverses[code]]] *= -1
        rows = rows[~ending]


def _first_held(held: np.ndarray, order: tuple[int, ...], asked: np.ndarray, code: np.ndarray | None = None) -> np.ndarray:
    """Where asked, the first code of the order that the hand holds (where it holds none, `code`
    as it was, 0 at first)."""
    code = np.zeros(len(held), dtype=np.int64) if code is None else code
    for each in reversed(order):
        code = np.where(asked & (held[:, each] > 0), each, code)
    return code


def _shuffle(g: _Games, rows: np.ndarray, rng: np.random.Generator) -> None:
    """The draw piles of these games in a random order; what anyone knew of them is lost."""
    keys = rng.random((len(rows), g.pile.shape[1]))
    keys[np.arange(g.pile.shape[1]) >= g.size[rows, None]] = 2.0  # the unused places stay above
    g.pile[rows] = np.take_along_axis(g.pile[rows], keys.argsort(axis=1), axis=1)
    g.known[rows] = 0


def _peek(g: _Games, rows: np.ndarray, cards: np.ndarray, player: np.ndarray) -> None:
    bit = (1 << player).astype(g.known.dtype)
    for depth in range(int(cards.max(initial=0))):
        place = g.size[rows] - 1 - depth
        looked = (depth < cards) & (place >= 0)
        g.known[rows[looked], place[looked]] |= bit[looked]


def _draw(codes: Codes, g: _Games, hand: np.ndarray, player: np.ndarray, rows: np.ndarray,
          rng: np.random.Generator) -> np.ndarray:
    """These games' players draw a card: kept, or losing and saved, or out (the rows returned)."""
    out = np.zeros(len(g.row), dtype=bool)
    g.size[rows] -= 1
    place = g.size[rows]
    card = g.pile[rows, place].astype(np.int64)
    g.known[rows, place] = 0
    kept = card != LOSE
    hand[rows[kept], card[kept]] += 1
    losing = rows[~kept]
    saved = hand[losing, SAVE] > 0
    out[losing[~saved]] = True
    losing = losing[saved]
    hand[losing, SAVE] -= 1
    g.saving_left[losing] -= 1
    if codes.saved != "discard" and len(losing):
        _put_back(codes.saved, g, losing, player[losing], rng)
    return out


def _put_back(saved: str, g: _Games, rows: np.ndarray, player: np.ndarray, rng: np.random.Generator) -> None:
    """The saved losing card goes back where the rules say; its owner knows where."""
    size = g.size[rows]
    if saved == "top":
        place = size
    elif saved == "bottom":
        place = np.zeros(len(rows), dtype=np.int64)
    else:
        place = (rng.random(len(rows)) * (size + 1)).astype(np.int64)
    places = np.arange(g.pile.shape[1])
    above, at = places > place[:, None], places == place[:, None]
    for array, value in ((g.pile, np.full(len(rows), LOSE)), (g.known, 1 << player)):
        old = array[rows]
        array[rows] = np.where(at, value[:, None], np.where(above, np.roll(old, 1, axis=1), old))
    g.size[rows] += 1


def _next_alive(g: _Games, rows: np.ndarray, player: np.ndarray) -> np.ndarray:
    """The next player still in, the way the turn passes."""
    players = g.alive.shape[1]
    seats = (player[:, None] + g.step[rows, None] * np.arange(1, players)) % players
    alive = np.take_along_axis(g.alive[rows], seats, axis=1)
    return seats[np.arange(len(seats)), alive.argmax(axis=1)]
