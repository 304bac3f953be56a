"""report/simulation: `cardgen simulate`'s report, as text and as JSON. Beside the
simulated first-draw figures stand the engine's exact ones: the simulation checks itself."""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cardgen.check.results import GameReport, PlayerCount
from cardgen.errors import printable
from cardgen.model.game import Game
from cardgen.model.texts import counted
from cardgen.simulate.estimates import Estimate
from cardgen.simulate.simulation import POLICIES, TARGET_HALF_WIDTH, Simulation

HEAD = ("players", "games", "turns: median", "90 %", "wins by seat, %", "out before 2nd turn",
        "saving cards ran out", "1st draw loses (engine)")
SEATS_COLUMN = HEAD.index("wins by seat, %")  # a list of figures: left-aligned


def nothing_as_text(game: Game, reason: str) -> str:
    return f"{printable(game.title)}: nothing to simulate: {reason}"


def nothing_as_json(game: Game, reason: str) -> str:
    return json.dumps({"game": game.id, "title": game.title, "nothing_to_simulate": reason}, indent=2,
                      ensure_ascii=False)


def simulation_as_text(game: Game, report: GameReport, simulations: Sequence[Simulation], fixed_games: bool) -> str:
    first = simulations[0]
    lines = [f"{printable(game.title)} {printable(game.version)}".rstrip() + f": simulated, seed {first.seed}",
             f"policy {first.policy}: {POLICIES[first.policy]}",
             "every rate within ±1 percentage point at 95 % (the intervals: --json)" if not fixed_games
             else "games as asked for: the intervals are in --json"]
    for setup in dict.fromkeys(s.setup for s in simulations):
        mine = [s for s in simulations if s.setup == setup]
        lines += ["", f"{printable(setup)}: " + _unplayed(mine[0].unplayed)]
        rows = [list(HEAD)] + [_row(s, _played(report, s)) for s in mine]
        widths = [max(len(row[i]) for row in rows) for i in range(len(HEAD))]
        lines += ["  " + "  ".join(cell.ljust(w) if i == SEATS_COLUMN else cell.rjust(w)
                                   for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]
        stalled = [s for s in mine if s.tally.no_winner]
        lines += [f"  {s.players} players: the draw pile ran out with several players left in "
                  f"{_percent(s.figures()['no_winner'])} of games" for s in stalled]
    return "\n".join(lines)


def _unplayed(count: int) -> str:
    if not count:
        return "every card type of the setup is played"
    return (f"{counted(count, 'card type')} of the setup {'is' if count == 1 else 'are'} never played "
            "(no play: in cards.yaml says what it does)")


def _played(report: GameReport, simulation: Simulation) -> PlayerCount:
    return next(p for p in report.setup(simulation.setup).players if p.players == simulation.players)


def _row(simulation: Simulation, played: PlayerCount) -> list[str]:
    f = simulation.figures()
    engine = played.balance.first_draw_loses if played.balance else 0.0
    return [str(simulation.players), str(f["games"]), f"{f['turns_median'].value:.0f}", f"{f['turns_p90'].value:.0f}",
            " ".join(f"{100 * e.value:.0f}" for e in f["seat_wins"]), _percent(f["early_elimination"]),
            _percent(f["saving_ran_out"]), f"{_percent(f['first_draw_loses'])} ({100 * engine:.1f} %)"]


def _percent(estimate: Estimate) -> str:
    return f"{100 * estimate.value:.1f} %"


def simulation_as_json(game: Game, report: GameReport, simulations: Sequence[Simulation]) -> str:
    first = simulations[0]
    return json.dumps({
        "game": game.id, "title": game.title, "seed": first.seed,
        "policy": {"name": first.policy, "does": POLICIES[first.policy]},
        "target_half_width": TARGET_HALF_WIDTH,
        "simulations": [_as_dict(s, _played(report, s)) for s in simulations],
    }, indent=2, ensure_ascii=False)


def _as_dict(simulation: Simulation, played: PlayerCount) -> dict[str, Any]:
    f = simulation.figures()
    balance = played.balance
    exact = {"first_draw_loses": balance.first_draw_loses if balance else None,
             "draws_before_losing": balance.draws_before_losing if balance else None,
             "saving_each": balance.saving_in_hand if balance else None}
    return {
        "setup": simulation.setup, "players": simulation.players, "games": f["games"],
        "unplayed_card_types": simulation.unplayed,
        "turns": {"median": f["turns_median"].as_dict(), "p90": f["turns_p90"].as_dict()},
        "seat_wins": [e.as_dict() for e in f["seat_wins"]],
        **{name: f[name].as_dict() for name in ("no_winner", "early_elimination", "saving_ran_out")},
        **{name: {**f[name].as_dict(), "engine": None if value is None else round(value, 4)}
           for name, value in exact.items()},
    }
