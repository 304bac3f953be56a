"""The mutation fuzzer shared by the CI fuzz test (tests/security/test_fuzz.py, a fixed budget)
and the soak (bench/soak.py, as many cases as asked): one case is a seed; it edits one file of
the tiny test game (its YAML, a layout, a symbol, rules.md or a template of its own) and runs
`check` and, when the game passes, the renderer that file feeds. A case may be refused by check
or by the renderer with a clear message, or render; anything else (a traceback, an exception
that is not cardgen's, a case that runs too long) is a bug, reported with its seed.
"""
from __future__ import annotations

import contextlib
import io
import random
import shutil
import signal
import traceback
from dataclasses import dataclass
from pathlib import Path

from cardgen import load
from cardgen.check.game import check_game
from cardgen.cli import main
from cardgen.errors import CardgenError
from cardgen.inputs.paths import ART
from cardgen.layout import sheet as layout

TINY_GAME = Path(__file__).resolve().parent.parent / "data" / "tiny_game"
CASE_SECONDS = 30  # the longest any one input may take

TEMPLATE = """{% extends "rulebook.html" %}
{% block style %}{{ super() }} h1 { color: #123456; }{% endblock %}
"""
RULES = """# Rules

Play **cards** and :bomb: *fast*. See [the cards](#part-2).

## Turns

1. Draw a card.
2. Play any number of cards.

| Card | Count |
|------|------:|
| Boom | 5 |

# Cards

## Red

The hazards.
"""
LAYOUT = "text: {size: 7, min_size: 5}\nback: {pattern_step: 9}\nname: {shadow: 0.5}\nsymbol: {size: 6}\n"

# file → (starting text, the pieces edits insert)
YAML_PIECES = ["", ":", "- ", "  ", "\n", "'", '"', "{", "]", "\t", "null", "-1", "é", "---\n", "1e999", ".nan",
               "99999999", "0", "\\e[2J", '"\\ud800"', "&a ", "*a", "!!python/object ", "players - 1", "bomb"]
TARGETS: dict[str, tuple[str | None, list[str]]] = {
    "game.yaml": (None, YAML_PIECES),
    "cards.yaml": (None, YAML_PIECES),
    "setups.yaml": (None, YAML_PIECES),
    "layout.yaml": (LAYOUT, YAML_PIECES + ["size: ", "radius: ", "fonts: {text: x.ttf}", "pattern_step: 0.01"]),
    "symbols/bomb.svg": ((ART / "symbols" / "bomb.svg").read_text(), [
        '<use href="#a"/>', '<g id="a">', "</g>", '<g transform="scale(1e308)">', "1e999", "NaN", "-",
        '<image href="x.png"/>', '<image href="/etc/passwd"/>', "<!DOCTYPE svg>", 'viewBox="0 0 0 0"',
        'stroke-width="1e9"', " 1,2 3,4 5,6", "<text>A</text>", "<", ">", '"', "&amp;", "&x;", "\x00"]),
    "rules.md": (RULES, ["# ", "## ", "|---", "| a ", "![x](", "![x](big.svg)", ")", "[", "](", "`", "```\n", "> ",
                         "- ", "1. ", "**", "<b>", "\x00", "%00", ":bomb:", ":nope:", "\\", "&amp;", "../",
                         "file:///etc/passwd", "http://127.0.0.1/x.png", "\n\n", "|", ":-:"]),
    "templates/rulebook.html": (TEMPLATE, [
        "{{ ", " }}", "{% ", " %}", "{% for x in range(99999) %}", "{% endfor %}", "game.title", "|center(99999)",
        " ~ ", " * 9999", " ** 64", "namespace(s='x')", "loop.index", "__class__", "self", "{% include 'x' %}",
        "super()", "|markdown", "caller()", "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", "'", '"',
        "{% set s = 'ab' %}", "range(", ")", "lipsum(99999)", "|join('x')", "%"]),
}


@dataclass
class Outcome:
    seed: int
    target: str
    stage: str  # "refused by check", "refused by the renderer", "rendered", or "BUG"
    detail: str = ""


def mutated(text: str, pieces: list[str], rng: random.Random) -> str:
    """1-6 edits: insert a piece, cut a span, or repeat a span many times (cheap input, costly work)."""
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(text))
        action = rng.random()
        if action < 0.6:
            text = text[:at] + rng.choice(pieces) + text[at:]
        elif action < 0.8:
            text = text[:at] + text[at + rng.randint(1, 12):]
        else:
            span = text[at:at + rng.randint(1, 40)]
            text = text[:at] + span * rng.choice([2, 10, 100, 2000]) + text[at:]
    return text


def make_case(seed: int, folder: Path) -> str:
    """Write the case's game into `folder` (a fresh copy of the tiny game); the file it edits."""
    rng = random.Random(seed)
    shutil.copytree(TINY_GAME, folder)
    target = rng.choice(sorted(TARGETS))
    start, pieces = TARGETS[target]
    path = folder / target
    path.parent.mkdir(exist_ok=True)
    path.write_text(mutated(start if start is not None else path.read_text(), pieces, rng))
    return target


def run_case(seed: int, workdir: Path, full: bool = False) -> Outcome:
    """One case in `workdir` (an empty folder of its own). `full`: render whole PDFs (slow)."""
    folder = workdir / "game"
    target = make_case(seed, folder)
    try:
        with _time_limit(CASE_SECONDS):
            return Outcome(seed, target, *_exercise(folder, target, workdir / "out", full))
    except Exception as exc:  # noqa: BLE001 - every escape is the bug this looks for
        return Outcome(seed, target, "BUG", f"{exc.__class__.__name__}: {exc}\n{traceback.format_exc()}")


def _exercise(folder: Path, target: str, out: Path, full: bool) -> tuple[str, str]:
    code, text = _cli("check", str(folder))
    if "Traceback" in text or code not in (0, 1):
        return "BUG", f"check exited {code}:\n{text}"
    if code == 1:
        return "refused by check", ""
    result = load.load_game(folder)
    report = check_game(result.game, result.findings)
    try:
        if target in ("layout.yaml", "symbols/bomb.svg", "cards.yaml"):
            _cards(result.game, full)
        if target not in ("layout.yaml",):
            _rulebook(result.game, report, full)
    except CardgenError as exc:
        return "refused by the renderer", str(exc).splitlines()[0]
    return "rendered", ""


def _cards(game, full: bool) -> None:
    from cardgen.render import cards

    chosen = list(game.cards) if full else list(game.cards)[:2]
    pdf = cards.render_sheets(game, chosen, layout.make_sheet("a4", game.card_size, 3.0), backs=True)
    assert pdf.startswith(b"%PDF")


def _rulebook(game, report, full: bool) -> None:
    from cardgen.render import documents

    html = documents.render_html(game, "rulebook.html", documents.rulebook_context(game, report))
    if full:
        assert documents.html_to_pdf(game, html, "rulebook.html").startswith(b"%PDF")


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue()


class CaseTooLong(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: int):
    def expired(signum, frame):
        raise CaseTooLong(f"the case ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
