"""cardgen new: a game folder to start from, the starter game or a copy of a shipped one."""
from __future__ import annotations

import sys
from pathlib import Path

from cardgen import scaffold
from cardgen.commands.options import say
from cardgen.errors import EXIT_OK


def add_arguments(p) -> None:
    p.add_argument("folder", help="the folder to create, e.g. mygame (its name names the output folder too)")
    p.add_argument("--from", dest="source", default=scaffold.STARTER, metavar="GAME",
                   help="copy this shipped game instead of the starter (see 'cardgen list')")


def run(args) -> int:
    folder = scaffold.new_game(args.folder, args.source)
    what = "the starter game" if args.source == scaffold.STARTER else f"a copy of {args.source}"
    files = ", ".join(sorted(p.name for p in folder.iterdir()))
    say(f"created {args.folder}/ with {what} ({files})\n"
        f"next:\n"
        f"  edit {args.folder}/game.yaml, cards.yaml, setups.yaml and rules.md\n"
        f"  cardgen check {args.folder}     find mistakes, each with file:line:column\n"
        f"  cardgen build {args.folder}     write every PDF to {Path('output') / folder.name}/", sys.stdout)
    return EXIT_OK
