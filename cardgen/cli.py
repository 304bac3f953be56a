"""The command line: parse, call the pipeline, report. Exit codes: 0 ok, 1 data errors, 2 usage."""
from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Sequence

from . import engine, load, scaffold
from .render import documents
from .write import output_dir, publish, staging
from .model import ERROR, INFO, WARNING, BuildError, Finding

EXIT_OK, EXIT_DATA, EXIT_USAGE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.run(args)
    except (load.GameNotFound, scaffold.ScaffoldError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BuildError as exc:
        print(exc, file=sys.stderr)
        return EXIT_DATA
    except BrokenPipeError:  # e.g. `cardgen check | head`: the reader left, nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_DATA
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_DATA


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardgen", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("list", help="games and their setups")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("new", help="start a game folder: a small commented game, or a copy of a shipped one")
    p.add_argument("folder", help="the folder to create, e.g. mygame (its name names the output folder too)")
    p.add_argument("--from", dest="source", default=scaffold.STARTER, metavar="GAME",
                   help="copy this shipped game instead of the starter (see 'cardgen list')")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("convert", help="print the game's cards as CSV (for a spreadsheet) or as cards.yaml")
    p.add_argument("game", help="game folder name or path")
    p.add_argument("--to", choices=["csv", "yaml"], required=True, help="the format to print")
    p.set_defaults(run=cmd_convert)

    p = sub.add_parser("check", help="load a game and run the rules engine")
    p.add_argument("game", nargs="?", default=load.DEFAULT_GAME, help="game folder name or path")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("rulebook", help="the rulebook PDF")
    _document_options(p, game_required=True)
    p.set_defaults(run=cmd_rulebook)

    p = sub.add_parser("checklist", help="deck-setup checklists, one page per setup")
    _document_options(p, game_required=True)
    p.add_argument("--setup", help="only this setup (default: every setup)")
    p.add_argument("--players", type=int, help="player count (default: each setup's largest)")
    p.set_defaults(run=cmd_checklist)

    p = sub.add_parser("cheatsheet", help="one-page cheat sheet plus card-sized pocket copies")
    _document_options(p, game_required=True)
    p.set_defaults(run=cmd_cheatsheet)

    p = sub.add_parser("cards", help="print-and-play card sheets (faces, then mirrored backs)")
    p.add_argument("game", help="game folder name or path")
    p.add_argument("--setup", help="the setup to print (default: the game's default setup)")
    p.add_argument("--players", type=int, help="print the deck for this many players (default: the setup's largest)")
    p.add_argument("--all-types", action="store_true", help="one card of every type (a proof sheet)")
    p.add_argument("--calibration", action="store_true", help="a duplex calibration sheet to find --offset")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help="paper size")
    p.add_argument("--size", help="card size: poker, bridge, tarot, mini or WxH in mm (default: the game's)")
    p.add_argument("--bleed", type=float, default=3.0, help="bleed in mm (default 3)")
    p.add_argument("--no-backs", action="store_true", help="faces only")
    p.add_argument("--offset", help="X,Y in mm: shift the backs for printers that drift (see --calibration)")
    p.add_argument("--out", help="output folder (default: output/<game>/)")
    p.add_argument("--png", action="store_true", help="also write a PNG of every page")
    p.set_defaults(run=cmd_cards)

    p = sub.add_parser("build", help="every output for the game: card sheets, rulebook, checklists, cheat sheet")
    _document_options(p, game_required=False)
    p.set_defaults(run=cmd_build)
    return parser


def _document_options(p: argparse.ArgumentParser, game_required: bool) -> None:
    if game_required:
        p.add_argument("game", help="game folder name or path")
    else:
        p.add_argument("game", nargs="?", default=load.DEFAULT_GAME, help="game folder name or path")
    p.add_argument("--out", help="output folder (default: output/<game>/)")
    p.add_argument("--paper", choices=sorted(documents.PAPERS), default="a4", help="paper size")


# --------------------------------------------------------------------------- shared steps


