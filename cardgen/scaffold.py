"""scaffold: `cardgen new`, a game folder to start from: the commented starter game or a copy
of a shipped one. The starter is a game like any other (card_data/starter), so the tests that
check and build every shipped game keep it working."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from cardgen.errors import UsageError
from cardgen.inputs.paths import CARD_DATA
from cardgen.load import editor_schemas

SHIPPED_GAMES = CARD_DATA
STARTER = "starter"
FOLDER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")


class ScaffoldError(UsageError):
    """The folder cannot be created as asked (a usage error: nothing was written)."""


def shipped_games() -> list[str]:
    return sorted(p.name for p in SHIPPED_GAMES.iterdir() if (p / "game.yaml").is_file())


def new_game(target: str | Path, source: str = STARTER) -> Path:
    """Create the game folder `target` as a copy of the shipped game `source`; the starter's
    title becomes the folder's name in words."""
    target = Path(target)
    if not FOLDER_NAME.match(target.name):
        raise ScaffoldError(f"'{target.name}' cannot name a game folder: use letters, digits, '-' or '_' "
                            "(it names the output folder too)")
    if target.is_symlink() or target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ScaffoldError(f"{target} already exists{' (a link)' if target.is_symlink() else ''}: "
                            "choose another name or remove it")
    blocked = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocked is not None:
        raise ScaffoldError(f"{target} cannot be made: {blocked} is a file, not a folder")
    if source not in shipped_games():
        raise ScaffoldError(f"no shipped game '{source}' (shipped games: {', '.join(shipped_games())})")
    try:
        shutil.copytree(SHIPPED_GAMES / source, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    except OSError as exc:
        raise ScaffoldError(f"{target} cannot be made: {getattr(exc, 'strerror', None) or exc}") from None
    if source == STARTER:
        _retitle(target / "game.yaml", target.name.replace("_", " ").replace("-", " ").title())
    for name in editor_schemas.files():
        if (target / name).is_file():
            _point_editors_at_schema(target / name)
    return target


def _point_editors_at_schema(path: Path) -> None:
    """Start the file with the line that makes editors validate and complete it (see `cardgen schema`)."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith("# yaml-language-server:"):
        path.write_text(editor_schemas.modeline(path.name) + "\n" + text, encoding="utf-8")


def _retitle(game_yaml: Path, title: str) -> None:
    """Replace the value of the top-level `title:` line, keeping its comment."""
    text = game_yaml.read_text(encoding="utf-8")
    text = re.sub(r"^title: [^#\n]*?(\s*#|$)", lambda m: f"title: {title}{m.group(1)}", text, count=1,
                  flags=re.M)
    game_yaml.write_text(text, encoding="utf-8")
