"""cardgen checklist: the deck-setup checklists, one page per setup."""
from __future__ import annotations

from cardgen import build
from cardgen.commands import options
from cardgen.commands.building import built
from cardgen.load.schema import MAX_PLAYERS


def add_arguments(p) -> None:
    options.document(p, game_required=True)
    p.add_argument("--setup", help="only this setup (default: every setup)")
    p.add_argument("--players", type=options.whole(1, MAX_PLAYERS),
                   help="player count (default: each setup's largest)")


def run(args) -> int:
    return built(args, lambda game, checked: build.plan_checklists(game, args.paper, args.setup, args.players))
