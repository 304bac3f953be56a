"""cardgen diff: what changed since an earlier version of the game, as text, JSON or a PDF."""
from __future__ import annotations

import json
import sys

from cardgen import terminal
from cardgen.commands import options
from cardgen.commands.options import say
from cardgen.publish.playtest import playtest_round


def add_arguments(p) -> None:
    options.game(p, required=False)
    p.add_argument("--since", required=True, metavar="REF",
                   help="the earlier version: a game folder, a zip of one, or a git revision (commit, tag, branch)")
    p.add_argument("--json", action="store_true", help="the changes as JSON")
    p.add_argument("--pdf", action="store_true",
                   help="also write diff-since-<ref>.pdf: each changed card old and new side by side, "
                        "the added and removed cards")
    options.paper(p, help="paper size of the PDF")
    options.out(p, help="output folder of the PDF (default: output/<game>/)")


def run(args) -> int:
    with playtest_round(args.game, args.since) as round_:
        diff = round_.diff
        if args.json:
            say(json.dumps(diff.as_dict(), indent=2, ensure_ascii=False), sys.stdout)
        else:
            say("\n".join(terminal.diff_lines(round_.game.id, args.since, diff)), sys.stdout)
        if args.pdf:
            say(f"wrote {round_.write_pdf(args.out, args.since, args.paper)}")
    return 0
