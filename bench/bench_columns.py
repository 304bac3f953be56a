"""Times a game's rulebook PDF with WeasyPrint's own column balancing and with cardgen's
(render/documents/columns), in the same run: the ratio, and whether the bytes are the same.
CPU seconds of this process, best of N. Run by hand:

    python3 bench/bench_columns.py [GAME] [--lang de] [--booklet] [--repeat N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import weasyprint.layout.block
import weasyprint.layout.column

from cardgen.check.languages import report_in
from cardgen.model.words import speaking
from cardgen.publish.check import load_checked
from cardgen.render.documents import columns, render_pdf, rulebook_context
from cardgen.render.documents.booklet import BOOKLET_COUNT_PAIRS, PAGE_SIZES, PLAYER_COLUMNS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="exploding_puppy")
    parser.add_argument("--lang")
    parser.add_argument("--booklet", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    game, report = load_checked(args.game)
    report = report_in(report, args.lang or game.language)
    game = report.game
    context = rulebook_context(game, report, report.changes)
    if args.booklet:
        context = dict(context, booklet=True, page_size=PAGE_SIZES["a4"], player_columns=PLAYER_COLUMNS,
                       count_pairs=BOOKLET_COUNT_PAIRS)
    installed = weasyprint.layout.block.columns_layout
    columns.install = lambda: None  # the layout chosen below stays for each rendering

    def rulebook(layout) -> tuple[float, bytes]:
        best, pdf = float("inf"), b""
        for _ in range(args.repeat):
            weasyprint.layout.block.columns_layout = layout
            start = time.process_time()
            with speaking(game.words):
                pdf = render_pdf(game, "rulebook.html", context, "a4")
            best = min(best, time.process_time() - start)
        weasyprint.layout.block.columns_layout = installed
        return best, pdf

    own, own_pdf = rulebook(weasyprint.layout.column.columns_layout)
    ours, our_pdf = rulebook(columns.columns_layout)
    print(f"{args.game} {game.language}{' booklet' if args.booklet else ''}: WeasyPrint's balancing {own:.2f} s, "
          f"cardgen's {ours:.2f} s CPU: {ours / own:.2f}x; same bytes: {own_pdf == our_pdf}")


if __name__ == "__main__":
    main()
