"""check/simulate: setups played out, many times, by players following a simple policy.

A game is dealt as its setup says (check/deal.py), then played by game.yaml's `turns:` rules: on
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
out) is known within ±1 percentage point at 95 %, or from the number of games asked for.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardgen.check.balance import LOSING, SAVING, role_kinds
from cardgen.check.deal import Dealer, dealer, shuffle
from cardgen.check.estimates import Z95, Estimate, mean, proportion, quantile
from cardgen.check.results import HowItPlays, PlayerCount
from cardgen.model.game import DRAW, Card, Game, Setup
from cardgen.model.turns import Play

POLICIES = {"new-player": "peeks when it can, and ends or shuffles away a turn whose draw it knows to be losing",
            "draw-only": "never plays a card; spends a saving card when needed"}
DEFAULT_POLICY = "new-player"
TARGET_HALF_WIDTH = 0.01  # ±1 percentage point
BATCH = 1000
MAX_GAMES = 50_000

# card codes in a hand or the draw pile: playable cards are PLAYS and up
INERT, LOSE, SAVE, PLAYS = 0, 1, 2, 3


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
    avoid: tuple[int, ...]  # codes that get a player out of a known losing draw: attacks, skips
    shufflers: tuple[int, ...]
    peekers: slice  # the codes of cards that only look: together, so that a hand's are one slice

    @property
    def size(self) -> int:
        return PLAYS + len(self.plays)


def compile_rules(game: Game) -> Rules:
    losing, saving = role_kinds(game, LOSING), role_kinds(game, SAVING)
    # attacks, then skips, then shuffles, then the cards that look: each group's codes together
    plays = sorted({card.play for card in game.cards if card.play and not (losing | saving) & set(card.kinds)},
                   key=lambda p: (not p.ends_turn, -p.extra_turns, not p.shuffle, not p.peek, p.words()))
    code_of = {play: PLAYS + i for i, play in enumerate(plays)}
    peekers = [code_of[p] for p in plays if p.peek and not p.ends_turn and not p.shuffle]

    def code(card: Card) -> int:
        if losing & set(card.kinds):
            return LOSE
        if saving & set(card.kinds):
            return SAVE
        return code_of[card.play] if card.play else INERT

    codes = tuple(code(card) for card in game.cards)
    return Rules(game.turns.draw, game.turns.saved, codes, tuple(plays),
                 avoid=tuple(code_of[p] for p in plays if p.ends_turn),
                 shufflers=tuple(code_of[p] for p in plays if p.shuffle and not p.ends_turn),
                 peekers=slice(peekers[0], peekers[-1] + 1) if peekers else slice(0, 0))


def simulate(game: Game, setup: Setup, played: PlayerCount, *, seed: str,
             policy: str = DEFAULT_POLICY, games: int | None = None) -> Simulation:
    """Play the setup at this player count: `games` games, or until the headline figures are
    known to ±1 percentage point (see the module's docstring)."""
    table = _Table(compile_rules(game), dealer(game, played, game.shared_draw_piles[0].id),
                   random.Random(f"{seed}/{setup.id}/{played.players}/{policy}"), policy == DEFAULT_POLICY)
    tally = Tally(played.players)
    target = games or BATCH
    while tally.games < target:
        for _ in range(target - tally.games):
            table.play(tally)
        if games is None and max(e.half_width for e in tally.headline()) > TARGET_HALF_WIDTH:
            target = min(MAX_GAMES, max(tally.games + BATCH // 10, tally.games_needed(TARGET_HALF_WIDTH)))
    rules = table.rules
    used = {line.card for line in setup.lines} | set(played.extras)
    unplayed = sum(1 for i, card in enumerate(game.cards) if card.id in used and rules.codes[i] == INERT)
    return Simulation(setup.name, played.players, policy, seed, tally, unplayed)


class _Table:
    """Plays games one after the other with one random generator."""

    def __init__(self, rules: Rules, dealer: Dealer, rng: random.Random, looks: bool):
        self.rules, self.dealer, self.rng, self.looks = rules, dealer, rng, looks

    def play(self, tally: Tally) -> None:
        rules, rng, looks, peekers = self.rules, self.rng, self.looks, self.rules.peekers
        cards, dealt = self.dealer.deal(rng)
        codes = rules.codes
        pile = [codes[c] for c in cards]
        players = len(dealt)
        hands = [[0] * rules.size for _ in range(players)]
        for hand, held in zip(hands, dealt):
            for c in held:
                hand[codes[c]] += 1
        saving_left = self._count_the_deal(tally, pile, hands) + pile.count(SAVE)
        had_saving = saving_left > 0
        # what the players know of the draw pile: place (from the bottom) -> a bit for each player who knows it
        known: dict[int, int] = {}
        alive = list(range(players))
        taken = [0] * players
        seat, step, owed, turns = 0, 1, 1, 0
        while len(alive) > 1:
            player = alive[seat]
            hand = hands[player]
            turns += 1
            taken[player] += 1
            passed_on, ended = 0, False
            if looks and pile and (known and known.get(len(pile) - 1, 0) >> player & 1 and pile[-1] == LOSE
                                   or any(hand[peekers])):
                play = self._choose(hand, pile, known, player)
                if play is not None:
                    ended, passed_on = play.ends_turn, play.extra_turns
                    if play.reverse:
                        step = -step
            out = False
            if not ended:
                draws = rules.draw
                while draws and pile:
                    draws -= 1
                    card = pile.pop()
                    if known:
                        known.pop(len(pile), None)
                    if card != LOSE:
                        hand[card] += 1
                    elif hand[SAVE]:
                        hand[SAVE] -= 1
                        saving_left -= 1
                        self._put_back(pile, known, player)
                    else:
                        out = True
                        tally.early += taken[player] <= 1
                        break
                if not pile and not out:
                    tally.no_winner += 1
                    break
            if out:
                del alive[seat]
                seat = (seat if step == 1 else seat - 1) % len(alive)
                owed = 1
            elif passed_on:
                seat, owed = (seat + step) % len(alive), 1 + passed_on
            else:
                owed -= 1
                if owed <= 0:
                    seat, owed = (seat + step) % len(alive), 1
        else:
            tally.wins[alive[0]] += 1
        tally.lengths.append(turns)
        tally.ran_out += had_saving and saving_left == 0

    @staticmethod
    def _count_the_deal(tally: Tally, pile: list[int], hands: list[list[int]]) -> int:
        """The dealt game's first-draw figures, which the engine works out exactly; the saving
        cards dealt."""
        tally.games += 1
        tally.first_loses += bool(pile) and pile[-1] == LOSE
        safe = pile[::-1].index(LOSE) if LOSE in pile else len(pile)
        tally.safe_draws += safe
        tally.safe_squares += safe * safe
        saving = [hand[SAVE] for hand in hands]
        dealt = sum(saving)
        tally.saving_dealt += dealt
        tally.saving_squares += sum(n * n for n in saving)
        return dealt

    def _choose(self, hand: list[int], pile: list[int], known: dict[int, int], player: int) -> Play | None:
        """The new player's plays before drawing; the one that ended the turn, if any."""
        rules = self.rules
        while pile:
            code = 0
            if known.get(len(pile) - 1, 0) >> player & 1:
                if pile[-1] != LOSE:
                    return None
                for code in rules.avoid:
                    if hand[code]:
                        return self._play(code, hand, pile, known, player)
                code = _first_held(rules.shufflers, hand)
            else:
                code = _first_held(range(rules.peekers.start, rules.peekers.stop), hand)
            if not code:
                return None
            self._play(code, hand, pile, known, player)
        return None

    def _play(self, code: int, hand: list[int], pile: list[int], known: dict[int, int], player: int) -> Play:
        """Play a card from the hand: its shuffle and peek here, the rest by the caller."""
        hand[code] -= 1
        play = self.rules.plays[code - PLAYS]
        if play.shuffle:
            shuffle(pile, self.rng.random)
            known.clear()
        bit = 1 << player
        for place in range(max(0, len(pile) - play.peek), len(pile)):
            known[place] = known.get(place, 0) | bit
        return play

    def _put_back(self, pile: list[int], known: dict[int, int], player: int) -> None:
        """The saved losing card goes where the rules say; its owner knows where."""
        saved = self.rules.saved
        if saved == "discard":
            return
        place = len(pile) if saved == "top" else 0 if saved == "bottom" else int(self.rng.random() * (len(pile) + 1))
        pile.insert(place, LOSE)
        if self.looks:
            if known and max(known) >= place:
                shifted = {p + 1 if p >= place else p: bits for p, bits in known.items()}
                known.clear()
                known.update(shifted)
            known[place] = 1 << player


def _first_held(codes: Sequence[int], hand: list[int]) -> int:
    for code in codes:
        if hand[code]:
            return code
    return 0
