"""cardgen convert: the cards as a spreadsheet or a spreadsheet's as cards.yaml; a translator's
sheet of the game's texts, and the filled-in sheet read back as a translation."""
from __future__ import annotations

import sys
from pathlib import Path

from cardgen import load
from cardgen.commands.options import game, say
from cardgen.errors import EXIT_DATA, EXIT_OK, UsageError
from cardgen.inputs.catalogs import canonical_language
from cardgen.inputs.files import atomic_write
from cardgen.inputs.paths import display_path
from cardgen.load.convert import FORMATS, convert
from cardgen.load.translator_sheet import translation_as_csv, translation_as_yaml


def add_arguments(p) -> None:
    game(p, required=True)
    p.add_argument("--to", choices=FORMATS, required=True, help="the format to print (or write with --out)")
    p.add_argument("--out", metavar="FILE", help="write the converted file there (needed for xlsx and ods on a "
                                                 "terminal)")
    p.add_argument("--translate", metavar="LANG",
                   help="csv: every text of the game beside its LANG translation so far (empty where there is "
                        "none); yaml: the game folder's i18n/LANG.csv, filled in, as i18n/LANG.yaml")


def run(args) -> int:
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
