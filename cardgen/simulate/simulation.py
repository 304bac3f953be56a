"""simulate/simulation: setups played out, many times, by players following a simple policy.

A game is dealt as its setup says (simulate/deal.py), then played by game.yaml's `turns:` rules: on
their turn a player plays cards, then draws. Drawing a card of a losing kind eliminates them unless
they spend a card of a saving kind (the losing card then goes where `saved:` says); the last player
left wins. Cards act through their `play:` primitives only; a card without one is never played.

Policies (named in every report):
- new-player: with the top card of the draw pile unknown, look at it with a peek card if they hold
  one; known to be losing, end the turn with an attack (extra_turns) or a skip, else shuffle it
  away; otherwise draw. A saving card is spent when needed.
- draw-only: never play a card; spend a saving card when needed.

The figures for one setup and player count come from games played until every headline
proportion (the win rate of each seat, elimination before one's second turn, saving cards running
out) is known within ±1 percentage point at 95 %, or from the number of games asked for. The
setups and player counts asked for are played together, in rounds (simulate_all); what one comes
to depends only on its own games, each dealt and played from random numbers of its own.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from cardgen.check.balance import LOSING, SAVING, role_kinds
from cardgen.check.results import HowItPlays, PlayerCount
from cardgen.model.game import DRAW, Card, Game, Setup
from cardgen.model.turns import Play
from cardgen.simulate.deal import Dealer, dealer, stacked
from cardgen.simulate.estimates import Z95, Estimate, mean, proportion, quantile
from cardgen.simulate.games import INERT, LOSE, PLAYS, SAVE, Chance, Codes, Played, play

POLICIES = {"new-player": "peeks when it can, and ends or shuffles away a turn whose draw it knows to be losing",
            "draw-only": "never plays a card; spends a saving card when needed"}
DEFAULT_POLICY = "new-player"
TARGET_HALF_WIDTH = 0.01  # ±1 percentage point
BATCH = 1000
MAX_GAMES = 50_000
MARGIN = 1.04  # the games a rate seen so far needs, and a few more, so that they are seldom too few
MOST_AT_ONCE = 20_000  # games played together
BLOCK = 5000  # games dealt together
ARRAYS_BYTES = 64 << 20  # about as much as the arrays of the games played together may take


def nothing_to_simulate(game: Game) -> str:
    """Why the game cannot be simulated, or '' when it can."""
    if not role_kinds(game, LOSING):
        return "no losing or winning condition is described (no kind has role: losing in game.yaml)"
    if len(game.shared_draw_piles) != 1 or any(p.role == DRAW and p.each_player for p in game.piles):
        return "the simulator plays games with one draw pile that all players share"
    return ""


@dataclass
class Tally:
    """What the games of one setup at one player count came to."""

    players: int
    games: int = 0
    lengths: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)  # by seat
    no_winner: int = 0  # the draw pile ran out with several players left
    early: int = 0  # players eliminated before their second turn
    ran_out: int = 0  # games in which every saving card in play was spent
    first_loses: int = 0  # games whose first draw is a losing card
    safe_draws: int = 0  # cards above the first losing card of the draw pile as dealt, summed
    safe_squares: int = 0
    saving_dealt: int = 0  # saving cards in the players' hands as dealt, summed over players
    saving_squares: int = 0

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players

    def add(self, played: Played) -> None:
        self.games += len(played.turns)
        self.lengths += played.turns.tolist()
        self.wins = [w + int(n) for w, n in zip(self.wins, np.bincount(played.winner + 1,
                                                                         minlength=self.players + 1)[1:])]
        self.no_winner += int((played.winner < 0).sum())
        self.early += int(played.early.sum())
        self.ran_out += int(played.ran_out.sum())
        self.first_loses += int(played.first_loses.sum())
        self.safe_draws += int(played.safe.sum())
        self.safe_squares += int((played.safe * played.safe).sum())
        self.saving_dealt += int(played.saving.sum())
        self.saving_squares += int((played.saving.astype(np.int64) ** 2).sum())

    def games_needed(self, half_width: float) -> int:
        """Games for every headline proportion's interval to be that narrow, at the rates seen."""
        rates = [e.value for e in self.headline()]
        trials = [self.games] * self.players + [self.games * self.players, self.games]
        return max(math.ceil(Z95 * Z95 * p * (1 - p) / half_width ** 2 * self.games / n) for p, n in zip(rates, trials))

    def headline(self) -> list[Estimate]:
        return [*self.seat_wins(), self.early_elimination(), self.saving_ran_out()]

    def seat_wins(self) -> list[Estimate]:
        return [proportion(w, self.games) for w in self.wins]

    def early_elimination(self) -> Estimate:
        return proportion(self.early, self.games * self.players)

    def saving_ran_out(self) -> Estimate:
        return proportion(self.ran_out, self.games)


