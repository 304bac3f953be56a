"""cardgen cheatsheet: the one-page cheat sheet and its card-sized pocket copies."""
from __future__ import annotations

from cardgen.commands import options
from cardgen.commands.building import build_outputs
from cardgen.publish.kinds.documents import plan_cheatsheet


def add_arguments(p) -> None:
    options.document(p, game_required=True)


def run(args) -> int:
    return build_outputs(args, lambda game, checked: plan_cheatsheet(game, args.paper))
