"""Times `cardgen simulate exploding_puppy` (every setup and player count, the default number of
games: every rate within ±1 percentage point at 95 %) next to a raw baseline run in the same
process run: the same number of games reduced to the standard library's work on the same decks,
`random.shuffle` of each player count's starting deck once a game and a draw of its cards one by
one until the players-1'th losing card, with nothing dealt, known or decided.

Prints, each the median of the runs: the CPU seconds of the baseline; of the simulation itself
(simulate_game, its worker processes included); and of the whole command as a designer runs it,
a process of its own with its workers (the issue's figure: under 5 s), with its wall-clock time;
the simulation's and the whole command's ratio to the baseline. Run by hand:

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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from timing import cpu_seconds  # noqa: E402

from cardgen.check.balance import LOSING, role_kinds  # noqa: E402
from cardgen.publish.check import load_checked  # noqa: E402
from cardgen.publish.simulate import simulate_game  # noqa: E402


def command_seconds(game: str, repeat: int) -> tuple[list[float], list[float]]:
    """CPU seconds (the process and its workers) and wall-clock seconds of each run of the command
    as a designer runs it."""
    cpu, wall = [], []
    for _ in range(repeat):
        before, start = _children_cpu(), time.perf_counter()
        subprocess.run([sys.executable, "-m", "cardgen", "simulate", game], check=True, capture_output=True,
                       cwd=ROOT)
        wall.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - before)
    return cpu, wall


def runs(function: Callable[[], object], repeat: int) -> list[float]:
    """The CPU seconds of each of `repeat` runs, this process's and its finished workers'."""
    seconds = []
    for _ in range(repeat):
        start = cpu_seconds()
        function()
        seconds.append(cpu_seconds() - start)
    return seconds


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
    print(f"{args.game}: {len(simulations)} player counts, {sum(games.values())} games; CPU seconds, median of "
          f"{args.repeat} runs")
    base = statistics.median(runs(lambda: baseline(game, report, games), args.repeat))
    print(f"  raw shuffle-and-draw baseline: {base:.2f}")
    took = statistics.median(runs(lambda: simulate_game(game, report), args.repeat))
    print(f"  simulation (simulate_game, its workers included): {took:.2f}, {took / base:.2f}x the baseline")
    cpu, wall = command_seconds(args.game, args.repeat)
    whole = statistics.median(cpu)
    print(f"  `cardgen simulate {args.game}`, the whole process with its workers: {whole:.2f} "
          f"({statistics.median(wall):.2f} s wall clock), {whole / base:.2f}x the baseline (the issue's goal: "
          f"under 5 s)")


if __name__ == "__main__":
    main()
