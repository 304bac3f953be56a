"""Times `cardgen simulate exploding_puppy` (every setup and player count, the default number of
games: every rate within ±1 percentage point at 95 %) next to a raw baseline: the same number of
games reduced to the standard library's work on the same decks, `random.shuffle` of each player
count's starting deck once a game and a draw of its cards one by one until the players-1'th
losing card, with nothing dealt, known or decided.

Prints the CPU seconds of the whole command, its workers included (the issue's figure: under
5 s), and its wall-clock time, each the median of the runs; the CPU seconds of the simulation and
of the baseline, and their ratio. Run by hand:

    python3 bench/bench_simulate.py [--repeat N] [--game exploding_puppy]
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from timing import timed  # noqa: E402

from cardgen.check.balance import LOSING, role_kinds  # noqa: E402
from cardgen.publish.check import load_checked  # noqa: E402
from cardgen.publish.simulate import simulate_game  # noqa: E402


def command_seconds(game: str, repeat: int) -> tuple[float, float]:
    """Median CPU seconds (the process and its workers) and wall-clock seconds of the command as a
    designer runs it."""
    cpu, wall = [], []
    for _ in range(repeat):
        before, start = _children_cpu(), time.perf_counter()
        subprocess.run([sys.executable, "-m", "cardgen", "simulate", game], check=True, capture_output=True,
                       cwd=ROOT)
        wall.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - before)
    return statistics.median(cpu), statistics.median(wall)


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def baseline(game, report, games: dict[tuple[str, int], int]) -> int:
    """Shuffle each starting deck and draw until players - 1 losing cards are out, as many times."""
    losing = role_kinds(game, LOSING)
    rng, drawn = random.Random(0), 0
    for setup in report.setups:
        for played in setup.players:
            deck = [bool(losing & set(game.card(card_id).kinds)) for card_id, n in played.starting_deck.items()
                    for _ in range(n)]
            for _ in range(games[(setup.setup.name, played.players)]):
                rng.shuffle(deck)
                out = 0
                for card in deck:
                    drawn += 1
                    out += card
                    if out >= played.players - 1:
                        break
    return drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", default="exploding_puppy")
    args = parser.parse_args()
    game, report = load_checked(args.game)
    simulations = simulate_game(game, report)
    games = {(s.setup, s.players): s.tally.games for s in simulations}
    took = timed(lambda: simulate_game(game, report), args.repeat)
    base = timed(lambda: baseline(game, report, games), args.repeat)
    print(f"{args.game}: {len(simulations)} player counts, {sum(games.values())} games")
    cpu, wall = command_seconds(args.game, args.repeat)
    print(f"  `cardgen simulate {args.game}`: {cpu:.2f} CPU s, {wall:.2f} s wall clock, median of {args.repeat}")
    print(f"  simulation {took:.2f} CPU s, raw shuffle-and-draw baseline {base:.2f} CPU s: {took / base:.1f}x")


if __name__ == "__main__":
    main()
