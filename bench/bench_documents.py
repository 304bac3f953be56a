"""Times the rulebook, the checklists and a full `cardgen build`, next to a raw-WeasyPrint baseline.

The baseline is the least a document of the same size can cost: one plain HTML string with
as many headings, paragraphs and table cells, carrying the same text and the same fonts and
page size, handed to WeasyPrint with no templates, no fetcher and no checks. Beside it, the
document's own HTML handed to raw WeasyPrint the same way: the first ratio is what the
rulebook's layout costs over plain text, the second what cardgen adds around WeasyPrint
(templates, fetcher, checks). Run by hand:

    python3 bench/bench_documents.py [GAME] [--repeat N]
"""
from __future__ import annotations

import argparse
import html
import re
import sys
import tempfile
import time
from pathlib import Path

import pypdf
import weasyprint

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen import load  # noqa: E402
from cardgen.check.game import check_game  # noqa: E402
from cardgen.inputs import symbols
from cardgen.publish.kinds import plan_all  # noqa: E402
from cardgen.publish.limits import Limits  # noqa: E402
from cardgen.publish.run import Job, render_and_publish  # noqa: E402
from cardgen.render import documents  # noqa: E402

TEXT_BLOCKS = re.compile(r"<(p|li|td|th|h[1-4])\b[^>]*>(.*?)</\1>", re.S)
TAGS = re.compile(r"<[^>]+>")
LINE_BREAK = re.compile(r"<br\s*/?>")


def timed(function, repeat: int, clock=time.process_time) -> tuple[float, object]:
    """Best of `repeat` runs (the least disturbed by the machine), and the last result.

    Documents are timed in CPU seconds of this process: other work on a shared machine
    changes wall-clock times far more than it changes the CPU a rendering needs.
    """
    times, result = [], None
    for _ in range(repeat):
        start = clock()
        result = function()
        times.append(clock() - start)
    return min(times), result


def baseline_html(game, document_html: str, paper: str) -> str:
    """Same blocks, same lines, same text, same fonts and paper; no templates, layout or images."""
    blocks = [(tag, "<br>".join(html.escape(html.unescape(TAGS.sub("", line)).strip())
                                for line in LINE_BREAK.split(body)))
              for tag, body in TEXT_BLOCKS.findall(document_html)]
    body = "\n".join(f"<h2>{text}</h2>" if tag.startswith("h") else f"<p>{text}</p>" for tag, text in blocks)
    return (f"<html lang='en'><head><style>{documents.font_face_css(game)}"
            f"@page {{ size: {paper}; margin: 18mm; @bottom-center {{ content: counter(page) }} }}"
            "html { font-family: Lato, 'DejaVu Sans', sans-serif; font-size: 10pt; }"
            "h2 { font-size: 12pt; break-after: avoid; } p { hyphens: auto; }"
            f"</style></head><body>{body}</body></html>")


def raw_weasyprint(game, page_html: str) -> bytes:
    return weasyprint.HTML(string=page_html, base_url=str(game.folder)).write_pdf()


def pages(pdf: bytes) -> int:
    import io

    return len(pypdf.PdfReader(io.BytesIO(pdf)).pages)


def same_html_standalone(game, document_html: str, folder: Path) -> str:
    """Our own HTML for raw WeasyPrint: the symbol font, which cardgen serves from memory,
    written to a file and named by its path."""
    family, url = documents.symbol_font_name(game)
    font = folder / f"{family}.otf"
    font.write_bytes(symbols.symbol_font(game))
    return document_html.replace(url, font.as_uri())


def bench_document(name, game, template, context, repeat, paper="a4"):
    document_html = documents.render_html(game, template, context(), paper)
    page_html = baseline_html(game, document_html, paper)
    with tempfile.TemporaryDirectory() as folder:
        same_html = same_html_standalone(game, document_html, Path(folder))
        ours, base, same = [], [], []
        for _ in range(repeat):  # alternated, so that a slower spell of a shared machine hits all alike
            ours_time, pdf = timed(lambda: documents.render_pdf(game, template, context(), paper), 1)
            base_time, base_pdf = timed(lambda: raw_weasyprint(game, page_html), 1)
            same_time, _ = timed(lambda: raw_weasyprint(game, same_html), 1)
            ours.append(ours_time)
            base.append(base_time)
            same.append(same_time)
    ours, base, same = min(ours), min(base), min(same)
    blocks = len(TEXT_BLOCKS.findall(page_html))
    print(f"{name:<11} {ours:6.2f} s CPU {pages(pdf):3d} pages | baseline {base:6.2f} s  {pages(base_pdf):3d} pages, "
          f"{blocks} blocks | ratio {ours / base:4.2f} | same HTML in raw WeasyPrint {same:6.2f} s, "
          f"ratio {ours / same:4.2f}")
    return ours


def bench_build(game, report, repeat: int) -> None:
    """Every output through the build stage: on its two worker processes, then on one, which is
    the same work one output after another (what the second worker saves)."""
    for workers, what in ((2, "2 worker processes"), (1, "1 worker process, one output after another")):
        limits = Limits(workers=workers)

        def run():
            with tempfile.TemporaryDirectory() as out:
                result = render_and_publish([Job(game, report, plan_all(game, report))], out, limits)[0]
                assert result.ok, result.failures + result.bugs

        elapsed, _ = timed(run, repeat, clock=time.perf_counter)
        label = "build" if workers == 2 else "serial"
        print(f"{label:<11} {elapsed:6.2f} s wall (every output, {what})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=load.DEFAULT_GAME)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    result = load.load_game(args.game)
    game = result.game
    report = check_game(game, result.findings)
    # warm up: imports, font configuration, image cache (what a build pays once per process)
    documents.render_pdf(game, "checklists.html", documents.checklists_context(game, report, None, None))
    print(f"{game.title}: best of {args.repeat}")
    bench_document("rulebook", game, "rulebook.html", lambda: documents.rulebook_context(game, report), args.repeat)
    bench_document("checklists", game, "checklists.html",
                   lambda: documents.checklists_context(game, report, None, None), args.repeat)
    bench_build(game, report, args.repeat)


if __name__ == "__main__":
    main()
