"""Times card sheets next to a raw-ReportLab baseline drawing the same cards, in one run.

Measured: the Default setup of Exploding Puppy (97 cards, some 30 distinct faces) and
generated games (bench/big_game.py, in a temporary folder) of 98, 1000 and 5000 cards that are
all different (every face drawn from scratch: the worst case, since repeated faces are drawn
once and placed as PDF forms).

Two figures per case against the same baseline:
- `cards`: what `cardgen cards` costs: load, check, then the build stage rendering the sheets in
  its worker and publishing the PDF (CPU seconds of this process and its workers);
- `render`: the card sheets alone (render_sheets), in this process.
And the CMYK sheets (`--color cmyk`: every color and image through the ICC profile, then PDF/X)
against the RGB render of the same cards.

The baseline is the least such a sheet can cost: per card a color band, the name, the symbol
(an svglib drawing parsed once), a number badge, the effect text wrapped once in a Paragraph,
and per page crop marks and a page of backs, with the same fonts, no layout data, no fitting,
no checks, no files read. Times are CPU seconds (best of N): other work on a shared machine
changes wall-clock times far more than the CPU a rendering needs. Run by hand:

    python3 bench/bench_cards.py [--repeat N] [--sizes 98 1000 5000]
"""
from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reportlab.graphics import renderPDF  # noqa: E402
from reportlab.lib.colors import HexColor  # noqa: E402
from reportlab.lib.enums import TA_CENTER  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402
from reportlab.platypus import Paragraph  # noqa: E402
from svglib.svglib import svg2rlg  # noqa: E402

from cardgen import publish  # noqa: E402
from cardgen.inputs import symbols
from cardgen.layout import sheet as layout
from cardgen.model import markup
from cardgen.render import cards  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from big_game import write_big_game  # noqa: E402
from timing import timed  # noqa: E402

from cardgen.layout.textfit import Fonts  # noqa: E402
from cardgen.publish.driver import Request, drive, load_checked


def baseline(game, deck: list, sheet: layout.Sheet) -> bytes:
    """Raw ReportLab: the same elements per card, drawn directly."""
    fonts = Fonts(game.design)
    drawings = {c.symbol: svg2rlg(str(symbols.symbol_path(game, c.symbol))) for c in game.colors}
    body = ParagraphStyle("body", fontName=fonts["text"], fontSize=8.5, leading=10, alignment=TA_CENTER)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(sheet.page_w, sheet.page_h), invariant=1)
    w, h = sheet.card_w, sheet.card_h
    for page in layout.pages(deck, sheet.per_page):
        for index, card in enumerate(page):
            slot = sheet.slot(index)
            color = game.color(card.color)
            canvas.saveState()
            canvas.translate(slot.x, slot.y)
            canvas.setFillColor(HexColor(color.hex))
            canvas.rect(0, 0, w, h, stroke=0, fill=1)
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.roundRect(9, 9, w - 18, h - 52, 6, stroke=0, fill=1)
            canvas.setFont(fonts["title"], 13)
            canvas.drawCentredString(w / 2, h - 30, card.name)
            canvas.saveState()
            canvas.translate(10, h - 38)
            canvas.scale(0.2, 0.2)
            renderPDF.draw(drawings[color.symbol], canvas, 0, 0)
            canvas.restoreState()
            if card.number is not None:
                canvas.circle(w - 25, h - 25, 13, stroke=1, fill=1)
                canvas.setFont(fonts["heavy"], 12)
                canvas.drawCentredString(w - 25, h - 29, str(card.number))
            paragraph = Paragraph(markup.to_paragraph(card.text), body)
            paragraph.wrap(w - 30, 70)
            paragraph.drawOn(canvas, 15, 15)
            canvas.restoreState()
        for (x1, y1), (x2, y2) in sheet.crop_marks():
            canvas.line(x1, y1, x2, y2)
        canvas.showPage()
        for index in range(len(page)):
            slot = sheet.back_slot(index)
            canvas.setFillColor(HexColor("#262a33"))
            canvas.rect(slot.x, slot.y, w, h, stroke=0, fill=1)
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.setFont(fonts["title"], 20)
            canvas.drawCentredString(slot.x + w / 2, slot.y + h / 2, game.title)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


# the machine may be busy: the bench measures CPU time, so the build's wall-clock ceiling is lifted
LIMITS = publish.Limits(cpu_seconds=600, wall_seconds=3600)


def cards_command(folder: Path, out: Path) -> None:
    """What `cardgen cards GAME --out OUT --clean` does, minus argument parsing and printing."""
    built = drive(Request(str(folder), lambda game, report: publish.plan_cards(game), out=out, clean=True,
                          limits=LIMITS))  # clean: not reused from the last run
    assert built.ok, [problem for result in built.results for problem in (*result.failures, *result.bugs)]


def bench(label: str, folder: Path, out: Path, repeat: int) -> tuple[int, float, float, float]:
    """(cards, cards command, render only, baseline) in CPU seconds."""
    game, report = load_checked(str(folder))
    setup = report.setup(game.default_setup or game.setups[0].name)
    deck = [card for card in game.cards for _ in range(setup.print_counts.get(card.id, 0))]
    sheet = layout.make_sheet("a4", game.card_size)
    command = timed(lambda: cards_command(folder, out), repeat)
    render = timed(lambda: cards.render_sheets(game, deck, sheet), repeat)
    cmyk = timed(lambda: cards.render_sheets(game, deck, sheet, cmyk=True), repeat)
    base = timed(lambda: baseline(game, deck, sheet), repeat)
    n = len(deck)
    print(f"{label:<24} {n:>5} cards  baseline {base:7.2f} s ({base / n * 1000:4.2f} ms/card)  "
          f"cards {command:7.2f} s ({command / n * 1000:4.2f} ms/card) {command / base:5.2f}x  "
          f"render {render:7.2f} s ({render / n * 1000:4.2f} ms/card) {render / base:5.2f}x  "
          f"cmyk {cmyk:7.2f} s {cmyk / render:5.2f}x the RGB render", flush=True)
    return n, command, render, base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[98, 1000, 5000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as temp:
        temp = Path(temp)
        game, _ = load_checked("exploding_puppy")
        cards.render_sheets(game, list(game.cards[:9]), layout.make_sheet("a4", game.card_size))  # warm up
        print(f"CPU seconds, best of {args.repeat}; ratios against the baseline")
        bench("Exploding Puppy Default", ROOT / "card_data" / "exploding_puppy", temp / "out", args.repeat)
        rows = [bench("all different", write_big_game(temp / f"big{n}", n), temp / "out", args.repeat)
                for n in args.sizes]
    (n1, command1, render1, _), (n2, command2, render2, _) = rows[0], rows[-1]
    print(f"per-card cost, {n2} vs {n1} different cards: cards {command2 / n2 / (command1 / n1):.2f}x, "
          f"render {render2 / n2 / (render1 / n1):.2f}x (flat is 1.0)")


if __name__ == "__main__":
    main()
