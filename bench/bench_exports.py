"""Times `cardgen export --to tgc` of 1000 different cards at 300 dpi next to its floor.

The floor: rasterising the same card pages (one card with its bleed a page, already drawn)
with pypdfium2 and saving each as a PNG with the same settings, in one process: what the
images cost at least with these libraries. The export draws the cards too, on the build's
two worker processes. Both are wall-clock seconds, run alternately, best of N. Run by hand:

    python3 bench/bench_exports.py [--cards 1000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import dataclasses
import io
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pypdfium2  # noqa: E402

from cardgen import load  # noqa: E402
from cardgen.check.game import check_game  # noqa: E402
from cardgen.layout.exports import card_pixels, entries  # noqa: E402
from cardgen.publish.kinds.exports import plan_export  # noqa: E402
from cardgen.publish.run import Job, render_and_publish  # noqa: E402
from cardgen.render import exports  # noqa: E402


def synthetic_game(count: int):
    """Exploding Puppy with `count` different card types, one copy each."""
    game = load.load_game("exploding_puppy").game
    deck = []
    for i in range(count):
        card = game.cards[i % len(game.cards)]
        deck.append(dataclasses.replace(card, id=f"{card.id}-{i}", name=f"{card.name} {i}",
                                        text=f"{card.text} ({i % 7})"))
    return dataclasses.replace(game, cards=tuple(deck), setups=(), checks=())


def export_once(game, report, out: Path) -> float:
    plan = plan_export(game, report, "tgc", all_types=True)
    start = time.perf_counter()
    result = render_and_publish([Job(game, report, plan)], out, clean=True)[0]  # drawn again, not reused from the last repeat
    elapsed = time.perf_counter() - start
    assert result.ok, result.failures + result.bugs
    return elapsed


def floor_once(pdf: bytes, dpi: int, out: Path) -> float:
    start = time.perf_counter()
    document = pypdfium2.PdfDocument(pdf)
    for number, page in enumerate(document):
        image = page.render(scale=dpi / 72 * (1 - 1e-7)).to_pil().convert("RGB")
        data = io.BytesIO()
        image.save(data, "PNG", dpi=(dpi, dpi), compress_level=1)
        (out / f"{number:04d}.png").write_bytes(data.getvalue())
    document.close()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = synthetic_game(args.cards)
    report = check_game(game, [])
    target = game.export_targets["tgc"]
    pixels = card_pixels(target, game.deck(None))
    chosen = entries(game, {c.id: 1 for c in game.cards})
    pdf = exports.one_up_pdf(game, target, pixels, chosen)  # fronts and backs: keep the fronts
    fronts = pypdfium2.PdfDocument(pdf)
    only = pypdfium2.PdfDocument.new()
    only.import_pages(fronts, list(range(0, len(fronts), 2)))
    buffer = io.BytesIO()
    only.save(buffer)
    floor_pdf = buffer.getvalue()
    best_export = best_floor = float("inf")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for _ in range(args.repeat):
            shutil.rmtree(work / "floor", ignore_errors=True)
            (work / "floor").mkdir()
            best_floor = min(best_floor, floor_once(floor_pdf, target.dpi, work / "floor"))
            best_export = min(best_export, export_once(game, report, work / "export"))
    print(f"{args.cards} cards at {target.dpi} dpi ({pixels.full[0]}x{pixels.full[1]} px), best of {args.repeat}:")
    print(f"  floor (pypdfium2 + PNG, one process): {best_floor:6.2f} s  {best_floor / args.cards * 1000:5.1f} ms/card")
    print(f"  cardgen export --to tgc:              {best_export:6.2f} s  {best_export / args.cards * 1000:5.1f} ms/card")
    print(f"  ratio: {best_export / best_floor:.2f}x")


if __name__ == "__main__":
    main()
