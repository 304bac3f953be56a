"""The command line: parse the arguments, run the command, print. Exit codes: 0 ok, 1 data
errors, 2 usage errors, 3 a bug in cardgen.

Each command is a module of cardgen/commands/ with its `add_arguments(parser)` and `run(args)`.
COMMANDS names them as data: `cardgen --help` lists them from it without importing any, and
only the chosen command's module is imported (with the stages it uses), when argparse picks it."""
from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from contextlib import nullcontext

from cardgen import __version__
from cardgen.errors import BUG_NOTICE, EXIT_BUG, EXIT_DATA, EXIT_USAGE, CardgenError, printable
from cardgen.publish.imports import imports_kept

DESCRIPTION = """\
Make a print-and-play card game from a folder of YAML: card sheets ready to cut (with bleed,
crop marks and duplex backs), a rulebook, deck-setup checklists and a cheat sheet. 'cardgen
check' finds mistakes in the game data first, each with file, line and column.

Start with 'cardgen new mygame', then 'cardgen check mygame' and 'cardgen build mygame'."""
EPILOG = "Exit codes: 0 ok, 1 a problem in the game data (or writing the outputs), 2 a usage error, 3 a bug."

# command: (its module, the line `cardgen --help` shows), in the order the help lists them
COMMANDS = {
    "list": ("cardgen.commands.list", "games and their setups"),
    "new": ("cardgen.commands.new",
            "start a game folder: a small commented game, or a copy of a shipped one"),
    "schema": ("cardgen.commands.schema",
               "the editor schemas of game.yaml, cards.yaml, setups.yaml and layout.yaml"),
    "convert": ("cardgen.commands.convert",
                "the game's cards as a sheet (CSV, xlsx, ods) or a sheet's as cards.yaml; with --translate, a "
                "translator's sheet of its texts or the translation read back"),
    "check": ("cardgen.commands.check", "load a game and run the rules engine"),
    "rulebook": ("cardgen.commands.rulebook", "the rulebook PDF and its HTML edition"),
    "checklist": ("cardgen.commands.checklist", "deck-setup checklists, a page per setup and player count"),
    "cheatsheet": ("cardgen.commands.cheatsheet", "one-page cheat sheet plus card-sized pocket copies"),
    "cards": ("cardgen.commands.cards",
              "print-and-play card sheets: faces and their backs, double-sided or gutterfold"),
    "diff": ("cardgen.commands.diff", "what changed since an earlier version of the game: cards, counts, rules"),
    "simulate": ("cardgen.commands.simulate",
                 "play the setups out many times: game length, wins by seat, early eliminations, saving cards "
                 "running out"),
    "preflight": ("cardgen.commands.preflight",
                  "what a print shop's preflight would flag in PDF files: each point, pass or fail"),
    "export": ("cardgen.commands.export", "card images and files for a print service or Tabletop Simulator"),
    "build": ("cardgen.commands.build",
              "every output for the game: card sheets, rulebook, checklists, cheat sheet"),
    "serve": ("cardgen.commands.serve",
              "a live preview in the browser: cards, report and documents, updated on every save"),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    with imports_kept() if argv is None else nullcontext():  # a test's call leaves the test's process be
        args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file-size limit: an error message, not a kill
    try:
        return args.run(args)
    except CardgenError as exc:
        _say(str(exc))
        return exc.exit_code
    except BrokenPipeError:  # e.g. `cardgen check | head`: the reader left, nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_DATA
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_DATA
    except Exception:  # noqa: BLE001 - a bug: keep the traceback, and say whose problem it is
        _say(traceback.format_exc())
        _say(BUG_NOTICE)
        return EXIT_BUG


def _say(text: str) -> None:
    print(printable(text), file=sys.stderr)


class _Commands(argparse._SubParsersAction):
    """The subcommands, each with only its name and help until argparse picks it: then its
    module adds its arguments and gives its `run`."""

    def __call__(self, parser, namespace, values, option_string=None):
        _command(values[0], self.choices[values[0]])
        super().__call__(parser, namespace, values, option_string)


def _command(name: str, parser: argparse.ArgumentParser) -> None:
    """Give a command's parser its arguments and `run`, from the command's module (once)."""
    if parser.get_default("run") is None:
        module = importlib.import_module(COMMANDS[name][0])
        module.add_arguments(parser)
        parser.set_defaults(run=module.run)


def _parser(every: bool = False) -> argparse.ArgumentParser:
    """The command line's parser; each command's arguments only when it is chosen, or all of them
    (`every`: importing every command, as the docs test does to read each command's options)."""
    parser = argparse.ArgumentParser(prog="cardgen", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"cardgen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=_Commands)
    for name, (_, help_line) in COMMANDS.items():
        command = sub.add_parser(name, help=help_line)
        if every:
            _command(name, command)
    return parser
