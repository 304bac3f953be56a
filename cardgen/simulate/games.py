"""simulate/games: many games of one setup at one player count played at once, a row of numpy arrays
per game, turn by turn while any game goes on (simulate/simulation.py says what is played and why).

Cards are codes (simulate.Rules): the draw pile is a row of codes from the bottom, its first
`size` places in use; a hand counts the cards of each code; what the players know of the draw
pile is a bit per player at each place; the players still in are a ring of seats, each seat
naming the next one either way round. The arrays are read and written through flat views, a
game's row at `row number * row length`, so that each step is a handful of one-dimensional
gathers and scatters over the games that take it. Every game still going takes a turn at each
step, so a game's turns are the steps it lasted; the few steps that something rarer happens in
(a card played to get out of a losing draw, a losing card drawn, a game over) are worked out for
the games they happen in only.

Games of different player counts and setups may be played together: each game's seats are padded
to the most players of any, its draw pile to the widest; and each game draws its random numbers
from a stream of its own (Chance), so that what a game comes to does not depend on which games
were played beside it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardgen.simulate.deal import Dealt, low_bits

INERT, LOSE, SAVE, PLAYS = 0, 1, 2, 3  # card codes: playable cards are PLAYS and up
OVER = -1  # the size of a game's draw pile once the game is over: it neither plays nor draws again


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

    @property
    def escapes(self) -> slice:
        """The codes that get a player out of a known losing draw, best first: the ones that end
        the turn, then the shuffles (each group's codes are together, in that order)."""
        groups = [group for group in (self.avoid, self.shufflers) if group.stop > group.start]
        return slice(groups[0].start, groups[-1].stop) if groups else slice(PLAYS, PLAYS)


@dataclass(frozen=True)
class Played:
    """What a batch of games came to, a row per game (wins: the winner's seat, -1 for none)."""

    turns: np.ndarray
    winner: np.ndarray
    early: np.ndarray  # players out during their first turn
    ran_out: np.ndarray  # every saving card in play was spent
    first_loses: np.ndarray
    safe: np.ndarray  # cards above the first losing card of the draw pile as dealt
    saving: np.ndarray  # games x players: saving cards dealt

    def part(self, first: int, stop: int, players: int) -> Played:
        """The games from `first` to `stop`, of this many players."""
        rows = slice(first, stop)
        return Played(self.turns[rows], self.winner[rows], self.early[rows], self.ran_out[rows],
                      self.first_loses[rows], self.safe[rows], self.saving[rows, :players])


GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64's increment and its two mixing multipliers
MIX = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


class Chance:
    """Each game's own stream of random numbers: SplitMix64 (Steele, Lea and Flood, 2014; Java's
    SplittableRandom) seeded with the game's key, its n-th number the mix of key + n * GOLDEN."""

    def __init__(self, keys: np.ndarray):
        self.key, self.used = keys.astype(np.uint64), np.zeros(len(keys), dtype=np.uint64)

    def bits(self, games: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The next counts[i] 64-bit numbers of the stream of games[i], a row each, as wide as the
        most (what stands past a row's count is not its to use: the stream is not moved on by it)."""
        used = self.used[games]
        self.used[games] = used + counts.astype(np.uint64)
        width = int(counts.max()) if len(counts) else 0
        x = self.key[games][:, None] + (used[:, None] + np.arange(1, width + 1, dtype=np.uint64)) * GOLDEN
        x ^= x >> np.uint64(30)
        x *= MIX[0]
        x ^= x >> np.uint64(27)
        x *= MIX[1]
        x ^= x >> np.uint64(31)
        mixed: np.ndarray = x
        return mixed

    def uniform(self, games: np.ndarray) -> np.ndarray:
        """A number from [0, 1) for each of these games: the top 53 bits of the next one, as a float."""
        fraction: np.ndarray = (self.bits(games, np.ones(len(games), dtype=np.int64))[:, 0] >> np.uint64(11)) * 2.0 ** -53
        return fraction


class _Games:
    """The state of the games still going on, a row each."""

    def __init__(self, codes: Codes, dealt: Dealt, knowing: bool):
        games, players = dealt.hands.shape[:2]  # the most players of any game: the others' last seats stay empty
        self.codes, self.players, self.knowing = codes.size + 1, players, knowing
        self.row = np.arange(games)  # each game's place in the batch
        of_card = codes.of_card.astype(np.int8)
        self.pile = of_card[dealt.piles]
        self.size = dealt.sizes.astype(np.int64)
        width = codes.size + 1
        cards = dealt.piles.shape[1] + dealt.hands.shape[1] * dealt.hands.shape[2]  # no hand holds more of a code
        counts = np.zeros((games, players, width), dtype=np.uint8 if cards < 256 else np.int16)
        hand = np.arange(games * players) * width
        for cards in of_card[dealt.hands].reshape(games * players, -1).T:  # a card of each hand at a time
            counts.reshape(-1)[hand + cards] += 1
        self.hands = counts  # the last code: no card (a padding card, or a place past a draw pile's top)
        self.known = np.zeros((*self.pile.shape, (players + 7) // 8 if knowing else 1), dtype=np.uint8)
        seats, count = np.arange(players), np.arange(players + 1)[:, None]  # the next seat still in, the way seats
        rings = np.stack([(seats + 1) % np.maximum(count, 1), (seats - 1) % np.maximum(count, 1)], axis=1)  # count
        self.ring = rings.astype(np.int16)[dealt.players]  # and the other way round, for each number of players
        self.back = np.zeros(games, dtype=np.int64)  # 0 while the turn passes the way seats count, else players
        self.started = np.arange(players) >= dealt.players[:, None]  # the player has had a turn (no player: yes)
        self.left = dealt.players.astype(np.int64)
        self.seat = np.zeros(games, dtype=np.int64)
        self.owed = np.ones(games, dtype=np.int64)
        self.saving_left = self.hands[:, :, SAVE].sum(axis=1) + (self.pile == SAVE).sum(axis=1)  # past `size`: -1
        self._views()

    def _views(self) -> None:
        games, places = self.pile.shape
        self.pile_at, self.seat_at = np.arange(games) * places, np.arange(games) * self.players
        self.ring_at = 2 * self.seat_at
        self.turn_at = self.ring_at + self.back  # where the seats the turn passes to are
        self.piles, self.knowns, self.words = self.pile.reshape(-1), self.known.reshape(-1), self.known.shape[2]
        self.held, self.rings, self.starteds = self.hands.reshape(-1), self.ring.reshape(-1), self.started.reshape(-1)

    def keep(self, rows: np.ndarray) -> None:
        for name in ("row", "pile", "size", "hands", "known", "ring", "back", "started", "left", "seat", "owed",
                     "saving_left"):
            setattr(self, name, getattr(self, name)[rows])
        self._views()

    def word(self, places: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """Where in g.knowns the seats' bits of these places are."""
        return places if self.words == 1 else places * self.words + (seat >> 3)

    def words_of(self, places: np.ndarray) -> np.ndarray:
        """Where in g.knowns all the bits of these places are."""
        return places if self.words == 1 else (places[:, None] * self.words + np.arange(self.words)).reshape(-1)

    def knows(self, places: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """Whether the seats know the cards at these places."""
        known: np.ndarray = (self.knowns[self.word(places, seat)] >> (seat & 7).astype(np.uint8)) & 1 == 1
        return known

    def learn(self, places: np.ndarray, seat: np.ndarray) -> None:
        """The seats know the cards at these places (each place once)."""
        self.knowns[self.word(places, seat)] |= (1 << (seat & 7)).astype(np.uint8)


def play(codes: Codes, dealt: Dealt, chance: Chance, looks: bool) -> Played:
    games = len(dealt.players)
    g = _Games(codes, dealt, looks)
    first = _first_draw(g)
    saving = g.hands[:, :, SAVE].copy()
    had_saving = g.saving_left > 0
    turns, winner, ran_out = np.zeros(games, dtype=np.int64), np.full(games, -1), np.zeros(games, dtype=bool)
    early, going, turn, nobody = np.zeros(games, dtype=np.int64), games, 0, np.zeros(0, dtype=np.int64)
    every_started = False  # every seat of every game has had a turn
    while going:
        turn += 1
        at = g.seat_at + g.seat
        playing = g.size > 0  # the games whose player plays and draws (the others are stalled or over)
        ended, passed = _choose(codes, g, at, playing, chance) if looks else (nobody, nobody)
        playing[ended] = False
        gone = nobody
        for _ in range(codes.draw):
            out = _draw(codes, g, at, playing, chance)
            gone = np.concatenate([gone, out]) if len(gone) else out
            if codes.draw > 1:
                playing &= g.size > 0
                playing[out] = False
        if len(gone):
            early[g.row[gone[~g.starteds[at[gone]]]]] += 1
            _leave(g, gone)
        if not every_started:
            g.starteds[at] = True
            every_started = bool(g.started.all())
        passing = ended[passed > 0]  # the next player takes the turns owed, and more
        g.owed -= 1
        g.owed[gone] = 0  # the player out, or one who passed turns on, moves on at once
        g.owed[passing] = 0
        moves = g.owed == 0  # (the others owe more turns)
        g.seat = np.where(moves, g.rings[g.turn_at + g.seat], g.seat)
        np.maximum(g.owed, 1, out=g.owed)  # those who move on: their next player owes one
        g.owed[passing] += passed[passed > 0]
        stalled = (g.size == 0).nonzero()[0]  # the draw pile ran out with several players left
        won = gone[g.left[gone] == 1] if len(gone) else nobody
        if len(stalled) and len(gone):  # not the player out with the last card: the next one finds none
            stalled = stalled[~_marked(len(g.row), gone)[stalled]]
        if len(stalled) or len(won):
            over = np.concatenate([stalled, won])
            done = g.row[over]
            turns[done] = turn
            winner[done] = np.concatenate([np.full(len(stalled), -1), g.seat[won]])
            ran_out[done] = had_saving[done] & (g.saving_left[over] == 0)
            g.size[over], g.left[over], going = OVER, 0, going - len(over)
            if going < len(g.row) * 3 // 4:  # the games over are left out of the arrays now and then
                g.keep(g.left.nonzero()[0])
    return Played(turns, winner, early, ran_out, *first, saving)


def _marked(games: int, rows: np.ndarray) -> np.ndarray:
    """A mask of the games, these rows set."""
    mask = np.zeros(games, dtype=bool)
    mask[rows] = True
    return mask


def _first_draw(g: _Games) -> tuple[np.ndarray, np.ndarray]:
    """Whether the first draw loses, and the cards above the first losing card, as dealt."""
    losing = g.pile == LOSE  # past `size`: -1
    any_losing = losing.any(axis=1)
    top_losing = losing.shape[1] - 1 - losing[:, ::-1].argmax(axis=1)
    safe = np.where(any_losing, g.size - 1 - top_losing, g.size)
    return any_losing & (safe == 0), safe


def _leave(g: _Games, rows: np.ndarray) -> None:
    """These games' players are out: the seats either side of theirs name each other."""
    ring = g.ring_at[rows]
    at = ring + g.seat[rows]
    after, before = g.rings[at], g.rings[at + g.players]
    g.rings[ring + g.players + after] = before
    g.rings[ring + before] = after
    g.left[rows] -= 1


def _choose(codes: Codes, g: _Games, at: np.ndarray, playing: np.ndarray,
            chance: Chance) -> tuple[np.ndarray, np.ndarray]:
    """The new player's plays before drawing, in each game `playing`, until they draw or a play
    ends their turn: a top card they do not know is looked at with a peek card; a top card they
    know to be losing is avoided with a card that ends the turn, else shuffled away (and the new
    top card looked at). The games whose turn a play ended, and the extra turns it gave the next
    player. The first time round every game's arrays are read whole (what is read of a game not
    playing is left out after)."""
    peekers, escapes = codes.peekers, codes.escapes
    ended, passed = [], []
    rows, top, seat, hand = None, g.pile_at + g.size - 1, g.seat, at * g.codes
    while True:
        knows = g.knows(top, seat)
        if peekers.stop > peekers.start:
            unknown = ((~knows & playing) if rows is None else ~knows).nonzero()[0]
            code = _first_held(g, hand[unknown], peekers)
            looks = unknown[code > 0]
            if len(looks):
                code = code[code > 0]
                g.held[hand[looks] + code] -= 1
                _peek(g, looks if rows is None else rows[looks], top[looks], seat[looks], codes.peeks[code])
                knows[looks] = True
        losing = knows & (g.piles[top] == LOSE)
        losing = (losing & playing if rows is None else losing).nonzero()[0]
        if not len(losing) or escapes.stop == escapes.start:
            break
        code = _first_held(g, hand[losing], escapes)
        holds = code > 0
        rows, hand, code = (losing if rows is None else rows[losing])[holds], hand[losing[holds]], code[holds]
        g.held[hand + code] -= 1
        shuffling = rows[codes.shuffles[code]]
        if len(shuffling):
            _shuffle(g, shuffling, chance)
        peeking = codes.peeks[code] > 0
        if peeking.any():
            seat = g.seat[rows[peeking]]
            _peek(g, rows[peeking], g.pile_at[rows[peeking]] + g.size[rows[peeking]] - 1, seat,
                  codes.peeks[code[peeking]])
        ending = codes.ends[code]
        ended.append(rows[ending])
        passed.append(codes.extra_turns[code[ending]])
        reversing = rows[ending & codes.reverses[code]]
        g.back[reversing] ^= g.players
        g.turn_at[reversing] = g.ring_at[reversing] + g.back[reversing]
        rows = rows[~ending]
        if not len(rows):
            break
        top, seat, hand = g.pile_at[rows] + g.size[rows] - 1, g.seat[rows], at[rows] * g.codes
    if not ended:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(ended), np.concatenate(passed)


def _first_held(g: _Games, hand: np.ndarray, group: slice) -> np.ndarray:
    """The first code of the group that each hand (its place in g.held) holds, 0 for none."""
    code = np.zeros(len(hand), dtype=np.int64)
    for each in reversed(range(group.start, group.stop)):
        code[g.held[hand + each] > 0] = each
    return code


def _shuffle(g: _Games, rows: np.ndarray, chance: Chance) -> None:
    """The draw piles of these games in a random order; what anyone knew of them is lost."""
    size = g.size[rows]
    width = int(size.max())
    keys = chance.bits(g.row[rows], size)  # sorted, random keys sort the codes in their low bits
    keys[np.arange(width) >= size[:, None]] = ~np.uint64(0)  # the unused places stay above
    low_bits(keys, np.int8)[...] = g.pile[rows, :width]
    keys.sort(axis=1)
    g.pile[rows, :width] = low_bits(keys, np.int8)
    g.known[rows] = 0


def _peek(g: _Games, rows: np.ndarray, top: np.ndarray, seat: np.ndarray, cards: np.ndarray) -> None:
    """These games' players look at the top cards of the draw pile (its top at `top`)."""
    looked = np.minimum(cards, g.size[rows])
    g.learn(_spans(top + 1 - looked, looked), np.repeat(seat, looked))


def _draw(codes: Codes, g: _Games, at: np.ndarray, playing: np.ndarray, chance: Chance) -> np.ndarray:
    """The players of the games `playing` draw a card: kept, or losing and saved, or out (the games
    returned). Every game's arrays are read whole: a game not playing reads its top card (or some
    place of no use) and adds nothing. A losing card is counted in the hand too: no one reads that
    count; what was known of the place is never read again (a card put back writes it anew)."""
    place, hand = g.pile_at + g.size - 1, at * g.codes
    g.size -= playing
    card = g.piles[place]
    g.held[hand + card] += playing
    losing: np.ndarray = (playing & (card == LOSE)).nonzero()[0]
    if not len(losing):
        return losing
    hand = hand[losing] + SAVE
    saved = g.held[hand] > 0
    g.held[hand[saved]] -= 1
    g.saving_left[losing[saved]] -= 1
    if codes.saved != "discard" and saved.any():
        _put_back(codes.saved, g, losing[saved], chance)
    out: np.ndarray = losing[~saved]
    return out


def _put_back(saved: str, g: _Games, rows: np.ndarray, chance: Chance) -> None:
    """The saved losing card goes back where the rules say, the cards above it one place up; its
    owner knows where."""
    size = g.size[rows]
    if saved == "top":
        place = size.copy()  # (moved on by the pile's place below: not the sizes)
    elif saved == "bottom":
        place = np.zeros(len(rows), dtype=np.int64)
    else:
        place = (chance.uniform(g.row[rows]) * (size + 1)).astype(np.int64)
    place += g.pile_at[rows]
    above = _spans(place, g.pile_at[rows] + size - place)
    g.piles[above + 1] = g.piles[above]
    g.piles[place] = LOSE
    if g.knowing:
        g.knowns[g.words_of(above + 1)] = g.knowns[g.words_of(above)]
        g.knowns[g.words_of(place)] = 0
        g.learn(place, g.seat[rows])
    g.size[rows] += 1


def _spans(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The places start, start + 1, ... of each span, one after the other."""
    ends = np.cumsum(lengths)
    places: np.ndarray = np.arange(ends[-1] if len(ends) else 0) + np.repeat(starts - ends + lengths, lengths)
    return places
