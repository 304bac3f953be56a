"""publish/simulate: `cardgen simulate`. The setups and player counts asked for, simulated on the
build's worker processes, each batch of games (simulation.simulate_all) a task under the build's
ceilings. Each player count's games are seeded from the seed, the setup, the player count and
their numbers, so the figures do not depend on which worker played them, in what order, nor
beside which others.

The documents' figures are kept in CACHE_FILE in the output folder. The output folder is not
trusted more than the game folder: the file is read as any input is (a regular file inside the
folder, of bounded size) and its figures used only when its digest, a SHA-256 over the game's
simulation key (the game's data and cardgen's source, the simulator's included) and the
figures, matches them; `--clean` never reads it."""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cardgen.check.results import GameReport, HowItPlays, PlayerCount, SetupReport
from cardgen.errors import UsageError
from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.model.game import Game
from cardgen.publish.cache import simulation_key
from cardgen.publish.limits import Limits
from cardgen.publish.plan import chosen_setup
from cardgen.publish.workers import bounded_all
from cardgen.render.write import atomic_write
from cardgen.simulate.simulation import DEFAULT_POLICY, Batch, Simulation, nothing_to_simulate, simulate_all

Task = tuple[SetupReport, PlayerCount]
DOCUMENT_GAMES = 2000  # per player count for the documents' lines: rates within about ±2 points
DOCUMENT_SEED = "documents"
CACHE_FILE = "cardgen-simulation.json"
MAX_CACHE_BYTES = 8 * 1024 * 1024  # far above the figures of any game's setups and player counts


def add_how_it_plays(game: Game, report: GameReport, out: Path, limits: Limits | None = None,
                     clean: bool = False) -> GameReport:
    """For a game whose turns: say documents: the report with the simulated figures on each of its
    player counts, for the rulebook and the checklists (a new report: the one given is never
    changed): from CACHE_FILE in the output folder when it was written for the game's data as it
    is (never with `clean`), else simulated again and written there."""
    if not game.turns.documents or nothing_to_simulate(game):
        return report
    key = simulation_key(game, DOCUMENT_GAMES, DOCUMENT_SEED)
    wanted = {f"{setup.setup.name}/{played.players}": played for setup in report.setups for played in setup.players}
    figures = None if clean else _cached(out, key, wanted)
    if figures is None:
        simulations = simulate_game(game, report, games=DOCUMENT_GAMES, seed=DOCUMENT_SEED, limits=limits)
        figures = {f"{s.setup}/{s.players}": s.how_it_plays() for s in simulations}
        _keep(out, key, figures)
    return replace(report, setups=tuple(
        replace(setup, players=[replace(played, plays=figures.get(f"{setup.setup.name}/{played.players}"))
                                for played in setup.players])
        for setup in report.setups))


def _keep(out: Path, key: str, figures: dict[str, HowItPlays]) -> None:
    """Write the figures into CACHE_FILE with the digest that vouches for them. Only a cache: a
    folder or anything else in its place that cannot be replaced just keeps it from being written."""
    written = {name: plays.as_dict() for name, plays in figures.items()}
    document = {"digest": _digest(key, written), "figures": written}
    try:
        atomic_write(out / CACHE_FILE, json.dumps(document, indent=1, sort_keys=True).encode("utf-8"))
    except OSError:
        pass


def _digest(key: str, figures: object) -> str:
    """The figures' digest for the key: figures edited by hand, or kept for other data, differ."""
    return hashlib.sha256(f"{key}\0{json.dumps(figures, sort_keys=True)}".encode()).hexdigest()


def _cached(out: Path, key: str, wanted: dict[str, PlayerCount]) -> dict[str, HowItPlays] | None:
    """The figures CACHE_FILE holds for this key, one for each player count wanted; None for a
    file written for other data, edited since, or that does not read as CACHE_FILE."""
    try:
        document = json.loads(read_input(out / CACHE_FILE, MAX_CACHE_BYTES, [out]))
        found = document["figures"]
        if document["digest"] != _digest(key, found):
            return None
        return {name: _how_it_plays(found[name], played.players) for name, played in wanted.items()}
    except (UnreadableInput, ValueError, KeyError, TypeError, RecursionError):  # RecursionError: nested too deep
        return None


def _how_it_plays(found: Any, players: int) -> HowItPlays:
    """One player count's figures as CACHE_FILE holds them, every one checked (ValueError)."""
    if not isinstance(found, dict) or set(found) != {"games", "turns_median", "turns_p90", "seat_wins", "early"}:
        raise ValueError("not a player count's figures")
    seat_wins = found["seat_wins"]
    if not isinstance(found["games"], int) or not isinstance(seat_wins, list) or len(seat_wins) != players:
        raise ValueError("not a player count's figures")
    return HowItPlays(found["games"], _figure(found["turns_median"]), _figure(found["turns_p90"]),
                      tuple(_figure(w, 1) for w in seat_wins), _figure(found["early"], 1))


def _figure(value: Any, most: float = math.inf) -> float:
    """A finite figure from 0 to `most`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= most \
            or not math.isfinite(value):
        raise ValueError(f"not a figure: {value!r}")
    return float(value)


def simulate_game(game: Game, report: GameReport, *, setup: str | None = None, players: int | None = None,
                  games: int | None = None, seed: str = "0", policy: str = DEFAULT_POLICY,
                  limits: Limits | None = None, done: Callable[[int, int], None] = lambda done, total: None) -> list[Simulation]:
    """Every setup (or the one named) at every player count (or the one given), in the game's
    order; `done` hears how many games of how many planned so far are played, as they are. The
    caller has made sure the game can be simulated (simulate.nothing_to_simulate)."""

    def on_workers(work: Sequence[Batch], finished: Callable[[int, int], None]) -> list[Any]:
        return bounded_all(work, f"simulating {game.title}", limits, finished)

    return simulate_all(game, [(s.setup, played) for s, played in _tasks(game, report, setup, players)], seed=seed,
                        policy=policy, games=games, run=on_workers, done=done)


def _tasks(game: Game, report: GameReport, setup: str | None, players: int | None) -> list[Task]:
    setups = [report.setup_by_id(chosen_setup(game, setup).id)] if setup else report.setups
    if setup and players is not None:
        setups[0].setup.require_players(players)
    tasks = [(s, played) for s in setups for played in s.players if players is None or played.players == players]
    if not tasks:
        raise UsageError(f"no setup of {game.title} is played by {players} players",
                         hint="choose --players within a setup's range (cardgen check lists them)")
    return tasks
