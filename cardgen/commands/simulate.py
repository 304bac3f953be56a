"""cardgen simulate: play the setups out many times and print the figures with their intervals."""
from __future__ import annotations

import sys

from cardgen import terminal
from cardgen.commands import options
from cardgen.commands.options import say
from cardgen.errors import EXIT_OK
from cardgen.model.sizes import MAX_PLAYERS
from cardgen.publish.check import load_checked
from cardgen.publish.simulate import simulate_game
from cardgen.report import simulation as simulation_report
from cardgen.simulate.simulation import DEFAULT_POLICY, MAX_GAMES, POLICIES, nothing_to_simulate


def add_arguments(p) -> None:
    options.game(p, required=False)
    p.add_argument("--setup", help="only this setup (default: every setup)")
    p.add_argument("--players", type=options.whole(1, MAX_PLAYERS), help="only this player count (default: every one)")
    p.add_argument("--games", type=options.whole(1, MAX_GAMES),
                   help="games per setup and player count (default: enough for every rate within ±1 percentage "
                        "point at 95 %%)")
    p.add_argument("--seed", type=options.text, default="0",
                   help="the random seed: the same seed gives the same figures (default 0)")
    p.add_argument("--policy", choices=sorted(POLICIES), default=DEFAULT_POLICY,
                   help="how the simulated players play: " + "; ".join(f"{k}: {v}" for k, v in POLICIES.items()))
    p.add_argument("--json", action="store_true", help="the figures with their 95 %% intervals, as JSON")


def run(args) -> int:
    game, checked = load_checked(args.game)
    reason = nothing_to_simulate(game)
    if reason:
        say(simulation_report.nothing_as_json(game, reason) if args.json
            else simulation_report.nothing_as_text(game, reason), sys.stdout)
        return EXIT_OK
    with terminal.progress(sys.stderr, f"simulating {game.title}") as advance:
        simulations = simulate_game(game, checked, setup=args.setup, players=args.players, games=args.games,
                                    seed=args.seed, policy=args.policy, done=advance)
    say(simulation_report.simulation_as_json(game, checked, simulations) if args.json
        else simulation_report.simulation_as_text(game, checked, simulations, args.games is not None), sys.stdout)
    return EXIT_OK
