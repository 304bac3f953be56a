"""build/simulate: `cardgen simulate`. The setups and player counts asked for, simulated on the
build's worker processes: the player counts shared out so that each worker has about the same
work, each worker under the build's ceilings. Each player count has its own random generator,
seeded from the seed, the setup and the player count, so the figures do not depend on which
worker played them or in what order."""
from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from cardgen.build.cache import simulation_key
from cardgen.build.plan import chosen_setup
from cardgen.build.workers import LIMITS, Limits, bounded_all
from cardgen.check.results import GameReport, HowItPlays, PlayerCount, SetupReport
from cardgen.check.simulate import DEFAULT_POLICY, Simulation, nothing_to_simulate, simulate
from cardgen.errors import UsageError
from cardgen.model.game import Game
from cardgen.render.write import atomic_write

Task = tuple[SetupReport, PlayerCount]
DOCUMENT_GAMES = 2000  # per player count for the documents' lines: rates within about ±2 points
DOCUMENT_SEED = "documents"
CACHE_FILE = "cardgen-simulation.json"


def add_how_it_plays(game: Game, report: GameReport, out: Path, limits: Limits = LIMITS) -> None:
    """For a game whose turns: say documents: the simulated figures on each player count of the
    report, for the rulebook and the checklists: from CACHE_FILE in the output folder when the
    game's data is unchanged since it was written, else simulated again and written there."""
    if not game.turns.documents or nothing_to_simulate(game):
        return
    key = simulation_key(game, DOCUMENT_GAMES, DOCUMENT_SEED)
    figures = _cached(out / CACHE_FILE, key)
    if figures is None:
        simulations = simulate_game(game, report, games=DOCUMENT_GAMES, seed=DOCUMENT_SEED, limits=limits)
        figures = {f"{s.setup}/{s.players}": s.how_it_plays() for s in simulations}
        written = {name: plays.as_dict() for name, plays in figures.items()}
        atomic_write(out / CACHE_FILE, json.dumps({"key": key, "figures": written}, indent=1).encode("utf-8"))
    for setup in report.setups:
        for played in setup.players:
            played.plays = figures.get(f"{setup.setup.name}/{played.players}")


def _cached(path: Path, key: str) -> dict[str, HowItPlays] | None:
    """The figures CACHE_FILE holds for this key; None for another key or a file that does not read."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document["key"] != key:
            return None
        return {name: HowItPlays(**{**found, "seat_wins": tuple(found["seat_wins"])})
                for name, found in document["figures"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def simulate_game(game: Game, report: GameReport, *, setup: str | None = None, players: int | None = None,
                  games: int | None = None, seed: str = "0", policy: str = DEFAULT_POLICY,
                  limits: Limits = LIMITS) -> list[Simulation]:
    """Every setup (or the one named) at every player count (or the one given), in the game's
    order. The caller has made sure the game can be simulated (simulate.nothing_to_simulate)."""
    tasks = _tasks(game, report, setup, players)
    shares = [share for share in _shared_out(tasks, limits.workers) if share]
    work = [partial(_simulate_share, game, share, games, seed, policy) for share in shares]
    done = {(s.setup, s.players): s for part in bounded_all(work, f"simulating {game.title}", limits) for s in part}
    return [done[(s.setup.name, played.players)] for s, played in tasks]


def _tasks(game: Game, report: GameReport, setup: str | None, players: int | None) -> list[Task]:
    setups = [report.setup_by_id(chosen_setup(game, setup).id)] if setup else report.setups
    if setup and players is not None:
        setups[0].setup.require_players(players)
    tasks = [(s, played) for s in setups for played in s.players if players is None or played.players == players]
    if not tasks:
        raise UsageError(f"no setup of {game.title} is played by {players} players",
                         hint="choose --players within a setup's range (cardgen check lists them)")
    return tasks


def _shared_out(tasks: Sequence[Task], workers: int) -> list[list[Task]]:
    """The tasks in `workers` shares of about equal work, the largest first to the least loaded
    (a game lasts about as many turns as its draw pile has cards, and each turn is a player's)."""
    shares: list[list[Task]] = [[] for _ in range(max(1, workers))]
    loads = [0.0] * len(shares)
    for task in sorted(tasks, key=lambda t: -_work(t[1])):
        least = loads.index(min(loads))
        shares[least].append(task)
        loads[least] += _work(task[1])
    return shares


def _work(played: PlayerCount) -> float:
    return played.draw_pile + played.players * (played.hand or 0)


def _simulate_share(game: Game, share: list[Task], games: int | None, seed: str, policy: str) -> list[Simulation]:
    return [simulate(game, s.setup, played, seed=seed, policy=policy, games=games) for s, played in share]
