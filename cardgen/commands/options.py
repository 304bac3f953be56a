"""What the commands share: the option groups (game, output folder, paper, language, ...), the
parsers of option values, and printing."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from cardgen.errors import printable
from cardgen.inputs.games import DEFAULT_GAME
from cardgen.layout.sheet import parse_offset
from cardgen.model.sizes import DEFAULT_PAPER, PAPERS_MM, card_size_mm
from cardgen.model.texts import ascii_digits

CLEAN_HELP = "build every output again, even those whose inputs are unchanged since they were built"


def say(text: str, stream=None) -> None:
    """Print text that may hold game data (stderr unless told): control characters escaped."""
    print(printable(text), file=stream or sys.stderr)


# --------------------------------------------------------------------------- option groups


def game(p: argparse.ArgumentParser, required: bool, help: str = "game folder name or path") -> None:
    """The game argument: required, or the default game when left out."""
    if required:
        p.add_argument("game", help=help)
    else:
        p.add_argument("game", nargs="?", default=DEFAULT_GAME, help=help)


def out(p: argparse.ArgumentParser, help: str = "output folder (default: output/<game>/)") -> None:
    p.add_argument("--out", help=help)


def paper(p: argparse.ArgumentParser, help: str = "paper size") -> None:
    p.add_argument("--paper", choices=sorted(PAPERS_MM), default=DEFAULT_PAPER, help=help)


def clean(p: argparse.ArgumentParser) -> None:
    p.add_argument("--clean", action="store_true", help=CLEAN_HELP)


def language(p: argparse.ArgumentParser, every: bool = False) -> None:
    p.add_argument("--lang", metavar="LANG", help="one of the game's languages (game.yaml languages:): its outputs go "
                   "into <lang>/ inside the output folder (default: " + ("every language" if every else "the game's "
                   "source language") + ")")


def booklet(p: argparse.ArgumentParser) -> None:
    p.add_argument("--booklet", action="store_true",
                   help="also rulebook-booklet.pdf: A5 pages (half-letter on Letter) two to a landscape sheet in "
                        "saddle-stitch order, to print duplex (flip on the short edge), fold and staple")


def document(p: argparse.ArgumentParser, game_required: bool, every_language: bool = False) -> None:
    """A document's options: the game, --out, --paper, --clean and --lang."""
    game(p, game_required)
    out(p)
    paper(p)
    clean(p)
    language(p, every_language)


# --------------------------------------------------------------------------- option values


def whole(low: int, high: int) -> Callable[[str], int]:
    """An option's whole number, from low to high (argparse names the option in its message)."""

    def whole_number(text: str) -> int:
        digits = text.strip().removeprefix("-")
        if not ascii_digits(digits):
            raise argparse.ArgumentTypeError(f"'{text[:20]}' is not a whole number")
        value = int(digits[:10]) * (-1 if text.strip().startswith("-") else 1)  # 10 digits: past any range
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text.strip()[:20]} is out of range: give {low} to {high}")
        return value

    return whole_number


def text(value: str) -> str:
    """An option's text: characters only (bytes that are not UTF-8 reach Python as lone surrogates)."""
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        raise argparse.ArgumentTypeError(f"'{printable(value[:20])}' is not text: give it in UTF-8")
    return value


def offset(value: str) -> tuple[float, float]:
    try:
        return parse_offset(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def card_size(value: str) -> str:
    try:
        card_size_mm(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value
