"""cardgen checklist: the deck-setup checklists, a page per setup and player count."""
from __future__ import annotations

from cardgen.commands import options
from cardgen.commands.building import build_outputs
from cardgen.model.sizes import MAX_PLAYERS
from cardgen.publish.kinds.documents import plan_checklists


def add_arguments(p) -> None:
    options.document(p, game_required=True)
    p.add_argument("--setup", help="only this setup (default: every setup)")
    p.add_argument("--players", type=options.whole(1, MAX_PLAYERS),
                   help="only this player count (default: every count of each setup)")


def run(args) -> int:
    return build_outputs(args, lambda game, checked: plan_checklists(game, args.paper, args.setup, args.players))
