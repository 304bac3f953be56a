"""The command line: parse the arguments, call the pipeline, print. Exit codes: 0 ok, 1 data
errors, 2 usage errors, 3 a bug in cardgen."""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from cardgen import __version__, build, load, scaffold, serve, terminal
from cardgen.build import check_folder, load_checked
from cardgen.build.cache import snapshot
from cardgen.build.playtest import playtest_round
from cardgen.build.preflight import preflight
from cardgen.build.simulate import simulate_game
from cardgen.check import report, simulation_report
from cardgen.check.simulate import DEFAULT_POLICY, MAX_GAMES, POLICIES, nothing_to_simulate
from cardgen.errors import BUG_NOTICE, EXIT_BUG, EXIT_DATA, EXIT_OK, EXIT_USAGE, CardgenError, UsageError
from cardgen.inputs.catalogs import canonical_language
from cardgen.inputs.files import atomic_write
from cardgen.inputs.paths import display_path
from cardgen.layout import sheet as layout
from cardgen.layout.cutter import MACHINES
from cardgen.load import editor_schemas
from cardgen.load.convert import FORMATS, convert
from cardgen.load.fields import card_settings
from cardgen.load.schema import MAX_PLAYERS
from cardgen.load.targets import DPI_RANGE
from cardgen.load.translator_sheet import translation_as_csv, translation_as_yaml
from cardgen.model import sizes
from cardgen.model.sizes import (
    CARD_SIZES_MM,
    COLOR_MODES,
    DEFAULT_BLEED_MM,
    DEFAULT_PAPER,
    DEFAULT_SPACING,
    PAPERS_MM,
    PRINT_MODES,
    SPACINGS,
)
from cardgen.model.texts import ascii_digits, printable
from cardgen.render.write import language_dir, output_folder

DESCRIPTION = """\
Make a print-and-play card game from a folder of YAML: card sheets ready to cut (with bleed,
crop marks and duplex backs), a rulebook, deck-setup checklists and a cheat sheet. 'cardgen
check' finds mistakes in the game data first, each with file, line and column.

Start with 'cardgen new mygame', then 'cardgen check mygame' and 'cardgen build mygame'."""
EPILOG = "Exit codes: 0 ok, 1 a problem in the game data (or writing the outputs), 2 a usage error, 3 a bug."


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file-size limit: an error message, not a kill
    try:
        return args.run(args)
    except CardgenError as exc:
        say(str(exc))
        return exc.exit_code
    except BrokenPipeError:  # e.g. `cardgen check | head`: the reader left, nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_DATA
    except KeyboardInterrupt:
        say("interrupted")
        return EXIT_DATA
    except Exception:  # noqa: BLE001 - a bug: keep the traceback, and say whose problem it is
        say(traceback.format_exc())
        say(BUG_NOTICE)
        return EXIT_BUG


def say(text: str, stream=None) -> None:
    """Print text that may hold game data (stderr unless told): control characters escaped."""
    print(printable(text), file=stream or sys.stderr)


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An option's whole number, from low to high (argparse names the option in its message)."""

    def parse(text: str) -> int:
        digits = text.strip().removeprefix("-")
        if not ascii_digits(digits):
            raise argparse.ArgumentTypeError(f"'{text[:20]}' is not a whole number")
        value = int(digits[:10]) * (-1 if text.strip().startswith("-") else 1)  # 10 digits: past any range
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text.strip()[:20]} is out of range: give {low} to {high}")
        return value

    return parse