@dataclass(frozen=True)
class Simulation:
    """One setup at one player count, simulated."""

    setup: str
    players: int
    policy: str
    seed: str
    tally: Tally
    unplayed: int  # card types of the setup that no primitive plays (losing and saving cards aside)

    def how_it_plays(self) -> HowItPlays:
        f = self.figures()
        return HowItPlays(self.tally.games, f["turns_median"].value, f["turns_p90"].value,
                          tuple(round(e.value, 4) for e in f["seat_wins"]), round(f["early_elimination"].value, 4))

    def figures(self) -> dict[str, Any]:
        t = self.tally
        lengths = sorted(t.lengths)
        return {
            "games": t.games,
            "turns_median": quantile(lengths, 0.5),
            "turns_p90": quantile(lengths, 0.9),
            "seat_wins": t.seat_wins(),
            "no_winner": proportion(t.no_winner, t.games),
            "early_elimination": t.early_elimination(),
            "saving_ran_out": t.saving_ran_out(),
            "first_draw_loses": proportion(t.first_loses, t.games),
            "draws_before_losing": mean(t.safe_draws, t.safe_squares, t.games),
            "saving_each": mean(t.saving_dealt, t.saving_squares, t.games * t.players),
        }


@dataclass(frozen=True)
class Rules:
    """A game's turn rules and card codes, compiled for the game loop."""

    draw: int
    saved: str
    codes: tuple[int, ...]  # per card number
    plays: tuple[Play, ...]  # the play of code PLAYS + i
    # each group's codes together, in the order a player plays them, so that a hand's are one slice:
    avoid: slice  # the codes that get a player out of a known losing draw: attacks, skips
    shufflers: slice
    peekers: slice  # the cards that only look

    @property
    def size(self) -> int:
        return PLAYS + len(self.plays)


def compile_rules(game: Game) -> Rules:
    losing, saving = role_kinds(game, LOSING), role_kinds(game, SAVING)
    # attacks, then skips, then shuffles, then the cards that look: each group's codes together
    plays = sorted({card.play for card in game.cards if card.play and not (losing | saving) & set(card.kinds)},
                   key=lambda p: (not p.ends_turn, -p.extra_turns, not p.shuffle, not p.peek, p.words()))
    code_of = {play: PLAYS + i for i, play in enumerate(plays)}

    def code(card: Card) -> int:
        if losing & set(card.kinds):
            return LOSE
        if saving & set(card.kinds):
            return SAVE
        return code_of[card.play] if card.play else INERT

    codes = tuple(code(card) for card in game.cards)
    return Rules(game.turns.draw, game.turns.saved, codes, tuple(plays),
                 avoid=_group(code_of, lambda p: p.ends_turn),
                 shufflers=_group(code_of, lambda p: p.shuffle and not p.ends_turn),
                 peekers=_group(code_of, lambda p: p.peek > 0 and not p.ends_turn and not p.shuffle))


def _group(code_of: dict[Play, int], belongs: Callable[[Play], bool]) -> slice:
    codes = [code for play, code in code_of.items() if belongs(play)]
    return slice(codes[0], codes[-1] + 1) if codes else slice(PLAYS, PLAYS)


Batch = Callable[[], list[Played]]
Runner = Callable[[Sequence[Batch], Callable[[int, int], None]], Sequence[list[Played]]]


def here(tasks: Sequence[Batch], done: Callable[[int, int], None]) -> list[list[Played]]:
    """Run the tasks in this process, one after the other (publish/simulate runs them on workers)."""
    results = []
    for task in tasks:
        results.append(task())
        done(len(results), len(tasks))
    return results


def simulate(game: Game, setup: Setup, played: PlayerCount, *, seed: str,
             policy: str = DEFAULT_POLICY, games: int | None = None) -> Simulation:
    """Play the setup at this player count: `games` games, or until the headline figures are
    known to ±1 percentage point (see the module's docstring)."""
    return simulate_all(game, [(setup, played)], seed=seed, policy=policy, games=games)[0]


@dataclass(frozen=True)
class _Block:
    """Games of one setup at one player count dealt together: those numbered from `first`, dealt
    with a random generator seeded from the seed, the setup, the player count, the policy and
    `first`, which also gives each game the key of its own stream for the play (games.Chance)."""

    of: int  # its place among the setups and player counts simulated
    first: int
    games: int
    seed: np.random.SeedSequence  # made before the batches go to the workers (numpy.random imported once)


