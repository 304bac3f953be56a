"""cardgen preflight: what a print shop's preflight would flag in PDF files, point by point."""
from __future__ import annotations

import sys
from pathlib import Path

from cardgen.commands.options import say
from cardgen.errors import EXIT_DATA
from cardgen.publish.preflight import preflight


def add_arguments(p) -> None:
    p.add_argument("pdfs", nargs="+", metavar="PDF", help="a PDF file (cardgen's card sheets or any other)")


def run(args) -> int:
    failed = 0
    for name in args.pdfs:
        report = preflight(Path(name))
        say(f"{name}: " + ("passes" if report.passed else "would be flagged"), sys.stdout)
        for line in report.lines():
            say(f"  {line}", sys.stdout)
        failed += not report.passed
    return EXIT_DATA if failed else 0
