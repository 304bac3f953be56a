"""cardgen schema: the JSON Schemas that let an editor check and complete the game's YAML files."""
from __future__ import annotations

import sys
from pathlib import Path

from cardgen import load
from cardgen.commands.options import say
from cardgen.errors import EXIT_DATA, EXIT_OK
from cardgen.load import editor_schemas
from cardgen.load.fields import card_settings


def add_arguments(p) -> None:
    p.add_argument("--write", metavar="FOLDER", help="write the JSON Schema files into FOLDER "
                   "(default: print the line that makes an editor use each)")
    p.add_argument("--game", help="a game whose own card fields (game.yaml's fields:) the schemas know")


def run(args) -> int:
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
