"""games: where a game's folder is, from its name under card_data/ or a path. Light, so that a
command finds its game (and `cardgen build` with nothing changed answers) without loading."""
from __future__ import annotations

import os
from pathlib import Path

from cardgen.errors import UsageError
from cardgen.inputs.paths import CARD_DATA

DEFAULT_GAME = "exploding_puppy"


class GameNotFound(UsageError):
    """No game folder by that name or path."""


def find_game_folder(game: str | os.PathLike[str] | None) -> Path:
    """A game named under card_data/ (in the working directory or the project), or a folder path."""
    name = str(game or DEFAULT_GAME)
    as_path = Path(name)
    candidates = [as_path] if (os.sep in name or as_path.is_dir()) else []
    candidates += [Path("card_data") / name, CARD_DATA / name]
    for folder in candidates:
        if (folder / "game.yaml").is_file():
            return folder.resolve()
    known = ", ".join(list_games()) or "none"
    raise GameNotFound(f"no game '{name}': expected a folder with a game.yaml (known games: {known})")


def list_games() -> list[str]:
    roots = [Path("card_data"), CARD_DATA]
    names: set[str] = set()
    for root in roots:
        if root.is_dir():
            names.update(p.name for p in root.iterdir() if (p / "game.yaml").is_file())
    return sorted(names)
