"""cardgen build: every output of the game, in every one of its languages."""
from __future__ import annotations

from cardgen.commands import options
from cardgen.commands.building import build_outputs
from cardgen.publish.kinds import plan_all


def add_arguments(p) -> None:
    options.document(p, game_required=False, every_language=True)
    options.booklet(p)
    p.add_argument("--export", action="append", default=[], metavar="TARGET",
                   help="also export for a print service or Tabletop Simulator, as `cardgen export --to` "
                        "(repeatable; game.yaml's exports: are always made)")


def run(args) -> int:
    return build_outputs(args, lambda game, checked: plan_all(game, checked, args.paper, args.export, args.booklet),
                 summary=True)