def simulate_all(game: Game, plays: Sequence[tuple[Setup, PlayerCount]], *, seed: str, policy: str = DEFAULT_POLICY,
                 games: int | None = None, run: Runner = here,
                 done: Callable[[int, int], None] = lambda done, total: None) -> list[Simulation]:
    """simulate() for each setup and player count, their games played together in batches
    (`run` plays a list of batches: here, or on worker processes), in rounds: BATCH games of
    each, then as many more as each one's figures need (the games asked for, without a second
    round). What a setup and player count comes to depends only on its own games, numbered and
    seeded as _Block says: not on the others played beside them, nor on which process played
    them. `done` hears how many games of how many planned so far are played."""
    rules = compile_rules(game)
    codes, draw_pile = _codes(rules), game.shared_draw_piles[0].id
    picked: dict[int, frozenset[int]] = {}  # alive while the steps are: their selectors' ids stay theirs
    dealers = [dealer(game, played, draw_pile, picked) for _, played in plays]
    tallies = [Tally(played.players) for _, played in plays]
    targets = [games or BATCH for _ in plays]
    at_once = _at_once(max(d.cards for d in dealers), max(d.players for d in dealers), codes.size)
    while True:
        blocks = [_Block(i, first, min(BLOCK, at_once, target - first),
                         _seed(f"{seed}/{setup.id}/{played.players}/{policy}/{first}"))
                  for i, ((setup, played), tally, target) in enumerate(zip(plays, tallies, targets))
                  for first in range(tally.games, target, min(BLOCK, at_once))]
        if not blocks:
            break
        batches, before, planned = _batches(blocks, at_once), sum(t.games for t in tallies), sum(targets)
        stage = sum(block.games for block in blocks)
        work = [partial(_play, codes, dealers, batch, policy == DEFAULT_POLICY) for batch in batches]
        for batch, results in zip(batches, run(work, lambda n, total: done(before + stage * n // total, planned))):
            for block, played in zip(batch, results):
                tallies[block.of].add(played)
        if games is None:
            targets = [min(MAX_GAMES, max(t.games + BATCH // 10, round(t.games_needed(TARGET_HALF_WIDTH) * MARGIN)))
                       if max(e.half_width for e in t.headline()) > TARGET_HALF_WIDTH else t.games for t in tallies]
    simulations = []
    for (setup, count), tally in zip(plays, tallies):
        used = {line.card for line in setup.lines} | set(count.extras)
        unplayed = sum(1 for i, card in enumerate(game.cards) if card.id in used and rules.codes[i] == INERT)
        simulations.append(Simulation(setup.name, count.players, policy, seed, tally, unplayed))
    return simulations


def _seed(named: str) -> np.random.SeedSequence:
    return np.random.SeedSequence(int.from_bytes(hashlib.sha256(named.encode()).digest(), "big"))


def _batches(blocks: Sequence[_Block], at_once: int) -> list[list[_Block]]:
    """The blocks in batches of at most `at_once` games, in order."""
    batches: list[list[_Block]] = [[]]
    for block in blocks:
        if sum(b.games for b in batches[-1]) + block.games > at_once:
            batches.append([])
        batches[-1].append(block)
    return [batch for batch in batches if batch]


def _play(codes: Codes, dealers: Sequence[Dealer], blocks: Sequence[_Block], looks: bool) -> list[Played]:
    """Deal each block's games and play them all together; what each block's games came to."""
    deals, keys = [], []
    for block in blocks:
        rng = np.random.default_rng(block.seed)
        deals.append(dealers[block.of].deal_many(rng, block.games))
        keys.append(rng.bit_generator.random_raw(block.games))
    played = play(codes, stacked(deals), Chance(np.concatenate(keys)), looks)
    parts, first = [], 0
    for block in blocks:
        parts.append(played.part(first, first + block.games, dealers[block.of].players))
        first += block.games
    return parts


def _at_once(cards: int, players: int, codes: int) -> int:
    """How many games to play together: a game's arrays take a few bytes a card, a few a player and code."""
    return max(1, min(MOST_AT_ONCE, ARRAYS_BYTES // (cards * (6 + players // 8) + players * (codes + 8) * 2)))


def _codes(rules: Rules) -> Codes:
    plays = [Play()] * PLAYS + list(rules.plays)

    def each(value: Callable[[Play], object], kind: type) -> np.ndarray:
        return np.array([value(play) for play in plays], dtype=kind)

    return Codes(np.array([*rules.codes, rules.size], dtype=np.int64), rules.size, rules.draw, rules.saved,
                 ends=each(lambda p: p.ends_turn, bool), extra_turns=each(lambda p: p.extra_turns, np.int64),
                 shuffles=each(lambda p: p.shuffle, bool), peeks=each(lambda p: p.peek, np.int64),
                 reverses=each(lambda p: p.reverse, bool), avoid=rules.avoid, shufflers=rules.shufflers,
                 peekers=rules.peekers)
