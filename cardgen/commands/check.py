"""cardgen check: load the game, run the rules engine and every check, print the findings."""
from __future__ import annotations

import sys

from cardgen.commands.options import game, say
from cardgen.errors import EXIT_DATA, EXIT_OK
from cardgen.publish.check import check_folder
from cardgen.report.check import check_as_json, check_as_text


def add_arguments(p) -> None:
    game(p, required=False)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--all-translated", action="store_true",
                   help="a text a translation (i18n/<lang>.yaml, rules.<lang>.md) lacks is an error, not a warning")


def run(args) -> int:
    checked = check_folder(args.game, all_translated=args.all_translated)
    say(check_as_json(checked) if args.json else check_as_text(checked), sys.stdout)
    return EXIT_OK if checked.ok else EXIT_DATA
