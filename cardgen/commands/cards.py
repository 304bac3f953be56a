"""cardgen cards: the print-and-play card sheets, faces and backs (or a proof, a calibration
sheet, a reprint of the cards changed since an earlier version)."""
from __future__ import annotations

import importlib
import sys

from cardgen.commands import options
from cardgen.commands.building import build_outputs
from cardgen.commands.options import say
from cardgen.layout.cutter import MACHINES
from cardgen.model.sizes import (
    CARD_SIZES_MM,
    COLOR_MODES,
    DEFAULT_BLEED_MM,
    DEFAULT_SPACING,
    MAX_PLAYERS,
    PRINT_MODES,
    SPACINGS,
)
from cardgen.publish.kinds.option_types import SheetOptions
from cardgen.publish.kinds.sheets import plan_cards

PLAYTEST = "cardgen.publish.playtest"  # a reprint's round (the diff, the earlier version): imported for one only


def add_arguments(p) -> None:
    options.game(p, required=True)
    p.add_argument("--setup", help="the setup to print (default: the game's default setup)")
    p.add_argument("--players", type=options.whole(1, MAX_PLAYERS),
                   help="print the deck for this many players (default: the setup's largest)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--all-types", action="store_true", help="one card of every type (a proof sheet)")
    which.add_argument("--calibration", action="store_true", help="a duplex calibration sheet to find --offset")
    which.add_argument("--changed-since", metavar="REF",
                       help="a reprint: only the cards changed or added since REF (see `cardgen diff`), after a "
                            "page with the setup's swap list")
    options.paper(p)
    p.add_argument("--size", type=options.card_size,
                   help=f"card size: {', '.join(CARD_SIZES_MM)} or WxH in mm (default: the game's)")
    p.add_argument("--bleed", type=float, default=DEFAULT_BLEED_MM, help=f"bleed in mm (default {DEFAULT_BLEED_MM:g})")
    p.add_argument("--no-backs", action="store_true", help="faces only")
    p.add_argument("--offset", type=options.offset, default=(0.0, 0.0),
                   help="X,Y in mm: shift the backs for printers that drift (see --calibration)")
    p.add_argument("--mode", choices=PRINT_MODES, default="long-edge",
                   help="how the backs are printed: double-sided flipping on the long or the short edge, or "
                        "gutterfold (single-sided: backs beside the faces, fold and glue)")
    p.add_argument("--layout", choices=SPACINGS, default=DEFAULT_SPACING, dest="spacing",
                   help="dense: as many cards a sheet as fit with gaps of twice the bleed where they cost no card, "
                        "else narrower, down to 1 mm of bleed each side (default); gutter: every card with its full "
                        "bleed on every side; shared-cuts: one cut between all neighbours, no bleed between them")
    p.add_argument("--marks", choices=sorted(MACHINES),
                   help="print-then-cut: a cutting machine's registration marks on the sheet (no crop marks) and "
                        "a cut file per sheet of its cards' outlines beside it (-sheet01.cut.svg, .cut.dxf, ...)")
    p.add_argument("--color", choices=COLOR_MODES, default="rgb",
                   help="rgb (default) or cmyk: every color and image in the shipped ISO Coated v2 (FOGRA39) "
                        "profile, as PDF/X-1a for a print shop")
    options.out(p)
    p.add_argument("--png", action="store_true", help="also write a PNG of every page")
    options.clean(p)
    options.language(p)


def run(args) -> int:
    sheet = SheetOptions(size=args.size, bleed=args.bleed, backs=not args.no_backs, offset=args.offset,
                               mode=args.mode, spacing=args.spacing, png=args.png, color=args.color,
                               marks=args.marks or "")
    checked = inputs = None
    if args.changed_since:  # the round checks the game: the build that follows does not again
        with importlib.import_module(PLAYTEST).playtest_round(args.game, args.changed_since) as round_:
            sheet, swaps = round_.in_language(args.lang).reprint(sheet, args.setup)
            checked, inputs = round_.checked, round_.inputs
        say("\n".join([f"swap list ({sheet.swaps[0]}):", *(f"  {line}" for line in swaps or ["nothing to swap"])]),
            sys.stdout)
    return build_outputs(args, lambda game, checked: plan_cards(
        game, args.paper, sheet, args.setup, args.players, args.all_types, args.calibration),
        read=(sheet.reprint, sheet.swaps), checked=checked, inputs=inputs)
