"""cardgen export: card images and files for a print service or Tabletop Simulator."""
from __future__ import annotations

from cardgen.commands import options
from cardgen.commands.building import build_outputs
from cardgen.model.sizes import DPI_RANGE
from cardgen.publish.kinds.exports import plan_export


def add_arguments(p) -> None:
    options.game(p, required=True, help="a game under card_data/ or a game folder")
    p.add_argument("--to", required=True, metavar="TARGET",
                   help="png (the game's card size), tgc (The Game Crafter), mpc (MakePlayingCards), "
                        "drivethru (DriveThruCards, PDF/X 1-up), cricut (Cricut Design Space, trimmed images), "
                        "tts (Tabletop Simulator), or a target of the "
                        "game's export-targets.yaml")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--setup", help="the setup whose cards to export (default: the game's default setup)")
    which.add_argument("--all-types", action="store_true", help="one card of every type")
    p.add_argument("--dpi", type=options.whole(*DPI_RANGE), help="pixels per inch for the png target (default 300)")
    options.out(p, help="output folder (default: output/<game>/); files go into export-<target>-<deck>/")
    options.clean(p)
    options.language(p)


def run(args) -> int:
    return build_outputs(args, lambda game, checked: plan_export(
        game, checked, args.to, args.setup, args.all_types, args.dpi))