def load_and_check(game_name: str, quiet: bool = False):
    """Load + engine. Prints error findings and raises SystemExit(1) on any."""
    result = load.load_game(game_name)
    if not result.ok:
        print_findings([f for f in result.findings if f.level == ERROR], sys.stderr)
        raise SystemExit(EXIT_DATA)
    report = engine.check_game(result.game, result.findings)
    errors = [f for f in report.every_finding() if f.level == ERROR]
    if errors:
        print_findings(errors, sys.stderr)
        print(f"{len(errors)} error(s): nothing was built. Run 'cardgen check {game_name}' for the full report.",
              file=sys.stderr)
        raise SystemExit(EXIT_DATA)
    return result.game, report


def print_findings(findings: Sequence[Finding], stream) -> None:
    for finding in findings:
        print(finding, file=stream)


# --------------------------------------------------------------------------- commands


def cmd_list(args) -> int:
    games = load.list_games()
    if not games:
        print("no games found under card_data/")
        return EXIT_OK
    for name in games:
        result = load.load_game(name)
        if result.game is None:
            print(f"{name}: cannot be loaded (run 'cardgen check {name}')")
            continue
        game = result.game
        print(f"{name}: {game.title} {game.version}".rstrip() + f" — {len(game.cards)} card types")
        for setup in game.setups:
            total = sum(line.count or 0 for line in setup.lines)
            print(f"    {setup.name:<24} {_players(setup):>6} players  {total:>4} cards")
    return EXIT_OK


def cmd_new(args) -> int:
    folder = scaffold.new_game(args.folder, args.source)
    what = "the starter game" if args.source == scaffold.STARTER else f"a copy of {args.source}"
    files = ", ".join(sorted(p.name for p in folder.iterdir()))
    print(f"created {args.folder}/ with {what} ({files})\n"
          f"next:\n"
          f"  edit {args.folder}/game.yaml, cards.yaml, setups.yaml and rules.md\n"
          f"  cardgen check {args.folder}     find mistakes, each with file:line:column\n"
          f"  cardgen build {args.folder}     write every PDF to {Path('output') / folder.name}/")
    return EXIT_OK


def cmd_convert(args) -> int:
    from .load import spreadsheet
    folder = load.find_game_folder(args.game)
    source = folder / ("cards.yaml" if args.to == "csv" else "cards.csv")
    if not source.is_file():
        print(f"error: {load.display_path(folder)} has no {source.name} to convert", file=sys.stderr)
        return EXIT_USAGE
    reader = load.Reader(source) if args.to == "csv" else spreadsheet.CsvReader(source)
    text = spreadsheet.cards_as_csv(reader) if args.to == "csv" else spreadsheet.cards_as_yaml(reader)
    if text is None:
        print_findings(reader.findings, sys.stderr)
        return EXIT_DATA
    sys.stdout.write(text)
    target = source.with_suffix(f".{args.to}")
    print(f"converted {load.display_path(source)}; a game reads either cards.yaml or cards.csv: keep "
          f"{load.display_path(target)} and remove {source.name}", file=sys.stderr)
    return EXIT_OK


def cmd_check(args) -> int:
    result = load.load_game(args.game)
    if not result.ok:  # the engine runs on data that loads cleanly; its findings would only echo these
        if args.json:
            print(json.dumps({"game": args.game, "setups": [],
                              "findings": [f.as_dict() for f in result.findings]}, indent=2))
        else:
            print_findings(result.findings, sys.stdout)
            print(f"\n{_summary(result.findings)}")
        return EXIT_DATA
    report = engine.check_game(result.game, result.findings)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        print(format_report(report))
    return EXIT_DATA if report.has_errors else EXIT_OK


def cmd_rulebook(args) -> int:
    game, report = load_and_check(args.game)
    path = documents.write_rulebook(game, report, output_dir(game, args.out), args.paper)
    print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK


def cmd_checklist(args) -> int:
    game, report = load_and_check(args.game)
    if args.setup:
        try:
            game.setup(args.setup)
        except KeyError:
            print(f"error: no setup '{args.setup}' in {game.id} (setups: "
                  f"{', '.join(s.name for s in game.setups)})", file=sys.stderr)
            return EXIT_USAGE
    path = documents.write_checklists(game, report, output_dir(game, args.out), args.paper,
                                      args.setup, args.players)
    print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK


def cmd_cheatsheet(args) -> int:
    from .render import cheatsheet
    game, report = load_and_check(args.game)
    path = cheatsheet.write_cheatsheet(game, report, output_dir(game, args.out), args.paper)
    if path is None:
        print(f"{game.title} has no cheat sheet: add a 'reference: cheatsheet:' section to its game.yaml",
              file=sys.stderr)
        return EXIT_DATA
    print(f"wrote {path} and {path.with_name('cheatsheet-pocket.pdf')}", file=sys.stderr)
    return EXIT_OK


def cmd_cards(args) -> int:
    from . import layout
    from .render import cards
    try:
        offset = layout.parse_offset(args.offset)
        if args.size:
            layout.card_size_mm(args.size)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    game, report = load_and_check(args.game)
    out = output_dir(game, args.out)
    options = dict(paper=args.paper, size=args.size, bleed=args.bleed, backs=not args.no_backs, offset=offset,
                   png=args.png)
    if args.calibration:
        path = cards.write_calibration(game, out, paper=args.paper, offset=offset, png=args.png)
    elif args.all_types:
        path = cards.write_proof_sheet(game, out, **options)
    else:
        name = args.setup or game.default_setup or (game.setups[0].name if game.setups else "")
        try:
            setup_report = report.setup(name)
        except (KeyError, StopIteration):
            print(f"error: no setup '{name}' in {game.id} (setups: "
                  f"{', '.join(s.name for s in game.setups) or 'none'})", file=sys.stderr)
            return EXIT_USAGE
        setup = setup_report.setup
        if args.players is not None and args.players not in setup.player_counts:
            print(f"error: {setup.name} is for {_players(setup)} players, not {args.players}", file=sys.stderr)
            return EXIT_USAGE
        path = cards.write_setup_sheets(game, setup_report, out, players=args.players, **options)
    print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK


def cmd_build(args) -> int:
    game, report = load_and_check(args.game)
    out = output_dir(game, args.out)
    jobs = [("rulebook", None), ("checklists", None), ("cheatsheet", None)] + [
        ("cards", s.setup.name) for s in report.setups]
    written, failed, no_art = [], [], set()
    # outputs are independent: two worker processes, each given the checked game once. They write
    # into a staging folder; the outputs replace the old ones only when every one succeeded, so a
    # failed build leaves the last good build as it was.
    with staging(out) as stage:
        with ProcessPoolExecutor(2, initializer=_build_worker_init,
                                 initargs=(game, report, stage, args.paper)) as pool:
            for future in as_completed([pool.submit(_build_one, job) for job in jobs]):
                path, problem, placeholders = future.result()
                no_art |= placeholders
                if problem:
                    failed.append(problem)
                    print(problem, file=sys.stderr)
        if no_art:  # one warning for all the card sheets, not one per sheet
            from .render import cards
            print(cards.placeholder_warning(game, sorted(no_art, key=str.casefold)), file=sys.stderr)
        if not failed:
            written = publish(stage, out)
            for path in written:
                print(f"wrote {path}", file=sys.stderr)
        else:
            print("nothing was written: the earlier outputs are unchanged", file=sys.stderr)
    print(f"\n{game.title}: {len(written)} file(s) in {out}/" + (f", {len(failed)} failed" if failed else ""),
          file=sys.stderr)
    for path in sorted(written):
        print(f"  {path.name}", file=sys.stderr)
    return EXIT_DATA if failed else EXIT_OK


_BUILD: dict = {}


def _build_worker_init(game, report, out, paper) -> None:
    _BUILD.update(game=game, report=report, out=out, paper=paper)


def _build_one(job: tuple[str, str | None]):
    """One output of `cardgen build`, in a worker: (path or None, problem or None, the names of
    the cards a card sheet drew with placeholders, for the main process to warn about once)."""
    placeholders: set[str] = set()
    path, problem = _build_output(*job, placeholders)
    return path, problem, placeholders