def _text(text: str) -> str:
    """An option's text: characters only (bytes that are not UTF-8 reach Python as lone surrogates)."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise argparse.ArgumentTypeError(f"'{printable(text[:20])}' is not text: give it in UTF-8")
    return text


def _offset(text: str) -> tuple[float, float]:
    try:
        return layout.parse_offset(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _card_size(text: str) -> str:
    try:
        sizes.card_size_mm(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardgen", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"cardgen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("list", help="games and their setups")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("new", help="start a game folder: a small commented game, or a copy of a shipped one")
    p.add_argument("folder", help="the folder to create, e.g. mygame (its name names the output folder too)")
    p.add_argument("--from", dest="source", default=scaffold.STARTER, metavar="GAME",
                   help="copy this shipped game instead of the starter (see 'cardgen list')")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("schema", help="the editor schemas of game.yaml, cards.yaml, setups.yaml and layout.yaml")
    p.add_argument("--write", metavar="FOLDER", help="write the JSON Schema files into FOLDER "
                   "(default: print the line that makes an editor use each)")
    p.add_argument("--game", help="a game whose own card fields (game.yaml's fields:) the schemas know")
    p.set_defaults(run=cmd_schema)

    p = sub.add_parser("convert", help="the game's cards as a sheet (CSV, xlsx, ods) or a sheet's as cards.yaml; "
                                       "with --translate, a translator's sheet of its texts or the translation read "
                                       "back")
    p.add_argument("game", help="game folder name or path")
    p.add_argument("--to", choices=FORMATS, required=True, help="the format to print (or write with --out)")
    p.add_argument("--out", metavar="FILE", help="write the converted file there (needed for xlsx and ods on a "
                                                 "terminal)")
    p.add_argument("--translate", metavar="LANG",
                   help="csv: every text of the game beside its LANG translation so far (empty where there is "
                        "none); yaml: the game folder's i18n/LANG.csv, filled in, as i18n/LANG.yaml")
    p.set_defaults(run=cmd_convert)

    p = sub.add_parser("check", help="load a game and run the rules engine")
    p.add_argument("game", nargs="?", default=load.DEFAULT_GAME, help="game folder name or path")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--all-translated", action="store_true",
                   help="a text a translation (i18n/<lang>.yaml, rules.<lang>.md) lacks is an error, not a warning")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("rulebook", help="the rulebook PDF and its HTML edition")
    _document_options(p, game_required=True)
    _booklet_option(p)
    p.set_defaults(run=cmd_rulebook)

    p = sub.add_parser("checklist", help="deck-setup checklists, a page per setup and player count")
    _document_options(p, game_required=True)
    p.add_argument("--setup", help="only this setup (default: every setup)")
    p.add_argument("--players", type=_whole(1, MAX_PLAYERS), help="only this player count (default: every count of each setup)")
    p.set_defaults(run=cmd_checklist)

    p = sub.add_parser("cheatsheet", help="one-page cheat sheet plus card-sized pocket copies")
    _document_options(p, game_required=True)
    p.set_defaults(run=cmd_cheatsheet)

    p = sub.add_parser("cards", help="print-and-play card sheets: faces and their backs, double-sided or gutterfold")
    p.add_argument("game", help="game folder name or path")
    p.add_argument("--setup", help="the setup to print (default: the game's default setup)")
    p.add_argument("--players", type=_whole(1, MAX_PLAYERS),
                   help="print the deck for this many players (default: the setup's largest)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--all-types", action="store_true", help="one card of every type (a proof sheet)")
    which.add_argument("--calibration", action="store_true", help="a duplex calibration sheet to find --offset")
    which.add_argument("--changed-since", metavar="REF",
                       help="a reprint: only the cards changed or added since REF (see `cardgen diff`), after a "
                            "page with the setup's swap list")
    p.add_argument("--paper", choices=sorted(PAPERS_MM), default=DEFAULT_PAPER, help="paper size")
    p.add_argument("--size", type=_card_size,
                   help=f"card size: {', '.join(CARD_SIZES_MM)} or WxH in mm (default: the game's)")
    p.add_argument("--bleed", type=float, default=DEFAULT_BLEED_MM, help=f"bleed in mm (default {DEFAULT_BLEED_MM:g})")
    p.add_argument("--no-backs", action="store_true", help="faces only")
    p.add_argument("--offset", type=_offset, default=(0.0, 0.0),
                   help="X,Y in mm: shift the backs for printers that drift (see --calibration)")
    p.add_argument("--mode", choices=PRINT_MODES, default="long-edge",
                   help="how the backs are printed: double-sided flipping on the long or the short edge, or "
                        "gutterfold (single-sided: backs beside the faces, fold and glue)")
    p.add_argument("--layout", choices=SPACINGS, default=DEFAULT_SPACING, dest="spacing",
                   help="dense: as many cards a sheet as fit with gaps of twice the bleed where they cost no card, "
                        "else narrower, down to 1 mm of bleed each side (default); gutter: every card with its full "
                        "bleed on every side; shared-cuts: one cut between all neighbours, no bleed between them")
    p.add_argument("--marks", choices=sorted(MACHINES),
                   help="print-then-cut: a cutting machine's registration marks on the sheet (no crop marks) and "
                        "a cut file per sheet of its cards' outlines beside it (-sheet01.cut.svg, .cut.dxf, ...)")
    p.add_argument("--color", choices=COLOR_MODES, default="rgb",
                   help="rgb (default) or cmyk: every color and image in the shipped ISO Coated v2 (FOGRA39) "
                        "profile, as PDF/X-1a for a print shop")
    p.add_argument("--out", help="output folder (default: output/<game>/)")
    p.add_argument("--png", action="store_true", help="also write a PNG of every page")
    p.add_argument("--clean", action="store_true", help=CLEAN_HELP)
    _language_option(p)
    p.set_defaults(run=cmd_cards)

    p = sub.add_parser("diff", help="what changed since an earlier version of the game: cards, counts, rules")
    p.add_argument("game", nargs="?", default=load.DEFAULT_GAME, help="game folder name or path")
    p.add_argument("--since", required=True, metavar="REF",
                   help="the earlier version: a game folder, a zip of one, or a git revision (commit, tag, branch)")
    p.add_argument("--json", action="store_true", help="the changes as JSON")
    p.add_argument("--pdf", action="store_true",
                   help="also write diff-since-<ref>.pdf: each changed card old and new side by side, "
                        "the added and removed cards")
    p.add_argument("--paper", choices=sorted(PAPERS_MM), default=DEFAULT_PAPER, help="paper size of the PDF")
    p.add_argument("--out", help="output folder of the PDF (default: output/<game>/)")
    p.set_defaults(run=cmd_diff)

    p = sub.add_parser("simulate", help="play the setups out many times: game length, wins by seat, early "
                                        "eliminations, saving cards running out")
    p.add_argument("game", nargs="?", default=load.DEFAULT_GAME, help="game folder name or path")
    p.add_argument("--setup", help="only this setup (default: every setup)")
    p.add_argument("--players", type=_whole(1, MAX_PLAYERS), help="only this player count (default: every one)")
    p.add_argument("--games", type=_whole(1, MAX_GAMES),
                   help="games per setup and player count (default: enough for every rate within ±1 percentage "
                        "point at 95 %%)")
    p.add_argument("--seed", type=_text, default="0",
                   help="the random seed: the same seed gives the same figures (default 0)")
    p.add_argument("--policy", choices=sorted(POLICIES), default=DEFAULT_POLICY,
                   help="how the simulated players play: " + "; ".join(f"{k}: {v}" for k, v in POLICIES.items()))
    p.add_argument("--json", action="store_true", help="the figures with their 95 %% intervals, as JSON")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("preflight", help="what a print shop's preflight would flag in PDF files: each point, pass or fail")
    p.add_argument("pdfs", nargs="+", metavar="PDF", help="a PDF file (cardgen's card sheets or any other)")
    p.set_defaults(run=cmd_preflight)

    p = sub.add_parser("export", help="card images and files for a print service or Tabletop Simulator")
    p.add_argument("game", help="a game under card_data/ or a game folder")
    p.add_argument("--to", required=True, metavar="TARGET",
                   help="png (the game's card size), tgc (The Game Crafter), mpc (MakePlayingCards), "
                        "drivethru (DriveThruCards, PDF/X 1-up), cricut (Cricut Design Space, trimmed images), "
                        "tts (Tabletop Simulator), or a target of the "
                        "game's export-targets.yaml")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--setup", help="the setup whose cards to export (default: the game's default setup)")
    which.add_argument("--all-types", action="store_true", help="one card of every type")
    p.add_argument("--dpi", type=_whole(*DPI_RANGE), help="pixels per inch for the png target (default 300)")
    p.add_argument("--out", help="output folder (default: output/<game>/); files go into export-<target>-<deck>/")
    p.add_argument("--clean", action="store_true", help=CLEAN_HELP)
    _language_option(p)
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("build", help="every output for the game: card sheets, rulebook, checklists, cheat sheet")
    _document_options(p, game_required=False, every_language=True)
    _booklet_option(p)
    p.add_argument("--export", action="append", default=[], metavar="TARGET",
                   help="also export for a print service or Tabletop Simulator, as `cardgen export --to` "
                        "(repeatable; game.yaml's exports: are always made)")
    p.set_defaults(run=cmd_build)

    p = sub.add_parser("serve", help="a live preview in the browser: cards, report and documents, updated on every save")
    p.add_argument("game", nargs="?", default=load.DEFAULT_GAME, help="game folder name or path")
    p.add_argument("--port", type=_whole(0, 65535), default=8000, help="port on 127.0.0.1 (default 8000; 0 picks a free one)")
    p.add_argument("--since", metavar="REF", default="",
                   help="also show the changes since an earlier version (see `cardgen diff`), updated on every save")
    p.set_defaults(run=cmd_serve)
    return parser


def _booklet_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--booklet", action="store_true",
                   help="also rulebook-booklet.pdf: A5 pages (half-letter on Letter) two to a landscape sheet in "
                        "saddle-stitch order, to print duplex (flip on the short edge), fold and staple")


def _language_option(p: argparse.ArgumentParser, every: bool = False) -> None:
    p.add_argument("--lang", metavar="LANG", help="one of the game's languages (game.yaml languages:): its outputs go "
                   "into <lang>/ inside the output folder (default: " + ("every language" if every else "the game's "
                   "source language") + ")")


def _document_options(p: argparse.ArgumentParser, game_required: bool, every_language: bool = False) -> None:
    if game_required:
        p.add_argument("game", help="game folder name or path")
    else:
        p.add_argument("game", nargs="?", default=load.DEFAULT_GAME, help="game folder name or path")
    p.add_argument("--out", help="output folder (default: output/<game>/)")
    p.add_argument("--paper", choices=sorted(PAPERS_MM), default=DEFAULT_PAPER, help="paper size")
    p.add_argument("--clean", action="store_true", help=CLEAN_HELP)
    _language_option(p, every_language)


CLEAN_HELP = "build every output again, even those whose inputs are unchanged since they were built"


# --------------------------------------------------------------------------- commands


def cmd_list(args) -> int:
    games = load.list_games()
    if not games:
        say("no games found under card_data/", sys.stdout)
        return EXIT_OK
    for name in games:
        say(report.game_listing(name, load.load_game(name).game), sys.stdout)
    return EXIT_OK


def cmd_new(args) -> int:
    folder = scaffold.new_game(args.folder, args.source)
    what = "the starter game" if args.source == scaffold.STARTER else f"a copy of {args.source}"
    files = ", ".join(sorted(p.name for p in folder.iterdir()))
    say(f"created {args.folder}/ with {what} ({files})\n"
        f"next:\n"
        f"  edit {args.folder}/game.yaml, cards.yaml, setups.yaml and rules.md\n"
        f"  cardgen check {args.folder}     find mistakes, each with file:line:column\n"
        f"  cardgen build {args.folder}     write every PDF to {Path('output') / folder.name}/", sys.stdout)
    return EXIT_OK


def cmd_schema(args) -> int:
    fields: tuple = ()
    if args.game:
        settings = card_settings(load.find_game_folder(args.game))
        fields = settings.fields
        if any(f.level == "error" for f in settings.findings):
            say("\n".join(str(f) for f in settings.findings))
            return EXIT_DATA
    if args.write:
        for path in editor_schemas.write_schemas(Path(args.write), fields):
            say(f"wrote {path}", sys.stdout)
        return EXIT_OK
    say("Put each line at the top of its file: editors with YAML support (yaml-language-server: VS Code's\n"
        "YAML extension, Neovim, Helix, Zed, ...) then check and complete the file as you type.", sys.stdout)
    for name in editor_schemas.files():
        say(f"  {editor_schemas.shown_name(name):<16} {editor_schemas.modeline(name)}", sys.stdout)
    return EXIT_OK


def cmd_convert(args) -> int:
    folder = load.find_game_folder(args.game)
    if args.translate:
        if args.to not in ("csv", "yaml") or args.out:
            raise UsageError("a translator's sheet is converted --to csv or --to yaml, printed",
                             hint="redirect the output into the file, e.g. > i18n/de.csv")
        return _convert_translation(folder, args.translate, args.to)
    binary = args.to in ("xlsx", "ods")
    if binary and not args.out and (sys.stdout.isatty() or not hasattr(sys.stdout, "buffer")):
        raise UsageError(f"a .{args.to} workbook is no text to print on a terminal",
                         hint=f"write it with --out {folder.name}/cards.{args.to} (then remove the other card file)")
    done = convert(folder, args.to)
    if done.data is None:
        say("\n".join(str(f) for f in done.findings))
        return EXIT_DATA
    if args.out:
        try:
            atomic_write(Path(args.out), done.data)
        except OSError as exc:
            raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}", hint="give a file you can write") \
                from None
    elif binary:
        sys.stdout.flush()
        sys.stdout.buffer.write(done.data)
        sys.stdout.flush()
    else:
        sys.stdout.write(done.data.decode("utf-8"))
    say(f"converted {display_path(done.source, folder)}; a game reads one card file: keep "
        f"{display_path(done.target, folder)} and remove {done.source.name}")
    return EXIT_OK


def _convert_translation(folder: Path, language: str, to: str) -> int:
    canonical = canonical_language(language)
    if canonical != language:  # the code names the sheet's file: never a path
        raise UsageError(f"--translate: '{language[:40]}' is not a language code" if canonical is None else
                         f"--translate: '{language[:40]}' is written '{canonical}'",
                         hint="give the language as game.yaml's languages: lists it, such as de, fr or pt-BR")
    if to == "csv":
        loaded = load.load_game(folder)
        if not loaded.ok or loaded.game is None:
            say("\n".join(str(f) for f in loaded.findings if f.level == "error"))
            return EXIT_DATA
        sys.stdout.write(translation_as_csv(loaded.game, language))
        say(f"save it as {folder.name}/i18n/{language}.csv, fill in the {language} column, then: "
            f"cardgen convert {folder.name} --translate {language} --to yaml > {folder.name}/i18n/{language}.yaml")
        return EXIT_OK
    sheet = folder / "i18n" / f"{language}.csv"
    if not sheet.is_file():
        raise UsageError(f"{folder.name} has no i18n/{language}.csv to convert",
                         hint=f"write one with: cardgen convert {folder.name} --translate {language} --to csv")
    text, findings = translation_as_yaml(sheet, language, folder)
    if text is None:
        say("\n".join(str(f) for f in findings))
        return EXIT_DATA
    sys.stdout.write(text)
    return EXIT_OK


def cmd_check(args) -> int:
    checked = check_folder(args.game, all_translated=args.all_translated)
    say(report.check_as_json(checked) if args.json else report.check_as_text(checked), sys.stdout)
    return EXIT_OK if checked.ok else EXIT_DATA


def cmd_rulebook(args) -> int:
    return _build(args, lambda game, checked: build.plan_rulebook(game, args.paper, args.booklet))


def cmd_checklist(args) -> int:
    return _build(args, lambda game, checked: build.plan_checklists(game, args.paper, args.setup, args.players))


def cmd_cheatsheet(args) -> int:
    return _build(args, lambda game, checked: build.plan_cheatsheet(game, args.paper))


def cmd_cards(args) -> int:
    sheet = build.SheetOptions(size=args.size, bleed=args.bleed, backs=not args.no_backs, offset=args.offset,
                               mode=args.mode, spacing=args.spacing, png=args.png, color=args.color,
                               marks=args.marks or "")
    if args.changed_since:
        with playtest_round(args.game, args.changed_since) as round_:
            sheet, swaps = round_.in_language(args.lang).reprint(sheet, args.setup)
        say("\n".join([f"swap list ({sheet.swaps[0]}):", *(f"  {line}" for line in swaps or ["nothing to swap"])]),
            sys.stdout)
    return _build(args, lambda game, checked: build.plan_cards(
        game, args.paper, sheet, args.setup, args.players, args.all_types, args.calibration),
        read=(sheet.reprint, sheet.swaps))


def cmd_diff(args) -> int:
    with playtest_round(args.game, args.since) as round_:
        diff = round_.diff
        if args.json:
            say(json.dumps(diff.as_dict(), indent=2, ensure_ascii=False), sys.stdout)
        else:
            say("\n".join(terminal.diff_lines(round_.game.id, args.since, diff)), sys.stdout)
        if args.pdf:
            say(f"wrote {round_.write_pdf(args.out, args.since, args.paper)}")
    return 0


def cmd_simulate(args) -> int:
    game, checked = load_checked(args.game)
    reason = nothing_to_simulate(game)
    if reason:
        say(simulation_report.nothing_as_json(game, reason) if args.json
            else simulation_report.nothing_as_text(game, reason), sys.stdout)
        return EXIT_OK
    with terminal.progress(sys.stderr, f"simulating {game.title}") as advance:
        simulations = simulate_game(game, checked, setup=args.setup, players=args.players, games=args.games,
                                    seed=args.seed, policy=args.policy, done=advance)
    say(simulation_report.simulation_as_json(game, checked, simulations) if args.json
        else simulation_report.simulation_as_text(game, checked, simulations, args.games is not None), sys.stdout)
    return EXIT_OK


def cmd_preflight(args) -> int:
    failed = 0
    for name in args.pdfs:
        report = preflight(Path(name))
        say(f"{name}: " + ("passes" if report.passed else "would be flagged"), sys.stdout)
        for line in report.lines():
            say(f"  {line}", sys.stdout)
        failed += not report.passed
    return EXIT_DATA if failed else 0


def cmd_export(args) -> int:
    return _build(args, lambda game, checked: build.plan_export(
        game, checked, args.to, args.setup, args.all_types, args.dpi))


def cmd_build(args) -> int:
    return _build(args, lambda game, checked: build.plan_all(game, checked, args.paper, args.export, args.booklet),
                  summary=True)


def _announce(text: str) -> None:
    say(text)
    sys.stderr.flush()


def cmd_serve(args) -> int:
    serve.serve(args.game, args.port, announce=_announce, since=args.since)
    say("stopped")
    return EXIT_OK


def _build(args, plan_of, summary: bool = False, read: object = None) -> int:
    """Load, check, plan and run a building command, showing its progress on a terminal. The
    input files are read before loading: when they and the options are the same as at the
    command's last run in the output folder, and its outputs are unchanged there, nothing
    needs loading or building (unless --clean). `read` is what the command took from elsewhere
    (a reprint's counts and swap list from an earlier version): part of the options."""
    folder = load.find_game_folder(args.game)
    inputs = snapshot(folder)
    request = (args.command, sorted((k, v) for k, v in vars(args).items() if k not in ("run", "out", "clean")), read)
    # with --lang the folder depends on the game's source language: the game is loaded, and the
    # run reuses each output whose inputs did not change
    reused = None if args.clean or args.lang else build.reuse(inputs, request, args.out)
    if reused is not None:
        shown = terminal.display(sys.stderr, reused.title, 0)  # nothing to show progress of
        return _said(shown, reused, output_folder(folder.name, args.out), summary)
    game, checked = load_checked(folder)
    status = EXIT_OK
    languages = build.languages_to_build(game, args.lang, every=summary)
    for language in languages:
        report = build.report_in(checked, language)
        plan = plan_of(report.game, report)
        others = [] if report.game.is_translation else [other for other in languages if other != language]
        with terminal.display(sys.stderr, report.game.title, len(plan.outputs)) as shown:
            result = build.run(report.game, report, plan, args.out, on_event=shown.event, clean=args.clean,
                               inputs=inputs, request=request, languages=others)
        status = max(status, _said(shown, result, language_dir(report.game, args.out), summary))
    return status


def _said(shown, result: build.Result, folder: Path, summary: bool) -> int:
    """Print what a run did: failures, bugs, warnings, what was written or already up to date
    (for `build`, a summary of the output folder)."""
    for text in result.failures:
        say(text)
    for text in result.bugs:
        say(text)
        say(BUG_NOTICE)
    for text in result.warnings + list(result.notes):
        say(text)
    if not result.ok:
        say("nothing was written: the earlier outputs are unchanged")
    if summary:
        shown.summary(folder, result)
    else:
        shown.written(result)
    return EXIT_BUG if result.bugs else EXIT_DATA if result.failures else EXIT_OK
