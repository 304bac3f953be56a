"""cardgen list: the games under card_data/ and their setups."""
from __future__ import annotations

import sys

from cardgen import load
from cardgen.commands.options import say
from cardgen.errors import EXIT_OK
from cardgen.report.check import game_listing


def add_arguments(p) -> None:
    """list takes no arguments."""


def run(args) -> int:
    games = load.list_games()
    if not games:
        say("no games found under card_data/", sys.stdout)
        return EXIT_OK
    for name in games:
        say(game_listing(name, load.load_game(name).game), sys.stdout)
    return EXIT_OK
