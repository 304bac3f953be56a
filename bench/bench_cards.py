"""Times card sheets next to a raw-ReportLab baseline drawing the same cards.

Measured: the Default setup of Exploding Puppy (90-odd cards, some 30 distinct faces) and
synthetic decks of 90 and 1000 cards that are all different (every face drawn from scratch:
the worst case, since repeated faces are drawn once and placed as PDF forms).

The baseline is the least such a sheet can cost: per card a color band, the name, the
symbol (an svglib drawing parsed once), a number badge, the effect text wrapped once in a
Paragraph, and per page crop marks and a page of backs, with the same fonts, no layout data,
no fitting, no checks. Run by hand:

    python3 bench/bench_cards.py [--repeat N]
"""
from __future__ import annotations

import argparse
import dataclasses
import io
import sys
import time
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

from cardgen import engine, layout, load, markup, symbols  # noqa: E402
from cardgen.render import cards  # noqa: E402


def timed(function, repeat: int) -> float:
    """Best CPU time of `repeat` runs: the least disturbed by other work on the machine."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def synthetic_deck(game, count: int) -> list:
    """`count` different cards: the game's cards renamed, their text varied."""
    out = []
    for i in range(count):
        card = game.cards[i % len(game.cards)]
        out.append(dataclasses.replace(card, id=f"{card.id}-{i}", name=f"{card.name} {i}",
                                       text=f"{card.text} ({i % 7})"))
    return out


def baseline(game, deck: list, sheet: layout.Sheet) -> bytes:
    """Raw ReportLab: the same elements per card, drawn directly."""
    fonts = cards.Fonts(game.layout)
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


def report(label: str, count: int, ours: float, base: float) -> None:
    print(f"{label:<28} {count:>5} cards  cardgen {ours * 1000:8.1f} ms ({ours / count * 1000:5.2f} ms/card)"
          f"  baseline {base * 1000:8.1f} ms ({base / count * 1000:5.2f} ms/card)  ratio {ours / base:4.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    result = load.load_game(str(ROOT / "card_data" / "exploding_puppy"))
    game = result.game
    report_ = engine.check_game(game, result.findings).setup("Default")
    sheet = layout.make_sheet("a4", game.card_size)
    default_deck = [c for c in game.cards for _ in range(report_.print_counts.get(c.name, 0))]
    cards.render_sheets(game, default_deck, sheet)  # warm up: fonts, symbols, art checks
    cases = [("Default setup (A4)", default_deck)] + [
        (f"synthetic, all different", synthetic_deck(game, n)) for n in (90, 1000)]
    per_card = []
    for label, deck in cases:
        ours = timed(lambda: cards.render_sheets(game, deck, sheet), args.repeat)
        base = timed(lambda: baseline(game, deck, sheet), args.repeat)
        report(label, len(deck), ours, base)
        per_card.append(ours / len(deck))
    print(f"per-card cost, 1000 vs 90 different cards: {per_card[2] / per_card[1]:.2f}x (flat is 1.0)")


if __name__ == "__main__":
    main()