def _build_output(kind: str, setup: str | None, placeholders: set[str]):
    game, report, out, paper = _BUILD["game"], _BUILD["report"], _BUILD["out"], _BUILD["paper"]
    try:
        if kind == "rulebook":
            return documents.write_rulebook(game, report, out, paper), None
        if kind == "checklists":
            return documents.write_checklists(game, report, out, paper), None
        if kind == "cheatsheet":
            from .render import cheatsheet
            return cheatsheet.write_cheatsheet(game, report, out, paper), None
        from .render import cards
        return cards.write_setup_sheets(game, report.setup(setup), out, paper=paper, placeholders=placeholders), None
    except BuildError as exc:
        return None, str(exc)
    except Exception as exc:  # a bug or a library failure: report it as this output's failure, no traceback
        return None, f"error: {kind}{f' {setup}' if setup else ''}: {exc.__class__.__name__}: {exc}"


# --------------------------------------------------------------------------- human-readable report


def _players(setup) -> str:
    if setup.min_players == setup.max_players:
        return str(setup.min_players)
    return f"{setup.min_players}–{setup.max_players}"


def _fmt(value) -> str:
    number = engine._number(value)
    return str(number)


def format_report(report: engine.GameReport) -> str:
    game = report.game
    lines = [f"{game.title} {game.version}".rstrip() + f" — {len(game.cards)} card types, "
             f"{len(game.setups)} setups", ""]
    for finding in report.findings:
        lines.append(f"  {finding}")
    if report.findings:
        lines.append("")
    kinds = [k.id for k in game.kinds]
    for s in report.setups:
        setup = s.setup
        colors = " · ".join(f"{game.color(c).name.lower()} {n}" for c, n in s.by_color.items())
        unknown = f" (+{len(s.unknown_counts)} unknown)" if s.unknown_counts else ""
        lines.append(f"{setup.name} ({_players(setup)} players): {s.total} cards{unknown}")
        lines.append(f"  colors: {colors}")
        lines.append("  kinds:  " + ", ".join(f"{k} {n}" for k, n in s.by_kind.items() if n) or "  kinds: none")
        balanced = any(p.balance for p in s.players)
        head = ["players", "dealt", "draw pile"] + kinds + ["set aside"] + (BALANCE_HEAD if balanced else [])
        rows = []
        for p in s.players:
            aside = sum(v for name, v in p.piles.items() if name != "hands")
            rows.append([str(p.players), _fmt(p.dealt_per_player), _fmt(p.draw_pile)]
                        + [_fmt(p.draw_by_kind.get(k, 0)) for k in kinds] + [_fmt(aside)]
                        + (balance_cells(p.balance) if balanced else []))
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)] if rows else []
        lines.append("  " + "  ".join(h.rjust(w) for h, w in zip(head, widths)))
        for row in rows:
            lines.append("  " + "  ".join(v.rjust(w) for v, w in zip(row, widths)))
        lines.append(f"  print: {s.print_total} cards for {setup.max_players} players")
        for finding in s.all_findings():
            lines.append(f"  {finding}")
        lines.append("")
    lines.append(_summary(report.every_finding()))
    return "\n".join(lines)


BALANCE_HEAD = ["1st draw loses", "draws before", "saving each"]


def balance_cells(balance) -> list[str]:
    """The balance figures as the report's columns: chance, expected safe draws, saving cards."""
    if balance is None:
        return ["-"] * len(BALANCE_HEAD)
    return [f"{balance.first_draw_loses:.0%}", f"{balance.draws_before_losing:.1f}",
            f"{_fmt(balance.saving_in_hand)} +{_fmt(balance.saving_in_draw_pile)} in pile"]


def _summary(findings: Sequence[Finding]) -> str:
    counts = {level: sum(1 for f in findings if f.level == level) for level in (ERROR, WARNING, INFO)}
    verdict = "FAILED" if counts[ERROR] else "ok"
    return f"{verdict}: {counts[ERROR]} error(s), {counts[WARNING]} warning(s), {counts[INFO]} note(s)"
