"""cardgen rulebook: the rulebook PDF and its HTML edition (and the booklet)."""
from __future__ import annotations

from cardgen.commands import options
from cardgen.commands.building import build_outputs
from cardgen.publish.kinds.documents import plan_rulebook


def add_arguments(p) -> None:
    options.document(p, game_required=True)
    options.booklet(p)


def run(args) -> int:
    return build_outputs(args, lambda game, checked: plan_rulebook(game, args.paper, args.booklet))
